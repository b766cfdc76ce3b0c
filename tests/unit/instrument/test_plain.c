/* Unit tests for instrument/plain.c: which procedures can have a plain copy, each rule
 * on a definition of its own, parsed with libclang. */
#include <stdio.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "../../../instrument/plain.h"
#include "../../../instrument/rewriter.h"
#include "snippet.h"

static const char source[] =
    "#define ATTR __attribute__((cold))\n"
    "int ext(int);\n"
    "int pvm_mytid(void);\n"
    "int vfork(void);\n"
    "static int ok(int a) { int b = a * 2; if (b > 3) b = ext(b); return b + 1; }\n"
    "int global(int a, int b) { return ok(a) + b; }\n"
    "int noparams() { return 3; }\n"
    "int main(void) { return ok(1); }\n"
    "inline int c99_inline(int a) { return a; }\n"
    "static inline int static_inline(int a) { return a; }\n"
    "extern int with_extern(int a) { return a; }\n"
    "int variadic(int a, ...) { return a; }\n"
    "int unnamed(int) { return 0; }\n"
    "__attribute__((noinline)) int keep(int a) { return a; }\n"
    "__attribute__((__cold__, __unused__)) static int cold(int a) { return a; }\n"
    "__attribute__((constructor)) static void ctor(void) { }\n"
    "__attribute__((section(\"x\"))) int placed(int a) { return a; }\n"
    "ATTR static int macro_attr(int a) { return a; }\n"
    "static int static_local(void) { static int n; return ++n; }\n"
    "static int nested_static(int a) { if (a) { static int m; return m++; } return 0; }\n"
    "static int const_table(int a) { static const char t[2][2] = {{1, 2}, {3, 4}}; "
    "static const int k = 3; return t[a & 1][1] + k; }\n"
    "static int const_pointer(void) { static int *const p; return !p; }\n"
    "__attribute__((visibility(\"hidden\"))) int inherits(int a);\n"
    "int inherits(int a) { return a; }\n"
    "__attribute__((section(\"y\"))) int inherits_place(int a);\n"
    "int inherits_place(int a) { return a; }\n"
    "static const char *func_name(void) { return __func__; }\n"
    "static const char *own_name(void) { return \"own_name: %d\"; }\n"
    "static const char *other_text(void) { return \"something\"; }\n"
    "static int pvm_call(void) { return pvm_mytid(); }\n"
    "static int forks(void) { return vfork(); }\n"
    "static void *frame(void) { return __builtin_frame_address(0); }\n"
    "static int label_value(void) { void *p = &&l; goto *p; l: return 1; }\n"
    "static int assembly(void) { __asm__ volatile(\"\"); return 0; }\n"
    "static int local_decl(void) { int g(void); return g(); }\n";

/* Whether procedure name of the parsed source can be split. */
static int can_split(const snippet *s, const char *name)
{
	CXCursor body;
	long open;
	CXCursor fn = snippet_function(s, name, &body, &open);

	return plain__can_split(&s->rw, fn, body, NULL);
}

/* An extern definition, and a visibility a macro says, are allowed only when the
 * copies leave them out (split.c says so through omit). */
static void test_omitted_extern(void)
{
	static const char src[] = "#define HIDDEN __attribute__((visibility(\"hidden\"))) extern\n"
	                          "#define PLACED __attribute__((section(\"x\"))) extern\n"
	                          "extern int written(int a) { return a; }\n"
	                          "HIDDEN int hidden(int a) { return a; }\n"
	                          "PLACED int placed(int a) { return a; }\n";
	const char *names[] = {"written", "hidden", "placed"};
	const int with[] = {1, 1, 0};
	snippet s;

	snippet_parse(&s, src);
	for (size_t i = 0; i < 3; i++) {
		CXCursor body;
		long open;
		CXCursor fn = snippet_function(&s, names[i], &body, &open);
		long from = rewriter__expansion_offset(
		    clang_getRangeStart(clang_getCursorExtent(fn)), clang_getCursorLocation(fn));
		plain_omit omit = {from, from + 6, 1};

		if (i == 0)
			omit.to = from; /* a written extern: no macro left out */
		CU_ASSERT_EQUAL(plain__can_split(&s.rw, fn, body, NULL), 0);
		if (plain__can_split(&s.rw, fn, body, &omit) != with[i])
			fprintf(stderr, "\n%s: not %d with its extern left out\n", names[i],
			        with[i]);
		CU_ASSERT_EQUAL(plain__can_split(&s.rw, fn, body, &omit), with[i]);
	}
	snippet_free(&s);
}

static void test_rules(void)
{
	static const struct {
		const char *name;
		int split;
	} cases[] = {
	    /* Plain code, calls, either linkage, and f() without parameters. */
	    {"ok", 1},
	    {"global", 1},
	    {"noparams", 1},
	    {"keep", 1},
	    {"cold", 1},
	    {"other_text", 1},
	    /* Constant static locals: both copies' tables say the same (an array's
	     * elements const at any depth, or the variable itself). */
	    {"const_table", 1},
	    {"const_pointer", 1},
	    /* A visibility an earlier declaration gives (a header's, as Lua's LUAI_FUNC
	     * prototypes): the static copies need none; another attribute stays refused. */
	    {"inherits", 1},
	    {"inherits_place", 0},
	    /* main is called once; inline and extern definitions; varargs; an unnamed
	     * parameter: no copy can repeat them. (An old-style definition with parameters
	     * has a prototype in libclang 14: the split suite checks it is refused.) */
	    {"main", 0},
	    {"c99_inline", 0},
	    {"static_inline", 0},
	    {"with_extern", 0},
	    {"variadic", 0},
	    {"unnamed", 0},
	    /* Attributes that would be made twice, or whose text is a macro's. */
	    {"ctor", 0},
	    {"placed", 0},
	    {"macro_attr", 0},
	    /* Bodies that two copies would change: static locals (at any depth), the
	     * procedure's own name as text, PVM calls, setjmp's kin, frame builtins,
	     * labels as values, asm, and local declarations of procedures. */
	    {"static_local", 0},
	    {"nested_static", 0},
	    {"func_name", 0},
	    {"own_name", 0},
	    {"pvm_call", 0},
	    {"forks", 0},
	    {"frame", 0},
	    {"label_value", 0},
	    {"assembly", 0},
	    {"local_decl", 0},
	};
	snippet s;

	snippet_parse(&s, source);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int got = can_split(&s, cases[i].name);

		if (got != cases[i].split)
			fprintf(stderr, "\n%s: can_split %d, not %d\n", cases[i].name, got,
			        cases[i].split);
		CU_ASSERT_EQUAL(got, cases[i].split);
	}
	snippet_free(&s);
}

CU_TestInfo test_plain_tests[] = {
    {"which definitions can have a plain copy", test_rules},
    {"an extern definition when its copies leave the extern out", test_omitted_extern},
    CU_TEST_INFO_NULL,
};
