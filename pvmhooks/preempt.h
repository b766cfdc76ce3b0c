/*
 * Private to libpvmhooks: the time a task in preserve mode lost to preemption, which
 * is no part of its virtual time (see preempt.c).
 */
#ifndef PVMMON_HOOKS_PREEMPT_H
#define PVMMON_HOOKS_PREEMPT_H

#include <stdint.h>

/* What the task's thread had done by a moment: real time, CPU time, context switches. */
typedef struct preempt_sample {
	int64_t rt, cpu;
	long vol, invol; /* voluntary and involuntary context switches */
} preempt_sample;

/* The time between a and b the thread was off its processor only because it was
 * preempted: real less CPU time when it was switched out involuntarily and never
 * gave the processor up itself (no sleep, no blocking call), 0 otherwise. */
int64_t preempt__off(const preempt_sample *a, const preempt_sample *b);

/* At a wrapped call's entry (rt: its start): the preemption since the previous call's
 * end, to be taken out of the virtual time before the call is stamped (the caller keeps
 * the board's promise: at most up to pub_limit). */
int64_t hooks__preempt_enter(int64_t rt);

/* At the call's end (rt: its end; real: the real PVM call's duration): the preemption
 * during the real call (at most its duration; the wrapper's own time is intrusion
 * already). */
int64_t hooks__preempt_leave(int64_t rt, int64_t real);

#endif
