/*
 * Private to libpvmhooks: the optional event trace (`pvmmon run --trace`). Each
 * wrapped communication call becomes one event per message; events are buffered and
 * sent to the monitor in chunks. A task stops tracing after the most events the
 * monitor allows one task, so the trace costs bounded memory and messages.
 */
#ifndef PVMMON_HOOKS_TRACE_H
#define PVMMON_HOOKS_TRACE_H

#include <stdint.h>

#include "hooks.h"

/* Events buffered before a chunk goes to the monitor. */
#define HOOKS_TRACE_CHUNK 1024

/* Turns tracing on for at most max_events events (0: off). */
void hooks__trace_init(uint64_t max_events);

/* How the trace names a call's statement (the records' id of the statement at site for
 * op); without it events name none. */
void hooks__trace_set_stmt_id(uint32_t (*fn)(void *site, hooks_op op));

/* Whether events are recorded now. */
int hooks__trace_on(void);
/* Suspends recording (paused 1) or resumes it: calibration's probes are no part of the
 * program. */
void hooks__trace_pause(int paused);

/*
 * Adds an event for a message call sent (to peer) or delivered (from peer); seq is
 * the per-pair sequence number, -1 when the message had no piggyback, and sync the
 * receive's synchronisation delay. Times are completed by hooks__trace_end().
 */
void hooks__trace_msg(hooks_call *call, int32_t peer, int32_t tag, uint32_t bytes, int64_t seq,
		      int64_t sync, int64_t trans);

/* Adds an event outside any PVM call (a procedure entry or exit, the start or stop of
 * critical-path collection) at real time rt, virtual time v, with tag (the
 * procedure's selection index, or the selection's generation). */
void hooks__trace_point(pvmmon_event_op op, int32_t tag, int64_t rt, int64_t v);

/* Ends call's events at real time t3 (adding one without a message if the call added
 * none); sends a chunk when the buffer is full. */
void hooks__trace_end(hooks_call *call, int64_t t3);

/* Sends the buffered events to the monitor (at flushes, before the records). */
int hooks__trace_flush(void);

#endif
