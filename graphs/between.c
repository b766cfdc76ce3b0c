/* `pvmmon report --between T0 T1`: the profile tables restricted to an interval, from the
 * histograms. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "figures.h"
#include "histo.h"
#include "pvmmon/errors.h"
#include "pvmmon/report.h"

int pvmmon_report_parse_time(const char *s, int64_t *ns)
{
	static const struct {
		const char *unit;
		double ns;
	} units[] = {{"ns", 1}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9}};
	char *end;
	double v;

	if (!s || !ns)
		return pvmmon_error_set(PVMMON_EINVAL, "no time given");
	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno || !isfinite(v) || v < 0 || isspace((unsigned char)*s))
		return pvmmon_error_set(
		    PVMMON_EINVAL,
		    "'%s' is not a time (a number and a unit: 1.5s, 200ms, 30us, "
		    "500ns)",
		    s);
	/* A unit is needed, but zero is zero in any. */
	if (!*end && v == 0) {
		*ns = 0;
		return 0;
	}
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(end, units[i].unit)) {
			if (v * units[i].ns > 9.2e18)
				break;
			*ns = graphs__round(v * units[i].ns);
			return 0;
		}
	return pvmmon_error_set(
	    PVMMON_EINVAL, "'%s' is not a time (a number and a unit: 1.5s, 200ms, 30us, 500ns)", s);
}

/* A value cell: a time, a count, or "n/a" when the item has no histogram; marked with a
 * star (and *partial set) when the histogram collected over part of the interval only
 * (asked for while the program ran, or switched off). */
static void cell(FILE *out, const pvmmon_log_hist *h, int64_t t0, int64_t t1, int width,
                 int *partial)
{
	char b[32];

	if (h && (h->from_ns > t0 || (h->to_ns >= 0 && h->to_ns < t1))) {
		*partial = 1;
		width--;
	}
	if (!h)
		fprintf(out, " %*s", width, "n/a");
	else if (pvmmon_hist_metric_is_time(h->metric))
		fprintf(out, " %*s", width,
		        graphs__fmt_time(b, sizeof(b), graphs__round(graphs__hist_sum(h, t0, t1))));
	else
		fprintf(out, " %*.0f", width, graphs__hist_sum(h, t0, t1));
	if (h && (h->from_ns > t0 || (h->to_ns >= 0 && h->to_ns < t1)))
		fputc('*', out);
}

static void tasks(const pvmmon_log *log, const graphs_grid *g, int64_t t0, int64_t t1, int *partial,
                  FILE *out)
{
	static const pvmmon_hist_metric m[] = {PVMMON_HIST_COMPUTE,   PVMMON_HIST_WAIT,
	                                       PVMMON_HIST_PVM,       PVMMON_HIST_OVERHEAD,
	                                       PVMMON_HIST_MSGS_SENT, PVMMON_HIST_MSGS_RECV};

	fprintf(out, "\nTasks in the interval\n  %-8s %11s %11s %11s %11s %9s %9s\n", "task",
	        "compute", "wait", "pvm", "overhead", "sent", "received");
	for (size_t i = 0; i < log->ntasks; i++) {
		const pvmmon_log_task *t = &log->tasks[i];

		fprintf(out, "  %-8s", t->lid ? t->lid : "?");
		for (size_t k = 0; k < sizeof(m) / sizeof(m[0]); k++)
			cell(out,
			     graphs__hist_find(t->hists, t->nhists, m[k], PVMMON_FOCUS_TASK, NULL,
			                       0, g->axis),
			     t0, t1, k < 4 ? 11 : 9, partial);
		fputc('\n', out);
	}
}

/* One row of the statement, procedure or loop table: its time in the interval, for
 * sorting (items without a histogram last). */
typedef struct row {
	const pvmmon_log_task *task;
	const char *name; /* procedure or loop; NULL for a statement */
	const pvmmon_log_stmt *stmt;
	const pvmmon_log_hist *time, *calls;
	double ns;
} row;

static int cmp_row(const void *a, const void *b)
{
	const row *x = a, *y = b;

	if (!x->time != !y->time)
		return x->time ? -1 : 1;
	if (x->ns != y->ns)
		return x->ns > y->ns ? -1 : 1;
	if (x->task != y->task)
		return x->task < y->task ? -1 : 1;
	return 0;
}

/* Whether rows[0..n) already has task t's item called name (a procedure's call sites
 * are one histogram). */
static int seen(const row *rows, size_t n, const pvmmon_log_task *t, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (rows[i].task == t && rows[i].name && !strcmp(rows[i].name, name))
			return 1;
	return 0;
}

/* The rows of focus f (statements, procedures or loops) of every task into rows. */
static size_t collect(const pvmmon_log *log, const graphs_grid *g, pvmmon_hist_focus f, int64_t t0,
                      int64_t t1, row *rows)
{
	size_t n = 0;

	for (size_t i = 0; i < log->ntasks; i++) {
		const pvmmon_log_task *t = &log->tasks[i];
		size_t items = f == PVMMON_FOCUS_STMT   ? t->nstmts
		               : f == PVMMON_FOCUS_PROC ? t->nprocs
		                                        : t->nloops;

		for (size_t j = 0; j < items; j++) {
			row r = {t, NULL, NULL, NULL, NULL, 0};
			uint32_t id = 0;

			if (f == PVMMON_FOCUS_STMT) {
				r.stmt = &t->stmts[j];
				id = r.stmt->id;
			} else {
				r.name =
				    f == PVMMON_FOCUS_PROC ? t->procs[j].name : t->loops[j].name;
				if (!r.name || seen(rows, n, t, r.name))
					continue;
			}
			r.time = graphs__hist_find(t->hists, t->nhists, PVMMON_HIST_TIME, f, r.name,
			                           id, g->axis);
			r.calls = graphs__hist_find(t->hists, t->nhists, PVMMON_HIST_CALLS, f,
			                            r.name, id, g->axis);
			r.ns = graphs__hist_sum(r.time, t0, t1);
			rows[n++] = r;
		}
	}
	qsort(rows, n, sizeof(*rows), cmp_row);
	return n;
}

static void items(const pvmmon_log *log, const graphs_grid *g, pvmmon_hist_focus f, int64_t t0,
                  int64_t t1, row *rows, int *partial, FILE *out)
{
	static const char *const title[] = {[PVMMON_FOCUS_STMT] = "Communication statements",
	                                    [PVMMON_FOCUS_PROC] = "Procedures (inclusive time)",
	                                    [PVMMON_FOCUS_LOOP] = "Loops"};
	size_t n = collect(log, g, f, t0, t1, rows), na = 0;
	char name[512];

	if (!n)
		return;
	fprintf(out, "\n%s in the interval\n  %-44s %-8s %12s %10s\n", title[f],
	        f == PVMMON_FOCUS_STMT   ? "statement"
	        : f == PVMMON_FOCUS_PROC ? "procedure"
	                                 : "loop",
	        "task", "time", "count");
	for (size_t i = 0; i < n; i++) {
		if (rows[i].stmt)
			graphs__stmt_name(name, sizeof(name), rows[i].task, rows[i].stmt);
		else
			snprintf(name, sizeof(name), "%s", rows[i].name);
		fprintf(out, "  %-44.44s %-8s", name, rows[i].task->lid ? rows[i].task->lid : "?");
		cell(out, rows[i].time, t0, t1, 12, partial);
		cell(out, rows[i].calls, t0, t1, 10, partial);
		fputc('\n', out);
		na += !rows[i].time;
	}
	if (na)
		fprintf(out,
		        "  n/a: %zu without a time histogram (only the hottest get one by default; "
		        "pvmmon run --histogram=time:%s asks for all): their share of the "
		        "interval is not known\n",
		        na, pvmmon_hist_focus_name(f));
}

int pvmmon_report_text_between(const pvmmon_log *log, int64_t t0, int64_t t1, FILE *out)
{
	graphs_grid g;
	row *rows;
	size_t most = 1;
	char a[32], b[32], c[32];
	int partial = 0;

	if (!log || !out)
		return pvmmon_error_set(PVMMON_EINVAL, "report: no log or no output");
	if (t0 < 0 || t0 >= t1)
		return pvmmon_error_set(
		    PVMMON_EINVAL,
		    "report --between: the interval's start must come before its "
		    "end (%s, %s)",
		    graphs__fmt_time(a, sizeof(a), t0), graphs__fmt_time(b, sizeof(b), t1));
	if (graphs__hist_grid(log, &g) < 0)
		return pvmmon_error_set(
		    PVMMON_ENOTFOUND, "the log has no time histograms, so no interval can be shown "
		                      "(a run of pvmmon 1.6 or later keeps them)");
	for (size_t i = 0; i < log->ntasks; i++)
		most += log->tasks[i].nstmts + log->tasks[i].nprocs + log->tasks[i].nloops;
	rows = calloc(most, sizeof(*rows));
	if (!rows)
		return pvmmon_error_set(PVMMON_ENOMEM, "report: out of memory");
	fprintf(out, "Run: %s, from %s to %s of %s time\n", log->program ? log->program : "?",
	        graphs__fmt_time(a, sizeof(a), t0), graphs__fmt_time(b, sizeof(b), t1),
	        g.axis == PVMMON_AXIS_VIRTUAL ? "virtual" : "real");
	fprintf(out,
	        "  computed from the time histograms (buckets of up to %s; a bucket the "
	        "interval covers in part counts in proportion)\n",
	        graphs__fmt_time(c, sizeof(c), g.width));
	if (t1 > (int64_t)g.n * g.width)
		fprintf(out, "  the histograms end at %s: nothing is known after that\n",
		        graphs__fmt_time(c, sizeof(c), (int64_t)g.n * g.width));
	tasks(log, &g, t0, t1, &partial, out);
	items(log, &g, PVMMON_FOCUS_STMT, t0, t1, rows, &partial, out);
	items(log, &g, PVMMON_FOCUS_PROC, t0, t1, rows, &partial, out);
	items(log, &g, PVMMON_FOCUS_LOOP, t0, t1, rows, &partial, out);
	if (partial)
		fprintf(out,
		        "\n*: its histogram collected over part of the interval only (asked for "
		        "while the program ran, or switched off): the figure is for that part\n");
	free(rows);
	if (fflush(out) != 0 || ferror(out))
		return pvmmon_error_set(PVMMON_EIO, "report: could not write the summary");
	return 0;
}
