/*
 * Unit tests for the wait analysis (graphs/waits.c, waits_model.c, waits_report.c):
 * small traced logs with virtual times worked out by hand in the comments, where the
 * wait states, their kind, the causes they are charged to (directly and through the
 * sender's own waits), the efficiency figures, the predicted run with a cause made
 * faster and the report section must come out as computed; waits at a barrier (the
 * latecomer named) and in a collective; predictions on a network of one's choosing and
 * as a curve.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "pvmmon/errors.h"
#include "pvmmon/log.h"
#include "pvmmon/waits.h"
#include "waitslog.h"

/* The one wait is a late sender's, all of it on B's computation before its send. */
static void test_late_sender(void)
{
	pvmmon_log *log = wlog__late_sender_log();
	pvmmon_waits *w = wlog__compute(log);
	const pvmmon_wait_cause *c;

	CU_ASSERT_EQUAL_FATAL(w->nstates, 1);
	CU_ASSERT_EQUAL(w->states[0].task, 0);
	CU_ASSERT_EQUAL(w->states[0].event, 0);
	CU_ASSERT_EQUAL(w->states[0].from, 1);
	CU_ASSERT_EQUAL(w->states[0].kind, PVMMON_WAIT_LATE_SENDER);
	CU_ASSERT_EQUAL(w->states[0].wait_ns, 8 * MS);
	CU_ASSERT_EQUAL(w->states[0].indirect, 0);
	CU_ASSERT_EQUAL(w->total_wait_ns, 8 * MS);
	CU_ASSERT_EQUAL(w->late_sender_ns, 8 * MS);
	CU_ASSERT_EQUAL(w->wrong_order_ns, 0);
	CU_ASSERT_EQUAL_FATAL(w->ncauses, 1);
	c = &w->causes[0];
	CU_ASSERT_EQUAL(c->task, 1);
	CU_ASSERT_EQUAL(c->proc, -1);
	CU_ASSERT_EQUAL(c->stmt, 0);
	CU_ASSERT_EQUAL(c->short_ns, 8 * MS);
	CU_ASSERT_EQUAL(c->long_ns, 0);
	pvmmon_waits_free(w);
	pvmmon_log_free(log);
}

/*
 * A pipeline C (tid 3) -> B (tid 2) -> A (tid 1); procedures stage_work (1) and
 * slow_part (0). C: stage_work 0..2 ms, slow_part 2..10 ms, sends to B at 10 ms. B:
 * stage_work 0..2 ms, receives at 2 ms and waits 8 ms, stage_work 10..12 ms, sends to A
 * at 12 ms. A receives at 0 and waits 12 ms.
 * B's wait (8 ms): C's time since the start is stage_work 2 + slow_part 8, B's is
 * stage_work 2: the excess is slow_part's 8 ms, all of it short-term.
 * A's wait (12 ms): B's time is stage_work 4 and its wait 8, A's nothing: stage_work
 * gets 4/12 of it (4 ms, short-term on B's stage_work), B's wait 8/12 (8 ms, long-term on
 * slow_part, B's wait's cause): the wait is indirect. Total 20 ms, all charged.
 */
static void test_pipeline_propagates(void)
{
	static const char *const procs[] = {"slow_part", "stage_work"};
	pvmmon_log *log = wlog__new_log(procs, 2);
	size_t a = wlog__task(log, 1, "0", 0, 12 * MS), b = wlog__task(log, 2, "0.1", 0, 12 * MS),
	       c = wlog__task(log, 3, "0.2", 0, 10 * MS);
	pvmmon_waits *w;
	const pvmmon_wait_cause *slow, *work;
	int64_t sum = 0;
	char name[256];

	wlog__pipeline_events(log, a, b, c);
	w = wlog__compute(log);

	CU_ASSERT_EQUAL(w->total_wait_ns, 20 * MS);
	CU_ASSERT_EQUAL_FATAL(w->nstates, 2);
	/* In the order of their end: B's (10 ms), then A's (12 ms). */
	CU_ASSERT_EQUAL(w->states[0].task, b);
	CU_ASSERT_EQUAL(w->states[0].from, c);
	CU_ASSERT_EQUAL(w->states[0].indirect, 0);
	CU_ASSERT_EQUAL(w->states[1].task, a);
	CU_ASSERT_EQUAL(w->states[1].from, b);
	CU_ASSERT_EQUAL(w->states[1].indirect, 1);
	CU_ASSERT_EQUAL(w->states[1].kind, PVMMON_WAIT_LATE_SENDER);
	slow = wlog__cause(w, c, 0, 0);
	work = wlog__cause(w, b, 1, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(slow);
	CU_ASSERT_PTR_NOT_NULL_FATAL(work);
	CU_ASSERT_PTR_EQUAL(slow, &w->causes[0]); /* the largest first */
	CU_ASSERT_EQUAL(slow->short_ns, 8 * MS);
	CU_ASSERT_EQUAL(slow->long_ns, 8 * MS);
	CU_ASSERT_EQUAL(work->short_ns, 4 * MS);
	CU_ASSERT_EQUAL(work->long_ns, 0);
	/* C's own stage_work took no longer than B's: it is no cause. */
	CU_ASSERT_PTR_NULL(wlog__cause(w, c, 1, 0));
	for (size_t i = 0; i < w->ncauses; i++)
		sum += w->causes[i].short_ns + w->causes[i].long_ns;
	CU_ASSERT(llabs(sum - w->total_wait_ns) <= w->total_wait_ns / 100);
	pvmmon_waits_cause_name(name, sizeof(name), log, slow);
	CU_ASSERT_STRING_EQUAL(name, "0.2 slow_part");
	pvmmon_waits_free(w);
	pvmmon_log_free(log);
}

/*
 * A (tid 1) receives B's (tid 2) message first, then C's (tid 3). C sends at 1 ms
 * (arriving 0.5 ms later); A asks for B's at 2 ms and waits 8 ms for B's send at 10 ms,
 * then takes C's at 10 ms without waiting: a wait in the wrong order. With C's send at
 * 11 ms instead (after B's), the same wait is a plain late sender's.
 */
static pvmmon_log *order_log(int64_t c_sends)
{
	pvmmon_log *log = wlog__new_log(NULL, 0);
	size_t a = wlog__task(log, 1, "0", 0, 13 * MS), b = wlog__task(log, 2, "0.1", 0, 10 * MS),
	       c = wlog__task(log, 3, "0.2", 0, c_sends);

	wlog__stmt(log, a, 0, "pvm_recv", "a.c", 10);
	wlog__stmt(log, a, 1, "pvm_recv", "a.c", 11);
	wlog__stmt(log, b, 0, "pvm_send", "b.c", 20);
	wlog__stmt(log, c, 0, "pvm_send", "c.c", 30);
	wlog__recv(log, a, 0, 2, 0, 2 * MS, 8 * MS, 0);
	if (c_sends < 10 * MS)
		wlog__recv(log, a, 1, 3, 0, 10 * MS, 0, MS / 2);
	else
		wlog__recv(log, a, 1, 3, 0, 10 * MS, c_sends + MS / 2 - 10 * MS, MS / 2);
	wlog__send(log, b, 0, 1, 0, 10 * MS);
	wlog__send(log, c, 0, 1, 0, c_sends);
	return log;
}

static void test_wrong_order(void)
{
	pvmmon_log *log = order_log(1 * MS);
	pvmmon_waits *w = wlog__compute(log);
	pvmmon_wait_cause b_work = {1, -1, 0, 0, 0};
	int64_t ns = -1;

	CU_ASSERT_EQUAL_FATAL(w->nstates, 1);
	CU_ASSERT_EQUAL(w->states[0].from, 1);
	CU_ASSERT_EQUAL(w->states[0].kind, PVMMON_WAIT_WRONG_ORDER);
	CU_ASSERT_EQUAL(w->wrong_order_ns, 8 * MS);
	CU_ASSERT_EQUAL(w->late_sender_ns, 0);
	CU_ASSERT_EQUAL(w->total_wait_ns, 8 * MS);
	/* The replay gives C's queued message its transmission (0.5 ms), not the 9 ms it
	 * lay in the queue, and reproduces the run. */
	CU_ASSERT_EQUAL(pvmmon_waits_predict(&ns, log, NULL, 0), 0);
	CU_ASSERT_EQUAL(ns, 13 * MS);
	CU_ASSERT_EQUAL(w->runtime_ns, 13 * MS);
	/* B's 10 ms gone: its message is there at 0, A takes it at 2 ms and C's (there
	 * since 1.5 ms) at once, and ends 3 ms later, at 5 ms. */
	CU_ASSERT_EQUAL(pvmmon_waits_predict(&ns, log, &b_work, 100), 0);
	CU_ASSERT_EQUAL(ns, 5 * MS);
	pvmmon_waits_free(w);
	pvmmon_log_free(log);

	/* C sends after B: A's first wait was a late sender's, its second (1.5 ms, for C
	 * at 11 ms + 0.5 ms) too. */
	log = order_log(11 * MS);
	w = wlog__compute(log);
	CU_ASSERT_EQUAL_FATAL(w->nstates, 2);
	CU_ASSERT_EQUAL(w->states[0].kind, PVMMON_WAIT_LATE_SENDER);
	CU_ASSERT_EQUAL(w->states[1].kind, PVMMON_WAIT_LATE_SENDER);
	CU_ASSERT_EQUAL(w->wrong_order_ns, 0);
	CU_ASSERT_EQUAL(w->late_sender_ns, 8 * MS + 3 * MS / 2);
	pvmmon_waits_free(w);
	pvmmon_log_free(log);
}

/*
 * Efficiency of the late-sender run: A's useful time is 12 - 8 = 4 ms, B's 11 ms; the
 * run 12 ms. With free messages nothing changes (B's message came as it was sent), so
 * the transfer is 1 and all the loss is serialisation.
 */
static void test_efficiency(void)
{
	pvmmon_log *log = wlog__late_sender_log();
	pvmmon_waits *w = wlog__compute(log);

	CU_ASSERT_EQUAL(w->runtime_ns, 12 * MS);
	CU_ASSERT_EQUAL(w->useful_max_ns, 11 * MS);
	CU_ASSERT_EQUAL(w->useful_avg_ns, 15 * MS / 2);
	CU_ASSERT_EQUAL(w->ideal_ns, 12 * MS);
	CU_ASSERT_DOUBLE_EQUAL(w->load_balance, (double)w->useful_avg_ns / (double)w->useful_max_ns,
	                       1e-12);
	CU_ASSERT_DOUBLE_EQUAL(w->load_balance, 7.5 / 11, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(w->comm_efficiency, 11.0 / 12, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(w->parallel_efficiency, w->load_balance * w->comm_efficiency, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(w->comm_efficiency, w->serialisation * w->transfer, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(w->transfer, 1.0, 1e-9);
	pvmmon_waits_free(w);
	pvmmon_log_free(log);
}

/*
 * A slow network: B sends at 2 ms and ends at 3 ms; its message takes 8 ms (transmission
 * 8 ms), so A, asking at 2 ms, waits until 10 ms and ends at 12 ms. Free messages: A
 * gets it at 2 ms and ends at 4 ms. The run: 12 ms, ideal 4 ms; useful max is A's 4 ms.
 * Transfer is 1/3, serialisation 1.
 */
static void test_efficiency_transfer(void)
{
	pvmmon_log *log = wlog__new_log(NULL, 0);
	size_t a = wlog__task(log, 1, "0", 0, 12 * MS), b = wlog__task(log, 2, "0.1", 0, 3 * MS);
	pvmmon_waits *w;

	wlog__stmt(log, a, 0, "pvm_recv", "a.c", 10);
	wlog__stmt(log, b, 0, "pvm_send", "b.c", 20);
	wlog__recv(log, a, 0, 2, 0, 2 * MS, 8 * MS, 8 * MS);
	wlog__send(log, b, 0, 1, 0, 2 * MS);
	w = wlog__compute(log);
	CU_ASSERT_EQUAL(w->runtime_ns, 12 * MS);
	CU_ASSERT_EQUAL(w->ideal_ns, 4 * MS);
	CU_ASSERT(w->ideal_ns < w->runtime_ns);
	CU_ASSERT_EQUAL(w->useful_max_ns, 4 * MS);
	CU_ASSERT_EQUAL(w->useful_avg_ns, 7 * MS / 2);
	CU_ASSERT_DOUBLE_EQUAL(w->transfer, 1.0 / 3, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(w->serialisation, 1.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(w->load_balance, (double)w->useful_avg_ns / (double)w->useful_max_ns,
	                       1e-12);
	CU_ASSERT_DOUBLE_EQUAL(w->parallel_efficiency, w->load_balance * w->comm_efficiency, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(w->comm_efficiency, w->serialisation * w->transfer, 1e-9);
	/* No sender's computation was in excess: the message is charged to the segment of
	 * its send. */
	CU_ASSERT_EQUAL_FATAL(w->ncauses, 1);
	CU_ASSERT_EQUAL(w->causes[0].task, b);
	CU_ASSERT_EQUAL(w->causes[0].stmt, 0);
	CU_ASSERT_EQUAL(w->causes[0].short_ns, 8 * MS);
	pvmmon_waits_free(w);
	pvmmon_log_free(log);
}

/*
 * The late-sender run predicted with B's computation before its send (10 ms) faster:
 * 0% replays the run (12 ms); 50%: B sends at 5 ms, A gets it then and ends 2 ms later,
 * at 7 ms; 100%: B sends at 0, A receives at 2 ms without waiting and ends at 4 ms: the
 * run is shorter by A's whole wait of 8 ms. A cause that made nobody wait (A's own
 * computation after its receive) changes the run by what it takes off A's end.
 */
static void test_predict(void)
{
	pvmmon_log *log = wlog__late_sender_log();
	pvmmon_waits *w = wlog__compute(log);
	pvmmon_wait_cause other = {0, -1, UINT32_MAX, 0, 0};
	int64_t ns = -1;

	CU_ASSERT_EQUAL_FATAL(w->ncauses, 1);
	CU_ASSERT_EQUAL(pvmmon_waits_predict(&ns, log, &w->causes[0], 0), 0);
	CU_ASSERT_EQUAL(ns, w->runtime_ns);
	CU_ASSERT_EQUAL(ns, 12 * MS);
	CU_ASSERT_EQUAL(pvmmon_waits_predict(&ns, log, NULL, 0), 0);
	CU_ASSERT_EQUAL(ns, 12 * MS);
	CU_ASSERT_EQUAL(pvmmon_waits_predict(&ns, log, &w->causes[0], 50), 0);
	CU_ASSERT_EQUAL(ns, 7 * MS);
	CU_ASSERT_EQUAL(pvmmon_waits_predict(&ns, log, &w->causes[0], 100), 0);
	CU_ASSERT_EQUAL(ns, 12 * MS - 8 * MS);
	/* A's last 2 ms gone: A ends at 10 ms, B at 11 ms. */
	CU_ASSERT_EQUAL(pvmmon_waits_predict(&ns, log, &other, 100), 0);
	CU_ASSERT_EQUAL(ns, 11 * MS);
	CU_ASSERT_EQUAL(pvmmon_waits_predict(&ns, log, &w->causes[0], 101), PVMMON_EINVAL);
	CU_ASSERT_EQUAL(pvmmon_waits_predict(&ns, log, &w->causes[0], -1), PVMMON_EINVAL);
	pvmmon_waits_free(w);
	pvmmon_log_free(log);
}

/* The pipeline's slow_part gone: C sends at 2 ms, B waits for nothing and sends at 4 ms,
 * A ends at 4 ms; the run was 12 ms. */
static void test_predict_pipeline(void)
{
	static const char *const procs[] = {"slow_part", "stage_work"};
	pvmmon_log *log = wlog__new_log(procs, 2);
	size_t a = wlog__task(log, 1, "0", 0, 12 * MS), b = wlog__task(log, 2, "0.1", 0, 12 * MS),
	       c = wlog__task(log, 3, "0.2", 0, 10 * MS);
	pvmmon_wait_cause slow = {c, 0, 0, 0, 0};
	int64_t ns = -1;

	wlog__pipeline_events(log, a, b, c);
	CU_ASSERT_EQUAL(pvmmon_waits_predict(&ns, log, &slow, 0), 0);
	CU_ASSERT_EQUAL(ns, 12 * MS);
	CU_ASSERT_EQUAL(pvmmon_waits_predict(&ns, log, &slow, 100), 0);
	CU_ASSERT_EQUAL(ns, 4 * MS);
	CU_ASSERT_EQUAL(pvmmon_waits_predict(&ns, log, &slow, 50), 0);
	CU_ASSERT_EQUAL(ns, 8 * MS);
	pvmmon_log_free(log);
}

/*
 * Statement ids are each task's own (in the order its call sites first ran), so a
 * segment of the sender is matched with the receiver's segment before the same call
 * site, not the same id. A and B both compute 6 ms and call pvm_bufinfo at w.c:5; A
 * then receives (w.c:12) and waits 4 ms while B computes 4 ms more and sends (w.c:9).
 * B's excess is its 4 ms before the send, whichever ids A's statements have.
 */
static void test_segments_by_call_site(void)
{
	for (int swap = 0; swap < 2; swap++) {
		pvmmon_log *log = wlog__new_log(NULL, 0);
		size_t a = wlog__task(log, 1, "0", 0, 10 * MS),
		       b = wlog__task(log, 2, "0.1", 0, 10 * MS);
		uint32_t info = swap ? 1 : 0, rcv = swap ? 0 : 1;
		const pvmmon_wait_cause *c;
		pvmmon_waits *w;

		wlog__stmt(log, a, info, "pvm_bufinfo", "w.c", 5);
		wlog__stmt(log, a, rcv, "pvm_recv", "w.c", 12);
		wlog__stmt(log, b, 0, "pvm_bufinfo", "w.c", 5);
		wlog__stmt(log, b, 1, "pvm_send", "w.c", 9);
		wlog__event(log, a, PVMMON_EV_OTHER, info, 6 * MS, 6 * MS);
		wlog__recv(log, a, rcv, 2, 0, 6 * MS, 4 * MS, 0);
		wlog__event(log, b, PVMMON_EV_OTHER, 0, 6 * MS, 6 * MS);
		wlog__send(log, b, 1, 1, 0, 10 * MS);
		w = wlog__compute(log);
		CU_ASSERT_EQUAL_FATAL(w->ncauses, 1);
		c = wlog__cause(w, b, -1, 1);
		CU_ASSERT_PTR_NOT_NULL(c);
		CU_ASSERT(c && c->short_ns == 4 * MS);
		pvmmon_waits_free(w);
		pvmmon_log_free(log);
	}
}

/*
 * Different programs whose statements happen to have the same ids: B computes 6 ms
 * before pvm_bufinfo (b.c:5, its statement 0) and 4 ms before its send (b.c:9); A
 * computes 6 ms before its receive (a.c:12, its statement 0), which waits 4 ms. A
 * spent no time in B's segments: B's excess is all its 10 ms, so the wait is shared
 * 6:4 between them.
 */
static void test_segments_other_program(void)
{
	pvmmon_log *log = wlog__new_log(NULL, 0);
	size_t a = wlog__task(log, 1, "0", 0, 10 * MS), b = wlog__task(log, 2, "0.1", 0, 10 * MS);
	const pvmmon_wait_cause *c0, *c1;
	pvmmon_waits *w;

	wlog__stmt(log, a, 0, "pvm_recv", "a.c", 12);
	wlog__stmt(log, b, 0, "pvm_bufinfo", "b.c", 5);
	wlog__stmt(log, b, 1, "pvm_send", "b.c", 9);
	wlog__recv(log, a, 0, 2, 0, 6 * MS, 4 * MS, 0);
	wlog__event(log, b, PVMMON_EV_OTHER, 0, 6 * MS, 6 * MS);
	wlog__send(log, b, 1, 1, 0, 10 * MS);
	w = wlog__compute(log);
	c0 = wlog__cause(w, b, -1, 0);
	c1 = wlog__cause(w, b, -1, 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c1);
	CU_ASSERT(llabs(c0->short_ns - 24 * MS / 10) <= 1000);
	CU_ASSERT(llabs(c1->short_ns - 16 * MS / 10) <= 1000);
	pvmmon_waits_free(w);
	pvmmon_log_free(log);
}

static void test_report(void)
{
	pvmmon_log *log = wlog__late_sender_log();
	pvmmon_waits *w = wlog__compute(log);
	char name[256], *text;
	int rc = -1;

	CU_ASSERT_EQUAL_FATAL(w->ncauses, 1);
	pvmmon_waits_cause_name(name, sizeof(name), log, &w->causes[0]);
	CU_ASSERT_STRING_EQUAL(name, "0.1 before b.c:20");
	text = wlog__report(log, &rc);
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "Why tasks wait"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, name));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "in 1 receives"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "a.c:10"));
	free(text);
	pvmmon_waits_free(w);

	/* Untraced: no section, and the analysis says why it cannot run. */
	log->trace.enabled = 0;
	text = wlog__report(log, &rc);
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_STRING_EQUAL(text, "");
	free(text);
	w = (pvmmon_waits *)1;
	CU_ASSERT_EQUAL(pvmmon_waits_compute(&w, log), PVMMON_EINVAL);
	CU_ASSERT_PTR_NULL(w);
	CU_ASSERT_PTR_NOT_NULL(strstr(pvmmon_error_last(), "trace"));
	/* A cut trace is no whole trace either. */
	log->trace.enabled = 1;
	log->trace.dropped = 3;
	CU_ASSERT_EQUAL(pvmmon_waits_compute(&w, log), PVMMON_EINVAL);
	CU_ASSERT_PTR_NULL(w);
	pvmmon_log_free(log);
}

/* The other cause names: a procedure's, and a task's computation to its end. */
static void test_cause_names(void)
{
	static const char *const procs[] = {"slow_part"};
	pvmmon_log *log = wlog__new_log(procs, 1);
	pvmmon_wait_cause p = {0, 0, 0, 0, 0}, end = {0, -1, UINT32_MAX, 0, 0};
	char name[64];

	wlog__task(log, 1, "0.3", 0, MS);
	pvmmon_waits_cause_name(name, sizeof(name), log, &p);
	CU_ASSERT_STRING_EQUAL(name, "0.3 slow_part");
	pvmmon_waits_cause_name(name, sizeof(name), log, &end);
	CU_ASSERT_STRING_EQUAL(name, "0.3 to its end");
	pvmmon_log_free(log);
}

CU_TestInfo test_graphs_waits_tests[] = {
    {"late_sender", test_late_sender},
    {"pipeline_propagates", test_pipeline_propagates},
    {"segments_by_call_site", test_segments_by_call_site},
    {"segments_other_program", test_segments_other_program},
    {"wrong_order", test_wrong_order},
    {"efficiency", test_efficiency},
    {"efficiency_transfer", test_efficiency_transfer},
    {"predict", test_predict},
    {"predict_pipeline", test_predict_pipeline},
    {"report", test_report},
    {"cause_names", test_cause_names},
    CU_TEST_INFO_NULL,
};
