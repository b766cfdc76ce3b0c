/* Unit tests for pvmhooks/cp.c: the online critical-path tuple and its merges. */
#include <CUnit/CUnit.h>

#include "../../../pvmhooks/cp.h"

/* Work before a send, then a send's tuple, then the receiver's merge: the remote path
 * wins when it is longer, and the receiver's wait is never work. */
static void test_remote_path_wins(void)
{
	cp_state a, b;
	wire_cp sent;

	cp__init(&a, 1, 0, 1);
	cp__init(&b, 1, 0, 1);
	cp__start(&a, 0, NULL, 0, NULL, 0);
	cp__start(&b, 0, NULL, 0, NULL, 0);
	/* A runs procedure 0 from 10 to 110 and sends at 120. */
	cp__enter(&a, 0, 10);
	cp__exit(&a, 0, 110);
	cp__advance(&a, 120);
	sent = a.t;
	CU_ASSERT_EQUAL(sent.longest, 120);
	CU_ASSERT_EQUAL(sent.share[0], 100);
	/* B works 50, waits from 50 for the message (transmission 30, so it arrives at
	 * 150), then works until 200. */
	cp__receive(&b, 50, 100, 30, &sent);
	CU_ASSERT_EQUAL(b.t.longest, 150);
	CU_ASSERT_EQUAL(b.t.share[0], 100);
	cp__advance(&b, 200);
	CU_ASSERT_EQUAL(b.t.longest, 200);
	CU_ASSERT_EQUAL(b.t.share[0], 100);
}

static void test_local_path_wins_and_wait_is_skipped(void)
{
	cp_state b;
	wire_cp remote = {0};

	cp__init(&b, 2, 0, 1);
	cp__start(&b, 1000, NULL, 0, NULL, 0);
	cp__enter(&b, 1, 1000);
	remote.on = 1;
	remote.gen = 1;
	remote.n = 2;
	remote.longest = 100;
	remote.share[0] = 90;
	/* Local 500 of work by procedure 1 beats remote 100 + 10. */
	cp__receive(&b, 1500, 300, 10, &remote);
	CU_ASSERT_EQUAL(b.t.longest, 500);
	CU_ASSERT_EQUAL(b.t.share[0], 0);
	CU_ASSERT_EQUAL(b.t.share[1], 500);
	/* The wait (1500..1800) adds nothing, work after it does. */
	cp__exit(&b, 1, 1900);
	CU_ASSERT_EQUAL(b.t.longest, 600);
	CU_ASSERT_EQUAL(b.t.share[1], 600);
}

/* Inclusive shares count callees, exclusive ones only the procedure's own time, and a
 * recursive activation does not count twice. */
static void test_inclusive_exclusive_recursion(void)
{
	cp_state in, ex;

	cp__init(&in, 2, 0, 1);
	cp__init(&ex, 2, 1, 1);
	cp__start(&in, 0, NULL, 0, NULL, 0);
	cp__start(&ex, 0, NULL, 0, NULL, 0);
	/* 0 runs 0..100, calls 1 at 20..70 which calls an unselected procedure at 30..40
	 * and recurses into itself at 50..60. */
	cp__enter(&in, 0, 0);
	cp__enter(&ex, 0, 0);
	cp__enter(&in, 1, 20);
	cp__enter(&ex, 1, 20);
	cp__enter(&ex, -1, 30);
	cp__exit(&ex, -1, 40);
	cp__enter(&in, 1, 50);
	cp__enter(&ex, 1, 50);
	cp__exit(&in, 1, 60);
	cp__exit(&ex, 1, 60);
	cp__exit(&in, 1, 70);
	cp__exit(&ex, 1, 70);
	cp__exit(&in, 0, 100);
	cp__exit(&ex, 0, 100);
	CU_ASSERT_EQUAL(in.t.longest, 100);
	CU_ASSERT_EQUAL(in.t.share[0], 100);
	CU_ASSERT_EQUAL(in.t.share[1], 50);
	CU_ASSERT_EQUAL(ex.t.share[0], 50);
	CU_ASSERT_EQUAL(ex.t.share[1], 40);
}

/* Zeroing (Figure 5): the path kept for procedure k is the one that is longest without
 * k's time, so a near-critical path without k limits what removing k gains. */
static void test_zeroing_keeps_the_longest_net_path(void)
{
	cp_state b;
	wire_cp remote = {0};

	cp__init(&b, 1, 0, 1);
	cp__start(&b, 0, NULL, 0, NULL, 0);
	/* Local: 80 of work, none of it in procedure 0. */
	remote.on = 1;
	remote.gen = 1;
	remote.n = 1;
	remote.longest = 100;
	remote.share[0] = 60;
	remote.zlong[0] = 100;
	remote.zshare[0] = 60;
	cp__receive(&b, 80, 30, 10, &remote);
	/* The critical path is the remote one (110, 60 of it procedure 0)... */
	CU_ASSERT_EQUAL(b.t.longest, 110);
	CU_ASSERT_EQUAL(b.t.share[0], 60);
	/* ...but without procedure 0 the local path (80) is longer than the remote (50). */
	CU_ASSERT_EQUAL(b.t.zlong[0], 80);
	CU_ASSERT_EQUAL(b.t.zshare[0], 0);
	cp__advance(&b, 200);
	/* Length 200 (110 + 90 after the arrival at 110); zeroed: 80 + 90 = 170. */
	CU_ASSERT_EQUAL(b.t.longest, 200);
	CU_ASSERT_EQUAL(b.t.zlong[0] - b.t.zshare[0], 80 + 90);
}

/* Section 2.3: a tuple reaching a task that does not collect starts it (case 3); a
 * message without one reaching a task that collects changes nothing (case 4); a child
 * starts from its parent's tuple plus the spawn arc, which is no procedure's time. */
static void test_start_cases_and_spawn(void)
{
	cp_state s, c;
	wire_cp remote = {0}, none = {0};
	int open[2] = {-1, 0};

	cp__init(&s, 1, 0, 1);
	remote.on = 1;
	remote.gen = 1;
	remote.n = 1;
	remote.longest = 40;
	remote.share[0] = 5;
	remote.zlong[0] = 40;
	remote.zshare[0] = 5;
	cp__advance(&s, 100); /* off: nothing happens */
	CU_ASSERT_EQUAL(s.t.on, 0);
	cp__receive(&s, 100, 0, 0, &none);
	CU_ASSERT_EQUAL(s.t.on, 0);
	cp__receive(&s, 200, 0, 10, &remote);
	CU_ASSERT_EQUAL(s.t.on, 1);
	CU_ASSERT_EQUAL(s.t.longest, 50);
	cp__advance(&s, 230);
	CU_ASSERT_EQUAL(s.t.longest, 80);
	cp__receive(&s, 230, 0, 0, &none);
	CU_ASSERT_EQUAL(s.t.longest, 80);
	/* A child of a parent at (40, 5) spawned 25 before it started, with procedure 0
	 * already open (as main is at registration). */
	cp__init(&c, 1, 0, 1);
	cp__start(&c, 1000, &remote, 25, open, 2);
	CU_ASSERT_EQUAL(c.t.longest, 65);
	CU_ASSERT_EQUAL(c.t.share[0], 5);
	cp__advance(&c, 1010);
	CU_ASSERT_EQUAL(c.t.longest, 75);
	CU_ASSERT_EQUAL(c.t.share[0], 15);
	/* A tuple for another selection (size or generation) is not mixed in. */
	remote.n = 2;
	cp__receive(&c, 1010, 0, 1000, &remote);
	CU_ASSERT_EQUAL(c.t.longest, 75);
	remote.n = 1;
	remote.gen = 2;
	cp__receive(&c, 1010, 0, 1000, &remote);
	CU_ASSERT_EQUAL(c.t.longest, 75);
	cp__stop(&c);
	cp__advance(&c, 2000);
	CU_ASSERT_EQUAL(c.t.longest, 75);
	/* A tuple sent before the stop that arrives after it does not restart it. */
	remote.gen = 1;
	cp__receive(&c, 2000, 0, 10, &remote);
	CU_ASSERT_EQUAL(c.t.on, 0);
	CU_ASSERT_EQUAL(c.t.longest, 75);
}

CU_TestInfo test_cp_tests[] = {
    {"a longer remote path wins; the wait is not work", test_remote_path_wins},
    {"a longer local path stays; the wait is skipped", test_local_path_wins_and_wait_is_skipped},
    {"inclusive and exclusive shares, recursion", test_inclusive_exclusive_recursion},
    {"zeroing keeps the longest net path", test_zeroing_keeps_the_longest_net_path},
    {"start cases of section 2.3 and spawn arcs", test_start_cases_and_spawn},
    CU_TEST_INFO_NULL,
};
