/* Turning a run's log into reports for people: the text summary of `pvmmon report --text`. */
#ifndef PVMMON_REPORT_H
#define PVMMON_REPORT_H

#include <stdio.h>

#include "pvmmon/log.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Writes a top-down text summary of log to out: the run (program, wall time, tasks,
 * monitoring intrusion), then each task, then communication statements by virtual time
 * with synchronisation delay and transmission split out, then procedures and loops when
 * present. Returns 0 or PVMMON_EIO.
 */
int pvmmon_report_text(const pvmmon_log *log, FILE *out);

#ifdef __cplusplus
}
#endif
#endif
