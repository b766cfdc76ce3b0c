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

/* At registration (the feature table's start): sampling as PVMMON_SAMPLE asks for it
 * (a rate; "auto": the default rate unless the program has pvmmon-cc's static tables),
 * or as `pvmmon ctl sample` set it before (the welcome). A task that samples started
 * already in the library's constructor, before the program's main. */
int sampler__start(void);
/* The welcome's part: whether `pvmmon ctl sample` set the rate, and to what. */
void sampler__welcome(int ctl_set, uint32_t hz);
/* `pvmmon ctl sample`: samples at hz from now (0: none; a tree taken so far stays and
 * goes with every flush). */
void sampler__set(uint32_t hz);
/* The samples so far, as the log holds them, owned by the sampler until the next call;
 * NULL when the task does not sample. */
pvmmon_log_samples *sampler__samples(void);
/* The handler's time so far, ns (the samples' cost; 0 when none). */
int64_t sampler__cost_ns(void);
/* Stops the timer (after the final flush). */
void sampler__stop(void);

#endif
