/*
 * Waits at barriers and group collectives (include/pvmmon/waits.h): libgpvm3's
 * pvm_barrier is a request to the group server and its answer, and the group server is
 * not monitored, so its answer carries no virtual time and the trace's receive shows no
 * waiting. The barrier's waits are worked out from the members' arrivals instead.
 */
#include <stdlib.h>
#include <string.h>

#include "pvmmon/errors.h"
#include "waits_coll.h"

/* One task's barrier calls: the first event of each and its release (a receive). */
typedef struct calls {
	size_t *first, *release;
	size_t n;
} calls;

static const char *op_of(const pvmmon_log_task *t, uint32_t id)
{
	for (size_t s = 0; s < t->nstmts; s++)
		if (t->stmts[s].id == id)
			return t->stmts[s].op;
	return NULL;
}

int waits__collective(const pvmmon_log_task *t, uint32_t id)
{
	static const char *const ops[] = {"pvm_bcast", "pvm_reduce", "pvm_gather", "pvm_scatter"};
	const char *op = op_of(t, id);

	for (size_t k = 0; op && k < sizeof(ops) / sizeof(*ops); k++)
		if (!strcmp(op, ops[k]))
			return 1;
	return 0;
}

/* Task t's barrier calls into *c: a call's events are a run of events of a pvm_barrier
 * statement up to its first receive (a call at the same site next begins after it). */
static int find_calls(const pvmmon_log_task *t, calls *c)
{
	size_t first = WM_NONE;

	memset(c, 0, sizeof(*c));
	for (size_t i = 0; i < t->nevents; i++) {
		const pvmmon_log_event *e = &t->events[i];
		const char *op;

		if (!waits__is_call(e) || !(op = op_of(t, e->stmt)) || strcmp(op, "pvm_barrier") != 0) {
			first = WM_NONE;
			continue;
		}
		if (first == WM_NONE || t->events[first].stmt != e->stmt)
			first = i;
		if (!pvmmon_event_op_receives(e->op))
			continue;
		if (!c->n || (c->n & (c->n - 1)) == 0) {
			size_t cap = c->n ? 2 * c->n : 1;
			size_t *f = realloc(c->first, cap * sizeof(size_t));

			if (f)
				c->first = f;
			if (!f || !(f = realloc(c->release, cap * sizeof(size_t))))
				return pvmmon_error_set(PVMMON_ENOMEM, "out of memory");
			c->release = f;
		}
		c->first[c->n] = first;
		c->release[c->n++] = i;
		first = WM_NONE;
	}
	return 0;
}

static int by_place(const void *pa, const void *pb)
{
	const wm_barrier_wait *a = pa, *b = pb;

	if (a->task != b->task)
		return a->task < b->task ? -1 : 1;
	return a->event < b->event ? -1 : a->event > b->event;
}

/* Member x's measure at instance k: after the first, the virtual time it took since it
 * left instance k-1 (the members left it together, at the group server's one answer:
 * the latest arrives last); at the first, its arrival in real time. */
static int64_t arrival(const wm_model *m, const calls *c, size_t x, size_t k)
{
	const pvmmon_log_event *ev = m->tasks[x].t->events;

	return k ? ev[c[x].first[k]].vt0 - ev[c[x].release[k - 1]].vt1 : ev[c[x].first[k]].rt[0];
}

/* The time member x spent in its call k, in its virtual time. */
static int64_t in_call(const wm_model *m, const calls *c, size_t x, size_t k)
{
	const pvmmon_log_event *ev = m->tasks[x].t->events;

	return ev[c[x].release[k]].vt1 - ev[c[x].first[k]].vt0;
}

/*
 * Instance k's members (tasks with a k-th call), its latecomer (the last to arrive) and
 * each other member's wait: after the first instance, the latecomer's time since the
 * previous instance less the member's. The first has no moment before it that the
 * members' virtual clocks share (a join waits for the group server in real time): a
 * member's wait is its time in the call, as its clock measured it, less the latecomer's
 * (the group server's round trip).
 */
static int instance(wm_model *m, const calls *c, size_t k, wm_barrier_wait **v, size_t *n,
                    size_t *cap)
{
	size_t late = WM_NONE, members = 0;
	int64_t dmax = INT64_MIN;

	for (size_t x = 0; x < m->ntasks; x++) {
		int64_t d;

		if (c[x].n <= k)
			continue;
		members++;
		if ((d = arrival(m, c, x, k)) > dmax) {
			dmax = d;
			late = x;
		}
	}
	if (members < 2)
		return 0;
	for (size_t x = 0; x < m->ntasks; x++) {
		const pvmmon_log_event *ev = m->tasks[x].t->events, *lev = m->tasks[late].t->events;
		int64_t since, d;

		if (c[x].n <= k || x == late)
			continue;
		since = k ? ev[c[x].release[k - 1]].vt1 : 0;
		d = k ? arrival(m, c, x, k) : dmax - (in_call(m, c, x, k) - in_call(m, c, late, k));
		if (dmax - d <= 0)
			continue;
		if (*n == *cap) {
			size_t nc = *cap ? 2 * *cap : 64;
			wm_barrier_wait *g = realloc(*v, nc * sizeof(*g));

			if (!g)
				return pvmmon_error_set(PVMMON_ENOMEM, "out of memory");
			*v = g;
			*cap = nc;
		}
		(*v)[(*n)++] = (wm_barrier_wait){
		    x, c[x].release[k], late, c[late].first[k], dmax - d,
		    k ? since : m->tasks[x].vstart, ev[c[x].first[k]].vt0,
		    k ? lev[c[late].release[k - 1]].vt1 : m->tasks[late].vstart,
		    lev[c[late].first[k]].vt0};
		m->tasks[x].gwait[c[x].release[k]] = dmax - d;
	}
	return 0;
}

int waits__barriers(wm_model *m, wm_barrier_wait **out, size_t *n)
{
	calls *c = calloc(m->ntasks + 1, sizeof(*c));
	size_t most = 0, cap = 0;
	int rc = 0;

	*out = NULL;
	*n = 0;
	if (!c)
		return pvmmon_error_set(PVMMON_ENOMEM, "out of memory");
	for (size_t x = 0; x < m->ntasks && rc == 0; x++) {
		rc = find_calls(m->tasks[x].t, &c[x]);
		if (rc == 0 && c[x].n &&
		    !(m->tasks[x].gwait = calloc(m->tasks[x].t->nevents + 1, sizeof(int64_t))))
			rc = pvmmon_error_set(PVMMON_ENOMEM, "out of memory");
		if (c[x].n > most)
			most = c[x].n;
	}
	/* The log does not name the group (the request goes to the group server): the k-th
	 * barrier of every task that calls pvm_barrier is taken as one instance. */
	for (size_t k = 0; k < most && rc == 0; k++)
		rc = instance(m, c, k, out, n, &cap);
	for (size_t x = 0; x < m->ntasks; x++) {
		free(c[x].first);
		free(c[x].release);
	}
	free(c);
	if (rc < 0) {
		free(*out);
		*out = NULL;
		*n = 0;
		return rc;
	}
	if (*n > 1)
		qsort(*out, *n, sizeof(**out), by_place);
	return 0;
}

const wm_barrier_wait *waits__barrier_of(const wm_barrier_wait *v, size_t n, size_t x, size_t i)
{
	wm_barrier_wait key = {.task = x, .event = i};

	return n ? bsearch(&key, v, n, sizeof(*v), by_place) : NULL;
}
