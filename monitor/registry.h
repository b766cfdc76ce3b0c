/* Private to pvmmon-monitor: the registration protocol (registry.c): tasks joining,
 * their places, their flushes and their exits. */
#ifndef PVMMON_MONITOR_REGISTRY_H
#define PVMMON_MONITOR_REGISTRY_H

#include "monitor.h"

/* Handles a REGISTER message from src; answers it unless the task must wait for its
 * parent's spawn report. Returns PVMMON_EINVAL (and does nothing) when it lacks the
 * run's token, else 0. */
int registry__register(mon_run *run, int src, const uint8_t *data, size_t len);
/* Handles a parent's SPAWNED report: its children's places. */
void registry__spawned(mon_run *run, int src, const uint8_t *data, size_t len);
/* Handles a QUERY: whether a tid is a task of the run (and a clock sample). */
void registry__query(mon_run *run, int src, const uint8_t *data, size_t len);
/* Handles a RECORDS flush. */
void registry__records(mon_run *run, int src, const uint8_t *data, size_t len);
/* The pvmd reported tid's exit. */
void registry__task_exit(mon_run *run, int32_t tid);
/* Resolves registrations that waited too long for a spawn report. */
void registry__pending_timeout(mon_run *run, int64_t now);

#endif
