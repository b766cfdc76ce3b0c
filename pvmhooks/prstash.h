/* Private to libpvmhooks: preserve mode's stash in a task (prstash.c), as the receive
 * and send wrappers see it: piggybacks taken ahead of their messages, and the message
 * counts per partner that preserve mode's reports carry. */
#ifndef PVMMON_HOOKS_PRSTASH_H
#define PVMMON_HOOKS_PRSTASH_H

#include <stddef.h>
#include <stdint.h>

#include "hooks.h"

/* Takes the piggyback stashed for the first message from src with tag: 1 and *data
 * (heap, the caller frees) and the real time it was taken off the queue, when there is
 * one. */
int hooks__pr_take(uint8_t **data, size_t *len, int64_t *arrived, int src, int tag);
/* A message from src with per-pair sequence number next-1 was consumed. */
void hooks__pr_seen(int src, int64_t next);
/* A message went to tid at virtual time vs (on the monitor's clock): its count is new
 * to the monitor. Returns its quiet flag (wire_piggyback). */
int hooks__pr_sent(int tid, int64_t vs);
/* The piggyback pb from src was taken (stashed or received). */
void hooks__pr_piggyback(int src, const wire_piggyback *pb);

#endif
