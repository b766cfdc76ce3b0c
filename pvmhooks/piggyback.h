/*
 * Private to libpvmhooks: the trailing piggyback of user messages (piggyback.c): its
 * sending, its taking at a receive and the per-pair sequence numbers.
 */
#ifndef PVMMON_HOOKS_PIGGYBACK_H
#define PVMMON_HOOKS_PIGGYBACK_H

#include <stddef.h>
#include <stdint.h>

#include "../common/wire.h"
#include "hooks.h"

#pragma GCC visibility push(hidden)

/* Piggybacks are small; one stack buffer covers a send or a mcast to 64 tasks. */
#define PB_STACK_DESTS 64
/* The largest piggyback to that many destinations. */
#define PB_STACK_BYTES                                                                          \
	(WIRE_PB_HEADER + PB_STACK_DESTS * 8 + WIRE_PB_SIG_BYTES + WIRE_PB_BLAME_BYTES +       \
	 WIRE_PB_CP_MAX)

/* Sends the trailing record after a user send or mcast; 0, or a
 * negative code. */
int hooks__send_piggyback(hooks_call *call, const int *tids, int n, int tag, int bytes);
/* Takes the trailing piggyback of a message of `bytes` from src with tag that a message
 * handler took (counting the message as received); returns its sequence number minus
 * the expected one, PIGGYBACK_NONE when the sender sent none. */
#define PIGGYBACK_NONE (-1)
int64_t hooks__absorb_piggyback(int src, int tag, int bytes);
/* The user messages sent to and received from each partner so far (counted; sent is
 * the per-pair sequence number) into *out (heap, the caller frees); returns how many
 * partners. */
size_t hooks__pair_counts(wire_wpeer **out);
/* Forgets the per-pair sequences and counts (a task that enrols again has a new tid). */
void hooks__pairs_restart(void);
/*
 * Takes the trailing piggyback of the message just consumed from src with tag into *pb
 * (from preserve mode's stash, or through the channel, which waits for it when the
 * sender is monitored); 1 when there was a valid one. *arrived is when a stashed one
 * was taken off the queue.
 */
int piggyback__fetch(int src, int tag, wire_piggyback *pb, int64_t *arrived);
/* The message's sequence number from its piggyback pb minus the one expected from
 * src, moving the expectation on (a gap that message handlers hold counts as none). */
int64_t piggyback__sequence(int src, const wire_piggyback *pb);
/* How many messages from a source handlers took whose piggybacks are not yet taken:
 * mhf.c's count, given at install (features.c), so that this calls no handler code. */
void piggyback__held_by(int (*held_from)(int src));

#pragma GCC visibility pop

#endif
