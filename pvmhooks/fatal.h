/*
 * Private to libpvmhooks: the fatal-signal feature (fatal.c), which keeps a dying
 * task's records and tells the monitor which signal ended it and where.
 */
#ifndef PVMMON_HOOKS_FATAL_H
#define PVMMON_HOOKS_FATAL_H

/* Installs the handlers (at registration, outside any call; PVMMON_NO_SIGNALS set
 * leaves the program's signals alone). Always 0: no flush wanted. */
int hooks__fatal_install(void);

/* Ends the task now if a signal came inside a PVM call or pvmmon's own code and was
 * deferred to the call's end: reports it with the records and lets it end the task.
 * Called from the feature's poll (features.c): every wrapped call's end, probe tick
 * and whatever else runs the scheduler's periodic work (sched__run). Nothing when no signal is
 * deferred. */
void hooks__fatal_settle(void);

#endif
