/* Unit tests for monitor/hang.c through the run's dispatch table: a cycle is said once
 * both tasks wait with nothing in flight, never while a message is on its way, a task
 * computes or a wait has a deadline; a wait for an ended task; a wildcard wait only
 * once no task can join; a replay's forced wait whose message cannot come is told so; a
 * polling task counts as waiting, in words of its own. */
#include <signal.h>
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
	wire_register r = {tid, 0, 100, HOST, "prog", 1000, run->token, NULL};
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
	               NULL,
	               0};
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

/* Past the wait threshold (1 ms here), preserve.c hands the waits to hang.c. The fixed
 * 3 ms is safe: a sleep never ends early, and a longer one only passes the threshold
 * by more, which changes nothing the tests check. */
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

/* A replay's forced wait (op FORCED) of tid for tag from src, with nq messages from src
 * of qtag queued (one listed). */
static void forced_wait_n(mon_run *run, int32_t tid, uint32_t seq, int32_t src, int tag,
                          uint32_t sent, uint32_t recv, int qtag, uint32_t nq)
{
	wire_wpeer peer = {src, sent, recv};
	wire_wqueued q = {src, qtag, 0, 4};
	wire_wait w = {seq, WIRE_WAIT_FORCED, src,   tag, 0, 0, NULL, 0, 1000, 1000, 0,
	               1,   nq ? 1 : 0,       &peer, &q,  nq};
	wire_buf b;

	wire__buf_init(&b);
	wire__wait_encode(&b, &w);
	run__dispatch(run, tid, WIRE_TAG_WAIT, b.data, b.len);
	wire__buf_free(&b);
}

static void forced_wait(mon_run *run, int32_t tid, uint32_t seq, int32_t src, int tag,
                        uint32_t sent, uint32_t recv, int qtag)
{
	forced_wait_n(run, tid, seq, src, tag, sent, recv, qtag, qtag < 0 ? 0 : 1);
}

/* The verdicts sent to tid (CANNOT_COME): how many; the last one's wait number and
 * words in *seq and *text (heap). */
static size_t verdicts(int32_t tid, uint32_t *seq, char **text)
{
	size_t n = 0;
	const fake_msg *m;
	wire_ctl c;

	*text = NULL;
	for (size_t i = 0; (m = fake_find(tid, WIRE_TAG_CTL, i)); i++) {
		if (wire__ctl_decode(&c, m->data, m->len) != 0 || c.cmd != WIRE_CTL_CANNOT_COME) {
			wire__ctl_clear(&c);
			continue;
		}
		n++;
		*seq = c.gen;
		free(*text);
		*text = c.procs;
		c.procs = NULL;
	}
	return n;
}

/* A replay's forced wait whose sender waits for it, with the sender's message of
 * another tag queued: the waiting task is told, once, with what the sender does; not
 * while the sender computes or its message is on its way. */
static void test_replay_cannot_come(void)
{
	mon_run run;
	uint32_t seq = 0;
	char *text;

	start(&run);
	run.on_deadlock_abort = 1;
	forced_wait(&run, A, 3, B, 1, 0, 0, 2);
	/* B computes (no wait report): nothing. */
	CU_ASSERT_EQUAL(verdicts(A, &seq, &text), 0);
	/* B waits for A, but says it sent A two messages: one is on its way. */
	wait_for(&run, B, 1, WIRE_WAIT_RECV, A, 9, 2, 0);
	CU_ASSERT_EQUAL(verdicts(A, &seq, &text), 0);
	/* As it is: A has the one message B sent queued, with tag 2. */
	wait_for(&run, B, 2, WIRE_WAIT_RECV, A, 9, 1, 0);
	CU_ASSERT_EQUAL_FATAL(verdicts(A, &seq, &text), 1);
	CU_ASSERT_EQUAL(seq, 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "task 1 waits at"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "for tag 9 from 0, and nothing it waits for can come"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "a message from it with tag 2 is queued here"));
	free(text);
	/* B is told nothing (its wait is no replay's); the run ends as a divergence (the
	 * task reports it), not by --on-hang=abort. */
	CU_ASSERT_EQUAL(verdicts(B, &seq, &text), 0);
	CU_ASSERT_EQUAL(run.deadlocked, 0);
	hang__evaluate(&run);
	CU_ASSERT_EQUAL(verdicts(A, &seq, &text), 1);
	free(text);
	/* A new wait is a new question. */
	wait_end(&run, A, 3);
	forced_wait(&run, A, 4, B, 1, 0, 0, 2);
	CU_ASSERT_EQUAL(verdicts(A, &seq, &text), 2);
	CU_ASSERT_EQUAL(seq, 4);
	free(text);
	fake_done(&run);
	/* More messages queued than a report lists: all of them are counted. */
	start(&run);
	wait_for(&run, B, 1, WIRE_WAIT_RECV, A, 9, 20, 0);
	forced_wait_n(&run, A, 1, B, 1, 0, 0, 2, 19);
	CU_ASSERT_EQUAL(verdicts(A, &seq, &text), 0);
	forced_wait_n(&run, A, 2, B, 1, 0, 0, 2, 20);
	CU_ASSERT_EQUAL_FATAL(verdicts(A, &seq, &text), 1);
	CU_ASSERT_EQUAL(seq, 2);
	free(text);
	fake_done(&run);
}

/* A replay's forced wait whose sender has ended: by a signal, or after its final flush
 * with nothing sent to the waiter; not while what it sent is on its way. */
static void test_replay_sender_ended(void)
{
	mon_run run;
	uint32_t seq = 0;
	char *text;

	start(&run);
	forced_wait(&run, A, 1, C, 5, 0, 0, -1);
	tasks__find(&run, C)->final = 1;
	tasks__find(&run, C)->rec.signal = SIGABRT;
	run__task_exit(&run, C);
	CU_ASSERT_EQUAL_FATAL(verdicts(A, &seq, &text), 1);
	CU_ASSERT_EQUAL(seq, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "task 2 has ended (killed by SIGABRT) and nothing it "
	                                    "sent is on its way"));
	free(text);
	fake_done(&run);
	/* B exited after sending A a message A has not received yet. */
	start(&run);
	forced_wait(&run, A, 1, B, 5, 0, 0, -1);
	tasks__find(&run, B)->final = 1;
	{
		pvmmon_log_task *r = &tasks__find(&run, B)->rec;
		static pvmmon_log_com com;
		static pvmmon_log_stmt st;

		com.partner_tid = A;
		com.count = 1;
		st.op = "pvm_send";
		st.com = &com;
		st.ncom = 1;
		r->stmts = &st;
		r->nstmts = 1;
		run__task_exit(&run, B);
		CU_ASSERT_EQUAL(verdicts(A, &seq, &text), 0);
		r->stmts = NULL;
		r->nstmts = 0;
	}
	fake_done(&run);
}

static void test_polling_cycle(void)
{
	mon_run run;

	start(&run);
	/* A polls B and B blocks on A: a cycle, said in words that tell the two apart. */
	wait_for(&run, A, 1, WIRE_WAIT_POLL, B, 2, 1, 1);
	CU_ASSERT_EQUAL(hang__count(&run), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(hang__waiting(&run, A), "(polling)"));
	/* A polling task that stopped (WAITEND: it sent, say) is no part of a hang. */
	wait_end(&run, A, 1);
	wait_for(&run, B, 1, WIRE_WAIT_RECV, A, 1, 1, 1);
	CU_ASSERT_EQUAL(hang__count(&run), 0);
	wait_for(&run, A, 2, WIRE_WAIT_POLL, B, 2, 1, 1);
	CU_ASSERT_EQUAL_FATAL(hang__count(&run), 1);
	CU_ASSERT_STRING_EQUAL(hang__kind(&run, 0), "deadlock");
	CU_ASSERT_PTR_NOT_NULL(strstr(hang__text(&run, 0), "task 0 polls at"));
	CU_ASSERT_PTR_NOT_NULL(strstr(hang__text(&run, 0), "task 1 waits at"));
	fake_done(&run);
}

CU_TestInfo test_hang_tests[] = {
    {"preserve mode's waits, by the same rules", test_preserve_waits},
    {"replay: a recorded message that cannot come is told to its waiter, once",
     test_replay_cannot_come},
    {"replay: a recorded sender that has ended", test_replay_sender_ended},
    {"a cycle is said once nothing is in flight, once", test_cycle},
    {"deadlines, computing tasks, wildcards that may still be answered", test_no_false_alarms},
    {"a wait for a task that has ended", test_ended_partner},
    {"a wait for a task a signal ended names the signal", test_killed_partner},
    {"a cycle in a private context says the context", test_cycle_in_private_context},
    {"every task waits for anyone after the program's end", test_quiescent},
    {"a polling task in a cycle, said to poll; not once it stopped", test_polling_cycle},
    CU_TEST_INFO_NULL,
};
