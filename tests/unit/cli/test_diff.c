/* Unit tests for cli/diff.c: pvmmon diff's command line, its errors, and what it writes
 * for two logs of tests/fixtures. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "../../../cli/cli.h"
#include "cmd.h"
#include "pvmmon/diff.h"
#include "pvmmon/log.h"

#define LOG_A "tests/fixtures/report-matmul.xml"
#define LOG_B "tests/fixtures/report-matmul-cc.xml"

/* Each bad command line: status 2, one line naming what is wrong, nothing on stdout. */
static void test_bad_command_lines(void)
{
	static const struct {
		const char *words[5];
		const char *err;
	} cases[] = {
	    {{LOG_A}, "pvmmon: diff: two logs are needed\nusage: pvmmon diff"},
	    {{LOG_A, LOG_B, "c.xml"}, "pvmmon: diff: two logs, not more ('c.xml')\n"},
	    {{LOG_A, LOG_B, "--top"}, "pvmmon: diff: --top wants a number of rows (0 for all)\n"},
	    {{"--top", "ten", LOG_A, LOG_B}, "pvmmon: diff: --top wants a number of rows"},
	    {{"--top", "-1", LOG_A, LOG_B}, "pvmmon: diff: --top wants a number of rows"},
	    {{"--top", "3x", LOG_A, LOG_B}, "pvmmon: diff: --top wants a number of rows"},
	    {{LOG_A, LOG_B, "-o"}, "pvmmon: diff: -o needs a value\n"},
	    {{LOG_A, "--color", LOG_B},
	     "pvmmon: diff: unknown option '--color' (see pvmmon diff --help)\n"},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *const *w = cases[i].words;
		cmd_result r;

		cmd_run(&r, cli__diff, "diff", w[0], w[1], w[2], w[3], w[4], NULL);
		CU_ASSERT_EQUAL(r.status, 2);
		CU_ASSERT_STRING_EQUAL(r.out, "");
		if (strncmp(r.err, cases[i].err, strlen(cases[i].err)) != 0)
			fprintf(stderr, "\ncase %zu: stderr '%s'\n", i, r.err);
		CU_ASSERT_NSTRING_EQUAL(r.err, cases[i].err, strlen(cases[i].err));
		cmd_free(&r);
	}
}

/* A log that cannot be read: status 1 and the reader's error naming the file. */
static void test_unreadable_logs(void)
{
	cmd_result r;

	cmd_run(&r, cli__diff, "diff", LOG_A, "tests/fixtures/nope.xml", NULL);
	CU_ASSERT_EQUAL(r.status, 1);
	CU_ASSERT_STRING_EQUAL(r.err, "pvmmon: tests/fixtures/nope.xml: no such file\n");
	CU_ASSERT_STRING_EQUAL(r.out, "");
	cmd_free(&r);
	cmd_run(&r, cli__diff, "diff", "tests/fixtures/not-xml.txt", LOG_B, NULL);
	CU_ASSERT_EQUAL(r.status, 1);
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(r.err, "pvmmon: tests/fixtures/not-xml.txt: not a well-formed"));
	cmd_free(&r);
}

/* The comparison as graphs/diff.c writes it, with the rows --top asks for (20 unless
 * said), A the first log given. */
static void test_text(void)
{
	pvmmon_log *a = NULL, *b = NULL;
	char *want = NULL;
	size_t len = 0;
	cmd_result r;
	FILE *f;

	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&a, LOG_A), 0);
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&b, LOG_B), 0);
	f = open_memstream(&want, &len);
	CU_ASSERT_EQUAL_FATAL(pvmmon_diff_text(a, b, 2, f), 0);
	fclose(f);
	cmd_run(&r, cli__diff, "diff", "--top", "2", LOG_A, LOG_B, NULL);
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_STRING_EQUAL(r.out, want);
	CU_ASSERT_STRING_EQUAL(r.err, "");
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "(the 2 largest of 5; --top 0 for all)"));
	cmd_free(&r);
	free(want);
	f = open_memstream(&want, &len);
	CU_ASSERT_EQUAL_FATAL(pvmmon_diff_text(b, a, 20, f), 0);
	fclose(f);
	cmd_run(&r, cli__diff, "diff", LOG_B, LOG_A, NULL);
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_STRING_EQUAL(r.out, want);
	cmd_free(&r);
	free(want);
	pvmmon_log_free(a);
	pvmmon_log_free(b);
}

/* -o DIR: the HTML page in DIR, said on stdout; --help on stdout with status 0. */
static void test_html_and_help(void)
{
	char dir[40], page[128], *html;
	cmd_result r;

	cmd_tmpdir(dir);
	cmd_run(&r, cli__diff, "diff", LOG_A, "-o", dir, LOG_B, NULL);
	CU_ASSERT_EQUAL(r.status, 0);
	snprintf(page, sizeof(page), "%s/index.html", dir);
	html = cmd_slurp(page);
	CU_ASSERT_PTR_NOT_NULL(html);
	CU_ASSERT(html && strstr(html, "<html") != NULL);
	free(html);
	snprintf(page, sizeof(page), "pvmmon: comparison written to %s/index.html\n", dir);
	CU_ASSERT_STRING_EQUAL(r.out, page);
	cmd_free(&r);
	cmd_remove(dir);
	cmd_run(&r, cli__diff, "diff", LOG_A, "--help", NULL);
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_NSTRING_EQUAL(r.out, "usage: pvmmon diff A.xml B.xml", 30);
	CU_ASSERT_STRING_EQUAL(r.err, "");
	cmd_free(&r);
}

CU_TestInfo test_diff_tests[] = {
    {"bad command lines say what is wrong", test_bad_command_lines},
    {"unreadable logs are named", test_unreadable_logs},
    {"the text comparison, --top", test_text},
    {"-o DIR writes the page; --help", test_html_and_help},
    CU_TEST_INFO_NULL,
};
