/*
 * Unit tests for graphs/between.c (`pvmmon report --between`): times parsed with their
 * units, the tables restricted to an interval (pro rata at its ends) with items without
 * a histogram said n/a, partial histograms starred, and the errors for an empty interval
 * and a log without histograms.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "histmodel.h"
#include "pvmmon/errors.h"
#include "pvmmon/report.h"

static void test_parse_time(void)
{
	static const char *const bad[] = {"",    "1.5", "abc",   "-1s",   "1.5h",
	                                  " 1s", "1s ", "nan s", "1e30s", NULL};
	int64_t ns = -1;

	CU_ASSERT(pvmmon_report_parse_time("1.5s", &ns) == 0 && ns == 1500000000);
	CU_ASSERT(pvmmon_report_parse_time("200ms", &ns) == 0 && ns == 200000000);
	CU_ASSERT(pvmmon_report_parse_time("30us", &ns) == 0 && ns == 30000);
	CU_ASSERT(pvmmon_report_parse_time("500ns", &ns) == 0 && ns == 500);
	CU_ASSERT(pvmmon_report_parse_time("0", &ns) == 0 && ns == 0);
	CU_ASSERT(pvmmon_report_parse_time("0.0000005s", &ns) == 0 && ns == 500);
	for (size_t i = 0; bad[i]; i++) {
		CU_ASSERT_EQUAL(pvmmon_report_parse_time(bad[i], &ns), PVMMON_EINVAL);
		CU_ASSERT_PTR_NOT_NULL(strstr(pvmmon_error_last(), "200ms"));
	}
}

static char *between(const pvmmon_log *log, int64_t t0, int64_t t1, int *rc)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);

	CU_ASSERT_PTR_NOT_NULL_FATAL(mem);
	*rc = pvmmon_report_text_between(log, t0, t1, mem);
	fclose(mem);
	return text;
}

/* [155 ms, 165 ms): half of bucket 15 (phase 1) and half of bucket 16 (phase 2). */
static void test_interval(void)
{
	pvmmon_log *log = hm_three_phase(3);
	int rc;
	char *text = between(log, 155000000, 165000000, &rc);
	const char *line;

	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "from 155.00 ms to 165.00 ms of virtual time"));
	/* Computing: (9 + 1) / 2 ms; waiting 4.8 / 2; PVM (0.5 + 4) / 2; overhead
	 * (0.1 + 0.2) / 2. */
	line = strstr(text, "\n  0.1 ");
	CU_ASSERT_PTR_NOT_NULL_FATAL(line);
	CU_ASSERT_EQUAL(
	    strncmp(line, "\n  0.1          5.00 ms     2.40 ms     2.25 ms    150.0 us       n/a",
	            66),
	    0);
	/* Statements: the receive in exchange has half a bucket of phase 2 (2.4 ms, 5
	 * calls), the send in work half a bucket of phase 1; the spawn has no histogram. */
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "threephase.c:44 in exchange"));
	line = strstr(text, "threephase.c:44 in exchange");
	CU_ASSERT(line && strstr(line, "2.40 ms          5\n"));
	line = strstr(text, "threephase.c:25 in work");
	CU_ASSERT(line && strstr(line, "250.0 us          5\n"));
	line = strstr(text, "threephase.c:61 in gather");
	CU_ASSERT(line && strstr(line, "0 ns          0\n"));
	line = strstr(text, "threephase.c:12 in main");
	CU_ASSERT(line && strstr(line, "n/a        n/a\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "n/a: 3 without a time histogram"));
	/* Procedures: work's phase-1 half, helper n/a. */
	line = strstr(text, "Procedures (inclusive time) in the interval");
	CU_ASSERT_PTR_NOT_NULL_FATAL(line);
	CU_ASSERT_PTR_NOT_NULL(strstr(line, "\n  work "));
	CU_ASSERT_PTR_NOT_NULL(strstr(line, "\n  helper "));
	CU_ASSERT_PTR_NOT_NULL(strstr(line, "4.50 ms"));
	free(text);
	/* Past the histograms' end: said so, and nothing counted there. */
	text = between(log, 470000000, 900000000, &rc);
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "the histograms end at 480.00 ms"));
	free(text);
	pvmmon_log_free(log);
}

/* The whole run's interval gives the profile totals back. */
static void test_whole_run(void)
{
	pvmmon_log *log = hm_three_phase(2);
	const pvmmon_log_task *t = &log->tasks[1];
	char want[64], *text;
	int rc;

	text = between(log, 0, (int64_t)HM_END * HM_WIDTH, &rc);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	snprintf(want, sizeof(want), "%.2f ms %10llu\n", (double)t->stmts[2].time_ns / 1e6,
	         (unsigned long long)t->stmts[2].count);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, want));
	free(text);
	pvmmon_log_free(log);
}

/* A histogram asked for while the program ran (from 200 ms) counts only its part of the
 * interval, and says so with a star. */
static void test_partial(void)
{
	pvmmon_log *log = hm_three_phase(2);
	pvmmon_log_task *t = &log->tasks[0];
	char *text;
	const char *line;
	int rc;

	for (size_t j = 0; j < t->nhists; j++)
		if (t->hists[j].focus == PVMMON_FOCUS_STMT && t->hists[j].stmt == 1 &&
		    t->hists[j].metric == PVMMON_HIST_TIME)
			t->hists[j].from_ns = 200000000;
	text = between(log, 150000000, 250000000, &rc);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	line = strstr(text, "threephase.c:44 in exchange                  0 ");
	CU_ASSERT(line && strstr(line, "ms*") && strstr(line, "ms*") < strchr(line, '\n'));
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(text, "\n*: its histogram collected over part of the interval"));
	free(text);
	/* An interval it covers whole: no star. */
	text = between(log, 200000000, 250000000, &rc);
	CU_ASSERT_PTR_NULL(strstr(text, "*:"));
	free(text);
	pvmmon_log_free(log);
}

static void test_errors(void)
{
	pvmmon_log *log = hm_three_phase(2), *none = hm_log(2);
	int rc;
	char *text = between(log, 200, 200, &rc);

	CU_ASSERT_EQUAL(rc, PVMMON_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(pvmmon_error_last(), "must come before"));
	free(text);
	text = between(log, 300, 200, &rc);
	CU_ASSERT_EQUAL(rc, PVMMON_EINVAL);
	free(text);
	text = between(none, 0, 200, &rc);
	CU_ASSERT_EQUAL(rc, PVMMON_ENOTFOUND);
	CU_ASSERT_PTR_NOT_NULL(strstr(pvmmon_error_last(), "no time histograms"));
	free(text);
	pvmmon_log_free(log);
	pvmmon_log_free(none);
}

CU_TestInfo test_between_tests[] = {
    {"times with units parsed, bad ones refused", test_parse_time},
    {"tables restricted to an interval, n/a without histogram", test_interval},
    {"the whole run gives the profile totals", test_whole_run},
    {"a histogram that collected over part of the interval is starred", test_partial},
    {"errors: empty interval, log without histograms", test_errors},
    CU_TEST_INFO_NULL,
};
