/*
 * Unit tests for cli/tophist.c: `pvmmon top`'s samples of each task's computing share
 * from successive snapshots, made into a compute histogram while the snapshots carry
 * none, and left alone when they do.
 */
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "../../../cli/tophist.h"
#include "pvmmon/log.h"

/* A snapshot of one task at its flush at end_ns, with virt of virtual time of which
 * in_stmts in its one communication statement. */
static pvmmon_log *snap(int64_t end_ns, int64_t virt, int64_t in_stmts)
{
	pvmmon_log *log = NULL;
	pvmmon_log_task *t;

	CU_ASSERT_EQUAL_FATAL(pvmmon_log_new(&log), 0);
	log->ntasks = 1;
	log->tasks = calloc(1, sizeof(*log->tasks));
	t = &log->tasks[0];
	t->tid = 0x40001;
	t->lid = strdup("0");
	t->end_ns = end_ns;
	t->virtual_ns = virt;
	t->nstmts = 1;
	t->stmts = calloc(1, sizeof(*t->stmts));
	t->stmts[0].time_ns = in_stmts;
	return log;
}

static void test_samples(void)
{
	cli_tophist *h = NULL;
	pvmmon_log *s;

	CU_ASSERT_EQUAL_FATAL(cli__tophist_new(&h), 0);
	/* The first snapshot is the baseline: no sample yet. */
	s = snap(1000000000, 900000000, 100000000);
	CU_ASSERT_EQUAL(cli__tophist_add(h, s), 0);
	CU_ASSERT_EQUAL(s->tasks[0].nhists, 0);
	pvmmon_log_free(s);
	/* A second later: 0.75 s more virtual time, 0.5 s of it in the statement. */
	s = snap(2000000000, 1650000000, 600000000);
	CU_ASSERT_EQUAL(cli__tophist_add(h, s), 0);
	CU_ASSERT_EQUAL_FATAL(s->tasks[0].nhists, 1);
	CU_ASSERT_EQUAL(s->tasks[0].hists[0].metric, PVMMON_HIST_COMPUTE);
	CU_ASSERT_EQUAL(s->tasks[0].hists[0].focus, PVMMON_FOCUS_TASK);
	CU_ASSERT_EQUAL_FATAL(s->tasks[0].hists[0].nbuckets, 1);
	CU_ASSERT_EQUAL(s->tasks[0].hists[0].values[0], 250000000);
	pvmmon_log_free(s);
	/* No flush since: no new sample; then twenty more, all computing: the last 16. */
	s = snap(2000000000, 1650000000, 600000000);
	CU_ASSERT_EQUAL(cli__tophist_add(h, s), 0);
	CU_ASSERT_EQUAL(s->tasks[0].hists[0].nbuckets, 1);
	pvmmon_log_free(s);
	for (int i = 1; i <= 20; i++) {
		s = snap(2000000000 + i * 1000000000LL, 1650000000 + i * 1000000000LL, 600000000);
		CU_ASSERT_EQUAL(cli__tophist_add(h, s), 0);
		if (i < 20)
			pvmmon_log_free(s);
	}
	CU_ASSERT_EQUAL(s->tasks[0].hists[0].nbuckets, TOPHIST_N);
	CU_ASSERT_EQUAL(s->tasks[0].hists[0].values[0], s->tasks[0].hists[0].width_ns);
	CU_ASSERT_EQUAL(s->tasks[0].hists[0].values[TOPHIST_N - 1], s->tasks[0].hists[0].width_ns);
	pvmmon_log_free(s);
	cli__tophist_free(h);
}

/* A snapshot with the monitor's own histograms keeps them. */
static void test_own_histograms(void)
{
	cli_tophist *h = NULL;
	pvmmon_log *s;
	pvmmon_log_hist *own;

	CU_ASSERT_EQUAL_FATAL(cli__tophist_new(&h), 0);
	s = snap(1000000000, 900000000, 0);
	CU_ASSERT_EQUAL(cli__tophist_add(h, s), 0);
	pvmmon_log_free(s);
	s = snap(2000000000, 1900000000, 0);
	own = calloc(1, sizeof(*own));
	own->metric = PVMMON_HIST_WAIT;
	own->focus = PVMMON_FOCUS_TASK;
	s->tasks[0].hists = own;
	s->tasks[0].nhists = 1;
	CU_ASSERT_EQUAL(cli__tophist_add(h, s), 0);
	CU_ASSERT_EQUAL(s->tasks[0].nhists, 1);
	CU_ASSERT_PTR_EQUAL(s->tasks[0].hists, own);
	pvmmon_log_free(s);
	cli__tophist_free(h);
}

CU_TestInfo test_tophist_tests[] = {
    {"computing share sampled per flush, last 16 kept", test_samples},
    {"the monitor's own histograms are kept", test_own_histograms},
    CU_TEST_INFO_NULL,
};
