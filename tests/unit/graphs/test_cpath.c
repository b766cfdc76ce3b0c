/*
 * Unit tests for graphs/cpath.c, the offline critical-path oracle: hand-built logs whose
 * longest path, shares and zeroing values are worked out by hand in the comments, whole
 * runs and intervals (pvmmon cp start|stop), and two traced runs, issort
 * (tests/fixtures/cp-issort.xml) and ring with a selection started and stopped while it
 * ran (tests/fixtures/cp-ring-interval.xml), where the oracle must agree with the online
 * profile the tasks computed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "pvmmon/cpath.h"
#include "pvmmon/errors.h"
#include "pvmmon/log.h"

#define CP_ISSORT "tests/fixtures/cp-issort.xml"
#define CP_RING_INTERVAL "tests/fixtures/cp-ring-interval.xml"

/* A traced log of ntasks root tasks (tids 1, 2, ...) with procedures names selected. */
static pvmmon_log *new_log(size_t ntasks, const char *const *names, size_t nnames,
			   int exclusive)
{
	pvmmon_log *log = NULL;

	CU_ASSERT_EQUAL_FATAL(pvmmon_log_new(&log), 0);
	log->trace.enabled = 1;
	log->cp.enabled = 1;
	log->cp.exclusive = exclusive;
	log->cp.to_ns = -1;
	log->cp.nprocs = nnames;
	log->cp.procs = calloc(nnames ? nnames : 1, sizeof(*log->cp.procs));
	for (size_t k = 0; k < nnames; k++)
		log->cp.procs[k].name = strdup(names[k]);
	log->ntasks = ntasks;
	log->tasks = calloc(ntasks, sizeof(*log->tasks));
	for (size_t i = 0; i < ntasks; i++) {
		char lid[24]; /* room for any size_t */

		snprintf(lid, sizeof(lid), "%zu", i);
		log->tasks[i].tid = (int32_t)i + 1;
		log->tasks[i].lid = strdup(lid);
		log->tasks[i].events = calloc(16, sizeof(pvmmon_log_event));
	}
	return log;
}

/* Sets task ti's start and end (virtual). */
static void span(pvmmon_log *log, size_t ti, int64_t start, int64_t end)
{
	log->tasks[ti].start_ns = start;
	log->tasks[ti].end_ns = end;
	log->tasks[ti].virtual_ns = end - start;
}

static pvmmon_log_event *add(pvmmon_log *log, size_t ti, pvmmon_event_op op, int64_t vt)
{
	pvmmon_log_task *t = &log->tasks[ti];
	pvmmon_log_event *e = &t->events[t->nevents++];

	memset(e, 0, sizeof(*e));
	e->op = op;
	e->seq = -1;
	e->vt0 = e->vt1 = vt;
	for (int i = 0; i < 4; i++)
		e->rt[i] = vt;
	return e;
}

static void proc(pvmmon_log *log, size_t ti, int enter, int k, int64_t vt)
{
	add(log, ti, enter ? PVMMON_EV_ENTER : PVMMON_EV_EXIT, vt)->tag = k;
}

static void send(pvmmon_log *log, size_t ti, int32_t to, int64_t seq, int64_t vt)
{
	pvmmon_log_event *e = add(log, ti, PVMMON_EV_SEND, vt);

	e->peer = to;
	e->seq = seq;
}

static void recv(pvmmon_log *log, size_t ti, int32_t from, int64_t seq, int64_t vt, int64_t sync,
		 int64_t trans)
{
	pvmmon_log_event *e = add(log, ti, PVMMON_EV_RECV, vt);

	e->peer = from;
	e->seq = seq;
	e->sync = sync;
	e->trans = trans;
	e->vt1 = vt + sync;
}

/* Task ti starts (CPSTART, tag: the selection's generation) or stops collecting. Logs
 * do not keep a stop's generation, so stops carry 0 as read back. */
static void collect(pvmmon_log *log, size_t ti, int start, int32_t gen, int64_t vt)
{
	add(log, ti, start ? PVMMON_EV_CPSTART : PVMMON_EV_CPSTOP, vt)->tag = start ? gen : 0;
}

/* Makes log's selection generation gen, collected from real time from to to (-1: the
 * end). */
static void interval(pvmmon_log *log, uint32_t gen, int64_t from, int64_t to)
{
	log->cp.generation = gen;
	log->cp.from_ns = from;
	log->cp.to_ns = to;
}

static pvmmon_cpath *compute(const pvmmon_log *log)
{
	pvmmon_cpath *cp = NULL;

	CU_ASSERT_EQUAL_FATAL(pvmmon_cpath_compute(&cp, log), 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(cp);
	return cp;
}

static const char *const P[] = {"P", "Q"};

/*
 * A (tid 1): start 0, P from 0 to 10, sends to B at 10, ends at 12.
 * B (tid 2): start 0, receives at 5 (waits 10, transmission 2), ends at 18.
 * Into B's receive: local 5, message 10 + 2 = 12: the message wins. B's end: 12 + (18 -
 * 15) = 15; A's end: 12. The path switches from A to B: length 15, P's share 10. With P
 * weighing nothing: A's send is at 0, so B's receive is max(5, 0 + 2) = 5 and B ends at
 * 8: zeroing 15 - 8 = 7, less than the share, because B's own path was near-critical.
 */
static void test_remote_path_longer(void)
{
	pvmmon_log *log = new_log(2, P, 1, 0);
	pvmmon_cpath *cp;

	span(log, 0, 0, 12);
	proc(log, 0, 1, 0, 0);
	proc(log, 0, 0, 0, 10);
	send(log, 0, 2, 0, 10);
	span(log, 1, 0, 18);
	recv(log, 1, 1, 0, 5, 10, 2);
	cp = compute(log);
	CU_ASSERT_EQUAL(cp->length_ns, 15);
	CU_ASSERT_EQUAL(cp->end_tid, 2);
	CU_ASSERT_EQUAL(cp->end_task, 1);
	CU_ASSERT_EQUAL(cp->share_ns[0], 10);
	CU_ASSERT_EQUAL(cp->zero_ns[0], 7);
	/* A's start, enter, exit, send; B's receive (by the message) and end. */
	CU_ASSERT_EQUAL_FATAL(cp->npath, 6);
	CU_ASSERT_EQUAL(cp->path[0].kind, PVMMON_CPATH_START);
	CU_ASSERT_EQUAL(cp->path[0].via, PVMMON_CPATH_VIA_NONE);
	CU_ASSERT_EQUAL(cp->path[3].kind, PVMMON_CPATH_SEND);
	CU_ASSERT_EQUAL(cp->path[4].kind, PVMMON_CPATH_RECV);
	CU_ASSERT_EQUAL(cp->path[4].via, PVMMON_CPATH_VIA_MESSAGE);
	CU_ASSERT_EQUAL(cp->path[4].task, 1);
	CU_ASSERT_EQUAL(cp->path[4].L, 12);
	CU_ASSERT_EQUAL(cp->path[5].kind, PVMMON_CPATH_END);
	CU_ASSERT_EQUAL(cp->path[5].L, 15);
	CU_ASSERT_EQUAL(cp->nnodes, 8);
	CU_ASSERT_EQUAL(cp->narcs, 7);
	pvmmon_cpath_free(cp);
	pvmmon_log_free(log);
}

/*
 * As above, but B's receive starts at 13 and waits 1: local 13 beats the message's 12.
 * B's end: 13 + (30 - 14) = 29 (the wait is not work: 30 would count it). P is not on
 * the path. With the receive at 12 the two arcs tie and the local one wins.
 */
static void test_local_path_longer(void)
{
	for (int tie = 0; tie < 2; tie++) {
		pvmmon_log *log = new_log(2, P, 1, 0);
		pvmmon_cpath *cp;

		span(log, 0, 0, 12);
		proc(log, 0, 1, 0, 0);
		proc(log, 0, 0, 0, 10);
		send(log, 0, 2, 0, 10);
		span(log, 1, 0, 30);
		recv(log, 1, 1, 0, tie ? 12 : 13, tie ? 2 : 1, 2);
		cp = compute(log);
		CU_ASSERT_EQUAL(cp->length_ns, tie ? 28 : 29);
		CU_ASSERT_EQUAL(cp->end_tid, 2);
		CU_ASSERT_EQUAL(cp->share_ns[0], 0);
		CU_ASSERT_EQUAL(cp->zero_ns[0], 0);
		CU_ASSERT_EQUAL_FATAL(cp->npath, 3);
		CU_ASSERT_EQUAL(cp->path[1].via, PVMMON_CPATH_VIA_LOCAL);
		CU_ASSERT_EQUAL(cp->path[1].resume, 14);
		pvmmon_cpath_free(cp);
		pvmmon_log_free(log);
	}
}

/*
 * One task, 0 to 100: P open from 10 to 60, Q (inside P) from 20 to 50, and in
 * exclusive mode a procedure not selected (tag -1) inside Q from 30 to 40.
 * Inclusive: P 50, Q 30. Exclusive: P 10 + 10 = 20, Q 10 + 10 = 20.
 */
static void test_inclusive_and_exclusive(void)
{
	for (int excl = 0; excl < 2; excl++) {
		pvmmon_log *log = new_log(1, P, 2, excl);
		pvmmon_cpath *cp;

		span(log, 0, 0, 100);
		proc(log, 0, 1, 0, 10);
		proc(log, 0, 1, 1, 20);
		if (excl)
			proc(log, 0, 1, -1, 30);
		if (excl)
			proc(log, 0, 0, -1, 40);
		proc(log, 0, 0, 1, 50);
		proc(log, 0, 0, 0, 60);
		cp = compute(log);
		CU_ASSERT_EQUAL(cp->length_ns, 100);
		CU_ASSERT_EQUAL(cp->exclusive, excl);
		CU_ASSERT_EQUAL(cp->share_ns[0], excl ? 20 : 50);
		CU_ASSERT_EQUAL(cp->share_ns[1], excl ? 20 : 30);
		/* One task: the path is the task, so zeroing takes out the whole share. */
		CU_ASSERT_EQUAL(cp->zero_ns[0], cp->share_ns[0]);
		CU_ASSERT_EQUAL(cp->zero_ns[1], cp->share_ns[1]);
		pvmmon_cpath_free(cp);
		pvmmon_log_free(log);
	}
}

/*
 * The Ocean example's shape: two workers run P (100 and 90) and send to the master,
 * which waits for both and ends 9 later. W1 (tid 2): P 0-100, send at 100. W2 (tid 3): P
 * 0-90, send at 95. Master (tid 1): receive from W1 at 1 (waits 100, trans 1), from W2 at
 * 101 (trans 1), ends at 110. Path: W1 → master, length 101 + 9 = 110, P's share 100.
 * Without P: W1's message arrives at 1, W2's at 5 + 1 = 6, the master ends at 15: zeroing
 * 95, less than the share, because W2 is nearly as long.
 */
static void test_zeroing_with_near_critical_path(void)
{
	pvmmon_log *log = new_log(3, P, 1, 0);
	pvmmon_cpath *cp;

	span(log, 0, 0, 110);
	recv(log, 0, 2, 0, 1, 100, 1);
	recv(log, 0, 3, 0, 101, 0, 1);
	span(log, 1, 0, 101);
	proc(log, 1, 1, 0, 0);
	proc(log, 1, 0, 0, 100);
	send(log, 1, 1, 0, 100);
	span(log, 2, 0, 96);
	proc(log, 2, 1, 0, 0);
	proc(log, 2, 0, 0, 90);
	send(log, 2, 1, 0, 95);
	cp = compute(log);
	CU_ASSERT_EQUAL(cp->length_ns, 110);
	CU_ASSERT_EQUAL(cp->end_tid, 1);
	CU_ASSERT_EQUAL(cp->share_ns[0], 100);
	CU_ASSERT_EQUAL(cp->zero_ns[0], 95);
	CU_ASSERT(cp->zero_ns[0] < cp->share_ns[0]);
	pvmmon_cpath_free(cp);
	pvmmon_log_free(log);
}

/*
 * A parent (tid 1, 0 to 30) spawns a child at 10; the real call runs from 11 to 15, so
 * the spawn node is at 10 + (15 - 10) = 15. The child (tid 2) starts at 20: the spawn
 * arc weighs 5. It runs Q from 20 to 50 and ends at 60. Path: parent 0-15, spawn arc,
 * child 20-60: length 15 + 5 + 40 = 60, Q's share 30; without Q the child ends at 30
 * and the parent at 30: zeroing 30.
 */
static void test_spawn_arc(void)
{
	pvmmon_log *log = new_log(2, P, 2, 0);
	pvmmon_log_event *e;
	pvmmon_cpath *cp;

	span(log, 0, 0, 30);
	e = add(log, 0, PVMMON_EV_SPAWN, 10);
	e->peer = 2;
	e->seq = 0;
	e->rt[0] = 10;
	e->rt[1] = 11;
	e->rt[2] = 15;
	e->rt[3] = 16;
	log->tasks[1].parent_tid = 1;
	span(log, 1, 20, 60);
	proc(log, 1, 1, 1, 20);
	proc(log, 1, 0, 1, 50);
	cp = compute(log);
	CU_ASSERT_EQUAL(cp->length_ns, 60);
	CU_ASSERT_EQUAL(cp->end_tid, 2);
	CU_ASSERT_EQUAL(cp->share_ns[0], 0);
	CU_ASSERT_EQUAL(cp->share_ns[1], 30);
	CU_ASSERT_EQUAL(cp->zero_ns[1], 30);
	CU_ASSERT_EQUAL_FATAL(cp->npath, 6);
	CU_ASSERT_EQUAL(cp->path[1].kind, PVMMON_CPATH_SPAWN);
	CU_ASSERT_EQUAL(cp->path[1].vt, 15);
	CU_ASSERT_EQUAL(cp->path[2].kind, PVMMON_CPATH_START);
	CU_ASSERT_EQUAL(cp->path[2].via, PVMMON_CPATH_VIA_SPAWN);
	CU_ASSERT_EQUAL(cp->path[2].L, 20);
	/* A child whose parent did not trace its spawn starts a path of its own. */
	log->tasks[0].nevents = 0;
	pvmmon_cpath_free(cp);
	cp = compute(log);
	CU_ASSERT_EQUAL(cp->length_ns, 40);
	CU_ASSERT_EQUAL(cp->end_tid, 2);
	pvmmon_cpath_free(cp);
	pvmmon_log_free(log);
}

/*
 * The remote_path_longer run as a whole-run selection is traced today: generation 1
 * from the start, each task's CPSTART at its registration (its first event, at its
 * start) and the procedures open then entered again at the same time. The oracle gives
 * what it gives for the trace without start events, node for node.
 */
static void test_whole_run_unchanged(void)
{
	pvmmon_cpath *cp[2];

	for (int marked = 0; marked < 2; marked++) {
		pvmmon_log *log = new_log(2, P, 1, 0);

		span(log, 0, 0, 12);
		if (marked)
			collect(log, 0, 1, 1, 0);
		proc(log, 0, 1, 0, 0);
		proc(log, 0, 0, 0, 10);
		send(log, 0, 2, 0, 10);
		span(log, 1, 0, 18);
		if (marked) {
			collect(log, 1, 1, 1, 0);
			interval(log, 1, 0, -1);
		}
		recv(log, 1, 1, 0, 5, 10, 2);
		cp[marked] = compute(log);
		pvmmon_log_free(log);
	}
	CU_ASSERT_EQUAL(cp[1]->length_ns, 15);
	CU_ASSERT_EQUAL(cp[1]->length_ns, cp[0]->length_ns);
	CU_ASSERT_EQUAL(cp[1]->end_task, cp[0]->end_task);
	CU_ASSERT_EQUAL(cp[1]->share_ns[0], cp[0]->share_ns[0]);
	CU_ASSERT_EQUAL(cp[1]->zero_ns[0], cp[0]->zero_ns[0]);
	CU_ASSERT_EQUAL(cp[1]->nnodes, cp[0]->nnodes);
	CU_ASSERT_EQUAL(cp[1]->narcs, cp[0]->narcs);
	CU_ASSERT_EQUAL_FATAL(cp[1]->npath, cp[0]->npath);
	for (size_t i = 0; i < cp[0]->npath; i++) {
		const pvmmon_cpath_node *a = &cp[0]->path[i], *b = &cp[1]->path[i];

		CU_ASSERT(a->task == b->task && a->kind == b->kind && a->via == b->via &&
			  a->vt == b->vt && a->resume == b->resume && a->L == b->L);
		/* The marked trace has one more event (the start) before each one. */
		CU_ASSERT(a->event == b->event || a->event + 1 == b->event);
	}
	CU_ASSERT_EQUAL(cp[1]->path[0].event, PVMMON_CPATH_NO_EVENT);
	pvmmon_cpath_free(cp[0]);
	pvmmon_cpath_free(cp[1]);
}

/*
 * `pvmmon cp start P` while the run goes on (generation 1 from real time 40).
 * A (tid 1, 0 to 100): P open from 10 (before any selection: no count), the start at 40
 * by a command (P, open, entered again at 40), P's exit at 60, a send to B at 70.
 * B (tid 2, 0 to 120): its start at 50, the receive at 55 (waits 20, transmission 5).
 * A's path: 40 to 100, 60 long, P 20. B: 0 at 50; the receive: local 5, message 30 + 5 =
 * 35; B's end 35 + (120 - 75) = 80. Length 80 in B, P's share 20. Without P: A's send at
 * 10, the receive max(5, 15) = 15, B ends at 60, A at 40: zeroing 20.
 */
static void test_interval_start(void)
{
	pvmmon_log *log = new_log(2, P, 1, 0);
	pvmmon_cpath *cp;

	interval(log, 1, 40, -1);
	span(log, 0, 0, 100);
	proc(log, 0, 1, 0, 10);
	collect(log, 0, 1, 1, 40);
	proc(log, 0, 1, 0, 40);
	proc(log, 0, 0, 0, 60);
	send(log, 0, 2, 0, 70);
	span(log, 1, 0, 120);
	collect(log, 1, 1, 1, 50);
	recv(log, 1, 1, 0, 55, 20, 5);
	cp = compute(log);
	CU_ASSERT_EQUAL(cp->length_ns, 80);
	CU_ASSERT_EQUAL(cp->end_tid, 2);
	CU_ASSERT_EQUAL(cp->share_ns[0], 20);
	CU_ASSERT_EQUAL(cp->zero_ns[0], 20);
	/* A's start of collection, P's entry and exit, the send; B's receive and end. */
	CU_ASSERT_EQUAL_FATAL(cp->npath, 6);
	CU_ASSERT_EQUAL(cp->path[0].kind, PVMMON_CPATH_START);
	CU_ASSERT_EQUAL(cp->path[0].event, 1);
	CU_ASSERT_EQUAL(cp->path[0].vt, 40);
	CU_ASSERT_EQUAL(cp->path[0].L, 0);
	CU_ASSERT_EQUAL(cp->path[4].via, PVMMON_CPATH_VIA_MESSAGE);
	CU_ASSERT_EQUAL(cp->path[4].L, 35);
	CU_ASSERT_EQUAL(cp->path[5].event, PVMMON_CPATH_NO_EVENT);
	/* The A before the start (P from 10, its first entry) is not in the graph. */
	CU_ASSERT_EQUAL(cp->nnodes, 8);
	pvmmon_cpath_free(cp);
	pvmmon_log_free(log);
}

/*
 * Section 2.3, case 3: B (tid 2) has not taken the command when a message carrying the
 * new selection's tuple reaches it, so it starts inside that receive (its CPSTART just
 * before the receive, at the receive's start) and merges the sender's path. A (tid 1,
 * 0 to 100) starts at 40, runs P from 40 to 60 and sends to B at 70 (seq 1); an earlier
 * message (seq 0: A's send at 20, B's receive at 25 with a transmission of 50) was before
 * either start and does not count. B (0 to 120): the start at 55, the receive at 55
 * (waits 20, transmission 5). B's receive: 0 locally, 30 + 5 = 35 by the message; B's
 * end 35 + 45 = 80: length 80 in B, P 20, the message on the path.
 */
static void test_interval_start_at_receive(void)
{
	pvmmon_log *log = new_log(2, P, 1, 0);
	pvmmon_cpath *cp;

	interval(log, 1, 40, -1);
	span(log, 0, 0, 100);
	send(log, 0, 2, 0, 20);
	collect(log, 0, 1, 1, 40);
	proc(log, 0, 1, 0, 40);
	proc(log, 0, 0, 0, 60);
	send(log, 0, 2, 1, 70);
	span(log, 1, 0, 120);
	recv(log, 1, 1, 0, 25, 0, 50);
	collect(log, 1, 1, 1, 55);
	recv(log, 1, 1, 1, 55, 20, 5);
	cp = compute(log);
	CU_ASSERT_EQUAL(cp->length_ns, 80);
	CU_ASSERT_EQUAL(cp->end_tid, 2);
	CU_ASSERT_EQUAL(cp->share_ns[0], 20);
	CU_ASSERT_EQUAL(cp->zero_ns[0], 20);
	CU_ASSERT_EQUAL_FATAL(cp->npath, 6);
	CU_ASSERT_EQUAL(cp->path[4].kind, PVMMON_CPATH_RECV);
	CU_ASSERT_EQUAL(cp->path[4].event, 2);
	CU_ASSERT_EQUAL(cp->path[4].via, PVMMON_CPATH_VIA_MESSAGE);
	/* One message arc: the earlier message is outside both windows. */
	CU_ASSERT_EQUAL(cp->narcs, 4 + 2 + 1);
	pvmmon_cpath_free(cp);
	pvmmon_log_free(log);
}

/*
 * `pvmmon cp stop`: a task's path ends at its CPSTOP (its last sample), and messages
 * reaching a task after its stop, or sent after the sender's, do not count.
 * A (tid 1, 0 to 100): collecting from its registration; P from 0 to 30, a send to B at
 * 40 (seq 0), the stop at 50, a send at 60 (seq 1). B (tid 2, 0 to 120): collecting
 * from its registration, the stop at 20, receives of seq 0 at 45 and seq 1 at 70 (each
 * transmission 5). A: 50, P 30. B: 20, no message counts. Length 50 in A; without P A
 * is 20 and B 20: zeroing 30.
 */
static void test_interval_stop(void)
{
	pvmmon_log *log = new_log(2, P, 1, 0);
	pvmmon_cpath *cp;

	interval(log, 1, 0, 55);
	span(log, 0, 0, 100);
	collect(log, 0, 1, 1, 0);
	proc(log, 0, 1, 0, 0);
	proc(log, 0, 0, 0, 30);
	send(log, 0, 2, 0, 40);
	collect(log, 0, 0, 1, 50);
	send(log, 0, 2, 1, 60);
	span(log, 1, 0, 120);
	collect(log, 1, 1, 1, 0);
	collect(log, 1, 0, 1, 20);
	recv(log, 1, 1, 0, 45, 0, 5);
	recv(log, 1, 1, 1, 70, 0, 5);
	cp = compute(log);
	CU_ASSERT_EQUAL(cp->length_ns, 50);
	CU_ASSERT_EQUAL(cp->end_tid, 1);
	CU_ASSERT_EQUAL(cp->share_ns[0], 30);
	CU_ASSERT_EQUAL(cp->zero_ns[0], 30);
	/* A: start, enter, exit, send, end; B: start, end. Only local arcs. */
	CU_ASSERT_EQUAL(cp->nnodes, 7);
	CU_ASSERT_EQUAL(cp->narcs, 5);
	CU_ASSERT_EQUAL_FATAL(cp->npath, 5);
	CU_ASSERT_EQUAL(cp->path[0].event, PVMMON_CPATH_NO_EVENT);
	CU_ASSERT_EQUAL(cp->path[4].kind, PVMMON_CPATH_END);
	CU_ASSERT_EQUAL(cp->path[4].event, 4);
	CU_ASSERT_EQUAL(cp->path[4].vt, 50);
	pvmmon_cpath_free(cp);
	pvmmon_log_free(log);
}

/*
 * Generation 2 after generation 1 (the top-m search's phases): what the tasks did in
 * generation 1 does not count, though its procedure indices and messages are in the
 * trace. A (tid 1, 0 to 100) ran procedure 1 (Q) of generation 1 from 0 to 20, sent to B at 25 (a transmission of 50 that would make B longest) and stopped at
 * 28; it starts generation 2 at 30 and runs P from 40 to 60. B (tid 2, 0 to 90) received
 * at 26, stopped at 28 and starts generation 2 at 35. A: 70, P 20, Q 0. B: 55. Length 70
 * in A; without P A is 50, B 55: zeroing 15.
 */
static void test_interval_older_generation(void)
{
	pvmmon_log *log = new_log(2, P, 2, 0);
	pvmmon_cpath *cp;

	interval(log, 2, 30, -1);
	span(log, 0, 0, 100);
	collect(log, 0, 1, 1, 0);
	proc(log, 0, 1, 1, 0);
	proc(log, 0, 0, 1, 20);
	send(log, 0, 2, 0, 25);
	collect(log, 0, 0, 1, 28);
	collect(log, 0, 1, 2, 30);
	proc(log, 0, 1, 0, 40);
	proc(log, 0, 0, 0, 60);
	span(log, 1, 0, 90);
	collect(log, 1, 1, 1, 0);
	recv(log, 1, 1, 0, 26, 0, 50);
	collect(log, 1, 0, 1, 28);
	collect(log, 1, 1, 2, 35);
	cp = compute(log);
	CU_ASSERT_EQUAL(cp->length_ns, 70);
	CU_ASSERT_EQUAL(cp->end_tid, 1);
	CU_ASSERT_EQUAL(cp->share_ns[0], 20);
	CU_ASSERT_EQUAL(cp->share_ns[1], 0);
	CU_ASSERT_EQUAL(cp->zero_ns[0], 15);
	CU_ASSERT_EQUAL(cp->zero_ns[1], 0);
	CU_ASSERT_EQUAL(cp->path[0].event, 5);
	pvmmon_cpath_free(cp);
	pvmmon_log_free(log);
}

/*
 * Spawns in an interval: a child whose collection starts at its registration continues
 * its parent's path over the spawn arc when the parent was collecting at the spawn; one
 * that starts later (at a command) starts from nothing. Parent A (tid 1, 0 to 60) starts
 * at 30 and spawns B at 40 (the real call 40 to 45). B (tid 2, 50 to 80) starts at its
 * registration: 15 + 5 = 20, its end 50, longer than A's 30. Started at 60 by a command
 * instead (after a send, its first event), B is 20 long and A's 30 is the length. A
 * child that could not replay what it did before registering starts collecting there,
 * at 58: the arc reaches it there (15 + 13 = 28) and B is again 50.
 */
static void test_interval_spawn(void)
{
	for (int late = 0; late < 3; late++) {
		pvmmon_log *log = new_log(2, P, 1, 0);
		pvmmon_log_event *e;
		pvmmon_cpath *cp;

		interval(log, 1, 30, -1);
		span(log, 0, 0, 60);
		collect(log, 0, 1, 1, 30);
		e = add(log, 0, PVMMON_EV_SPAWN, 40);
		e->peer = 2;
		e->seq = 0;
		e->rt[1] = 41;
		e->rt[2] = 45;
		e->rt[3] = 46;
		log->tasks[1].parent_tid = 1;
		span(log, 1, 50, 80);
		if (late == 1)
			send(log, 1, 1, 0, 55);
		collect(log, 1, 1, 1, late == 1 ? 60 : late == 2 ? 58 : 50);
		cp = compute(log);
		CU_ASSERT_EQUAL(cp->length_ns, late == 1 ? 30 : 50);
		CU_ASSERT_EQUAL(cp->end_tid, late == 1 ? 1 : 2);
		CU_ASSERT_EQUAL(cp->narcs, late == 1 ? 3 : 4);
		if (late != 1 && cp->npath == 4) {
			CU_ASSERT_EQUAL(cp->path[2].via, PVMMON_CPATH_VIA_SPAWN);
			CU_ASSERT_EQUAL(cp->path[2].L, late ? 28 : 20);
			CU_ASSERT_EQUAL(cp->path[2].event, late ? 0 : PVMMON_CPATH_NO_EVENT);
		}
		CU_ASSERT_EQUAL(cp->npath, late == 1 ? 3 : 4);
		pvmmon_cpath_free(cp);
		pvmmon_log_free(log);
	}
}

static void expect_einval(const pvmmon_log *log, const char *words)
{
	pvmmon_cpath *cp = (pvmmon_cpath *)1;

	CU_ASSERT_EQUAL(pvmmon_cpath_compute(&cp, log), PVMMON_EINVAL);
	CU_ASSERT_PTR_NULL(cp);
	CU_ASSERT_PTR_NOT_NULL(strstr(pvmmon_error_last(), words));
}

static void test_errors(void)
{
	pvmmon_log *log = new_log(1, P, 1, 0);
	pvmmon_cpath *cp = NULL;

	span(log, 0, 0, 10);
	CU_ASSERT_EQUAL(pvmmon_cpath_compute(&cp, NULL), PVMMON_EINVAL);
	CU_ASSERT_EQUAL(pvmmon_cpath_compute(NULL, log), PVMMON_EINVAL);
	log->trace.enabled = 0;
	expect_einval(log, "not traced");
	log->trace.enabled = 1;
	log->trace.dropped = 3;
	expect_einval(log, "incomplete");
	log->trace.dropped = 0;
	log->cp.enabled = 0;
	expect_einval(log, "selected no procedures");
	log->cp.enabled = 1;
	log->cp.nprocs = 0;
	expect_einval(log, "selected no procedures");
	log->cp.nprocs = 1;
	/* An interval, but a trace without starts of collection (an older log). */
	log->cp.to_ns = 5;
	expect_einval(log, "interval");
	log->cp.to_ns = -1;
	interval(log, 2, 10, -1);
	expect_einval(log, "interval");
	/* No task collected the log's selection: each started generation 1 only. */
	collect(log, 0, 1, 1, 0);
	expect_einval(log, "no task collected");
	pvmmon_log_free(log);
	/* Messages that go back in causality (a damaged log) make a cycle. */
	log = new_log(2, P, 1, 0);
	span(log, 0, 0, 10);
	span(log, 1, 0, 10);
	recv(log, 0, 2, 0, 1, 0, 1);
	send(log, 0, 2, 0, 2);
	recv(log, 1, 1, 0, 1, 0, 1);
	send(log, 1, 1, 0, 2);
	expect_einval(log, "cycle");
	pvmmon_log_free(log);
	pvmmon_cpath_free(NULL);
}

/* Whether a and b agree within max(0.5% of length, 50 µs). */
static int close_to(int64_t a, int64_t b, int64_t length)
{
	int64_t tol = length / 200 > 50000 ? length / 200 : 50000;
	int64_t d = a > b ? a - b : b - a;

	return d <= tol;
}

/* The oracle's length, end, shares and zeroing values agree with the online ones. */
static void expect_agreement(const pvmmon_log *log, const pvmmon_cpath *cp)
{
	CU_ASSERT(close_to(cp->length_ns, log->cp.length_ns, log->cp.length_ns));
	CU_ASSERT_EQUAL(cp->end_tid, log->cp.end_tid);
	CU_ASSERT_EQUAL_FATAL(cp->nprocs, log->cp.nprocs);
	for (size_t k = 0; k < cp->nprocs; k++) {
		if (!close_to(cp->share_ns[k], log->cp.procs[k].share_ns, log->cp.length_ns) ||
		    !close_to(cp->zero_ns[k], log->cp.procs[k].zero_ns, log->cp.length_ns))
			fprintf(stderr, "\n  %s: offline share %lld zero %lld, online %lld %lld\n",
				log->cp.procs[k].name, (long long)cp->share_ns[k],
				(long long)cp->zero_ns[k], (long long)log->cp.procs[k].share_ns,
				(long long)log->cp.procs[k].zero_ns);
		CU_ASSERT(close_to(cp->share_ns[k], log->cp.procs[k].share_ns, log->cp.length_ns));
		CU_ASSERT(close_to(cp->zero_ns[k], log->cp.procs[k].zero_ns, log->cp.length_ns));
	}
}

/*
 * The traced issort run with --cp=create_seq,do_rank,verify: the oracle agrees with the
 * online profile, and create_seq (the master's sequential set-up) weighs more on the
 * critical path than in CPU time (seed 003's finding).
 */
static void test_agrees_with_online_profile(void)
{
	pvmmon_log *log = NULL;
	pvmmon_cpath *cp;
	int64_t total = 0, cpu = 0;

	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&log, CP_ISSORT), 0);
	CU_ASSERT_EQUAL_FATAL(log->cp.nprocs, 3);
	cp = compute(log);
	expect_agreement(log, cp);
	/* The path's first node is the master's start and its last the master's end. */
	CU_ASSERT_EQUAL(cp->path[0].kind, PVMMON_CPATH_START);
	CU_ASSERT_EQUAL(cp->path[cp->npath - 1].kind, PVMMON_CPATH_END);
	CU_ASSERT_EQUAL(cp->path[cp->npath - 1].L, cp->length_ns);
	/* create_seq: its share of the path against its share of all tasks' time. */
	for (size_t i = 0; i < log->ntasks; i++) {
		total += log->tasks[i].virtual_ns;
		for (size_t j = 0; j < log->tasks[i].nprocs; j++)
			if (!strcmp(log->tasks[i].procs[j].name, "create_seq"))
				cpu += log->tasks[i].procs[j].incl_ns;
	}
	CU_ASSERT_STRING_EQUAL(log->cp.procs[0].name, "create_seq");
	CU_ASSERT(total > 0 && cpu > 0);
	CU_ASSERT((double)cp->share_ns[0] / (double)cp->length_ns > (double)cpu / (double)total);
	pvmmon_cpath_free(cp);
	pvmmon_log_free(log);
}

/*
 * The traced ring run (`ring -r 60`) with `pvmmon cp start ring_work` about 1.2 s in and
 * `pvmmon cp stop` a second later: the oracle agrees with the online profile over the
 * interval. The master took the command at a poll; the ring nodes started inside a
 * receive of a message that carried the new selection (case 3), at that receive's time.
 */
static void test_interval_agrees_with_online_profile(void)
{
	pvmmon_log *log = NULL;
	pvmmon_cpath *cp;
	size_t at_receive = 0;

	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&log, CP_RING_INTERVAL), 0);
	CU_ASSERT_EQUAL(log->cp.generation, 1);
	CU_ASSERT(log->cp.from_ns > 0 && log->cp.to_ns > log->cp.from_ns);
	CU_ASSERT_EQUAL_FATAL(log->cp.nprocs, 1);
	cp = compute(log);
	expect_agreement(log, cp);
	/* Most of the interval's second is ring_work on the path. */
	CU_ASSERT(cp->length_ns > 900000000 && cp->share_ns[0] > cp->length_ns / 2);
	/* The path runs from a start of collection to a stop, both inside the tasks' lives. */
	CU_ASSERT_EQUAL(cp->path[0].kind, PVMMON_CPATH_START);
	CU_ASSERT_NOT_EQUAL(cp->path[0].event, PVMMON_CPATH_NO_EVENT);
	CU_ASSERT_EQUAL(cp->path[cp->npath - 1].kind, PVMMON_CPATH_END);
	CU_ASSERT_NOT_EQUAL(cp->path[cp->npath - 1].event, PVMMON_CPATH_NO_EVENT);
	for (size_t i = 0; i < log->ntasks; i++) {
		const pvmmon_log_task *t = &log->tasks[i];

		for (size_t j = 0; j + 1 < t->nevents; j++) {
			const pvmmon_log_event *n = &t->events[j + 1];

			if (t->events[j].op == PVMMON_EV_CPSTART &&
			    (n->op == PVMMON_EV_RECV || n->op == PVMMON_EV_TRECV ||
			     n->op == PVMMON_EV_NRECV || n->op == PVMMON_EV_PRECV) &&
			    n->vt0 == t->events[j].vt0)
				at_receive++;
		}
	}
	CU_ASSERT(at_receive > 0);
	pvmmon_cpath_free(cp);
	pvmmon_log_free(log);
}

CU_TestInfo test_cpath_tests[] = {
    {"message makes the remote path longer: the path switches tasks", test_remote_path_longer},
    {"local path longer, the wait not counted, ties go local", test_local_path_longer},
    {"inclusive and exclusive shares of nested procedures", test_inclusive_and_exclusive},
    {"zeroing below the share with a near-critical path", test_zeroing_with_near_critical_path},
    {"spawn arc into the child's start", test_spawn_arc},
    {"whole run: start events at registration change nothing", test_whole_run_unchanged},
    {"interval: collection started mid-run by a command", test_interval_start},
    {"interval: started inside a receive (case 3)", test_interval_start_at_receive},
    {"interval: stopped; messages after a stop do not count", test_interval_stop},
    {"interval: an older generation's events are ignored", test_interval_older_generation},
    {"interval: spawn arc only into a child collecting from its start", test_interval_spawn},
    {"no trace, incomplete trace, no selection, cycle: EINVAL", test_errors},
    {"issort: oracle agrees with the online profile", test_agrees_with_online_profile},
    {"ring, cp start/stop: oracle agrees over the interval",
     test_interval_agrees_with_online_profile},
    CU_TEST_INFO_NULL,
};
