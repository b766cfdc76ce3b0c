/* Traced logs built by hand for the unit tests of the wait analysis (test_waits.c,
 * test_waits_predict.c, test_waits_coll.c): tasks, statements and events with virtual
 * times worked out in the tests' comments. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "waitslog.h"

/* A traced log of no tasks with the selected procedures names (--cp entries). */
pvmmon_log *wlog__new_log(const char *const *names, size_t nnames)
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
size_t wlog__task(pvmmon_log *log, int32_t tid, const char *lid, int64_t start, int64_t end)
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
void wlog__stmt(pvmmon_log *log, size_t ti, uint32_t id, const char *op, const char *file,
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
pvmmon_log_event *wlog__event(pvmmon_log *log, size_t ti, pvmmon_event_op op, uint32_t id,
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

void wlog__send(pvmmon_log *log, size_t ti, uint32_t id, int32_t to, int64_t seq, int64_t vt)
{
	pvmmon_log_event *e = wlog__event(log, ti, PVMMON_EV_SEND, id, vt, vt);

	e->peer = to;
	e->tag = 1;
	e->seq = seq;
}

/* A receive of statement id from tid from, beginning at vt and waiting sync. */
void wlog__recv(pvmmon_log *log, size_t ti, uint32_t id, int32_t from, int64_t seq, int64_t vt,
                int64_t sync, int64_t trans)
{
	pvmmon_log_event *e = wlog__event(log, ti, PVMMON_EV_RECV, id, vt, vt + sync);

	e->peer = from;
	e->tag = 1;
	e->seq = seq;
	e->sync = sync;
	e->trans = trans;
}

/* Procedure k (index in log->cp.procs) entered at a and left at b by task ti. */
void wlog__in_proc(pvmmon_log *log, size_t ti, int32_t k, int64_t a, int64_t b)
{
	wlog__event(log, ti, PVMMON_EV_ENTER, 0, a, a)->tag = k;
	wlog__event(log, ti, PVMMON_EV_EXIT, 0, b, b)->tag = k;
}

pvmmon_waits *wlog__compute(const pvmmon_log *log)
{
	pvmmon_waits *w = NULL;

	CU_ASSERT_EQUAL_FATAL(pvmmon_waits_compute(&w, log), 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	return w;
}

/* The cause of task ti's procedure proc (-1: the segment before statement id), or NULL. */
const pvmmon_wait_cause *wlog__cause(const pvmmon_waits *w, size_t ti, int32_t proc, uint32_t id)
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
pvmmon_log *wlog__late_sender_log(void)
{
	pvmmon_log *log = wlog__new_log(NULL, 0);
	size_t a = wlog__task(log, 1, "0", 0, 12 * MS), b = wlog__task(log, 2, "0.1", 0, 11 * MS);

	wlog__stmt(log, a, 0, "pvm_recv", "a.c", 10);
	wlog__stmt(log, b, 0, "pvm_send", "b.c", 20);
	wlog__recv(log, a, 0, 2, 0, 2 * MS, 8 * MS, 0);
	wlog__send(log, b, 0, 1, 0, 10 * MS);
	return log;
}

/* The pipeline's statements and events (see test_pipeline_propagates). */
void wlog__pipeline_events(pvmmon_log *log, size_t a, size_t b, size_t c)
{
	wlog__stmt(log, a, 0, "pvm_recv", "stage.c", 40);
	wlog__stmt(log, b, 0, "pvm_recv", "stage.c", 40);
	wlog__stmt(log, b, 1, "pvm_send", "stage.c", 50);
	wlog__stmt(log, c, 0, "pvm_send", "stage.c", 50);
	wlog__recv(log, a, 0, 2, 0, 0, 12 * MS, 0);
	wlog__in_proc(log, b, 1, 0, 2 * MS);
	wlog__recv(log, b, 0, 3, 0, 2 * MS, 8 * MS, 0);
	wlog__in_proc(log, b, 1, 10 * MS, 12 * MS);
	wlog__send(log, b, 1, 1, 0, 12 * MS);
	wlog__in_proc(log, c, 1, 0, 2 * MS);
	wlog__in_proc(log, c, 0, 2 * MS, 10 * MS);
	wlog__send(log, c, 0, 2, 0, 10 * MS);
}

char *wlog__report(const pvmmon_log *log, int *rc)
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
