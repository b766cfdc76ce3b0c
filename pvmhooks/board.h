/*
 * Private to libpvmhooks: preserve mode's live bounds board (doc/architecture.md,
 * "Preserve mode"). The tasks of one host share a small file in the run's private
 * folder, one slot each, where every task keeps a lower bound of its virtual time that
 * others read with no message: frozen at a wrapped call's start while it is in one,
 * else growing with real time (vt = rt - I, I kept below what the slot says). With the
 * count of the task's sends since its last block notice, a task deciding a receive
 * can see that a computing task's next send comes later, without waiting for it.
 */
#ifndef PVMMON_HOOKS_BOARD_H
#define PVMMON_HOOKS_BOARD_H

#include <stdint.h>

#include "hooks.h"
#include "vclock.h"

/* How far below the truth a running slot's bound may be: the intrusion that may grow
 * before the slot is written again, so that a reader never sees a bound above it. */
#define BOARD_HEADROOM_NS 20000LL

/* No bound to read. */
#define BOARD_NONE INT64_MIN

/* Takes a slot for tid on the board at path (created if missing) and ties c's
 * intrusion to it. 0, or a negative PVMMON_E* (the board stays off: preserve mode
 * then works as without it). */
int hooks__board_open(const char *path, int32_t tid, vclock *c);
/* Leaves the board (at the task's end, and in tests). */
void hooks__board_close(void);
/* Whether this task has a slot. */
int hooks__board_on(void);

/* A wrapped call op starts at virtual time v (the task's clock): the slot holds v until
 * the call ends; a call that may send counts a send first. */
void hooks__board_freeze(hooks_op op, int64_t v);
/* The wrapped call ended: the slot grows with real time again, from the clock's I. */
void hooks__board_run(void);
/* This task's sends so far (UINT64_MAX without a slot): carried by its block notices. */
uint64_t hooks__board_sends(void);

/* Real time as the board measures it (CLOCK_MONOTONIC, the same in every process of a
 * host). */
int64_t hooks__board_now(void);
/*
 * tid's bound at real time now (read before the call, as hooks__board_now), on the
 * monitor's clock, or BOARD_NONE (no slot, or it has sent since: sends differs from
 * its count, and *stale is set). *slot caches tid's slot (-1: not looked up yet).
 */
int64_t hooks__board_bound(int32_t tid, int *slot, uint64_t sends, int64_t now, int *stale);
/* Real ns until tid's bound reaches target, if it grows with real time (it runs);
 * BOARD_ETA_UNKNOWN if it does not (it is in a call) or cannot be read. */
#define BOARD_ETA_UNKNOWN (-1)
int64_t hooks__board_eta(int32_t tid, int *slot, int64_t target, int64_t now);

#endif
