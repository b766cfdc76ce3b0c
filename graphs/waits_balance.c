/*
 * Load balance per task, procedure and call site (include/pvmmon/waits.h): each task's
 * useful time (outside PVM calls) split as the wait analysis splits it, by the innermost
 * selected procedure or the call site that ends the segment, summed over the tasks that
 * share it, with its min, mean and max over them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figures.h"
#include "pvmmon/errors.h"
#include "pvmmon/waits.h"
#include "waits_model.h"

/* One computation's times: per task, and whom its name comes from. */
typedef struct group {
	int32_t proc;
	size_t task;
	uint32_t stmt;
	int64_t *ns; /* per task */
} group;

typedef struct groups {
	const wm_model *m;
	group *v;
	size_t n, cap;
} groups;

/* The group of key k of task x: a procedure by its index, a segment by its call site
 * (the end of a task by itself); a new one if none. NULL without memory. */
static group *group_of(groups *g, size_t x, const wm_key *k)
{
	const pvmmon_log_stmt *sx = NULL;

	if (k->proc < 0 && k->stmt != WM_NO_STMT)
		sx = graphs__stmt_of(g->m->tasks[x].t, k->stmt);
	for (size_t i = 0; i < g->n; i++) {
		const group *c = &g->v[i];
		const pvmmon_log_stmt *sc;

		if (c->proc != k->proc)
			continue;
		if (k->proc >= 0)
			return &g->v[i];
		if ((c->stmt == WM_NO_STMT) != (k->stmt == WM_NO_STMT))
			continue;
		if (k->stmt == WM_NO_STMT)
			return &g->v[i];
		if (c->task == x ? c->stmt == k->stmt
		                 : sx && (sc = graphs__stmt_of(g->m->tasks[c->task].t, c->stmt)) &&
		                       waits__same_site(sc, sx))
			return &g->v[i];
	}
	if (g->n == g->cap) {
		size_t cap = g->cap ? 2 * g->cap : 16;
		group *v = realloc(g->v, cap * sizeof(*v));

		if (!v)
			return NULL;
		g->v = v;
		g->cap = cap;
	}
	g->v[g->n] = (group){k->proc, x, k->proc >= 0 ? 0 : k->stmt,
	                     calloc(g->m->ntasks + 1, sizeof(int64_t))};
	if (!g->v[g->n].ns)
		return NULL;
	return &g->v[g->n++];
}

/* Adds task x's computation from a to b to key k's group. */
static int add(groups *g, size_t x, wm_key k, int64_t a, int64_t b)
{
	group *c;

	if (b <= a)
		return 0;
	if (!(c = group_of(g, x, &k)))
		return pvmmon_error_set(PVMMON_ENOMEM, "out of memory");
	c->ns[x] += b - a;
	return 0;
}

/* Task x's useful time by group: the gaps between its calls. */
static int task_times(groups *g, size_t x)
{
	const wm_task *w = &g->m->tasks[x];
	int64_t prev = w->vstart;
	int rc = 0;

	for (size_t i = 0; i < w->t->nevents && rc == 0; i++) {
		const pvmmon_log_event *e = &w->t->events[i];

		rc = add(g, x, waits__compute_key(w, i, w->next_stmt[i]), prev, e->vt0);
		if (e->vt0 > prev)
			prev = e->vt0;
		if (waits__is_call(e) && e->vt1 > prev)
			prev = e->vt1;
	}
	return rc ? rc : add(g, x, waits__compute_key(w, w->t->nevents, WM_NO_STMT), prev, w->vend);
}

static pvmmon_wait_balance summary(const group *c, size_t ntasks)
{
	pvmmon_wait_balance b = {c->proc, c->task, c->stmt, 0, INT64_MAX, 0, 0, 1.0};
	int64_t sum = 0;

	for (size_t x = 0; x < ntasks; x++) {
		if (c->ns[x] <= 0)
			continue;
		b.ntasks++;
		sum += c->ns[x];
		if (c->ns[x] < b.min_ns)
			b.min_ns = c->ns[x];
		if (c->ns[x] > b.max_ns)
			b.max_ns = c->ns[x];
	}
	if (!b.ntasks)
		b.min_ns = 0;
	b.avg_ns = b.ntasks ? sum / (int64_t)b.ntasks : 0;
	b.load_balance = b.max_ns > 0 ? (double)b.avg_ns / (double)b.max_ns : 1.0;
	return b;
}

static int by_max(const void *pa, const void *pb)
{
	const pvmmon_wait_balance *a = pa, *b = pb;

	return a->max_ns > b->max_ns ? -1 : a->max_ns < b->max_ns;
}

int pvmmon_waits_balance(pvmmon_wait_balance **out, size_t *n, const pvmmon_log *log)
{
	wm_model m;
	groups g = {&m, NULL, 0, 0};
	pvmmon_wait_balance *v = NULL;
	int64_t most = 0;
	int rc;

	*out = NULL;
	*n = 0;
	if (!log)
		return pvmmon_error_set(PVMMON_EINVAL, "waits: no log");
	if ((rc = waits__model(&m, log)) < 0)
		return rc;
	for (size_t x = 0; x < m.ntasks && rc == 0; x++)
		rc = task_times(&g, x);
	if (rc == 0 && !(v = calloc(m.ntasks + g.n + 1, sizeof(*v))))
		rc = pvmmon_error_set(PVMMON_ENOMEM, "out of memory");
	for (size_t x = 0; rc == 0 && x < m.ntasks; x++) {
		int64_t useful = 0;

		for (size_t i = 0; i < g.n; i++)
			useful += g.v[i].ns[x];
		v[x] = (pvmmon_wait_balance){
		    PVMMON_WAIT_ALL_COMPUTATION, x, 0, 1, useful, useful, useful, 1.0};
		if (useful > most)
			most = useful;
	}
	for (size_t x = 0; rc == 0 && x < m.ntasks; x++)
		v[x].load_balance = most > 0 ? (double)v[x].max_ns / (double)most : 1.0;
	for (size_t i = 0; rc == 0 && i < g.n; i++)
		v[m.ntasks + i] = summary(&g.v[i], m.ntasks);
	if (rc == 0) {
		if (g.n > 1)
			qsort(v + m.ntasks, g.n, sizeof(*v), by_max);
		*out = v;
		*n = m.ntasks + g.n;
		v = NULL;
	}
	for (size_t i = 0; i < g.n; i++)
		free(g.v[i].ns);
	free(g.v);
	free(v);
	waits__model_free(&m);
	return rc;
}

void pvmmon_waits_balance_name(char *buf, size_t len, const pvmmon_log *log,
                               const pvmmon_wait_balance *b)
{
	const pvmmon_log_task *t = b->task < log->ntasks ? &log->tasks[b->task] : NULL;
	const pvmmon_log_stmt *st;
	char where[512];

	if (b->proc == PVMMON_WAIT_ALL_COMPUTATION)
		snprintf(buf, len, "%s", t && t->lid ? t->lid : "?");
	else if (b->proc >= 0)
		snprintf(buf, len, "%s",
		         (size_t)b->proc < log->cp.nprocs && log->cp.procs[b->proc].name
		             ? log->cp.procs[b->proc].name
		             : "?");
	else if (b->stmt != WM_NO_STMT && t && (st = graphs__stmt_of(t, b->stmt)))
		snprintf(buf, len, "before %s", graphs__stmt_name(where, sizeof(where), t, st));
	else
		snprintf(buf, len, "to the end");
}
