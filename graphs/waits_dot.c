/* The picture of who delays whom (issue 40): one node per task, with the waiting it
 * caused and the waiting it suffered, and one arrow from each sender to each task that
 * waited for its messages, as thick as the waiting; drawn in the HTML report beside
 * "Why tasks wait". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figures.h"
#include "pvmmon/errors.h"
#include "pvmmon/waits.h"

/* The arrows drawn, largest first: a run of thousands of tasks keeps a readable picture. */
#define DOT_ARROWS 40

typedef struct arrow {
	size_t from, to;
	int64_t ns;
} arrow;

static int by_ns(const void *pa, const void *pb)
{
	const arrow *a = pa, *b = pb;

	return a->ns < b->ns ? 1 : a->ns > b->ns ? -1 : a->from < b->from ? -1 : a->from > b->from;
}

static int by_pair(const void *pa, const void *pb)
{
	const arrow *a = pa, *b = pb;

	if (a->from != b->from)
		return a->from < b->from ? -1 : 1;
	return a->to < b->to ? -1 : a->to > b->to;
}

/* The arrows (sender, waiter, summed waiting) of w's states, merged, largest first,
 * into *out: sorted by pair and merged, so that 10^5 waits take no quadratic time. */
static int arrows_of(const pvmmon_waits *w, arrow **out, size_t *n)
{
	arrow *a = calloc(w->nstates ? w->nstates : 1, sizeof(*a));
	size_t k = 0;

	if (!a)
		return pvmmon_error_set(PVMMON_ENOMEM, "waits: out of memory");
	for (size_t i = 0; i < w->nstates; i++)
		a[i] = (arrow){w->states[i].from, w->states[i].task, w->states[i].wait_ns};
	qsort(a, w->nstates, sizeof(*a), by_pair);
	for (size_t i = 0; i < w->nstates; i++) {
		if (k && a[k - 1].from == a[i].from && a[k - 1].to == a[i].to)
			a[k - 1].ns += a[i].ns;
		else
			a[k++] = a[i];
	}
	qsort(a, k, sizeof(*a), by_ns);
	*out = a;
	*n = k;
	return 0;
}

static const char *lid(const pvmmon_log *log, size_t t)
{
	return t < log->ntasks && log->tasks[t].lid ? log->tasks[t].lid : "?";
}

int pvmmon_waits_dot(const pvmmon_log *log, FILE *out)
{
	pvmmon_waits *w = NULL;
	arrow *a = NULL;
	size_t n = 0, shown;
	int64_t *caused = NULL, *suffered = NULL, top = 1;
	char t1[32], t2[32];
	int rc;

	if (!log || !out)
		return pvmmon_error_set(PVMMON_EINVAL, "waits: no log or no output");
	rc = pvmmon_waits_compute(&w, log);
	if (rc == 0)
		rc = arrows_of(w, &a, &n);
	if (rc < 0)
		goto out;
	caused = calloc(log->ntasks + 1, sizeof(*caused));
	suffered = calloc(log->ntasks + 1, sizeof(*suffered));
	if (!caused || !suffered) {
		rc = pvmmon_error_set(PVMMON_ENOMEM, "waits: out of memory");
		goto out;
	}
	for (size_t i = 0; i < w->ncauses; i++)
		if (w->causes[i].task < log->ntasks)
			caused[w->causes[i].task] += w->causes[i].short_ns + w->causes[i].long_ns;
	for (size_t i = 0; i < w->nstates; i++)
		if (w->states[i].task < log->ntasks)
			suffered[w->states[i].task] += w->states[i].wait_ns;
	shown = n < DOT_ARROWS ? n : DOT_ARROWS;
	if (n)
		top = a[0].ns > 0 ? a[0].ns : 1;
	fprintf(out,
	        "digraph delays {\n  rankdir=LR;\n  node [shape=box, style=filled, "
	        "fontname=Helvetica, fontsize=10];\n  edge [fontname=Helvetica, fontsize=9];\n");
	for (size_t t = 0; t < log->ntasks; t++) {
		/* Red as the share of all waiting the task's computation caused. */
		double share =
		    w->total_wait_ns > 0 ? (double)caused[t] / (double)w->total_wait_ns : 0;
		int g = 255 - (int)(share > 1 ? 255 : 255 * share);

		fprintf(
		    out,
		    "  t%zu [label=\"%s\\ncaused %s\\nwaited %s\", fillcolor=\"#ff%02x%02x\"];\n",
		    t, lid(log, t), graphs__fmt_time(t1, sizeof(t1), caused[t]),
		    graphs__fmt_time(t2, sizeof(t2), suffered[t]), g, g);
	}
	for (size_t i = 0; i < shown; i++)
		fprintf(out, "  t%zu -> t%zu [label=\"%s\", penwidth=%.1f];\n", a[i].from, a[i].to,
		        graphs__fmt_time(t1, sizeof(t1), a[i].ns),
		        1.0 + 5.0 * (double)a[i].ns / (double)top);
	if (n > shown)
		fprintf(out,
		        "  more [shape=plaintext, style=\"\", label=\"%zu smaller arrows not "
		        "drawn\"];\n",
		        n - shown);
	fputs("}\n", out);
	if (ferror(out))
		rc = pvmmon_error_set(PVMMON_EIO, "waits: could not write the picture");
out:
	free(caused);
	free(suffered);
	free(a);
	pvmmon_waits_free(w);
	return rc;
}

int graphs__waits_drawn(const pvmmon_log *log)
{
	return log->trace.enabled && !log->trace.dropped && !getenv("PVMMON_NO_WAITS") &&
	       log->ntasks > 1;
}
