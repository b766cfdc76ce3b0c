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
#include "prstash.h"

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

/* The task is about to spawn (its children's bounds are unknown to the others). */
void hooks__pr_spawning(void);
/* Whether the task decides its receives itself now: its piggybacks ask to be told
 * when a task blocks on it (wire_piggyback's notify). */
int hooks__pr_deciding(void);
/* Whether a send to tid asks to be told when tid waits elsewhere (wire_piggyback's
 * watch): this task had to wait for tid's news before. */
int hooks__pr_watching(int32_t tid);
/* This task's message to tid asked for its news (wire_piggyback.watch). */
void hooks__pr_asked(int32_t tid);
/* Picks up the monitor's messages and arrived piggybacks and answers the monitor's
 * questions: at every wrapped call in preserve mode. */
void hooks__pr_poll(void);
/* The task ends: tells the tasks that asked for block notices (before the final
 * report). */
void hooks__pr_exiting(void);
/* Tells the monitor what was sent since the last report (before the final flush). */
int hooks__pr_report(void);

/* Gives preserve mode the wait reports' threshold (waits__threshold, a setting of
 * waits.c's: a blocked receive is reported after it; features.c, at install). */
void hooks__pr_wait_threshold(int64_t (*threshold)(void));

#endif
