/* Private to pvmmon-cc: what one rewrite inserted, counted by its parts (rewrite.c,
 * split.c) and printed by pvmmon-cc -v. */
#ifndef PVMMON_INSTRUMENT_REWRITE_STATS_H
#define PVMMON_INSTRUMENT_REWRITE_STATS_H

typedef struct rewrite_stats {
	unsigned procs;   /* procedures given entry/exit probes */
	unsigned counted; /* leaf procedures given a call counter instead */
	unsigned loops;   /* loops given entry/exit probes */
	unsigned calls;   /* call statements that pass their line to the callee */
	unsigned split;   /* of procs, those given a plain copy for while they are off */
} rewrite_stats;

#endif
