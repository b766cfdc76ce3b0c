/*
 * Integration tests of hang diagnoses (apps/hang): deadlock cycles of two and three
 * tasks, a tag mismatch, a wait for a task that has ended and a partial hang are each
 * said on stderr with every task and statement, soon after the last block; so is a
 * cycle of tasks polling each other with pvm_nrecv; a long pvm_precv and polling for a
 * partner that computes are not (the other waits that end: the quiet suite). Preserve
 * mode says the same by the same rules. A running program whose tasks all wait for
 * anyone (apps/allwait) is said stuck, with the caveat that only a sender outside it
 * could end that; not while one computes or pvmd's exit notifications are to come. Hung
 * runs end with --on-hang=abort (exit status 4, the log written); each run has its own
 * private VM, which pvmmon run halts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "harness.h"
#include "pvmmon/log.h"

#define RUN_TIMEOUT 60

/* The line of apps/FILE that carries the comment marker. */
static int line_in(const char *file, const char *marker)
{
	char path[4096], *src, *p;
	int line = 1;

	snprintf(path, sizeof(path), "%s/../apps/%s", harness_build(), file);
	src = harness_slurp(path, NULL);
	if (!src)
		return -1;
	p = strstr(src, marker);
	for (char *q = src; p && q < p; q++)
		line += *q == '\n';
	free(src);
	return p ? line : -1;
}

/* The line of apps/hang.c that carries the comment HANG-marker. */
static int line_of(const char *marker) { return line_in("hang.c", marker); }

/* Runs `hang MODE` with opts in a new folder; the result in *r, the folder returned. */
static const char *run_hang(cmd_result *r, const char *opts, const char *mode)
{
	const char *dir = harness_tmpdir();

	harness_sh(r, RUN_TIMEOUT, "cd '%s' && %s/pvmmon run -q %s -o h.xml -- %s/hang %s", dir,
	           harness_bin(), opts, harness_bin(), mode);
	return dir;
}

/* The delay the diagnosis of kind states ("said N ms after the last task blocked"). */
static long said_after(const char *err, const char *kind)
{
	const char *p = strstr(err, kind), *s = p ? strstr(p, "(said ") : NULL;

	return s ? atol(s + 6) : -1;
}

/*
 * The time from the last block to the report: the waiting task reports after the
 * threshold (100 ms) and the monitor decides at once; 1 s leaves room for a busy
 * 2-CPU machine (scheduling delays of a few hundred ms at worst).
 */
static void check_soon(const char *err, const char *kind)
{
	long ms = said_after(err, kind);

	CU_ASSERT(ms >= 0 && ms <= 1000);
	if (ms < 0 || ms > 1000)
		fprintf(stderr, "\n%s\n", err);
}

/*
 * Runs `hang MODE` with opts into *r and checks that it ended as --on-hang=abort ends
 * a hung run (exit status 4) with want said on stderr (stderr printed when not); with
 * kind, the diagnosis of that kind is said soon (check_soon). *r stays for more checks;
 * the run's folder is returned.
 */
static const char *expect_said(cmd_result *r, const char *opts, const char *mode, const char *want,
                               const char *kind)
{
	const char *dir = run_hang(r, opts, mode);

	CU_ASSERT_EQUAL(r->status, 4);
	CU_ASSERT_PTR_NOT_NULL(strstr(r->err, want));
	if (!strstr(r->err, want))
		fprintf(stderr, "\n%s: %s\n", mode, r->err);
	if (kind)
		check_soon(r->err, kind);
	return dir;
}

/* The diagnosis of the two-task cycle at line l: each task waits (or polls) there for
 * the other's message. */
static const char *cycle2_said(char *buf, size_t n, const char *verb, int l)
{
	snprintf(buf, n,
	         "pvmmon: deadlock: task 0.0 %s at hang.c:%d for tag 2 from 0.1; task 0.1 %s at "
	         "hang.c:%d for tag 1 from 0.0",
	         verb, l, verb, l);
	return buf;
}

/* The diagnosis of the master's wait for tag 2 while worker 0.0's tag 3 is queued. */
static const char *mismatch_said(char *buf, size_t n)
{
	snprintf(buf, n,
	         "pvmmon: tag mismatch: task 0 waits at hang.c:%d for tag 2 from 0.0; a message "
	         "from 0.0 with tag 3 waits unreceived in its queue",
	         line_of("HANG-MASTER"));
	return buf;
}

/* The diagnosis of the master's wait for worker 0.0, which ended as how says. */
static const char *ended_said(char *buf, size_t n, const char *how)
{
	snprintf(buf, n,
	         "pvmmon: wait for an ended task: task 0 waits at hang.c:%d for tag 2 from 0.0, "
	         "which has ended (%s)",
	         line_of("HANG-MASTER"), how);
	return buf;
}

static void test_two_task_cycle(void)
{
	cmd_result r;
	char want[512], path[4200], *log;
	int l = line_of("HANG-CYCLE2");
	const char *dir = expect_said(&r, "--on-hang=abort", "cycle2",
	                              cycle2_said(want, sizeof(want), "waits", l), "deadlock:");

	CU_ASSERT_EQUAL(harness_count(r.err, "pvmmon: deadlock:"), 1);
	snprintf(path, sizeof(path), "%s/h.xml", dir);
	log = harness_slurp(path, NULL);
	CU_ASSERT_PTR_NOT_NULL(log);
	CU_ASSERT_PTR_NOT_NULL(log ? strstr(log, "<hang kind=\"deadlock\"") : NULL);
	/* The abort stops the tasks (their last records come first) and says where each
	 * waited. */
	snprintf(want, sizeof(want),
	         "ended=\"waiting at hang.c:%d for tag 2 from 0.1 when the run was stopped\"", l);
	CU_ASSERT_PTR_NOT_NULL(log ? strstr(log, want) : NULL);
	CU_ASSERT_PTR_NULL(log ? strstr(log, "status=\"crashed\"") : NULL);
	CU_ASSERT_PTR_NULL(strstr(r.err, "the monitor failed"));
	free(log);
	cmd_result_free(&r);
}

static void test_three_task_cycle(void)
{
	cmd_result r;
	char want[512];
	int l = line_of("HANG-CYCLE3");

	snprintf(want, sizeof(want),
	         "pvmmon: deadlock: task 0.0 waits at hang.c:%d for tag 1 from 0.1; task 0.1 "
	         "waits at hang.c:%d for tag 1 from 0.2; task 0.2 waits at hang.c:%d for tag 1 "
	         "from 0.0",
	         l, l, l);
	expect_said(&r, "--on-hang=abort", "cycle3", want, "deadlock:");
	cmd_result_free(&r);
}

static void test_tag_mismatch(void)
{
	cmd_result r;
	char want[512];

	expect_said(&r, "--on-hang=abort", "mismatch", mismatch_said(want, sizeof(want)), NULL);
	cmd_result_free(&r);
}

static void test_wait_for_ended_task(void)
{
	cmd_result r;
	char want[512];

	expect_said(&r, "--on-hang=abort", "ended", ended_said(want, sizeof(want), "it exited"),
	            "wait for an ended task:");
	cmd_result_free(&r);
}

/* The master waits for a worker that dies of SIGSEGV: the diagnosis names the signal. */
static void test_wait_for_crashed_task(void)
{
	cmd_result r;
	char want[512];

#ifdef __SANITIZE_ADDRESS__
	/* Under ASan/UBSan the sanitizers take the fault first (test_fatal.c says why). */
	fprintf(stderr, "\n  skipped under ASan/UBSan: the sanitizers take a real fault first ");
	return;
#endif
	expect_said(&r, "--on-hang=abort", "crash",
	            ended_said(want, sizeof(want), "killed by SIGSEGV"), "wait for an ended task:");
	cmd_result_free(&r);
}

/* Workers 0 and 1 wait for each other while 2 and 3 compute 2 s more: the cycle is
 * said while they still compute (the run is stopped by --on-hang=abort well before
 * their 2 s are over; the run's whole time shows it). */
static void test_partial_hang(void)
{
	cmd_result r;
	int l = line_of("HANG-CYCLE2");
	char want[512];

	expect_said(&r, "--on-hang=abort", "partial", cycle2_said(want, sizeof(want), "waits", l),
	            "deadlock:");
	/* Said before the computing workers were done: none of them is in it. */
	CU_ASSERT_PTR_NULL(strstr(r.err, "0.2 waits"));
	CU_ASSERT_PTR_NULL(strstr(r.out, "partial done"));
	cmd_result_free(&r);
}

/* A long pvm_precv that ends: no diagnosis, the program's own result, exit 0 (the
 * other waits that end, in every mode: the quiet suite). */
static void test_no_false_alarms(void)
{
	static const char *const modes[] = {"precv", "pollwait"};
	cmd_result r;
	char done[64];

	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		run_hang(&r, "--on-hang=abort", modes[i]);
		CU_ASSERT_EQUAL(r.status, 0);
		snprintf(done, sizeof(done), "hang: %s done", modes[i]);
		CU_ASSERT_PTR_NOT_NULL(strstr(r.out, done));
		CU_ASSERT_PTR_NULL(strstr(r.err, "after the last task blocked"));
		if (r.status != 0 || strstr(r.err, "after the last task blocked"))
			fprintf(stderr, "\n%s: %s\n", modes[i], r.err);
		cmd_result_free(&r);
	}
}

/* A hung run stopped by Ctrl-C: the log has every task's records up to its wait
 * (flushed while it waited) and where each waited, in plain and in preserve mode.
 * timeout(1) sends SIGINT after 3 s, well after the cycle formed (the tasks block
 * within about 0.5 s of the start). */
static void test_interrupted_run_keeps_waits(void)
{
	static const char *const modes[] = {"", "--mode=preserve"};

	for (size_t m = 0; m < 2; m++) {
		const char *dir = harness_tmpdir();
		char path[4200], want[256];
		pvmmon_log *log = NULL;
		cmd_result r;
		int l = line_of("HANG-CYCLE2");

		harness_sh(
		    &r, RUN_TIMEOUT,
		    "cd '%s' && timeout -s INT 3 %s/pvmmon run -q %s -o h.xml -- %s/hang cycle2",
		    dir, harness_bin(), modes[m], harness_bin());
		CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "pvmmon: deadlock:"));
		cmd_result_free(&r);
		snprintf(path, sizeof(path), "%s/h.xml", dir);
		CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&log, path), 0);
		CU_ASSERT_EQUAL(log->ntasks, 3);
		for (size_t i = 0; i < log->ntasks; i++) {
			const pvmmon_log_task *t = &log->tasks[i];

			CU_ASSERT_PTR_NOT_NULL(t->waiting);
			if (!t->lid || !strcmp(t->lid, "0")) {
				/* The master spawned two workers and sent each the tids (mcast). */
				CU_ASSERT_EQUAL(t->msgs_sent, 2);
				continue;
			}
			/* Each worker received the tids and sent nothing before it blocked. */
			CU_ASSERT_EQUAL(t->msgs_recv, 1);
			CU_ASSERT_EQUAL(t->msgs_sent, 0);
			CU_ASSERT(t->flushes >= 1);
			snprintf(want, sizeof(want), "at hang.c:%d for tag %d from %s", l,
			         !strcmp(t->lid, "0.0") ? 2 : 1,
			         !strcmp(t->lid, "0.0") ? "0.1" : "0.0");
			CU_ASSERT_STRING_EQUAL(t->waiting ? t->waiting : "", want);
		}
		pvmmon_log_free(log);
	}
}

/*
 * `pvmmon top` on a hung run shows each task's wait and the hang as they are: polled
 * until the diagnosis is there (bounded at 20 s: the tasks block within about 0.5 s of
 * the start, the diagnosis follows in 100 ms, slower only on a machine far busier than
 * the 1 s the other tests allow), then the run is interrupted by its pid.
 */
static void test_top_shows_waits(void)
{
	const char *dir = harness_tmpdir();
	char want[256];
	cmd_result r;
	int l = line_of("HANG-CYCLE2");

	harness_sh(&r, RUN_TIMEOUT,
	           "cd '%s' && { %s/pvmmon run -q -o h.xml -- %s/hang cycle2 >h.out 2>&1 & "
	           "pid=$!; } && i=0; while [ $i -lt 200 ]; do %s/pvmmon top --once h.xml >top.txt "
	           "2>&1; grep -q '^hang: deadlock' top.txt && break; sleep 0.1; i=$((i+1)); "
	           "done; kill -INT $pid; wait $pid; cat top.txt",
	           dir, harness_bin(), harness_bin(), harness_bin());
	snprintf(want, sizeof(want), "task 0.0 waiting at hang.c:%d for tag 2 from 0.1\n", l);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, want));
	snprintf(want, sizeof(want), "task 0.1 waiting at hang.c:%d for tag 1 from 0.0\n", l);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, want));
	snprintf(want, sizeof(want),
	         "hang: deadlock: task 0.0 waits at hang.c:%d for tag 2 from 0.1", l);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, want));
	if (!strstr(r.out, want))
		fprintf(stderr, "\n%s\n%s\n", r.out, r.err);
	cmd_result_free(&r);
}

/* pvm_precv waits the same way: its cycle is said; a pvm_precv that waits 0.5 s gets
 * its message and value as it would unmonitored (test_no_false_alarms). */
static void test_precv_cycle(void)
{
	cmd_result r;
	int l = line_of("HANG-PCYCLE");
	char want[512];

	expect_said(&r, "--on-hang=abort", "pcycle", cycle2_said(want, sizeof(want), "waits", l),
	            NULL);
	cmd_result_free(&r);
	run_hang(&r, "", "precv");
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(r.out, "hang: precv got 42 with tag 2, 4 bytes, from worker 0"));
	cmd_result_free(&r);
}

/* Preserve mode judges its waits by the same rules: a cycle and a tag mismatch are
 * said with the same words, tasks and statements. */
static void test_preserve_mode(void)
{
	cmd_result r;
	char want[512];
	int l = line_of("HANG-CYCLE2");

	expect_said(&r, "--mode=preserve --on-hang=abort", "cycle2",
	            cycle2_said(want, sizeof(want), "waits", l), "deadlock:");
	CU_ASSERT_EQUAL(harness_count(r.err, "pvmmon: deadlock:"), 1);
	cmd_result_free(&r);
	expect_said(&r, "--mode=preserve --on-hang=abort", "mismatch",
	            mismatch_said(want, sizeof(want)), NULL);
	cmd_result_free(&r);
}

/* Two tasks that poll each other with pvm_nrecv: a cycle, said with both statements
 * in words that say they poll, soon after the last one began to poll. (A poller whose
 * partner computes 2 s before it answers is no hang: test_no_false_alarms.) */
static void test_polling_cycle(void)
{
	cmd_result r;
	int l = line_of("HANG-POLL2");
	char want[512];

	expect_said(&r, "--on-hang=abort", "poll2", cycle2_said(want, sizeof(want), "polls", l),
	            "deadlock:");
	cmd_result_free(&r);
}

/* With --budget (probes switched off as the cost rises) the waits are reported all
 * the same: a cycle is said. */
static void test_budget_mode(void)
{
	cmd_result r;

	expect_said(&r, "--budget=5 --on-hang=abort", "cycle2",
	            "pvmmon: deadlock: task 0.0 waits at hang.c:", "deadlock:");
	cmd_result_free(&r);
}

/* Runs `allwait MODE` with opts in a new folder; the result in *r, the folder returned. */
static const char *run_allwait(cmd_result *r, const char *opts, const char *mode)
{
	const char *dir = harness_tmpdir();

	harness_sh(r, RUN_TIMEOUT, "cd '%s' && %s/pvmmon run -q %s -o h.xml -- %s/allwait %s", dir,
	           harness_bin(), opts, harness_bin(), mode);
	return dir;
}

/* What is said of apps/allwait's deadlock: the master waits at ALLWAIT-MASTER for tag 3
 * from anyone, each worker at ALLWAIT-WORKER for tag 1 from anyone. */
static const char *allwait_said(char *buf, size_t n)
{
	int m = line_in("allwait.c", "ALLWAIT-MASTER"), w = line_in("allwait.c", "ALLWAIT-WORKER");

	snprintf(buf, n,
	         "pvmmon: the program is stuck: every task waits and no message can come from "
	         "inside the program; task 0 waits at allwait.c:%d for tag 3 from any task; task "
	         "0.0 waits at allwait.c:%d for tag 1 from any task; task 0.1 waits at "
	         "allwait.c:%d for tag 1 from any task; only a sender outside the program's "
	         "monitored tasks could end a wait for any task",
	         m, w, w);
	return buf;
}

/*
 * The commonest master/worker deadlock (every task waits for anyone, nothing is in
 * flight): said with each wait's statement and the caveat, once, in the log too, and
 * --on-hang=abort ends the run (status 4). It is said once the state has lasted the
 * monitor's settle time (1 s) after the last block; 1 s more allows for a busy 2-CPU
 * machine, as check_soon does. The whole run, which unmonitored never ends, takes the
 * spawns, the block, the settle time and the stop (up to 3 s for the tasks' last
 * records): 20 s bounds it with room for the load.
 */
static void test_all_wait(void)
{
	cmd_result r;
	char want[1024], path[4200];
	pvmmon_log *log = NULL;
	const char *dir = run_allwait(&r, "--on-hang=abort", "");
	long ms = said_after(r.err, "the program is stuck:");
	int w = line_in("allwait.c", "ALLWAIT-WORKER");

	CU_ASSERT_EQUAL(r.status, 4);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, allwait_said(want, sizeof(want))));
	CU_ASSERT_EQUAL(harness_count(r.err, "pvmmon: the program is stuck:"), 1);
	CU_ASSERT(ms >= 1000 && ms <= 2000);
	if (r.status != 4 || !strstr(r.err, want) || ms < 1000 || ms > 2000)
		fprintf(stderr, "\n%s\n", r.err);
	cmd_result_free(&r);
	snprintf(path, sizeof(path), "%s/h.xml", dir);
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&log, path), 0);
	CU_ASSERT(log->wall_ns < 20000000000LL);
	CU_ASSERT_EQUAL_FATAL(log->nhangs, 1);
	CU_ASSERT_STRING_EQUAL(log->hangs[0].kind, "quiescent");
	/* The log's text is what stderr said after the label. */
	CU_ASSERT_EQUAL(strstr(log->hangs[0].text, want + strlen("pvmmon: the program is stuck: ")),
	                log->hangs[0].text);
	CU_ASSERT_EQUAL(log->ntasks, 3);
	for (size_t i = 0; i < log->ntasks; i++) {
		const pvmmon_log_task *t = &log->tasks[i];

		CU_ASSERT_NOT_EQUAL(t->status, PVMMON_TASK_CRASHED);
		if (t->lid && strcmp(t->lid, "0")) {
			snprintf(want, sizeof(want),
			         "waiting at allwait.c:%d for tag 1 from any task when the run was "
			         "stopped",
			         w);
			CU_ASSERT_STRING_EQUAL(t->ended ? t->ended : "", want);
		}
	}
	pvmmon_log_free(log);
}

/* Without --on-hang=abort (report, the default) it is said as other hangs are, once,
 * and the program waits on until it is stopped (timeout(1)'s SIGINT after 5 s, well
 * after the 1.1 s it takes to be said); the log keeps it. */
static void test_all_wait_reported(void)
{
	const char *dir = harness_tmpdir();
	char want[1024], path[4200], *log;
	cmd_result r;

	harness_sh(&r, RUN_TIMEOUT,
	           "cd '%s' && timeout -s INT 5 %s/pvmmon run -q -o h.xml -- %s/allwait", dir,
	           harness_bin(), harness_bin());
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, allwait_said(want, sizeof(want))));
	CU_ASSERT_EQUAL(harness_count(r.err, "pvmmon: the program is stuck:"), 1);
	CU_ASSERT_NOT_EQUAL(r.status, 4);
	cmd_result_free(&r);
	snprintf(path, sizeof(path), "%s/h.xml", dir);
	log = harness_slurp(path, NULL);
	CU_ASSERT_PTR_NOT_NULL(log ? strstr(log, "<hang kind=\"quiescent\"") : NULL);
	free(log);
}

/* What only looks like it ends, with --on-hang=abort, as unmonitored: the workers wait
 * for anyone while the master computes 1 s before it sends them work, and a master
 * waits for anyone while its workers end, pvmd's exit notifications (pvm_notify) ending
 * its waits. */
static void test_all_wait_no_false_alarms(void)
{
	static const char *const modes[] = {"late 1", "notify"};
	cmd_result r;
	char done[64];

	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		run_allwait(&r, "--on-hang=abort", modes[i]);
		CU_ASSERT_EQUAL(r.status, 0);
		snprintf(done, sizeof(done), "allwait: %.*s done", (int)strcspn(modes[i], " "),
		         modes[i]);
		CU_ASSERT_PTR_NOT_NULL(strstr(r.out, done));
		CU_ASSERT_PTR_NULL(strstr(r.err, "after the last task blocked"));
		if (r.status != 0 || strstr(r.err, "after the last task blocked"))
			fprintf(stderr, "\n%s: %s\n", modes[i], r.err);
		cmd_result_free(&r);
	}
}

CU_TestInfo test_hangs_tests[] = {
    {"budget mode: a cycle is said", test_budget_mode},
    {"preserve mode: a cycle and a tag mismatch, said the same way", test_preserve_mode},
    {"pvm_precv: a cycle is said; a long pvm_precv gets its message", test_precv_cycle},
    {"an interrupted hung run: records up to each wait, and where each waited",
     test_interrupted_run_keeps_waits},
    {"a two-task cycle is said with both statements, soon, once; in the log", test_two_task_cycle},
    {"a three-task cycle", test_three_task_cycle},
    {"a tag mismatch names both tags and both tasks", test_tag_mismatch},
    {"a wait for a task that has ended", test_wait_for_ended_task},
    {"a wait for a task killed by SIGSEGV names the signal", test_wait_for_crashed_task},
    {"pvmmon top shows each task's wait and the hang live", test_top_shows_waits},
    {"a partial hang is said while the others compute", test_partial_hang},
    {"a long pvm_precv, polling for a partner that computes: no report", test_no_false_alarms},
    {"two tasks polling each other: a cycle, said to poll", test_polling_cycle},
    {"every task waits for anyone: said with each statement, --on-hang=abort ends it",
     test_all_wait},
    {"every task waits for anyone, --on-hang=report: said once, the log keeps it",
     test_all_wait_reported},
    {"tasks waiting for anyone while one computes, or for exit notifications: no report",
     test_all_wait_no_false_alarms},
    CU_TEST_INFO_NULL,
};
