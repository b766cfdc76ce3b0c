/* The phases of a run found in its time histograms, and the text report's Phases section. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "figures.h"
#include "histo.h"
#include "pvmmon/errors.h"

/* Statements listed per phase. */
#define TOP_STMTS 3

/* Prefix sums of the columns: weight (time), time per state, and weight times the
 * squared share vector, so that any run of columns' spread costs O(1). */
typedef struct prefix {
	double *w, (*s)[GRAPHS_NSTATES], *q;
} prefix;

/* The weighted squared distance of columns [a, b) from their mean share vector. */
static double seg_cost(const prefix *p, size_t a, size_t b)
{
	double w = p->w[b] - p->w[a], m = 0;

	if (w <= 0)
		return 0;
	for (int k = 0; k < GRAPHS_NSTATES; k++) {
		double s = p->s[b][k] - p->s[a][k];

		m += s * s;
	}
	return p->q[b] - p->q[a] - m / w;
}

static void seg_shares(const prefix *p, size_t a, size_t b, double share[GRAPHS_NSTATES])
{
	double w = p->w[b] - p->w[a];

	for (int k = 0; k < GRAPHS_NSTATES; k++)
		share[k] = w > 0 ? (p->s[b][k] - p->s[a][k]) / w : 0;
}

/* Whether neighbouring phases of cut (k phases, boundaries at cut[0..k]) differ by at
 * least 10 points of some state's share. */
static int distinct(const prefix *p, const size_t *cut, size_t k)
{
	for (size_t i = 1; i < k; i++) {
		double a[GRAPHS_NSTATES], b[GRAPHS_NSTATES], d = 0;

		seg_shares(p, cut[i - 1], cut[i], a);
		seg_shares(p, cut[i], cut[i + 1], b);
		for (int s = 0; s < GRAPHS_NSTATES; s++)
			if (a[s] - b[s] > d || b[s] - a[s] > d)
				d = a[s] > b[s] ? a[s] - b[s] : b[s] - a[s];
		if (d < 0.10)
			return 0;
	}
	return 1;
}

/*
 * The least cost of splitting columns [0, n) into exactly k runs of at least minlen
 * (cost[k][j]: the first j columns in k runs; from[k][j]: where the last run starts).
 */
static void fill(const prefix *p, size_t n, size_t max, size_t minlen, double *cost, size_t *from)
{
	size_t w = n + 1;

	for (size_t j = 0; j <= n; j++)
		cost[1 * w + j] = j >= minlen ? seg_cost(p, 0, j) : INFINITY;
	for (size_t k = 2; k <= max; k++)
		for (size_t j = 0; j <= n; j++) {
			cost[k * w + j] = INFINITY;
			for (size_t i = (k - 1) * minlen; i + minlen <= j; i++) {
				double c = cost[(k - 1) * w + i] + seg_cost(p, i, j);

				/* Strictly less: on ties the earliest split wins,
				 * deterministically. */
				if (c < cost[k * w + j]) {
					cost[k * w + j] = c;
					from[k * w + j] = i;
				}
			}
		}
}

static size_t choose(const prefix *p, size_t n, size_t max, size_t minlen, const double *cost,
                     const size_t *from, size_t *cut)
{
	size_t w = n + 1, best = 1, tmp[GRAPHS_MAX_PHASES + 1];

	cut[0] = 0;
	cut[1] = n;
	for (size_t k = 2; k <= max && k * minlen <= n; k++) {
		size_t j = n;

		/* Each phase more must explain a quarter of what the fewer left unexplained. */
		if (!(cost[k * w + n] < 0.75 * cost[best * w + n]))
			continue;
		tmp[k] = n;
		for (size_t kk = k; kk > 1; kk--) {
			j = from[kk * w + j];
			tmp[kk - 1] = j;
		}
		tmp[0] = 0;
		if (!distinct(p, tmp, k))
			continue;
		best = k;
		memcpy(cut, tmp, (k + 1) * sizeof(*cut));
	}
	return best;
}

size_t graphs__split_phases(const double (*v)[GRAPHS_NSTATES], size_t n, size_t max, size_t minlen,
                            graphs_phase *out)
{
	size_t lo = 0, hi = n, m, k = 0, cut[GRAPHS_MAX_PHASES + 1];
	prefix p = {NULL, NULL, NULL};
	double *cost = NULL;
	size_t *from = NULL;

	if (max > GRAPHS_MAX_PHASES)
		max = GRAPHS_MAX_PHASES;
	if (minlen < 1)
		minlen = 1;
	/* Only the columns from the first with time to the last: before and after, nothing
	 * ran, which is no phase. */
	while (lo < hi && v[lo][0] + v[lo][1] + v[lo][2] + v[lo][3] <= 0)
		lo++;
	while (hi > lo && v[hi - 1][0] + v[hi - 1][1] + v[hi - 1][2] + v[hi - 1][3] <= 0)
		hi--;
	m = hi - lo;
	if (!m || !max)
		return 0;
	p.w = calloc(m + 1, sizeof(*p.w));
	p.s = calloc(m + 1, sizeof(*p.s));
	p.q = calloc(m + 1, sizeof(*p.q));
	cost = calloc((max + 1) * (m + 1), sizeof(*cost));
	from = calloc((max + 1) * (m + 1), sizeof(*from));
	if (!p.w || !p.s || !p.q || !cost || !from)
		goto out;
	for (size_t c = 0; c < m; c++) {
		double w = 0, q = 0;

		for (int s = 0; s < GRAPHS_NSTATES; s++) {
			w += v[lo + c][s];
			q += v[lo + c][s] * v[lo + c][s];
			p.s[c + 1][s] = p.s[c][s] + v[lo + c][s];
		}
		p.w[c + 1] = p.w[c] + w;
		p.q[c + 1] = p.q[c] + (w > 0 ? q / w : 0);
	}
	if (m < minlen) {
		cut[0] = 0;
		cut[1] = m;
		k = 1;
	} else {
		fill(&p, m, max, minlen, cost, from);
		k = choose(&p, m, max, minlen, cost, from, cut);
	}
	for (size_t i = 0; i < k; i++) {
		memset(&out[i], 0, sizeof(out[i]));
		out[i].first = lo + cut[i];
		out[i].end = lo + cut[i + 1];
		seg_shares(&p, cut[i], cut[i + 1], out[i].share);
	}
out:
	free(p.w);
	free(p.s);
	free(p.q);
	free(cost);
	free(from);
	return k;
}

int graphs__log_phases(const pvmmon_log *log, graphs_phase *out, size_t *n)
{
	graphs_grid g;
	double(*v)[GRAPHS_NSTATES];
	int rc = graphs__hist_grid(log, &g);

	*n = 0;
	if (rc < 0)
		return rc;
	v = calloc(g.n ? g.n : 1, sizeof(*v));
	if (!v)
		return pvmmon_error_set(PVMMON_ENOMEM, "report: out of memory");
	graphs__program_states(log, &g, v);
	*n = graphs__split_phases((const double(*)[GRAPHS_NSTATES])v, g.n, GRAPHS_MAX_PHASES,
	                          GRAPHS_MIN_PHASE, out);
	for (size_t i = 0; i < *n; i++) {
		out[i].from_ns = (int64_t)out[i].first * g.width;
		out[i].to_ns = (int64_t)out[i].end * g.width;
	}
	free(v);
	return 0;
}

/* One statement's time in a phase, for the phase's top list: the same statement (by
 * name) of several tasks is one entry, with the number of tasks and the first's id. */
typedef struct stmt_time {
	char name[200];
	const char *lid;
	size_t tasks;
	double ns;
} stmt_time;

static int cmp_name(const void *a, const void *b)
{
	const stmt_time *x = a, *y = b;

	return strcmp(x->name, y->name);
}

static int cmp_time(const void *a, const void *b)
{
	const stmt_time *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns > y->ns ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* The statement histograms' time in phase ph into st (one per histogram, named). */
static size_t stmt_times(const pvmmon_log *log, pvmmon_hist_axis axis, const graphs_phase *ph,
                         stmt_time *st, size_t nst)
{
	size_t k = 0;

	for (size_t i = 0; i < log->ntasks; i++)
		for (size_t j = 0; j < log->tasks[i].nhists && k < nst; j++) {
			const pvmmon_log_task *tk = &log->tasks[i];
			const pvmmon_log_hist *h = &tk->hists[j];
			const pvmmon_log_stmt *s = NULL;

			if (h->focus != PVMMON_FOCUS_STMT || h->metric != PVMMON_HIST_TIME ||
			    h->axis != axis)
				continue;
			for (size_t m = 0; m < tk->nstmts && !s; m++)
				if (tk->stmts[m].id == h->stmt)
					s = &tk->stmts[m];
			if (s)
				graphs__stmt_name(st[k].name, sizeof(st[k].name), tk, s);
			else
				snprintf(st[k].name, sizeof(st[k].name), "statement %u of task %s",
				         (unsigned)h->stmt, tk->lid ? tk->lid : "?");
			st[k].lid = tk->lid ? tk->lid : "?";
			st[k].tasks = 1;
			st[k].ns = graphs__hist_sum(h, ph->from_ns, ph->to_ns);
			k++;
		}
	return k;
}

/* The statements with the most time in a phase, from their histograms; a statement of
 * several tasks (the same file:line) summed over them, so that 128 workers waiting at
 * one receive are one line. */
static void top_statements(const pvmmon_log *log, pvmmon_hist_axis axis, const graphs_phase *ph,
                           stmt_time *st, size_t nst, FILE *out)
{
	char t[32], who[64];
	size_t k = stmt_times(log, axis, ph, st, nst), m = 0, shown = 0;

	/* A stable sort is not needed: equal names are summed, whatever their order. */
	qsort(st, k, sizeof(*st), cmp_name);
	for (size_t i = 0; i < k; i++) {
		if (m && !strcmp(st[m - 1].name, st[i].name)) {
			st[m - 1].ns += st[i].ns;
			st[m - 1].tasks++;
			continue;
		}
		st[m++] = st[i];
	}
	qsort(st, m, sizeof(*st), cmp_time);
	for (size_t i = 0; i < m && shown < TOP_STMTS && st[i].ns >= 0.5; i++, shown++) {
		if (st[i].tasks == 1)
			snprintf(who, sizeof(who), "task %s", st[i].lid);
		else
			snprintf(who, sizeof(who), "%zu tasks", st[i].tasks);
		fprintf(out, "      %-44s %-12s %12s\n", st[i].name, who,
		        graphs__fmt_time(t, sizeof(t), graphs__round(st[i].ns)));
	}
	if (!shown)
		fprintf(out, "      (no statement histogram has time in this phase)\n");
}

int graphs__report_phases(const pvmmon_log *log, FILE *out)
{
	graphs_phase ph[GRAPHS_MAX_PHASES];
	graphs_grid g;
	stmt_time *st;
	size_t n = 0, nst = 0;
	char t1[32], t2[32];
	int rc;

	if (graphs__hist_grid(log, &g) < 0)
		return 0;
	rc = graphs__log_phases(log, ph, &n);
	if (rc < 0)
		return rc;
	for (size_t i = 0; i < log->ntasks; i++)
		nst += log->tasks[i].nhists;
	st = calloc(nst ? nst : 1, sizeof(*st));
	if (!st)
		return pvmmon_error_set(PVMMON_ENOMEM, "report: out of memory");
	fprintf(out,
	        "\nPhases (where the program's shares of compute, wait, pvm and overhead "
	        "change most; %s time, buckets of %s)\n",
	        g.axis == PVMMON_AXIS_VIRTUAL ? "virtual" : "real",
	        graphs__fmt_time(t1, sizeof(t1), g.width));
	if (!n)
		fprintf(out, "  no task spent time in any bucket\n");
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "  phase %zu: %s to %s:", i + 1,
		        graphs__fmt_time(t1, sizeof(t1), ph[i].from_ns),
		        graphs__fmt_time(t2, sizeof(t2), ph[i].to_ns));
		for (int k = 0; k < GRAPHS_NSTATES; k++)
			fprintf(out, " %s %.1f%%", graphs__state_name(k), 100 * ph[i].share[k]);
		fprintf(out, "\n    top statements:\n");
		top_statements(log, g.axis, &ph[i], st, nst, out);
	}
	free(st);
	return 0;
}
