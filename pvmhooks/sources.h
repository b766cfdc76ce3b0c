/* Private to pvmhooks: record and replay of the per-run values a program reads through
 * the C library (clocks, process ids), interposed in sources.c. */
#ifndef PVMMON_HOOKS_SOURCES_H
#define PVMMON_HOOKS_SOURCES_H

#include <stddef.h>
#include <stdint.h>

#include "../replay/replay.h"

/* From now on the interposed calls record (or replay) when the task does (rr.c, once
 * the welcome said so). */
void hooks__src_arm(void);
/* Back to passing every read straight through, with no recorded reads (tests). */
void hooks__src_disarm(void);
/* Appends a recorded read (a REPLAY_SOURCE entry, event number no) to those a replay
 * returns; 0, or PVMMON_ENOMEM. */
int hooks__src_load(const replay_entry *e, uint64_t no);
/* How many reads the record holds. */
size_t hooks__src_count(void);
/* At a replayed task's end: recorded reads left over are a divergence. */
void hooks__src_final(void);

#endif
