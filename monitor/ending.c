/*
 * How each task ended (monitor/ending.h): a task a signal ends says so (FATAL, from
 * pvmhooks/fatal.c) with its last statement; a run the user stops has every task
 * send its records before the log is written; and the log says in words how each task
 * ended, never "crashed" for a task pvmmon's own stop ended.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/clock.h"
#include "ending.h"
#include "hang.h"
#include "tasks.h"

/* How long a stop waits for the tasks' last records: each task's handler is bounded
 * to 2 s (pvmhooks/fatal.c, BOUND_S), and its messages need a few milliseconds more
 * to come, even from another host. */
#define STOP_WAIT_NS 3000000000LL

/* The words for task t's last send (statement id + 1, 0: none) into buf: "its last
 * send, at f.c:23" or "it sent nothing". */
static void last_send_words(mon_run *run, mon_task *t, uint32_t stmt, char *buf, size_t n)
{
	pvmmon_log_stmt *s = stmt && stmt <= t->rec.nstmts ? &t->rec.stmts[stmt - 1] : NULL;
	char place[600];
	const char *slash;

	if (!s) {
		snprintf(buf, n, "it sent nothing");
		return;
	}
	tasks__stmt_place(run, t->rec.tid, s, place, sizeof(place));
	/* The file's base name, as the hang diagnoses name statements. */
	slash = s->file && s->line > 0 ? strrchr(place, '/') : NULL;
	snprintf(buf, n, "its last send, at %s, may have been lost", slash ? slash + 1 : place);
}

/* Task t says its process ends without pvm_exit (its final records came just before):
 * said on stderr at once, with its last send; its status and words follow its exit. */
static void noexit(mon_run *run, mon_task *t, const wire_fatal *f)
{
	char words[700];

	t->noexit = 1;
	t->rec.last_stmt = f->stmt;
	t->fatal_records = f->records;
	last_send_words(run, t, f->stmt, words, sizeof(words));
	fprintf(stderr, "pvmmon: task %s (t%x) exited without pvm_exit: %s (PVM delivers a task's "
	        "last messages reliably only when it calls pvm_exit)\n",
	        t->rec.lid ? t->rec.lid : "?", (unsigned)t->rec.tid, words);
	fflush(stderr);
	run->t_last_change = pvmmon_clock_now();
}

void ending__fatal(mon_run *run, int src, const uint8_t *data, size_t len)
{
	mon_task *t = tasks__find(run, src);
	wire_fatal f;

	if (!t || wire__fatal_decode(&f, data, len) != 0) {
		run->bad_messages++;
		return;
	}
	if (f.sig == 0) {
		noexit(run, t, &f);
		return;
	}
	t->rec.signal = f.sig;
	t->rec.last_stmt = f.stmt;
	t->fatal_records = f.records;
	t->rec.status = PVMMON_TASK_KILLED;
	run->t_last_change = pvmmon_clock_now();
}

void ending__stop(mon_run *run, int64_t now)
{
	if (run->t_stopped)
		return;
	run->t_stopped = now;
	for (size_t i = 0; i < tasks__count(run); i++) {
		mon_task *t = tasks__at(run, i);

		if (tasks__running(t) && run->io.kill)
			run->io.kill(t->rec.tid, SIGTERM);
	}
}

int ending__stop_done(mon_run *run, int64_t now)
{
	if (!run->t_stopped)
		return 0;
	return tasks__all_done(run) || now - run->t_stopped > STOP_WAIT_NS;
}

/* What a task was doing when the run was stopped, in words after "when the run was
 * stopped" would not fit ("waiting at worker.c:12 for a message from 0.1 (tag 3)"):
 * whether it is known (then in buf), not only that the task was running.
 * Filled in by the wait reports (the hang diagnoses) when they know it. */
static int waiting_words(mon_run *run, const mon_task *t, char *buf, size_t n)
{
	const char *w = hang__waiting(run, t->rec.tid);

	if (!w)
		return 0;
	snprintf(buf, n, "waiting %s", w);
	return 1;
}

/* " at FILE:LINE" (or " in FUNCTION", or nothing) for the task's statement id + 1. */
static void at_words(char *buf, size_t n, mon_task *t, uint32_t stmt)
{
	pvmmon_log_stmt *s = stmt && stmt <= t->rec.nstmts ? &t->rec.stmts[stmt - 1] : NULL;

	buf[0] = '\0';
	if (!s)
		return;
	tasks__resolve_stmt(s);
	if (s->file && s->line > 0)
		snprintf(buf, n, " at %s:%d", s->file, (int)s->line);
	else if (s->function)
		snprintf(buf, n, " in %s (%s)", s->function, s->op ? s->op : "?");
	else if (s->op)
		snprintf(buf, n, " at a %s call", s->op);
}

static int stop_signal(int sig) { return sig == SIGINT || sig == SIGTERM || sig == SIGHUP; }

void ending__describe(mon_run *run, mon_task *t)
{
	char at[512], words[768], wait[512];
	const char *name = pvmmon_signal_name(t->rec.signal);
	/* A task that ended after the stop began, without a signal of its own, was ended
	 * by the stop (pvmd's halt, or pvmmon run's interrupt). */
	int by_stop = run->t_stopped && (!t->gone || t->gone_at >= run->t_stopped);

	at_words(at, sizeof(at), t, t->rec.last_stmt);
	words[0] = '\0';
	if (t->rec.signal && run->t_stopped && stop_signal(t->rec.signal)) {
		t->rec.status = PVMMON_TASK_STOPPED;
		if (waiting_words(run, t, wait, sizeof(wait)))
			snprintf(words, sizeof(words), "stopped by %s when the run was stopped, %s",
			         name, wait);
		else
			snprintf(words, sizeof(words),
			         "stopped by %s when the run was stopped, last seen%s", name,
			         at[0] ? at : " before any PVM call");
	} else if (t->rec.signal) {
		t->rec.status = PVMMON_TASK_KILLED;
		snprintf(words, sizeof(words), "killed by %s%s%s", name, at,
		         t->fatal_records ? "" : " (its records are those of its last flush)");
	} else if (t->noexit) {
		char sent[700];

		t->rec.status = PVMMON_TASK_NOEXIT;
		last_send_words(run, t, t->rec.last_stmt, sent, sizeof(sent));
		snprintf(words, sizeof(words), "exited without pvm_exit: %s", sent);
	} else if (t->rec.status == PVMMON_TASK_EXITED) {
		return;
	} else if (by_stop) {
		t->rec.status = PVMMON_TASK_STOPPED;
		if (waiting_words(run, t, wait, sizeof(wait)))
			snprintf(words, sizeof(words), "%s when the run was stopped", wait);
		else
			snprintf(words, sizeof(words), "running when the run was stopped");
	} else if (t->rec.status == PVMMON_TASK_CRASHED) {
		snprintf(words, sizeof(words),
		         "ended without its final flush (SIGKILL, an exit from its own signal "
		         "handler, or a lost host): its records are those of its last flush");
	}
	free(t->rec.ended);
	t->rec.ended = words[0] ? strdup(words) : NULL;
}
