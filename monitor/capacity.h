/*
 * Private to pvmmon-monitor: the tasks each host holds against its pvmd's descriptor
 * limit (capacity.c). A pvmd keeps about two descriptors per task (the task's socket
 * and the pipe its output comes through) and watches them with select(), which stops
 * it at descriptor FD_SETSIZE (1024): about 500 tasks at once on one host. The monitor
 * counts and says so once, before the pvmd dies if it can.
 */
#ifndef PVMMON_MONITOR_CAPACITY_H
#define PVMMON_MONITOR_CAPACITY_H

#include "monitor.h"

/* Tasks on one host at which the warning is given: 80% of the ~507 a pvmd holds
 * ((1024 - its own ~10 descriptors) / 2). */
#define MON_HOST_TASKS_WARN 400

/* Counts the tasks on each host now (running registered tasks, and children spawned
 * lately that have not registered yet: a pvmd forks a whole spawn before it takes
 * their connections, so a spawn report comes before they hold their sockets), keeps
 * the largest count seen (run->host_tasks_peak) and warns on stderr the first time a
 * host reaches MON_HOST_TASKS_WARN. now is the monitor's real time. */
void capacity__check(mon_run *run, int64_t now);

/* The monitor lost its pvmd (a receive failed with PvmSysErr) at real time now: says
 * so once, with the tasks the host held at most and, when that was near the limit,
 * why the pvmd most likely died. */
void capacity__pvmd_lost(mon_run *run, int64_t now);

#endif
