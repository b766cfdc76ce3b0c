/* Turning a run's log into reports for people: the text summary and the Graphviz graphs. */
#ifndef PVMMON_REPORT_H
#define PVMMON_REPORT_H

#include "pvmmon/common.h"

#include <stdio.h>

#include "pvmmon/cpath.h"
#include "pvmmon/log.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Writes a top-down text summary of log to out: the run (program, wall time, tasks,
 * monitoring intrusion), then each task, then communication statements by virtual time
 * with synchronisation delay and transmission split out, then procedures and loops when
 * present. Returns 0 or PVMMON_EIO.
 */
PVMMON_EXTERN int pvmmon_report_text(const pvmmon_log *log, FILE *out);

/*
 * The programs of a run: *out gets one task per distinct program (the first task that
 * ran it, in log order) and *n their number. The array belongs to the caller (free());
 * the tasks belong to log.
 */
PVMMON_EXTERN int pvmmon_report_programs(const pvmmon_log_task ***out, size_t *n,
                                         const pvmmon_log *log);

/*
 * Writes the Graphviz source of the program graph of t's program (seed 000 Figure 7),
 * summed over every task that ran it: from its static tables when it was built with
 * pvmmon-cc, else its communication statements grouped by function. Statements taking
 * less than prune (a fraction, 0.01 = 1%) of the program's time are folded into "N more"
 * nodes. The output has no timestamps and a stable order.
 */
PVMMON_EXTERN int pvmmon_report_dot_program(const pvmmon_log *log, const pvmmon_log_task *t,
                                            double prune, FILE *out);

/* Writes the Graphviz source of the call graph of t's program: one node per procedure
 * (mutually recursive ones as one), one edge per call site, the hot path in red. */
PVMMON_EXTERN int pvmmon_report_dot_calls(const pvmmon_log *log, const pvmmon_log_task *t,
                                          FILE *out);

/* The time axis of a space-time diagram. */
typedef enum pvmmon_timebase { PVMMON_TIME_VIRTUAL = 0, PVMMON_TIME_REAL } pvmmon_timebase;

/*
 * Writes the Graphviz source of the space-time diagram of log's event trace (as XPVM
 * draws it) on time axis tb: one lane per task, top to bottom in log order, coloured by
 * what the task was doing (computing, waiting, communicating inside PVM and, in real
 * time, monitoring overhead), and one arrow per matched message from its send to its
 * receive. Every node has a fixed position (layout=nop2), lanes are quantised into at
 * most 600 columns and at most 2000 arrows are drawn (evenly sampled in send order),
 * so the output stays bounded for long runs. A trace cut short is said so in the label;
 * in real time no lane is drawn past the cut. The output has no timestamps and a stable
 * order. Returns PVMMON_EINVAL when the run was not traced or no task has events.
 */
PVMMON_EXTERN int pvmmon_report_dot_spacetime(const pvmmon_log *log, pvmmon_timebase tb, FILE *out);

/*
 * The same diagram with the critical path cp (pvmmon_cpath_compute() of the same log)
 * drawn over it in thick black: its work stretches along the lanes, its messages as
 * arrows and its spawns as dashed lines; the label gives its length. With cp NULL it
 * is pvmmon_report_dot_spacetime().
 */
PVMMON_EXTERN int pvmmon_report_dot_spacetime_cp(const pvmmon_log *log, pvmmon_timebase tb,
                                                 const pvmmon_cpath *cp, FILE *out);

/*
 * Writes the Graphviz source of log's wait-for graph: one node per task that waits in a
 * receive or is waited for (its state, how it ended, where it waits as file:line), one
 * arrow per wait from the waiting task to the task it waits for (or to "any task"),
 * labelled with the tag; the arrows of each deadlock cycle the monitor said in red, a
 * message queued that the receive does not match as a dotted arrow from its sender.
 * Read from the tasks' `waiting` attributes and the <hangs> diagnoses (log 1.3). The
 * output has no timestamps and a stable order. Returns PVMMON_EINVAL when no task
 * waited and no hang was said.
 */
PVMMON_EXTERN int pvmmon_report_dot_waits(const pvmmon_log *log, FILE *out);

/*
 * Writes the live view of a running program to out (`pvmmon top`): tasks and their
 * states, the hottest statements, the critical path so far and the monitoring cost,
 * from a snapshot of the run (a log as the monitor has it now). Returns 0 or a
 * negative code.
 */
PVMMON_EXTERN int pvmmon_report_top(const pvmmon_log *log, FILE *out);

/*
 * Writes the overview timeline of log as SVG (log version 1.6, without a trace): one
 * lane per task, one column per bucket of the run's time histograms (on the virtual axis
 * when the tasks have it, else the real one), each bucket's computing, waiting, PVM and
 * monitoring time stacked in proportion to their shares, a tooltip per bucket with the
 * shares and its time span, a legend and a time axis. Lanes shrink to fit with a minimum
 * height, so at 128 tasks and more the picture grows and every k-th lane is labelled.
 * Returns PVMMON_EINVAL when no task has state histograms.
 */
PVMMON_EXTERN int pvmmon_report_svg_timeline(const pvmmon_log *log, FILE *out);

/*
 * Writes log's profile tables restricted to [t0, t1) (ns from the run's start, on the
 * histograms' axis): each task's states and messages, then statements, procedures and
 * loops with their time and count in the interval, computed from the time histograms
 * (a bucket the interval covers in part counts pro rata); items without a histogram are
 * shown as n/a, and said so. PVMMON_EINVAL when t0 >= t1 or t0 < 0, PVMMON_ENOTFOUND
 * when log has no time histograms.
 */
PVMMON_EXTERN int pvmmon_report_text_between(const pvmmon_log *log, int64_t t0, int64_t t1,
                                             FILE *out);

/* Parses a duration such as "1.5s", "200ms", "30us", "500ns" (or "0") into *ns; 0, or
 * PVMMON_EINVAL with a message saying what a time looks like. */
PVMMON_EXTERN int pvmmon_report_parse_time(const char *s, int64_t *ns);

/* Options of the HTML report; zero values take the defaults. */
typedef struct pvmmon_report_opts {
	const char *format; /* picture format: "svg" (default), "png" or "pdf" */
	int write_dot;      /* also write each graph's .dot source beside its picture */
	double prune;       /* fold statements below this share of the time (0.01) */
	/* Space-time diagrams to draw when the run was traced: PVMMON_REPORT_VIRTUAL,
	 * PVMMON_REPORT_REAL or both (0: virtual time only). */
	int time_axes;
} pvmmon_report_opts;

#define PVMMON_REPORT_VIRTUAL 1
#define PVMMON_REPORT_REAL 2

/*
 * Writes the HTML report of log into folder dir (created if missing): index.html with
 * the run summary, tables of tasks, statements and procedures, the message matrix, the
 * hangs with the wait-for graph (waits, when any task waited or a hang was said), and
 * one picture per graph (program-N and calls-N for each program N of the run), laid out
 * and rendered with Graphviz. Works offline and without JavaScript. Each file is written
 * to a temporary name and renamed, so a failure leaves older files whole.
 */
PVMMON_EXTERN int pvmmon_report_html(const pvmmon_log *log, const char *dir,
                                     const pvmmon_report_opts *opts);

#ifdef __cplusplus
}
#endif
#endif
