/* Private to pvmmon-monitor: the run's time histograms (histmerge.c): each task's
 * latest, placed on the run's axis, `pvmmon ctl histogram`, and the program and host
 * foci merged for the log. */
#ifndef PVMMON_MONITOR_HISTMERGE_H
#define PVMMON_MONITOR_HISTMERGE_H

#include "monitor.h"

/* Takes the histograms of a task's flush (fresh's, which it leaves empty) in place of
 * t's earlier ones, on the run's axis; drops any that break the run's settings. */
void histmerge__take(mon_run *run, mon_task *t, pvmmon_log_task *fresh);
/* `pvmmon ctl histogram [--off] SPEC`: tells the running tasks and remembers it for
 * those that start later. 0, or PVMMON_EINVAL for a bad SPEC. */
int histmerge__request(mon_run *run, int on, const char *spec);
/* The settings and the program and host foci, merged from the tasks' histograms of
 * log (its tasks and hosts already filled), into log. */
void histmerge__build(const mon_run *run, pvmmon_log *log);

#endif
