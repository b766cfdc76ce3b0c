/*
 * Private to libpvmhooks: preserve mode's local decisions (doc/architecture.md,
 * "Preserve mode"). The monitor's last grant of a blocking receive gave every other
 * task's lower bound on its next send; the task keeps those bounds true with what it
 * sends (which may wake others) and raises them with what it receives (piggybacks and
 * block notices), so that its next receives can be decided here, with no control
 * message, whenever the bounds are past the earliest candidate.
 */
#ifndef PVMMON_HOOKS_PRLOCAL_H
#define PVMMON_HOOKS_PRLOCAL_H

#include <stdint.h>

#include "../common/wire.h"

/* No bound: the task sends nothing before this task sends to it (or ever). */
#define PRL_NEVER INT64_MAX

/* Takes the bounds of a grant (g->table; otherwise the bounds go). seen(tid): the
 * messages from tid this task has seen so far. Times are on the monitor's clock. */
void hooks__prl_grant(const wire_pgrant *g, uint32_t (*seen)(int32_t tid));
/* Whether there are bounds to decide by. */
int hooks__prl_valid(void);
/* This task sent to tid at virtual time vs (monitor's clock): what that may wake.
 * Returns the send's quiet flag (wire_piggyback). */
int hooks__prl_sent(int32_t tid, int64_t vs);
/* This task is about to spawn: the bounds go (its children's are unknown here) and
 * its next sends are not quiet. */
void hooks__prl_spawning(void);
/* src's latest piggyback asked (notify 1) or not to be told when this task blocks on
 * it alone. */
void hooks__prl_wants(int32_t src, int notify);
/* This task blocks on src alone from virtual time vt (monitor's clock), having seen
 * seen messages from it and sent it sent (alone: and none from or to any other task):
 * tells src when it asked. 1 when told. */
int hooks__prl_tell(int32_t src, int64_t vt, uint32_t seen, uint32_t sent, int alone);
/* This task blocks in a receive from any source with nothing it takes queued, from
 * virtual time vt: tells every source that asked (seen(tid), sent_to(tid): the counts
 * with tid; alone(tid): whether it exchanged messages with no other task). Returns
 * how many were told. */
int hooks__prl_tell_any(int64_t vt, uint32_t (*seen)(int32_t tid),
                        uint32_t (*sent_to)(int32_t tid), int (*alone)(int32_t tid));
/* Whether this task's sends to tid ask for its news (wire_piggyback.watch): it had to
 * ask tid for its news before (hooks__prl_watch). */
int hooks__prl_watching(int32_t tid);
/* This task's message to tid asked for its news itself (wire_piggyback.watch): tid is
 * not asked again (PWATCH) until its next notice. */
void hooks__prl_asked(int32_t tid);
/* src waits for this task's news (a PWATCH): it is told when this task next waits
 * elsewhere (in the wait it is in), unless a notice to it comes first. */
void hooks__prl_watched(int32_t src);
/* This task waits elsewhere (hooks__prl_tell's and hooks__prl_tell_any's cases
 * aside), from virtual time vt: tells every task that waits for its news (a PWATCH
 * since this task's last message or notice to it) that none will come until it runs
 * again (wire_pblock.away). Returns how many were told. */
int hooks__prl_tell_away(int64_t vt, uint32_t (*seen)(int32_t tid),
                         uint32_t (*sent_to)(int32_t tid));
/* A piggyback from src: its per-pair sequence number, send time and quiet flag. */
void hooks__prl_seen(int32_t src, uint32_t seq, int64_t vs, int quiet);
/* A block notice from src (len bytes at d: PVMMON_EPARSE when damaged). sent_to_src:
 * the messages this task has sent to src, seen_from_src: those it has seen from it. */
int hooks__prl_notice(int32_t src, const uint8_t *d, size_t len, uint32_t sent_to_src,
                      uint32_t seen_from_src);
/* A piggyback from src: its sequence number, send time and flags. */
void hooks__prl_piggyback(int32_t src, const wire_piggyback *pb);
/* A block notice from src, decoded. */
void hooks__prl_blocked(int32_t src, const wire_pblock *k, uint32_t sent_to_src,
                        uint32_t seen_from_src);
/* This task ends: tells every source that asked for block notices (sent_to(tid): the
 * messages sent to tid). Returns how many were told. */
int hooks__prl_exiting(uint32_t (*sent_to)(int32_t tid), int (*alone)(int32_t tid));
/* Whether tid is among the tasks of the bounds. */
int hooks__prl_known(int32_t tid);
/* tid's place in the monitor's tie order (UINT32_MAX: unknown). */
uint32_t hooks__prl_rank(int32_t tid);
/* The least bound of all (PRL_NEVER when there is none): no task can send before it,
 * nor any task spawned since the grant. Under the knowledge rule (the grant's know),
 * as hooks__prl_consider last set it. */
int64_t hooks__prl_horizon(void);
/* Sets which bounds count for the receive being decided, by the knowledge rule when
 * the grant used it: a task that may not address this one, and a candidate's sender
 * (is_cand: PVM keeps each pair's order, so its next message comes after the one
 * queued), count for nothing; every other task by its bound. Without the rule, every
 * bound counts. */
void hooks__prl_consider(int (*is_cand)(int32_t tid));
/* A receive from any source took a message of virtual arrival va (this task's clock). */
void hooks__prl_taken(int64_t va);
/* A message from src arrived (virtual arrival va, this task's clock): if the bounds
 * said src could not address this task (it was taught the tid in a message, a relay
 * the rule does not wait for), src counts from now on, and a message earlier than one
 * already taken makes the task say so (hooks__reach_misorder). */
void hooks__prl_premise(int32_t src, int64_t va);
/* What holds the least bound: PRL_HELD_WOKEN, a task this task has sent to since the
 * grant (its next message or notice will come: asked, it tells this task when it next
 * waits, hooks__prl_tell_away; the monitor would wait for it too); PRL_HELD_BLOCKED, a task
 * that said it blocks on any source or waits elsewhere (no news of it will come here:
 * only the monitor, which knows the other tasks, can say it cannot move); 0 otherwise. */
#define PRL_HELD_WOKEN 1
#define PRL_HELD_BLOCKED 2
int hooks__prl_held_by_woken(void);
/* A task to ask for its news (PWATCH) now (0: none left): the one whose bound is
 * least, or another below the horizon need, when this task woke it or its board slot
 * says it is in a call (it may wait there: its slot will not pass need), and this
 * task has not asked it since its latest notice (a send with the watch flag asks too:
 * from now on this task's sends to a task it woke carry it). A task in a call answers
 * at once when it waits. */
int32_t hooks__prl_watch(int64_t need);
/* How long a receive the task may decide itself waits for the piggybacks and block
 * notices that would let it, before it asks the monitor: not at all, unless what
 * holds it is news on its way. A task it has sent to (which the monitor would have to
 * wait for too) sends news when it next sends here, waits anywhere or ends, so the
 * receive waits for that news, no timer (the caller's woken_wait, the wait threshold,
 * is the hang rule's: a task killed says nothing). It was a 1 ms timer, and 20 ms
 * before: a group program paid it on every round (a member waits for the root's
 * broadcast, while the root, woken by that member's previous contribution, decides its
 * own reduce receive here: a mutual wait only the monitor ends, now told at once by
 * the member's notice). Up to 50 ms while the tasks that hold it back have board
 * slots (board.c) that will pass its choice: they compute, and the monitor could only
 * ask them, which they answer when they next call PVM. */
#define PRL_WAIT_NS 0LL
#define PRL_LIVE_WAIT_NS 50000000LL
/* How often a task deciding looks again at board slots that do not grow (their task
 * is in a call, from which it may be waking). */
#define PRL_LIVE_POLL_NS 200000LL
/* Real ns (board time) until the bounds of the tasks below target reach it as their
 * board slots grow (they compute: see board.c; *sure = 1), or until it is worth looking
 * again (*sure = 0: some are in calls); PRL_ETA_UNKNOWN if one of them has no board slot
 * to read. */
#define PRL_ETA_UNKNOWN (-1)
int64_t hooks__prl_live_eta(int64_t target, int *sure);
/* Until when (now's clock) a receive that began waiting at t_wait waits here for the
 * horizon need (INT64_MIN: no choice yet), and in *step how long its next wait for a
 * message lasts before it looks at the bounds again; woken_wait: how long at most for
 * a task it woke (PRL_HELD_WOKEN); *timer: 1 when until is a timer's (that wait, or
 * the board's PRL_LIVE_WAIT_NS), not the news or the board slots expected. A poll (pvm_nrecv, pvm_probe) waits only for board
 * slots. */
int64_t hooks__prl_until(int64_t need, int64_t t_wait, int64_t now, int poll, int64_t woken_wait,
                         int64_t *step, int *timer);
/* The spread of the tasks' virtual-time uncertainties at the grant, ns: the tie window. */
int64_t hooks__prl_umax(void);

#endif
