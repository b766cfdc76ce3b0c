/*
 * Unit tests for the wait analysis (graphs/waits.c, waits_model.c, waits_report.c):
 * small traced logs with virtual times worked out by hand in the comments, where the
 * wait states, their kind, the causes they are charged to (directly and through the
 * sender's own waits), the efficiency figures, the predicted run with a cause made
 * faster and the report section must come out as computed; waits at a barrier (the
 * latecomer named) and in a collective; predictions on a network of one's choosing and
 * as a curve.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "pvmmon/errors.h"
#include "pvmmon/log.h"
#include "pvmmon/waits.h"

#define MS 1000000LL

/* A traced log of no tasks with the selected procedures names (--cp entries). */
static pvmmon_log *new_log(const char *const *names, size_t nnames)
{
	pvmmon_log *log = NULL;

	CU_ASSERT_EQUAL_FATAL(pvmmon_log_new(&log), 0);
	log->trace.enabled = 1;
	if (nnames) {
		log->cp.enabled = 1;
		log->cp.to_ns = -1;
		log->cp.nprocs = nnames;
		log->cp.procs = calloc(nnames, sizeof(*log->cp.procs));
		CU_ASSERT_PTR_NOT_NULL_FATAL(log->cp.procs);
		for (size_t k = 0; k < nnames; k++)
			CU_ASSERT_PTR_NOT_NULL_FATAL(log->cp.procs[k].name = strdup(names[k]));
	}
	return log;
}

/* Adds a root task (tid, lid) running in virtual time from start to end; its index. */
static size_t task(pvmmon_log *log, int32_t tid, const char *lid, int64_t start, int64_t end)
{
	pvmmon_log_task *t = realloc(log->tasks, (log->ntasks + 1) * sizeof(*t));

	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	log->tasks = t;
	t = &log->tasks[log->ntasks];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	CU_ASSERT_PTR_NOT_NULL_FATAL(t->lid = strdup(lid));
	t->start_ns = start;
	t->end_ns = end;
	t->virtual_ns = end - start;
	t->status = PVMMON_TASK_EXITED;
	return log->ntasks++;
}

/* Adds statement id of task ti: the PVM call op at file:line. */
static void stmt(pvmmon_log *log, size_t ti, uint32_t id, const char *op, const char *file,
                 int32_t line)
{
	pvmmon_log_task *t = &log->tasks[ti];
	pvmmon_log_stmt *s = realloc(t->stmts, (t->nstmts + 1) * sizeof(*s));

	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	t->stmts = s;
	s = &t->stmts[t->nstmts++];
	memset(s, 0, sizeof(*s));
	s->id = id;
	CU_ASSERT_PTR_NOT_NULL_FATAL(s->op = strdup(op));
	CU_ASSERT_PTR_NOT_NULL_FATAL(s->file = strdup(file));
	s->line = line;
}

/* Appends an event to task ti, from vt0 to vt1; the pointer is good until the next. */
static pvmmon_log_event *event(pvmmon_log *log, size_t ti, pvmmon_event_op op, uint32_t id,
                               int64_t vt0, int64_t vt1)
{
	pvmmon_log_task *t = &log->tasks[ti];
	pvmmon_log_event *e = realloc(t->events, (t->nevents + 1) * sizeof(*e));

	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	t->events = e;
	e = &t->events[t->nevents++];
	memset(e, 0, sizeof(*e));
	e->op = op;
	e->seq = -1;
	e->stmt = id;
	e->vt0 = vt0;
	e->vt1 = vt1;
	e->rt[0] = e->rt[1] = vt0;
	e->rt[2] = e->rt[3] = vt1;
	log->trace.kept++;
	return e;
}

static void send(pvmmon_log *log, size_t ti, uint32_t id, int32_t to, int64_t seq, int64_t vt)
{
	pvmmon_log_event *e = event(log, ti, PVMMON_EV_SEND, id, vt, vt);

	e->peer = to;
	e->tag = 1;
	e->seq = seq;
}

/* A receive of statement id from tid from, beginning at vt and waiting sync. */
static void recv(pvmmon_log *log, size_t ti, uint32_t id, int32_t from, int64_t seq, int64_t vt,
                 int64_t sync, int64_t trans)
{
	pvmmon_log_event *e = event(log, ti, PVMMON_EV_RECV, id, vt, vt + sync);

	e->peer = from;
	e->tag = 1;
	e->seq = seq;
	e->sync = sync;
	e->trans = trans;
}

/* Procedure k (index in log->cp.procs) entered at a and left at b by task ti. */
static void in_proc(pvmmon_log *log, size_t ti, int32_t k, int64_t a, int64_t b)
{
	event(log, ti, PVMMON_EV_ENTER, 0, a, a)->tag = k;
	event(log, ti, PVMMON_EV_EXIT, 0, b, b)->tag = k;
}

static pvmmon_waits *compute(const pvmmon_log *log)
{
	pvmmon_waits *w = NULL;

	CU_ASSERT_EQUAL_FATAL(pvmmon_waits_compute(&w, log), 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	return w;
}

/* The cause of task ti's procedure proc (-1: the segment before statement id), or NULL. */
static const pvmmon_wait_cause *cause(const pvmmon_waits *w, size_t ti, int32_t proc,
                                      uint32_t id)
{
	for (size_t i = 0; i < w->ncauses; i++)
		if (w->causes[i].task == ti && w->causes[i].proc == proc &&
		    (proc >= 0 || w->causes[i].stmt == id))
			return &w->causes[i];
	return NULL;
}

/*
 * A (tid 1) receives from B (tid 2) at 2 ms and waits 8 ms, to 10 ms, then computes to
 * 12 ms; B computes 10 ms, sends (b.c:20) at 10 ms and ends at 11 ms.
 */
static pvmmon_log *late_sender_log(void)
{
	pvmmon_log *log = new_log(NULL, 0);
	size_t a = task(log, 1, "0", 0, 12 * MS), b = task(log, 2, "0.1", 0, 11 * MS);

	stmt(log, a, 0, "pvm_recv", "a.c", 10);
	stmt(log, b, 0, "pvm_send", "b.c", 20);
	recv(log, a, 0, 2, 0, 2 * MS, 8 * MS, 0);
	send(log, b, 0, 1, 0, 10 * MS);
	return log;
}

/* The one wait is a late sender's, all of it on B's computation before its send. */
static void test_late_sender(void)
{
	pvmmon_log *log = late_sender_log();
	pvmmon_waits *w = compute(log);
	const pvmmon_wait_cause *c;

	CU_ASSERT_EQUAL_FATAL(w->nstates, 1);
	CU_ASSERT_EQUAL(w->states[0].task, 0);
	CU_ASSERT_EQUAL(w->states[0].event, 0);
	CU_ASSERT_EQUAL(w->states[0].from, 1);
	CU_ASSERT_EQUAL(w->states[0].kind, PVMMON_WAIT_LATE_SENDER);
	CU_ASSERT_EQUAL(w->states[0].wait_ns, 8 * MS);
	CU_ASSERT_EQUAL(w->states[0].indirect, 0);
	CU_ASSERT_EQUAL(w->total_wait_ns, 8 * MS);
	CU_ASSERT_EQUAL(w->late_sender_ns, 8 * MS);
	CU_ASSERT_EQUAL(w->wrong_order_ns, 0);
	CU_ASSERT_EQUAL_FATAL(w->ncauses, 1);
	c = &w->causes[0];
	CU_ASSERT_EQUAL(c->task, 1);
	CU_ASSERT_EQUAL(c->proc, -1);
	CU_ASSERT_EQUAL(c->stmt, 0);
	CU_ASSERT_EQUAL(c->short_ns, 8 * MS);
	CU_ASSERT_EQUAL(c->long_ns, 0);
	pvmmon_waits_free(w);
	pvmmon_log_free(log);
}

/* The pipeline's statements and events (see test_pipeline_propagates). */
static void pipeline_events(pvmmon_log *log, size_t a, size_t b, size_t c)
{
	stmt(log, a, 0, "pvm_recv", "stage.c", 40);
	stmt(log, b, 0, "pvm_recv", "stage.c", 40);
	stmt(log, b, 1, "pvm_send", "stage.c", 50);
	stmt(log, c, 0, "pvm_send", "stage.c", 50);
	recv(log, a, 0, 2, 0, 0, 12 * MS, 0);
	in_proc(log, b, 1, 0, 2 * MS);
	recv(log, b, 0, 3, 0, 2 * MS, 8 * MS, 0);
	in_proc(log, b, 1, 10 * MS, 12 * MS);
	send(log, b, 1, 1, 0, 12 * MS);
	in_proc(log, c, 1, 0, 2 * MS);
	in_proc(log, c, 0, 2 * MS, 10 * MS);
	send(log, c, 0, 2, 0, 10 * MS);
}

/*
 * A pipeline C (tid 3) -> B (tid 2) -> A (tid 1); procedures stage_work (1) and
 * slow_part (0). C: stage_work 0..2 ms, slow_part 2..10 ms, sends to B at 10 ms. B:
 * stage_work 0..2 ms, receives at 2 ms and waits 8 ms, stage_work 10..12 ms, sends to A
 * at 12 ms. A receives at 0 and waits 12 ms.
 * B's wait (8 ms): C's time since the start is stage_work 2 + slow_part 8, B's is
 * stage_work 2: the excess is slow_part's 8 ms, all of it short-term.
 * A's wait (12 ms): B's time is stage_work 4 and its wait 8, A's nothing: stage_work
 * gets 4/12 of it (4 ms, short-term on B's stage_work), B's wait 8/12 (8 ms, long-term on
 * slow_part, B's wait's cause): the wait is indirect. Total 20 ms, all charged.
 */
static void test_pipeline_propagates(void)
{
	static const char *const procs[] = {"slow_part", "stage_work"};
	pvmmon_log *log = new_log(procs, 2);
	size_t a = task(log, 1, "0", 0, 12 * MS), b = task(log, 2, "0.1", 0, 12 * MS),
	       c = task(log, 3, "0.2", 0, 10 * MS);
	pvmmon_waits *w;
	const pvmmon_wait_cause *slow, *work;
	int64_t sum = 0;
	char name[256];

	pipeline_events(log, a, b, c);
	w = compute(log);

	CU_ASSERT_EQUAL(w->total_wait_ns, 20 * MS);
	CU_ASSERT_EQUAL_FATAL(w->nstates, 2);
	/* In the order of their end: B's (10 ms), then A's (12 ms). */
	CU_ASSERT_EQUAL(w->states[0].task, b);
	CU_ASSERT_EQUAL(w->states[0].from, c);
	CU_ASSERT_EQUAL(w->states[0].indirect, 0);
	CU_ASSERT_EQUAL(w->states[1].task, a);
	CU_ASSERT_EQUAL(w->states[1].from, b);
	CU_ASSERT_EQUAL(w->states[1].indirect, 1);
	CU_ASSERT_EQUAL(w->states[1].kind, PVMMON_WAIT_LATE_SENDER);
	slow = cause(w, c, 0, 0);
	work = cause(w, b, 1, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(slow);
	CU_ASSERT_PTR_NOT_NULL_FATAL(work);
	CU_ASSERT_PTR_EQUAL(slow, &w->causes[0]); /* the largest first */
	CU_ASSERT_EQUAL(slow->short_ns, 8 * MS);
	CU_ASSERT_EQUAL(slow->long_ns, 8 * MS);
	CU_ASSERT_EQUAL(work->short_ns, 4 * MS);
	CU_ASSERT_EQUAL(work->long_ns, 0);
	/* C's own stage_work took no longer than B's: it is no cause. */
	CU_ASSERT_PTR_NULL(cause(w, c, 1, 0));
	for (size_t i = 0; i < w->ncauses; i++)
		sum += w->causes[i].short_ns + w->causes[i].long_ns;
	CU_ASSERT(llabs(sum - w->total_wait_ns) <= w->total_wait_ns / 100);
	pvmmon_waits_cause_name(name, sizeof(name), log, slow);
	CU_ASSERT_STRING_EQUAL(name, "0.2 slow_part");
	pvmmon_waits_free(w);
	pvmmon_log_free(log);
}

/*
 * A (tid 1) receives B's (tid 2) message first, then C's (tid 3). C sends at 1 ms
 * (arriving 0.5 ms later); A asks for B's at 2 ms and waits 8 ms for B's send at 10 ms,
 * then takes C's at 10 ms without waiting: a wait in the wrong order. With C's send at
 * 11 ms instead (after B's), the same wait is a plain late sender's.
 */
static pvmmon_log *order_log(int64_t c_sends)
{
	pvmmon_log *log = new_log(NULL, 0);
	size_t a = task(log, 1, "0", 0, 13 * MS), b = task(log, 2, "0.1", 0, 10 * MS),
	       c = task(log, 3, "0.2", 0, c_sends);

	stmt(log, a, 0, "pvm_recv", "a.c", 10);
	stmt(log, a, 1, "pvm_recv", "a.c", 11);
	stmt(log, b, 0, "pvm_send", "b.c", 20);
	stmt(log, c, 0, "pvm_send", "c.c", 30);
	recv(log, a, 0, 2, 0, 2 * MS, 8 * MS, 0);
	if (c_sends < 10 * MS)
		recv(log, a, 1, 3, 0, 10 * MS, 0, MS / 2);
	else
		recv(log, a, 1, 3, 0, 10 * MS, c_sends + MS / 2 - 10 * MS, MS / 2);
	send(log, b, 0, 1, 0, 10 * MS);
	send(log, c, 0, 1, 0, c_sends);
	return log;
}

static void test_wrong_order(void)
{
	pvmmon_log *log = order_log(1 * MS);
	pvmmon_waits *w = compute(log);
	pvmmon_wait_cause b_work = {1, -1, 0, 0, 0};
	int64_t ns = -1;

	CU_ASSERT_EQUAL_FATAL(w->nstates, 1);
	CU_ASSERT_EQUAL(w->states[0].from, 1);
	CU_ASSERT_EQUAL(w->states[0].kind, PVMMON_WAIT_WRONG_ORDER);
	CU_ASSERT_EQUAL(w->wrong_order_ns, 8 * MS);
	CU_ASSERT_EQUAL(w->late_sender_ns, 0);
	CU_ASSERT_EQUAL(w->total_wait_ns, 8 * MS);
	/* The replay gives C's queued message its transmission (0.5 ms), not the 9 ms it
	 * lay in the queue, and reproduces the run. */
	CU_ASSERT_EQUAL(pvmmon_waits_predict(&ns, log, NULL, 0), 0);
	CU_ASSERT_EQUAL(ns, 13 * MS);
	CU_ASSERT_EQUAL(w->runtime_ns, 13 * MS);
	/* B's 10 ms gone: its message is there at 0, A takes it at 2 ms and C's (there
	 * since 1.5 ms) at once, and ends 3 ms later, at 5 ms. */
	CU_ASSERT_EQUAL(pvmmon_waits_predict(&ns, log, &b_work, 100), 0);
	CU_ASSERT_EQUAL(ns, 5 * MS);
	pvmmon_waits_free(w);
	pvmmon_log_free(log);

	/* C sends after B: A's first wait was a late sender's, its second (1.5 ms, for C
	 * at 11 ms + 0.5 ms) too. */
	log = order_log(11 * MS);
	w = compute(log);
	CU_ASSERT_EQUAL_FATAL(w->nstates, 2);
	CU_ASSERT_EQUAL(w->states[0].kind, PVMMON_WAIT_LATE_SENDER);
	CU_ASSERT_EQUAL(w->states[1].kind, PVMMON_WAIT_LATE_SENDER);
	CU_ASSERT_EQUAL(w->wrong_order_ns, 0);
	CU_ASSERT_EQUAL(w->late_sender_ns, 8 * MS + 3 * MS / 2);
	pvmmon_waits_free(w);
	pvmmon_log_free(log);
}

/*
 * Efficiency of the late-sender run: A's useful time is 12 - 8 = 4 ms, B's 11 ms; the
 * run 12 ms. With free messages nothing changes (B's message came as it was sent), so
 * the transfer is 1 and all the loss is serialisation.
 */
static void test_efficiency(void)
{
	pvmmon_log *log = late_sender_log();
	pvmmon_waits *w = compute(log);

	CU_ASSERT_EQUAL(w->runtime_ns, 12 * MS);
	CU_ASSERT_EQUAL(w->useful_max_ns, 11 * MS);
	CU_ASSERT_EQUAL(w->useful_avg_ns, 15 * MS / 2);
	CU_ASSERT_EQUAL(w->ideal_ns, 12 * MS);
	CU_ASSERT_DOUBLE_EQUAL(w->load_balance,
	                       (double)w->useful_avg_ns / (double)w->useful_max_ns, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(w->load_balance, 7.5 / 11, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(w->comm_efficiency, 11.0 / 12, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(w->parallel_efficiency, w->load_balance * w->comm_efficiency, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(w->comm_efficiency, w->serialisation * w->transfer, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(w->transfer, 1.0, 1e-9);
	pvmmon_waits_free(w);
	pvmmon_log_free(log);
}

/*
 * A slow network: B sends at 2 ms and ends at 3 ms; its message takes 8 ms (transmission
 * 8 ms), so A, asking at 2 ms, waits until 10 ms and ends at 12 ms. Free messages: A
 * gets it at 2 ms and ends at 4 ms. The run: 12 ms, ideal 4 ms; useful max is A's 4 ms.
 * Transfer is 1/3, serialisation 1.
 */
static void test_efficiency_transfer(void)
{
	pvmmon_log *log = new_log(NULL, 0);
	size_t a = task(log, 1, "0", 0, 12 * MS), b = task(log, 2, "0.1", 0, 3 * MS);
	pvmmon_waits *w;

	stmt(log, a, 0, "pvm_recv", "a.c", 10);
	stmt(log, b, 0, "pvm_send", "b.c", 20);
	recv(log, a, 0, 2, 0, 2 * MS, 8 * MS, 8 * MS);
	send(log, b, 0, 1, 0, 2 * MS);
	w = compute(log);
	CU_ASSERT_EQUAL(w->runtime_ns, 12 * MS);
	CU_ASSERT_EQUAL(w->ideal_ns, 4 * MS);
	CU_ASSERT(w->ideal_ns < w->runtime_ns);
	CU_ASSERT_EQUAL(w->useful_max_ns, 4 * MS);
	CU_ASSERT_EQUAL(w->useful_avg_ns, 7 * MS / 2);
	CU_ASSERT_DOUBLE_EQUAL(w->transfer, 1.0 / 3, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(w->serialisation, 1.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(w->load_balance,
	                       (double)w->useful_avg_ns / (double)w->useful_max_ns, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(w->parallel_efficiency, w->load_balance * w->comm_efficiency, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(w->comm_efficiency, w->serialisation * w->transfer, 1e-9);
	/* No sender's computation was in excess: the message is charged to the segment of
	 * its send. */
	CU_ASSERT_EQUAL_FATAL(w->ncauses, 1);
	CU_ASSERT_EQUAL(w->causes[0].task, b);
	CU_ASSERT_EQUAL(w->causes[0].stmt, 0);
	CU_ASSERT_EQUAL(w->causes[0].short_ns, 8 * MS);
	pvmmon_waits_free(w);
	pvmmon_log_free(log);
}

/*
 * The late-sender run predicted with B's computation before its send (10 ms) faster:
 * 0% replays the run (12 ms); 50%: B sends at 5 ms, A gets it then and ends 2 ms later,
 * at 7 ms; 100%: B sends at 0, A receives at 2 ms without waiting and ends at 4 ms: the
 * run is shorter by A's whole wait of 8 ms. A cause that made nobody wait (A's own
 * computation after its receive) changes the run by what it takes off A's end.
 */
static void test_predict(void)
{
	pvmmon_log *log = late_sender_log();
	pvmmon_waits *w = compute(log);
	pvmmon_wait_cause other = {0, -1, UINT32_MAX, 0, 0};
	int64_t ns = -1;

	CU_ASSERT_EQUAL_FATAL(w->ncauses, 1);
	CU_ASSERT_EQUAL(pvmmon_waits_predict(&ns, log, &w->causes[0], 0), 0);
	CU_ASSERT_EQUAL(ns, w->runtime_ns);
	CU_ASSERT_EQUAL(ns, 12 * MS);
	CU_ASSERT_EQUAL(pvmmon_waits_predict(&ns, log, NULL, 0), 0);
	CU_ASSERT_EQUAL(ns, 12 * MS);
	CU_ASSERT_EQUAL(pvmmon_waits_predict(&ns, log, &w->causes[0], 50), 0);
	CU_ASSERT_EQUAL(ns, 7 * MS);
	CU_ASSERT_EQUAL(pvmmon_waits_predict(&ns, log, &w->causes[0], 100), 0);
	CU_ASSERT_EQUAL(ns, 12 * MS - 8 * MS);
	/* A's last 2 ms gone: A ends at 10 ms, B at 11 ms. */
	CU_ASSERT_EQUAL(pvmmon_waits_predict(&ns, log, &other, 100), 0);
	CU_ASSERT_EQUAL(ns, 11 * MS);
	CU_ASSERT_EQUAL(pvmmon_waits_predict(&ns, log, &w->causes[0], 101), PVMMON_EINVAL);
	CU_ASSERT_EQUAL(pvmmon_waits_predict(&ns, log, &w->causes[0], -1), PVMMON_EINVAL);
	pvmmon_waits_free(w);
	pvmmon_log_free(log);
}

/* The pipeline's slow_part gone: C sends at 2 ms, B waits for nothing and sends at 4 ms,
 * A ends at 4 ms; the run was 12 ms. */
static void test_predict_pipeline(void)
{
	static const char *const procs[] = {"slow_part", "stage_work"};
	pvmmon_log *log = new_log(procs, 2);
	size_t a = task(log, 1, "0", 0, 12 * MS), b = task(log, 2, "0.1", 0, 12 * MS),
	       c = task(log, 3, "0.2", 0, 10 * MS);
	pvmmon_wait_cause slow = {c, 0, 0, 0, 0};
	int64_t ns = -1;

	pipeline_events(log, a, b, c);
	CU_ASSERT_EQUAL(pvmmon_waits_predict(&ns, log, &slow, 0), 0);
	CU_ASSERT_EQUAL(ns, 12 * MS);
	CU_ASSERT_EQUAL(pvmmon_waits_predict(&ns, log, &slow, 100), 0);
	CU_ASSERT_EQUAL(ns, 4 * MS);
	CU_ASSERT_EQUAL(pvmmon_waits_predict(&ns, log, &slow, 50), 0);
	CU_ASSERT_EQUAL(ns, 8 * MS);
	pvmmon_log_free(log);
}

/*
 * Statement ids are each task's own (in the order its call sites first ran), so a
 * segment of the sender is matched with the receiver's segment before the same call
 * site, not the same id. A and B both compute 6 ms and call pvm_bufinfo at w.c:5; A
 * then receives (w.c:12) and waits 4 ms while B computes 4 ms more and sends (w.c:9).
 * B's excess is its 4 ms before the send, whichever ids A's statements have.
 */
static void test_segments_by_call_site(void)
{
	for (int swap = 0; swap < 2; swap++) {
		pvmmon_log *log = new_log(NULL, 0);
		size_t a = task(log, 1, "0", 0, 10 * MS), b = task(log, 2, "0.1", 0, 10 * MS);
		uint32_t info = swap ? 1 : 0, rcv = swap ? 0 : 1;
		const pvmmon_wait_cause *c;
		pvmmon_waits *w;

		stmt(log, a, info, "pvm_bufinfo", "w.c", 5);
		stmt(log, a, rcv, "pvm_recv", "w.c", 12);
		stmt(log, b, 0, "pvm_bufinfo", "w.c", 5);
		stmt(log, b, 1, "pvm_send", "w.c", 9);
		event(log, a, PVMMON_EV_OTHER, info, 6 * MS, 6 * MS);
		recv(log, a, rcv, 2, 0, 6 * MS, 4 * MS, 0);
		event(log, b, PVMMON_EV_OTHER, 0, 6 * MS, 6 * MS);
		send(log, b, 1, 1, 0, 10 * MS);
		w = compute(log);
		CU_ASSERT_EQUAL_FATAL(w->ncauses, 1);
		c = cause(w, b, -1, 1);
		CU_ASSERT_PTR_NOT_NULL(c);
		CU_ASSERT(c && c->short_ns == 4 * MS);
		pvmmon_waits_free(w);
		pvmmon_log_free(log);
	}
}

/*
 * Different programs whose statements happen to have the same ids: B computes 6 ms
 * before pvm_bufinfo (b.c:5, its statement 0) and 4 ms before its send (b.c:9); A
 * computes 6 ms before its receive (a.c:12, its statement 0), which waits 4 ms. A
 * spent no time in B's segments: B's excess is all its 10 ms, so the wait is shared
 * 6:4 between them.
 */
static void test_segments_other_program(void)
{
	pvmmon_log *log = new_log(NULL, 0);
	size_t a = task(log, 1, "0", 0, 10 * MS), b = task(log, 2, "0.1", 0, 10 * MS);
	const pvmmon_wait_cause *c0, *c1;
	pvmmon_waits *w;

	stmt(log, a, 0, "pvm_recv", "a.c", 12);
	stmt(log, b, 0, "pvm_bufinfo", "b.c", 5);
	stmt(log, b, 1, "pvm_send", "b.c", 9);
	recv(log, a, 0, 2, 0, 6 * MS, 4 * MS, 0);
	event(log, b, PVMMON_EV_OTHER, 0, 6 * MS, 6 * MS);
	send(log, b, 1, 1, 0, 10 * MS);
	w = compute(log);
	c0 = cause(w, b, -1, 0);
	c1 = cause(w, b, -1, 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c1);
	CU_ASSERT(llabs(c0->short_ns - 24 * MS / 10) <= 1000);
	CU_ASSERT(llabs(c1->short_ns - 16 * MS / 10) <= 1000);
	pvmmon_waits_free(w);
	pvmmon_log_free(log);
}

static char *report(const pvmmon_log *log, int *rc)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);

	CU_ASSERT_PTR_NOT_NULL_FATAL(mem);
	*rc = pvmmon_waits_report(log, mem);
	fclose(mem);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	return text;
}

static void test_report(void)
{
	pvmmon_log *log = late_sender_log();
	pvmmon_waits *w = compute(log);
	char name[256], *text;
	int rc = -1;

	CU_ASSERT_EQUAL_FATAL(w->ncauses, 1);
	pvmmon_waits_cause_name(name, sizeof(name), log, &w->causes[0]);
	CU_ASSERT_STRING_EQUAL(name, "0.1 before b.c:20");
	text = report(log, &rc);
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "Why tasks wait"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, name));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "in 1 receives"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "a.c:10"));
	free(text);
	pvmmon_waits_free(w);

	/* Untraced: no section, and the analysis says why it cannot run. */
	log->trace.enabled = 0;
	text = report(log, &rc);
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_STRING_EQUAL(text, "");
	free(text);
	w = (pvmmon_waits *)1;
	CU_ASSERT_EQUAL(pvmmon_waits_compute(&w, log), PVMMON_EINVAL);
	CU_ASSERT_PTR_NULL(w);
	CU_ASSERT_PTR_NOT_NULL(strstr(pvmmon_error_last(), "trace"));
	/* A cut trace is no whole trace either. */
	log->trace.enabled = 1;
	log->trace.dropped = 3;
	CU_ASSERT_EQUAL(pvmmon_waits_compute(&w, log), PVMMON_EINVAL);
	CU_ASSERT_PTR_NULL(w);
	pvmmon_log_free(log);
}

/* The other cause names: a procedure's, and a task's computation to its end. */
static void test_cause_names(void)
{
	static const char *const procs[] = {"slow_part"};
	pvmmon_log *log = new_log(procs, 1);
	pvmmon_wait_cause p = {0, 0, 0, 0, 0}, end = {0, -1, UINT32_MAX, 0, 0};
	char name[64];

	task(log, 1, "0.3", 0, MS);
	pvmmon_waits_cause_name(name, sizeof(name), log, &p);
	CU_ASSERT_STRING_EQUAL(name, "0.3 slow_part");
	pvmmon_waits_cause_name(name, sizeof(name), log, &end);
	CU_ASSERT_STRING_EQUAL(name, "0.3 to its end");
	pvmmon_log_free(log);
}

/*
 * A message on a network of one's choosing. The slow-network run of
 * test_efficiency_transfer with 1000 bytes in B's message: L = 1000 us and B = 1 MB/s
 * make it cost 1 ms + 1000 bytes / (1 byte/us) = 2 ms, so A receives at 4 ms and ends at
 * 6 ms; L alone (unlimited bandwidth is no option, so 10^6 MB/s: 1 ns) ends at 5 ms; the
 * ideal network at 4 ms, what ideal_ns says; lat_ns < 0 replays the measured 8 ms. The
 * bytes are the send's, or the receive's where the send has none.
 */
static pvmmon_log *net_log(uint32_t send_bytes, uint32_t recv_bytes)
{
	pvmmon_log *log = new_log(NULL, 0);
	size_t a = task(log, 1, "0", 0, 12 * MS), b = task(log, 2, "0.1", 0, 3 * MS);

	stmt(log, a, 0, "pvm_recv", "a.c", 10);
	stmt(log, b, 0, "pvm_send", "b.c", 20);
	recv(log, a, 0, 2, 0, 2 * MS, 8 * MS, 8 * MS);
	log->tasks[a].events[0].bytes = recv_bytes;
	send(log, b, 0, 1, 0, 2 * MS);
	log->tasks[b].events[0].bytes = send_bytes;
	return log;
}

static void test_predict_network(void)
{
	pvmmon_log *log = net_log(1000, 0);
	pvmmon_waits *w = compute(log);
	int64_t ns = -1, lat = -1;
	double bpns = -1;

	CU_ASSERT_EQUAL(pvmmon_waits_parse_network("--network", "1000,1", &lat, &bpns), 0);
	CU_ASSERT_EQUAL(lat, 1000000);
	CU_ASSERT_DOUBLE_EQUAL(bpns, 0.001, 1e-15);
	CU_ASSERT_EQUAL(pvmmon_waits_predict_net(&ns, log, NULL, 0, lat, bpns), 0);
	CU_ASSERT_EQUAL(ns, 6 * MS);
	CU_ASSERT_EQUAL(pvmmon_waits_predict_net(&ns, log, NULL, 0, 1000000, 1e3), 0);
	CU_ASSERT_EQUAL(ns, 5 * MS + 1);
	CU_ASSERT_EQUAL(pvmmon_waits_parse_network("--network", "ideal", &lat, &bpns), 0);
	CU_ASSERT_EQUAL(pvmmon_waits_predict_net(&ns, log, NULL, 0, lat, bpns), 0);
	CU_ASSERT_EQUAL(ns, 4 * MS);
	CU_ASSERT_EQUAL(ns, w->ideal_ns);
	CU_ASSERT_EQUAL(pvmmon_waits_predict_net(&ns, log, NULL, 0, -1, 0), 0);
	CU_ASSERT_EQUAL(ns, 12 * MS);
	CU_ASSERT_EQUAL(ns, w->runtime_ns);
	CU_ASSERT_EQUAL(pvmmon_waits_predict_net(&ns, log, NULL, 101, 0, 0), PVMMON_EINVAL);
	pvmmon_waits_free(w);
	pvmmon_log_free(log);
	/* The receive's bytes where the send has none. */
	log = net_log(0, 1000);
	CU_ASSERT_EQUAL(pvmmon_waits_predict_net(&ns, log, NULL, 0, 1000000, 0.001), 0);
	CU_ASSERT_EQUAL(ns, 6 * MS);
	pvmmon_log_free(log);
}

/* --network values: the forms taken, and every bad one refused naming the option. */
static void test_parse_network(void)
{
	static const char *const bad[] = {"", "5", "a,1", "1,", ",1", "-1,1", "1,0", "1,-1",
	                                  "1,inf", "nan,1", "1,2x", "1 ,2", "1,2,3", "ideals"};
	int64_t lat = -1;
	double bpns = -1;

	CU_ASSERT_EQUAL(pvmmon_waits_parse_network("--network", "ideal", &lat, &bpns), 0);
	CU_ASSERT_EQUAL(lat, 0);
	CU_ASSERT_DOUBLE_EQUAL(bpns, 0, 0);
	CU_ASSERT_EQUAL(pvmmon_waits_parse_network("--network", "2.5,100", &lat, &bpns), 0);
	CU_ASSERT_EQUAL(lat, 2500);
	CU_ASSERT_DOUBLE_EQUAL(bpns, 0.1, 1e-12);
	CU_ASSERT_EQUAL(pvmmon_waits_parse_network("--network", "0,1e4", &lat, &bpns), 0);
	CU_ASSERT_EQUAL(lat, 0);
	CU_ASSERT_DOUBLE_EQUAL(bpns, 10, 1e-12);
	CU_ASSERT_EQUAL(pvmmon_waits_parse_network("--network", NULL, &lat, &bpns), PVMMON_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(pvmmon_error_last(), "--network"));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CU_ASSERT_EQUAL(pvmmon_waits_parse_network("--network", bad[i], &lat, &bpns),
		                PVMMON_EINVAL);
		CU_ASSERT_PTR_NOT_NULL(strstr(pvmmon_error_last(), "--network"));
	}
}

/*
 * The curve of the pipeline's slow_part (8 ms; see test_predict_pipeline): p = 0 is the
 * replayed run (12 ms), each 10% takes 0.8 ms off C's send and so off the run, to 4 ms
 * at 100%; never longer when faster, on the measured network and on a slow one (each
 * message 1 ms more: two in the chain, 2 ms more at every point).
 */
static void test_curve(void)
{
	static const char *const procs[] = {"slow_part", "stage_work"};
	pvmmon_log *log = new_log(procs, 2);
	size_t a = task(log, 1, "0", 0, 12 * MS), b = task(log, 2, "0.1", 0, 12 * MS),
	       c = task(log, 3, "0.2", 0, 10 * MS);
	pvmmon_wait_cause slow = {c, 0, 0, 0, 0};
	int64_t ns[PVMMON_WAITS_CURVE], slow_net[PVMMON_WAITS_CURVE], one = -1;

	pipeline_events(log, a, b, c);
	CU_ASSERT_EQUAL(pvmmon_waits_curve(ns, log, &slow, -1, 0), 0);
	CU_ASSERT_EQUAL(pvmmon_waits_predict(&one, log, &slow, 0), 0);
	CU_ASSERT_EQUAL(ns[0], one);
	CU_ASSERT_EQUAL(ns[0], 12 * MS);
	for (int k = 0; k < PVMMON_WAITS_CURVE; k++) {
		CU_ASSERT_EQUAL(ns[k], 12 * MS - k * 8 * MS / 10);
		CU_ASSERT_EQUAL(pvmmon_waits_predict(&one, log, &slow, 10 * k), 0);
		CU_ASSERT_EQUAL(ns[k], one);
		if (k)
			CU_ASSERT(ns[k] <= ns[k - 1]);
	}
	CU_ASSERT_EQUAL(pvmmon_waits_curve(slow_net, log, &slow, MS, 0), 0);
	for (int k = 0; k < PVMMON_WAITS_CURVE; k++) {
		CU_ASSERT_EQUAL(slow_net[k], ns[k] + 2 * MS);
		if (k)
			CU_ASSERT(slow_net[k] <= slow_net[k - 1]);
	}
	pvmmon_log_free(log);
}

/*
 * All of a task's computation faster (PVMMON_WAIT_ALL_COMPUTATION): in the late-sender
 * run B computes 10 ms before its send and 1 ms after. 50%: B sends at 5 ms, A ends at
 * 7 ms; 100%: B sends at 0, A receives at 2 ms and ends at 4 ms. A's all: its 2 ms
 * before the receive and 2 ms after gone, A ends at 10 ms, B at 11 ms.
 */
static void test_predict_task(void)
{
	pvmmon_log *log = late_sender_log();
	pvmmon_wait_cause b_all = {1, PVMMON_WAIT_ALL_COMPUTATION, 0, 0, 0},
	                  a_all = {0, PVMMON_WAIT_ALL_COMPUTATION, 0, 0, 0};
	int64_t ns = -1;
	char name[64];

	CU_ASSERT_EQUAL(pvmmon_waits_predict(&ns, log, &b_all, 50), 0);
	CU_ASSERT_EQUAL(ns, 7 * MS);
	CU_ASSERT_EQUAL(pvmmon_waits_predict(&ns, log, &b_all, 100), 0);
	CU_ASSERT_EQUAL(ns, 4 * MS);
	CU_ASSERT_EQUAL(pvmmon_waits_predict(&ns, log, &a_all, 100), 0);
	CU_ASSERT_EQUAL(ns, 11 * MS);
	pvmmon_waits_cause_name(name, sizeof(name), log, &b_all);
	CU_ASSERT_STRING_EQUAL(name, "0.1 all its computation");
	pvmmon_log_free(log);
}

/* The report's curve table: a line for the cause, its points in ms, 0% first. */
static void test_report_curve(void)
{
	pvmmon_log *log = late_sender_log();
	char *text;
	int rc = -1;
	const char *row;

	text = report(log, &rc);
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "run (ms) if faster by"));
	row = strstr(text, "\n  0.1 before b.c:20               ");
	CU_ASSERT_PTR_NOT_NULL(row);
	/* 12 ms at 0%, 7 ms at 50%, 4 ms at 100% (test_predict). */
	CU_ASSERT(row && strstr(row, "    12.0    11.0    10.0     9.0     8.0     7.0     6.0 "
	                             "    5.0     4.0     4.0     4.0\n") != NULL);
	free(text);
	pvmmon_log_free(log);
}

/* Task ti's pvm_barrier call (statement 0): its request to the group server (tid 99, not
 * a task of the log) at a, and the answer that releases it at b. */
static void barrier_call(pvmmon_log *log, size_t ti, int64_t a, int64_t b)
{
	event(log, ti, PVMMON_EV_SEND, 0, a, a);
	event(log, ti, PVMMON_EV_TRECV, 0, a, b)->peer = 99;
}

/*
 * Members A (0.0), B (0.1) and L (0.2) meet twice at b.c:10's barrier; the master M (0)
 * then waits for A's message. First barrier: A arrives at 1 ms, B at 2, L at 3, all
 * released at 4: L came last, A waited 3 - 1 = 2 ms (its time in the call less L's),
 * B 1 ms. Second: A and B compute 2 ms and arrive at 6, L computes 7 ms and arrives at
 * 11, all released at 12: A and B wait 5 ms each. A sends (a.c:20) at 12 to M, which
 * waited from 0: 12 ms, of which A's barrier waits (7 ms) pass on to L.
 */
static pvmmon_log *barrier_log(void)
{
	pvmmon_log *log = new_log(NULL, 0);
	size_t m = task(log, 9, "0", 0, 13 * MS), a = task(log, 1, "0.0", 0, 13 * MS),
	       b = task(log, 2, "0.1", 0, 13 * MS), l = task(log, 3, "0.2", 0, 13 * MS);

	stmt(log, m, 0, "pvm_recv", "m.c", 5);
	for (size_t t = a; t <= l; t++)
		stmt(log, t, 0, "pvm_barrier", "b.c", 10);
	stmt(log, a, 1, "pvm_send", "a.c", 20);
	recv(log, m, 0, 1, 0, 0, 12 * MS, 0);
	barrier_call(log, a, 1 * MS, 4 * MS);
	barrier_call(log, b, 2 * MS, 4 * MS);
	barrier_call(log, l, 3 * MS, 4 * MS);
	barrier_call(log, a, 6 * MS, 12 * MS);
	barrier_call(log, b, 6 * MS, 12 * MS);
	barrier_call(log, l, 11 * MS, 12 * MS);
	send(log, a, 1, 9, 0, 12 * MS);
	return log;
}

static void test_barrier(void)
{
	pvmmon_log *log = barrier_log();
	pvmmon_waits *w = compute(log);
	const pvmmon_wait_cause *lc, *ac;
	int64_t want[2][2] = {{2 * MS, 5 * MS}, {1 * MS, 5 * MS}}; /* A's and B's */
	size_t seen[2] = {0, 0};
	char *text;
	int rc;

	CU_ASSERT_EQUAL_FATAL(w->nstates, 5);
	for (size_t s = 0; s < w->nstates; s++) {
		const pvmmon_wait_state *st = &w->states[s];

		if (st->task == 0) {
			CU_ASSERT_EQUAL(st->kind, PVMMON_WAIT_LATE_SENDER);
			CU_ASSERT_EQUAL(st->wait_ns, 12 * MS);
			CU_ASSERT_EQUAL(st->indirect, 1);
			continue;
		}
		CU_ASSERT_EQUAL(st->kind, PVMMON_WAIT_BARRIER);
		CU_ASSERT_EQUAL(st->from, 3); /* L, the latecomer */
		CU_ASSERT_FATAL(st->task == 1 || st->task == 2);
		/* The state is at the answer's receive: the call's second event. */
		CU_ASSERT_EQUAL(log->tasks[st->task].events[st->event].op, PVMMON_EV_TRECV);
		CU_ASSERT_EQUAL(st->wait_ns, want[st->task - 1][seen[st->task - 1]++]);
		CU_ASSERT_EQUAL(st->indirect, 0);
	}
	CU_ASSERT_EQUAL(seen[0], 2);
	CU_ASSERT_EQUAL(seen[1], 2);
	CU_ASSERT_EQUAL(w->barrier_ns, 13 * MS);
	CU_ASSERT_EQUAL(w->late_sender_ns, 12 * MS);
	CU_ASSERT_EQUAL(w->collective_ns, 0);
	CU_ASSERT_EQUAL(w->total_wait_ns, 25 * MS);
	/* L's computation before the barrier: the barrier waits directly (2 + 1 + 5 + 5 ms,
	 * its excess each time), and 7 of M's 12 ms through A's waits. */
	lc = cause(w, 3, -1, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(lc);
	CU_ASSERT_EQUAL(lc->short_ns, 13 * MS);
	CU_ASSERT_EQUAL(lc->long_ns, 7 * MS);
	CU_ASSERT_PTR_EQUAL(lc, &w->causes[0]);
	/* A's own 5 ms of computation before its calls take the rest of M's wait. */
	ac = cause(w, 1, -1, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(ac);
	CU_ASSERT_EQUAL(ac->short_ns, 5 * MS);
	text = report(log, &rc);
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, ", at barriers 13.00 ms, in collectives 0 ns\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, ", at barriers: latecomer 0.2 in 2 of 2\n"));
	free(text);
	pvmmon_waits_free(w);
	pvmmon_log_free(log);
}

/* A message sent by pvm_bcast that its receiver waited for: a wait in a collective. */
static void test_collective(void)
{
	pvmmon_log *log = late_sender_log();
	pvmmon_waits *w;

	free(log->tasks[1].stmts[0].op);
	CU_ASSERT_PTR_NOT_NULL_FATAL(log->tasks[1].stmts[0].op = strdup("pvm_bcast"));
	w = compute(log);
	CU_ASSERT_EQUAL_FATAL(w->nstates, 1);
	CU_ASSERT_EQUAL(w->states[0].kind, PVMMON_WAIT_COLLECTIVE);
	CU_ASSERT_EQUAL(w->states[0].from, 1);
	CU_ASSERT_EQUAL(w->collective_ns, 8 * MS);
	CU_ASSERT_EQUAL(w->late_sender_ns, 0);
	CU_ASSERT_EQUAL(w->barrier_ns, 0);
	CU_ASSERT_EQUAL(w->total_wait_ns, 8 * MS);
	CU_ASSERT_EQUAL_FATAL(w->ncauses, 1);
	CU_ASSERT_EQUAL(w->causes[0].short_ns, 8 * MS);
	pvmmon_waits_free(w);
	pvmmon_log_free(log);
}

CU_TestInfo test_graphs_waits_tests[] = {
    {"late_sender", test_late_sender},
    {"pipeline_propagates", test_pipeline_propagates},
    {"segments_by_call_site", test_segments_by_call_site},
    {"segments_other_program", test_segments_other_program},
    {"wrong_order", test_wrong_order},
    {"efficiency", test_efficiency},
    {"efficiency_transfer", test_efficiency_transfer},
    {"predict", test_predict},
    {"predict_pipeline", test_predict_pipeline},
    {"report", test_report},
    {"cause_names", test_cause_names},
    {"predict_network", test_predict_network},
    {"parse_network", test_parse_network},
    {"curve", test_curve},
    {"predict_task", test_predict_task},
    {"report_curve", test_report_curve},
    {"barrier", test_barrier},
    {"collective", test_collective},
    CU_TEST_INFO_NULL,
};
