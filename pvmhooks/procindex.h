/* Private to libpvmhooks: the proc records' keys and their hash index (procindex.c). */
#ifndef PVMMON_HOOKS_PROCINDEX_H
#define PVMMON_HOOKS_PROCINDEX_H

#include <stddef.h>
#include <stdint.h>

#include "pvmmon/errors.h"

#pragma GCC visibility push(hidden)

/* What makes a proc record: the procedure, its caller and the line of the call (seed
 * 000's "activate line"), so that every call site of a procedure has its own record. */
typedef struct proc_key {
	const void *site;   /* the procedure's probe site (or its static entry if counted) */
	const void *caller; /* the caller's probe site, NULL for a root */
	int32_t call_line;  /* the line of the call in the caller, 0 when unknown */
	int cp;             /* the procedure's critical-path selection index, -1 if none */
} proc_key;

/* Slots hold a record's index + 1 (0: empty); the table holds records 0 .. n - 1. */
typedef struct proc_index {
	size_t *slots;
	size_t cap, n;
} proc_index;

/* The record of keys[0 .. n - 1] with this key, (size_t)-1 if none. Records appended
 * since the last call are added first; a store that drops or changes records frees the
 * index (hooks__procindex_free), which the next call rebuilds. */
size_t hooks__procindex_find(proc_index *x, const proc_key *keys, size_t n, const void *site,
                             const void *caller, int32_t line);
void hooks__procindex_free(proc_index *x);

#pragma GCC visibility pop

#endif
