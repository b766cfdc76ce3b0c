/* Unit tests for monitor/capacity.c against a fake transport: tasks are counted per
 * host, spawned children before they register, the largest count is kept, and the
 * warning near a pvmd's descriptor limit is given once. */
#include <stdlib.h>

#include <CUnit/CUnit.h>

#include "../../../common/clock.h"
#include "../../../monitor/capacity.h"
#include "../../../monitor/run.h"
#include "../../../monitor/tasks.h"
#include "fakeio.h"

#define HOST 0x40000
#define HOST2 0x80000

static void reg(mon_run *run, int32_t tid, int32_t parent)
{
	wire_register r = {tid, parent, 100, tid & ~0x3ffff, "prog", 1000, run->token, 0, NULL};
	wire_buf b;

	wire__buf_init(&b);
	wire__register_encode(&b, &r);
	run__dispatch(run, tid, WIRE_TAG_REGISTER, b.data, b.len);
	wire__buf_free(&b);
}

/* parent reports n children spawned on host, tids host+first ... */
static void spawned(mon_run *run, int32_t parent, int32_t host, int first, int n)
{
	int32_t *tids = calloc((size_t)n, sizeof(*tids));
	wire_spawned s = {0, (uint32_t)n, tids, 0, {0}};
	wire_buf b;

	for (int i = 0; i < n; i++)
		tids[i] = host + first + i;
	wire__buf_init(&b);
	wire__spawned_encode(&b, &s);
	run__dispatch(run, parent, WIRE_TAG_SPAWNED, b.data, b.len);
	wire__buf_free(&b);
	free(tids);
}

static void test_counts_hosts_apart_and_warns_once(void)
{
	mon_run run;

	fake_run(&run, HOST);
	reg(&run, HOST + 1, 0);
	/* 300 children on each of two hosts: 301 on the first (its parent too), below
	 * the warning. */
	spawned(&run, HOST + 1, HOST, 2, 300);
	spawned(&run, HOST + 1, HOST2, 2, 300);
	CU_ASSERT_EQUAL(run.host_tasks_peak, 301);
	CU_ASSERT_EQUAL(run.host_tasks_peak_dtid, HOST);
	CU_ASSERT_FALSE(run.host_tasks_warned);
	/* Registering counts the child once, not again beside its spawn report. */
	reg(&run, HOST + 2, HOST + 1);
	CU_ASSERT_EQUAL(run.host_tasks_peak, 301);
	/* 150 more on the second host: 450 there, past MON_HOST_TASKS_WARN. */
	spawned(&run, HOST + 1, HOST2, 302, 150);
	CU_ASSERT_EQUAL(run.host_tasks_peak, 450);
	CU_ASSERT_EQUAL(run.host_tasks_peak_dtid, HOST2);
	CU_ASSERT_TRUE(run.host_tasks_warned);
	/* An exit lowers the count now, not the peak; the flag keeps the warning single. */
	run__task_exit(&run, HOST + 2);
	capacity__check(&run, pvmmon_clock_now());
	CU_ASSERT_EQUAL(run.host_tasks_peak, 450);
	fake_done(&run);
}

static void test_spawned_children_stop_counting(void)
{
	mon_run run;

	fake_run(&run, HOST);
	reg(&run, HOST + 1, 0);
	spawned(&run, HOST + 1, HOST, 2, 100);
	CU_ASSERT_EQUAL(run.host_tasks_peak, 101);
	/* Long after the report, children that never registered no longer count: a
	 * later check counts only the parent (the peak is not lowered, and not raised). */
	run.host_tasks_peak = 0;
	capacity__check(&run, pvmmon_clock_now() + 60000000000LL);
	CU_ASSERT_EQUAL(run.host_tasks_peak, 1);
	fake_done(&run);
}

static void test_pvmd_lost_said_once(void)
{
	mon_run run;

	fake_run(&run, HOST);
	capacity__pvmd_lost(&run, pvmmon_clock_now());
	CU_ASSERT_TRUE(run.pvmd_lost);
	capacity__pvmd_lost(&run, pvmmon_clock_now());
	CU_ASSERT_TRUE(run.pvmd_lost);
	fake_done(&run);
}

CU_TestInfo test_capacity_tests[] = {
    {"counts hosts apart and warns once", test_counts_hosts_apart_and_warns_once},
    {"spawned children stop counting", test_spawned_children_stop_counting},
    {"pvmd lost said once", test_pvmd_lost_said_once},
    CU_TEST_INFO_NULL,
};
