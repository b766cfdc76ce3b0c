/*
 * Integration tests of what a task keeps when it ends badly (doc/reliability.md): a
 * fatal signal (SIGSEGV, SIGABRT) keeps every record and names the signal and the
 * last statement, with the exit status unchanged; SIGKILL loses at most one flush
 * period; a run the user interrupts writes a valid log whose tasks are "stopped",
 * never "crashed".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "harness.h"
#include "pvmmon/errors.h"
#include "pvmmon/log.h"

#define RUN_TIMEOUT 120

static pvmmon_log *read_log(const char *dir, const char *name)
{
	char path[4200];
	pvmmon_log *log = NULL;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (pvmmon_log_read(&log, path) < 0)
		fprintf(stderr, "\n%s\n", pvmmon_error_last());
	return log;
}

static const pvmmon_log_task *task_of(const pvmmon_log *log, const char *program)
{
	for (size_t i = 0; i < log->ntasks; i++)
		if (log->tasks[i].program && !strcmp(log->tasks[i].program, program))
			return &log->tasks[i];
	return NULL;
}

/* Runs `dies ARGS` monitored (flush period flush_ms) into d.xml; the master learns of
 * the worker's end by pvm_notify, so the run ends by itself. */
static pvmmon_log *run_dies(cmd_result *r, const char *args, int flush_ms)
{
	const char *dir = harness_tmpdir();

	harness_sh(r, RUN_TIMEOUT,
	           "cd '%s' && %s/pvmmon run -q --flush-ms %d -o d.xml -- %s/dies %s", dir,
	           harness_bin(), flush_ms, harness_bin(), args);
	/* 139: the master faults on purpose (-x). */
	if (r->status != 0 && r->status != 139)
		fprintf(stderr, "\ndies %s: status %d\n%s\n%s\n", args, r->status, r->out, r->err);
	return read_log(dir, "d.xml");
}

/* A worker that made 10^4 sends and then dies of sig (a fault, or abort()): the log
 * has all 10^4 (the default flush period is a second, longer than the sends take, so
 * only the handler's flush can have brought them), its status names the signal and
 * its last statement, and the master that waited for it ended. */
static void check_fatal(const char *how, int sig)
{
	char args[64], want[64];
	cmd_result r;
	pvmmon_log *log;
	const pvmmon_log_task *w, *m;

	snprintf(args, sizeof(args), "-n 10000 -s %s", how);
	log = run_dies(&r, args, 1000);
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "dies: received 10000"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "the worker has ended"));
	CU_ASSERT_PTR_NOT_NULL_FATAL(log);
	w = task_of(log, "dies-worker");
	m = task_of(log, "dies");
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL(w->status, PVMMON_TASK_KILLED);
	CU_ASSERT_EQUAL(w->signal, sig);
	CU_ASSERT_EQUAL(w->msgs_sent, 10000);
	CU_ASSERT_EQUAL(m->msgs_recv, 10001); /* and the exit notice */
	CU_ASSERT_EQUAL(m->status, PVMMON_TASK_EXITED);
	/* Its last statement: the receive of the master's answer, before the fault. */
	CU_ASSERT(w->last_stmt >= 1 && w->last_stmt <= w->nstmts);
	if (w->last_stmt >= 1 && w->last_stmt <= w->nstmts) {
		const pvmmon_log_stmt *s = &w->stmts[w->last_stmt - 1];

		CU_ASSERT_STRING_EQUAL(s->op, "pvm_recv");
		CU_ASSERT_PTR_NOT_NULL(s->file && strstr(s->file, "dies-worker.c") ? s->file
		                                                                   : NULL);
		snprintf(want, sizeof(want), "killed by %s at ", pvmmon_signal_name(sig));
		CU_ASSERT_PTR_NOT_NULL(w->ended ? strstr(w->ended, want) : NULL);
		CU_ASSERT_PTR_NOT_NULL(w->ended ? strstr(w->ended, "dies-worker.c:") : NULL);
		fprintf(stderr, "\n  %s ", w->ended ? w->ended : "(no words)");
	}
	pvmmon_log_free(log);
	cmd_result_free(&r);
}

/* Under the sanitizers (make check-asan) a write through a null pointer is UBSan's
 * finding and a SIGSEGV is ASan's: each reports and ends the process its own way before
 * pvmmon's handler or the default action could, and any report fails check-asan. So
 * the tests of a real fault run unsanitized only; SIGABRT's test (which neither
 * sanitizer takes) covers the handler under them. Returns 1 when the test is skipped. */
static int skip_fault_sanitized(void)
{
#ifdef __SANITIZE_ADDRESS__
	fprintf(stderr, "\n  skipped under ASan/UBSan: the sanitizers take a real fault first ");
	return 1;
#else
	return 0;
#endif
}

static void test_segv_keeps_every_record(void)
{
	if (!skip_fault_sanitized())
		check_fatal("segv", 11);
}

static void test_abort_keeps_every_record(void) { check_fatal("abort", 6); }

/* The master itself faults: pvmmon run exits as the program does unmonitored (128 +
 * SIGSEGV), and the master's records and end are in the log. */
static void test_exit_status_unchanged(void)
{
	cmd_result r, raw;
	pvmmon_log *log;
	const pvmmon_log_task *m;

	if (skip_fault_sanitized())
		return;
	harness_sh(&raw, RUN_TIMEOUT,
	           "cd '%s' && %s/pvmmon run --raw -q -- %s/dies -n 100 -s exit -x",
	           harness_tmpdir(), harness_bin(), harness_bin());
	log = run_dies(&r, "-n 100 -s exit -x", 1000);
	CU_ASSERT_EQUAL(raw.status, 139);
	CU_ASSERT_EQUAL(r.status, raw.status);
	CU_ASSERT_PTR_NOT_NULL_FATAL(log);
	m = task_of(log, "dies");
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL(m->status, PVMMON_TASK_KILLED);
	CU_ASSERT_EQUAL(m->signal, 11);
	CU_ASSERT_EQUAL(m->msgs_recv, 100);
	pvmmon_log_free(log);
	cmd_result_free(&r);
	cmd_result_free(&raw);
}

/* A SIGSEGV handler the program installed before its first PVM call still runs (it
 * exits 3): pvmmon's runs first and sends the records (not as the final flush: the
 * program may survive), so the task is "crashed" but its 10^4 sends are there. */
static void test_program_handler_still_runs(void)
{
	cmd_result r;
	pvmmon_log *log;
	const pvmmon_log_task *w;

	if (skip_fault_sanitized())
		return;
	log = run_dies(&r, "-n 10000 -s handled", 1000);

	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "its own SIGSEGV handler ran"));
	CU_ASSERT_PTR_NOT_NULL_FATAL(log);
	w = task_of(log, "dies-worker");
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	CU_ASSERT_EQUAL(w->status, PVMMON_TASK_CRASHED);
	CU_ASSERT_EQUAL(w->msgs_sent, 10000);
	pvmmon_log_free(log);
	cmd_result_free(&r);
}

/* SIGKILL cannot be caught: the worker keeps what its last periodic flush sent. Its
 * sends are paced to at least a millisecond each and records are flushed at the first
 * call after each 100 ms period, so fewer than 100 sends (and the one in progress)
 * come after the last flush, however busy the machine (a slower task only sends less
 * per period). */
static void test_sigkill_loses_at_most_one_period(void)
{
	cmd_result r;
	pvmmon_log *log = run_dies(&r, "-n 2000 -p -s kill", 100);
	const pvmmon_log_task *w;

	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(log);
	w = task_of(log, "dies-worker");
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	CU_ASSERT_EQUAL(w->status, PVMMON_TASK_CRASHED);
	CU_ASSERT(w->msgs_sent <= 2000);
	CU_ASSERT(2000 - w->msgs_sent <= 101);
	CU_ASSERT_PTR_NOT_NULL(w->ended);
	fprintf(stderr, "\n  SIGKILL lost %d of 2000 sends ", (int)(2000 - w->msgs_sent));
	pvmmon_log_free(log);
	cmd_result_free(&r);
}

/* SIGINT (or SIGTERM) to pvmmon run while both tasks wait for a message that never comes: the run
 * ends, the log is valid and every task is "stopped", never "crashed". Tasks that
 * wait in slices (pvm_trecv, how) end at the slice's end with every record; a task
 * blocked in pvm_recv keeps what its flushes sent while it waited. */
static void check_interrupted(const char *how, int whole, const char *sig)
{
	const char *dir = harness_tmpdir();
	cmd_result r;
	pvmmon_log *log;

	/* The loops wait for conditions ("received" printed, pvmmon gone). The one fixed
	 * 0.3 s only makes it likely that the tasks have entered their poll or wait before
	 * the signal; it cannot make the test fail on a busy machine: "received" means
	 * every send is done, and a task stopped before or in its wait is "stopped" with
	 * the same records either way. */
	harness_sh(&r, RUN_TIMEOUT,
	           "cd '%s' && rm -f i.xml && { %s/pvmmon run -q -o i.xml -- %s/dies -n 1000 -s %s "
	           ">i.out 2>i.err & } && i=0; while ! grep -q received i.out 2>/dev/null && "
	           "[ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done; sleep 0.3; "
	           "pid=$(sed -n 's/^pid=//p' i.xml.run); kill -%s $pid; i=0; "
	           "while kill -0 $pid 2>/dev/null && [ $i -lt 300 ]; do sleep 0.05; i=$((i+1)); "
	           "done; kill -0 $pid 2>/dev/null && echo STILL-RUNNING; cat i.err >&2",
	           dir, harness_bin(), harness_bin(), how, sig);
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NULL(strstr(r.out, "STILL-RUNNING"));
	log = read_log(dir, "i.xml");
	CU_ASSERT_PTR_NOT_NULL_FATAL(log);
	CU_ASSERT_EQUAL(log->ntasks, 2);
	for (size_t i = 0; i < log->ntasks; i++) {
		const pvmmon_log_task *t = &log->tasks[i];

		CU_ASSERT_EQUAL(t->status, PVMMON_TASK_STOPPED);
		CU_ASSERT_PTR_NOT_NULL(t->ended ? strstr(t->ended, "when the run was stopped")
		                                : NULL);
		fprintf(stderr, "\n  %s: %s ", t->program, t->ended ? t->ended : "(no words)");
	}
	if (whole) {
		CU_ASSERT_EQUAL(task_of(log, "dies")->msgs_recv, 1000);
		CU_ASSERT_EQUAL(task_of(log, "dies-worker")->msgs_sent, 1000);
	}
	pvmmon_log_free(log);
	cmd_result_free(&r);
}

/* SIGTERM too: pvmmon run's and the monitor's SIGTERM then reach the master both. */
static void test_interrupted_polling_run(void)
{
	check_interrupted("poll", 1, "INT");
	check_interrupted("poll", 1, "TERM");
}

/* SIGHUP too: a terminal that hangs up stops the run the same way. */
static void test_interrupted_blocked_run(void)
{
	check_interrupted("wait", 0, "INT");
	check_interrupted("wait", 0, "HUP");
}

CU_TestInfo test_fatal_tests[] = {
    {"SIGSEGV keeps every record, names the signal and statement", test_segv_keeps_every_record},
    {"SIGABRT keeps every record, names the signal and statement", test_abort_keeps_every_record},
    {"a fatal signal leaves the exit status unchanged", test_exit_status_unchanged},
    {"a handler the program installed still runs, after the records",
     test_program_handler_still_runs},
    {"SIGKILL loses at most one flush period", test_sigkill_loses_at_most_one_period},
    {"an interrupted run: polling tasks stopped, records whole", test_interrupted_polling_run},
    {"an interrupted run: blocked tasks stopped, never crashed", test_interrupted_blocked_run},
    CU_TEST_INFO_NULL,
};
