/*
 * Exporting a run's log as tables for scripts and spreadsheets: one CSV file per table,
 * or one JSON document holding every table (its schema is doc/pvmmon-export.schema.json).
 *
 * The tables: run, hosts, tasks, statements, statement_partners, messages (the message
 * matrix: sender x receiver, messages and bytes), procedures (one row per call site),
 * callgraph (recursion collapsed, as the reports show it), loops, critical_path (the
 * selected procedures' shares), critical_path_nodes (the path recomputed from a whole
 * trace), costs, switches and hangs. Every table has the same columns whatever the log
 * holds; units are in the column names (`_ns` nanoseconds, `bytes`, `_ppb`, `_ps`).
 * Times are those the log holds: virtual unless a column says real or local.
 */
#ifndef PVMMON_EXPORT_H
#define PVMMON_EXPORT_H

#include "pvmmon/common.h"

#include <stdint.h>
#include <stdio.h>

#include "pvmmon/log.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The export format's version (the JSON document's "version"). */
#define PVMMON_EXPORT_VERSION 1

/*
 * Writes one CSV file per table into folder dir (created if missing): NAME.csv with a
 * header row, RFC 4180 quoting, empty fields for values the log lacks. Each file is
 * written to a temporary name and renamed. Returns 0 or a negative code (the last error
 * names the file).
 */
PVMMON_EXTERN int pvmmon_export_csv(const pvmmon_log *log, const char *dir);

/* Writes every table as one JSON document to out: {"format": "pvmmon-export",
 * "version": 1, "tables": {"tasks": [{column: value, ...}, ...], ...}}, null for values
 * the log lacks. Returns 0 or a negative code. */
PVMMON_EXTERN int pvmmon_export_json(const pvmmon_log *log, FILE *out);

/* What pvmmon_export_perfetto() wrote. */
typedef struct pvmmon_perfetto_counts {
	uint64_t slices;      /* complete events: PVM calls and procedures */
	uint64_t flows;       /* messages drawn from their send to their receive */
	uint64_t cp_segments; /* slices of the critical-path track */
	char no_path[240];    /* why there is no critical-path track ("" when there is) */
} pvmmon_perfetto_counts;

/*
 * Writes log's event trace (`pvmmon run --trace`) to out as one JSON document in the
 * Trace Event Format that ui.perfetto.dev and chrome://tracing open: {"traceEvents":
 * [...], "displayTimeUnit": "ns", "metadata": {...}}. A process per host and a thread
 * per task (tid: the task's place in the log plus one, named by its logical id and
 * program); each traced PVM call and procedure a complete event ("X", ts and dur in
 * microseconds) with the partner, tag, bytes, wait and statement as args; each
 * message a flow ("s" at its send, "f" at its receive, "bp": "e") when both ends
 * are in the trace; the critical path (pvmmon_cpath_compute(), runs with --cp=...)
 * as the "critical path" thread of a process of its own, one "X" per segment. Times
 * are virtual (the log's vt) unless real is set (the calls' real times). A log
 * without a trace, or whose trace holds no event, is refused (PVMMON_EINVAL). n (may
 * be NULL) gets what was written. Returns 0 or a negative code.
 */
PVMMON_EXTERN int pvmmon_export_perfetto(const pvmmon_log *log, FILE *out, int real,
                                         pvmmon_perfetto_counts *n);

#ifdef __cplusplus
}
#endif
#endif
