/* Unit tests for monitor/hang.c through the run's dispatch table: a cycle is said once
 * both tasks wait with nothing in flight, never while a message is on its way, a task
 * computes or a wait has a deadline; a wait for an ended task; a wildcard wait only
 * once no task can join. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <CUnit/CUnit.h>

#include "../../../monitor/hang.h"
#include "../../../monitor/preserve.h"
#include "../../../monitor/run.h"
#include "../../../monitor/tasks.h"
#include "fakeio.h"

#define HOST 0x40000
#define A 0x40001
#define B 0x40002
#define C 0x40003

static void reg(mon_run *run, int32_t tid)
{
	wire_register r = {tid, 0, 100, HOST, "prog", 1000, run->token};
	wire_buf b;

	wire__buf_init(&b);
	wire__register_encode(&b, &r);
	run__dispatch(run, tid, WIRE_TAG_REGISTER, b.data, b.len);
	wire__buf_free(&b);
}

/* Task tid's wait number seq for tag from src (op) in context ctx, having sent `sent`
 * to src and received `recv` from it. */
static void wait_ctx(mon_run *run, int32_t tid, uint32_t seq, int op, int32_t src, int tag,
                     int32_t ctx, uint32_t sent, uint32_t recv)
{
	wire_wpeer peer = {src, sent, recv};
	wire_wait w = {seq,
	               (uint8_t)op,
	               src,
	               tag,
	               ctx,
	               0,
	               NULL,
	               0,
	               1000,
	               1000,
	               op == WIRE_WAIT_TRECV ? 5000000000LL : 0,
	               src == -1 ? 0 : 1,
	               0,
	               &peer,
	               NULL};
	wire_buf b;

	wire__buf_init(&b);
	wire__wait_encode(&b, &w);
	run__dispatch(run, tid, WIRE_TAG_WAIT, b.data, b.len);
	wire__buf_free(&b);
}

/* The same in the base context (0), where almost every program receives. */
static void wait_for(mon_run *run, int32_t tid, uint32_t seq, int op, int32_t src, int tag,
                     uint32_t sent, uint32_t recv)
{
	wait_ctx(run, tid, seq, op, src, tag, 0, sent, recv);
}

static void wait_end(mon_run *run, int32_t tid, uint32_t seq)
{
	wire_buf b;

	wire__buf_init(&b);
	wire__waitend_encode(&b, &(wire_waitend){seq, 2000});
	run__dispatch(run, tid, WIRE_TAG_WAITEND, b.data, b.len);
	wire__buf_free(&b);
}

static void start(mon_run *run)
{
	fake_run(run, HOST);
	reg(run, A);
	reg(run, B);
	reg(run, C);
}

static void test_cycle(void)
{
	mon_run run;

	start(&run);
	wait_for(&run, A, 1, WIRE_WAIT_RECV, B, 2, 1, 1);
	CU_ASSERT_EQUAL(hang__count(&run), 0);
	/* B has sent A two messages; A has received one: one is on its way. */
	wait_for(&run, B, 1, WIRE_WAIT_RECV, A, 1, 2, 1);
	CU_ASSERT_EQUAL(hang__count(&run), 0);
	/* B's report as it is: nothing in flight either way. */
	wait_for(&run, B, 2, WIRE_WAIT_RECV, A, 1, 1, 1);
	CU_ASSERT_EQUAL_FATAL(hang__count(&run), 1);
	CU_ASSERT_STRING_EQUAL(hang__kind(&run, 0), "deadlock");
	CU_ASSERT_PTR_NOT_NULL(strstr(hang__text(&run, 0), "task 0 waits at"));
	CU_ASSERT_PTR_NOT_NULL(strstr(hang__text(&run, 0), "for tag 1 from 0"));
	CU_ASSERT_PTR_NOT_NULL(strstr(hang__text(&run, 0), "for tag 2 from 1"));
	/* Said once, whatever else comes. */
	hang__evaluate(&run);
	CU_ASSERT_EQUAL(hang__count(&run), 1);
	fake_done(&run);
}

static void test_no_false_alarms(void)
{
	mon_run run;

	start(&run);
	/* A pvm_trecv with a deadline is never a hang. */
	wait_for(&run, A, 1, WIRE_WAIT_RECV, B, 2, 0, 0);
	wait_for(&run, B, 1, WIRE_WAIT_TRECV, A, 1, 0, 0);
	CU_ASSERT_EQUAL(hang__count(&run), 0);
	/* B's wait ended: it computes now. */
	wait_end(&run, B, 1);
	hang__evaluate(&run);
	CU_ASSERT_EQUAL(hang__count(&run), 0);
	/* A waits for anyone while the program may still start tasks: no report. */
	wait_for(&run, C, 1, WIRE_WAIT_RECV, -1, 3, 0, 0);
	CU_ASSERT_EQUAL(hang__count(&run), 0);
	fake_done(&run);
}

static void test_ended_partner(void)
{
	mon_run run;

	start(&run);
	wait_for(&run, A, 1, WIRE_WAIT_RECV, C, 2, 0, 0);
	CU_ASSERT_EQUAL(hang__count(&run), 0);
	/* C exits after its final flush, having sent A nothing. */
	tasks__find(&run, C)->final = 1;
	run__task_exit(&run, C);
	CU_ASSERT_EQUAL_FATAL(hang__count(&run), 1);
	CU_ASSERT_STRING_EQUAL(hang__kind(&run, 0), "ended");
	CU_ASSERT_PTR_NOT_NULL(strstr(hang__text(&run, 0), "which has ended (it exited)"));
	fake_done(&run);
}

/* A partner a signal ended (its FATAL report came) is named with the signal. */
static void test_killed_partner(void)
{
	mon_run run;

	start(&run);
	wait_for(&run, A, 1, WIRE_WAIT_RECV, C, 2, 0, 0);
	tasks__find(&run, C)->final = 1;
	tasks__find(&run, C)->rec.signal = 11;
	run__task_exit(&run, C);
	CU_ASSERT_EQUAL_FATAL(hang__count(&run), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(hang__text(&run, 0), "which has ended (killed by SIGSEGV)"));
	fake_done(&run);
}

/* A cycle in a context the program made: each wait says its context (the base one is
 * left unsaid, as the other tests show). */
static void test_cycle_in_private_context(void)
{
	mon_run run;

	start(&run);
	wait_ctx(&run, A, 1, WIRE_WAIT_RECV, B, 2, 262145, 0, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(hang__waiting(&run, A), " in context 262145"));
	wait_ctx(&run, B, 1, WIRE_WAIT_RECV, A, 1, 262145, 0, 0);
	CU_ASSERT_EQUAL_FATAL(hang__count(&run), 1);
	{
		const char *p = hang__text(&run, 0), *q = strstr(p, " in context 262145");

		/* Both tasks of the cycle. */
		CU_ASSERT_PTR_NOT_NULL(q);
		CU_ASSERT_PTR_NOT_NULL(q ? strstr(q + 1, " in context 262145") : NULL);
	}
	fake_done(&run);
}

/* Everyone waits for anyone once the program ended and no task can join: quiescent. */
static void test_quiescent(void)
{
	mon_run run;

	start(&run);
	tasks__find(&run, C)->final = 1;
	run__task_exit(&run, C);
	wait_for(&run, A, 1, WIRE_WAIT_RECV, -1, 2, 0, 0);
	wait_for(&run, B, 1, WIRE_WAIT_RECV, -1, 2, 0, 0);
	CU_ASSERT_EQUAL(hang__count(&run), 0);
	run.ended = 1;
	hang__evaluate(&run);
	CU_ASSERT_EQUAL_FATAL(hang__count(&run), 1);
	CU_ASSERT_STRING_EQUAL(hang__kind(&run, 0), "quiescent");
	fake_done(&run);
}

/* Preserve mode's report of task tid: kind (blocked or a request number req) waiting
 * for src, with its sent count towards src and its seen count from it. */
static void pwait(mon_run *run, int32_t tid, int kind, uint32_t req, int32_t src, uint32_t sent,
                  uint32_t seen)
{
	wire_pcount s = {src, sent}, n = {src, seen};
	wire_pwait w;
	wire_buf b;

	memset(&w, 0, sizeof(w));
	w.req = req;
	w.kind = (uint8_t)kind;
	w.src = src;
	w.tag = 5;
	w.deadline = INT64_MAX;
	w.nsent = src == -1 ? 0 : 1;
	w.nseen = src == -1 ? 0 : 1;
	w.sent = &s;
	w.seen = &n;
	wire__buf_init(&b);
	wire__pwait_encode(&b, &w);
	run__dispatch(run, tid, WIRE_TAG_PWAIT, b.data, b.len);
	wire__buf_free(&b);
}

/* Past the wait threshold (1 ms here), preserve.c hands the waits to hang.c. */
static void after_threshold(mon_run *run)
{
	struct timespec ts = {0, 3000000};

	nanosleep(&ts, NULL);
	preserve__evaluate(run);
}

/* Preserve mode's waits are judged by the same rules: a cycle once nothing is in
 * flight; a wait for anyone never while the program may still start tasks. */
static void test_preserve_waits(void)
{
	mon_run run;

	setenv("PVMMON_WAIT_MS", "1", 1);
	start(&run);
	CU_ASSERT_EQUAL_FATAL(preserve__init(&run), 0);
	/* A sent B one message that B has not seen yet: on its way. */
	pwait(&run, A, WIRE_PW_BLOCKED, 1, B, 1, 0);
	pwait(&run, B, WIRE_PW_BLOCKED, 1, A, 0, 0);
	after_threshold(&run);
	CU_ASSERT_EQUAL(hang__count(&run), 0);
	CU_ASSERT_PTR_NOT_NULL(hang__waiting(&run, A));
	/* B's report of what arrived meanwhile (the same wait): it came, and did not match. */
	pwait(&run, B, WIRE_PW_BLOCKED, 1, A, 0, 1);
	after_threshold(&run);
	CU_ASSERT_EQUAL_FATAL(hang__count(&run), 1);
	CU_ASSERT_STRING_EQUAL(hang__kind(&run, 0), "deadlock");
	CU_ASSERT_PTR_NOT_NULL(strstr(hang__text(&run, 0), "for tag 5 from 1"));
	/* C waits for anyone (a request with no candidate): not while tasks may join. */
	pwait(&run, C, WIRE_PW_RECV, 1, -1, 0, 0);
	after_threshold(&run);
	CU_ASSERT_EQUAL(hang__count(&run), 1);
	CU_ASSERT_PTR_NOT_NULL(hang__waiting(&run, C));
	/* Its running report withdraws the wait. */
	pwait(&run, C, WIRE_PW_RUNNING, 0, -1, 0, 0);
	CU_ASSERT_PTR_NULL(hang__waiting(&run, C));
	preserve__free(&run);
	fake_done(&run);
	unsetenv("PVMMON_WAIT_MS");
}

CU_TestInfo test_hang_tests[] = {
    {"preserve mode's waits, by the same rules", test_preserve_waits},
    {"a cycle is said once nothing is in flight, once", test_cycle},
    {"deadlines, computing tasks, wildcards that may still be answered", test_no_false_alarms},
    {"a wait for a task that has ended", test_ended_partner},
    {"a wait for a task a signal ended names the signal", test_killed_partner},
    {"a cycle in a private context says the context", test_cycle_in_private_context},
    {"every task waits for anyone after the program's end", test_quiescent},
    CU_TEST_INFO_NULL,
};
