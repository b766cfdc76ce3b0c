/*
 * Comparing two runs of a program (`pvmmon diff A B [-o DIR]`), as text or HTML: per task,
 * communication statement, procedure and loop, the change in virtual time, counts and bytes,
 * largest changes first, and both runs' critical paths side by side.
 */
#ifndef PVMMON_DIFF_H
#define PVMMON_DIFF_H

#include "pvmmon/common.h"

#include <stddef.h>
#include <stdio.h>

#include "pvmmon/log.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Writes the comparison of run a (before) with run b (after) to out. Items match by
 * task (logical id) and name: a statement by its file:line (or module+offset) and call,
 * a procedure by its name (its call sites' records summed: calls, exclusive and
 * inclusive time), a loop by its name and procedure. Each section is sorted by the size
 * of the change in virtual time (procedures: exclusive time, so that a procedure that
 * got slower ranks above the callers whose inclusive time it raised), larger count
 * changes breaking ties; an item in one run only is "new" or "gone". At most top rows
 * per section (0: all). Returns 0 or a negative code.
 */
PVMMON_EXTERN int pvmmon_diff_text(const pvmmon_log *a, const pvmmon_log *b, size_t top, FILE *out);

/* The same comparison as one offline HTML page, dir/index.html (dir created if missing;
 * written to a temporary name and renamed). Returns 0 or a negative code. */
PVMMON_EXTERN int pvmmon_diff_html(const pvmmon_log *a, const pvmmon_log *b, size_t top,
                                   const char *dir);

#ifdef __cplusplus
}
#endif
#endif
