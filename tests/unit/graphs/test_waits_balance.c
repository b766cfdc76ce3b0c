/*
 * Unit tests for the load balance per task, procedure and call site
 * (graphs/waits_balance.c) on logs built by hand, the times worked out in the comments.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "pvmmon/log.h"
#include "pvmmon/waits.h"
#include "waitslog.h"

/*
 * The pipeline of test_pipeline_propagates (waits' suite): A (0) only waits, 0 useful;
 * B (0.1) has stage_work 0..2 and 10..12 ms, 4 ms; C (0.2) stage_work 0..2 and
 * slow_part 2..10 ms, 10 ms. The tasks' rows: 0, 4 and 10 ms, shares 0, 0.4 and 1.
 * slow_part: C alone, 8 ms. stage_work: B 4 ms and C 2 ms: min 2, avg 3, max 4, load
 * balance 0.75. No time outside the procedures: no call-site rows.
 */
static void test_balance_pipeline(void)
{
	static const char *const procs[] = {"slow_part", "stage_work"};
	pvmmon_log *log = wlog__new_log(procs, 2);
	size_t a = wlog__task(log, 1, "0", 0, 12 * MS), b = wlog__task(log, 2, "0.1", 0, 12 * MS),
	       c = wlog__task(log, 3, "0.2", 0, 10 * MS);
	pvmmon_wait_balance *v = NULL;
	pvmmon_waits *w;
	size_t n = 0;
	char name[256];

	wlog__pipeline_events(log, a, b, c);
	CU_ASSERT_EQUAL_FATAL(pvmmon_waits_balance(&v, &n, log), 0);
	CU_ASSERT_EQUAL_FATAL(n, 5);
	for (size_t x = 0; x < 3; x++) {
		CU_ASSERT_EQUAL(v[x].proc, PVMMON_WAIT_ALL_COMPUTATION);
		CU_ASSERT_EQUAL(v[x].task, x);
		CU_ASSERT_EQUAL(v[x].min_ns, v[x].max_ns);
	}
	CU_ASSERT_EQUAL(v[a].max_ns, 0);
	CU_ASSERT_EQUAL(v[b].max_ns, 4 * MS);
	CU_ASSERT_EQUAL(v[c].max_ns, 10 * MS);
	CU_ASSERT_DOUBLE_EQUAL(v[b].load_balance, 0.4, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(v[c].load_balance, 1.0, 1e-9);
	pvmmon_waits_balance_name(name, sizeof(name), log, &v[b]);
	CU_ASSERT_STRING_EQUAL(name, "0.1");
	/* The largest first: slow_part, then stage_work. */
	CU_ASSERT_EQUAL(v[3].proc, 0);
	CU_ASSERT_EQUAL(v[3].ntasks, 1);
	CU_ASSERT_EQUAL(v[3].max_ns, 8 * MS);
	CU_ASSERT_DOUBLE_EQUAL(v[3].load_balance, 1.0, 1e-9);
	CU_ASSERT_EQUAL(v[4].proc, 1);
	CU_ASSERT_EQUAL(v[4].ntasks, 2);
	CU_ASSERT_EQUAL(v[4].min_ns, 2 * MS);
	CU_ASSERT_EQUAL(v[4].avg_ns, 3 * MS);
	CU_ASSERT_EQUAL(v[4].max_ns, 4 * MS);
	CU_ASSERT_DOUBLE_EQUAL(v[4].load_balance, 0.75, 1e-9);
	pvmmon_waits_balance_name(name, sizeof(name), log, &v[4]);
	CU_ASSERT_STRING_EQUAL(name, "stage_work");
	/* The tasks' useful time is the efficiency's. */
	w = wlog__compute(log);
	CU_ASSERT_EQUAL(w->useful_max_ns, v[c].max_ns);
	CU_ASSERT_EQUAL(w->useful_avg_ns, (v[a].max_ns + v[b].max_ns + v[c].max_ns) / 3);
	pvmmon_waits_free(w);
	free(v);
	pvmmon_log_free(log);
}

/*
 * Call sites matched by file and line across tasks whose statement ids differ: A's
 * statement 5 and B's statement 0 are both pvm_send at s.c:10. A computes 0..3 ms, B
 * 0..1 ms before it: one row, 2 tasks, min 1, avg 2, max 3 ms, load balance 2/3. B's
 * computation after its send (1..2 ms) is "to the end".
 */
static void test_balance_sites(void)
{
	pvmmon_log *log = wlog__new_log(NULL, 0);
	size_t a = wlog__task(log, 1, "0", 0, 3 * MS), b = wlog__task(log, 2, "0.1", 0, 2 * MS);
	pvmmon_wait_balance *v = NULL;
	size_t n = 0;
	char name[256];

	wlog__stmt(log, a, 5, "pvm_send", "s.c", 10);
	wlog__stmt(log, b, 0, "pvm_send", "s.c", 10);
	wlog__stmt(log, b, 1, "pvm_recv", "s.c", 20);
	wlog__send(log, a, 5, 2, 0, 3 * MS);
	wlog__send(log, b, 0, 1, 0, 1 * MS);
	CU_ASSERT_EQUAL_FATAL(pvmmon_waits_balance(&v, &n, log), 0);
	CU_ASSERT_EQUAL_FATAL(n, 4);
	CU_ASSERT_EQUAL(v[2].proc, -1);
	CU_ASSERT_EQUAL(v[2].ntasks, 2);
	CU_ASSERT_EQUAL(v[2].min_ns, 1 * MS);
	CU_ASSERT_EQUAL(v[2].avg_ns, 2 * MS);
	CU_ASSERT_EQUAL(v[2].max_ns, 3 * MS);
	CU_ASSERT_DOUBLE_EQUAL(v[2].load_balance, 2.0 / 3.0, 1e-9);
	pvmmon_waits_balance_name(name, sizeof(name), log, &v[2]);
	CU_ASSERT_PTR_NOT_NULL(strstr(name, "before s.c:10"));
	CU_ASSERT_EQUAL(v[3].ntasks, 1);
	CU_ASSERT_EQUAL(v[3].max_ns, 1 * MS);
	pvmmon_waits_balance_name(name, sizeof(name), log, &v[3]);
	CU_ASSERT_STRING_EQUAL(name, "to the end");
	free(v);
	pvmmon_log_free(log);
}

CU_TestInfo test_waits_balance_tests[] = {
    {"balance_pipeline", test_balance_pipeline},
    {"balance_sites", test_balance_sites},
    CU_TEST_INFO_NULL,
};
