/*
 * Private to libpvmhooks: online critical-path profiling (seed 003; doc/architecture.md,
 * "Critical path"). The tuple is kept in virtual time and carried on every trailing
 * piggyback; this part is pure arithmetic on timestamps so unit tests drive it
 * without PVM.
 *
 * Arc weights: a task's own arcs weigh the virtual time that passes between its
 * events, except the time a receive waits for its message (the synchronisation delay),
 * which is not work; a message arc weighs the message's transmission time (the
 * virtual clock's estimate), so that a path that ends with a wait is as long as the
 * run the unmonitored program would have had. A spawn arc weighs the real time from
 * the parent's spawn to the child's start.
 */
#ifndef PVMMON_HOOKS_CP_H
#define PVMMON_HOOKS_CP_H

#include <stdint.h>

#include "../common/wire.h"

/* Open procedures tracked for exclusive shares; deeper ones count for their caller. */
#define CP_STACK_MAX 256

typedef struct cp_state {
	wire_cp t;        /* the tuple; t.on once collection started */
	int exclusive;    /* shares count only the procedure's own time, not its callees' */
	int64_t last;     /* virtual time up to which the path is accounted */
	int depth[WIRE_CP_MAX]; /* open activations of each selected procedure */
	int stack[CP_STACK_MAX]; /* exclusive mode: the selected index of each open
				  * procedure, -1 for others */
	int nstack;
	int stopped;      /* collection of this selection was stopped: it does not restart */
} cp_state;

/* Sets up s for n selected procedures of selection generation gen (collection off).
 * Tuples of another generation are never merged: they were collected for another
 * selection. */
void cp__init(cp_state *s, uint32_t n, int exclusive, uint32_t gen);

/*
 * Starts collecting at virtual time v: with from (a spawning parent's tuple) extended
 * by arc, else from an empty path. open[] lists the selected index (or -1) of each
 * procedure open now, outermost first; with open NULL the procedures reported through
 * cp__enter()/cp__exit() so far stand.
 */
void cp__start(cp_state *s, int64_t v, const wire_cp *from, int64_t arc, const int *open,
	      int nopen);

/* Stops collecting; the tuple keeps its last values. */
void cp__stop(cp_state *s);

/* Accounts the time from the last event to v as work on the path. */
void cp__advance(cp_state *s, int64_t v);

/* Entry to and exit from a procedure at v; k is its selected index or -1. In
 * inclusive mode only selected procedures need to be reported. */
void cp__enter(cp_state *s, int k, int64_t v);
void cp__exit(cp_state *s, int k, int64_t v);

/*
 * A receive that started at v0, waited sync for its message and got remote (the
 * sender's tuple at the send, or NULL / off when the sender sent none) over a message
 * arc of trans: the merge of seed 003 Figure 3, and of Figure 5 for each procedure's
 * zeroing path. A tuple reaching a task that does not collect starts its collection
 * (case 3 of section 2.3); a message without one reaching a task that collects changes
 * nothing (case 4).
 */
void cp__receive(cp_state *s, int64_t v0, int64_t sync, int64_t trans, const wire_cp *remote);

#endif
