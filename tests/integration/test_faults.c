/*
 * Integration tests of faults around a monitored run: the monitor killed while the
 * program runs (the program finishes with its own output, the tasks warn, the last
 * checkpoint is a valid log), and pvmmon run interrupted (the private VM and its tasks
 * are gone, nothing is left behind).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "pvmmon/log.h"
#include "harness.h"

#define RUN_TIMEOUT 120

/* Starts `pvmmon run OPTS -- ring -r ROUNDS` in dir in the background and waits for its
 * run file (which names the monitor's pid); the shell snippet for the callers. */
#define START_RING(opts, rounds)                                                          \
	"cd '%s' && { %s/pvmmon run -q " opts " -o ring.xml -- %s/ring -r " rounds           \
	" >ring.out 2>ring.err & } && i=0; while [ ! -e ring.xml.run ] && [ $i -lt 100 ]; " \
	"do sleep 0.1; i=$((i+1)); done; "

static void test_monitor_killed(void)
{
	const char *dir = harness_tmpdir();
	char path[4200];
	cmd_result r, raw;
	pvmmon_log *log = NULL;

	harness_sh(&raw, RUN_TIMEOUT, "cd '%s' && %s/pvmmon run -q --raw -- %s/ring -r 40", dir,
		   harness_bin(), harness_bin());
	CU_ASSERT_EQUAL_FATAL(raw.status, 0);
	/* The monitor's pid comes from the run file: the test ends only what it started
	 * (through pvmmon run), never anything by name. */
	harness_sh(&r, RUN_TIMEOUT,
		   START_RING("", "40") "sleep 1.5; mp=$(sed -n 's/^monitor_pid=//p' ring.xml.run); "
					 "kill -9 $mp; i=0; while [ -e ring.xml.run ] && [ $i -lt 300 ]; "
					 "do sleep 0.1; i=$((i+1)); done; cat ring.out; cat ring.err >&2",
		   dir, harness_bin(), harness_bin());
	/* The program's own output, unchanged. */
	CU_ASSERT_STRING_EQUAL(r.out, raw.out);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "the monitor ended during the run"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "the monitor has gone; ring goes on unmonitored"));
	if (strcmp(r.out, raw.out))
		fprintf(stderr, "\n%s\n%s\n", r.out, r.err);
	/* The checkpoint written before the kill is a valid log of the run so far. */
	snprintf(path, sizeof(path), "%s/ring.xml", dir);
	CU_ASSERT_EQUAL(pvmmon_log_read(&log, path), 0);
	if (log) {
		CU_ASSERT(log->ntasks >= 1);
		pvmmon_log_free(log);
	}
	cmd_result_free(&r);
	cmd_result_free(&raw);
}

/* SIGINT or SIGTERM to pvmmon run: it stops the program, halts its private VM (the
 * pvmd and its folder are gone) and exits; a new run works at once. */
static void test_run_interrupted(void)
{
	const char *dir = harness_tmpdir();
	cmd_result r;

	for (int sig = 0; sig < 2; sig++) {
		harness_sh(&r, RUN_TIMEOUT,
			   START_RING("", "200") "sleep 1; pid=$(sed -n 's/^pid=//p' ring.xml.run); "
						  "tmp=$(sed -n 's/^pvm_tmp=//p' ring.xml.run); "
						  "kill -%s $pid; i=0; while kill -0 $pid 2>/dev/null && "
						  "[ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done; "
						  "kill -0 $pid 2>/dev/null && echo STILL-RUNNING; "
						  "[ -e \"$tmp\" ] && echo VM-LEFT; [ -e ring.xml.run ] && "
						  "echo RUNFILE-LEFT; %s/pvmmon run -q -- %s/ring -r 2",
			   dir, harness_bin(), harness_bin(), sig ? "TERM" : "INT", harness_bin(),
			   harness_bin());
		CU_ASSERT_EQUAL(r.status, 0);
		CU_ASSERT_PTR_NULL(strstr(r.out, "STILL-RUNNING"));
		CU_ASSERT_PTR_NULL(strstr(r.out, "VM-LEFT"));
		CU_ASSERT_PTR_NULL(strstr(r.out, "RUNFILE-LEFT"));
		CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "ring: tasks=4 rounds=2"));
		if (r.status)
			fprintf(stderr, "\n%s\n%s\n", r.out, r.err);
		cmd_result_free(&r);
	}
}

/* A task that is not part of the run (in the same VM, same user) sends the monitor
 * forged control messages: each is refused, said on stderr and counted in the log, and
 * the run goes on as if nothing came. */
static void test_foreign_task_refused(void)
{
	const char *dir = harness_tmpdir();
	char path[4200];
	cmd_result r;
	pvmmon_log *log = NULL;
	const char *refused = NULL;

	harness_sh(&r, RUN_TIMEOUT,
		   "cd '%s' && gcc -O1 -I%s/../include -o forge %s/../tests/fixtures/src/forge.c "
		   "%s/lib/libpvmmon-common.a -lpvm3",
		   dir, harness_build(), harness_build(), harness_build());
	CU_ASSERT_EQUAL_FATAL(r.status, 0);
	cmd_result_free(&r);
	harness_sh(&r, RUN_TIMEOUT,
		   START_RING("", "40") "sleep 0.5; PVM_TMP=$(sed -n 's/^pvm_tmp=//p' ring.xml.run) "
					 "./forge; i=0; while [ -e ring.xml.run ] && [ $i -lt 300 ]; "
					 "do sleep 0.1; i=$((i+1)); done; cat ring.out; cat ring.err >&2",
		   dir, harness_bin(), harness_bin());
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "forge: sent 3 forged messages"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "ring: tasks=4 rounds=40"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "refused a control message (STATUS) from t"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "wrong token"));
	if (!strstr(r.err, "refused"))
		fprintf(stderr, "\n%s\n%s\n", r.out, r.err);
	cmd_result_free(&r);
	snprintf(path, sizeof(path), "%s/ring.xml", dir);
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&log, path), 0);
	for (size_t i = 0; i < log->nsettings; i++)
		if (!strcmp(log->settings[i].key, "refused-control-messages"))
			refused = log->settings[i].value;
	CU_ASSERT_PTR_NOT_NULL(refused);
	CU_ASSERT(refused && atoi(refused) == 3);
	/* The forged start of critical-path collection was not carried out, and the
	 * forger is no task of the run. */
	CU_ASSERT_EQUAL(log->cp.enabled, 0);
	CU_ASSERT_EQUAL(log->ntasks, 4);
	pvmmon_log_free(log);
}

/* The pvmd killed under a run: pvmmon run ends, says so, leaves no process of the run
 * and no VM folder behind, and the next run works at once. */
static void test_pvmd_killed(void)
{
	const char *dir = harness_tmpdir();
	cmd_result r;

	harness_sh(&r, RUN_TIMEOUT,
		   START_RING("", "100") "sleep 1; pp=$(sed -n 's/^pvmd_pid=//p' ring.xml.run); "
					  "tmp=$(sed -n 's/^pvm_tmp=//p' ring.xml.run); "
					  "pid=$(sed -n 's/^pid=//p' ring.xml.run); kill -9 $pp; "
					  "i=0; while kill -0 $pid 2>/dev/null && [ $i -lt 600 ]; do "
					  "sleep 0.1; i=$((i+1)); done; kill -0 $pid 2>/dev/null && "
					  "echo STILL-RUNNING; [ -e \"$tmp\" ] && echo VM-LEFT; "
					  "cat ring.err >&2; %s/pvmmon run -q -- %s/ring -r 2",
		   dir, harness_bin(), harness_bin(), harness_bin(), harness_bin());
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NULL(strstr(r.out, "STILL-RUNNING"));
	CU_ASSERT_PTR_NULL(strstr(r.out, "VM-LEFT"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "pvmd died during the run"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "ring: tasks=4 rounds=2"));
	if (r.status || !strstr(r.err, "pvmd died"))
		fprintf(stderr, "\n%s\n%s\n", r.out, r.err);
	cmd_result_free(&r);
}

CU_TestInfo test_faults_tests[] = {
    {"the monitor killed: the program finishes, the checkpoint is valid", test_monitor_killed},
    {"pvmmon run interrupted: VM halted, nothing left, next run works", test_run_interrupted},
    {"the pvmd killed: pvmmon run ends, says so, leaves nothing", test_pvmd_killed},
    {"a foreign task's forged control messages are refused and logged",
     test_foreign_task_refused},
    CU_TEST_INFO_NULL,
};
