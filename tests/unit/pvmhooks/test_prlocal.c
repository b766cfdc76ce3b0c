/* Unit tests for pvmhooks/prlocal.c: the bounds a task keeps from the monitor's grant
 * to decide its next receives itself (what its sends lower, what raises them). */
#include <CUnit/CUnit.h>

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../../../pvmhooks/board.h"
#include "../../../pvmhooks/clocksync.h"
#include "../../../pvmhooks/prlocal.h"
#include "../../../pvmhooks/reach.h"
#include "fake_channel.h"

#define W1 0x40002 /* waits on this task alone */
#define R1 0x40003 /* running */
#define A1 0x40004 /* waits on another task */

static uint32_t seen_counts(int32_t tid) { return tid == W1 ? 3 : 0; }

static int is_alone(int32_t tid)
{
	(void)tid;
	return 0;
}

static void grant(void)
{
	wire_pbound b[3] = {{W1, WIRE_PB_DEP_SELF, PRL_NEVER, 50, 3, 0, 1, 0},
	                    {R1, WIRE_PB_DEP_NONE, 100, 100, 0, 1, 1, 0},
	                    {A1, WIRE_PB_DEP_ANY, PRL_NEVER, 40, 0, 2, 1, 0}};
	wire_pgrant g = {1, WIRE_PG_TAKE, W1, 5, 1, 0, 0, 3, b};

	hooks__prl_grant(&g, seen_counts);
}

static void test_grant_and_sends(void)
{
	wire_pgrant none = {.req = 2, .verdict = WIRE_PG_TAKE};

	grant();
	CU_ASSERT_TRUE(hooks__prl_valid());
	CU_ASSERT_FALSE(hooks__prl_held_by_woken());
	CU_ASSERT_TRUE(hooks__prl_known(W1));
	CU_ASSERT_FALSE(hooks__prl_known(0x40009));
	/* The running task holds everything at its virtual time. */
	CU_ASSERT_EQUAL(hooks__prl_horizon(), 100);
	/* Any send may wake, through others, a task that waits on others (A1, from 120);
	 * only one to W1 wakes W1 (from 150). The running task's bound stays. */
	hooks__prl_sent(R1, 120);
	CU_ASSERT_EQUAL(hooks__prl_horizon(), 100);
	hooks__prl_sent(W1, 150);
	CU_ASSERT_EQUAL(hooks__prl_horizon(), 100);
	hooks__prl_seen(R1, 0, 400, 1);
	CU_ASSERT_EQUAL(hooks__prl_horizon(), 120);
	/* A quiet message from A1 raises it to its send. */
	hooks__prl_seen(A1, 0, 900, 1);
	CU_ASSERT_EQUAL(hooks__prl_horizon(), 150);
	/* A grant without bounds takes them away. */
	hooks__prl_grant(&none, seen_counts);
	CU_ASSERT_FALSE(hooks__prl_valid());
	CU_ASSERT_EQUAL(hooks__prl_horizon(), PRL_NEVER);
}

static void test_piggybacks_and_notices(void)
{
	wire_pblock k = {300, 1, 4, 1, 0, UINT64_MAX, 0, 0, 0};

	grant();
	hooks__prl_sent(W1, 150);
	hooks__prl_seen(R1, 0, 500, 1);
	/* A1 falls to 150 with W1's wake: make it run past everything. */
	hooks__prl_seen(A1, 0, 900, 1);
	CU_ASSERT_EQUAL(hooks__prl_horizon(), 150);
	/* The least bound is W1's, which this task sent to: it will answer. */
	CU_ASSERT_TRUE(hooks__prl_held_by_woken());
	/* W1's next message (sequence 3, quiet) at 250: W1 sends nothing earlier. */
	hooks__prl_seen(W1, 3, 250, 1);
	CU_ASSERT_EQUAL(hooks__prl_horizon(), 250);
	/* Its block notice: it has seen this task's one message, this task its four. */
	hooks__prl_blocked(W1, &k, 1, 4);
	CU_ASSERT_EQUAL(hooks__prl_horizon(), 500);
	/* A message of this task still on its way to it: the notice is old news. */
	hooks__prl_sent(W1, 600);
	CU_ASSERT_EQUAL(hooks__prl_horizon(), 500);
	hooks__prl_seen(R1, 1, 700, 1);
	CU_ASSERT_EQUAL(hooks__prl_horizon(), 600);
	hooks__prl_blocked(W1, &k, 2, 4);
	CU_ASSERT_EQUAL(hooks__prl_horizon(), 600);
}

static void test_spawns_keep_bounds(void)
{
	wire_pblock k = {300, 1, 5, 1, 0, UINT64_MAX, 0, 0, 0};

	grant();
	hooks__prl_sent(W1, 150);
	hooks__prl_seen(R1, 0, 500, 1);
	hooks__prl_seen(A1, 0, 900, 1);
	/* Not quiet: W1 may have spawned; its children start from 150 at the earliest. */
	hooks__prl_seen(W1, 3, 250, 0);
	CU_ASSERT_EQUAL(hooks__prl_horizon(), 150);
	hooks__prl_seen(W1, 4, 260, 1);
	hooks__prl_blocked(W1, &k, 1, 5);
	CU_ASSERT_EQUAL(hooks__prl_horizon(), 150);
	/* A missed message (a gap in the sequence) counts as a spawn too. */
	grant();
	hooks__prl_seen(R1, 0, 500, 1);
	hooks__prl_seen(A1, 0, 900, 1);
	hooks__prl_sent(W1, 150);
	hooks__prl_seen(W1, 4, 260, 1);
	CU_ASSERT_EQUAL(hooks__prl_horizon(), 150);
	/* This task's own spawn: no bounds at all. */
	hooks__prl_spawning();
	CU_ASSERT_FALSE(hooks__prl_valid());
}

/* A task that ends sends nothing more, whatever this task sent it. */
static void test_exit_notice(void)
{
	wire_pblock k = {0, 0, 3, 1, 1, UINT64_MAX, 0, 0, 0};

	grant();
	hooks__prl_seen(R1, 0, 500, 1);
	hooks__prl_seen(A1, 0, 900, 1);
	hooks__prl_sent(W1, 150);
	CU_ASSERT_EQUAL(hooks__prl_horizon(), 150);
	/* Its three messages seen here; this task's one to it is lost with it. */
	hooks__prl_blocked(W1, &k, 1, 3);
	CU_ASSERT_EQUAL(hooks__prl_horizon(), 500);
	hooks__prl_sent(W1, 200);
	CU_ASSERT_EQUAL(hooks__prl_horizon(), 500);
	/* Not all its messages seen yet: one is on its way. */
	grant();
	hooks__prl_seen(R1, 0, 500, 1);
	hooks__prl_seen(A1, 0, 900, 1);
	hooks__prl_sent(W1, 150);
	k.sent = 4;
	hooks__prl_blocked(W1, &k, 1, 3);
	CU_ASSERT_EQUAL(hooks__prl_horizon(), 150);
}

/* A running task's board slot raises its bound with real time, while its send count
 * stays at the one its latest message here carried; a send of its own retires it. */
static void test_board_raises_running(void)
{
	char path[64];
	vclock c;
	wire_piggyback pb;
	int64_t h;

	snprintf(path, sizeof(path), "/tmp/pvmmon-prl-board.%ld", (long)getpid());
	unlink(path);
	vclock__init(&c);
	/* This process plays R1 on the board: its slot is what R1 would write. */
	CU_ASSERT_EQUAL_FATAL(hooks__board_open(path, R1, &c), 0);
	hooks__board_freeze(HOOKS_OP_pvm_send, 90);
	hooks__board_run();
	grant();
	hooks__prl_sent(W1, 150);
	hooks__prl_seen(A1, 0, 900, 1);
	CU_ASSERT_EQUAL(hooks__prl_horizon(), 100);
	/* R1's message here, carrying its count: from now on its slot bounds it too. */
	memset(&pb, 0, sizeof(pb));
	pb.my_seq = 0;
	pb.vt_send = 95;
	pb.quiet = 1;
	pb.sends = hooks__board_sends();
	hooks__prl_piggyback(R1, &pb);
	h = hooks__prl_horizon();
	/* W1 (woken at 150) holds it now; R1's slot says about real time, far past. */
	CU_ASSERT_EQUAL(h, 150);
	/* W1 and A1 far ahead: R1 holds it, at its virtual time now (about real time). */
	hooks__prl_seen(W1, 3, 1LL << 62, 1);
	hooks__prl_seen(A1, 1, 1LL << 62, 1);
	h = hooks__prl_horizon();
	CU_ASSERT_TRUE(h > 1000000 && h < (1LL << 62));
	CU_ASSERT_TRUE(h <= hooks__to_common(pvmmon_clock_now()));
	{
		int sure = 0;

		CU_ASSERT_EQUAL(hooks__prl_live_eta(h - 1, &sure), 0);
		CU_ASSERT_TRUE(hooks__prl_live_eta(h + 5000000, &sure) > 0);
		CU_ASSERT_TRUE(sure);
	}
	/* R1 sends again (its count moves before the message leaves): back to 100. */
	hooks__board_freeze(HOOKS_OP_pvm_send, 200);
	CU_ASSERT_EQUAL(hooks__prl_horizon(), 100);
	hooks__board_close();
	unlink(path);
}

/* A notice that a task blocks on any source: with no third task it can only be woken
 * by this one; with others it only says no news of it will come here. */
static void test_any_notice(void)
{
	wire_pbound one[1] = {{A1, WIRE_PB_DEP_NONE, 100, 100, 0, 0, 1, 0}};
	wire_pgrant g = {1, WIRE_PG_TAKE, A1, 5, 1, 0, 0, 1, one};
	wire_pblock k = {300, 1, 0, 1, 0, UINT64_MAX, 1, 1, 0};

	hooks__prl_grant(&g, seen_counts);
	hooks__prl_sent(A1, 150);
	CU_ASSERT_TRUE(hooks__prl_held_by_woken() == PRL_HELD_WOKEN);
	/* Not all of this task's messages seen there yet: nothing changes. */
	k.seen = 0;
	hooks__prl_blocked(A1, &k, 1, 0);
	CU_ASSERT_EQUAL(hooks__prl_horizon(), 100);
	k.seen = 1;
	hooks__prl_blocked(A1, &k, 1, 0);
	CU_ASSERT_EQUAL(hooks__prl_horizon(), PRL_NEVER);
	/* Any send of this task may wake it again. */
	hooks__prl_sent(0x40009, 400);
	CU_ASSERT_EQUAL(hooks__prl_horizon(), 400);
	/* With other tasks, one of which could wake it: its bound stays, and what holds
	 * the decision is a task blocked on anyone (ask the monitor). */
	grant();
	hooks__prl_seen(R1, 0, 500, 1);
	hooks__prl_sent(A1, 150);
	k = (wire_pblock){300, 1, 0, 1, 0, UINT64_MAX, 1, 1, 0};
	hooks__prl_blocked(A1, &k, 1, 0);
	CU_ASSERT_EQUAL(hooks__prl_horizon(), 150);
	CU_ASSERT_TRUE(hooks__prl_held_by_woken() == PRL_HELD_BLOCKED);
	{
		int64_t step = -1, now = 1000000000;
		int timer = -1;

		CU_ASSERT_EQUAL(hooks__prl_until(400, now - 10, now, 0, 100000000, &step, &timer), now);
		CU_ASSERT_EQUAL(step, 0);
		/* No timer: the monitor is asked at once. */
		CU_ASSERT_EQUAL(timer, 0);
	}
	/* Its next message: it ran. */
	hooks__prl_seen(A1, 0, 160, 1);
	CU_ASSERT_TRUE(hooks__prl_held_by_woken() != PRL_HELD_BLOCKED);
	/* Every task blocked, on this one or on anyone, each having exchanged messages
	 * with this task alone: none can move before this task sends. */
	grant();
	k = (wire_pblock){300, 0, 0, 1, 0, UINT64_MAX, 1, 1, 0};
	hooks__prl_blocked(R1, &k, 0, 0);
	CU_ASSERT_EQUAL(hooks__prl_horizon(), 100);
	hooks__prl_blocked(A1, &k, 0, 0);
	CU_ASSERT_EQUAL(hooks__prl_horizon(), 100);
	/* W1 said nothing since the grant: not known to be alone. */
	k = (wire_pblock){300, 0, 3, 1, 0, UINT64_MAX, 0, 0, 0};
	hooks__prl_blocked(W1, &k, 0, 3);
	CU_ASSERT_EQUAL(hooks__prl_horizon(), 100);
	k.alone = 1;
	hooks__prl_blocked(W1, &k, 0, 3);
	CU_ASSERT_EQUAL(hooks__prl_horizon(), 100);
	/* R1 again, now that W1 is known alone: all closed. */
	k = (wire_pblock){300, 0, 0, 1, 0, UINT64_MAX, 1, 1, 0};
	hooks__prl_blocked(R1, &k, 0, 0);
	CU_ASSERT_EQUAL(hooks__prl_horizon(), PRL_NEVER);
	/* A send of this task to anyone may wake them. */
	hooks__prl_sent(W1, 700);
	CU_ASSERT_EQUAL(hooks__prl_horizon(), 700);
}

/* A task this one woke is waited for until its news comes, with no timer but the wait
 * threshold (the hang rule's); its notice that it waits elsewhere sends the decision
 * to the monitor at once, and its next message takes that back. */
static void test_away_notice(void)
{
	wire_pblock k = {300, 3, 1, 1, 0, UINT64_MAX, 0, 0, 1};
	int64_t step = -1, now = 1000000000, t_wait = now - 5000000;
	int timer = -1;

	grant();
	hooks__prl_seen(R1, 0, 500, 1);
	hooks__prl_seen(A1, 0, 900, 1);
	hooks__prl_sent(W1, 150);
	CU_ASSERT_TRUE(hooks__prl_held_by_woken() == PRL_HELD_WOKEN);
	/* 5 ms into the wait, still waiting: until the threshold given, in steps that
	 * end with any news. */
	CU_ASSERT_EQUAL(hooks__prl_until(400, t_wait, now, 0, 100000000, &step, &timer), t_wait + 100000000);
	CU_ASSERT_EQUAL(step, t_wait + 100000000 - now);
	/* Reached, that end is the hang rule's timer. */
	CU_ASSERT_EQUAL(timer, 1);
	/* A poll does not wait for it. */
	CU_ASSERT_EQUAL(hooks__prl_until(400, t_wait, now, 1, 100000000, &step, &timer), t_wait);
	/* It waits elsewhere: the monitor decides, at once; its bound stays. */
	hooks__prl_blocked(W1, &k, 1, 3);
	CU_ASSERT_TRUE(hooks__prl_held_by_woken() == PRL_HELD_BLOCKED);
	CU_ASSERT_EQUAL(hooks__prl_horizon(), 150);
	CU_ASSERT_EQUAL(hooks__prl_until(400, t_wait, now, 0, 100000000, &step, &timer), now);
	CU_ASSERT_EQUAL(timer, 0);
	/* This task's send to it does not take that back (its wait may not take it). */
	hooks__prl_sent(W1, 160);
	CU_ASSERT_TRUE(hooks__prl_held_by_woken() == PRL_HELD_BLOCKED);
	/* Its next message: it ran, and its next wait will be told again. */
	hooks__prl_seen(W1, 3, 170, 1);
	CU_ASSERT_TRUE(hooks__prl_held_by_woken() == PRL_HELD_WOKEN);
	CU_ASSERT_EQUAL(hooks__prl_horizon(), 170);
	/* A new grant forgets it. */
	hooks__prl_blocked(W1, &k, 1, 4);
	grant();
	CU_ASSERT_FALSE(hooks__prl_held_by_woken() == PRL_HELD_BLOCKED);
}

/* The notices this task owes: a task that asked for its news (PWATCH, or a message
 * with the watch flag) is told when this task waits elsewhere, once, unless another
 * notice reached it first. */
static void test_tell_away(void)
{
	wire_piggyback pb;
	wire_pblock k;

	fake_begin(0x40001, 0x40000);
	memset(&pb, 0, sizeof(pb));
	pb.my_seq = -1;
	pb.sends = UINT64_MAX;
	/* Nobody asked. */
	CU_ASSERT_EQUAL(hooks__prl_tell_away(700, seen_counts, seen_counts), 0);
	hooks__prl_watched(R1);
	CU_ASSERT_EQUAL(hooks__prl_tell_away(700, seen_counts, seen_counts), 1);
	CU_ASSERT_EQUAL_FATAL(fake.npbs, 1);
	CU_ASSERT_EQUAL(fake.pbs[0].tag, WIRE_TAG_PBLOCK);
	CU_ASSERT_EQUAL(fake.pbs[0].tids[0], R1);
	CU_ASSERT_EQUAL_FATAL(wire__pblock_decode(&k, fake.pbs[0].data, fake.pbs[0].len), 0);
	CU_ASSERT_EQUAL(k.away, 1);
	CU_ASSERT_EQUAL(k.vt, 700);
	CU_ASSERT_EQUAL(k.any, 0);
	/* Told: nothing more is owed. */
	CU_ASSERT_EQUAL(hooks__prl_tell_away(800, seen_counts, seen_counts), 0);
	/* Asked again: a message to it is no notice (it may still wait). */
	hooks__prl_watched(R1);
	hooks__prl_sent(R1, 900);
	CU_ASSERT_EQUAL(hooks__prl_tell_away(950, seen_counts, seen_counts), 1);
	/* Its message with the watch flag asks too; a notice that this task blocks on
	 * anyone pays it. */
	pb.notify = 1;
	pb.watch = 1;
	hooks__prl_piggyback(R1, &pb);
	CU_ASSERT_EQUAL(hooks__prl_tell_any(1100, seen_counts, seen_counts, is_alone), 1);
	CU_ASSERT_EQUAL(hooks__prl_tell_away(1200, seen_counts, seen_counts), 0);
	CU_ASSERT_EQUAL(fake.npbs, 3);
	fake_end();
}

/* The task asked for its news: the least bound's, woken by this task, once until its
 * notice comes; from then on this task's sends to it ask themselves. */
static void test_watch(void)
{
	wire_pblock k = {300, 3, 1, 1, 0, UINT64_MAX, 0, 0, 1};

	grant();
	hooks__prl_seen(R1, 0, 500, 1);
	hooks__prl_seen(A1, 0, 900, 1);
	/* Nobody woken holds it. */
	CU_ASSERT_EQUAL(hooks__prl_watch(1000), 0);
	CU_ASSERT_FALSE(hooks__prl_watching(W1));
	hooks__prl_sent(W1, 150);
	CU_ASSERT_EQUAL(hooks__prl_watch(1000), W1);
	CU_ASSERT_TRUE(hooks__prl_watching(W1));
	CU_ASSERT_EQUAL(hooks__prl_watch(1000), 0);
	/* Its message is no answer: it tells when it waits. */
	hooks__prl_seen(W1, 3, 170, 1);
	CU_ASSERT_EQUAL(hooks__prl_watch(1000), 0);
	/* It waits elsewhere: the monitor decides, nobody is asked. */
	hooks__prl_blocked(W1, &k, 1, 4);
	CU_ASSERT_EQUAL(hooks__prl_watch(1000), 0);
	/* A new grant: a send that asked by itself (its watch flag) is not followed by a
	 * PWATCH; one that did not (a mcast to no watched task) is. */
	grant();
	hooks__prl_seen(R1, 0, 500, 1);
	hooks__prl_seen(A1, 0, 900, 1);
	hooks__prl_sent(W1, 150);
	CU_ASSERT_TRUE(hooks__prl_held_by_woken() == PRL_HELD_WOKEN);
	CU_ASSERT_EQUAL(hooks__prl_watch(1000), W1);
	grant();
	hooks__prl_seen(R1, 0, 500, 1);
	hooks__prl_seen(A1, 0, 900, 1);
	hooks__prl_sent(W1, 150);
	hooks__prl_asked(W1);
	CU_ASSERT_EQUAL(hooks__prl_watch(1000), 0);
}

/* Candidates within the tie window: the one first in the monitor's tie order. */
static void test_rank(void)
{
	grant();
	CU_ASSERT_EQUAL(hooks__prl_rank(W1), 0);
	CU_ASSERT_EQUAL(hooks__prl_rank(A1), 2);
	CU_ASSERT_EQUAL(hooks__prl_rank(0x40009), UINT32_MAX);
}


static int is_r1(int32_t tid) { return tid == R1; }

/* The knowledge rule (the grant's know): a task that may not address this one holds
 * nothing, nor does a candidate's sender (its next message comes after the one
 * queued); this task's send to a task lets that task address it; a message from a task
 * said not to, earlier than one taken, is said (a relay). */
static void test_knowledge(void)
{
	wire_pbound b[3] = {{W1, WIRE_PB_DEP_SELF, PRL_NEVER, 50, 3, 0, 0, 0},
	                    {R1, WIRE_PB_DEP_NONE, 100, 100, 0, 1, WIRE_PB_KNOWS_REQ, 0},
	                    {A1, WIRE_PB_DEP_NONE, 40, 40, 0, 2, 0, 0}};
	wire_pgrant g = {1, WIRE_PG_TAKE, R1, 5, 1, 1, 0, 3, b};

	hooks__reach_start(0x40001, 0, 0);
	hooks__prl_grant(&g, seen_counts);
	/* Without candidates: A1 may not address this task, R1 holds at 100. */
	hooks__prl_consider(NULL);
	CU_ASSERT_EQUAL(hooks__prl_horizon(), 100);
	/* R1 a candidate's sender: nothing holds. */
	hooks__prl_consider(is_r1);
	CU_ASSERT_EQUAL(hooks__prl_horizon(), PRL_NEVER);
	/* A send to A1 teaches it this task's tid: it may address it from then on. */
	hooks__prl_sent(A1, 200);
	hooks__prl_consider(NULL);
	CU_ASSERT_EQUAL(hooks__prl_horizon(), 40);
	/* A message from W1, said not to address this task, later than what was taken:
	 * W1 counts from now on, and nothing is said. */
	hooks__prl_taken(500);
	hooks__prl_premise(W1, INT64_MAX / 2);
	CU_ASSERT_EQUAL(hooks__reach_bits() & WIRE_PW_REACH_MISORDER, 0);
	/* Earlier than what was taken: a choice may have been wrong. */
	hooks__prl_grant(&g, seen_counts);
	hooks__prl_premise(W1, 450);
	/* (450 < 500: taken first, though it could have come before.) */
	CU_ASSERT_EQUAL(hooks__reach_bits() & WIRE_PW_REACH_MISORDER, WIRE_PW_REACH_MISORDER);
	/* A task no other may address that blocks on anyone, having exchanged messages
	 * with this task alone: only this task's send wakes it. */
	b[2].knows = WIRE_PB_KNOWS_REQ | WIRE_PB_KNOWS_LONE;
	hooks__prl_grant(&g, seen_counts);
	hooks__prl_consider(NULL);
	CU_ASSERT_EQUAL(hooks__prl_horizon(), 40);
	{
		wire_pblock k = {300, 0, 0, 1, 0, UINT64_MAX, 1, 0, 0};

		/* Not alone: another task may have learned its tid from it. */
		hooks__prl_blocked(A1, &k, 0, 0);
		CU_ASSERT_EQUAL(hooks__prl_horizon(), 40);
		k.alone = 1;
		hooks__prl_blocked(A1, &k, 0, 0);
		CU_ASSERT_EQUAL(hooks__prl_horizon(), 100);
	}
	b[2].knows = 0;
	/* The task sent to moves no earlier than the message reaches it: half its least
	 * transmission after the send. */
	b[0].trans = 40;
	b[0].bound = 1000;
	b[0].vt = 0;
	b[0].knows = WIRE_PB_KNOWS_REQ;
	b[1].bound = 5000;
	hooks__prl_grant(&g, seen_counts);
	hooks__prl_sent(W1, 300);
	hooks__prl_consider(NULL);
	CU_ASSERT_EQUAL(hooks__prl_horizon(), 320);
	/* Without the rule, every bound counts as it is. */
	g.know = 0;
	hooks__prl_grant(&g, seen_counts);
	hooks__prl_consider(is_r1);
	CU_ASSERT_EQUAL(hooks__prl_horizon(), 40);
}

CU_TestInfo test_prlocal_tests[] = {
    {"who may address this task", test_knowledge},
    {"a running task's board slot raises its bound", test_board_raises_running},
    {"each task's place in the tie order", test_rank},
    {"a task blocked on any source", test_any_notice},
    {"a task woken is waited for; one waiting elsewhere is not", test_away_notice},
    {"a task that waits elsewhere tells the tasks that asked", test_tell_away},
    {"a task woken that holds a decision is asked for its news", test_watch},
    {"a task that ends holds nothing", test_exit_notice},
    {"a grant's bounds, lowered by this task's sends", test_grant_and_sends},
    {"piggybacks and block notices raise them", test_piggybacks_and_notices},
    {"spawns keep them where they are", test_spawns_keep_bounds},
    CU_TEST_INFO_NULL,
};
