/* Unit tests for monitor/order.c: the preserve-mode decision rule on constructed
 * states (chains, cycles, exited tasks, tasks spawned mid-run, ties). */
#include <CUnit/CUnit.h>

#include "../../../monitor/order.h"

#define N ORDER_NEVER

static order_task running(int64_t vt)
{
	order_task t = {ORDER_RUNNING, vt, -1, 0, N, 0, 0};
	return t;
}

static order_task blocked(int64_t vt, int32_t on)
{
	order_task t = {ORDER_BLOCKED, vt, on, 0, N, 0, 0};
	return t;
}

static order_task exited(void)
{
	order_task t = {ORDER_EXITED, 0, -1, 0, N, 0, 0};
	return t;
}

/* Seed 000, Figure 4: P1 waits on P0 or P3; P0's message arrives at 30; P3 (earlier in
 * virtual time) waits on P2, P2 waits on P1. Nothing P3 could send can come before P1
 * moves, so P1 takes P0's message; without the wait-dependency rule it waits forever. */
static void test_figure4_cycle_through_requester(void)
{
	order_task t[4] = {exited(), blocked(5, -1), blocked(12, 1), blocked(10, 2)};
	order_cand c = {0, 30, "0.0", 0};
	order_scratch s = {0};
	size_t best = 99;

	CU_ASSERT_EQUAL(order__decide(t, 4, 1, -1, &c, 1, N, 0, &s, &best), ORDER_TAKE);
	CU_ASSERT_EQUAL(best, 0);
	s.naive = 1;
	CU_ASSERT_EQUAL(order__decide(t, 4, 1, -1, &c, 1, N, 0, &s, &best), ORDER_WAIT);
	CU_ASSERT_TRUE(s.low[3]);
	order__scratch_free(&s);
}

/* A running task still before the candidate's arrival holds the decision back; once
 * its report passes the arrival, the candidate is safe. */
static void test_running_task_holds_until_past(void)
{
	order_task t[3] = {blocked(0, -1), running(10), exited()};
	order_cand c = {2, 30, "2", 0};
	order_scratch s = {0};
	size_t best = 99;

	CU_ASSERT_EQUAL(order__decide(t, 3, 0, -1, &c, 1, N, 0, &s, &best), ORDER_WAIT);
	CU_ASSERT_TRUE(s.low[1]);
	CU_ASSERT_FALSE(s.low[2]);
	t[1].vt = 30;
	CU_ASSERT_EQUAL(order__decide(t, 3, 0, -1, &c, 1, N, 0, &s, &best), ORDER_TAKE);
	order__scratch_free(&s);
}

/* A chain of blocked tasks that ends in a running task early in virtual time: every
 * task on it can still send before the candidate. */
/* A message takes at least the credit to arrive: a running task whose next send comes
 * within that much of the candidate's arrival cannot overtake it; one further back
 * still holds the decision, and so does a poll's deadline. */
static void test_transmission_credit(void)
{
	order_task t[3] = {blocked(0, -1), running(22), exited()};
	order_cand c = {2, 30, "2", 0};
	order_scratch s = {0};
	size_t best = 99;

	CU_ASSERT_EQUAL(order__decide(t, 3, 0, -1, &c, 1, N, 0, &s, &best), ORDER_WAIT);
	s.credit = 8;
	CU_ASSERT_EQUAL(order__decide(t, 3, 0, -1, &c, 1, N, 0, &s, &best), ORDER_TAKE);
	CU_ASSERT_EQUAL(best, 0);
	CU_ASSERT_FALSE(s.low[1]);
	t[1].vt = 21;
	CU_ASSERT_EQUAL(order__decide(t, 3, 0, -1, &c, 1, N, 0, &s, &best), ORDER_WAIT);
	CU_ASSERT_TRUE(s.low[1]);
	/* A poll at 30 with nothing queued finds nothing once no send can arrive by 30. */
	CU_ASSERT_EQUAL(order__decide(t, 3, 0, -1, NULL, 0, 30, 0, &s, &best), ORDER_WAIT);
	t[1].vt = 22;
	CU_ASSERT_EQUAL(order__decide(t, 3, 0, -1, NULL, 0, 30, 0, &s, &best), ORDER_NONE);
	/* No credit known: the rule as before. */
	s.credit = 0;
	CU_ASSERT_EQUAL(order__decide(t, 3, 0, -1, NULL, 0, 30, 0, &s, &best), ORDER_WAIT);
	order__scratch_free(&s);
}

static void test_chain_to_running_task(void)
{
	order_task t[5] = {blocked(0, -1), blocked(5, 2), blocked(6, 3), running(7), exited()};
	order_cand c = {4, 50, "4", 0};
	order_scratch s = {0};
	size_t best;

	CU_ASSERT_EQUAL(order__decide(t, 5, 0, -1, &c, 1, N, 0, &s, &best), ORDER_WAIT);
	CU_ASSERT_TRUE(s.low[1] && s.low[2] && s.low[3]);
	/* A blocked task already past the candidate cannot send before it, whatever it
	 * waits on. */
	t[2].vt = 60;
	CU_ASSERT_EQUAL(order__decide(t, 5, 0, 4, &c, 1, N, 0, &s, &best), ORDER_TAKE);
	CU_ASSERT_EQUAL(order__decide(t, 5, 0, -1, &c, 1, N, 0, &s, &best), ORDER_WAIT);
	CU_ASSERT_FALSE(s.low[1]);
	CU_ASSERT_FALSE(s.low[2]);
	CU_ASSERT_TRUE(s.low[3]);
	order__scratch_free(&s);
}

/* A cycle of blocked tasks that reaches no running task sends nothing, ever. */
static void test_closed_cycle_is_infinite(void)
{
	order_task t[4] = {blocked(0, -1), blocked(1, 2), blocked(2, 1), exited()};
	order_cand c = {3, 40, "3", 0};
	order_scratch s = {0};
	size_t best;

	CU_ASSERT_EQUAL(order__low(t, 4, 0, 40, &s), 0);
	CU_ASSERT_EQUAL(order__decide(t, 4, 0, -1, &c, 1, N, 0, &s, &best), ORDER_TAKE);
	/* An incoming message wakes one of them: the whole cycle may move. */
	t[2].incoming = 1;
	CU_ASSERT_EQUAL(order__low(t, 4, 0, 40, &s), 2);
	CU_ASSERT_EQUAL(order__decide(t, 4, 0, -1, &c, 1, N, 0, &s, &best), ORDER_WAIT);
	order__scratch_free(&s);
}

/* Exited tasks never hold; with no candidate and nobody left a blocking receive is
 * stuck, a nonblocking one finds nothing. */
static void test_exited_and_stuck(void)
{
	order_task t[3] = {blocked(0, -1), exited(), exited()};
	order_scratch s = {0};
	size_t best;

	CU_ASSERT_EQUAL(order__decide(t, 3, 0, -1, NULL, 0, N, 0, &s, &best), ORDER_STUCK);
	CU_ASSERT_EQUAL(order__decide(t, 3, 0, -1, NULL, 0, 100, 0, &s, &best), ORDER_NONE);
	/* A message still on its way is no deadlock. */
	CU_ASSERT_EQUAL(order__decide(t, 3, 0, -1, NULL, 0, N, 1, &s, &best), ORDER_WAIT);
	order__scratch_free(&s);
}

/* pvm_nrecv at virtual time 20: a message arriving at 30 was not there yet; one
 * arriving at 10 was. */
static void test_nonblocking_deadline(void)
{
	order_task t[3] = {blocked(20, -1), running(25), exited()};
	order_cand late = {2, 30, "2", 0}, early = {2, 10, "2", 0};
	order_scratch s = {0};
	size_t best = 99;

	CU_ASSERT_EQUAL(order__decide(t, 3, 0, -1, &late, 1, 20, 0, &s, &best), ORDER_NONE);
	CU_ASSERT_EQUAL(order__decide(t, 3, 0, -1, &early, 1, 20, 0, &s, &best), ORDER_TAKE);
	/* The running task at 15 could still send before 20. */
	t[1].vt = 15;
	CU_ASSERT_EQUAL(order__decide(t, 3, 0, -1, &late, 1, 20, 0, &s, &best), ORDER_WAIT);
	order__scratch_free(&s);
}

/* Equal arrivals are broken by the senders' logical ids, then by sequence numbers,
 * never by arrival order or list position. */
static void test_ties_are_deterministic(void)
{
	order_task t[4] = {blocked(0, -1), exited(), exited(), exited()};
	order_cand c[3] = {{3, 30, "0.2", 0}, {1, 30, "0.10", 0}, {2, 30, "0.1", 0}};
	order_cand d[2] = {{1, 30, "0.1", 4}, {1, 30, "0.1", 3}};
	order_scratch s = {0};
	size_t best = 99;

	CU_ASSERT_EQUAL(order__decide(t, 4, 0, -1, c, 3, N, 0, &s, &best), ORDER_TAKE);
	CU_ASSERT_EQUAL(best, 2);
	CU_ASSERT_EQUAL(order__decide(t, 4, 0, -1, d, 2, N, 0, &s, &best), ORDER_TAKE);
	CU_ASSERT_EQUAL(best, 1);
	order__scratch_free(&s);
}

/* A task spawned mid-run that has not registered yet counts as running from its
 * parent's spawn time; a specific source ignores everyone else. */
static void test_spawned_mid_run_and_specific_source(void)
{
	order_task t[4] = {blocked(0, -1), exited(), running(90), running(12)};
	order_cand c = {1, 40, "1", 0};
	order_scratch s = {0};
	size_t best;

	CU_ASSERT_EQUAL(order__decide(t, 4, 0, -1, &c, 1, N, 0, &s, &best), ORDER_WAIT);
	CU_ASSERT_TRUE(s.low[3]);
	CU_ASSERT_FALSE(s.low[2]);
	CU_ASSERT_EQUAL(order__decide(t, 4, 0, 1, &c, 1, N, 0, &s, &best), ORDER_TAKE);
	order__scratch_free(&s);
}

/* Another requester's candidate before x makes it about to run; a wildcard waiter is
 * low as soon as anyone else is, but not because of itself. */
static void test_other_requester_and_wildcard_waiters(void)
{
	order_task t[5] = {blocked(0, -1), blocked(5, -1), blocked(6, -1), exited(), exited()};
	order_cand c = {3, 40, "3", 0};
	order_scratch s = {0};
	size_t best;

	CU_ASSERT_EQUAL(order__low(t, 5, 0, 40, &s), 0);
	t[1].cand_va = 20;
	CU_ASSERT_EQUAL(order__low(t, 5, 0, 40, &s), 2);
	CU_ASSERT_TRUE(s.low[1] && s.low[2]);
	CU_ASSERT_EQUAL(order__decide(t, 5, 0, -1, &c, 1, N, 0, &s, &best), ORDER_WAIT);
	t[1].cand_va = 45;
	CU_ASSERT_EQUAL(order__decide(t, 5, 0, -1, &c, 1, N, 0, &s, &best), ORDER_TAKE);
	order__scratch_free(&s);
}

/* Candidates whose virtual arrivals are within the spread of their senders'
 * uncertainties tie (the part every task shares moves them together): the least
 * logical id is taken, whichever arrival is earlier; outside it, or with none, the
 * earliest arrival is. */
static void test_uncertain_times_tie(void)
{
	order_task t[3] = {blocked(0, -1), exited(), exited()};
	order_cand c[2] = {{1, 100, "0.1", 0}, {2, 120, "0.0", 0}};
	order_scratch s = {0};
	size_t best = 99;

	CU_ASSERT_EQUAL(order__decide(t, 3, 0, -1, c, 2, N, 0, &s, &best), ORDER_TAKE);
	CU_ASSERT_EQUAL(best, 0);
	t[1].unc = 30; /* 100 +- 30 reaches 120 */
	CU_ASSERT_EQUAL(order__decide(t, 3, 0, -1, c, 2, N, 0, &s, &best), ORDER_TAKE);
	CU_ASSERT_EQUAL(best, 1);
	t[1].unc = 10;
	t[2].unc = 30; /* a spread of 20: 100 + 20 reaches 120 */
	CU_ASSERT_EQUAL(order__decide(t, 3, 0, -1, c, 2, N, 0, &s, &best), ORDER_TAKE);
	CU_ASSERT_EQUAL(best, 1);
	t[2].unc = 29; /* 119 < 120: apart */
	CU_ASSERT_EQUAL(order__decide(t, 3, 0, -1, c, 2, N, 0, &s, &best), ORDER_TAKE);
	CU_ASSERT_EQUAL(best, 0);
	t[1].unc = t[2].unc = 1000; /* large, but alike: apart */
	CU_ASSERT_EQUAL(order__decide(t, 3, 0, -1, c, 2, N, 0, &s, &best), ORDER_TAKE);
	CU_ASSERT_EQUAL(best, 0);
	/* A tied candidate due after a nonblocking receive's deadline is no candidate. */
	t[1].unc = 30;
	t[2].unc = 0;
	CU_ASSERT_EQUAL(order__decide(t, 3, 0, -1, c, 2, 110, 0, &s, &best), ORDER_TAKE);
	CU_ASSERT_EQUAL(best, 0);
	order__scratch_free(&s);
}

/* A tie is decided once no running task can send a message that could join it: until
 * just past the earliest arrival + the spread of the uncertainties of the tasks that can
 * still send and the candidates' senders. Two requests whose windows overlap do not wait for each
 * other: a blocked task holds a decision only with a candidate before the earliest arrival. */
static void test_tie_window(void)
{
	order_task t[4] = {blocked(0, -1), exited(), running(110), blocked(0, -1)};
	order_cand c = {1, 100, "0.1", 0};
	order_scratch s = {0};
	size_t best = 99;

	/* Without uncertainties, 110 is past 100: decided. */
	CU_ASSERT_EQUAL(order__decide(t, 4, 0, -1, &c, 1, N, 0, &s, &best), ORDER_TAKE);
	/* With them (a spread of 30: 0 to 30), task 2 may still send at 100 + 30 = 130 a
	 * message that ties; one it sends after that ties with nothing earlier. */
	t[1].unc = 30;
	t[2].unc = 20;
	CU_ASSERT_EQUAL(order__decide(t, 4, 0, -1, &c, 1, N, 0, &s, &best), ORDER_WAIT);
	CU_ASSERT_TRUE(s.low[2]);
	t[2].vt = 130;
	CU_ASSERT_EQUAL(order__decide(t, 4, 0, -1, &c, 1, N, 0, &s, &best), ORDER_WAIT);
	t[2].vt = 131;
	CU_ASSERT_EQUAL(order__decide(t, 4, 0, -1, &c, 1, N, 0, &s, &best), ORDER_TAKE);
	CU_ASSERT_EQUAL(best, 0);
	/* Task 3 also requests, its earliest candidate at 120: inside task 0's window, but
	 * after its earliest arrival, so task 0 goes on; task 3 waits for task 0. */
	t[2] = exited();
	t[3].cand_va = 120;
	CU_ASSERT_EQUAL(order__decide(t, 4, 0, -1, &c, 1, N, 0, &s, &best), ORDER_TAKE);
	{
		order_cand c3 = {1, 120, "0.1", 1};

		t[0].cand_va = 100;
		CU_ASSERT_EQUAL(order__decide(t, 4, 3, -1, &c3, 1, N, 0, &s, &best), ORDER_WAIT);
		CU_ASSERT_TRUE(s.low[0]);
	}
	order__scratch_free(&s);
}

/* Issue 37's poller: a worker blocked in a pvm_trecv with deadline 1000 (the monitor
 * folds a request's deadline into its earliest candidate) does not hold the master's
 * polls with earlier deadlines, which time out at once, and the decision says by what
 * (the horizon: the poll's deadline); a poll whose deadline is past the worker's waits
 * for it, and the worker's own timeout then goes first, with nothing that could come. */
static void test_timeouts_by_deadline(void)
{
	order_task t[2] = {blocked(0, -1), blocked(0, -1)};
	order_scratch s = {0};
	size_t best = 99;

	t[1].cand_va = 1000;
	CU_ASSERT_EQUAL(order__decide(t, 2, 0, -1, NULL, 0, 100, 0, &s, &best), ORDER_NONE);
	CU_ASSERT_EQUAL(s.horizon, 100);
	CU_ASSERT_EQUAL(s.window, 0);
	t[0].vt = 900;
	CU_ASSERT_EQUAL(order__decide(t, 2, 0, -1, NULL, 0, 1005, 0, &s, &best), ORDER_WAIT);
	CU_ASSERT_TRUE(s.low[1]);
	t[0].cand_va = 1005;
	t[1].cand_va = N;
	t[1].vt = 30;
	CU_ASSERT_EQUAL(order__decide(t, 2, 1, -1, NULL, 0, 1000, 0, &s, &best), ORDER_NONE);
	CU_ASSERT_EQUAL(s.horizon, 1000);
	order__scratch_free(&s);
}

/* The decision's record (the trace) gets the tie window and the horizon: the earliest
 * arrival + the window, just past it. */
static void test_decision_record(void)
{
	order_task t[3] = {blocked(0, -1), exited(), running(200)};
	order_cand c = {1, 100, "0.1", 0};
	order_scratch s = {0};
	size_t best = 99;

	t[1].unc = 30;
	t[2].unc = 10;
	CU_ASSERT_EQUAL(order__decide(t, 3, 0, -1, &c, 1, N, 0, &s, &best), ORDER_TAKE);
	CU_ASSERT_EQUAL(s.window, 20);
	CU_ASSERT_EQUAL(s.horizon, 121);
	order__scratch_free(&s);
}

/* A worker woken by the requester's own reply does not hold the requester's next
 * decision while that reply cannot have reached it: its wake bound (the reply's send +
 * the least transmission) is past the next candidate. */
static void test_wake_bound(void)
{
	order_task t[3] = {blocked(0, -1), blocked(10, 0), blocked(12, 0)};
	order_cand c = {2, 40, "0.2", 0};
	order_scratch s = {0};
	size_t best = 99;

	/* Task 1 got the requester's reply (sent at 30): without a bound it may run from 10. */
	t[1].incoming = 1;
	CU_ASSERT_EQUAL(order__decide(t, 3, 0, -1, &c, 1, N, 0, &s, &best), ORDER_WAIT);
	CU_ASSERT_TRUE(s.low[1]);
	/* The reply reaches it at 30 + 5 at the earliest: still before 40. */
	t[1].wake = 35;
	CU_ASSERT_EQUAL(order__decide(t, 3, 0, -1, &c, 1, N, 0, &s, &best), ORDER_WAIT);
	/* At 45: past the candidate (for a blocking receive's decision, which counts wake
	 * bounds; a polling one's does not). */
	t[1].wake = 45;
	CU_ASSERT_EQUAL(order__decide(t, 3, 0, -1, &c, 1, N, 0, &s, &best), ORDER_WAIT);
	s.use_wake = 1;
	CU_ASSERT_EQUAL(order__decide(t, 3, 0, -1, &c, 1, N, 0, &s, &best), ORDER_TAKE);
	CU_ASSERT_EQUAL(best, 0);
	order__scratch_free(&s);
}

/* The bounds a grant gives the requester: running tasks at their vt; tasks waiting on
 * the requester alone never (until it sends to them); tasks waiting through others at
 * the least time any task can send, lowered by any send of the requester. */
static void test_bounds(void)
{
	order_task t[6] = {blocked(0, -1), running(50), blocked(20, 0),
	                   blocked(30, 1), exited(),    blocked(40, 2)};
	order_scratch s = {0};
	int64_t b[6];
	uint8_t d[6];

	s.use_wake = 1;
	t[2].incoming = 0;
	CU_ASSERT_EQUAL_FATAL(order__bounds(t, 6, 0, &s, b, d), 0);
	CU_ASSERT_EQUAL(b[0], N);
	CU_ASSERT_EQUAL(b[1], 50);
	CU_ASSERT_EQUAL(d[1], ORDER_DEP_NONE);
	CU_ASSERT_EQUAL(b[2], N);
	CU_ASSERT_EQUAL(d[2], ORDER_DEP_REQ);
	/* Task 3 waits on the running task 1: not before 50. */
	CU_ASSERT_EQUAL(b[3], 50);
	CU_ASSERT_EQUAL(d[3], ORDER_DEP_ANY);
	CU_ASSERT_EQUAL(b[4], N);
	/* Task 5 waits on task 2, which waits on the requester: never before it sends. */
	CU_ASSERT_EQUAL(b[5], N);
	CU_ASSERT_EQUAL(d[5], ORDER_DEP_ANY);
	/* A reply on its way to task 2, reaching it at 60 at the earliest. */
	t[2].incoming = 1;
	t[2].wake = 60;
	CU_ASSERT_EQUAL_FATAL(order__bounds(t, 6, 0, &s, b, d), 0);
	CU_ASSERT_EQUAL(b[2], 60);
	CU_ASSERT_EQUAL(b[5], 50);
	order__scratch_free(&s);
}


/* Whom each task may address (order_scratch.kn): the notify manager/worker's shape.
 * Task 0 is the manager, blocked on anyone; task 1 a worker deciding the manager's
 * "work" (arrival 110, credit 5); task 2 a worker that has learned only the manager's
 * tid; task 3 a task that may address everyone. */
static void test_knowledge(void)
{
	order_task t[4] = {blocked(100, -1), blocked(60, -1), running(50), running(120)};
	order_cand c = {0, 110, "0", 0};
	/* Rows: who may address whom, bit b of row a for a -> b. */
	uint64_t kn[4] = {0xf, 0x1, 0x1, 0xf};
	order_scratch s = {0};
	size_t best = 99;

	s.credit = 5;
	/* Without it, the running worker holds the decision. */
	CU_ASSERT_EQUAL(order__decide(t, 4, 1, -1, &c, 1, N, 0, &s, &best), ORDER_WAIT);
	CU_ASSERT_TRUE(s.low[2]);
	/* With it: the worker cannot address task 1, and the manager's next message comes
	 * after the one queued, however early it may run. */
	s.kn = kn;
	s.kn_words = 1;
	CU_ASSERT_EQUAL(order__decide(t, 4, 1, -1, &c, 1, N, 0, &s, &best), ORDER_TAKE);
	CU_ASSERT_EQUAL(best, 0);
	t[0].vt = 90;
	CU_ASSERT_EQUAL(order__decide(t, 4, 1, -1, &c, 1, N, 0, &s, &best), ORDER_TAKE);
	/* With no candidate from it, the manager (woken by the worker, which may address
	 * it) holds a poll due at 110. */
	CU_ASSERT_EQUAL(order__decide(t, 4, 1, -1, NULL, 0, 110, 0, &s, &best), ORDER_WAIT);
	CU_ASSERT_TRUE(s.low[0]);
	CU_ASSERT_FALSE(s.low[2]);
	/* Nobody that may address the manager runs: it waits for good. */
	kn[2] = 0;
	CU_ASSERT_EQUAL(order__decide(t, 4, 1, -1, NULL, 0, 110, 0, &s, &best), ORDER_NONE);
	/* A task that may address task 1 holds it while it may send before 110 - 5. */
	t[3].vt = 104;
	CU_ASSERT_EQUAL(order__decide(t, 4, 1, -1, NULL, 0, 110, 0, &s, &best), ORDER_WAIT);
	CU_ASSERT_TRUE(s.low[3]);
	CU_ASSERT_TRUE(s.low[0]); /* which task 3 may wake */
	t[3].vt = 105;
	CU_ASSERT_EQUAL(order__decide(t, 4, 1, -1, NULL, 0, 110, 0, &s, &best), ORDER_NONE);
	t[3].vt = 120;
	/* A task that may address task 1 holds it while it may send before 110 - 5. */
	t[3].vt = 104;
	CU_ASSERT_EQUAL(order__decide(t, 4, 1, -1, &c, 1, N, 0, &s, &best), ORDER_WAIT);
	CU_ASSERT_TRUE(s.low[3]);
	t[3].vt = 105;
	CU_ASSERT_EQUAL(order__decide(t, 4, 1, -1, &c, 1, N, 0, &s, &best), ORDER_TAKE);
	/* A receive from one source goes by the rule as before. */
	t[3].vt = 104;
	CU_ASSERT_EQUAL(order__decide(t, 4, 1, 3, &c, 1, N, 0, &s, &best), ORDER_WAIT);
	order__scratch_free(&s);
}

CU_TestInfo test_order_tests[] = {
    {"only tasks that may address the requester hold it", test_knowledge},
    {"a reply on its way wakes its receiver no earlier than its wake bound", test_wake_bound},
    {"the bounds a grant gives its requester", test_bounds},
    {"Figure 4: a cycle through the requester does not hold it",
     test_figure4_cycle_through_requester},
    {"a running task holds until its report passes the arrival",
     test_running_task_holds_until_past},
    {"a message's least transmission is credited", test_transmission_credit},
    {"a chain of blocked tasks to a running one holds", test_chain_to_running_task},
    {"a closed cycle of blocked tasks sends nothing", test_closed_cycle_is_infinite},
    {"exited tasks, stuck receives, messages on their way", test_exited_and_stuck},
    {"nonblocking receives decide by their own virtual time", test_nonblocking_deadline},
    {"ties broken by logical id, then sequence", test_ties_are_deterministic},
    {"tasks spawned mid-run; specific sources", test_spawned_mid_run_and_specific_source},
    {"other requesters and wildcard waiters", test_other_requester_and_wildcard_waiters},
    {"times within their uncertainties tie: least logical id", test_uncertain_times_tie},
    {"a tie waits for what running tasks could still send", test_tie_window},
    {"timeouts go by the deadlines of blocked pollers", test_timeouts_by_deadline},
    {"a decision gives its tie window and horizon", test_decision_record},
    CU_TEST_INFO_NULL,
};
