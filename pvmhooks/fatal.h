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

/*
 * The process ends (exit, or a return from main) while the task is still enrolled:
 * it never called pvm_exit. Sends its final records and a FATAL without a signal
 * (sig 0) naming its last send's statement, which PVM may lose (libpvm3 hands a
 * message to pvmd asynchronously, and pvmd drops what it has not read from a task
 * that has ended), and waits (at most BOUND_S) until the monitor has them: the same
 * round trip that keeps a dying task's records. pvm_exit is not called: the program's
 * messages fare as they would unmonitored, except that the wait for the monitor's
 * answer gives pvmd the time to read them too (said in doc/user-guide.md). A process
 * that made no wrapped PVM call was enrolled by pvmmon itself (a probe, or its exit,
 * registered it): its records go, and no FATAL.
 */
void hooks__fatal_noexit(void);

#endif
