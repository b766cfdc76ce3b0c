/* Private to pvmmon-monitor: hangs (hang.c). Each task's wait state from its WAIT and
 * WAITEND reports and the tasks' ends; diagnoses of what can never go on (a deadlock
 * cycle, a wait for a task that has ended, a message queued with another tag, the
 * whole program quiescent), each said once on stderr and kept for the log. */
#ifndef PVMMON_MONITOR_HANG_H
#define PVMMON_MONITOR_HANG_H

#include "monitor.h"

/* The WAIT and WAITEND handlers (run.c's table). */
void hang__wait(mon_run *run, int src, const uint8_t *data, size_t len);
void hang__waitend(mon_run *run, int src, const uint8_t *data, size_t len);

/* Preserve mode's waits (preserve.c, from its reports): task tid waits as w says (w's
 * arrays and module become the module's, *w is zeroed), or waits no longer. */
void hang__set(mon_run *run, int32_t tid, wire_wait *w);
void hang__unset(mon_run *run, int32_t tid);

/* Looks for conditions that have become certain and reports each new one. Cheap when
 * nothing waits; called after every message, exit and the program's end, and at least
 * every 50 ms (the settle time of a program whose tasks all wait, the crash grace). */
void hang__evaluate(mon_run *run);

/* The diagnoses so far, for the log: kind (deadlock, ended, mismatch, quiescent) and
 * text. */
size_t hang__count(const mon_run *run);
const char *hang__kind(const mon_run *run, size_t i);
const char *hang__text(const mon_run *run, size_t i);
/* The time from the last block of the tasks involved to the diagnosis, ns. */
int64_t hang__delay(const mon_run *run, size_t i);

/* Where and for what task tid waits now, or waited when it ended ("at f.c:42 for tag
 * 2 from 0.1"; the module's, valid until the next report); NULL when it does not. */
const char *hang__waiting(mon_run *run, int32_t tid);

/* WAIT and WAITEND messages received (the log's wait-reports setting). */
uint64_t hang__reports(const mon_run *run);

/* Frees the module's state. */
void hang__free(mon_run *run);

#endif
