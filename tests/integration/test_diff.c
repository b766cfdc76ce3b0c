/*
 * Integration tests of `pvmmon diff`: two runs of tests/fixtures/src/twospeed.c (built
 * with pvmmon-cc) whose procedure scaled is twice as slow in the second, by its
 * argument: scaled ranks first among procedures and loops; a run compared with itself
 * changes nothing; the HTML page (-o DIR) ranks alike; bad input and options; two traced
 * runs' waiting compared cause by cause.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "harness.h"

/* The first row after the heading that starts with title in a diff's output, without
 * its task column, into row. */
static int first_item(const char *out, const char *title, char *row, size_t len)
{
	const char *p = strstr(out, title);
	char task[32];
	int skip = 0;

	if (!p || !(p = strchr(p, '\n')) || !(p = strchr(p + 1, '\n')))
		return -1;
	if (sscanf(p + 1, " %31s %n", task, &skip) != 1 || skip == 0)
		return -1;
	snprintf(row, len, "%.*s", (int)strcspn(p + 1 + skip, "\n"), p + 1 + skip);
	return 0;
}

static void test_diff_slower_procedure_first(void)
{
	const char *dir = harness_tmpdir();
	char name[256];
	cmd_result r;

	/* scaled(2) does 16 million more steps than scaled(1) (about 40 ms), steady the same
	 * 4 million in both runs: on a loaded machine both stretch alike, so steady's change
	 * (noise in a quarter of scaled's work) stays below scaled's. */
	harness_sh(&r, 180,
	           "cd '%s' && %s/pvmmon-cc -O1 -o twospeed %s/../tests/fixtures/src/twospeed.c "
	           "-lpvm3 && %s/pvmmon run -q -o a.xml -- ./twospeed 1 && "
	           "%s/pvmmon run -q -o b.xml -- ./twospeed 2 && %s/pvmmon diff a.xml b.xml",
	           dir, harness_bin(), harness_build(), harness_bin(), harness_bin(),
	           harness_bin());
	if (r.status)
		fprintf(stderr, "\n%s%s\n", r.out, r.err);
	CU_ASSERT_EQUAL_FATAL(r.status, 0);
	CU_ASSERT_EQUAL(first_item(r.out, "Procedures by change", name, sizeof(name)), 0);
	CU_ASSERT_EQUAL(strncmp(name, "scaled ", 7), 0);
	CU_ASSERT_EQUAL(first_item(r.out, "Loops by change", name, sizeof(name)), 0);
	CU_ASSERT_EQUAL(strncmp(name, "for@", 4), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(name, " in scaled "));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "B: "));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "twospeed 2"));
	cmd_result_free(&r);

	/* The same as a page: the procedures' table starts with scaled. */
	harness_sh(&r, 30, "cd '%s' && %s/pvmmon diff a.xml b.xml -o page && cat page/index.html",
	           dir, harness_bin());
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(r.out, "<h2>Procedures by change in exclusive virtual time</h2>"));
	{
		const char *p = strstr(r.out, "<h2>Procedures");

		CU_ASSERT_PTR_NOT_NULL(p ? strstr(p, "<tbody>\n<tr><td>0</td><td>scaled</td>")
		                         : NULL);
	}
	cmd_result_free(&r);

	/* The same run twice: every change is zero, nothing is new or gone. */
	harness_sh(&r, 30, "cd '%s' && %s/pvmmon diff --top 0 a.xml a.xml", dir, harness_bin());
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "+0 ns (+0.0%)"));
	CU_ASSERT_PTR_NULL(strstr(r.out, " new "));
	CU_ASSERT_PTR_NULL(strstr(r.out, " gone "));
	CU_ASSERT_PTR_NULL(strstr(r.out, "ms (+"));
	cmd_result_free(&r);
}

static void test_diff_bad_input(void)
{
	cmd_result r;

	harness_sh(&r, 30, "%s/pvmmon diff tests/fixtures/report-matmul.xml", harness_bin());
	CU_ASSERT_EQUAL(r.status, 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "two logs are needed"));
	cmd_result_free(&r);
	harness_sh(&r, 30,
	           "%s/pvmmon diff tests/fixtures/report-matmul.xml tests/fixtures/not-xml.txt",
	           harness_bin());
	CU_ASSERT_EQUAL(r.status, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "not-xml.txt"));
	cmd_result_free(&r);
	harness_sh(&r, 30, "%s/pvmmon diff a b --top x", harness_bin());
	CU_ASSERT_EQUAL(r.status, 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "--top wants"));
	cmd_result_free(&r);
	harness_sh(&r, 30, "%s/pvmmon diff --help", harness_bin());
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "largest changes"));
	cmd_result_free(&r);
	/* Different programs are compared item by item, and said to be different. */
	harness_sh(
	    &r, 30,
	    "%s/pvmmon diff tests/fixtures/report-matmul.xml tests/fixtures/report-trace.xml",
	    harness_bin());
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "different programs"));
	cmd_result_free(&r);
}

/*
 * The waits part of a diff: apps/slowstage traced with stage 0's slow procedure at 6 ms
 * an item (-x 6), then at none (-x 0). slow_part caused most of the first run's
 * waiting and none of the second's: its row says so (-100%), and the run's waiting
 * fell. The subject's work is timed waiting, so the fall is far from any noise of a
 * loaded machine.
 */
static void test_diff_waits(void)
{
	const char *dir = harness_tmpdir();
	const char *why, *row;
	double change = 0;
	cmd_result r;

	harness_sh(&r, 180,
	           "cd '%s' && %s/pvmmon-cc -g -O2 -o slowstage %s/../apps/slowstage.c -lpvm3 && "
	           "%s/pvmmon run -q --trace --cp=slow_part,stage_work -o a.xml -- ./slowstage "
	           "-x 6 && %s/pvmmon run -q --trace --cp=slow_part,stage_work -o b.xml -- "
	           "./slowstage -x 0 && %s/pvmmon diff a.xml b.xml",
	           dir, harness_bin(), harness_build(), harness_bin(), harness_bin(),
	           harness_bin());
	if (r.status)
		fprintf(stderr, "\n%s%s\n", r.out, r.err);
	CU_ASSERT_EQUAL_FATAL(r.status, 0);
	why = strstr(r.out, "Why tasks wait (A | B");
	CU_ASSERT_PTR_NOT_NULL_FATAL(why);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "waiting in all "));
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "parallel efficiency"));
	row = strstr(why, " slow_part ");
	CU_ASSERT_PTR_NOT_NULL_FATAL(row);
	/* The row's last figure: B against A. */
	{
		size_t n = strcspn(row, "\n");
		const char *last = row + n;

		while (last > row && last[-1] != ' ')
			last--;
		CU_ASSERT_EQUAL(sscanf(last, "%lf%%", &change), 1);
	}
	CU_ASSERT(change <= -90.0);
	cmd_result_free(&r);

	/* An untraced run beside a traced one: compared by what both have, the tasks' own
	 * tables (online), and said so. */
	harness_sh(&r, 60,
	           "cd '%s' && %s/pvmmon run -q -o c.xml -- ./slowstage -r 2 && %s/pvmmon diff "
	           "a.xml c.xml",
	           dir, harness_bin(), harness_bin());
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "Why tasks wait (A | B, online, by segment)"));
	CU_ASSERT_PTR_NULL(strstr(r.out, "(A | B, from the traces"));
	cmd_result_free(&r);
}

CU_TestInfo test_diff_tests[] = {
    {"diff: the procedure made twice as slow ranks first", test_diff_slower_procedure_first},
    {"diff: bad logs and options", test_diff_bad_input},
    {"diff: why tasks wait, cause by cause", test_diff_waits},
    CU_TEST_INFO_NULL,
};
