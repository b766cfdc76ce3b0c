/* Private to pvmmon-monitor: the task table (tasks.c), the bottom layer every other
 * module reaches the registered tasks and the spawn reports through. */
#ifndef PVMMON_MONITOR_TASKS_H
#define PVMMON_MONITOR_TASKS_H

#include "monitor.h"

/* The task tid in *out, added (zeroed, with the next index) when it is new. Pointers
 * to tasks stay valid until the next task is added. 0 or PVMMON_ENOMEM. */
int tasks__add(mon_task **out, mon_run *run, int32_t tid);
/* The task tid, NULL when it never registered. */
mon_task *tasks__find(const mon_run *run, int32_t tid);
/* The welcomed task with logical id lid, NULL when none. */
mon_task *tasks__find_lid(const mon_run *run, const char *lid);
/* The tasks in registration order: index 0 to tasks__count() - 1 (task->index). */
size_t tasks__count(const mon_run *run);
mon_task *tasks__at(const mon_run *run, size_t index);
/* Whether t registered, was answered and has not exited: it can be told things. */
int tasks__running(const mon_task *t);
/* pvmd reported t's exit: exited after its final flush, crashed without one. */
void tasks__gone(mon_task *t);
/* Whether every registered task has ended (exited or crashed). */
int tasks__all_done(const mon_run *run);

/* Spawn reports: a parent's children with their places (logical ids). */
int tasks__spawn_add(mon_run *run, const mon_spawn *sp);
/* The report of t's spawn by its parent, NULL when none came (yet). */
const mon_spawn *tasks__spawn_of(const mon_run *run, const mon_task *t);
size_t tasks__spawn_count(const mon_run *run);
/* Marks the spawn reports of child ended (the pvmd told its exit before it
 * registered); returns 1 if there was one. */
int tasks__spawn_exited(mon_run *run, int32_t child);
/* Whether the pvmd was already asked to tell child's exit from its spawn report. */
int tasks__spawn_exit_asked(const mon_run *run, int32_t child);
const mon_spawn *tasks__spawn_at(const mon_run *run, size_t i);

/* Sends b to tid through the run's transport (nothing when b failed to build).
 * Returns 0 or a negative PVMMON_E*. */
int tasks__send(const mon_run *run, int32_t tid, int tag, const wire_buf *b);
/* Sends command c to every running task but except (0: none). */
void tasks__tell(const mon_run *run, const wire_ctl *c, int32_t except);

/* Resolves a statement's call site to file, line and function (once; the results stay
 * with the record). */
void tasks__resolve_stmt(pvmmon_log_stmt *s);

/*
 * Names statement s of task tid (its module and offset; its call, or the one of the
 * task's record of the same call site) by its source place into buf, as the reports
 * do: file:line from debug information (the file as resolved), else from the task's
 * static table (a pvmmon-cc build without -g): its line when sure, every line it could
 * be otherwise ("f.c:40,52", the file's base name); the table comes with the task's
 * flushes. Returns 1 when placed, 0
 * when buf holds module+offset (or "an unknown statement"). Resolves s->function too.
 */
int tasks__stmt_place(const mon_run *run, int32_t tid, pvmmon_log_stmt *s, char *buf, size_t len);

/* Frees the table: the tasks' records, the tasks and the spawn reports. */
void tasks__free(mon_run *run);

#endif
