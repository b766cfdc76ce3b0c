/* Private to graphs/: reading time histograms for reports (sums over intervals, a common grid,
 * phases). */
#ifndef PVMMON_GRAPHS_HISTO_H
#define PVMMON_GRAPHS_HISTO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pvmmon/log.h"

/* The four states of a task, as histogram metrics compute, wait, pvm, overhead (in
 * this order: the index of metric m is m - PVMMON_HIST_COMPUTE). */
#define GRAPHS_NSTATES 4

/* The state's name in reports ("compute", "wait", "pvm", "overhead"). */
const char *graphs__state_name(int k);

/*
 * The columns reports draw histograms on: column i covers [i * width, (i + 1) * width)
 * of axis, i < n. The width is the widest of the run's task-state histograms (tasks
 * that ran longer doubled more), so no column is finer than the data under it.
 */
typedef struct graphs_grid {
	pvmmon_hist_axis axis;
	int64_t width;
	size_t n;
} graphs_grid;

/* x rounded to the nearest integer (reports round pro-rata sums; no libm needed). */
int64_t graphs__round(double x);

/* The end of h's last bucket on its axis. */
int64_t graphs__hist_end(const pvmmon_log_hist *h);

/* The end of h's last bucket that holds anything (its start when none): pvmmon writes
 * all of the run's buckets, those after a task's last flush empty. */
int64_t graphs__hist_used_end(const pvmmon_log_hist *h);

/* h's values over [t0, t1), pro rata for buckets the interval covers in part. */
double graphs__hist_sum(const pvmmon_log_hist *h, int64_t t0, int64_t t1);

/* The histogram of metric m and focus f on axis among n at hs (name compared for host,
 * proc and loop foci, stmt for the statement focus), or NULL. */
const pvmmon_log_hist *graphs__hist_find(const pvmmon_log_hist *hs, size_t n, pvmmon_hist_metric m,
                                         pvmmon_hist_focus f, const char *name, uint32_t stmt,
                                         pvmmon_hist_axis axis);

/* The grid of log's task-state histograms into *g: on the virtual axis when any task has
 * a virtual compute histogram, else the real one. PVMMON_ENOTFOUND (no error set) when
 * no task has state histograms. */
int graphs__hist_grid(const pvmmon_log *log, graphs_grid *g);

/* Task t's time in each state over [t0, t1) on axis (0 where it has no histogram). */
void graphs__task_states(const pvmmon_log_task *t, pvmmon_hist_axis axis, int64_t t0, int64_t t1,
                         double v[GRAPHS_NSTATES]);

/* The program's time in each state per column of g into v (g->n rows): from the
 * program-focus histograms when the log has them, else the tasks' summed. */
void graphs__program_states(const pvmmon_log *log, const graphs_grid *g,
                            double (*v)[GRAPHS_NSTATES]);

/* One phase of a run: columns [first, end) of the grid, their time span and the
 * program's share of time in each state there. */
typedef struct graphs_phase {
	size_t first, end;
	int64_t from_ns, to_ns;
	double share[GRAPHS_NSTATES];
} graphs_phase;

/* At most this many phases, each at least this many columns long. */
#define GRAPHS_MAX_PHASES 8
#define GRAPHS_MIN_PHASE 3

/*
 * The phases of n columns of state times v: the split into at most max phases of at
 * least minlen columns that leaves the least weighted squared distance between each
 * column's state shares and its phase's (dynamic programming, so the result is exact
 * and deterministic); more phases are taken only while each one explains a quarter of
 * what is left and neighbours differ by 10 points of share or more. Columns without
 * time weigh nothing. Writes at most max phases into out (columns only; the caller
 * sets times) and returns their number (0 when no column has time).
 */
size_t graphs__split_phases(const double (*v)[GRAPHS_NSTATES], size_t n, size_t max, size_t minlen,
                            graphs_phase *out);

/* The phases of log's run into out (at most GRAPHS_MAX_PHASES), with their times; *n
 * gets their number. PVMMON_ENOTFOUND (no error set) without task-state histograms. */
int graphs__log_phases(const pvmmon_log *log, graphs_phase *out, size_t *n);

/* The text report's Phases section (nothing when log has no task-state histograms). */
int graphs__report_phases(const pvmmon_log *log, FILE *out);

/* A small inline SVG chart of h's values per column of g (bars scaled to their
 * largest), with a tooltip; nothing for a histogram without values. */
void graphs__svg_spark(FILE *out, const pvmmon_log_hist *const *hs, size_t nh,
                       const graphs_grid *g);

/* A table cell with statement s's chart of time per bucket (or "no histogram"). */
void graphs__spark_stmt(FILE *out, const graphs_grid *g, const pvmmon_log_task *t,
                        const pvmmon_log_stmt *s);

/* A table cell with the chart of procedure name's time per bucket, summed over the
 * tasks of prog's program. */
void graphs__spark_proc(FILE *out, const pvmmon_log *log, const graphs_grid *g,
                        const pvmmon_log_task *prog, const char *name);

/* The HTML report's Overview section: the timeline inlined, also written to
 * dir/timeline.svg; a note when the log has no histograms. */
int graphs__html_overview(FILE *out, const pvmmon_log *log, const char *dir);

#endif
