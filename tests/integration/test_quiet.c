/*
 * Integration tests that waits which end are never said to be hangs, in plain and in
 * preserve mode (one set of hang rules, monitor/hang.c): a pvm_trecv whose 3 s timeout
 * expires, a task waiting for one that computes, a 16 MiB message, a group barrier that
 * completes late, and tasks a shell script starts 2 s apart (while the script's
 * processes live, a task may still join), the script waiting for them or exiting at
 * once. Each case runs once per mode; PVMMON_TEST_REPEAT=N repeats it N times and
 * prints the tally (doc/reliability.md), PVMMON_TEST_COMPUTE_S sets how long the
 * computing task and the late barrier take (1 s by default: see compute_s). Also: an
 * abort (--on-hang=abort) stops every process of the launched program, a script's
 * `sleep` child too.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "harness.h"

#define RUN_TIMEOUT 90

static int repeats(void)
{
	const char *e = getenv("PVMMON_TEST_REPEAT");
	int n = e ? atoi(e) : 1;

	return n > 0 ? n : 1;
}

/* How long the computing task computes and the late barrier comes (seconds). A task's
 * wait is reported after 100 ms and the monitor looks at its hangs at least every
 * 50 ms, so 1 s covers every step of a long wait (the report, the judgement, many
 * re-judgements) at a tenth of the 10 s; the 10 s case is run with
 * PVMMON_TEST_COMPUTE_S=10 for the record in doc/reliability.md. */
static const char *compute_s(void)
{
	const char *e = getenv("PVMMON_TEST_COMPUTE_S");

	return e && *e ? e : "1";
}

/* Writes the shell script that starts the tasks: `hang listen` at once, `hang tell`
 * 2 s later; it waits for both, or (detach) leaves both to run and exits at once. */
static int write_script(const char *dir, int detach)
{
	char path[4200];
	FILE *f;

	snprintf(path, sizeof(path), "%s/tasks.sh", dir);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "#!/bin/sh\nrm -f tid\n%s/hang listen tid &\n", harness_bin());
	if (detach)
		fprintf(f, "(sleep 2; %s/hang tell tid) &\nexit 0\n", harness_bin());
	else
		fprintf(f, "sleep 2\n%s/hang tell tid\nwait\n", harness_bin());
	if (fclose(f) != 0)
		return -1;
	return chmod(path, 0755);
}

/* Runs `hang ARGS` (or, with no args, the script) in mode (NULL: plain) repeats()
 * times with --on-hang=abort; each run must end as the program does with every line
 * of done (';'-separated) in its output, and say no hang, on stderr or in the log. */
static void quiet(const char *mode, const char *args, int script, const char *done)
{
	int n = repeats(), clean = 0;

	for (int i = 0; i < n; i++) {
		const char *dir = harness_tmpdir();
		char path[4200], want[256], *log;
		const char *d = done;
		cmd_result r;
		int ok;

		if (script)
			CU_ASSERT_EQUAL_FATAL(write_script(dir, script == 2), 0);
		harness_sh(&r, RUN_TIMEOUT,
		           "cd '%s' && %s/pvmmon run -q %s --on-hang=abort -o q.xml -- %s/%s %s",
		           dir, harness_bin(), mode ? mode : "", script ? "." : harness_bin(),
		           script ? "tasks.sh" : "hang", script ? "" : args);
		snprintf(path, sizeof(path), "%s/q.xml", dir);
		log = harness_slurp(path, NULL);
		ok = r.status == 0 && !strstr(r.err, "after the last task blocked") && log &&
		     !strstr(log, "<hang ");
		while (d && *d) {
			size_t len = strcspn(d, ";");

			snprintf(want, sizeof(want), "%.*s", (int)len, d);
			ok = ok && strstr(r.out, want);
			d += len + (d[len] == ';');
		}
		CU_ASSERT(ok);
		if (!ok)
			fprintf(stderr, "\n%s %s%s: status %d\n%s\n%s\n", mode ? mode : "plain",
			        script ? "script " : "hang ", script ? "" : args, r.status, r.out,
			        r.err);
		clean += ok;
		free(log);
		cmd_result_free(&r);
	}
	if (n > 1)
		fprintf(stderr, "\n  %s %s%s: %d/%d runs without a report\n", mode ? mode : "plain",
		        script ? "script" : "hang ",
		        script == 2 ? " (exits at once)"
		        : script    ? ""
		                    : args,
		        clean, n);
}

static const char *const modes[] = {NULL, "--mode=preserve"};

static void test_trecv(void)
{
	for (int m = 0; m < 2; m++)
		quiet(modes[m], "trecv", 0, "hang: trecv done");
}

static void test_compute(void)
{
	char args[64];

	snprintf(args, sizeof(args), "compute %s", compute_s());
	for (int m = 0; m < 2; m++)
		quiet(modes[m], args, 0, "hang: compute done");
}

static void test_big(void)
{
	for (int m = 0; m < 2; m++)
		quiet(modes[m], "big", 0, "hang: big done");
}

static void test_barrier(void)
{
	char args[64];

	snprintf(args, sizeof(args), "barrier %s", compute_s());
	for (int m = 0; m < 2; m++)
		quiet(modes[m], args, 0, "hang: barrier done");
}

static void test_script(void)
{
	for (int m = 0; m < 2; m++)
		quiet(modes[m], NULL, 1, "hang: listen done;hang: tell done");
}

/* The script exits at once: its background jobs start the tasks, and the run lasts
 * while they do (no "program stuck" for the listener's wildcard wait meanwhile). */
static void test_script_detached(void)
{
	for (int m = 0; m < 2; m++)
		quiet(modes[m], NULL, 2, "hang: listen done;hang: tell done");
}

/* A real cycle in a script that also started `sleep 30`: --on-hang=abort exits 4 and
 * stops every process of the script's group, the sleep too. */
static void test_abort_stops_group(void)
{
	for (int m = 0; m < 2; m++) {
		const char *dir = harness_tmpdir();
		char path[4200], *pid;
		FILE *f;
		cmd_result r;

		snprintf(path, sizeof(path), "%s/cycle.sh", dir);
		f = fopen(path, "w");
		CU_ASSERT_PTR_NOT_NULL_FATAL(f);
		fprintf(f, "#!/bin/sh\nsleep 30 &\necho $! > sleep.pid\n%s/hang cycle2\n",
		        harness_bin());
		fclose(f);
		chmod(path, 0755);
		/* The spawn path has PATH's folders: hang spawns its workers from there. */
		harness_sh(
		    &r, RUN_TIMEOUT,
		    "cd '%s' && PATH='%s':$PATH %s/pvmmon run -q %s --on-hang=abort -o c.xml "
		    "-- ./cycle.sh",
		    dir, harness_bin(), harness_bin(), modes[m] ? modes[m] : "");
		CU_ASSERT_EQUAL(r.status, 4);
		CU_ASSERT_PTR_NOT_NULL(
		    strstr(r.err, "pvmmon: deadlock: task 0.0 waits at hang.c:"));
		snprintf(path, sizeof(path), "%s/sleep.pid", dir);
		pid = harness_slurp(path, NULL);
		CU_ASSERT_PTR_NOT_NULL(pid);
		/* pvmmon run has reaped the group before it exits: the sleep is gone, not a
		 * zombie. */
		CU_ASSERT(pid && atoi(pid) > 0 && kill(atoi(pid), 0) != 0);
		if (pid && atoi(pid) > 0 && kill(atoi(pid), 0) == 0)
			kill(atoi(pid), SIGKILL);
		free(pid);
		cmd_result_free(&r);
	}
}

CU_TestInfo test_quiet_tests[] = {
    {"trecv", test_trecv},
    {"compute", test_compute},
    {"big", test_big},
    {"barrier", test_barrier},
    {"script", test_script},
    {"script-detached", test_script_detached},
    {"abort-stops-group", test_abort_stops_group},
    CU_TEST_INFO_NULL,
};
