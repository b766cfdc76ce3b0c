/*
 * A second call-heavy workload on real code nobody here wrote (bench section 29, issue
 * 41): the Lua 5.3 interpreter (the sources of the npm package lua-src) running a
 * script of the shape real scripts have, built with gcc and with pvmmon-cc, its result
 * printed so that the builds can be compared.
 *
 * usage: lua_work [-p] [SCALE]   (default 10; -p: a PVM task, enrolled with pvm_mytid
 * and leaving with pvm_exit, as `pvmmon run` runs it)
 *
 * The script, deterministic (its own generator): deep recursion through Lua calls
 * (fib), string building (string.format, table.concat, gsub), a sort of 6,700 * SCALE
 * numbers with a Lua comparison function (table.sort calls back into the interpreter
 * for every comparison), table churn that keeps the garbage collector busy, and a plain
 * numeric loop. Everything it computes goes into one checksum, printed at the end.
 */
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <pvm3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char script[] =
    "local scale = ...\n"
    "local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end\n"
    "local sum = 0\n"
    "for i = 1, scale do sum = sum + fib(18 + i % 3) end\n"
    "local parts = {}\n"
    "for i = 1, 8000 * scale do\n"
    "  parts[#parts + 1] = string.format('%d:%s', i, tostring(i * 7 % 1000))\n"
    "end\n"
    "local text = table.concat(parts, ',')\n"
    "local n = select(2, text:gsub('7', '7'))\n"
    "local t, x = {}, 12345\n"
    "for i = 1, 6700 * scale do x = (x * 1103515245 + 12345) % 2147483648; t[i] = x end\n"
    "table.sort(t, function(a, b) return a > b end)\n"
    "local objs = {}\n"
    "for i = 1, 20000 * scale do objs[i % 997 + 1] = {i, tostring(i), {i}} end\n"
    "local acc = 0\n"
    "for i = 1, 100000 * scale do acc = (acc + i * i) % 1000000007 end\n"
    "local h = (sum * 31 + #text) % 4294967296\n"
    "h = (h * 31 + n) % 4294967296\n"
    "h = (h * 31 + t[1] + t[#t] + t[#t // 2]) % 4294967296\n"
    "h = (h * 31 + #objs + objs[5][1]) % 4294967296\n"
    "h = (h * 31 + acc) % 4294967296\n"
    "return string.format('fib %d, %d bytes, sorted %d, checksum %08x', sum, #text, #t, h)\n";

int main(int argc, char **argv)
{
	int as_task = argc > 1 && strcmp(argv[1], "-p") == 0;
	long scale = argc > 1 + as_task ? strtol(argv[1 + as_task], NULL, 10) : 10;
	lua_State *L;
	int rc = 0;

	if (scale < 1 || scale > 100000) {
		fprintf(stderr, "usage: lua_work [-p] [SCALE]   (1 to 100000)\n");
		return 2;
	}
	if (as_task && pvm_mytid() < 0) {
		fprintf(stderr, "lua_work: -p: not a PVM task (pvm_mytid failed)\n");
		return 1;
	}
	if (!(L = luaL_newstate())) {
		fprintf(stderr, "lua_work: no memory for a Lua state\n");
		return 1;
	}
	luaL_openlibs(L);
	if (luaL_loadbuffer(L, script, sizeof(script) - 1, "lua_work") != LUA_OK) {
		fprintf(stderr, "lua_work: %s\n", lua_tostring(L, -1));
		rc = 1;
	} else {
		lua_pushinteger(L, scale);
		if (lua_pcall(L, 1, 1, 0) != LUA_OK) {
			fprintf(stderr, "lua_work: %s\n", lua_tostring(L, -1));
			rc = 1;
		} else {
			printf("lua_work: scale %ld, %s\n", scale, lua_tostring(L, -1));
		}
	}
	lua_close(L);
	if (as_task)
		pvm_exit();
	return rc;
}
