/* Private to pvmmon-monitor: the event trace kept for the log (trace.c). */
#ifndef PVMMON_MONITOR_TRACE_H
#define PVMMON_MONITOR_TRACE_H

#include "monitor.h"

/*
 * Handles a TRACE chunk. The trace kept is always a prefix in time of the whole run:
 * events are dropped from the end (the latest start first, across all tasks) so that
 * every task's events before the cut are there, whatever order chunks arrive in.
 */
void trace__chunk(mon_run *run, int src, const uint8_t *data, size_t len);
/* Cuts the kept trace to at most trace_events events (the earliest ones). */
void trace__limit(mon_run *run);

#endif
