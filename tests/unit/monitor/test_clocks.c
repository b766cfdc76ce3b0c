/* Unit tests for monitor/clocks.c against a fake transport: a task's first CLOCK
 * estimate is answered with its host's model, a keeper's later one goes to every task of
 * the host, the monitor's own host is exact, and a keeper that exits is replaced. */
#include <CUnit/CUnit.h>

#include "../../../monitor/clocks.h"
#include "../../../monitor/run.h"
#include "../../../monitor/tasks.h"
#include "fakeio.h"

#define MYHOST 0x40000
#define REMOTE 0x80000

static mon_task *task(mon_run *run, int32_t tid, int32_t dtid)
{
	mon_task *t = NULL;

	CU_ASSERT_EQUAL_FATAL(tasks__add(&t, run, tid), 0);
	t->dtid = dtid;
	t->welcomed = 1;
	return t;
}

static void estimate(mon_run *run, int32_t tid, int64_t offset, int64_t at)
{
	wire_clock c = {tid, offset, 100, 1000, at, 8};
	wire_buf b;

	wire__buf_init(&b);
	wire__clock_encode(&b, &c);
	run__dispatch(run, tid, WIRE_TAG_CLOCK, b.data, b.len);
	wire__buf_free(&b);
}

/* The model of the n-th CLOCKSET sent to tid. */
static int clockset(wire_clockset *set, int32_t tid, size_t n)
{
	const fake_msg *m = fake_find(tid, WIRE_TAG_CLOCKSET, n);

	return m ? wire__clockset_decode(set, m->data, m->len) : -1;
}

static void test_remote_estimate_answered_with_model(void)
{
	mon_run run;
	wire_clockset set;
	mon_task *t;

	fake_run(&run, MYHOST);
	t = task(&run, REMOTE | 1, REMOTE);
	estimate(&run, REMOTE | 1, 5000, 1000000000);
	CU_ASSERT_EQUAL_FATAL(clockset(&set, REMOTE | 1, 0), 0);
	CU_ASSERT_EQUAL(set.offset, 5000);
	CU_ASSERT_EQUAL(set.keeper, 1);
	CU_ASSERT_TRUE(t->clock_done);
	CU_ASSERT_EQUAL(clocks__to_monitor(&run, t, 1000000000), 1000005000);
	CU_ASSERT_PTR_NOT_NULL(clocks__host(&run, REMOTE));
	fake_done(&run);
}

/* The keeper's later estimate refits the model and tells every task of the host. */
static void test_keeper_estimate_goes_to_host_tasks(void)
{
	mon_run run;
	wire_clockset set;

	fake_run(&run, MYHOST);
	task(&run, REMOTE | 1, REMOTE);
	task(&run, REMOTE | 2, REMOTE);
	task(&run, MYHOST | 2, MYHOST);
	estimate(&run, REMOTE | 1, 5000, 1000000000);
	estimate(&run, REMOTE | 2, 5100, 1100000000);
	estimate(&run, MYHOST | 2, 0, 1100000000);
	CU_ASSERT_EQUAL_FATAL(clockset(&set, REMOTE | 2, 0), 0);
	CU_ASSERT_EQUAL(set.keeper, 0);
	fake_reset();
	estimate(&run, REMOTE | 1, 7000, 4000000000LL);
	CU_ASSERT_EQUAL(fake_count(REMOTE | 1, WIRE_TAG_CLOCKSET), 1);
	CU_ASSERT_EQUAL(fake_count(REMOTE | 2, WIRE_TAG_CLOCKSET), 1);
	CU_ASSERT_EQUAL(fake_count(MYHOST | 2, WIRE_TAG_CLOCKSET), 0);
	/* Only the keeper re-estimates. */
	estimate(&run, REMOTE | 2, 9000, 5000000000LL);
	CU_ASSERT_EQUAL(run.bad_messages, 1);
	fake_done(&run);
}

static void test_own_host_is_exact(void)
{
	mon_run run;
	wire_clockset set;

	fake_run(&run, MYHOST);
	task(&run, MYHOST | 1, MYHOST);
	estimate(&run, MYHOST | 1, 3000, 1000000000);
	CU_ASSERT_EQUAL_FATAL(clockset(&set, MYHOST | 1, 0), 0);
	CU_ASSERT_EQUAL(set.offset, 0);
	CU_ASSERT_EQUAL(set.keeper, 0);
	fake_done(&run);
}

static void test_gone_keeper_replaced(void)
{
	mon_run run;
	wire_clockset set;

	fake_run(&run, MYHOST);
	task(&run, REMOTE | 1, REMOTE);
	task(&run, REMOTE | 2, REMOTE);
	estimate(&run, REMOTE | 1, 5000, 1000000000);
	estimate(&run, REMOTE | 2, 5000, 1000000000);
	run__task_exit(&run, REMOTE | 1);
	CU_ASSERT_EQUAL(clocks__host(&run, REMOTE)->keeper, REMOTE | 2);
	CU_ASSERT_EQUAL_FATAL(clockset(&set, REMOTE | 2, 1), 0);
	CU_ASSERT_EQUAL(set.keeper, 1);
	fake_done(&run);
}

CU_TestInfo test_clocks_tests[] = {
    {"remote estimate answered with model", test_remote_estimate_answered_with_model},
    {"keeper estimate goes to host tasks", test_keeper_estimate_goes_to_host_tasks},
    {"own host is exact", test_own_host_is_exact},
    {"gone keeper replaced", test_gone_keeper_replaced},
    CU_TEST_INFO_NULL,
};
