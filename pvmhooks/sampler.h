/*
 * Private to pvmhooks: call-path sampling (sampler.c). With PVMMON_SAMPLE=HZ in the
 * environment (pvmmon run --sample), the task interrupts itself HZ times a second of
 * its own CPU time, unwinds the interrupted stack and counts the path in its tree.
 */
#ifndef PVMMON_HOOKS_SAMPLER_H
#define PVMMON_HOOKS_SAMPLER_H

#include <signal.h>
#include <stdint.h>

#include "pvmmon/log.h"

/* The sampling timer's signal: its own, not the wait slices' (slicetimer.h). */
#define PVMMON_SAMPLE_SIGNAL (SIGRTMAX - 3)
/* The most call-path nodes a task keeps (a node is 56 bytes: 448 KiB). */
#define SAMPLE_NODES_MAX 8192

/* Starts sampling when PVMMON_SAMPLE asks for it (the feature table's start). */
int sampler__start(void);
/* The samples so far, as the log holds them, owned by the sampler until the next call;
 * NULL when the task does not sample. */
pvmmon_log_samples *sampler__samples(void);
/* Stops the timer (after the final flush). */
void sampler__stop(void);

#endif
