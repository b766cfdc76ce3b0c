/* Private to pvmmon-monitor: preserve mode (preserve.c), its state the monitor's own
 * (struct mon_pr in run->pr). */
#ifndef PVMMON_MONITOR_PRESERVE_H
#define PVMMON_MONITOR_PRESERVE_H

#include "monitor.h"

/* 0 or PVMMON_ENOMEM. */
int preserve__init(mon_run *run);
/* Handles a PWAIT: a task's request, blocked receive or state report. */
void preserve__message(mon_run *run, int src, const uint8_t *data, size_t len);
/* Decides what can be decided now, asks for fresher reports, and reports a deadlock of
 * the program once nothing has moved for a while. */
void preserve__evaluate(mon_run *run);
/* The log's settings of preserve mode, through add(ctx, key, value). */
void preserve__settings(mon_run *run, void (*add)(void *, const char *, const char *), void *ctx);
void preserve__free(mon_run *run);
/* The decisions' record of a traced run, copied into the log's trace. */
void preserve__trace(mon_run *run, pvmmon_log *log);
/* Whether requests wait for a decision (the monitor then looks again within 1 ms). */
int preserve__busy(const mon_run *run);

#endif
