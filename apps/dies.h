/* Message tags shared by the dies demo's master and worker. */
#ifndef PVMMON_APPS_DIES_H
#define PVMMON_APPS_DIES_H

#define DIES_TAG_WORK 51  /* master -> worker: sends to make, how to end (DIES_*) */
#define DIES_TAG_DATA 52  /* worker -> master: one of its sends */
#define DIES_TAG_EXIT 53  /* pvmd -> master: the worker has ended (pvm_notify) */
#define DIES_TAG_NEVER 54 /* sent by no one: a receive of it waits for ever */
#define DIES_TAG_ACK 55   /* master -> worker: every send arrived */

/* How the worker ends after its sends. */
enum { DIES_SEGV, DIES_ABORT, DIES_KILL, DIES_WAIT, DIES_EXIT };

#endif
