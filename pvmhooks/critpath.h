/*
 * Private to libpvmhooks: the in-task glue of critical-path profiling (critpath.c),
 * which owns the task's tuple and the selection; the arithmetic is in cp.c.
 */
#ifndef PVMMON_HOOKS_CRITPATH_H
#define PVMMON_HOOKS_CRITPATH_H

#include <stdint.h>

#include "cp.h"
#include "hooks.h"

/* The selection: comma-separated procedure names, or groups of names joined by '+'
 * that count as one (NULL or empty: none), the share mode and the selection's
 * generation; any earlier selection is dropped. The records' selection indices are
 * then out of date (hooks__records_cp_refresh). */
void hooks__cp_configure(const char *names, int exclusive, uint32_t gen);
/* Whether procedures are selected for critical-path profiling (and calibration does
 * not pause it): inline, every probe asks. */
extern const int *const hooks__cp_on_at;
static inline int hooks__cp_selected(void) { return *hooks__cp_on_at; }
/* The selection index of procedure name, CP_INDEX_NONE when it is not selected. */
#define CP_INDEX_NONE (-1)
int hooks__cp_index(const char *name);
/* The monitor's STOP at virtual time v: the last sample, then nothing is carried. */
void hooks__cp_stop(int64_t v);
/* Starts the task's collection at virtual time v from a parent's tuple extended by arc
 * (or from none), with the procedures open now (their selection indices, open[n]).
 * at_start: v is the process's start, and the procedure entries and exits made
 * before registration (pre[npre], NULL when too many were made to keep) are replayed
 * from there. */
void hooks__cp_begin(int64_t v, const wire_cp *from, int64_t arc, int at_start,
		     const hooks_pre_event *pre, size_t npre, const int *open, int n);
/* A procedure entry (enter 1) or exit at virtual time v; k its selection index. */
void hooks__cp_proc(int enter, int k, int64_t v);
/* The same at real time rt (a probe's, which the trace records). */
void hooks__cp_proc_at(int enter, int k, int64_t v, int64_t rt);
/* Sends the tuple, accounted up to virtual time v, to the monitor. */
int hooks__cp_sample(int64_t v, int final);
/* The tuple accounted up to virtual time v into *out (a send's or a spawn's): 1 when
 * the task carries one, else 0 (*out is then off). */
int hooks__cp_tuple(wire_cp *out, int64_t v);
/* The generation of the tuple the task carries. */
uint32_t hooks__cp_gen(void);
/* A receive of a message carrying the sender's tuple remote, which began at v0 and
 * waited sync with a transmission of trans. */
void hooks__cp_receive(int64_t v0, int64_t sync, int64_t trans, const wire_cp *remote);
/* Suspends collection (paused 1) or resumes it: calibration's probes are no part of
 * the program. */
void hooks__cp_pause(int paused);

#endif
