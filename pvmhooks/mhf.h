/*
 * Private to libpvmhooks: the program's pvm_addmhf message handlers behind trampolines
 * (mhf.c), so that every message a handler takes is counted, has its trailing
 * piggyback taken, is recorded with the wrapped call it came during, and in a replay
 * reaches the handler at its recorded call.
 */
#ifndef PVMMON_HOOKS_MHF_H
#define PVMMON_HOOKS_MHF_H

#include "hooks.h"
#include "rr.h"

/* Set while a program's handler runs: the wrappers it calls do no polling, flushing or
 * delivering of their own (libpvm3 may be reading messages in underneath). */
int hooks__mhf_in_handler(void);

/* The trampoline of slot k, which libpvm3 gets in place of the program's handler. */
int (*hooks__mhf_trampoline(int k))(int);

/* Before pvm_addmhf(.., f): takes a slot for f and makes the wrapper pass its trampoline
 * (call->ovr, call->ovr_tid); with no slot free, f goes to libpvm3 as it is (said once
 * on stderr: its messages are then neither recorded nor replayed). */
void hooks__mhf_add_begin(hooks_call *call, int (*f)(int));
/* After it: keeps the slot for handler id rc, or frees it when PVM refused. */
void hooks__mhf_add_end(hooks_call *call, int rc);
/* After a pvm_delmhf(mhid) that PVM accepted: frees the slot (messages already taken
 * still reach the handler they were taken for). */
void hooks__mhf_deleted(int mhid);

/*
 * At the start and the end of every wrapped call (outside any handler): gives the
 * messages handlers took during the call to the program's handlers (in a replay, the
 * ones the record has up to this call, waiting for them when they have not come yet),
 * takes their piggybacks and records each delivery.
 */
void hooks__mhf_settle(hooks_call *call);

/* hooks__mhf_settle where it can have work: every wrapped call passes here twice, and
 * outside a replay with no handler message held (kept, or piggyback not taken) there
 * is none. */
void hooks__mhf_settle_due(hooks_call *call);

/* How many messages from src handlers took whose piggybacks are not yet taken. */
int hooks__mhf_unsettled_from(int src);

/* In a replay at the end: the first message a handler took that no recorded delivery
 * asked for; 1 and its source and tag when there is one. */
int hooks__mhf_unexpected(int *src, int *tag);

#endif
