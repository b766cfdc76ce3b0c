/*
 * Private to libpvmhooks: preserve mode in a task (doc/architecture.md, "Preserve
 * mode"): nondeterministic receives ask the monitor which message the uninstrumented
 * run would have taken, judged by virtual time, and take exactly that one.
 */
#ifndef PVMMON_HOOKS_PRESERVE_H
#define PVMMON_HOOKS_PRESERVE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/time.h>

#include "hooks.h"

/* Set at registration when the run is in preserve mode. */
/* Whether the task runs in preserve mode; set from the welcome. */
int hooks__pr_on(void);
void hooks__pr_enable(int on);

/*
 * Before a receive-like call: when its outcome can differ from the uninstrumented
 * run's, asks the monitor and forces the decision (call->skip, or call->ovr for
 * pvm_precv); a deterministic receive that finds nothing queued tells the monitor it
 * blocks. nonblock: pvm_nrecv or pvm_probe; tmout: pvm_trecv's timeout (NULL: none).
 */
void hooks__pr_before(hooks_call *call, int tid, int tag, int nonblock,
		      const struct timeval *tmout);
/* After it: the statement's reordered count and held time, and a timeout's clock. */
void hooks__pr_after(hooks_call *call);

/* Takes the piggyback stashed for the first message from src with tag: 1 and *data
 * (heap, the caller frees) and the real time it was taken off the queue, when there is
 * one. */
int hooks__pr_take(uint8_t **data, size_t *len, int64_t *arrived, int src, int tag);
/* A message from src with per-pair sequence number next-1 was consumed. */
void hooks__pr_seen(int src, int64_t next);
/* A message went to tid at virtual time vs (on the monitor's clock): its count is new
 * to the monitor. Returns its quiet flag (wire_piggyback). */
int hooks__pr_sent(int tid, int64_t vs);
/* The task is about to spawn (its children's bounds are unknown to the others). */
void hooks__pr_spawning(void);
/* Whether the task decides its receives itself now: its piggybacks ask to be told
 * when a task blocks on it (wire_piggyback's notify). */
int hooks__pr_deciding(void);
/* The piggyback pb from src was taken (stashed or received). */
void hooks__pr_piggyback(int src, const wire_piggyback *pb);
/* Picks up the monitor's messages and arrived piggybacks and answers the monitor's
 * questions: at every wrapped call in preserve mode. */
void hooks__pr_poll(void);
/* The task ends: tells the tasks that asked for block notices (before the final
 * report). */
void hooks__pr_exiting(void);
/* Tells the monitor what was sent since the last report (before the final flush). */
int hooks__pr_report(void);

#endif
