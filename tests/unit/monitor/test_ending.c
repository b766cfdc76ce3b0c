/* Unit tests for monitor/ending.c against a fake transport: a FATAL report makes a task
 * killed with its signal and last statement, whatever order its exit comes in; a stop
 * signals every running task and calls them stopped, never crashed; damaged reports
 * are counted. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "../../../common/clock.h"
#include "../../../monitor/ending.h"
#include "../../../monitor/run.h"
#include "../../../monitor/tasks.h"
#include "fakeio.h"

#define HOST 0x40000

static void reg(mon_run *run, int32_t tid)
{
	wire_register r = {tid, 0, 100, HOST, "prog", 1000, run->token, 0, NULL};
	wire_buf b;

	wire__buf_init(&b);
	wire__register_encode(&b, &r);
	run__dispatch(run, tid, WIRE_TAG_REGISTER, b.data, b.len);
	wire__buf_free(&b);
}

/* A flush of tid's records with one statement at w.c:31 (resolved already). */
static void flush(mon_run *run, int32_t tid, int final)
{
	pvmmon_log_stmt st = {.id = 0, .op = "pvm_recv", .file = "w.c", .line = 31, .count = 1};
	pvmmon_log_task t;
	wire_buf b;

	memset(&t, 0, sizeof(t));
	t.tid = tid;
	t.msgs_sent = 7;
	t.nstmts = 1;
	t.stmts = &st;
	wire__buf_init(&b);
	wire__records_encode(&b, &t, final);
	run__dispatch(run, tid, WIRE_TAG_RECORDS, b.data, b.len);
	wire__buf_free(&b);
}

static void fatal(mon_run *run, int32_t tid, int sig, uint32_t stmt)
{
	wire_buf b;

	wire__buf_init(&b);
	wire__fatal_encode(&b, &(wire_fatal){sig, stmt, WIRE_FATAL_PROGRAM, 1});
	run__dispatch(run, tid, WIRE_TAG_FATAL, b.data, b.len);
	wire__buf_free(&b);
}

static void test_fatal_makes_killed(void)
{
	mon_run run;
	mon_task *t;

	fake_run(&run, HOST);
	reg(&run, 0x40001);
	reg(&run, 0x40002);
	/* The final flush, FATAL, then the exit; and for the second the exit first. */
	flush(&run, 0x40001, 1);
	fatal(&run, 0x40001, SIGSEGV, 1);
	run__task_exit(&run, 0x40001);
	flush(&run, 0x40002, 1);
	run__task_exit(&run, 0x40002);
	fatal(&run, 0x40002, SIGABRT, 0);
	t = tasks__find(&run, 0x40001);
	ending__describe(&run, t);
	CU_ASSERT_EQUAL(t->rec.status, PVMMON_TASK_KILLED);
	CU_ASSERT_EQUAL(t->rec.signal, SIGSEGV);
	CU_ASSERT_EQUAL(t->rec.last_stmt, 1);
	CU_ASSERT_EQUAL(t->rec.msgs_sent, 7);
	CU_ASSERT_STRING_EQUAL(t->rec.ended, "killed by SIGSEGV at w.c:31");
	t = tasks__find(&run, 0x40002);
	ending__describe(&run, t);
	CU_ASSERT_EQUAL(t->rec.status, PVMMON_TASK_KILLED);
	CU_ASSERT_STRING_EQUAL(t->rec.ended, "killed by SIGABRT");
	CU_ASSERT_EQUAL(run.bad_messages, 0);
	fake_done(&run);
}

static void test_stop_signals_and_says_stopped(void)
{
	mon_run run;
	int64_t now;
	mon_task *a, *b, *c;

	fake_run(&run, HOST);
	reg(&run, 0x40001);
	reg(&run, 0x40002);
	reg(&run, 0x40003);
	/* 0x40003 died before the stop, without its final flush. */
	flush(&run, 0x40003, 0);
	run__task_exit(&run, 0x40003);
	now = pvmmon_clock_now();
	CU_ASSERT_FALSE(ending__stop_done(&run, now));
	ending__stop(&run, now + 1);
	ending__stop(&run, now + 2); /* once only */
	CU_ASSERT_EQUAL(fake_nkilled, 2);
	CU_ASSERT_EQUAL(fake_killed[0], 0x40001);
	CU_ASSERT_EQUAL(fake_killed_sig[0], SIGTERM);
	CU_ASSERT_EQUAL(fake_killed[1], 0x40002);
	/* 0x40001 answers the stop: its records, FATAL, its exit. 0x40002 does not. */
	flush(&run, 0x40001, 1);
	fatal(&run, 0x40001, SIGTERM, 1);
	run__task_exit(&run, 0x40001);
	CU_ASSERT_FALSE(ending__stop_done(&run, now + 2));
	CU_ASSERT_TRUE(ending__stop_done(&run, now + 4000000000LL));
	a = tasks__find(&run, 0x40001);
	b = tasks__find(&run, 0x40002);
	c = tasks__find(&run, 0x40003);
	ending__describe(&run, a);
	ending__describe(&run, b);
	ending__describe(&run, c);
	CU_ASSERT_EQUAL(a->rec.status, PVMMON_TASK_STOPPED);
	CU_ASSERT_STRING_EQUAL(a->rec.ended,
	                       "stopped by SIGTERM when the run was stopped, last seen at w.c:31");
	CU_ASSERT_EQUAL(b->rec.status, PVMMON_TASK_STOPPED);
	CU_ASSERT_STRING_EQUAL(b->rec.ended, "running when the run was stopped");
	CU_ASSERT_EQUAL(c->rec.status, PVMMON_TASK_CRASHED);
	CU_ASSERT_PTR_NOT_NULL(c->rec.ended ? strstr(c->rec.ended, "SIGKILL") : NULL);
	/* Describing again changes nothing. */
	ending__describe(&run, a);
	CU_ASSERT_EQUAL(a->rec.status, PVMMON_TASK_STOPPED);
	fake_done(&run);
}

static void test_bad_fatal_counted(void)
{
	mon_run run;
	uint8_t junk[3] = {1, 2, 3};

	fake_run(&run, HOST);
	reg(&run, 0x40001);
	run__dispatch(&run, 0x40001, WIRE_TAG_FATAL, junk, sizeof(junk));
	CU_ASSERT_EQUAL(run.bad_messages, 1);
	CU_ASSERT_EQUAL(tasks__find(&run, 0x40001)->rec.signal, 0);
	/* From a tid that never registered (the main loop refuses it before; the handler
	 * counts it too). */
	fatal(&run, 0x40009, SIGSEGV, 0);
	CU_ASSERT_EQUAL(run.bad_messages, 2);
	fake_done(&run);
}

CU_TestInfo test_ending_tests[] = {
    {"FATAL makes a task killed, in either order with its exit", test_fatal_makes_killed},
    {"a stop signals running tasks and calls them stopped", test_stop_signals_and_says_stopped},
    {"a damaged or foreign FATAL is counted", test_bad_fatal_counted},
    CU_TEST_INFO_NULL,
};
