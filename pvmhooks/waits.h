/*
 * Private to libpvmhooks: wait reports (waits.c). A blocking receive that has waited
 * longer than the threshold tells the monitor what it waits for (WAIT), keeps the
 * task's records flowing and its commands answered while it waits, and says when the
 * wait is over (WAITEND); a receive that completes within the threshold sends nothing.
 */
#ifndef PVMMON_HOOKS_WAITS_H
#define PVMMON_HOOKS_WAITS_H

#include <sys/time.h>

#include "hooks.h"

/* The threshold in nanoseconds (0: wait reports off); PVMMON_WAIT_MS sets it, default
 * 100 ms. */
void waits__configure(int64_t threshold_ns);
int64_t waits__threshold(void);

/* Where a statement's record is (features.c wires the records' own function). */
void waits__set_stmt(pvmmon_log_stmt *(*stmt)(void *site, hooks_op op));

/*
 * A blocking receive (pvm_recv, or pvm_trecv with tmout NULL or longer than the
 * threshold) from tid with tag, before its real call: when the wait is sliced, does
 * the real call itself (call->skip, skip_rc, and the stamps), returning exactly what
 * the real blocking call returns. Returns 1 when it did, 0 when the wrapper makes the
 * real call (reports off, or a receive that is not this feature's to wait).
 */
int waits__receive(hooks_call *call, int tid, int tag, const struct timeval *tmout);

/*
 * pvm_precv from tid with tag, before its real call: waits as waits__receive does, with
 * the program's receive buffer set aside, and leaves the message for pvm_precv's own
 * pvm_recv (waits__handoff). Returns 1 when it did, 0 when it did not wait.
 */
int waits__precv(hooks_call *call, int tid, int tag);
/* After the real pvm_precv: a message it did not take is freed (said once). */
void waits__precv_end(void);

/* Set while a message waits for pvm_precv's own pvm_recv (read inline by the
 * wrappers' re-entered path). */
extern int waits__pending;
#define WAITS_NO_HANDOFF (-0x7fffffff)
/* A re-entered wrapped call op with its arguments: pvm_precv's own pvm_recv(tid, tag)
 * gets the message the wait received (or the wait's error); anything else gets
 * WAITS_NO_HANDOFF and goes to libpvm3. */
int waits__handoff(int op, ...);

/*
 * A replay's forced wait for the recorded message from src with tag (rr.c's forced
 * receives and probes, mhf.c's handler deliveries): called at its start and after each
 * look that found nothing. Once the wait is longer than the threshold it is reported
 * (WAIT, op WIRE_WAIT_FORCED), the commands are taken and the records flushed, as in a
 * blocking receive's slices.
 */
void waits__forced_tick(hooks_call *call, int src, int tag);
/* The monitor's words when it found that the forced wait's message can never come
 * (WIRE_CTL_CANNOT_COME: what its sender does), else NULL. */
const char *waits__forced_verdict(void);
/* The forced wait is over (WAITEND when it was reported). */
void waits__forced_end(void);
/*
 * A replay's forced wait for the recorded message from src with tag (who names the
 * sender, event the event, for the note a long wait gives): receives it (take) or waits
 * until it is queued (a probe, or pvm_precv before its narrowed call). Returns the
 * buffer id, or 0 when it cannot come: with *why set (the module's, valid until the
 * next forced wait) when the monitor, which sees every task's wait, found that its
 * sender waits for something that can never come itself or has ended with nothing of
 * it on its way (its words say what the sender does); with *why NULL when the sender
 * has ended with nothing of it queued here and no verdict came. A sender that
 * computes, or whose message is on its way, is waited for as long as it takes.
 */
int waits__forced(hooks_call *call, int src, int tag, int take, const char *who, uint64_t event,
                  const char **why);
/* A command for the waits (CANNOT_COME): 1 when it was one. */
int waits__control(const wire_ctl *c);

/*
 * Polling waits: after a wrapped pvm_nrecv, pvm_probe or pvm_trecv with a timeout within
 * the threshold, from tid with tag, that returned rc. An empty poll (rc 0) continues
 * the run of polls of its statement and pattern, or starts one; a run that has lasted
 * longer than the threshold is reported (WAIT, WIRE_WAIT_POLL). A poll that found
 * something, failed or cannot wait ends the run (WAITEND when it was reported).
 */
void waits__poll(hooks_call *call, int rc, int tid, int tag);
/* Ends the run of polls at real time now (WAITEND when it was reported). */
void waits__poll_end(int64_t now);
/* Set while a reported polling wait goes on: the next wrapped call that is no poll
 * ends it (hooks__begin reads it inline). */
extern int waits__polling;

/* Control messages the feature sent (WAIT and WAITEND), for tests and benchmarks. */
uint64_t waits__reports(void);

#endif
