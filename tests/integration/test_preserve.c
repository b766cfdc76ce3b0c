/*
 * Integration tests of preserve mode: workers slowed by probe delays change the order
 * a wildcard-receiving master sees under plain monitoring, never under preserve mode;
 * preserve mode's virtual times match the unmonitored program's real times; seed 000's
 * Figure 4 completes only with the wait-dependency rule; a real deadlock is reported
 * with its cycle; nonblocking receives and timeouts are decided too; a race that only
 * virtual time separates keeps its unmonitored order on a loaded machine, and timed
 * receives time out as often as unmonitored; a manager/worker program that takes its
 * workers' results and pvmd's exit notices on one receive finishes, without a spin.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "harness.h"
#include "pvmmon/log.h"

#define RUN_TIMEOUT 120
#define PRESERVE_RUNS 20
/* How far a preserve run's virtual compute and wait times may be from the unmonitored
 * ones (medians). */
#define FIDELITY_TOL 0.05
/* A worker whose virtual compute time is this much over its unmonitored median was
 * stalled by the machine in its own work (asleep: an overrun there is the program's
 * time, which no monitor may take out): a third of the 60 ms between two workers. Such a
 * run may take another order, as an unmonitored run stalled alike would; it is
 * printed and not counted, and at most DISTURBED_MAX of 20 may be (an idle machine
 * has none; full CI runs on a machine busy with other work had up to 3 misorders a
 * delay, each in such a run as far as they could be told). */
#define STALL_US 20000
#define DISTURBED_MAX 4
#define RAW_RUNS 5
/* Worker K does (K+1)*3 units of 20 ms (asleep, so that the test does not depend on
 * how many processors there are): 60, 120, 180 and 240 ms, far enough apart that a
 * busy machine's scheduling delays do not reorder them. */
#define ORDER_ARGS "-s -u 20000 -n 3"
#define WORKERS 4

static long out_num(const char *out, const char *key)
{
	const char *p = strstr(out, key);

	return p ? atol(p + strlen(key)) : -1;
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return x < y ? -1 : x > y;
}

static long median(long *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_long);
	return v[n / 2];
}

/* A run of order; its output (heap) and status. */
static char *run_order(const char *dir, const char *opts, const char *env, int *status)
{
	cmd_result r;
	char *out;

	harness_sh(&r, RUN_TIMEOUT, "cd '%s' && %s %s/pvmmon run -q %s -- ./order " ORDER_ARGS, dir,
	           env, harness_bin(), opts);
	*status = r.status;
	if (r.status)
		fprintf(stderr, "\norder (%s %s): %d\n%s%s\n", env, opts, r.status, r.out, r.err);
	out = strdup(r.out);
	cmd_result_free(&r);
	return out;
}

/* The compute procedure's inclusive virtual time of worker k (logical id 0.k) and the
 * master's virtual time in its receive of the results, from a preserve-mode log. */
static int log_times(const char *path, long *compute_us, long *wait_us, int *reordered)
{
	pvmmon_log *log = NULL;

	if (pvmmon_log_read(&log, path) < 0)
		return -1;
	*wait_us = -1;
	*reordered = 0;
	for (size_t i = 0; i < log->ntasks; i++) {
		const pvmmon_log_task *t = &log->tasks[i];

		if (t->lid && !strcmp(t->lid, "0")) {
			/* The master takes the ready messages, then the results (its wildcard
			 * receive, the later of its two receive statements in the source). */
			int32_t line = 0;

			for (size_t s = 0; s < t->nstmts; s++) {
				const pvmmon_log_stmt *st = &t->stmts[s];

				if (st->op && !strcmp(st->op, "pvm_recv") && st->line > line) {
					line = st->line;
					*wait_us = st->time_ns / 1000;
					*reordered = (int)st->reordered;
				}
			}
			continue;
		}
		if (!t->lid || strncmp(t->lid, "0.", 2) != 0)
			continue;
		int k = atoi(t->lid + 2);

		for (size_t p = 0; p < t->nprocs; p++)
			if (k >= 0 && k < WORKERS && !strcmp(t->procs[p].name, "compute"))
				compute_us[k] = t->procs[p].incl_ns / 1000;
	}
	pvmmon_log_free(log);
	return 0;
}

/* Seed 000 section 5.3.6's experiment: probe delays in the fastest worker change the
 * order a plain monitored run receives in; preserve mode keeps the unmonitored order
 * in every run, and its virtual times are the unmonitored real times. */
static void test_preserve_keeps_unmonitored_order(void)
{
	const char *dir = harness_tmpdir();
	static const int delays_us[] = {5000, 10000, 20000};
	long raw_compute[WORKERS][RAW_RUNS], raw_wait[RAW_RUNS];
	long pr_compute[WORKERS][PRESERVE_RUNS], pr_wait[PRESERVE_RUNS];
	char *want = NULL, *out, *line, env[128], opts[256];
	int st, i, k, d, raws = 0;

	CU_ASSERT_EQUAL_FATAL(harness_build_order(dir), 0);
	/* The unmonitored order: the workers' amounts (run on the same kind of private VM,
	 * with no monitoring at all). */
	for (i = 0; i < RAW_RUNS; i++) {
		out = run_order(dir, "--raw", "", &st);
		line = harness_order_line(out);
		CU_ASSERT_EQUAL(st, 0);
		CU_ASSERT_PTR_NOT_NULL(line);
		if (line && !want)
			want = strdup(line);
		if (line && want && !strcmp(line, want)) {
			for (k = 0; k < WORKERS; k++) {
				char key[32];

				snprintf(key, sizeof(key), "worker %d compute-us: ", k);
				raw_compute[k][raws] = out_num(out, key);
			}
			raw_wait[raws++] = out_num(out, "wait-us: ");
		}
		free(line);
		free(out);
	}
	CU_ASSERT_PTR_NOT_NULL_FATAL(want);
	CU_ASSERT_STRING_EQUAL(want, "order: 0 1 2 3");
	CU_ASSERT_FATAL(raws >= 3);
	for (d = 0; d < 3; d++) {
		int differed = 0, kept = 0, disturbed = 0, n = 0;

		snprintf(env, sizeof(env), "PVMMON_TEST_PROBE_DELAY=%d:0.0", delays_us[d]);
		/* Plain monitoring: the delayed worker reports later than it would have. */
		for (i = 0; i < 3 && !differed; i++) {
			out = run_order(dir, "--no-record -o plain.xml", env, &st);
			line = harness_order_line(out);
			differed = st == 0 && line && strcmp(line, want) != 0;
			if (differed)
				fprintf(stderr, "\n  delay %d us, plain: %s", delays_us[d], line);
			free(line);
			free(out);
		}
		CU_ASSERT(differed);
		for (i = 0; i < PRESERVE_RUNS; i++) {
			int reordered = 0, stalled = -1, same;
			long c[WORKERS] = {0}, w = 0;

			snprintf(opts, sizeof(opts), "--mode=preserve --no-record -o pres%d.xml",
			         i);
			out = run_order(dir, opts, env, &st);
			line = harness_order_line(out);
			same = st == 0 && line && !strcmp(line, want);
			free(out);
			snprintf(opts, sizeof(opts), "%s/pres%d.xml", dir, i);
			CU_ASSERT_EQUAL(log_times(opts, c, &w, &reordered), 0);
			for (k = 0; k < WORKERS; k++)
				if (c[k] > median(raw_compute[k], raws) + STALL_US)
					stalled = k;
			if (stalled >= 0) {
				disturbed++;
				fprintf(stderr,
				        "\n  delay %d us, preserve run %d: worker %d stalled (virtual "
				        "compute %ld us), %s, not counted",
				        delays_us[d], i, stalled, c[stalled],
				        line ? line : "(no order)");
			} else if (same) {
				kept++;
			} else {
				fprintf(stderr, "\n  delay %d us, preserve run %d: %s", delays_us[d],
				        i, line ? line : "(no order)");
			}
			free(line);
			if (d == 1) {
				pr_wait[n] = w;
				for (k = 0; k < WORKERS; k++)
					pr_compute[k][n] = c[k];
				n++;
			}
		}
		fprintf(stderr,
		        "\n  delay %d us: %d of %d preserve runs in the unmonitored order, %d "
		        "stalled by the machine",
		        delays_us[d], kept, PRESERVE_RUNS, disturbed);
		/* Every run the machine did not stall keeps the unmonitored order. */
		CU_ASSERT(disturbed <= DISTURBED_MAX);
		CU_ASSERT_EQUAL(kept + disturbed, PRESERVE_RUNS);
		if (d != 1)
			continue;
		/* Virtual times of the compute phases (each worker's compute procedure) and of
		 * the master's wait for the results, medians against the unmonitored medians. */
		CU_ASSERT_FATAL(n == PRESERVE_RUNS);
		for (k = 0; k < WORKERS; k++) {
			long raw = median(raw_compute[k], raws), vt = median(pr_compute[k], n);
			double err = raw > 0 ? (double)(vt - raw) / (double)raw : 1.0;

			fprintf(stderr,
			        "\n  worker %d compute: unmonitored %ld us, preserve virtual %ld "
			        "us (%+.1f%%)",
			        k, raw, vt, 100 * err);
			CU_ASSERT(err < FIDELITY_TOL && err > -FIDELITY_TOL);
		}
		{
			long raw = median(raw_wait, raws), vt = median(pr_wait, n);
			double err = raw > 0 ? (double)(vt - raw) / (double)raw : 1.0;

			fprintf(stderr,
			        "\n  master wait: unmonitored %ld us, preserve virtual %ld us "
			        "(%+.1f%%)",
			        raw, vt, 100 * err);
			CU_ASSERT(err < FIDELITY_TOL && err > -FIDELITY_TOL);
		}
	}
	free(want);
}

/* Seed 000, Figure 4: completes in preserve mode; without the wait-dependency rule
 * (a test-only switch) the monitor holds P1 for ever. */
static void test_figure4_needs_wait_dependencies(void)
{
	const char *dir = harness_tmpdir();
	cmd_result r;

	harness_sh(&r, RUN_TIMEOUT,
	           "cd '%s' && %s/pvmmon run -q --mode=preserve -o f.xml -- %s/fig4", dir,
	           harness_bin(), harness_bin());
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "first from P0\nsecond from P3\n"));
	cmd_result_free(&r);
	/* The hold needs P3 to wait, in virtual time, before P0's 30 ms of work ends. The
	 * spawned tasks start one after another: under ASan (make check-asan) some 25 to
	 * 40 ms apart (its runtime's start), and with the monitor under valgrind (make
	 * check-valgrind) as far, each waiting for its registration. P3 may then come
	 * after P0's send, and the naive rule finishes too. */
	if (harness_slowed()) {
		fprintf(stderr, "\n  the run without the rule skipped: under ASan or a "
		                "wrapped monitor tasks start too far apart for its 30 ms ");
		return;
	}
	/* SIGINT after 5 s: pvmmon run halts its VM and writes what it has. */
	harness_sh(
	    &r, RUN_TIMEOUT,
	    "cd '%s' && PVMMON_TEST_NO_WAITDEP=1 timeout -s INT 5 %s/pvmmon run -q --mode=preserve "
	    "-o f2.xml -- %s/fig4",
	    dir, harness_bin(), harness_bin());
	CU_ASSERT_EQUAL(r.status, 124);
	CU_ASSERT_PTR_NULL(strstr(r.out, "first from"));
	cmd_result_free(&r);
}

/* A real deadlock, judged by the hang rules of every mode (monitor/hang.c): the cycle
 * with tasks, tags and statements, within 2 s of the last task blocking;
 * --on-deadlock=abort (the old name of --on-hang=abort) ends the run with status 4,
 * report (the default) keeps waiting. */
static void test_real_deadlock_reported(void)
{
	const char *dir = harness_tmpdir();
	cmd_result r;
	const char *said;
	char path[512];
	char *log;

	harness_sh(&r, RUN_TIMEOUT,
	           "cd '%s' && %s/pvmmon run -q --mode=preserve --on-deadlock=abort -o d.xml -- "
	           "%s/fig4 -d",
	           dir, harness_bin(), harness_bin());
	CU_ASSERT_EQUAL(r.status, 4);
	/* "(said N ms after the last task blocked)" */
	said = strstr(r.err, "(said ");
	CU_ASSERT_PTR_NOT_NULL(said);
	CU_ASSERT(said && strstr(said, " ms after the last task blocked") && atol(said + 6) < 2000);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "pvmmon: deadlock: task 0 waits at fig4.c:"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, " for tag 54 from 0.0; task 0.0 waits at fig4.c:"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, " for tag 54 from 0 (said "));
	CU_ASSERT_EQUAL(harness_count(r.err, "pvmmon: deadlock:"), 1);
	cmd_result_free(&r);
	snprintf(path, sizeof(path), "%s/d.xml", dir);
	log = harness_slurp(path, NULL);
	CU_ASSERT_PTR_NOT_NULL(log);
	CU_ASSERT_PTR_NOT_NULL(log ? strstr(log, "<hang kind=\"deadlock\"") : NULL);
	free(log);
	harness_sh(
	    &r, RUN_TIMEOUT,
	    "cd '%s' && timeout -s INT 4 %s/pvmmon run -q --mode=preserve -o d2.xml -- %s/fig4 -d",
	    dir, harness_bin(), harness_bin());
	CU_ASSERT_EQUAL(r.status, 124);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "pvmmon: deadlock: task 0 waits at fig4.c:"));
	cmd_result_free(&r);
}

/* pvm_nrecv polling, pvm_trecv timeouts, wildcard tags and a matcher of the
 * program's own (pvm_recvf) are decided too: the programs finish with every message
 * received once, and the monitor decided their receives. */
static void test_nonblocking_receives(void)
{
	static const char *const modes[] = {"recv", "nrecv", "trecv", "recvf"};
	const char *dir = harness_tmpdir();
	cmd_result r, raw;

	for (size_t m = 0; m < 4; m++) {
		const char *wrapper = getenv("PVMMON_MONITOR_WRAPPER");

		/* Every poll of pvm_nrecv waits for the monitor's decision, and a monitor under
		 * valgrind (make check-valgrind) answers many times slower: the polling run
		 * then outlasts RUN_TIMEOUT. */
		if (m == 1 && wrapper && *wrapper) {
			fprintf(stderr, "\n  race -m nrecv skipped: its polls wait for a wrapped "
			                "monitor ");
			continue;
		}
		harness_sh(&raw, RUN_TIMEOUT, "cd '%s' && %s/pvmmon run -q --raw -- %s/race -m %s",
		           dir, harness_bin(), harness_bin(), modes[m]);
		harness_sh(
		    &r, RUN_TIMEOUT,
		    "cd '%s' && %s/pvmmon run -q --mode=preserve -o r.xml -- %s/race -m %s && "
		    "%s/pvmmon validate r.xml",
		    dir, harness_bin(), harness_bin(), modes[m], harness_bin());
		CU_ASSERT_EQUAL(r.status, 0);
		CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "race: mode="));
		/* The same messages (in some order): the order strings have the same length. */
		{
			const char *a = strstr(r.out, "order="), *b = strstr(raw.out, "order=");

			CU_ASSERT(a && b && strcspn(a, " \n") == strcspn(b, " \n"));
		}
		if (r.status)
			fprintf(stderr, "\nrace -m %s: %s%s\n", modes[m], r.out, r.err);
		cmd_result_free(&r);
		cmd_result_free(&raw);
		/* Every receive of the master was the monitor's decision. */
		{
			char path[512], *log;
			const char *d;

			snprintf(path, sizeof(path), "%s/r.xml", dir);
			log = harness_slurp(path, NULL);
			d = log ? strstr(log, "key=\"preserve-decisions\" value=\"") : NULL;
			CU_ASSERT(d &&
			          atoi(d + strlen("key=\"preserve-decisions\" value=\"")) >= 12);
			free(log);
		}
	}
}

/* A process that keeps one processor busy until killed (by its pid) or RUN_TIMEOUT
 * passes (so that a crashed test leaves nothing behind); -1 when none started. */
static pid_t start_busy(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		volatile unsigned long spin = 0;

		alarm(RUN_TIMEOUT);
		for (;;)
			spin++;
	}
	return pid;
}

static void stop_busy(pid_t pid)
{
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
}

#ifdef __SANITIZE_ADDRESS__
/* Under ASan (make check-asan) every process of the race, libpvm3's and pvmd's
 * calls in the program's own code included, is several times slower and uneven:
 * the unmonitored run itself took a predecessor's number before "go" in 1 of 2 runs
 * there (a CI run), so there is no unmonitored order to keep. The sanitized build
 * runs the race a few times for what it checks (no report from any process, every
 * run ends and says its order); the order is asserted in the unsanitized build. */
#define GORACE_RUNS 4
#define GORACE_ORDER_ASSERTED 0
#else
#define GORACE_RUNS 20
#define GORACE_ORDER_ASSERTED 1
#endif

/*
 * The "go" race of issue 37: every node's wildcard receive takes the master's "go"
 * before its predecessor's number unmonitored, since "go" to node k leaves the master
 * microseconds after "go" to node k-1 while the number needs a whole message latency
 * more. Before, preserve mode took the number first in 2 to 3 runs of 10: a master
 * preempted between two sends (the monitored loop lasts longer, so it is preempted
 * more often) made its next "go" look later. 20 runs under the load of a busy process
 * (2 processors: the master, its 6 nodes, the pvmd and the monitor share the other
 * one and a half), every one in the unmonitored order. The nodes take their setup
 * with a wildcard receive too (-w), so that they decide "go" themselves (prlocal.c).
 */
static void test_go_race_keeps_unmonitored_order(void)
{
	const char *dir = harness_tmpdir();
	cmd_result r;
	int i, ok = 0, raw_ok = 0;
	pid_t busy = start_busy();

	CU_ASSERT_FATAL(busy > 0);
	/* The unmonitored order, under the same load, for the record: a scheduling accident
	 * upsets it unmonitored too (1 of 10 runs with 12 nodes and none of 20 with 6 on an
	 * otherwise idle machine; 5 of 10 with a CI run beside it, and both of two in two
	 * CI runs of 2026-11-28 on a machine that was otherwise idle). What preserve mode
	 * keeps is the order of virtual time, in which "go" comes first by construction
	 * (its send precedes the relayed number's by a message latency), whatever the
	 * scheduler does to this run; so only preserve mode's runs are asserted. */
	for (i = 0; i < 2; i++) {
		harness_sh(&r, RUN_TIMEOUT, "cd '%s' && %s/pvmmon run -q --raw -- %s/gorace -w", dir,
		           harness_bin(), harness_bin());
		CU_ASSERT_EQUAL(r.status, 0);
		if (r.status == 0 && strstr(r.out, "order ok"))
			raw_ok++;
		else
			fprintf(stderr, "\ngorace unmonitored: %d\n%s%s\n", r.status, r.out, r.err);
		cmd_result_free(&r);
	}
	for (i = 0; i < GORACE_RUNS; i++) {
		harness_sh(&r, RUN_TIMEOUT, "cd '%s' && %s/pvmmon run -q --mode=preserve -- %s/gorace -w",
		           dir, harness_bin(), harness_bin());
		CU_ASSERT_EQUAL(r.status, 0);
		CU_ASSERT(strstr(r.out, "order ok") || strstr(r.out, "order wrong"));
		if (r.status == 0 && strstr(r.out, "order ok"))
			ok++;
		else
			fprintf(stderr, "\ngorace run %d: %d\n%s%s\n", i, r.status, r.out, r.err);
		cmd_result_free(&r);
	}
	stop_busy(busy);
	fprintf(stderr, "\n  gorace: %d of 2 unmonitored runs and %d of %d preserve runs took \"go\" "
	                "first ",
	        raw_ok, ok, GORACE_RUNS);
	/* 20 of 20 is issue 37's acceptance. Full CI runs kept 18 to 20 until the
	 * piggyback's send time became the call's virtual start (pvmhooks/piggyback.c): a
	 * master preempted inside its send wrapper, before the real send, had its "go"
	 * stamped that much later (170 us in one traced miss). Since then every run under this
	 * load kept the order: 220 of 220 by hand (60 with the change alone) and 20 of 20 in
	 * each CI run, against 58 of 60 before. */
	if (GORACE_ORDER_ASSERTED)
		CU_ASSERT_EQUAL(ok, GORACE_RUNS);
}

/* A traced run keeps the record of every decision: the nodes' "go" receives, with their
 * candidates, and the log validates. Who decides a node's receive (the node from its
 * bounds table, or the monitor when the node asked it first) depends on timing since
 * tasks ask the monitor at once (issue 37's speed half): in about 1 run of 3 here the
 * monitor took every one, so the record is asserted whoever decided, and the tasks'
 * own decisions are counted in the output. */
static void test_decisions_in_trace(void)
{
	const char *dir = harness_tmpdir();
	char path[512], *log;
	cmd_result r;

	harness_sh(&r, RUN_TIMEOUT,
	           "cd '%s' && %s/pvmmon run -q --mode=preserve --trace -o g.xml -- %s/gorace -w && "
	           "%s/pvmmon validate g.xml",
	           dir, harness_bin(), harness_bin(), harness_bin());
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "valid pvmmon log"));
	cmd_result_free(&r);
	snprintf(path, sizeof(path), "%s/g.xml", dir);
	log = harness_slurp(path, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(log);
	/* The master's six "ready" receives and every node's "go" and number, each once. */
	CU_ASSERT(harness_count(log, "<decision ") >= 6 + 6 + 6);
	CU_ASSERT(harness_count(log, "taken-tag=\"43\"") == 6);
	fprintf(stderr, "\n  gorace: %d of the decisions taken by the tasks themselves",
	        harness_count(log, "by=\"task\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(log, "<cand from=\"0.1\" tag=\"42\""));
	/* The master hands each node its successor's tid in a message: who may address
	 * whom is then unknown, and the log says why the knowledge rule was off. */
	CU_ASSERT_PTR_NOT_NULL(strstr(log, "key=\"preserve-knowledge\" value=\"a task packed a tid"));
	free(log);
}

static long timeouts_of(const char *out)
{
	long n = out_num(out, "got after ");

	return n >= 0 ? n : out_num(out, "gave up after ");
}

/*
 * A timeout means what it means unmonitored: the worker waits 1 s for nothing, then
 * answers the master, which polls with pvm_trecv(0.1 s) and gives up after 40
 * timeouts. Unmonitored the answer comes after about 10; preserve mode used to decide
 * every poll "none" at once and give up after 40 in 0.04 s. Within 1 of the
 * unmonitored count (where the worker's answer falls among the master's deadlines is
 * a matter of microseconds either way).
 */
static void test_trecv_poll_times_out_as_unmonitored(void)
{
	const char *dir = harness_tmpdir();
	cmd_result raw, r;
	long nraw, npr;

	harness_sh(&raw, RUN_TIMEOUT, "cd '%s' && %s/pvmmon run -q --raw -- %s/tpoll", dir,
	           harness_bin(), harness_bin());
	harness_sh(&r, RUN_TIMEOUT,
	           "cd '%s' && %s/pvmmon run -q --mode=preserve -o tp.xml -- %s/tpoll && "
	           "%s/pvmmon validate tp.xml",
	           dir, harness_bin(), harness_bin(), harness_bin());
	nraw = timeouts_of(raw.out);
	npr = timeouts_of(r.out);
	CU_ASSERT_EQUAL(raw.status, 0);
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(raw.out, "got after "));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "got after "));
	CU_ASSERT(nraw >= 9 && nraw <= 11);
	CU_ASSERT(npr >= nraw - 1 && npr <= nraw + 1);
	if (npr < nraw - 1 || npr > nraw + 1)
		fprintf(stderr, "\ntpoll: raw %s preserve %s%s\n", raw.out, r.out, r.err);
	cmd_result_free(&raw);
	cmd_result_free(&r);
}

/* A log setting's value as a number (-1 when absent). */
static long setting(const char *log, const char *key)
{
	char pat[128];
	const char *p;

	snprintf(pat, sizeof(pat), "key=\"%s\" value=\"", key);
	p = log ? strstr(log, pat) : NULL;
	return p ? atol(p + strlen(pat)) : -1;
}

/*
 * Runs the command line cmd (after `pvmmon run -q`, from dir) unmonitored into *raw,
 * then in preserve mode with its log in dir/xml into *pr (at most secs seconds): the
 * outputs must be equal. Returns the preserve run's log (NULL when it wrote none);
 * the caller frees it and both results.
 */
static char *raw_then_preserve(cmd_result *raw, cmd_result *pr, const char *dir,
                               const char *cmd, const char *xml, int secs)
{
	char path[512];

	harness_sh(raw, RUN_TIMEOUT, "cd '%s' && %s/pvmmon run -q --raw -- %s", dir, harness_bin(),
	           cmd);
	harness_sh(pr, secs, "cd '%s' && %s/pvmmon run -q --mode=preserve --no-record -o %s -- %s",
	           dir, harness_bin(), xml, cmd);
	if (pr->status)
		fprintf(stderr, "\n%s preserve: %d\n%s%s\n", cmd, pr->status, pr->out, pr->err);
	CU_ASSERT_EQUAL_FATAL(raw->status, 0);
	CU_ASSERT_EQUAL(pr->status, 0);
	CU_ASSERT_STRING_EQUAL(pr->out, raw->out);
	snprintf(path, sizeof(path), "%s/%s", dir, xml);
	return harness_slurp(path, NULL);
}

/*
 * A manager/worker program whose one pvm_recv(-1, tag) takes both the workers' results
 * and pvmd's exit notices, the workers receiving from any source too: it used to spin
 * (the monitor asked the workers, which answered "running" from their own waits, at
 * the rate of round trips; 660,000 questions for 7,000 decisions) and never finished.
 * Now it gives the unmonitored result, in a bounded time, with at most a question per
 * decision or so.
 */
static void test_notify_manager_worker(void)
{
	const char *dir = harness_tmpdir();
	char cmd[512], *log;
	cmd_result raw, r;
	long decisions, asks;

	/* Unmonitored it takes well under a second; 60 s is the bound a spin or a fixed
	 * wait per decision (2,000 of them, each a multiple of 20 ms) would exceed even
	 * on a busy 2-CPU machine, and a working run stays far below. */
	snprintf(cmd, sizeof(cmd), "%s/notifymw -w 4 -n 2000", harness_bin());
	log = raw_then_preserve(&raw, &r, dir, cmd, "nmw.xml", 60);
	CU_ASSERT_PTR_NOT_NULL(strstr(raw.out, "notifymw: 2000 results, sum "));
	CU_ASSERT_PTR_NOT_NULL(strstr(raw.out, ", 4 exits"));
	cmd_result_free(&r);
	cmd_result_free(&raw);
	CU_ASSERT_PTR_NOT_NULL_FATAL(log);
	decisions = setting(log, "preserve-decisions");
	asks = setting(log, "preserve-asks");
	fprintf(stderr, "\n  notifymw: %ld decisions, %ld questions", decisions, asks);
	/* The manager's 2,000 results and 4 exits, and the workers' receives. */
	CU_ASSERT(decisions >= 2000);
	CU_ASSERT(asks >= 0 && asks <= 2 * decisions);
	/* No task packs a tid (problem numbers and results are small), no task lists tids:
	 * a worker's receive waits for the manager alone, not for the other workers. */
	CU_ASSERT_PTR_NOT_NULL(strstr(log, "key=\"preserve-knowledge\" value=\"used\""));
	/* No decision of a task's own waited on a timer: the manager, held by a worker it
	 * woke, waits for that worker's news (the wait threshold, 100 ms, would end it
	 * only for a worker that said nothing, which no working worker does). */
	CU_ASSERT_EQUAL(setting(log, "preserve-local-waits-timed"), 0);
	free(log);
}

/*
 * A Fortran program of 200 group broadcast/reduce rounds (apps/gredf.f, built here with
 * gfortran): a member waits for the root's broadcast while the root, woken by that
 * member's contribution, decides its reduce receive itself. Each task used to wait
 * 20 ms for news the other could not send before asking the monitor, every round:
 * 7.4 s against 0.3 s plain. It must give the unmonitored total, and in the
 * unslowed build in less time than those waits alone took.
 */
static void test_fortran_group_rounds(void)
{
	const char *dir = harness_tmpdir();
	cmd_result raw, r;
	char *t, path[512], *log;
	double secs;
	long timed;

	if (harness_gfortran(dir, "gredf", "-O2", "-lgpvm3") != 0)
		return;
	harness_sh(&raw, RUN_TIMEOUT, "cd '%s' && PATH=\"$PWD:$PATH\" %s/pvmmon run -q --raw -- gredf",
	           dir, harness_bin());
	CU_ASSERT_EQUAL(raw.status, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(raw.out, "gredf: total 102500"));
	harness_sh(&r, RUN_TIMEOUT,
	           "cd '%s' && PATH=\"$PWD:$PATH\" %s/pvmmon run -q --mode=preserve --no-record "
	           "-o gf.xml -- /bin/bash -c 'TIMEFORMAT=%%R; time ./gredf'",
	           dir, harness_bin());
	if (r.status)
		fprintf(stderr, "\ngredf preserve: %d\n%s%s\n", r.status, r.out, r.err);
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_STRING_EQUAL(r.out, raw.out);
	/* bash's time, the last line of its standard error. */
	t = r.err ? r.err + strlen(r.err) : NULL;
	while (t && t > r.err && t[-1] == '\n')
		t--;
	while (t && t > r.err && t[-1] != '\n')
		t--;
	secs = t ? atof(t) : 0;
	fprintf(stderr, "\n  gredf preserve: %.2f s", secs);
	/* The 200 rounds' 20 ms waits alone took 4 s; a working run takes 0.5 to 1.2 s on
	 * a 2-CPU machine busy with four parallel builds, and up to 2.5 s measured on the
	 * same machine idle (an idle virtual processor is slow to wake, and every round is
	 * a chain of wake-ups). ASan or valgrind slow every round several times over, so
	 * only the unslowed build is held to it. */
	if (!harness_slowed())
		CU_ASSERT(secs > 0 && secs < 3.8);
	/* The member and the root, each held by the other, no longer wait on a timer
	 * first (each round's woken wait was a 1 ms timer, 20 ms before): 0 measured in
	 * every run. A holder whose board slot says it is in a call where it cannot
	 * answer may still end one board wait of 50 ms: at most a few in 200 rounds, not
	 * one a round. */
	snprintf(path, sizeof(path), "%s/gf.xml", dir);
	log = harness_slurp(path, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(log);
	timed = setting(log, "preserve-local-waits-timed");
	fprintf(stderr, ", %ld local waits ended by a timer", timed);
	CU_ASSERT(timed >= 0 && timed <= 3);
	free(log);
	cmd_result_free(&r);
	cmd_result_free(&raw);
}

/*
 * The master's receive from any source, held by the worker it has just woken, while
 * that worker blocks on a helper that naps 150 ms (apps/awaywait): the worker, asked for
 * its news, says it waits elsewhere, and the master asks the monitor. It used to wait
 * 1 ms on a timer first. Had the worker said nothing, the master would wait out the
 * 100 ms wait threshold every round (the nap is longer, so the worker's result comes
 * later): measured with the worker's answer left out, 4 of the 5 rounds' waits ended
 * so (with a 20 ms nap none: the result ends the wait first). The log's
 * preserve-local-waits-timed counts such ends.
 */
static void test_woken_task_waits_elsewhere(void)
{
	const char *dir = harness_tmpdir();
	char cmd[512], *log;
	cmd_result raw, r;

	snprintf(cmd, sizeof(cmd), "%s/awaywait -n 5 -s 150", harness_bin());
	log = raw_then_preserve(&raw, &r, dir, cmd, "aw.xml", RUN_TIMEOUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(raw.out, "5 rounds, the status first in 5, sum 20"));
	cmd_result_free(&r);
	cmd_result_free(&raw);
	CU_ASSERT_PTR_NOT_NULL_FATAL(log);
	/* Every receive decided, with notices between the tasks, and none of the
	 * master's waits ended on a timer. */
	CU_ASSERT(setting(log, "preserve-decisions") >= 10);
	CU_ASSERT(setting(log, "preserve-block-notices") > 0);
	CU_ASSERT_EQUAL(setting(log, "preserve-local-waits-timed"), 0);
	free(log);
}

static void test_bad_options(void)
{
	cmd_result r;

	harness_sh(&r, 30, "%s/pvmmon run --mode=fast -- %s/fig4", harness_bin(), harness_bin());
	CU_ASSERT_EQUAL(r.status, 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "--mode wants plain or preserve, not 'fast'"));
	cmd_result_free(&r);
}

/*
 * A task that learns a tid outside PVM (apps/tidfile: from a file the master wrote)
 * and sends to it: preserve mode cannot know it could, says so, and stops relying on
 * who may address whom; the program's result is the unmonitored one.
 */
static void test_unseen_tid_is_said(void)
{
	const char *dir = harness_tmpdir();
	char path[512], *log;
	cmd_result raw, r;

	harness_sh(&raw, RUN_TIMEOUT, "cd '%s' && %s/pvmmon run -q --raw -- %s/tidfile t1.txt", dir,
	           harness_bin(), harness_bin());
	CU_ASSERT_EQUAL_FATAL(raw.status, 0);
	harness_sh(&r, RUN_TIMEOUT,
	           "cd '%s' && %s/pvmmon run -q --mode=preserve --no-record -o tf.xml -- "
	           "%s/tidfile t2.txt",
	           dir, harness_bin(), harness_bin());
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_STRING_EQUAL(r.out, raw.out);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "pvmmon: preserve: task 0.1 sent to a task it was not "
	                                     "seen to learn of"));
	cmd_result_free(&r);
	cmd_result_free(&raw);
	snprintf(path, sizeof(path), "%s/tf.xml", dir);
	log = harness_slurp(path, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(log);
	CU_ASSERT_PTR_NOT_NULL(strstr(log, "key=\"preserve-knowledge\" value=\"a task sent to a task "
	                                   "it was not seen to learn of\""));
	free(log);
}

CU_TestInfo test_preserve_tests[] = {
    {"probe delays reorder plain runs; every preserve run the machine does not stall keeps the order, times within 5%",
     test_preserve_keeps_unmonitored_order},
    {"Figure 4 completes only with the wait-dependency rule", test_figure4_needs_wait_dependencies},
    {"a real deadlock is reported with its cycle", test_real_deadlock_reported},
    {"nrecv polling, trecv timeouts and wildcard receives finish", test_nonblocking_receives},
    {"the go race keeps its unmonitored order in 20 of 20 runs under load",
     test_go_race_keeps_unmonitored_order},
    {"trecv polls time out as often as unmonitored", test_trecv_poll_times_out_as_unmonitored},
    {"the trace records why each decision was taken", test_decisions_in_trace},
    {"a manager/worker taking results and exit notices on one receive finishes",
     test_notify_manager_worker},
    {"a Fortran group bcast/reduce program finishes with no timed wait a round",
     test_fortran_group_rounds},
    {"a tid learned outside PVM is said, and the knowledge rule goes off", test_unseen_tid_is_said},
    {"a woken task that waits for another says so, and no decision waits on a timer",
     test_woken_task_waits_elsewhere},
    {"a bad --mode is refused", test_bad_options},
    CU_TEST_INFO_NULL,
};
