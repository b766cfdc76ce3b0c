/* Private to pvmmon-monitor: the PVM usage errors tasks found (FINDING; findings.c),
 * said on stderr once per statement (pair) and kept for the log. */
#ifndef PVMMON_MONITOR_FINDINGS_H
#define PVMMON_MONITOR_FINDINGS_H

#include "monitor.h"

/* A task's finding: said when its statement (pair) is new, its count taken. */
void findings__message(mon_run *run, int src, const uint8_t *data, size_t len);
/* Task tid's final records came: what it counted at its exit is said. */
void findings__task_final(mon_run *run, int32_t tid);
/* The findings so far into log (copies). */
void findings__to_log(mon_run *run, pvmmon_log *log);
void findings__free(mon_run *run);

#endif
