/*
 * Private to graphs/: a task's call-path samples as procedures and call paths
 * (samples.c), resolved to names after the run, for the text and HTML reports.
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
	char *name; /* "?" with the module's name when the module has no symbols */
	char *file; /* NULL when unknown */
	int line;
	uint64_t self, incl;
} graphs_sproc;

/* One call path: the procedures from main (or the outermost frame) in. */
typedef struct graphs_spath {
	char *text; /* "main > hot_b_caller > hot_b" */
	uint64_t count;
} graphs_spath;

typedef struct graphs_samples {
	uint64_t by_state[PVMMON_SAMPLE_NSTATES]; /* samples with a frame, by state */
	uint64_t total, truncated;
	int64_t cost_ns; /* the handler's time in all */
	uint32_t hz;
	int64_t compute_ns; /* the task's virtual time outside PVM calls */
	size_t nprocs;
	graphs_sproc *procs; /* by self, most first */
	size_t npaths;
	graphs_spath *paths; /* computing paths by count, most first */
} graphs_samples;

/* The procedures and paths of t's samples (t->samples not NULL); 0 or PVMMON_ENOMEM.
 * Release with graphs__samples_clear(). */
int graphs__samples_of(const pvmmon_log_task *t, graphs_samples *out);
void graphs__samples_clear(graphs_samples *s);

/* The text report's "Sampled procedures" section: nothing when no task was sampled. */
int graphs__report_samples(const pvmmon_log *log, FILE *out);
/* The HTML report's section of the same. */
int graphs__html_samples(const pvmmon_log *log, FILE *out);

#endif
