/*
 * Choosing what the critical path is computed for while the program runs: `--cp=auto`
 * (the procedures with the most time after a first phase) and the top-m search of seed
 * 003 Appendix B (buckets of procedures, the buckets under 1/m of the path dropped at
 * the end of each phase, until every bucket left is one procedure).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/clock.h"
#include "cpsearch.h"
#include "critpath.h"
#include "tasks.h"

/* Procedures auto selects. */
#define AUTO_PROCS 8

typedef struct cand {
	const char *name; /* borrowed from a task's proc record */
	int64_t self_ns;  /* exclusive time summed over tasks */
} cand;

static int cmp_cand(const void *a, const void *b)
{
	const cand *x = a, *y = b;

	if (x->self_ns != y->self_ns)
		return x->self_ns > y->self_ns ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* The timed procedures of the run so far by exclusive time, most first (*n of them). */
static cand *candidates(const mon_run *run, size_t *n)
{
	cand *c = NULL;
	size_t cap = 0, k;

	*n = 0;
	for (size_t i = 0; i < tasks__count(run); i++) {
		const pvmmon_log_task *t = &tasks__at(run, i)->rec;

		for (size_t j = 0; j < t->nprocs; j++) {
			const pvmmon_log_proc *p = &t->procs[j];

			if (p->counted || !p->name)
				continue;
			for (k = 0; k < *n && strcmp(c[k].name, p->name); k++)
				;
			if (k == *n) {
				if (*n == cap) {
					cand *g =
					    realloc(c, (cap = cap ? 2 * cap : 32) * sizeof(*g));

					if (!g)
						return c;
					c = g;
				}
				c[(*n)++] = (cand){p->name, 0};
			}
			c[k].self_ns += p->excl_ns;
		}
	}
	if (*n)
		qsort(c, *n, sizeof(*c), cmp_cand);
	return c;
}

/* Appends name to the list s (a heap string) after separator sep. */
static char *append(char *s, char sep, const char *name)
{
	char *r = NULL;

	if (asprintf(&r, "%s%s%s", s ? s : "", s && *s ? (char[2]){sep, 0} : "", name) < 0)
		r = NULL;
	free(s);
	return r;
}

/* Starts a phase of the search with the candidates in 2m buckets (round robin, so the
 * heaviest procedures land in different buckets). */
static void search_phase(mon_run *run)
{
	size_t nb = 2 * (size_t)run->cp_top_m, i;
	char **bucket = calloc(nb, sizeof(*bucket));
	char *sel = NULL;

	if (!bucket)
		return;
	if (run->cp_ncands < nb)
		nb = run->cp_ncands;
	for (i = 0; i < run->cp_ncands; i++)
		bucket[i % nb] = append(bucket[i % nb], '+', run->cp_cands[i]);
	for (i = 0; i < nb; i++) {
		if (bucket[i])
			sel = append(sel, ',', bucket[i]);
		free(bucket[i]);
	}
	free(bucket);
	if (sel) {
		run->cp_phases++;
		critpath__start(run, sel, run->cp_exclusive);
	}
	free(sel);
}

/* Ends a phase: keeps the procedures of buckets holding at least 1/m of the path.
 * Returns 1 when the search is over (every bucket kept is one procedure). */
static int search_step(mon_run *run)
{
	const mon_task *best = NULL;
	char **keep = NULL;
	size_t nkeep = 0, k = 0, i;
	int singles = 1;
	const char *p = run->cp_procs;

	for (i = 0; i < tasks__count(run); i++) {
		const mon_task *t = tasks__at(run, i);

		if (t->cp.on && (!best || t->cp.longest > best->cp.longest))
			best = t;
	}
	keep = calloc(run->cp_ncands ? run->cp_ncands : 1, sizeof(*keep));
	for (; keep && p && *p; k++) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		int64_t share = best && k < best->cp.n ? best->cp.share[k] : 0;

		/* share >= length / m, in integers. */
		if (best && share * run->cp_top_m >= best->cp.longest && share > 0) {
			const char *q = p;

			if (memchr(p, '+', len))
				singles = 0;
			while (q < p + len) {
				const char *qe = memchr(q, '+', (size_t)(p + len - q));
				size_t ql = qe ? (size_t)(qe - q) : (size_t)(p + len - q);

				keep[nkeep++] = strndup(q, ql);
				q += ql + (qe ? 1 : 0);
			}
		}
		p += len + (e ? 1 : 0);
	}
	for (i = 0; i < run->cp_ncands; i++)
		free(run->cp_cands[i]);
	free(run->cp_cands);
	run->cp_cands = keep;
	run->cp_ncands = keep ? nkeep : 0;
	return singles || nkeep == 0;
}

/* Whether every running task has sent a sample of the current selection (a phase's
 * values are whole). */
static int samples_in(const mon_run *run)
{
	for (size_t i = 0; i < tasks__count(run); i++) {
		const mon_task *t = tasks__at(run, i);

		if (tasks__running(t) && !t->cp.on)
			return 0;
	}
	return run->cp_samples > 0;
}

void cpsearch__tick(mon_run *run, int64_t now)
{
	if ((!run->cp_auto && !run->cp_top_m) || run->cp_search_done || tasks__count(run) == 0)
		return;
	if (!run->cp_phase_start) {
		run->cp_phase_start = now;
		return;
	}
	if (now - run->cp_phase_start < run->cp_phase_ns)
		return;
	/* A phase ends once its samples are in (tasks send them at their flushes), or
	 * after three phase lengths with what there is. */
	if (run->cp_cands && !samples_in(run) && now - run->cp_phase_start < 3 * run->cp_phase_ns)
		return;
	run->cp_phase_start = now;
	if (!run->cp_cands) {
		/* The end of the first phase: the procedures seen so far. */
		size_t n = 0;
		cand *c = candidates(run, &n);

		run->cp_cands = calloc(n ? n : 1, sizeof(char *));
		for (size_t i = 0; run->cp_cands && i < n; i++)
			run->cp_cands[run->cp_ncands++] = strdup(c[i].name);
		free(c);
		if (!run->cp_ncands) {
			/* Nothing probed yet (no flush so far): wait another phase. */
			free(run->cp_cands);
			run->cp_cands = NULL;
			return;
		}
		if (run->cp_auto) {
			char *sel = NULL;

			for (size_t i = 0; i < run->cp_ncands && i < AUTO_PROCS; i++)
				sel = append(sel, ',', run->cp_cands[i]);
			if (sel)
				critpath__start(run, sel, run->cp_exclusive);
			free(sel);
			run->cp_search_done = 1;
			return;
		}
		search_phase(run);
		return;
	}
	if (search_step(run)) {
		char *found = NULL;

		for (size_t i = 0; i < run->cp_ncands; i++)
			found = append(found, ',', run->cp_cands[i]);
		free(run->cp_found);
		run->cp_found = found ? found : strdup("");
		run->cp_search_done = 1;
		/* The last phase's values stay: its buckets are the procedures found. */
		critpath__stop(run);
		return;
	}
	search_phase(run);
}

void cpsearch__free(mon_run *run)
{
	for (size_t i = 0; i < run->cp_ncands; i++)
		free(run->cp_cands[i]);
	free(run->cp_cands);
	run->cp_cands = NULL;
	run->cp_ncands = 0;
	free(run->cp_found);
	run->cp_found = NULL;
}
