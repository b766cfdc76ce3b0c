/*
 * Private to libpvmhooks: record and replay of a task's nondeterministic outcomes
 * (rr.c). Recording appends each outcome to a compact stream sent to the monitor in
 * chunks; replaying takes the recorded stream from the monitor and makes each call
 * come out the same, reporting the first difference.
 */
#ifndef PVMMON_HOOKS_RR_H
#define PVMMON_HOOKS_RR_H

#include <stddef.h>
#include <stdint.h>

#include "hooks.h"

typedef enum hooks_rr_mode {
	HOOKS_RR_OFF = 0,
	HOOKS_RR_RECORD,
	HOOKS_RR_REPLAY,
} hooks_rr_mode;

/* Record, replay, or neither (from the welcome; a divergence that goes on makes a
 * replay a recording). */
hooks_rr_mode hooks__rr_mode(void);

/* Sets the mode (from the monitor's welcome); in a replay, receives the task's record
 * from the monitor. Returns 0, or -1 when the replay cannot start (said on stderr). */
int hooks__rr_init(hooks_rr_mode mode);

/*
 * Before a call whose outcome can differ between runs (call->nondet): in a replay,
 * makes it come out as recorded: does the receive itself (call->skip), narrows a
 * pvm_precv (call->ovr), or answers "nothing" or "timed out" without calling PVM.
 * src and tag are the user's arguments.
 */
void hooks__rr_before(hooks_call *call, int src, int tag);

/*
 * Group calls the program makes (gop a replay_group_op; arg pvm_gettid's instance or
 * pvm_getinst's tid). Before one, in a replay: checks it is the recorded call on the
 * recorded group; a join waits for its recorded turn (the members recorded before it
 * have joined, so that it gets its recorded instance); pvm_gettid, pvm_getinst and
 * pvm_gsize are answered as recorded (call->skip), a member by its tid in this run.
 */
void hooks__rr_group_before(hooks_call *call, int gop, char *group, int arg);
/* After one: records its answer rc, and in a replay checks what a join or a leave
 * gave against the record. */
void hooks__rr_group_after(hooks_call *call, int gop, char *group, int arg, int rc);

/*
 * After it: records the outcome (rc, and for a delivered message its source, tag and
 * call->seq_delta), or in a replay checks it against the record.
 */
void hooks__rr_after(hooks_call *call, int rc, int src, int tag);

/*
 * Message handlers (mhf.c). In a replay, whether the next recorded handler delivery is
 * due once pos wrapped calls have begun, with its sender's tid in this run and its tag.
 */
int hooks__rr_handler_due(int *src, int *tag, uint64_t pos);
/* A handler took a message from src with tag (sequence delta seq) at position pos
 * during a call of op: recorded, and in a replay checked against the due delivery. */
void hooks__rr_handled(hooks_call *call, int op, int src, int tag, int64_t seq, uint64_t pos);
/* In a replay, the due delivery cannot be made (what happened instead: observed). */
void hooks__rr_handler_missing(hooks_call *call, const char *observed);

/* Sends what was recorded since the last flush to the monitor (at flushes); at the
 * final one, in a replay, also says whether the record was used up. */
int hooks__rr_flush(int final);

/* WIRE_CTL_HOLD (on) and WIRE_CTL_RELEASE (off), in a replay: another task is stopped
 * for a debugger (--stop-at), and this one is to hold at its next receive. */
void hooks__rr_hold(int on);
/* At the start of a receive in a replay: holds here while the hold is on, having said
 * so to the monitor. */
void hooks__rr_hold_point(hooks_call *call);

/* --stop-at: stops before a clock or pid read (sources.c) when it is the event asked
 * for; site is the read's caller. */
void hooks__rr_stop_source(void *site, uint64_t event);

struct replay_entry;
/* Appends an entry the task observed (sources.c: a clock or pid read) to the record. */
void hooks__rr_add(const struct replay_entry *e);
/* Reports a divergence of a clock or pid read (sources.c) at event number event: call
 * names the C library call, site its caller; exp is the recorded read (NULL and event 0:
 * none left). */
void hooks__rr_diverge_source(void *site, const char *call, uint64_t event,
                              const struct replay_entry *exp, const char *observed);

/* For rrgroup.c. Whether this task replays and has not diverged; whether what it
 * observes still goes into its record. */
int hooks__rr_replaying(void);
int hooks__rr_recording(void);
/* The record's next entry for the call (what names it for a report), checked for
 * --stop-at; NULL after reporting that the record has no more. The entry stays where
 * it is until the next is taken. */
const struct replay_entry *hooks__rr_take(hooks_call *call, const char *what);
/* Reports that the call did not do what the last entry taken says: observed in words,
 * or an entry the task observed. */
void hooks__rr_diverge_obs(hooks_call *call, const char *observed);
void hooks__rr_diverge_entry(hooks_call *call, const struct replay_entry *observed);
/* The tid in this run of recorded sender index k (0: none); the name of a task for a
 * report (an index, or a tid of this run when by_tid). */
int32_t hooks__rr_tid_of(int32_t k);
void hooks__rr_name_of(char *buf, size_t len, int32_t id, int by_tid);
/* rrgroup.c: the record's own copy of group name g (the decoder's goes with it), NULL
 * when out of memory; forgetting them at a new init; describing a group entry. */
const char *hooks__rr_intern_group(const char *g);
void hooks__rr_forget_groups(void);
void hooks__rr_describe_group(char *buf, size_t len, const struct replay_entry *e, int by_tid);

/* Gives the replay the message handlers' test of a message they took that the record
 * never had them take (hooks__mhf_unexpected; features.c, at install). */
void hooks__rr_unexpected_by(int (*unexpected)(int *src, int *tag));

#endif
