/* `pvmmon top`'s own history of each task's computing share, for runs without histograms. */
#include <stdlib.h>
#include <string.h>

#include "pvmmon/errors.h"
#include "tophist.h"

/* A sample's nominal bucket width: the shares are scaled to it. */
#define WIDTH 1000000000LL

typedef struct entry {
	int32_t tid;
	int64_t virt, stmts, end; /* the task's figures at its last sample */
	int64_t share[TOPHIST_N]; /* computing per sample, ns of WIDTH, oldest first */
	size_t n;
} entry;

struct cli_tophist {
	entry *e;
	size_t n;
};

int cli__tophist_new(cli_tophist **out)
{
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : pvmmon_error_set(PVMMON_ENOMEM, "top: out of memory");
}

void cli__tophist_free(cli_tophist *h)
{
	if (h)
		free(h->e);
	free(h);
}

static int64_t stmt_time(const pvmmon_log_task *t)
{
	int64_t s = 0;

	for (size_t i = 0; i < t->nstmts; i++)
		s += t->stmts[i].time_ns;
	return s;
}

/* The task's entry, made when it is new (NULL when out of memory). */
static entry *find(cli_tophist *h, const pvmmon_log_task *t, int *fresh)
{
	entry *e;

	*fresh = 0;
	for (size_t i = 0; i < h->n; i++)
		if (h->e[i].tid == t->tid)
			return &h->e[i];
	e = realloc(h->e, (h->n + 1) * sizeof(*e));
	if (!e)
		return NULL;
	h->e = e;
	e = &h->e[h->n++];
	memset(e, 0, sizeof(*e));
	e->tid = t->tid;
	*fresh = 1;
	return e;
}

/* The sample of t since its entry's last one, when its records advanced. */
static void sample(entry *e, const pvmmon_log_task *t, int fresh)
{
	int64_t st = stmt_time(t), dt = t->end_ns - e->end, share;

	if (!fresh && dt > 0) {
		share = (t->virtual_ns - e->virt) - (st - e->stmts);
		share = share <= 0 ? 0 : share >= dt ? WIDTH : share * WIDTH / dt;
		if (e->n == TOPHIST_N)
			memmove(e->share, e->share + 1, (TOPHIST_N - 1) * sizeof(*e->share));
		else
			e->n++;
		e->share[e->n - 1] = share;
	}
	if (fresh || dt > 0)
		e->virt = t->virtual_ns, e->stmts = st, e->end = t->end_ns;
}

static int attach(pvmmon_log_task *t, const entry *e)
{
	pvmmon_log_hist *h = calloc(1, sizeof(*h));

	if (!h || !(h->values = calloc(e->n ? e->n : 1, sizeof(*h->values)))) {
		free(h);
		return pvmmon_error_set(PVMMON_ENOMEM, "top: out of memory");
	}
	h->metric = PVMMON_HIST_COMPUTE;
	h->focus = PVMMON_FOCUS_TASK;
	h->axis = PVMMON_AXIS_REAL;
	h->width_ns = WIDTH;
	h->to_ns = -1;
	h->nbuckets = e->n;
	memcpy(h->values, e->share, e->n * sizeof(*h->values));
	t->hists = h;
	t->nhists = 1;
	return 0;
}

int cli__tophist_add(cli_tophist *h, pvmmon_log *snap)
{
	int own = 0;

	for (size_t i = 0; i < snap->ntasks; i++)
		own |= snap->tasks[i].nhists > 0;
	for (size_t i = 0; i < snap->ntasks; i++) {
		pvmmon_log_task *t = &snap->tasks[i];
		int fresh;
		entry *e = find(h, t, &fresh);

		if (!e)
			return pvmmon_error_set(PVMMON_ENOMEM, "top: out of memory");
		sample(e, t, fresh);
		/* The monitor's own histograms, when it sends them, are better than ours. */
		if (!own && e->n && attach(t, e) < 0)
			return PVMMON_ENOMEM;
	}
	return 0;
}
