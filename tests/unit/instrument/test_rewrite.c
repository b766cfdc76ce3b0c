/* Unit tests for instrument/rewrite.c: where pvmmon-cc puts its probes, on real C. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "../../../instrument/rewrite.h"
#include "pvmmon/errors.h"

/* Writes text to a new C file whose name mkstemps makes from path (a template ending
 * in XXXXXX.c), which the caller unlinks. */
static void write_c_file(char *path, const char *text)
{
	int fd = mkstemps(path, 2);

	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_FATAL(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
	close(fd);
}

/* The instrumented text of source, rewritten as for a compile with flag (or none). */
static char *instrument_text_for(const char *source, const char *flag, rewrite_stats *st, int *rc)
{
	char path[] = "/tmp/pvmmon-rewrite-XXXXXX.c";
	const char *args[] = {"-Iinclude", flag};
	char *buf = NULL;
	size_t len = 0;
	FILE *out;

	write_c_file(path, source);
	out = open_memstream(&buf, &len);
	*rc = instrument__rewrite(path, args, flag ? 2 : 1, out, st);
	fclose(out);
	unlink(path);
	return buf;
}

static char *instrument_text(const char *source, rewrite_stats *st, int *rc)
{
	return instrument_text_for(source, NULL, st, rc);
}

/* The instrumented text from the user's line 1 on (after the header lines and the
 * #line directive), to compare line by line. */
static const char *body_of(const char *text)
{
	const char *p = strstr(text, "\n#line 1 ");

	p = p ? strchr(p + 1, '\n') : NULL;
	return p ? p + 1 : "";
}

/* Lines of s up to the static table that pvmmon-cc appends after the user's text. */
static int count_lines(const char *s)
{
	const char *table = strstr(s, "static const pvmmon_static_entry");
	int n = 0;

	for (; *s && s != table; s++)
		n += *s == '\n';
	return n;
}

/* text with the plain copies of split procedures taken out: each stands between two
 * line markers (`# N "file" 3`, a system header's lines, where the compiler does not
 * warn a second time about the procedure's text), the first starting a line, the
 * second giving the rest of the file its lines back. The caller frees the result. */
static char *without_plain_copies(const char *text)
{
	char *out = strdup(text), *p = out;

	CU_ASSERT_FATAL(out != NULL);
	while ((p = strstr(p, "\n# ")) != NULL) {
		char *close = strstr(p + 1, "\n# ");
		char *eol = close ? strchr(close + 1, '\n') : NULL;

		CU_ASSERT_FATAL(eol != NULL);
		memmove(p, eol + 1, strlen(eol + 1) + 1);
	}
	return out;
}

static void test_procedures_and_loops(void)
{
	static const char src[] =
	    "#include <stdio.h>\n"
	    "static int f(int n) { if (n < 2) return n; return f(n - 1) + 1; }\n"
	    "int g(int n)\n"
	    "{\n"
	    "\tint s = 0, i;\n"
	    "\tfor (i = 0; i < n; i++) s += i;\n"
	    "\twhile (s > 100) s -= 7;\n"
	    "\tdo s++; while (s < 3);\n"
	    "\treturn s;\n"
	    "}\n";
	rewrite_stats st;
	int rc;
	char *text = instrument_text(src, &st, &rc), *kept;

	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL(st.procs, 2);
	CU_ASSERT_EQUAL(st.split, 2);
	CU_ASSERT_EQUAL(st.loops, 3);
	/* The header, then the flags the constructor sets when nobody monitors the process
	 * and when the run counts small procedures, before the user's line 1. */
	CU_ASSERT(strncmp(text,
			  "#include \"pvmmon/probe.h\"\nstatic int pvmmon_unwatched_;\n"
			  "static int pvmmon_counting_;\n#line 1 \"",
			  91) == 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\tpvmmon_unwatched_ = pvmmon_probe_unwatched();\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\tpvmmon_counting_ = pvmmon_probe_counting();\n"));
	/* Lines stay where they were, so diagnostics and debug lines match the source:
	 * the plain copies come with #line directives, and the rest keeps its lines. */
	kept = without_plain_copies(body_of(text));
	CU_ASSERT_EQUAL(count_lines(kept), count_lines(src));
	free(kept);
	/* f is split: the sites, the copies' prototypes and the dispatcher come first, on
	 * f's own line, then the instrumented copy, then the plain ones. */
	CU_ASSERT_PTR_NOT_NULL(strstr(
	    text, "static pvmmon_probe_site pvmmon_sites0_[] = {{\"f\", __FILE__, 2, "
	          "PVMMON_PROBE_PROC, 1, -1, 0, 0, 0}}; __attribute__((noinline)) static int "
	          "f__pvmmon_on(int n); static int f__pvmmon_off(int n); static int "
	          "f__pvmmon_plain(int n); static int f(int n) { if (pvmmon_unwatched_) return "
	          "f__pvmmon_off  (n); if (pvmmon_sites0_[0].enabled) return f__pvmmon_on(n); "
	          "{ ++pvmmon_sites0_[0].off; return f__pvmmon_off(n); } } "
	          "__attribute__((noinline)) static int f__pvmmon_on(int n) "
	          "{ PVMMON__PROC_SCOPE_AT(pvmmon_sites0_[0]); if (n < 2) return n; return "
	          "(pvmmon_call_at_(2), f(n - 1)) + 1; }\n# 2 \""));
	/* The switched-off copy keeps the call lines, and recursion goes through the
	 * dispatcher. */
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\" 3\nstatic int f__pvmmon_off(int n) "
					    "{ if (n < 2) return n; return (pvmmon_call_at_(2), "
					    "f(n - 1)) + 1; }\n# 2 \""));
	/* The unwatched copy is f as written, calling itself. */
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\" 3\nstatic int f__pvmmon_plain(int n) "
					    "{ if (n < 2) return n; return f__pvmmon_plain(n - 1) + 1; }\n# 2 \""));
	/* g's loops have their sites in g's array, after g's, which counts them; g gains
	 * the static of its copies. */
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "{{\"g\", __FILE__, 3, PVMMON_PROBE_PROC, 1, -1, 0, 3, 0}, "));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "{\"for@6:2\", __FILE__, 6, PVMMON_PROBE_LOOP, 1, -1, 0, 0, 0}, "
					    "{\"while@7:2\", __FILE__, 7, PVMMON_PROBE_LOOP, 1, -1, 0, 0, 0}, "
					    "{\"do@8:2\", __FILE__, 8, PVMMON_PROBE_LOOP, 1, -1, 0, 0, 0}}"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "if (pvmmon_sites1_[0].enabled | pvmmon_sites1_[1].enabled | "
					    "pvmmon_sites1_[2].enabled | pvmmon_sites1_[3].enabled) "
					    "return g__pvmmon_on(n); { ++pvmmon_sites1_[0].off; return g__pvmmon_off(n); } } "
					    "__attribute__((noinline)) static int g__pvmmon_on(int n)\n"
					    "{ PVMMON__PROC_SCOPE_AT(pvmmon_sites1_[0]);\n"));
	/* Each loop becomes a block that includes its closing semicolon. */
	CU_ASSERT_PTR_NOT_NULL(strstr(
	    text, "{ PVMMON__LOOP_SCOPE_AT(pvmmon_sites1_[1]); for (i = 0; i < n; i++) s += i;}"));
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(text, "{ PVMMON__LOOP_SCOPE_AT(pvmmon_sites1_[2]); while (s > 100) s -= 7;}"));
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(text, "{ PVMMON__LOOP_SCOPE_AT(pvmmon_sites1_[3]); do s++; while (s < 3);}"));
	/* g's plain copy: its own lines (3 to 10), then line 10 again for what follows. */
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\n# 3 \""));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\" 3\nstatic int g__pvmmon_off(int n)\n"
					    "{\n\tint s = 0, i;\n\tfor (i = 0; i < n; i++) s += i;\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\treturn s;\n}\n# 10 \""));
	free(text);
}

/* Procedures whose copies would differ from the original, or that gain nothing. */
static void test_unsplit_procedures(void)
{
	static const char src[] =
	    "#include <assert.h>\n"
	    "#include <stdarg.h>\n"
	    "#include <stdio.h>\n"
	    "int pvm_send(int, int);\n"
	    "static int counter(int x) { static int c; while (x--) c++; return c; }\n"
	    "static int named(int x) { for (; x; x--) puts(__func__); return 0; }\n"
	    "static int checked(int x) { assert(x); for (; x; x--) puts(\"\"); return 0; }\n"
	    "static int sends(int x) { for (; x; x--) pvm_send(x, 1); return 0; }\n"
	    "static int sum(int n, ...) { int s = 0; va_list a; va_start(a, n);\n"
	    "\twhile (n--) s += va_arg(a, int); va_end(a); return s; }\n"
	    "__attribute__((constructor)) static void init(void) { for (;;) break; }\n"
	    "static int old(a, b) int a; double b; { while (a--) b++; return (int)b; }\n"
	    "int main(void) { return counter(1) + named(1) + checked(1) + sends(0) + sum(0) + old(1, 2); }\n";
	rewrite_stats st;
	int rc;
	char *text = instrument_text(src, &st, &rc);

	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL(st.procs, 8);
	CU_ASSERT_EQUAL(st.split, 0);
	CU_ASSERT_PTR_NULL(strstr(text, "__pvmmon_off"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "{ PVMMON_PROC_SCOPE(\"counter\", 5); static int c;"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "{ PVMMON_PROC_SCOPE(\"named\", 6);"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "{ PVMMON_PROC_SCOPE(\"checked\", 7);"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "{ PVMMON_PROC_SCOPE(\"sends\", 8);"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "{ PVMMON_PROC_SCOPE(\"sum\", 9);"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "{ PVMMON_PROC_SCOPE(\"init\", 11);"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "{ PVMMON_PROC_SCOPE(\"old\", 12);"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "{ PVMMON_PROC_SCOPE(\"main\", 13);"));
	free(text);
}

/* The split text is C the compiler takes with every warning an error, in C99 too, with
 * a declarator over two lines, a void procedure, a structure returned and an old-style
 * definition with no parameters. */
static void test_split_compiles(void)
{
	static const char src[] =
	    "struct pt { int x, y; };\n"
	    "static __attribute__((noinline)) struct pt\n"
	    "walk(struct pt p, int n) /* steps */\n"
	    "{\n"
	    "\tfor (int i = 0; i < n; i++)\n"
	    "\t\tp.x += p.y;\n"
	    "\treturn p;\n"
	    "}\n"
	    "void twice(int *out, int n) { for (int i = 0; i < 2; i++) *out += walk((struct pt){n, 1}, n).x; }\n"
	    "static int old() { int r = 0; twice(&r, 3); return r; }\n"
	    /* A leaf the program keeps out of line: its counting copy too (gcc refuses an
	     * inline function that says noinline). */
	    "static __attribute__((noinline)) int tiny(int x) { return 3 * x + 1; }\n"
	    "int main(void) { return old() == 12 && tiny(1) == 4 ? 0 : 1; }\n";
	char path[] = "/tmp/pvmmon-split-XXXXXX.c", cmd[512];
	rewrite_stats st;
	int rc;
	char *text = instrument_text(src, &st, &rc);

	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL(st.split, 3);
	/* A void procedure's dispatcher does not return: its jumps are chained with else
	 * (a noreturn one would have gcc warn of a return). */
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "twice__pvmmon_on(out, n); else { ++pvmmon_sites"));
	CU_ASSERT_PTR_NULL(strstr(text, "twice__pvmmon_on(out, n); return;"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "return old__pvmmon_on(); { ++pvmmon_sites"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "static __attribute__((noinline)) int tiny__pvmmon_cnt(int x)"));
	CU_ASSERT_PTR_NULL(strstr(text, "__inline__ static __attribute__((noinline)) int tiny"));
	write_c_file(path, text);
	snprintf(cmd, sizeof(cmd),
		 "cc -std=c99 -Wall -Wextra -Werror -Wno-strict-prototypes -Iinclude "
		 "-fsyntax-only %s",
		 path);
	CU_ASSERT_EQUAL(system(cmd), 0);
	unlink(path);
	free(text);
	/* For a pedantic compile the copies keep #line directives: GCC's line markers,
	 * which keep the compiler from warning twice elsewhere, are an extension. */
	text = instrument_text_for(src, "-pedantic", &st, &rc);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_PTR_NULL(strstr(text, "\n# "));
	strcpy(path, "/tmp/pvmmon-split-XXXXXX.c");
	write_c_file(path, text);
	snprintf(cmd, sizeof(cmd),
		 "cc -std=c99 -pedantic -Wall -Wextra -Werror -Wno-strict-prototypes -Iinclude "
		 "-fsyntax-only %s",
		 path);
	CU_ASSERT_EQUAL(system(cmd), 0);
	unlink(path);
	free(text);
}

static void test_macros_headers_and_inline_left_alone(void)
{
	static const char src[] =
	    "#include <string.h>\n"
	    "#define REPEAT(n) for (int k_ = 0; k_ < (n); k_++)\n"
	    "inline int twice(int x) { return 2 * x; }\n"
	    "int h(char *s)\n"
	    "{\n"
	    "\tint t = 0;\n"
	    "\tREPEAT(3) t += (int)strlen(s);\n"
	    "\tif (t) for (;;) { for (;;) break; break; } else t--;\n"
	    "\treturn t;\n"
	    "}\n";
	rewrite_stats st;
	int rc;
	char *text = instrument_text(src, &st, &rc);

	CU_ASSERT_EQUAL_FATAL(rc, 0);
	/* h only: twice is inline with external linkage, strlen lives in a header. */
	CU_ASSERT_EQUAL(st.procs, 1);
	/* The macro's loop is not the user's text; the two written loops are. */
	CU_ASSERT_EQUAL(st.loops, 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\tREPEAT(3) t += (int)strlen(s);\n"));
	/* The if/else structure survives: the wrapped loop is one statement. */
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "if (t) { PVMMON__LOOP_SCOPE_AT(pvmmon_sites0_[1]); for (;;) { "
					    "{ PVMMON__LOOP_SCOPE_AT(pvmmon_sites0_[2]); for (;;) break;} "
					    "break; }} else t--;"));
	free(text);
}

static void test_static_table(void)
{
	static const char src[] =
	    "#include <stdio.h>\n"
	    "int pvm_send(int, int);\n"
	    "static int leaf(int x) { return x + 1; }\n"
	    "int run(int (*fp)(int))\n"
	    "{\n"
	    "\tint s = 0;\n"
	    "\tfor (int i = 0; i < 3; i++) {\n"
	    "\t\ts += leaf(i);\n"
	    "\t\tpvm_send(1, 2);\n"
	    "\t}\n"
	    "\tprintf(\"%d\\n\", fp(s));\n"
	    "\treturn s;\n"
	    "}\n";
	rewrite_stats st;
	int rc;
	char *text = instrument_text(src, &st, &rc);

	CU_ASSERT_EQUAL_FATAL(rc, 0);
	/* Source order; each entry names its innermost procedure or loop; printf (a system
	 * header) is no call statement, a call through a pointer is "indirect". */
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "static const pvmmon_static_entry pvmmon_static_table_[] = {\n"
					    "\t{1, \"leaf\", 3, -1, &pvmmon_counts_[0]},\n"
					    "\t{1, \"run\", 4, -1, 0},\n"
					    "\t{2, \"for@7:2\", 7, 1, 0},\n"
					    "\t{4, \"leaf\", 8, 2, 0},\n"
					    "\t{3, \"pvm_send\", 9, 2, 0},\n"
					    "\t{4, \"indirect\", 11, 1, 0},\n"
					    "};\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "pvmmon_static_table_, 6);"));
	/* The leaf is counted, not timed; its counter is declared before the user's text. */
	CU_ASSERT_EQUAL(st.counted, 1);
	CU_ASSERT_EQUAL(st.procs, 1);
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(text, "static unsigned long pvmmon_counts_[1];\nstatic int pvmmon_unwatched_;\n"
			 "static int pvmmon_counting_;\n#line 1 "));
	CU_ASSERT_PTR_NOT_NULL(strstr(
	    text, "{ if (!pvmmon_unwatched_) PVMMON_PROC_COUNT(pvmmon_counts_[0]); return x + 1; }"));
	free(text);
}

/* A stand-in for libpvmhooks, for the plain-copy test: UNWATCHED in the environment
 * says nobody monitors; it counts the probes that run and sums the leaves' counters. */
static const char probe_stub[] =
    "#include <stdio.h>\n"
    "#include <stdlib.h>\n"
    "#include \"pvmmon/probe.h\"\n"
    "int pvmmon_call_line;\n"
    "static long probes;\n"
    "static const pvmmon_static_entry *table;\n"
    "static int ntable;\n"
    "int pvmmon_probe_unwatched(void) { return getenv(\"UNWATCHED\") != NULL; }\n"
    "int pvmmon_probe_counting(void) { return getenv(\"TIMED\") == NULL; }\n"
    "void pvmmon_probe_proc_enter(pvmmon_probe_site *s) { (void)s; probes++; }\n"
    "void pvmmon_probe_proc_exit(pvmmon_probe_site *s) { (void)s; probes++; }\n"
    "void pvmmon_probe_loop_enter(pvmmon_probe_site *s) { (void)s; probes++; }\n"
    "void pvmmon_probe_loop_exit(pvmmon_probe_site *s) { (void)s; probes++; }\n"
    "void pvmmon_static_register(const char *f, const pvmmon_static_entry *e, int n)\n"
    "{ (void)f; table = e; ntable = n; }\n"
    "long run(long n, long (*fp)(long));\n"
    "static long same(long x) { return x; }\n"
    "int main(void)\n"
    "{\n"
    "\tlong r = run(10, same), counted = 0;\n"
    "\tfor (int i = 0; i < ntable; i++)\n"
    "\t\tif (table[i].count)\n"
    "\t\t\tcounted += (long)*table[i].count;\n"
    "\tprintf(\"%ld %ld %ld\\n\", r, probes, counted);\n"
    "\treturn 0;\n"
    "}\n";

/* What `cmd` prints on its first line; "" when it fails. */
static void first_line(const char *cmd, char *out, size_t n)
{
	FILE *p = popen(cmd, "r");

	out[0] = '\0';
	CU_ASSERT_FATAL(p != NULL);
	if (!fgets(out, (int)n, p))
		out[0] = '\0';
	CU_ASSERT_EQUAL(pclose(p), 0);
}

/*
 * In a process nobody monitors, the dispatchers take plain copies that are the
 * procedures as written, calling one another's plain copies: no probe, no call line,
 * no count, so the compiler can inline them as in a build without pvmmon-cc. A call
 * to a procedure defined later, or through a pointer, keeps its dispatcher. Built and
 * run against a stand-in library: unwatched, nothing probed or counted; watched, the
 * probes run and the leaves' counts are exact.
 */
static void test_plain_copies(void)
{
	static const char src[] =
	    "typedef struct vm { long s[8]; int sp; } vm;\n"
	    "static void push(vm *m, long v) { m->s[m->sp++ & 7] = v; }\n"
	    "static long pop(vm *m) { return m->s[--m->sp & 7]; }\n"
	    "static long later(long x);\n"
	    "static void add(vm *m) { long b = pop(m); push(m, pop(m) + b); }\n"
	    "long run(long n, long (*fp)(long))\n"
	    "{\n"
	    "\tvm m = {{0}, 0};\n"
	    "\tfor (long i = 0; i < n; i++) {\n"
	    "\t\tpush(&m, i);\n"
	    "\t\tpush(&m, later(i));\n"
	    "\t\tadd(&m);\n"
	    "\t}\n"
	    "\treturn fp(pop(&m));\n"
	    "}\n"
	    "static long later(long x) { long r = 0; while (x--) r++; return r; }\n";
	char inst[] = "/tmp/pvmmon-plain-XXXXXX.c", stub[] = "/tmp/pvmmon-plainstub-XXXXXX.c";
	char exe[64], cmd[1024], line[128];
	const char *plain_run;
	rewrite_stats st;
	int rc;
	char *text = instrument_text(src, &st, &rc);

	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL(st.split, 3);
	CU_ASSERT_EQUAL(st.counted, 2);
	/* The leaves: counted only when somebody may read the count, a plain copy and a
	 * counting copy. */
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "__attribute__((unused)) static void push__pvmmon_plain(vm *m, long v); "
					    "__attribute__((unused)) __attribute__((always_inline)) __inline__ static "
					    "void push__pvmmon_cnt(vm *m, long v); "
					    "static void push(vm *m, long v) { if (!pvmmon_unwatched_) "
					    "PVMMON_PROC_COUNT(pvmmon_counts_[0]); m->s[m->sp++ & 7] = v; }\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\" 3\n__attribute__((unused)) static void push__pvmmon_plain(vm *m, long v) "
					    "{ m->s[m->sp++ & 7] = v; }\n# 2 \""));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\" 3\nstatic void add__pvmmon_plain(vm *m) { long b = "
					    "pop__pvmmon_plain(m); push__pvmmon_plain(m, "
					    "pop__pvmmon_plain(m) + b); }\n# 5 \""));
	/* add, small and straight-line, is counted while the run counts: its counting
	 * copy counts and calls the leaves' counting copies, and run's counting twins
	 * call it. */
	CU_ASSERT_PTR_NOT_NULL(strstr(text,
	                              "static void add(vm *m) { if (pvmmon_unwatched_) "
	                              "add__pvmmon_off  (m); else if (pvmmon_counting_) "
	                              "add__pvmmon_cnt(m); else if (pvmmon_sites0_[0].enabled) "));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "__attribute__((always_inline)) __inline__ static void add__pvmmon_cnt(vm *m) { "
					    "PVMMON_PROC_COUNT(pvmmon_counts_[2]); long b = pop__pvmmon_cnt(m); "
					    "push__pvmmon_cnt(m, pop__pvmmon_cnt(m) + b); }\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "if (pvmmon_sites1_[0].enabled | pvmmon_sites1_[1].enabled) "
					    "{ if (pvmmon_counting_) return run__pvmmon_on_cnt(n, fp); "
					    "return run__pvmmon_on(n, fp); } { ++pvmmon_sites1_[0].off; "
					    "{ if (pvmmon_counting_) return run__pvmmon_off_cnt(n, fp); "
					    "return run__pvmmon_off(n, fp); } } "));
	{
		const char *on_cnt = strstr(text, "static long run__pvmmon_on_cnt(long n, long (*fp)(long))\n{");

		CU_ASSERT_PTR_NOT_NULL_FATAL(on_cnt);
		CU_ASSERT_PTR_NOT_NULL(strstr(on_cnt, "(pvmmon_call_at_(12), add__pvmmon_cnt(&m));"));
		CU_ASSERT_PTR_NOT_NULL(strstr(on_cnt, "(pvmmon_call_at_(11), later(i))"));
	}
	/* later, defined after run, is declared first: its plain copy is called too. */
	plain_run =
	    strstr(text, "\" 3\n__attribute__((unused)) static long later__pvmmon_plain(long); "
	                 "static long run__pvmmon_plain(long n, long (*fp)(long))\n");
	CU_ASSERT_PTR_NOT_NULL_FATAL(plain_run);
	CU_ASSERT_PTR_NOT_NULL(strstr(plain_run,
	                              "{\n\tvm m = {{0}, 0};\n\tfor (long i = 0; i < n; i++) {\n"
	                              "\t\tpush__pvmmon_plain(&m, i);\n"
	                              "\t\tpush__pvmmon_plain(&m, later__pvmmon_plain(i));\n"
	                              "\t\tadd__pvmmon_plain(&m);\n\t}\n"
	                              "\treturn fp(pop__pvmmon_plain(&m));\n}\n# 15 \""));
	write_c_file(inst, text);
	write_c_file(stub, probe_stub);
	snprintf(exe, sizeof(exe), "%.*s", (int)strlen(inst) - 2, inst);
	snprintf(cmd, sizeof(cmd),
		 "cc -std=c99 -O2 -Wall -Wextra -Werror -Iinclude -o %s %s %s", exe, inst, stub);
	CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
	/* run(10): the stack ends with 2 * 9; push runs 30 times, pop 21. */
	snprintf(cmd, sizeof(cmd), "env UNWATCHED=1 %s", exe);
	first_line(cmd, line, sizeof(line));
	CU_ASSERT_STRING_EQUAL(line, "18 0 0\n");
	/* Watched, every probe timed: run, its loop, later and add probed (2 + 2 + 10 * 4 +
	 * 10 * 2), push and pop counted (30 + 21). */
	snprintf(cmd, sizeof(cmd), "env -u UNWATCHED TIMED=1 %s", exe);
	first_line(cmd, line, sizeof(line));
	CU_ASSERT_STRING_EQUAL(line, "18 64 51\n");
	/* Watched and counting: add is counted too (10 calls), without probes. */
	snprintf(cmd, sizeof(cmd), "env -u UNWATCHED -u TIMED %s", exe);
	first_line(cmd, line, sizeof(line));
	CU_ASSERT_STRING_EQUAL(line, "18 44 61\n");
	unlink(exe);
	unlink(inst);
	unlink(stub);
	free(text);
}

/*
 * A dispatcher's unwatched jump goes to the plain copy only when the procedure can be
 * entered there in a process nobody monitors: its name used other than by a call its
 * callers' plain copies rename (an address taken, a call from a procedure left whole,
 * an extern definition). Else it goes to the off copy, which no
 * such run takes, and the plain copy's only callers are the plain copies calling it
 * (gcc inlines a procedure called once). A macro saying only harmless attributes
 * (SQLite's SQLITE_NOINLINE) lets its procedure be split; the copies keep it, and its
 * noinline keeps the counting copy out of line.
 */
static void test_dispatcher_entries(void)
{
	static const char src[] =
	    "#define KEEP __attribute__((noinline))\n"
	    "#define USED __attribute__((used))\n"
	    "static long early(long x);\n"
	    "static long once(long x) { long r = 0; while (x--) r += x; return r; }\n"
	    "static long taken(long x) { long r = 0; while (x--) r++; return r; }\n"
	    "static long twice(long x) { return 2 * x; }\n"
	    "static KEEP long kept(long x) { return twice(x) + 1; }\n"
	    "static USED long used(long x) { return x * 2; }\n"
	    "long (*fp)(long) = taken;\n"
	    "static long whole(long x) { static long n; n += x; return once(n); }\n"
	    "long api(long x) { return once(x) + early(x) + kept(x) + used(x) + whole(x); }\n"
	    "static long early(long x) { long r = 1; while (x--) r *= 2; return r; }\n";
	rewrite_stats st;
	int rc;
	char *text = instrument_text(src, &st, &rc);

	CU_ASSERT_EQUAL_FATAL(rc, 0);
	/* once: called by name only from api's copies (and whole, left whole: entered). */
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "static long once(long x) { if (pvmmon_unwatched_) "
	                                    "return once__pvmmon_plain(x);"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "static long taken(long x) { if (pvmmon_unwatched_) "
	                                    "return taken__pvmmon_plain(x);"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "static long early(long x) { if (pvmmon_unwatched_) "
	                                    "return early__pvmmon_off  (x);"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "long api(long x) { if (pvmmon_unwatched_) "
	                                    "return api__pvmmon_plain(x);"));
	/* kept (small, counted): split through its macro, entered only by api's plain
	 * copy; its counting copy stays out of line, as the program asks. */
	CU_ASSERT_PTR_NOT_NULL(strstr(text,
	                              "static KEEP long kept(long x) { if (pvmmon_unwatched_) "
	                              "return kept__pvmmon_off  (x);"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "static KEEP long kept__pvmmon_cnt(long x)"));
	CU_ASSERT_PTR_NULL(strstr(text, "__attribute__((always_inline)) __inline__ static KEEP"));
	/* used: a macro saying another attribute leaves it whole. */
	CU_ASSERT_PTR_NULL(strstr(text, "used__pvmmon_plain"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "PVMMON_PROC_COUNT"));
	free(text);
	/* Without whole's call, once is entered by api's plain copy alone. */
	{
		char *src2 = strdup(src), *w = strstr(src2, "return once(n);");

		memcpy(w, "return n + 0  ;", 15);
		text = instrument_text(src2, &st, &rc);
		CU_ASSERT_EQUAL_FATAL(rc, 0);
		CU_ASSERT_PTR_NOT_NULL(strstr(text,
		                              "static long once(long x) { if (pvmmon_unwatched_) "
		                              "return once__pvmmon_off  (x);"));
		CU_ASSERT_PTR_NOT_NULL(
		    strstr(text, "once__pvmmon_plain(x) + early__pvmmon_plain(x)"));
		free(src2);
		free(text);
	}
}

/*
 * A call of a procedure defined after its caller goes to the callee's plain copy in the
 * caller's plain copy too, which declares it first from the callee's type at the call
 * (in its system-header lines), noreturn when the callee says so; a callee whose type
 * is more than words and stars (a function pointer here) keeps its dispatcher. A callee called so
 * only is not entered: its dispatcher's unwatched jump goes to its off copy.
 */
static void test_forward_calls(void)
{
	static const char src[] =
	    "typedef long num;\n"
	    "static num later(num x);\n"
	    "static long viafp(long (*f)(long), long x);\n"
	    "static long twice(long x) { return 2 * x; }\n"
	    "static long first(long x) { long r = 0; for (long i = 0; i < x; i++) r += later(i) + "
	    "viafp(twice, i); return r; }\n"
	    "long api(long x) { return first(x); }\n"
	    "static num later(num x) { num r = 1; while (x-- > 0) r += 2; return r; }\n"
	    "static long viafp(long (*f)(long), long x) { long r = 0; while (x-- > 0) r += f(x); "
	    "return r; }\n"
	    "static void stop(int c);\n"
	    "static int check(int x) { for (int i = 0; i < x; i++) if (i > 9) stop(i); return x; "
	    "}\n"
	    "int api2(int x) { return check(x); }\n"
	    "__attribute__((noreturn)) static void stop(int c) { for (;;) (void)c; }\n";
	rewrite_stats st;
	int rc;
	char *text = instrument_text(src, &st, &rc);
	const char *plain;

	CU_ASSERT_EQUAL_FATAL(rc, 0);
	plain = strstr(text, "\" 3\n__attribute__((unused)) static num later__pvmmon_plain(num); "
	                     "static long first__pvmmon_plain(long x) {");
	CU_ASSERT_PTR_NOT_NULL_FATAL(plain);
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(plain, "r += later__pvmmon_plain(i) + viafp(twice, i); return r; }\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "static num later(num x) { if (pvmmon_unwatched_) "
	                                    "return later__pvmmon_off  (x);"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text,
	                              "static long viafp(long (*f)(long), long x) { if "
	                              "(pvmmon_unwatched_) return viafp__pvmmon_plain(f, x);"));
	/* A noreturn callee's declaration says so, as its declarator does. */
	CU_ASSERT_PTR_NOT_NULL(strstr(text,
	                              "\" 3\n__attribute__((noreturn)) __attribute__((unused)) "
	                              "static void stop__pvmmon_plain(int); static int "
	                              "check__pvmmon_plain(int x) {"));
	free(text);
}

static void test_errors_write_nothing(void)
{
	rewrite_stats st;
	int rc;
	char *text = instrument_text("int main(void) { return undeclared_name; }\n", &st, &rc);

	CU_ASSERT_EQUAL(rc, PVMMON_EPARSE);
	CU_ASSERT_STRING_EQUAL(text, "");
	free(text);
	text = NULL;
	{
		size_t len = 0;
		FILE *out = open_memstream(&text, &len);

		CU_ASSERT_EQUAL(instrument__rewrite("/nonexistent/x.c", NULL, 0, out, NULL), PVMMON_EIO);
		fclose(out);
		CU_ASSERT_PTR_NOT_NULL(strstr(pvmmon_error_last(), "/nonexistent/x.c"));
	}
	free(text);
}

CU_TestInfo test_rewrite_tests[] = {
    {"procedures and loops get scoped probes", test_procedures_and_loops},
    {"procedures whose copies would differ are not split", test_unsplit_procedures},
    {"dispatchers jump to plain copies only where they are entered", test_dispatcher_entries},
    {"calls of procedures defined later go to their plain copies", test_forward_calls},
    {"split procedures compile under -pedantic -Werror", test_split_compiles},
    {"macros, headers and inline functions left alone", test_macros_headers_and_inline_left_alone},
    {"the static table: kinds, order, nesting", test_static_table},
    {"unwatched, plain copies call plain copies", test_plain_copies},
    {"bad sources write nothing", test_errors_write_nothing},
    CU_TEST_INFO_NULL,
};
