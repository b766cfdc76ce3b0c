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

int waits__collective(const pvmmon_log_task *t, uint32_t id)
{
	static const char *const ops[] = {"pvm_bcast", "pvm_reduce", "pvm_gather", "pvm_scatter"};
	const char *op = waits__op_of(t, id);

	for (size_t k = 0; op && k < sizeof(ops) / sizeof(*ops); k++)
		if (!strcmp(op, ops[k]))
			return 1;
	return 0;
}

static int by_place(const void *pa, const void *pb)
{
	const wm_barrier_wait *a = pa, *b = pb;

	if (a->task != b->task)
		return a->task < b->task ? -1 : 1;
	return a->event < b->event ? -1 : a->event > b->event;
}

/*
 * Instance k's members (tasks with a k-th call), its latecomer (the last to arrive:
 * waits__bar_late) and each other member's wait: after the first instance, the
 * latecomer's time since the previous instance less the member's. The first has no
 * moment before it that the members' virtual clocks share (a join waits for the group
 * server in real time): a member's wait is its time in the call, as its clock measured
 * it, less the latecomer's (the group server's round trip).
 */
static int instance(wm_model *m, size_t k, wm_barrier_wait **v, size_t *n, size_t *cap)
{
	size_t late = m->bars[k].late;
	int64_t dmax = waits__bar_arrival(m, late, k);

	for (size_t x = 0; x < m->ntasks; x++) {
		const wm_task *w = &m->tasks[x], *l = &m->tasks[late];
		const pvmmon_log_event *ev = w->t->events, *lev = l->t->events;
		int64_t since, d;

		if (w->nbar <= k || x == late)
			continue;
		since = k ? ev[w->brelease[k - 1]].vt1 : 0;
		d = k ? waits__bar_arrival(m, x, k)
		      : dmax - (waits__bar_in_call(m, x, k) - waits__bar_in_call(m, late, k));
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
		(*v)[(*n)++] = (wm_barrier_wait){x,
		                                 w->brelease[k],
		                                 late,
		                                 l->bfirst[k],
		                                 dmax - d,
		                                 k ? since : w->vstart,
		                                 ev[w->bfirst[k]].vt0,
		                                 k ? lev[l->brelease[k - 1]].vt1 : l->vstart,
		                                 lev[l->bfirst[k]].vt0};
		m->tasks[x].gwait[w->brelease[k]] = dmax - d;
	}
	return 0;
}

int waits__barriers(wm_model *m, wm_barrier_wait **out, size_t *n)
{
	size_t cap = 0;
	int rc = 0;

	*out = NULL;
	*n = 0;
	for (size_t x = 0; x < m->ntasks && rc == 0; x++)
		if (m->tasks[x].nbar &&
		    !(m->tasks[x].gwait = calloc(m->tasks[x].t->nevents + 1, sizeof(int64_t))))
			rc = pvmmon_error_set(PVMMON_ENOMEM, "out of memory");
	for (size_t k = 0; k < m->nbars && rc == 0; k++)
		if (m->bars[k].members >= 2)
			rc = instance(m, k, out, n, &cap);
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
