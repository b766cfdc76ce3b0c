/*
 * Private to pvmmon-monitor: how each task ended (ending.c): the FATAL reports of
 * tasks a signal ended, the run's stop (the user's interrupt), and the words the log
 * gives each task's end.
 */
#ifndef PVMMON_MONITOR_ENDING_H
#define PVMMON_MONITOR_ENDING_H

#include "monitor.h"

/* A FATAL message from task src: a signal ends it (its records came just before). */
void ending__fatal(mon_run *run, int src, const uint8_t *data, size_t len);

/* The run is being stopped (pvmmon run was interrupted, or the monitor was told to
 * end) at real time now: every running task is sent SIGTERM, so that those left at
 * its default send their records up to now and end (pvmhooks/fatal.c). Once only. */
void ending__stop(mon_run *run, int64_t now);

/* Whether the stop's wait is over at real time now: every task ended, or the wait's
 * bound passed. 0 when the run is not being stopped. */
int ending__stop_done(mon_run *run, int64_t now);

/* Sets task t's status and words (rec.ended) for the log, from what is known now:
 * the signal and last statement it reported, whether the run was stopped. Its
 * statements are resolved first. */
void ending__describe(mon_run *run, mon_task *t);

#endif
