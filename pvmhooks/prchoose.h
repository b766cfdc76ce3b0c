/* Private to pvmhooks/: the choice a receive from any source or a poll makes by its
 * bounds in preserve mode (prchoose.c), as the monitor would make it. */
#ifndef PVMMON_HOOKS_PRCHOOSE_H
#define PVMMON_HOOKS_PRCHOOSE_H

#include <stdint.h>

#include "preserve_impl.h"

/* Why a choice was not made: it waits for its horizon (need); no candidate yet (a
 * blocking receive); only the monitor can decide; or it was, and a poll finds
 * nothing (the result is NULL then too). */
enum { PRC_WAIT, PRC_NONE, PRC_MONITOR, PRC_MISS };

/*
 * The choice a receive (patterns src, tag; deadline: its virtual deadline, a poll's
 * virtual time, INT64_MAX for none) can make here (see prlocal.c), as the monitor
 * would make it (monitor/order.c): the earliest candidate, or among those that arrive
 * within the tie window u of it the one whose sender comes first in the tie order,
 * once no task can send before the earliest arrival + u (a message that could still
 * join the tie). A poll's deadline ends the window; with no candidate due by then, it
 * finds nothing once no task can send before the deadline (*why PRC_MISS). Every
 * candidate's sender must be among the bounds' tasks. NULL when it cannot be decided
 * here yet: *why says why, *need the horizon it waits for (INT64_MIN: no candidate,
 * or one the monitor must decide).
 */
const stash_entry *hooks__prc_choose(int32_t src, int32_t tag, int64_t deadline, int *why,
                                     int64_t *need);

#endif
