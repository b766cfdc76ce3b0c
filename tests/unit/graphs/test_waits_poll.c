/*
 * Unit tests for the wait analysis' polling waits and waits for ended tasks
 * (graphs/waits.c): logs built by hand, virtual times worked out in the comments.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "pvmmon/log.h"
#include "pvmmon/waits.h"
#include "waitslog.h"

/* A miss of task ti: a call that may find nothing and did, asking for want_peer. */
static void miss(pvmmon_log *log, size_t ti, pvmmon_event_op op, uint32_t id, int32_t want_peer,
                 int64_t vt0, int64_t vt1)
{
	pvmmon_log_event *e = wlog__event(log, ti, op, id, vt0, vt1);

	e->nd = 1;
	e->want_peer = want_peer;
	e->want_tag = 1;
}

/*
 * A (tid 1) polls B (tid 2) with pvm_nrecv at 1, 3, 5 and 7 ms, finding nothing, and at
 * 9 ms takes B's message, sent at 8 ms after B computed from 0: polling from 1 ms to the
 * hit at 9 ms, 8 ms, charged to B's computation before its send (A did nothing of it
 * before its first poll but 1 ms, in its own segment: B's excess is 8 - 0 = 8 ms).
 * A's nrecv at 9 ms took the message at once: no synchronisation delay.
 */
static void test_poll(void)
{
	pvmmon_log *log = wlog__new_log(NULL, 0);
	size_t a = wlog__task(log, 1, "0", 0, 10 * MS), b = wlog__task(log, 2, "0.1", 0, 9 * MS);
	pvmmon_waits *w;
	const pvmmon_wait_cause *c;
	pvmmon_log_event *hit;

	wlog__stmt(log, a, 0, "pvm_nrecv", "a.c", 10);
	wlog__stmt(log, b, 0, "pvm_send", "b.c", 20);
	for (int k = 0; k < 4; k++)
		miss(log, a, PVMMON_EV_NRECV, 0, 2, (1 + 2 * k) * MS, (1 + 2 * k) * MS + 1000);
	hit = wlog__event(log, a, PVMMON_EV_NRECV, 0, 9 * MS, 9 * MS + 1000);
	hit->peer = 2;
	hit->tag = 1;
	hit->seq = 0;
	wlog__send(log, b, 0, 1, 0, 8 * MS);
	w = wlog__compute(log);
	CU_ASSERT_EQUAL_FATAL(w->nstates, 1);
	CU_ASSERT_EQUAL(w->states[0].kind, PVMMON_WAIT_POLL);
	CU_ASSERT_EQUAL(w->states[0].task, a);
	CU_ASSERT_EQUAL(w->states[0].first, 0);
	CU_ASSERT_EQUAL(w->states[0].event, 4);
	CU_ASSERT_EQUAL(w->states[0].from, b);
	CU_ASSERT_EQUAL(w->states[0].wait_ns, 8 * MS);
	CU_ASSERT_EQUAL(w->poll_ns, 8 * MS);
	CU_ASSERT_EQUAL(w->late_sender_ns, 0);
	CU_ASSERT_EQUAL(w->total_wait_ns, 8 * MS);
	c = wlog__cause(w, b, -1, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(c->short_ns, 8 * MS);
	pvmmon_waits_free(w);
	pvmmon_log_free(log);
}

/* A poll run broken by another call (a send between misses) starts again after it;
 * misses without a hit after them are no polling wait. */
static void test_poll_broken(void)
{
	pvmmon_log *log = wlog__new_log(NULL, 0);
	size_t a = wlog__task(log, 1, "0", 0, 10 * MS), b = wlog__task(log, 2, "0.1", 0, 9 * MS);
	pvmmon_waits *w;
	pvmmon_log_event *hit;

	wlog__stmt(log, a, 0, "pvm_probe", "a.c", 10);
	wlog__stmt(log, a, 1, "pvm_send", "a.c", 11);
	wlog__stmt(log, a, 2, "pvm_recv", "a.c", 12);
	wlog__stmt(log, b, 0, "pvm_send", "b.c", 20);
	wlog__stmt(log, b, 1, "pvm_recv", "b.c", 21);
	miss(log, a, PVMMON_EV_PROBE, 0, 2, 1 * MS, 1 * MS);
	wlog__send(log, a, 1, 2, 0, 2 * MS);
	miss(log, a, PVMMON_EV_PROBE, 0, 2, 4 * MS, 4 * MS);
	miss(log, a, PVMMON_EV_PROBE, 0, 2, 6 * MS, 6 * MS);
	hit = wlog__event(log, a, PVMMON_EV_RECV, 2, 9 * MS, 9 * MS);
	hit->peer = 2;
	hit->tag = 1;
	hit->seq = 0;
	wlog__recv(log, b, 1, 1, 0, 2 * MS, 0, 0);
	wlog__send(log, b, 0, 1, 0, 8 * MS);
	w = wlog__compute(log);
	CU_ASSERT_EQUAL_FATAL(w->nstates, 1);
	CU_ASSERT_EQUAL(w->states[0].kind, PVMMON_WAIT_POLL);
	CU_ASSERT_EQUAL(w->states[0].first, 2);
	CU_ASSERT_EQUAL(w->states[0].wait_ns, 5 * MS);
	CU_ASSERT_EQUAL(w->total_wait_ns, 5 * MS);
	pvmmon_waits_free(w);
	pvmmon_log_free(log);
	/* Misses alone, the sender still running: nothing. */
	log = wlog__new_log(NULL, 0);
	a = wlog__task(log, 1, "0", 0, 10 * MS);
	b = wlog__task(log, 2, "0.1", 0, 12 * MS);
	wlog__stmt(log, a, 0, "pvm_nrecv", "a.c", 10);
	miss(log, a, PVMMON_EV_NRECV, 0, 2, 1 * MS, 1 * MS);
	miss(log, a, PVMMON_EV_NRECV, 0, -1, 3 * MS, 3 * MS);
	w = wlog__compute(log);
	CU_ASSERT_EQUAL(w->nstates, 0);
	CU_ASSERT_EQUAL(w->total_wait_ns, 0);
	pvmmon_waits_free(w);
	pvmmon_log_free(log);
}

/*
 * B (tid 2) ends at 4 ms. A times out in pvm_trecv(B) from 2 to 5 ms (B alive at its
 * start: nothing), then from 5 to 8 ms and from 8 to 11 ms (B ended): one wait for an
 * ended task of 6 ms, from B, with no cause; then pvm_trecv(any) from 12 to 14 ms while
 * C (tid 3, ended at 11 ms) and B had ended: 2 ms more, from C, the last to end.
 */
static void test_ended(void)
{
	pvmmon_log *log = wlog__new_log(NULL, 0);
	size_t a = wlog__task(log, 1, "0", 0, 15 * MS), b = wlog__task(log, 2, "0.1", 0, 4 * MS);
	size_t c = wlog__task(log, 3, "0.2", 0, 11 * MS);
	pvmmon_waits *w;
	char *rep;
	int rc;

	wlog__stmt(log, a, 0, "pvm_trecv", "a.c", 10);
	wlog__stmt(log, a, 1, "pvm_send", "a.c", 11);
	wlog__stmt(log, a, 2, "pvm_trecv", "a.c", 12);
	miss(log, a, PVMMON_EV_TRECV, 0, 2, 2 * MS, 5 * MS);
	miss(log, a, PVMMON_EV_TRECV, 0, 2, 5 * MS, 8 * MS);
	miss(log, a, PVMMON_EV_TRECV, 0, 2, 8 * MS, 11 * MS);
	wlog__send(log, a, 1, 3, 0, 11 * MS);
	miss(log, a, PVMMON_EV_TRECV, 2, -1, 12 * MS, 14 * MS);
	w = wlog__compute(log);
	CU_ASSERT_EQUAL_FATAL(w->nstates, 2);
	CU_ASSERT_EQUAL(w->states[0].kind, PVMMON_WAIT_ENDED);
	CU_ASSERT_EQUAL(w->states[0].from, b);
	CU_ASSERT_EQUAL(w->states[0].first, 1);
	CU_ASSERT_EQUAL(w->states[0].event, 2);
	CU_ASSERT_EQUAL(w->states[0].wait_ns, 6 * MS);
	CU_ASSERT_EQUAL(w->states[1].kind, PVMMON_WAIT_ENDED);
	CU_ASSERT_EQUAL(w->states[1].from, c);
	CU_ASSERT_EQUAL(w->states[1].wait_ns, 2 * MS);
	CU_ASSERT_EQUAL(w->ended_ns, 8 * MS);
	CU_ASSERT_EQUAL(w->total_wait_ns, 8 * MS);
	CU_ASSERT_EQUAL(w->ncauses, 0);
	pvmmon_waits_free(w);
	rep = wlog__report(log, &rc);
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_PTR_NOT_NULL(rep && strstr(rep, "for ended tasks 8.00 ms"));
	free(rep);
	pvmmon_log_free(log);
}

/* Misses for B (ended at 1 ms) from 2 to 4 ms, then for C (ended at 1 ms) from 4 to
 * 7 ms: two waits, 2 ms for B and 3 ms for C. */
static void test_ended_two_tasks(void)
{
	pvmmon_log *log = wlog__new_log(NULL, 0);
	size_t a = wlog__task(log, 1, "0", 0, 8 * MS), b = wlog__task(log, 2, "0.1", 0, 1 * MS);
	size_t c = wlog__task(log, 3, "0.2", 0, 1 * MS);
	pvmmon_waits *w;

	wlog__stmt(log, a, 0, "pvm_trecv", "a.c", 10);
	miss(log, a, PVMMON_EV_TRECV, 0, 2, 2 * MS, 3 * MS);
	miss(log, a, PVMMON_EV_TRECV, 0, 2, 3 * MS, 4 * MS);
	miss(log, a, PVMMON_EV_TRECV, 0, 3, 4 * MS, 7 * MS);
	w = wlog__compute(log);
	CU_ASSERT_EQUAL_FATAL(w->nstates, 2);
	CU_ASSERT_EQUAL(w->states[0].from, b);
	CU_ASSERT_EQUAL(w->states[0].wait_ns, 2 * MS);
	CU_ASSERT_EQUAL(w->states[1].from, c);
	CU_ASSERT_EQUAL(w->states[1].first, 2);
	CU_ASSERT_EQUAL(w->states[1].wait_ns, 3 * MS);
	CU_ASSERT_EQUAL(w->ended_ns, 5 * MS);
	pvmmon_waits_free(w);
	pvmmon_log_free(log);
}

CU_TestInfo test_waits_poll_tests[] = {
    {"poll", test_poll},
    {"poll_broken", test_poll_broken},
    {"ended", test_ended},
    {"ended_two_tasks", test_ended_two_tasks},
    CU_TEST_INFO_NULL,
};
