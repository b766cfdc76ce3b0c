/* Private to pvmmon-monitor: choosing the critical path's selection while the program
 * runs (cpsearch.c). */
#ifndef PVMMON_MONITOR_CPSEARCH_H
#define PVMMON_MONITOR_CPSEARCH_H

#include "monitor.h"

/* Drives --cp=auto and the top-m search: called as time passes (real time now). */
void cpsearch__tick(mon_run *run, int64_t now);
/* Frees the search's candidates and findings. */
void cpsearch__free(mon_run *run);

#endif
