/* Logs with time histograms built in C for the graphs unit tests: the three-phase run. */
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "histmodel.h"

pvmmon_log_hist *hm_add(pvmmon_log_hist **hs, size_t *nh, pvmmon_hist_metric m, pvmmon_hist_focus f,
                        const char *name, uint32_t stmt, const int64_t *values, size_t n)
{
	pvmmon_log_hist *h;

	*hs = realloc(*hs, (*nh + 1) * sizeof(**hs));
	CU_ASSERT_PTR_NOT_NULL_FATAL(*hs);
	h = &(*hs)[(*nh)++];
	memset(h, 0, sizeof(*h));
	h->metric = m;
	h->focus = f;
	h->axis = PVMMON_AXIS_VIRTUAL;
	h->name = name ? strdup(name) : NULL;
	h->stmt = stmt;
	h->width_ns = HM_WIDTH;
	h->to_ns = -1;
	h->nbuckets = n;
	h->values = calloc(n ? n : 1, sizeof(*h->values));
	CU_ASSERT_PTR_NOT_NULL_FATAL(h->values);
	if (n)
		memcpy(h->values, values, n * sizeof(*values));
	return h;
}

pvmmon_log *hm_log(size_t ntasks)
{
	pvmmon_log *log = NULL;

	CU_ASSERT_EQUAL_FATAL(pvmmon_log_new(&log), 0);
	log->program = strdup("threephase");
	log->wall_ns = (int64_t)HM_END * HM_WIDTH;
	log->hist.enabled = 1;
	log->hist.buckets = 128;
	log->hist.initial_width_ns = HM_WIDTH;
	log->hist.hottest = 8;
	log->ntasks = ntasks;
	log->tasks = calloc(ntasks, sizeof(*log->tasks));
	CU_ASSERT_PTR_NOT_NULL_FATAL(log->tasks);
	for (size_t i = 0; i < ntasks; i++) {
		pvmmon_log_task *t = &log->tasks[i];
		char lid[32];

		if (i)
			snprintf(lid, sizeof(lid), "0.%zu", i);
		else
			snprintf(lid, sizeof(lid), "0");
		t->tid = 0x40001 + (int32_t)i;
		t->lid = strdup(lid);
		t->program = strdup("/work/threephase");
		t->host = strdup("vm");
		t->status = PVMMON_TASK_EXITED;
	}
	return log;
}

static void stmt(pvmmon_log_task *t, uint32_t id, const char *op, int line, const char *fn)
{
	pvmmon_log_stmt *s = &t->stmts[t->nstmts++];

	s->id = id;
	s->op = strdup(op);
	s->file = strdup("/src/threephase.c");
	s->line = line;
	s->function = strdup(fn);
}

static void proc(pvmmon_log_task *t, const char *name, int line)
{
	pvmmon_log_proc *p = &t->procs[t->nprocs++];

	p->name = strdup(name);
	p->file = strdup("/src/threephase.c");
	p->line = line;
	p->caller = strcmp(name, "main") ? strdup("main") : NULL;
	p->count = 1;
}

/* Task t's states, statement and procedure histograms; slow: the task phase 3 waits on. */
static void task_hists(pvmmon_log_task *t, int slow)
{
	int64_t v[9][HM_END];

	memset(v, 0, sizeof(v));
	for (int b = 0; b < HM_END; b++) {
		int64_t *c = &v[0][b], *w = &v[1][b], *p = &v[2][b], *o = &v[3][b];

		if (b < HM_P2) {
			*c = 9000000, *p = 500000, *o = 100000;
			v[7][b] = 500000;  /* stmt 3: the send of phase 1 */
			v[8][b] = 9000000; /* proc work */
		} else if (b < HM_P3) {
			*c = 1000000, *p = 4000000, *w = 4800000, *o = 200000;
			v[4][b] = 4000000; /* stmt 0 */
			v[5][b] = 4800000; /* stmt 1 */
		} else {
			*c = slow ? 9600000 : 4500000, *w = slow ? 0 : 5200000, *p = 200000;
			*o = 100000;
			v[6][b] = *w + *p; /* stmt 2 */
			v[8][b] = *c;
		}
	}
	for (int k = 0; k < 4; k++)
		hm_add(&t->hists, &t->nhists, (pvmmon_hist_metric)(PVMMON_HIST_COMPUTE + k),
		       PVMMON_FOCUS_TASK, NULL, 0, v[k], HM_END);
	for (int k = 0; k < 4; k++) {
		int64_t calls[HM_END];
		uint32_t id = (uint32_t)(k == 3 ? 3 : k);

		hm_add(&t->hists, &t->nhists, PVMMON_HIST_TIME, PVMMON_FOCUS_STMT, NULL, id,
		       v[4 + k], HM_END);
		for (int b = 0; b < HM_END; b++)
			calls[b] = v[4 + k][b] ? 10 : 0;
		hm_add(&t->hists, &t->nhists, PVMMON_HIST_CALLS, PVMMON_FOCUS_STMT, NULL, id, calls,
		       HM_END);
		for (int b = 0; b < HM_END; b++)
			t->stmts[id].time_ns += v[4 + k][b],
			    t->stmts[id].count += (uint64_t)calls[b];
	}
	hm_add(&t->hists, &t->nhists, PVMMON_HIST_TIME, PVMMON_FOCUS_PROC, "work", 0, v[8], HM_END);
	for (int b = 0; b < HM_END; b++)
		v[8][b] = v[4][b] + v[5][b];
	hm_add(&t->hists, &t->nhists, PVMMON_HIST_TIME, PVMMON_FOCUS_PROC, "exchange", 0, v[8],
	       HM_END);
	for (int b = 0; b < HM_END; b++)
		t->virtual_ns += v[0][b] + v[1][b] + v[2][b];
}

pvmmon_log *hm_three_phase(size_t ntasks)
{
	pvmmon_log *log = hm_log(ntasks);

	for (size_t i = 0; i < ntasks; i++) {
		pvmmon_log_task *t = &log->tasks[i];

		t->stmts = calloc(5, sizeof(*t->stmts));
		t->procs = calloc(4, sizeof(*t->procs));
		CU_ASSERT_PTR_NOT_NULL_FATAL(t->stmts && t->procs);
		stmt(t, 0, "pvm_send", 40, "exchange");
		stmt(t, 1, "pvm_recv", 44, "exchange");
		stmt(t, 2, "pvm_recv", 61, "gather");
		stmt(t, 3, "pvm_send", 25, "work");
		stmt(t, 4, "pvm_spawn", 12, "main");
		proc(t, "main", 10);
		proc(t, "work", 20);
		proc(t, "exchange", 38);
		proc(t, "helper", 70);
		task_hists(t, i + 1 == ntasks);
	}
	return log;
}
