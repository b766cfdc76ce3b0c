/* Message tags shared by the dies demo's master and worker. */
#ifndef PVMMON_APPS_DIES_H
#define PVMMON_APPS_DIES_H

#include <sys/time.h>

#include <pvm3.h>

#define DIES_TAG_WORK 51  /* master -> worker: sends to make, how to end (DIES_*) */
#define DIES_TAG_DATA 52  /* worker -> master: one of its sends */
#define DIES_TAG_EXIT 53  /* pvmd -> master: the worker has ended (pvm_notify) */
#define DIES_TAG_NEVER 54 /* sent by no one: a receive of it waits for ever */
#define DIES_TAG_ACK 55   /* master -> worker: every send arrived */

/* How the worker ends after its sends. */
enum { DIES_SEGV, DIES_ABORT, DIES_KILL, DIES_WAIT, DIES_POLL, DIES_EXIT, DIES_HANDLED };

/* Waits for ever for a message that never comes: blocked in pvm_recv, or polling with
 * pvm_trecv (poll). */
static inline void dies_wait_forever(int tid, int poll)
{
	struct timeval tv = {0, 50000};

	if (!poll)
		pvm_recv(tid, DIES_TAG_NEVER);
	else
		while (pvm_trecv(tid, DIES_TAG_NEVER, &tv) == 0)
			;
}

#endif
