/* Private to pvmmon-monitor: the launched program's process group (pgroup.c), seen
 * from the host's process list: whether any process of it could still start a task. */
#ifndef PVMMON_MONITOR_PGROUP_H
#define PVMMON_MONITOR_PGROUP_H

#include "monitor.h"

/* The processes of the program's group (run->group, from `pvmmon run`) that live and
 * are no running task of the run on the monitor's host: how many (0: every process of
 * the group is such a task, or none lives), or PGROUP_UNKNOWN when it cannot be known
 * (no group told, no process list). Reads run->proc_dir (NULL: /proc). */
#define PGROUP_UNKNOWN (-1)
int pgroup__others(const mon_run *run);

#endif
