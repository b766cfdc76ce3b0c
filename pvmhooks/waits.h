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

/* Control messages the feature sent (WAIT and WAITEND), for tests and benchmarks. */
uint64_t waits__reports(void);

#endif
