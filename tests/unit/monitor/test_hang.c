/* Unit tests for monitor/hang.c through the run's dispatch table: a cycle is said once
 * both tasks wait with nothing in flight, never while a message is on its way, a task
 * computes or a wait has a deadline; a wait for an ended task; a wildcard wait only
 * once no task can join; a replay's forced wait whose message cannot come is told so; a
 * polling task counts as waiting, in words of its own; a running program whose tasks
 * all wait for anyone, once every process of it is such a task. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

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
	wire_register r = {tid, 0, 100, HOST, "prog", 1000, run->token, 0, NULL};
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

/* Task c's records: one pvm_send statement that sent task `to` one message. */
static void sent_one(mon_task *c, int32_t to)
{
	c->rec.nstmts = 1;
	c->rec.stmts = calloc(1, sizeof(*c->rec.stmts));
	c->rec.stmts[0].op = strdup("pvm_send");
	c->rec.stmts[0].ncom = 1;
	c->rec.stmts[0].com = calloc(1, sizeof(*c->rec.stmts[0].com));
	c->rec.stmts[0].com[0].partner_tid = to;
	c->rec.stmts[0].com[0].count = 1;
}

/* A's wait report lists C's message of the tag it waits for, queued: it came between
 * two slices of A's wait (a large message libpvm3 finished reading as A looked at its
 * queue), and A's next slice takes it. C's exit then says nothing; with another tag
 * queued, it is a wait for an ended task and a tag mismatch. */
static void test_ended_partner_message_queued(void)
{
	wire_wpeer peer = {C, 0, 0};
	wire_wqueued q = {C, 2, 0, 16u << 20};
	wire_wait w = {1, WIRE_WAIT_RECV, C, 2, 0, 0, NULL, 0, 1000, 1000, 0, 1, 1, &peer, &q, 1};
	mon_run run;
	mon_task *c;
	wire_buf b;

	start(&run);
	wire__buf_init(&b);
	wire__wait_encode(&b, &w);
	run__dispatch(&run, A, WIRE_TAG_WAIT, b.data, b.len);
	wire__buf_free(&b);
	/* C's records: it sent A one message, the one queued. */
	c = tasks__find(&run, C);
	sent_one(c, A);
	c->final = 1;
	run__task_exit(&run, C);
	hang__evaluate(&run);
	CU_ASSERT_EQUAL(hang__count(&run), 0);
	/* Had it another tag, A would wait for ever: said. */
	q.tag = 3;
	w.seq = 2;
	wire__buf_init(&b);
	wire__wait_encode(&b, &w);
	run__dispatch(&run, A, WIRE_TAG_WAIT, b.data, b.len);
	wire__buf_free(&b);
	hang__evaluate(&run);
	CU_ASSERT_EQUAL_FATAL(hang__count(&run), 2);
	CU_ASSERT_STRING_EQUAL(hang__kind(&run, 1), "mismatch");
	fake_done(&run);
}

/* A partner that exited without pvm_exit (FATAL with signal 0, after its final records)
 * whose records say it sent a message the waiter never got: in flight for the grace
 * after its exit, then said lost, with its last send. */
static void test_noexit_partner_lost(void)
{
	mon_run run;
	mon_task *c;
	wire_buf b;

	start(&run);
	wait_for(&run, A, 1, WIRE_WAIT_RECV, C, 2, 0, 0);
	c = tasks__find(&run, C);
	c->final = 1;
	sent_one(c, A);
	wire__buf_init(&b);
	wire__fatal_encode(&b, &(wire_fatal){0, 1, WIRE_FATAL_PROGRAM, 1});
	run__dispatch(&run, C, WIRE_TAG_FATAL, b.data, b.len);
	wire__buf_free(&b);
	CU_ASSERT_EQUAL(c->noexit, 1);
	CU_ASSERT_EQUAL(c->rec.signal, 0);
	run__task_exit(&run, C);
	CU_ASSERT_EQUAL(tasks__find(&run, C)->rec.status, PVMMON_TASK_NOEXIT);
	/* Just after the exit the message may still be on its way. */
	hang__evaluate(&run);
	CU_ASSERT_EQUAL(hang__count(&run), 0);
	/* Past the grace it was lost. */
	tasks__find(&run, C)->gone_at -= 2000000000LL;
	hang__evaluate(&run);
	CU_ASSERT_EQUAL_FATAL(hang__count(&run), 1);
	CU_ASSERT_STRING_EQUAL(hang__kind(&run, 0), "ended");
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(hang__text(&run, 0), "which has ended (it exited without pvm_exit); 1 message "
	                                "it sent "));
	CU_ASSERT_PTR_NOT_NULL(strstr(hang__text(&run, 0),
	                              "never came: probably lost because its sender exited "
	                              "without pvm_exit"));
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

/* Evaluates once the settle time (1 ms here) is over. The fixed 3 ms is safe: a sleep
 * never ends early, and a longer one only passes the settle time by more. */
static void after_settle(mon_run *run)
{
	struct timespec ts = {0, 3000000};

	run->hang_settle_ns = 1000000;
	nanosleep(&ts, NULL);
	hang__evaluate(run);
}

/* Everyone waits for anyone once the program ended and no task can join, and nothing
 * changed for the settle time (pvmd's exit notification of C may be on its way to a
 * wait for anyone): quiescent, with the caveat of a wait for anyone. */
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
	CU_ASSERT_EQUAL(hang__count(&run), 0);
	after_settle(&run);
	CU_ASSERT_EQUAL_FATAL(hang__count(&run), 1);
	CU_ASSERT_STRING_EQUAL(hang__kind(&run, 0), "quiescent");
	CU_ASSERT_PTR_NOT_NULL(strstr(hang__text(&run, 0),
	                              "every task that has not ended waits and no message can "
	                              "come from inside the program; task 0 waits at "));
	CU_ASSERT_PTR_NOT_NULL(strstr(hang__text(&run, 0), "only a sender outside"));
	fake_done(&run);
}

/* Preserve mode's report of task tid: kind (blocked or a request number req) waiting
 * for src, with its sent count towards src and its seen count from it. */
static void pwait(mon_run *run, int32_t tid, int kind, uint32_t req, int32_t src, uint32_t sent,
                  uint32_t seen)
{
	wire_pcount s = {src, sent, INT64_MIN}, n = {src, seen, INT64_MIN};
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

/*
 * A program whose tasks all wait for anyone while it runs (all_wait): the program's
 * process group in a process list of the test's own (a folder of PID/stat files, as
 * /proc has them), tasks A, B and C with pids PA, PB and PC. A is the launched program
 * (in group PA); the others, as the pvmd spawns them, are in the pvmd's group.
 */
#define PA 101
#define PB 102
#define PC 103

typedef struct proc_list {
	char dir[64];
	long pids[8];
	size_t n;
} proc_list;

/* Lists process pid in group pgrp, state state; COMM holds a space and a ')', as a
 * program's name may. */
static void proc_put(proc_list *pl, long pid, long pgrp, char state)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%ld", pl->dir, pid);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/%ld/stat", pl->dir, pid);
	f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fprintf(f, "%ld (all wait) x) %c 1 %ld %ld 0 -1 4194560 0 0\n", pid, state, pgrp, pgrp);
	fclose(f);
	for (size_t i = 0; i < pl->n; i++)
		if (pl->pids[i] == pid)
			return;
	pl->pids[pl->n++] = pid;
}

static void proc_done(proc_list *pl)
{
	char path[128];

	for (size_t i = 0; i < pl->n; i++) {
		snprintf(path, sizeof(path), "%s/%ld/stat", pl->dir, pl->pids[i]);
		unlink(path);
		snprintf(path, sizeof(path), "%s/%ld", pl->dir, pl->pids[i]);
		rmdir(path);
	}
	rmdir(pl->dir);
	pl->dir[0] = '\0';
	pl->n = 0;
}

static void reg_pid(mon_run *run, int32_t tid, int32_t pid)
{
	wire_register r = {tid, 0, pid, HOST, "allwait", 1000, run->token, 0, NULL};
	wire_buf b;

	wire__buf_init(&b);
	wire__register_encode(&b, &r);
	run__dispatch(run, tid, WIRE_TAG_REGISTER, b.data, b.len);
	wire__buf_free(&b);
}

/* A run of A, B and C launched by `pvmmon run` (group PA, told), the processes listed
 * in *pl (a new list: the one before, if any, is removed), and an unrelated process in a
 * group of its own. */
static void start_program(mon_run *run, proc_list *pl)
{
	if (pl->dir[0])
		proc_done(pl);
	snprintf(pl->dir, sizeof(pl->dir), "/tmp/pvmmon-test-proc.XXXXXX");
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(pl->dir));
	pl->n = 0;
	proc_put(pl, PA, PA, 'S');
	proc_put(pl, PB, 50, 'S');
	proc_put(pl, PC, 50, 'R');
	proc_put(pl, 300, 300, 'S');
	fake_run(run, HOST);
	run->group = PA;
	run->proc_dir = pl->dir;
	reg_pid(run, A, PA);
	reg_pid(run, B, PB);
	reg_pid(run, C, PC);
}

/* Task tid's blocking wait seq for tag from anyone, with its counts towards peers and
 * the messages queued that it does not take. */
static void wait_any(mon_run *run, int32_t tid, uint32_t seq, int tag, wire_wpeer *peers,
                     uint32_t npeers, wire_wqueued *queued, uint32_t nqueued)
{
	wire_wait w = {seq,  WIRE_WAIT_RECV, -1, tag,    0,       0,     NULL,   0,
	               1000, 1000,           0,  npeers, nqueued, peers, queued, nqueued};
	wire_buf b;

	wire__buf_init(&b);
	wire__wait_encode(&b, &w);
	run__dispatch(run, tid, WIRE_TAG_WAIT, b.data, b.len);
	wire__buf_free(&b);
}

/* The master/worker deadlock: every task waits for anyone, nothing is in flight, every
 * process of the program is a task. Said once the state has lasted the settle time,
 * once, naming each wait and what only could end it; --on-hang=abort stops the run. */
static void test_all_wait(void)
{
	mon_run run;
	proc_list pl = {.n = 0};
	const char *text;

	start_program(&run, &pl);
	run.on_deadlock_abort = 1;
	wait_any(&run, A, 1, 3, NULL, 0, NULL, 0);
	wait_any(&run, B, 1, 1, NULL, 0, NULL, 0);
	wait_any(&run, C, 1, 1, NULL, 0, NULL, 0);
	/* Not at once: the default settle time (1 s) is far from over a few statements
	 * after the last report. */
	CU_ASSERT_EQUAL(hang__count(&run), 0);
	CU_ASSERT_EQUAL(run.deadlocked, 0);
	after_settle(&run);
	CU_ASSERT_EQUAL_FATAL(hang__count(&run), 1);
	CU_ASSERT_STRING_EQUAL(hang__kind(&run, 0), "quiescent");
	text = hang__text(&run, 0);
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(text, "every task waits and no message can come from inside the program; "));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "task 0 waits at "));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, " for tag 3 from any task; task 1 waits at "));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "task 2 waits at "));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "; only a sender outside the program's monitored "
	                                    "tasks could end a wait for any task"));
	CU_ASSERT_EQUAL(run.deadlocked, 1);
	fake_done(&run);
	/* Without the abort: said once, however often it is looked at. */
	start_program(&run, &pl);
	wait_any(&run, A, 1, 3, NULL, 0, NULL, 0);
	wait_any(&run, B, 1, 1, NULL, 0, NULL, 0);
	wait_any(&run, C, 1, 1, NULL, 0, NULL, 0);
	after_settle(&run);
	after_settle(&run);
	hang__evaluate(&run);
	CU_ASSERT_EQUAL(hang__count(&run), 1);
	CU_ASSERT_EQUAL(run.deadlocked, 0);
	fake_done(&run);
	proc_done(&pl);
}

/* What keeps it unsaid: a task that computes, a message on its way, a pvm_trecv with a
 * deadline, a spawned child that has not registered, a process of the program that is
 * no task, a program started from the console (no group told). */
static void test_all_wait_no_false_alarms(void)
{
	mon_run run;
	proc_list pl = {.n = 0};
	wire_wpeer to_a = {A, 1, 0}, from_b = {B, 0, 0};
	wire_wqueued queued = {B, 9, 0, 4};

	/* C computes: it waited, and its wait ended. */
	start_program(&run, &pl);
	wait_any(&run, A, 1, 3, NULL, 0, NULL, 0);
	wait_any(&run, B, 1, 1, NULL, 0, NULL, 0);
	wait_any(&run, C, 1, 1, NULL, 0, NULL, 0);
	wait_end(&run, C, 1);
	after_settle(&run);
	CU_ASSERT_EQUAL(hang__count(&run), 0);
	fake_done(&run);
	/* B sent A a message that A has not received, nor has queued: on its way. */
	start_program(&run, &pl);
	wait_any(&run, A, 1, 3, &from_b, 1, NULL, 0);
	wait_any(&run, B, 1, 1, &to_a, 1, NULL, 0);
	wait_any(&run, C, 1, 1, NULL, 0, NULL, 0);
	after_settle(&run);
	CU_ASSERT_EQUAL(hang__count(&run), 0);
	/* It came, with a tag A's receive does not take: it ends no wait. */
	wait_any(&run, A, 1, 3, &from_b, 1, &queued, 1);
	after_settle(&run);
	CU_ASSERT_EQUAL(hang__count(&run), 1);
	fake_done(&run);
	/* A pvm_trecv with a deadline ends by itself. */
	start_program(&run, &pl);
	wait_any(&run, A, 1, 3, NULL, 0, NULL, 0);
	wait_any(&run, B, 1, 1, NULL, 0, NULL, 0);
	wait_for(&run, C, 1, WIRE_WAIT_TRECV, -1, 1, 0, 0);
	after_settle(&run);
	CU_ASSERT_EQUAL(hang__count(&run), 0);
	fake_done(&run);
	/* A spawned a child that has not registered yet: it may send; once it has ended
	 * without registering, it will not. */
	start_program(&run, &pl);
	{
		int32_t child = HOST + 9;
		wire_spawned sp = {0, 1, &child, 0, {0}};
		wire_buf b;

		wire__buf_init(&b);
		wire__spawned_encode(&b, &sp);
		run__dispatch(&run, A, WIRE_TAG_SPAWNED, b.data, b.len);
		wire__buf_free(&b);
		wait_any(&run, A, 1, 3, NULL, 0, NULL, 0);
		wait_any(&run, B, 1, 1, NULL, 0, NULL, 0);
		wait_any(&run, C, 1, 1, NULL, 0, NULL, 0);
		after_settle(&run);
		CU_ASSERT_EQUAL(hang__count(&run), 0);
		run__task_exit(&run, child);
		after_settle(&run);
		CU_ASSERT_EQUAL(hang__count(&run), 1);
	}
	fake_done(&run);
	/* A process of the program's group that is no task (a script's `sleep`): a task
	 * may still join. Once it is a zombie the group is looked at again (within
	 * GROUP_LOOK_NS, 250 ms: waited for, up to 10 s for a busy machine). */
	start_program(&run, &pl);
	proc_put(&pl, 200, PA, 'S');
	wait_any(&run, A, 1, 3, NULL, 0, NULL, 0);
	wait_any(&run, B, 1, 1, NULL, 0, NULL, 0);
	wait_any(&run, C, 1, 1, NULL, 0, NULL, 0);
	after_settle(&run);
	CU_ASSERT_EQUAL(hang__count(&run), 0);
	proc_put(&pl, 200, PA, 'Z');
	for (int i = 0; i < 1000 && !hang__count(&run); i++)
		after_settle(&run);
	CU_ASSERT_EQUAL(hang__count(&run), 1);
	fake_done(&run);
	/* No group told (a console-started run): more tasks may always come. */
	start_program(&run, &pl);
	run.group = 0;
	wait_any(&run, A, 1, 3, NULL, 0, NULL, 0);
	wait_any(&run, B, 1, 1, NULL, 0, NULL, 0);
	wait_any(&run, C, 1, 1, NULL, 0, NULL, 0);
	after_settle(&run);
	CU_ASSERT_EQUAL(hang__count(&run), 0);
	fake_done(&run);
	proc_done(&pl);
}

CU_TestInfo test_hang_tests[] = {
    {"preserve mode's waits, by the same rules", test_preserve_waits},
    {"replay: a recorded message that cannot come is told to its waiter, once",
     test_replay_cannot_come},
    {"replay: a recorded sender that has ended", test_replay_sender_ended},
    {"a cycle is said once nothing is in flight, once", test_cycle},
    {"deadlines, computing tasks, wildcards that may still be answered", test_no_false_alarms},
    {"a wait for a task that has ended", test_ended_partner},
    {"a wait whose queue holds the ended partner's message it takes: no hang",
     test_ended_partner_message_queued},
    {"a message lost with a task that exited without pvm_exit", test_noexit_partner_lost},
    {"a wait for a task a signal ended names the signal", test_killed_partner},
    {"a cycle in a private context says the context", test_cycle_in_private_context},
    {"every task waits for anyone after the program's end", test_quiescent},
    {"a polling task in a cycle, said to poll; not once it stopped", test_polling_cycle},
    {"every task of a running program waits for anyone: said, once", test_all_wait},
    {"a running program's tasks all waiting: computing, in flight, trecv, spawn, script",
     test_all_wait_no_false_alarms},
    CU_TEST_INFO_NULL,
};
