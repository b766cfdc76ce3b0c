/* `pvmmon diff`'s "Why tasks wait" part: two traced runs' waiting, efficiency and the
 * computations that caused the waiting, side by side (or two untraced runs' online
 * tables), so that a change is seen to move the cause it aimed at (issue 40). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figures.h"
#include "pvmmon/errors.h"
#include "pvmmon/waits.h"

/* The causes shown: the largest of A, then those of B that A did not show. */
#define DIFF_CAUSES 8

/* A run's analysis, or why there is none (a message in why). */
typedef struct side {
	pvmmon_waits *w;
	char why[200];
} side;

static void analyse(side *s, const pvmmon_log *log)
{
	s->w = NULL;
	s->why[0] = 0;
	if (!log->trace.enabled)
		snprintf(s->why, sizeof(s->why), "no trace (run it with --trace)");
	else if (log->trace.dropped)
		snprintf(s->why, sizeof(s->why), "a trace that was cut");
	else if (pvmmon_waits_compute(&s->w, log) < 0)
		snprintf(s->why, sizeof(s->why), "a trace not analysed: %s", pvmmon_error_last());
}

/* b against a, in percent ("+12.5%"), or "" when a is 0. */
static const char *rel(char *buf, size_t len, int64_t a, int64_t b)
{
	if (a == 0)
		snprintf(buf, len, "%s", b ? "new" : "");
	else
		snprintf(buf, len, "%+.1f%%", 100.0 * (double)(b - a) / (double)a);
	return buf;
}

static void row_time(FILE *out, const char *label, int64_t a, int64_t b)
{
	char t1[32], t2[32], c[32];

	fprintf(out, "  %-40.40s %12s %12s %9s\n", label, graphs__fmt_time(t1, sizeof(t1), a),
	        graphs__fmt_time(t2, sizeof(t2), b), rel(c, sizeof(c), a, b));
}

static void row_pct(FILE *out, const char *label, double a, double b)
{
	fprintf(out, "  %-40.40s %11.1f%% %11.1f%% %+8.1f pt\n", label, 100 * a, 100 * b,
	        100 * (b - a));
}

/* One run's computations that caused waiting, named (task and computation) and with
 * their cost (direct + propagated), largest first: the traced causes or the online
 * tables, compared the same way. */
#define NAME_LEN 600
typedef struct named {
	size_t n;
	char (*name)[NAME_LEN];
	int64_t *cost;
} named;

static int named_alloc(named *v, size_t n)
{
	v->n = n;
	v->name = calloc(n ? n : 1, sizeof(*v->name));
	v->cost = calloc(n ? n : 1, sizeof(*v->cost));
	return v->name && v->cost ? 0 : pvmmon_error_set(PVMMON_ENOMEM, "out of memory");
}

static void named_free(named *v)
{
	free(v->name);
	free(v->cost);
}

static int named_causes(named *v, const pvmmon_log *log, const pvmmon_waits *w)
{
	int rc = named_alloc(v, w->ncauses);

	for (size_t i = 0; rc == 0 && i < w->ncauses; i++) {
		pvmmon_waits_cause_name(v->name[i], NAME_LEN, log, &w->causes[i]);
		v->cost[i] = w->causes[i].short_ns + w->causes[i].long_ns;
	}
	return rc;
}

static int named_blames(named *v, const pvmmon_log *log, const pvmmon_wait_blame *b, size_t n)
{
	int rc = named_alloc(v, n);

	for (size_t i = 0; rc == 0 && i < n; i++) {
		pvmmon_waits_online_name(v->name[i], NAME_LEN, log, b[i].tid, b[i].stmt);
		v->cost[i] = b[i].short_ns + b[i].long_ns;
	}
	return rc;
}

/* The index of the computation of v named name, v->n when none is. */
static size_t find_named(const named *v, const char *name)
{
	size_t i = 0;

	while (i < v->n && strcmp(v->name[i], name))
		i++;
	return i;
}

/* The largest of A, then those of B that A did not show, DIFF_CAUSES rows in all,
 * matched by name across the runs. */
static void side_by_side(FILE *out, const named *a, const named *b)
{
	size_t shown = 0;

	fprintf(out, "  %-40s %12s %12s\n", "caused by (direct + propagated)", "A", "B");
	for (size_t i = 0; i < a->n && shown < DIFF_CAUSES && a->cost[i] > 0; i++, shown++) {
		size_t j = find_named(b, a->name[i]);

		row_time(out, a->name[i], a->cost[i], j < b->n ? b->cost[j] : 0);
	}
	for (size_t i = 0; i < b->n && shown < DIFF_CAUSES && b->cost[i] > 0; i++) {
		size_t j = find_named(a, b->name[i]);

		/* Shown above already when it was among A's largest. */
		if (j < DIFF_CAUSES && j < a->n && a->cost[j] > 0)
			continue;
		row_time(out, b->name[i], j < a->n ? a->cost[j] : 0, b->cost[i]);
		shown++;
	}
}

/* The causes of two traced runs side by side. */
static int causes(FILE *out, const pvmmon_log *la, const pvmmon_waits *a, const pvmmon_log *lb,
                  const pvmmon_waits *b)
{
	named na = {0}, nb = {0};
	int rc;

	if ((rc = named_causes(&na, la, a)) == 0 && (rc = named_causes(&nb, lb, b)) == 0)
		side_by_side(out, &na, &nb);
	named_free(&na);
	named_free(&nb);
	return rc;
}

/* Two untraced runs: the tasks' own tables (log 1.14), summed, side by side; the
 * computations matched by name as the traced causes are. */
static int diff_online(FILE *out, const pvmmon_log *la, const pvmmon_wait_blame *a, size_t na,
                       const pvmmon_log *lb, const pvmmon_wait_blame *b, size_t nb)
{
	int64_t ta = 0, tb = 0, pa = 0, pb = 0;
	named va = {0}, vb = {0};
	int rc;

	for (size_t i = 0; i < na; i++) {
		ta += a[i].short_ns + a[i].long_ns;
		pa += a[i].long_ns;
	}
	for (size_t i = 0; i < nb; i++) {
		tb += b[i].short_ns + b[i].long_ns;
		pb += b[i].long_ns;
	}
	fprintf(out, "\nWhy tasks wait (A | B, online, by segment)\n");
	row_time(out, "waiting in all", ta, tb);
	row_time(out, "  propagated", pa, pb);
	if ((rc = named_blames(&va, la, a, na)) == 0 && (rc = named_blames(&vb, lb, b, nb)) == 0)
		side_by_side(out, &va, &vb);
	named_free(&va);
	named_free(&vb);
	if (rc < 0)
		return rc;
	return ferror(out) ? pvmmon_error_set(PVMMON_EIO, "diff: could not write") : 0;
}

int graphs__diff_waits(FILE *out, const pvmmon_log *la, const pvmmon_log *lb)
{
	side s[2];
	const pvmmon_waits *a, *b;
	int rc = 0;

	/* Untraced on either side: the tasks' tables, when both runs have them. */
	if (!la->trace.enabled || !lb->trace.enabled) {
		pvmmon_wait_blame *oa = NULL, *ob = NULL;
		size_t na = 0, nb = 0;

		if ((rc = pvmmon_waits_online(&oa, &na, la)) == 0 &&
		    (rc = pvmmon_waits_online(&ob, &nb, lb)) == 0 && na && nb)
			rc = diff_online(out, la, oa, na, lb, ob, nb);
		free(oa);
		free(ob);
		if (rc < 0 || (na && nb) || (!la->trace.enabled && !lb->trace.enabled))
			return rc;
	}
	analyse(&s[0], la);
	analyse(&s[1], lb);
	fprintf(out, "\nWhy tasks wait (A | B, from the traces, in virtual time)\n");
	if (!s[0].w || !s[1].w) {
		for (int k = 0; k < 2; k++)
			if (!s[k].w)
				fprintf(out, "  not compared: %s has %s\n", k ? "B" : "A",
				        s[k].why);
		goto out;
	}
	a = s[0].w;
	b = s[1].w;
	row_time(out, "waiting in all", a->total_wait_ns, b->total_wait_ns);
	row_time(out, "  late sender", a->late_sender_ns, b->late_sender_ns);
	row_time(out, "  late sender, wrong order", a->wrong_order_ns, b->wrong_order_ns);
	if (a->barrier_ns || b->barrier_ns || a->collective_ns || b->collective_ns) {
		row_time(out, "  at barriers", a->barrier_ns, b->barrier_ns);
		row_time(out, "  in collectives", a->collective_ns, b->collective_ns);
	}
	if (a->poll_ns || b->poll_ns || a->ended_ns || b->ended_ns) {
		row_time(out, "  polling", a->poll_ns, b->poll_ns);
		row_time(out, "  for ended tasks", a->ended_ns, b->ended_ns);
	}
	row_time(out, "run (first start to last end)", a->runtime_ns, b->runtime_ns);
	row_time(out, "run with free messages", a->ideal_ns, b->ideal_ns);
	row_pct(out, "parallel efficiency", a->parallel_efficiency, b->parallel_efficiency);
	row_pct(out, "  load balance", a->load_balance, b->load_balance);
	row_pct(out, "  communication efficiency", a->comm_efficiency, b->comm_efficiency);
	rc = causes(out, la, a, lb, b);
out:
	pvmmon_waits_free(s[0].w);
	pvmmon_waits_free(s[1].w);
	if (rc == 0 && ferror(out))
		rc = pvmmon_error_set(PVMMON_EIO, "diff: could not write");
	return rc;
}
