/*
 * Private to graphs/: a task's call-path samples as procedures and call paths
 * (samples.c), resolved to names after the run, each task's and all tasks' merged, for the
 * text and HTML reports (samples_report.c) and the export's tables.
 */
#ifndef PVMMON_GRAPHS_SAMPLES_H
#define PVMMON_GRAPHS_SAMPLES_H

#include <stdint.h>
#include <stdio.h>

#include "pvmmon/log.h"

/* One procedure: the computing samples whose innermost frame was in it (self) and
 * those with it anywhere on the path (inclusive, once a path however deep its
 * recursion). */
typedef struct graphs_sproc {
	char *name;   /* "?" with the module's name when the module has no symbols */
	char *module; /* the base name of the binary or library its code is in */
	char *file;   /* NULL when unknown */
	int line;
	uint64_t self, incl;
	double self_ms;  /* self's share of the task's virtual compute time (merged: summed) */
	unsigned ntasks; /* the tasks with samples in it (1 in a task's own) */
} graphs_sproc;

/* One call path: the procedures from main (or the outermost frame) in. */
typedef struct graphs_spath {
	char *text; /* "main > hot_b_caller > hot_b" */
	uint64_t count;
	unsigned ntasks; /* the tasks with samples on it (1 in a task's own) */
} graphs_spath;

typedef struct graphs_samples {
	uint64_t by_state[PVMMON_SAMPLE_NSTATES]; /* samples with a frame, by state */
	uint64_t total, truncated;
	int64_t cost_ns; /* the handler's time in all */
	uint32_t hz;        /* merged: the highest rate, which the counts are scaled to */
	int mixed_hz;       /* merged: some task sampled at another rate */
	unsigned ntasks;    /* the tasks merged (1 for a task's own) */
	int64_t compute_ns; /* the task's virtual time outside PVM calls (merged: summed) */
	size_t nprocs;
	graphs_sproc *procs; /* by self, most first */
	size_t npaths;
	graphs_spath *paths; /* computing paths by count, most first */
} graphs_samples;

/* The procedures and paths of t's samples (t->samples not NULL); 0 or PVMMON_ENOMEM.
 * Release with graphs__samples_clear(). */
int graphs__samples_of(const pvmmon_log_task *t, graphs_samples *out);
void graphs__samples_clear(graphs_samples *s);
/* The same merged over the log's sampled tasks (by procedure name and module, and by
 * path), each task's counts scaled to the highest rate when the rates differ;
 * out->ntasks 0 when none was sampled. 0 or PVMMON_ENOMEM. */
int graphs__samples_all(const pvmmon_log *log, graphs_samples *out);
/* The same, keeping each task's own: per (log->ntasks entries) gets task i's in per[i]
 * (zeroed for a task without samples), each resolved once. Release every per[i] and
 * *all with graphs__samples_clear() (on failure nothing is left to release). */
int graphs__samples_resolve(const pvmmon_log *log, graphs_samples *per, graphs_samples *all);

/* The text report's "Sampled procedures" section: nothing when no task was sampled. */
int graphs__report_samples(const pvmmon_log *log, FILE *out);
/* The HTML report's section of the same. */
int graphs__html_samples(const pvmmon_log *log, FILE *out);

#endif
