/* Unit tests for instrument/rewrite.c: where pvmmon-cc puts its probes, on real C. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "../../../instrument/rewrite.h"
#include "pvmmon/errors.h"

static char *instrument_text(const char *source, rewrite_stats *st, int *rc)
{
	char path[] = "/tmp/pvmmon-rewrite-XXXXXX.c";
	const char *args[] = {"-Iinclude"};
	char *buf = NULL;
	size_t len = 0;
	FILE *out;
	int fd = mkstemps(path, 2);

	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_FATAL(write(fd, source, strlen(source)) == (ssize_t)strlen(source));
	close(fd);
	out = open_memstream(&buf, &len);
	*rc = instrument__rewrite(path, args, 1, out, st);
	fclose(out);
	unlink(path);
	return buf;
}

/* The instrumented text without the two header lines, to compare line by line. */
static const char *body_of(const char *text)
{
	const char *p = strchr(text, '\n');

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
	char *text = instrument_text(src, &st, &rc);

	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL(st.procs, 2);
	CU_ASSERT_EQUAL(st.loops, 3);
	CU_ASSERT(strncmp(text, "#include \"pvmmon/probe.h\"\n#line 1 \"", 35) == 0);
	/* Lines stay where they were, so diagnostics and debug lines match the source. */
	CU_ASSERT_EQUAL(count_lines(body_of(text)), count_lines(src));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "static int f(int n) { PVMMON_PROC_SCOPE(\"f\", 2); if"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "{ PVMMON_PROC_SCOPE(\"g\", 3);\n"));
	/* Each loop becomes a block that includes its closing semicolon. */
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(text, "{ PVMMON_LOOP_SCOPE(\"for@6:2\", 6); for (i = 0; i < n; i++) s += i;}"));
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(text, "{ PVMMON_LOOP_SCOPE(\"while@7:2\", 7); while (s > 100) s -= 7;}"));
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(text, "{ PVMMON_LOOP_SCOPE(\"do@8:2\", 8); do s++; while (s < 3);}"));
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
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "if (t) { PVMMON_LOOP_SCOPE(\"for@8:9\", 8); for (;;) { "
					    "{ PVMMON_LOOP_SCOPE(\"for@8:20\", 8); for (;;) break;} "
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
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "static unsigned long pvmmon_counts_[1];\n#line 1 "));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "{ PVMMON_PROC_COUNT(pvmmon_counts_[0]); return x + 1; }"));
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
    {"macros, headers and inline functions left alone", test_macros_headers_and_inline_left_alone},
    {"the static table: kinds, order, nesting", test_static_table},
    {"bad sources write nothing", test_errors_write_nothing},
    CU_TEST_INFO_NULL,
};
