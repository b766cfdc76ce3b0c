/* Private to pvmmon-monitor: the requests of pvmmon commands (status.c). */
#ifndef PVMMON_MONITOR_STATUS_H
#define PVMMON_MONITOR_STATUS_H

#include "monitor.h"

/* Handles a STATUS request of a pvmmon command: carries out its command and answers
 * with a snapshot of the run (log XML without the trace). Returns PVMMON_EINVAL (and
 * does nothing) when the request lacks the run's token, else 0. */
int status__request(mon_run *run, int src, const uint8_t *data, size_t len);

#endif
