/* Private to graphs/: the tables of an export and the writers (CSV, JSON) they go to. */
#ifndef PVMMON_GRAPHS_EXPORT_SINK_H
#define PVMMON_GRAPHS_EXPORT_SINK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pvmmon/log.h"

/* What a cell holds; XC_NULL is a value the log lacks (an empty CSV field, JSON null). */
typedef enum export_type { XC_NULL = 0, XC_STR, XC_INT, XC_UINT, XC_REAL } export_type;

typedef struct export_cell {
	export_type type;
	const char *s;
	int64_t i;
	uint64_t u;
	double d;
} export_cell;

/* A column: its name (with its unit) and the type of its values (a column of type
 * XC_STR may hold nulls; the others hold only their type). */
typedef struct export_col {
	const char *name;
	export_type type;
} export_col;

/* Where the tables go: a writer begins a table, takes its rows, ends it. Each returns 0
 * or a negative code with the last error set. */
typedef struct export_sink {
	int (*begin)(struct export_sink *sink, const char *table, const export_col *cols,
	             size_t ncols);
	int (*row)(struct export_sink *sink, const export_cell *cells);
	int (*end)(struct export_sink *sink);
	void *state;
} export_sink;

/* Writes s as a JSON string (quoted, escaped) to f; the JSON and Perfetto writers'. */
void graphs__json_string(FILE *f, const char *s);

/* Sends the tables of call-path samples of log to sink (export_samples.c). */
int graphs__export_samples(const pvmmon_log *log, export_sink *sink);

/* Sends the tables of why tasks wait to sink: causes, states, load balance, the
 * fix-gain curve and the online analysis's tables (export_waits.c). */
int graphs__export_waits(const pvmmon_log *log, export_sink *sink);

/* Sends every table of log to sink, in a fixed order. */
int graphs__export_tables(const pvmmon_log *log, export_sink *sink);

#endif
