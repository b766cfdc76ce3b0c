/*
 * Private to libpvmhooks: the scheduler, the one place periodic work runs (looking for
 * the monitor's commands, flushing records, the budget's early flushes, the clock's
 * resynchronisation), over the ordered table of features it is given (features.c
 * holds the table and explains the order).
 */
#ifndef PVMMON_HOOKS_SCHED_H
#define PVMMON_HOOKS_SCHED_H

#include <stdint.h>

#include "hooks.h"

/* The monitor's welcome, decoded (features.h). */
typedef struct hooks_welcome hooks_welcome;

/* One feature's entry points; any may be NULL. */
typedef struct hooks_feature {
	const char *name;
	/* Takes the feature's part of the welcome; a negative code leaves the task
	 * unmonitored. */
	int (*welcome)(const hooks_welcome *w);
	/* After registration, outside any call (calibration); 1 when the feature wants a
	 * flush at once. */
	int (*start)(void);
	/* At every wrapped call's end and every probe tick (cheap: answers the monitor
	 * where it must be answered at once). */
	void (*poll)(int64_t now);
	/* Every POLL_NS, before the monitor's commands are read. */
	void (*tick)(int64_t now);
	/* A command from the monitor at virtual time v: 1 when it was this feature's. */
	int (*control)(const wire_ctl *c, int64_t v);
	/* Whether the feature wants a flush before the period is over. */
	int (*flush_due)(int64_t now, int64_t last_flush);
	/* Sends what the feature has to the monitor (final at exit): 0, or a negative
	 * code (the other features still flush). */
	int (*flush)(int final, int64_t now);
	/* A wrapped call's end, real time now (before the periodic work). */
	void (*call_end)(hooks_call *call, int64_t now);
} hooks_feature;

/* The features to run, in order (table[n], static: kept, not copied). */
void sched__init(const hooks_feature *table, size_t n);

/* The periodic work's clock starts now; records are flushed every period_ns. */
void sched__begin(int64_t period_ns);

/* Runs the features' start entries (right after registration). */
void sched__start(void);

/* A wrapped call's end at real time now: the features' call_end entries. */
void sched__call_end(hooks_call *call, int64_t now);

/* The periodic work at real time now, from a wrapped call's end (the guard is set);
 * its time is charged to the clock as intrusion. */
void sched__run(int64_t now);

/* The periodic work at real time now while a receive that began at real time `at`
 * waits (waits.c; the guard is set): the monitor's commands, and the flush when due
 * (or forced), as of the wait's start: the wait is no procedure's work, and the
 * receive's end accounts for it (the critical path, the virtual clock). Nothing is
 * charged to the clock. */
void sched__waiting(int64_t now, int64_t at, int force);

/* The same from a probe (outside any wrapper); returns the real time of the next
 * tick. */
int64_t sched__tick(int64_t now);

/* The real time the task has spent in flushes so far (the budget's early flushes are
 * asked for by the cost of everything else). */
int64_t sched__flush_ns(void);

/* Looks for commands from the monitor and carries them out (real time now). */
void hooks__poll(int64_t now);

/* Waits (a bounded time) for the monitor's next command and carries it out at virtual
 * time v. */
void hooks__await_control(int64_t v);

/* Carries out a monitor command at virtual time v (from the poll, or from preserve
 * mode's drain). */
void sched__control(const wire_ctl *c, int64_t v);

/* Sends every feature's records to the monitor (final at exit); 0, PVMMON_ESTATE when
 * the task is not monitored (any more), or the first feature's failure. */
int hooks__flush(int final);

#endif
