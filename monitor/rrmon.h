/* Private to pvmmon-monitor: the monitor's side of record and replay (rrmon.c). */
#ifndef PVMMON_MONITOR_RRMON_H
#define PVMMON_MONITOR_RRMON_H

#include "monitor.h"

/* Handles a RECORD chunk: appends it to the task's record. */
void rrmon__record(mon_run *run, int src, const uint8_t *data, size_t len);
/* After t's welcome: in a replay, sends t its record and answers tasks waiting for
 * its tid. */
void rrmon__welcomed(mon_run *run, mon_task *t);
/* Handles a LID question: the tid of a logical id, now or once it registers. */
void rrmon__lid(mon_run *run, int src, const uint8_t *data, size_t len);
/* Answers "no such task" (tid 0) to the questions about logical ids that can no longer
 * register: a child whose parent has ended, or asks itself, without having spawned it. */
void rrmon__lids_unreachable(mon_run *run);
void rrmon__diverged(mon_run *run, int src, const uint8_t *data, size_t len);
void rrmon__stopped(mon_run *run, int src, const uint8_t *data, size_t len);
/* At the end of a replay: recorded tasks that never started are a divergence. */
void rrmon__end(mon_run *run);
/* Fills out's record fields from t's record (senders as logical ids); the fields then
 * belong to out. 0 or a negative PVMMON_E*. */
int rrmon__fill(pvmmon_log_task *out, mon_run *run, mon_task *t);
/* Frees the tasks' records, the waiting questions and the replayed log. */
void rrmon__free(mon_run *run);

#endif
