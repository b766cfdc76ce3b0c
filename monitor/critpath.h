/* Private to pvmmon-monitor: critical-path collection (critpath.c): the tasks' samples
 * and the selection they collect for. */
#ifndef PVMMON_MONITOR_CRITPATH_H
#define PVMMON_MONITOR_CRITPATH_H

#include "monitor.h"

/* Handles a CPSAMPLE: keeps the task's latest critical-path tuple. */
void critpath__sample(mon_run *run, int src, const uint8_t *data, size_t len);
/* Starts critical-path collection with selection procs (a new generation: earlier
 * samples are dropped) or stops it, and tells every running task. */
void critpath__start(mon_run *run, const char *procs, int exclusive);
void critpath__stop(mon_run *run);

#endif
