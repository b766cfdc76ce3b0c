/* Private to pvmmon-monitor: the run as a whole (run.c): its defaults, the dispatch of
 * control messages to the modules' handlers, and freeing everything it holds. */
#ifndef PVMMON_MONITOR_RUN_H
#define PVMMON_MONITOR_RUN_H

#include "monitor.h"

/* A run with the defaults (recorded, flushes every second, ...) talking through io. */
void run__init(mon_run *run, const mon_io *io);
/* Whether a control message with tag from src may be handled (counted and said when
 * refused): registrations and pvmmon commands' requests carry the run's token (checked
 * where they are decoded); pvm_notify messages come from a pvmd; everything else only
 * from registered tasks. */
int run__admitted(mon_run *run, int src, int tag);
/* Hands a control message (not TASKEXIT) to its module's handler. */
void run__dispatch(mon_run *run, int src, int tag, const uint8_t *data, size_t len);
/* The pvmd reported tid's exit. */
void run__task_exit(mon_run *run, int32_t tid);
/* Frees what the run holds (its modules' state and its options). */
void run__free(mon_run *run);

#endif
