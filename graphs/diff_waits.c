/* `pvmmon diff`'s "Why tasks wait" part: two traced runs' waiting, efficiency and the
 * computations that caused the waiting, side by side, so that a change is seen to move
 * the cause it aimed at (issue 40). */
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

/* The cause of w (on log) named name, NULL when none is. */
static const pvmmon_wait_cause *find_cause(const pvmmon_log *log, const pvmmon_waits *w,
                                           const char *name)
{
	char other[600];

	for (size_t i = 0; i < w->ncauses; i++) {
		pvmmon_waits_cause_name(other, sizeof(other), log, &w->causes[i]);
		if (!strcmp(other, name))
			return &w->causes[i];
	}
	return NULL;
}

static int64_t cost(const pvmmon_wait_cause *c) { return c ? c->short_ns + c->long_ns : 0; }

/* The causes, matched by name (task and computation) across the runs. */
static void causes(FILE *out, const pvmmon_log *la, const pvmmon_waits *a, const pvmmon_log *lb,
                   const pvmmon_waits *b)
{
	char name[600];
	size_t shown = 0;

	fprintf(out, "  %-40s %12s %12s\n", "caused by (direct + propagated)", "A", "B");
	for (size_t i = 0; i < a->ncauses && shown < DIFF_CAUSES; i++) {
		if (cost(&a->causes[i]) <= 0)
			break;
		pvmmon_waits_cause_name(name, sizeof(name), la, &a->causes[i]);
		row_time(out, name, cost(&a->causes[i]), cost(find_cause(lb, b, name)));
		shown++;
	}
	for (size_t i = 0; i < b->ncauses && shown < DIFF_CAUSES; i++) {
		const pvmmon_wait_cause *c;

		if (cost(&b->causes[i]) <= 0)
			break;
		pvmmon_waits_cause_name(name, sizeof(name), lb, &b->causes[i]);
		c = find_cause(la, a, name);
		/* Shown above already when it was among A's largest. */
		if (c && (size_t)(c - a->causes) < DIFF_CAUSES && cost(c) > 0)
			continue;
		row_time(out, name, cost(c), cost(&b->causes[i]));
		shown++;
	}
}

int graphs__diff_waits(FILE *out, const pvmmon_log *la, const pvmmon_log *lb)
{
	side s[2];
	const pvmmon_waits *a, *b;

	if (!la->trace.enabled && !lb->trace.enabled)
		return 0;
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
	causes(out, la, a, lb, b);
out:
	pvmmon_waits_free(s[0].w);
	pvmmon_waits_free(s[1].w);
	return ferror(out) ? pvmmon_error_set(PVMMON_EIO, "diff: could not write") : 0;
}
