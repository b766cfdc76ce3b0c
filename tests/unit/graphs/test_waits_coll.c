/*
 * Unit tests for graphs/waits_coll.c: waits at a barrier (the latecomer named, its
 * computation charged) and receives inside group collectives, on hand-built traced
 * logs (waitslog.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "pvmmon/errors.h"
#include "pvmmon/log.h"
#include "pvmmon/waits.h"
#include "waitslog.h"

/* Task ti's pvm_barrier call (statement 0): its request to the group server (tid 99, not
 * a task of the log) at a, and the answer that releases it at b. */
static void barrier_call(pvmmon_log *log, size_t ti, int64_t a, int64_t b)
{
	wlog__event(log, ti, PVMMON_EV_SEND, 0, a, a);
	wlog__event(log, ti, PVMMON_EV_TRECV, 0, a, b)->peer = 99;
}

/*
 * Members A (0.0), B (0.1) and L (0.2) meet twice at b.c:10's barrier; the master M (0)
 * then waits for A's message. First barrier: A arrives at 1 ms, B at 2, L at 3, all
 * released at 4: L came last, A waited 3 - 1 = 2 ms (its time in the call less L's),
 * B 1 ms. Second: A and B compute 2 ms and arrive at 6, L computes 7 ms and arrives at
 * 11, all released at 12: A and B wait 5 ms each. A sends (a.c:20) at 12 to M, which
 * waited from 0: 12 ms, of which A's barrier waits (7 ms) pass on to L.
 */
static pvmmon_log *barrier_log(void)
{
	pvmmon_log *log = wlog__new_log(NULL, 0);
	size_t m = wlog__task(log, 9, "0", 0, 13 * MS), a = wlog__task(log, 1, "0.0", 0, 13 * MS),
	       b = wlog__task(log, 2, "0.1", 0, 13 * MS), l = wlog__task(log, 3, "0.2", 0, 13 * MS);

	wlog__stmt(log, m, 0, "pvm_recv", "m.c", 5);
	for (size_t t = a; t <= l; t++)
		wlog__stmt(log, t, 0, "pvm_barrier", "b.c", 10);
	wlog__stmt(log, a, 1, "pvm_send", "a.c", 20);
	wlog__recv(log, m, 0, 1, 0, 0, 12 * MS, 0);
	barrier_call(log, a, 1 * MS, 4 * MS);
	barrier_call(log, b, 2 * MS, 4 * MS);
	barrier_call(log, l, 3 * MS, 4 * MS);
	barrier_call(log, a, 6 * MS, 12 * MS);
	barrier_call(log, b, 6 * MS, 12 * MS);
	barrier_call(log, l, 11 * MS, 12 * MS);
	wlog__send(log, a, 1, 9, 0, 12 * MS);
	return log;
}

static void test_barrier(void)
{
	pvmmon_log *log = barrier_log();
	pvmmon_waits *w = wlog__compute(log);
	const pvmmon_wait_cause *lc, *ac;
	int64_t want[2][2] = {{2 * MS, 5 * MS}, {1 * MS, 5 * MS}}; /* A's and B's */
	size_t seen[2] = {0, 0};
	char *text;
	int rc;

	CU_ASSERT_EQUAL_FATAL(w->nstates, 5);
	for (size_t s = 0; s < w->nstates; s++) {
		const pvmmon_wait_state *st = &w->states[s];

		if (st->task == 0) {
			CU_ASSERT_EQUAL(st->kind, PVMMON_WAIT_LATE_SENDER);
			CU_ASSERT_EQUAL(st->wait_ns, 12 * MS);
			CU_ASSERT_EQUAL(st->indirect, 1);
			continue;
		}
		CU_ASSERT_EQUAL(st->kind, PVMMON_WAIT_BARRIER);
		CU_ASSERT_EQUAL(st->from, 3); /* L, the latecomer */
		CU_ASSERT_FATAL(st->task == 1 || st->task == 2);
		/* The state is at the answer's receive: the call's second event. */
		CU_ASSERT_EQUAL(log->tasks[st->task].events[st->event].op, PVMMON_EV_TRECV);
		CU_ASSERT_EQUAL(st->wait_ns, want[st->task - 1][seen[st->task - 1]++]);
		CU_ASSERT_EQUAL(st->indirect, 0);
	}
	CU_ASSERT_EQUAL(seen[0], 2);
	CU_ASSERT_EQUAL(seen[1], 2);
	CU_ASSERT_EQUAL(w->barrier_ns, 13 * MS);
	CU_ASSERT_EQUAL(w->late_sender_ns, 12 * MS);
	CU_ASSERT_EQUAL(w->collective_ns, 0);
	CU_ASSERT_EQUAL(w->total_wait_ns, 25 * MS);
	/* L's computation before the barrier: the barrier waits directly (2 + 1 + 5 + 5 ms,
	 * its excess each time), and 7 of M's 12 ms through A's waits. */
	lc = wlog__cause(w, 3, -1, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(lc);
	CU_ASSERT_EQUAL(lc->short_ns, 13 * MS);
	CU_ASSERT_EQUAL(lc->long_ns, 7 * MS);
	CU_ASSERT_PTR_EQUAL(lc, &w->causes[0]);
	/* A's own 5 ms of computation before its calls take the rest of M's wait. */
	ac = wlog__cause(w, 1, -1, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(ac);
	CU_ASSERT_EQUAL(ac->short_ns, 5 * MS);
	text = wlog__report(log, &rc);
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, ", at barriers 13.00 ms, in collectives 0 ns\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, ", at barriers: latecomer 0.2 in 2 of 2\n"));
	free(text);
	pvmmon_waits_free(w);
	pvmmon_log_free(log);
}

/*
 * The replay holds each member at a barrier until the last arrives, plus the
 * latecomer's time in the call. barrier_log replays to its 13 ms. With L's computation
 * before its barriers gone: first barrier, L arrives at 0, A at 1, B at 2, all go at 2 +
 * 1 (L's 1 ms in the call, the latecomer's by real time); second, A and B arrive at 3 +
 * 2 = 5, L at 3, all go at 5 + 1 = 6 (L's 1 ms again); A sends at 6, M receives it at 6;
 * every task ends 1 ms after its last event: 7 ms.
 */
static void test_barrier_replay(void)
{
	pvmmon_log *log = barrier_log();
	pvmmon_waits *w = wlog__compute(log);
	const pvmmon_wait_cause *lc = wlog__cause(w, 3, -1, 0);
	int64_t ns = -1;

	CU_ASSERT_PTR_NOT_NULL_FATAL(lc);
	CU_ASSERT_EQUAL(pvmmon_waits_predict(&ns, log, lc, 0), 0);
	CU_ASSERT_EQUAL(ns, 13 * MS);
	CU_ASSERT_EQUAL(pvmmon_waits_predict(&ns, log, lc, 100), 0);
	CU_ASSERT_EQUAL(ns, 7 * MS);
	pvmmon_waits_free(w);
	pvmmon_log_free(log);
}

/* A message sent by pvm_bcast that its receiver waited for: a wait in a collective. */
static void test_collective(void)
{
	pvmmon_log *log = wlog__late_sender_log();
	pvmmon_waits *w;

	free(log->tasks[1].stmts[0].op);
	CU_ASSERT_PTR_NOT_NULL_FATAL(log->tasks[1].stmts[0].op = strdup("pvm_bcast"));
	w = wlog__compute(log);
	CU_ASSERT_EQUAL_FATAL(w->nstates, 1);
	CU_ASSERT_EQUAL(w->states[0].kind, PVMMON_WAIT_COLLECTIVE);
	CU_ASSERT_EQUAL(w->states[0].from, 1);
	CU_ASSERT_EQUAL(w->collective_ns, 8 * MS);
	CU_ASSERT_EQUAL(w->late_sender_ns, 0);
	CU_ASSERT_EQUAL(w->barrier_ns, 0);
	CU_ASSERT_EQUAL(w->total_wait_ns, 8 * MS);
	CU_ASSERT_EQUAL_FATAL(w->ncauses, 1);
	CU_ASSERT_EQUAL(w->causes[0].short_ns, 8 * MS);
	pvmmon_waits_free(w);
	pvmmon_log_free(log);
}

CU_TestInfo test_waits_coll_tests[] = {
    {"barrier", test_barrier},
    {"collective", test_collective},
    {"barrier_replay", test_barrier_replay},
    CU_TEST_INFO_NULL,
};
