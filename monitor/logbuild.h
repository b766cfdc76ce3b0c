/* Private to pvmmon-monitor: the run's log (logbuild.c). */
#ifndef PVMMON_MONITOR_LOGBUILD_H
#define PVMMON_MONITOR_LOGBUILD_H

#include "monitor.h"

/* Builds the log of the run so far and writes it atomically. */
int logbuild__write(mon_run *run);
/* The log of the run so far, without its trace, as XML text in *out (caller frees). */
int logbuild__snapshot(char **out, size_t *len, mon_run *run);

/* Reads the hosts from the pvmd when a task registered from a host it had not listed,
 * so that the log can name the hosts even if the pvmd is lost later. */
void logbuild__note_hosts(const mon_run *run);

#endif
