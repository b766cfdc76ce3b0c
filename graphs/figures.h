/* Private to graphs/: formatting and the figures shared by the text and HTML reports. */
#ifndef PVMMON_GRAPHS_FIGURES_H
#define PVMMON_GRAPHS_FIGURES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pvmmon/callgraph.h"
#include "pvmmon/log.h"
#include "pvmmon/report.h"

/* The "Why tasks wait" section (pvmmon/waits.h) as HTML, for a traced run or one with
 * the online analysis's tables; nothing otherwise (graphs/waits_report.c). */
void graphs__waits_html(const pvmmon_log *log, FILE *out);
/* Whether the HTML report draws who delays whom (graphs/waits_dot.c): a whole trace of
 * more than one task, the waits not turned off (PVMMON_NO_WAITS). */
int graphs__waits_drawn(const pvmmon_log *log);

/* A duration with a unit that keeps three significant figures readable, into buf. */
const char *graphs__fmt_time(char *buf, size_t len, int64_t ns);

/* A duration with its uncertainty where that is large (over 5% of it and at least a
 * microsecond): "5.20 ms +- 1.80 ms"; otherwise as graphs__fmt_time. */
const char *graphs__fmt_time_pm(char *buf, size_t len, int64_t ns, int64_t unc);

/* A byte count with binary units, into buf. */
const char *graphs__fmt_bytes(char *buf, size_t len, uint64_t b);

/* Writes s (NULL: nothing) as the inside of a DOT double-quoted string. */
void graphs__put_escaped(FILE *out, const char *s);

/* The last component of path (path itself if it has no slash; NULL stays NULL). */
const char *graphs__base_name(const char *path);

/* Task t's statement with id, NULL when it has none (statements are usually stored at
 * their id's index: looked at there first). */
const pvmmon_log_stmt *graphs__stmt_of(const pvmmon_log_task *t, uint32_t id);
/*
 * Statement s of task t named the way a user finds it: file:line (its own, from debug
 * information, else from t's static table: see graphs__stmt_static(); several lines
 * when the table has several calls it could be), else module+offset; then " in
 * FUNCTION". t may be NULL (no static table).
 */
const char *graphs__stmt_name(char *buf, size_t len, const pvmmon_log_task *t,
                              const pvmmon_log_stmt *s);

/*
 * For statement s of task t without a source place of its own (a pvmmon-cc build
 * without -g): the index of the communication entry of t's static table that it is, or
 * -1. The candidates are the entries of the same PVM call in the same procedure (a
 * symbol's compiler parts, "main.cold", count as the procedure); one candidate and one
 * such statement are each other, and as many statements as candidates are paired in
 * order, address order with source order. *ncand (may be NULL) gets the candidates.
 */
long graphs__stmt_static(const pvmmon_log_task *t, const pvmmon_log_stmt *s, size_t *ncand);

/* What the log knows of host h's clock, one phrase: its offset from the monitor's clock
 * with the uncertainty, the drift and the number of estimates, into buf. */
const char *graphs__host_clock(char *buf, size_t len, const pvmmon_log_host *h);

/* How many of the log's tasks ran on host h. */
size_t graphs__host_tasks(const pvmmon_log *log, const pvmmon_log_host *h);

/* The time the space-time diagram of log on axis tb spans (its time axis), 0 when it
 * has nothing to draw. */
int64_t graphs__spacetime_span(const pvmmon_log *log, pvmmon_timebase tb);

/* 100 * part / whole, 0 when whole is not positive. */
double graphs__percent(int64_t part, int64_t whole);

/* The sentence that says which compensation the report's procedure and loop times
 * show, and how to choose another (no trailing newline). */
const char *graphs__comp_sentence(const pvmmon_log *log);

/*
 * The dynamic figures of static entry e of task t: virtual time and count from the
 * records (a call statement: its callee's inclusive time through that call line).
 * enclosing_proc is the entry's procedure. Returns 1 when any record matched.
 */
int graphs__static_figures(const pvmmon_log_task *t, const pvmmon_log_static *e,
			   const char *enclosing_proc, int64_t *time, uint64_t *count);

/* Whether tasks a and b ran the same program. */
int graphs__same_program(const pvmmon_log_task *a, const pvmmon_log_task *b);

/* Whether any task of t's program has proc records. */
int graphs__program_has_procs(const pvmmon_log *log, const pvmmon_log_task *t);

/* The call graph of the proc records of every task of t's program, merged, into *out
 * (the caller frees it with pvmmon_callgraph_free()). */
int graphs__program_callgraph(const pvmmon_log *log, const pvmmon_log_task *t,
			      pvmmon_callgraph **out);

/* Whether statement record s of task t is communication statement e of a static table
 * (same call, line and file name; the line and file from t's static table when s has
 * none, see graphs__stmt_static()). */
int graphs__stmt_is(const pvmmon_log_task *t, const pvmmon_log_stmt *s, const pvmmon_log_static *e);

/* The procedure that encloses entry i of t's static table, or NULL. */
const char *graphs__enclosing_proc(const pvmmon_log_task *t, size_t i);

/* One selected procedure of the run's critical-path profile, as the reports show it. */
typedef struct graphs_cp_row {
	size_t index;     /* its place in log->cp.procs */
	const char *name; /* belongs to the log */
	int64_t share_ns; /* its share of the critical path (the online profile's) */
	int64_t zero_ns;  /* its zeroing value */
	int64_t cpu_ns;   /* its time summed over all tasks' proc records: inclusive, or
			   * exclusive when the profile's shares are */
} graphs_cp_row;

/*
 * The rows of log's critical-path table, largest share first (selection order on
 * ties), into *out (the caller frees it) and *n; *total gets the sum of all tasks'
 * virtual times, which a row's CPU share is relative to.
 */
int graphs__cp_rows(const pvmmon_log *log, graphs_cp_row **out, size_t *n, int64_t *total);
/* pvmmon diff's "Why tasks wait" part for two logs (nothing when neither is traced):
 * waiting by kind, efficiency and the causes matched by name (graphs/diff_waits.c). */
int graphs__diff_waits(FILE *out, const pvmmon_log *a, const pvmmon_log *b);

/* The task of log with tid, or NULL. */
const pvmmon_log_task *graphs__task_by_tid(const pvmmon_log *log, int32_t tid);

/*
 * A traced receive, keyed by what pairs it with its send (receiver, sender, per-pair
 * sequence number); a and b say where it is, as the caller likes (task and event, or
 * a graph node).
 */
typedef struct graphs_recv_key {
	int32_t to, from;
	int64_t seq;
	size_t a, b;
} graphs_recv_key;

/* Sorts n receive keys by key, then by (a, b), so that equal keys keep a stable order. */
void graphs__sort_receives(graphs_recv_key *keys, size_t n);

/* The first of the n sorted keys for the message `from` sent to `to` with sequence
 * number seq (its index, then on through the equal ones), or n when there is none. */
size_t graphs__find_receive(const graphs_recv_key *keys, size_t n, int32_t to, int32_t from,
			    int64_t seq);

/* Whether log has anything for a wait-for graph: a task's wait or a hang said. */
int graphs__has_waits(const pvmmon_log *log);

#endif
