/*
 * Unit tests for graphs/cpath.c, the offline critical-path oracle: hand-built logs whose
 * longest path, shares and zeroing values are worked out by hand in the comments, and
 * the traced issort run (tests/fixtures/cp-issort.xml), where the oracle must agree with
 * the online profile the tasks computed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "pvmmon/cpath.h"
#include "pvmmon/errors.h"
#include "pvmmon/log.h"

#define CP_ISSORT "tests/fixtures/cp-issort.xml"

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
		char lid[16];

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

static pvmmon_cpath *compute(const pvmmon_log *log)
{
	pvmmon_cpath *cp = NULL;

	CU_ASSERT_EQUAL_FATAL(pvmmon_cpath_compute(log, &cp), 0);
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

static void expect_einval(const pvmmon_log *log, const char *words)
{
	pvmmon_cpath *cp = (pvmmon_cpath *)1;

	CU_ASSERT_EQUAL(pvmmon_cpath_compute(log, &cp), PVMMON_EINVAL);
	CU_ASSERT_PTR_NULL(cp);
	CU_ASSERT_PTR_NOT_NULL(strstr(pvmmon_error_last(), words));
}

static void test_errors(void)
{
	pvmmon_log *log = new_log(1, P, 1, 0);
	pvmmon_cpath *cp = NULL;

	span(log, 0, 0, 10);
	CU_ASSERT_EQUAL(pvmmon_cpath_compute(NULL, &cp), PVMMON_EINVAL);
	CU_ASSERT_EQUAL(pvmmon_cpath_compute(log, NULL), PVMMON_EINVAL);
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
	log->cp.to_ns = 5;
	expect_einval(log, "interval");
	log->cp.to_ns = -1;
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

CU_TestInfo test_cpath_tests[] = {
    {"message makes the remote path longer: the path switches tasks", test_remote_path_longer},
    {"local path longer, the wait not counted, ties go local", test_local_path_longer},
    {"inclusive and exclusive shares of nested procedures", test_inclusive_and_exclusive},
    {"zeroing below the share with a near-critical path", test_zeroing_with_near_critical_path},
    {"spawn arc into the child's start", test_spawn_arc},
    {"no trace, incomplete trace, no selection, cycle: EINVAL", test_errors},
    {"issort: oracle agrees with the online profile", test_agrees_with_online_profile},
    CU_TEST_INFO_NULL,
};
