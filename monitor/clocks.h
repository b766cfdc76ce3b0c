/* Private to pvmmon-monitor: the host clock models (clocks.c), which put the times tasks
 * report on their own clocks onto the monitor's. */
#ifndef PVMMON_MONITOR_CLOCKS_H
#define PVMMON_MONITOR_CLOCKS_H

#include "monitor.h"

/* A task's clock offset estimate (CLOCK): the first of each task is answered with the
 * model its host uses; a keeper's later ones refit the model, sent to the whole host. */
void clocks__estimate(mon_run *run, int src, const uint8_t *data, size_t len);
/* The clock model of host dtid, NULL when there is none yet. */
const mon_host_clock *clocks__host(const mon_run *run, int32_t dtid);
/* A time task t reported on its own clock, on the monitor's (unchanged before the
 * task's first CLOCK report). */
int64_t clocks__to_monitor(const mon_run *run, const mon_task *t, int64_t time);
/* Task t has gone: another task of its host takes over as keeper. */
void clocks__task_gone(mon_run *run, const mon_task *t);
void clocks__free(mon_run *run);

#endif
