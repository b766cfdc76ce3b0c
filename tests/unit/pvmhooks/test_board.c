/* Unit tests for pvmhooks/board.c: preserve mode's live bounds board (what a slot
 * says frozen and running, that it never says more than the task's virtual time,
 * the send count that retires it, and a file that is no board). */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../../pvmhooks/board.h"
#include "../../../pvmhooks/clocksync.h"
#include "pvmmon/errors.h"

#define ME 0x40007

static char path[64];
static vclock clk;

static void open_board(void)
{
	snprintf(path, sizeof(path), "/tmp/pvmmon-board-test.%ld", (long)getpid());
	unlink(path);
	vclock__init(&clk);
	clk.intrusion = 5000000; /* 5 ms of monitoring so far */
	CU_ASSERT_EQUAL_FATAL(hooks__board_open(path, ME, &clk), 0);
}

static void close_board(void)
{
	hooks__board_close();
	unlink(path);
}

/* The task's virtual time now on the monitor's clock, and the board's bound of it. */
static int64_t vt_now(void) { return hooks__to_common(pvmmon_clock_now() - clk.intrusion); }

static int64_t bound_now(uint64_t sends, int *stale)
{
	int slot = -1;

	return hooks__board_bound(ME, &slot, sends, hooks__board_now(), stale);
}

static void test_running_and_frozen(void)
{
	int stale = 0;
	uint64_t sends;
	int64_t b, v;

	open_board();
	CU_ASSERT_TRUE(hooks__board_on());
	sends = hooks__board_sends();
	CU_ASSERT_EQUAL(sends, 0);
	/* Running: below the virtual time by at most the headroom (and the clocks' read
	 * order, a few microseconds on a busy machine: the bound is read second). */
	b = bound_now(sends, &stale);
	v = vt_now();
	CU_ASSERT_FALSE(stale);
	CU_ASSERT_TRUE(b <= v);
	CU_ASSERT_TRUE(b >= v - BOARD_HEADROOM_NS - 1000000);
	/* A receive starts at virtual time 1234: frozen there, the count unchanged. */
	hooks__board_freeze(HOOKS_OP_pvm_recv, 1234);
	CU_ASSERT_EQUAL(bound_now(sends, &stale), hooks__to_common(1234));
	CU_ASSERT_EQUAL(hooks__board_sends(), sends);
	/* The call ends after a wait that counts as intrusion: running again, from it. */
	clk.intrusion += 3000000;
	hooks__board_run();
	b = bound_now(sends, &stale);
	CU_ASSERT_TRUE(b <= vt_now());
	CU_ASSERT_TRUE(b >= vt_now() - BOARD_HEADROOM_NS - 1000000);
	/* A send counts before it leaves: the old count no longer reads. */
	hooks__board_freeze(HOOKS_OP_pvm_send, 2000);
	CU_ASSERT_EQUAL(hooks__board_sends(), sends + 1);
	CU_ASSERT_EQUAL(bound_now(sends, &stale), BOARD_NONE);
	CU_ASSERT_TRUE(stale);
	stale = 0;
	CU_ASSERT_EQUAL(bound_now(sends + 1, &stale), hooks__to_common(2000));
	close_board();
	CU_ASSERT_FALSE(hooks__board_on());
	CU_ASSERT_EQUAL(hooks__board_sends(), UINT64_MAX);
}

/* Intrusion that grows while the task runs (probes) never leaves the slot above the
 * virtual time: the clock writes a new bound before it passes the promise. */
static void test_intrusion_never_passes_the_slot(void)
{
	int stale = 0;
	uint64_t sends;

	open_board();
	hooks__board_run();
	sends = hooks__board_sends();
	for (int i = 0; i < 200; i++) {
		vclock__intrude(&clk, BOARD_HEADROOM_NS / 7);
		CU_ASSERT_TRUE(clk.intrusion <= clk.pub_limit);
		CU_ASSERT_TRUE(bound_now(sends, &stale) <= vt_now());
	}
	vclock__set_intrusion(&clk, clk.intrusion + 10 * BOARD_HEADROOM_NS);
	CU_ASSERT_TRUE(bound_now(sends, &stale) <= vt_now());
	vclock__set_charges(&clk, clk.intrusion + 10 * BOARD_HEADROOM_NS, clk.local, 0);
	CU_ASSERT_TRUE(bound_now(sends, &stale) <= vt_now());
	CU_ASSERT_FALSE(stale);
	/* While frozen the promise is off: no writes needed. */
	hooks__board_freeze(HOOKS_OP_pvm_recv, 99);
	CU_ASSERT_EQUAL(clk.pub_limit, INT64_MAX);
	close_board();
	CU_ASSERT_PTR_NULL(clk.pub);
}

static void test_eta_and_lookup(void)
{
	int slot = -1;
	int64_t now, target;

	open_board();
	hooks__board_run();
	now = hooks__board_now();
	CU_ASSERT_EQUAL(hooks__board_bound(0x40999, &slot, 0, now, &(int){0}), BOARD_NONE);
	CU_ASSERT_EQUAL(hooks__board_eta(0x40999, &slot, 0, now), BOARD_ETA_UNKNOWN);
	slot = -1;
	target = hooks__board_bound(ME, &slot, 0, now, &(int){0}) + 700000;
	CU_ASSERT_EQUAL(slot, 0);
	CU_ASSERT_EQUAL(hooks__board_eta(ME, &slot, target, now), 700000);
	CU_ASSERT_EQUAL(hooks__board_eta(ME, &slot, target - 800000, now), 0);
	hooks__board_freeze(HOOKS_OP_pvm_recv, 5);
	CU_ASSERT_EQUAL(hooks__board_eta(ME, &slot, target, now), BOARD_ETA_UNKNOWN);
	close_board();
}

static void test_not_a_board(void)
{
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/pvmmon-board-test.%ld", (long)getpid());
	f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("not a board at all", f);
	fclose(f);
	vclock__init(&clk);
	CU_ASSERT_EQUAL(hooks__board_open(path, ME, &clk), PVMMON_EPARSE);
	CU_ASSERT_PTR_NOT_NULL(strstr(pvmmon_error_last(), path));
	CU_ASSERT_FALSE(hooks__board_on());
	CU_ASSERT_PTR_NULL(clk.pub);
	/* A board another machine made (its boot id differs): not this one's clock. */
	open_board();
	close_board();
	open_board();
	hooks__board_close();
	f = fopen(path, "r+");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fseek(f, 16, SEEK_SET);
	fputs("another-machines-boot-id", f);
	fclose(f);
	CU_ASSERT_EQUAL(hooks__board_open(path, ME, &clk), PVMMON_EINVAL);
	CU_ASSERT_FALSE(hooks__board_on());
	CU_ASSERT_EQUAL(hooks__board_open("", ME, &clk), PVMMON_EINVAL);
	CU_ASSERT_EQUAL(hooks__board_open("/nonexistent-dir/board", ME, &clk), PVMMON_EIO);
	unlink(path);
}

CU_TestInfo test_board_tests[] = {
    {"a slot frozen in calls and running out of them", test_running_and_frozen},
    {"intrusion never passes what the slot promised", test_intrusion_never_passes_the_slot},
    {"lookup by task and time until a target", test_eta_and_lookup},
    {"a file that is no board, or another machine's, is refused", test_not_a_board},
    CU_TEST_INFO_NULL,
};
