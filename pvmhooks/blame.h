/*
 * Private to libpvmhooks: the online wait analysis (blame.c), which charges each of the
 * task's late-sender waits to the computation that caused it without a trace, from what
 * the senders' piggybacks say of their own time since they last exchanged a message with
 * this task (Böhme et al.'s delay analysis, by segment: the computation before a
 * statement).
 */
#ifndef PVMMON_HOOKS_BLAME_H
#define PVMMON_HOOKS_BLAME_H

#include <stddef.h>
#include <stdint.h>

#include "../common/wire.h"
#include "hooks.h"
#include "pvmmon/log.h"

#pragma GCC visibility push(hidden)

/* A computation that made this task wait, and how much: the segment of task tid before
 * its statement stmt; the waiting it caused directly (short) and through other tasks'
 * waits (long), and in how many of this task's waits it had a share: the log's own
 * record, so that the records flush sends the table as it is. */
typedef pvmmon_log_blame blame_cause;

/* One task's analysis; blame.c keeps the task's own (hooks__blame_*), the unit tests
 * make several. */
typedef struct blame_state blame_state;

/* A state for task tid running program prog (a hash of its name, hooks__str_hash). */
int blame__new(blame_state **out, int32_t tid, uint32_t prog);
void blame__free(blame_state *b);

/* The end of a call of statement stmt (site: its place in its module, UINT32_MAX
 * unknown) that began at virtual time v0 and ended at v: the computation since the
 * previous call's end was the segment before stmt, and the waiting blame__receive
 * charged during the call goes with it. */
void blame__call(blame_state *b, uint32_t stmt, uint32_t site, int64_t v0, int64_t v);

/* The summary a send of statement stmt (site) at v0 to tids[n] carries (pb's nblame,
 * blame_prog and blame[]): the sender's time since its last message with them. */
void blame__sign(blame_state *b, uint32_t stmt, uint32_t site, int64_t v0, const int *tids, int n,
                 wire_piggyback *pb);

/*
 * A message from src taken by a call at site (its statement's) that began at v0 and
 * waited sync virtual ns for it; pb is its piggyback (NULL or without a summary: from
 * an unmonitored sender, or one that carried none). Charges the wait to its causes;
 * returns its propagated part, and *indirect 1 when most of the sender's excess was
 * waiting of its own.
 */
int64_t blame__receive(blame_state *b, int32_t src, uint32_t site, int64_t v0, int64_t sync,
                       const wire_piggyback *pb, int *indirect);

/* The causes so far (*out valid until the next call into b); how many. */
size_t blame__causes(const blame_state *b, const blame_cause **out);

/* The task's own analysis, for the hooks: on unless PVMMON_BLAME=0 (a knob for
 * measuring its cost); started at registration with the task's tid and program. */
void hooks__blame_start(int32_t tid, const char *program);
void hooks__blame_call_end(hooks_call *call, int64_t now);
void hooks__blame_sign(hooks_call *call, const int *tids, int n, wire_piggyback *pb);
/* The receive's statement record st (the caller's) counts its indirect waits. */
void hooks__blame_receive(hooks_call *call, pvmmon_log_stmt *st, int src, int64_t sync,
                          const wire_piggyback *pb);
size_t hooks__blame_causes(const blame_cause **out);

#pragma GCC visibility pop

#endif
