/*
 * Private to pvmmon-cc: rewriting one C translation unit with probes, using libclang to
 * find procedures and loops in the user's own source.
 */
#ifndef PVMMON_INSTRUMENT_REWRITE_H
#define PVMMON_INSTRUMENT_REWRITE_H

#include <stdio.h>

#include "rewrite_stats.h"

/*
 * Parses the C file src with the compiler flags args (include paths, macros, standard)
 * and writes to out the same source with probes inserted; the line structure is kept
 * and a #line directive names src, so diagnostics and debug information point at the
 * user's file. Returns 0; PVMMON_EPARSE when libclang finds errors (nothing is written:
 * the caller lets the real compiler report them); PVMMON_EIO when src cannot be read.
 */
int instrument__rewrite(const char *src, const char *const *args, int nargs, FILE *out,
			rewrite_stats *stats);

#endif
