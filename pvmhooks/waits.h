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

/* Control messages the feature sent (WAIT and WAITEND), for tests and benchmarks. */
uint64_t waits__reports(void);

#endif
