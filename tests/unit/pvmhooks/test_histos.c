/* Unit tests for pvmhooks/histos.c, the task's time histograms, against a fake
 * channel: calls' time split into computing, waiting and PVM, messages, the flush into
 * the records, and histograms switched on and off by the monitor. */
#include <string.h>

#include <CUnit/CUnit.h>

#include "../../../pvmhooks/histos.h"
#include "../../../pvmhooks/records.h"
#include "fake_channel.h"

#define ME 0x40001
#define MONITOR 0x40009
#define MS 1000000LL
#define T0 1000000000000LL

static int64_t sum(const pvmmon_log_hist *h)
{
	int64_t s = 0;

	for (size_t i = 0; i < h->nbuckets; i++)
		s += h->values[i];
	return s;
}

/* The records' task-focus histogram of m asked for by req (NULL: a default one). */
static const pvmmon_log_hist *task_hist(pvmmon_hist_metric m, const char *req)
{
	const pvmmon_log_task *t = hooks__records_task();

	for (size_t i = 0; i < t->nhists; i++)
		if (t->hists[i].focus == PVMMON_FOCUS_TASK && t->hists[i].metric == m &&
		    !t->hists[i].requested == !req && (!req || !strcmp(t->hists[i].requested, req)))
			return &t->hists[i];
	return NULL;
}

/* A wrapped call from v0 to end (ms on the task's axis) that waited sync ms. */
static void call(int64_t v0, int64_t end, int64_t sync)
{
	hooks_call c;

	memset(&c, 0, sizeof(c));
	c.v0 = T0 + v0 * MS;
	c.sync = sync * MS;
	histos__call_end(&c, T0 + end * MS);
}

static void begin(void)
{
	fake_begin(ME, MONITOR);
	hooks__records_reset();
	vclock__init(hooks__clock());
	hooks__set_start(T0);
	/* Four buckets of 10 ms: a run of 40 ms or more doubles them. */
	histos__welcome(4, 10 * MS, 8, 1, NULL, NULL);
}

static void end(void)
{
	histos__welcome(0, 0, 0, 0, NULL, NULL);
	hooks__records_reset();
	fake_end();
}

/* A receive from 5 to 9 ms that waited 2: computing before it, waiting, then in PVM;
 * a flush at 50 ms doubles the width and the states add up to the virtual time. */
static void test_states_and_flush(void)
{
	const pvmmon_log_hist *c, *w, *p, *m;

	begin();
	hooks__count_sent(1, 100);
	call(5, 9, 2);
	CU_ASSERT_EQUAL(histos__flush(0, T0 + 50 * MS), 0);
	c = task_hist(PVMMON_HIST_COMPUTE, NULL);
	w = task_hist(PVMMON_HIST_WAIT, NULL);
	p = task_hist(PVMMON_HIST_PVM, NULL);
	m = task_hist(PVMMON_HIST_MSGS_SENT, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL(sum(c), 46 * MS);
	CU_ASSERT_EQUAL(sum(w), 2 * MS);
	CU_ASSERT_EQUAL(sum(p), 2 * MS);
	CU_ASSERT_EQUAL(sum(m), 1);
	CU_ASSERT_EQUAL(task_hist(PVMMON_HIST_BYTES_SENT, NULL)->values[0], 100);
	/* Every histogram of the task has the same width: 20 ms after one doubling. */
	CU_ASSERT_EQUAL(c->width_ns, 20 * MS);
	CU_ASSERT_EQUAL(m->doublings, 1);
	CU_ASSERT_EQUAL(w->values[0], 2 * MS);
	CU_ASSERT_EQUAL(c->values[0], 5 * MS + 11 * MS);
	CU_ASSERT_EQUAL(hooks__records_task()->nhists, 8);
	end();
}

/* Switched on at 20 ms and off at 30 ms: a wait from 10 to 40 ms counts 10 ms in it,
 * nothing outside, and the histogram keeps its interval. */
static void test_ctl_on_and_off(void)
{
	wire_ctl on = {WIRE_CTL_HIST_ON, 0, 0, "wait:program", 0};
	wire_ctl off = {WIRE_CTL_HIST_OFF, 0, 0, "wait:program", 0};
	const pvmmon_log_hist *w;

	begin();
	call(0, 1, 0);
	CU_ASSERT_EQUAL(histos__control(&on, T0 + 20 * MS), 1);
	/* Asked for again while on: nothing changes. */
	CU_ASSERT_EQUAL(histos__control(&on, T0 + 25 * MS), 1);
	CU_ASSERT_EQUAL(histos__control(&off, T0 + 30 * MS), 1);
	call(10, 40, 30);
	CU_ASSERT_EQUAL(histos__flush(0, T0 + 41 * MS), 0);
	w = task_hist(PVMMON_HIST_WAIT, "ctl");
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	CU_ASSERT_EQUAL(w->from_ns, 20 * MS);
	CU_ASSERT_EQUAL(w->to_ns, 30 * MS);
	CU_ASSERT_EQUAL(sum(w), 10 * MS);
	CU_ASSERT_EQUAL(hooks__records_task()->nhists, 9);
	/* The default one has the whole wait; the time before the command is no
	 * computing. */
	CU_ASSERT_EQUAL(sum(task_hist(PVMMON_HIST_WAIT, NULL)), 30 * MS);
	CU_ASSERT_EQUAL(sum(task_hist(PVMMON_HIST_COMPUTE, NULL)), 9 * MS + 1 * MS);
	/* Other commands are not the histograms'. */
	on.cmd = WIRE_CTL_ENABLE;
	CU_ASSERT_EQUAL(histos__control(&on, T0 + 42 * MS), 0);
	end();
}

/* A statement's time and calls, swept from the records. */
static void test_statement_sweep(void)
{
	pvmmon_log_stmt *st;
	const pvmmon_log_task *t;
	size_t n = 0;

	begin();
	st = hooks__stmt((void *)0x1234, HOOKS_OP_pvm_send);
	CU_ASSERT_PTR_NOT_NULL_FATAL(st);
	st->count = 3;
	st->time_ns = 3 * MS;
	call(1, 2, 0);
	CU_ASSERT_EQUAL(histos__flush(0, T0 + 12 * MS), 0);
	t = hooks__records_task();
	for (size_t i = 0; i < t->nhists; i++)
		if (t->hists[i].focus == PVMMON_FOCUS_STMT) {
			n++;
			CU_ASSERT_EQUAL(t->hists[i].stmt, st->id);
			CU_ASSERT_EQUAL(sum(&t->hists[i]),
			                t->hists[i].metric == PVMMON_HIST_TIME ? 3 * MS : 3);
		}
	CU_ASSERT_EQUAL(n, 2);
	end();
}

/* Calls that begin and end in the bucket the last one ended in add up there (the fast
 * path keeps their sums until something else reaches the histograms); one across a
 * bucket's end is split as before: bucket by bucket, the same values. */
static void test_calls_in_one_bucket(void)
{
	const pvmmon_log_hist *c, *w, *p, *m;

	begin();
	hooks__count_sent(1, 8);
	call(1, 2, 0);
	call(3, 4, 1);
	call(5, 8, 2);
	call(9, 12, 1);
	hooks__count_sent(2, 8);
	call(13, 14, 0);
	call(15, 16, 0);
	CU_ASSERT_EQUAL(histos__flush(0, T0 + 19 * MS), 0);
	c = task_hist(PVMMON_HIST_COMPUTE, NULL);
	w = task_hist(PVMMON_HIST_WAIT, NULL);
	p = task_hist(PVMMON_HIST_PVM, NULL);
	m = task_hist(PVMMON_HIST_MSGS_SENT, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL_FATAL(c->width_ns, 10 * MS);
	CU_ASSERT_EQUAL(c->values[0], 4 * MS);
	CU_ASSERT_EQUAL(c->values[1], 5 * MS);
	CU_ASSERT_EQUAL(w->values[0], 4 * MS);
	CU_ASSERT_EQUAL(sum(w), 4 * MS);
	CU_ASSERT_EQUAL(p->values[0], 2 * MS);
	CU_ASSERT_EQUAL(p->values[1], 4 * MS);
	CU_ASSERT_EQUAL(m->values[0], 1);
	CU_ASSERT_EQUAL(m->values[1], 2);
	CU_ASSERT_EQUAL(task_hist(PVMMON_HIST_BYTES_SENT, NULL)->values[1], 16);
	/* After the flush the calls go on into the same histograms. */
	call(20, 21, 0);
	CU_ASSERT_EQUAL(histos__flush(0, T0 + 22 * MS), 0);
	CU_ASSERT_EQUAL(task_hist(PVMMON_HIST_COMPUTE, NULL)->values[1], 6 * MS);
	CU_ASSERT_EQUAL(task_hist(PVMMON_HIST_COMPUTE, NULL)->values[2], 1 * MS);
	CU_ASSERT_EQUAL(task_hist(PVMMON_HIST_PVM, NULL)->values[2], 1 * MS);
	end();
}

CU_TestInfo test_histos_tests[] = {
    {"a call's time: computing, waiting, in PVM", test_states_and_flush},
    {"ctl on and off clip a histogram", test_ctl_on_and_off},
    {"statements swept from the records", test_statement_sweep},
    {"calls within one bucket add up as one by one", test_calls_in_one_bucket},
    CU_TEST_INFO_NULL,
};
