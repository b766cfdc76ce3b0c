/*
 * Integration tests with a VM the test started itself, as a user's own VM: a program
 * spawned from the PVM console (libpvmhooks linked in; its first task starts the
 * monitor, which writes the log in the task's working folder), and `pvmmon run
 * --attach`, which must use that VM and leave it running.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "../../common/vm.h"
#include "harness.h"
#include "pvmmon/errors.h"
#include "pvmmon/log.h"

/* Saves and restores the PVM variables apply_env() changes, so tests stay independent. */
typedef struct saved_env {
	char *tmp, *root;
} saved_env;

static void env_save(saved_env *s)
{
	const char *t = getenv("PVM_TMP"), *r = getenv("PVM_ROOT");

	s->tmp = t ? strdup(t) : NULL;
	s->root = r ? strdup(r) : NULL;
}

static void env_restore(saved_env *s)
{
	if (s->tmp)
		setenv("PVM_TMP", s->tmp, 1);
	else
		unsetenv("PVM_TMP");
	if (s->root)
		setenv("PVM_ROOT", s->root, 1);
	else
		unsetenv("PVM_ROOT");
	free(s->tmp);
	free(s->root);
}

static void test_console_spawn_linked_program(void)
{
	const char *dir = harness_tmpdir();
	const char *ep[] = {harness_bin()};
	pvmmon_vm_opts opts = {0};
	pvmmon_vm *vm = NULL;
	saved_env env;
	cmd_result r = {0};
	char logpath[4096];
	pvmmon_log *log = NULL;
	int rc;

	opts.ep_dirs = ep;
	opts.nep_dirs = 1;
	opts.workdir = dir;
	env_save(&env);
	rc = pvmmon_vm_start(&vm, &opts);
	CU_ASSERT_EQUAL(rc, 0);
	if (rc < 0) {
		fprintf(stderr, "\n%s\n", pvmmon_error_last());
		env_restore(&env);
		return;
	}
	pvmmon_vm_apply_env(vm);
	snprintf(logpath, sizeof(logpath), "%s/matmul-linked.pvmmon.xml", dir);
	/* The console stays up (it shows the task's output) until the monitor has written
	 * the log, then quits; the VM itself is halted below. */
	harness_sh(&r, 120,
	           "cd '%s' && (echo 'spawn -> matmul-linked -n 60 -w 2 -i 2'; i=0; "
	           "while [ ! -s '%s' ] && [ $i -lt 900 ]; do sleep 0.1; i=$((i+1)); done; "
	           "sleep 0.5; echo quit) | env -u LD_PRELOAD pvm",
	           dir, logpath);
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "checksum"));
	rc = pvmmon_log_read(&log, logpath);
	if (rc < 0)
		fprintf(stderr, "\n%s\nconsole said: %s\n%s\n", pvmmon_error_last(), r.out, r.err);
	CU_ASSERT_EQUAL(rc, 0);
	if (log) {
		size_t exited = 0;

		CU_ASSERT_EQUAL(log->ntasks, 3);
		for (size_t i = 0; i < log->ntasks; i++) {
			exited += log->tasks[i].status == PVMMON_TASK_EXITED;
			CU_ASSERT_EQUAL(log->tasks[i].unmonitored_recv, 0);
		}
		CU_ASSERT_EQUAL(exited, 3);
		CU_ASSERT(log->tasks[0].nstmts > 0);
	}
	pvmmon_log_free(log);
	cmd_result_free(&r);
	CU_ASSERT_EQUAL(pvmmon_vm_halt(vm), 0);
	env_restore(&env);
}

static void test_run_attach_leaves_vm_running(void)
{
	const char *dir = harness_tmpdir();
	const char *ep[] = {harness_bin()};
	pvmmon_vm_opts opts = {0};
	pvmmon_vm *vm = NULL;
	saved_env env;
	cmd_result r = {0};
	char logpath[4096];
	pvmmon_log *log = NULL;

	opts.ep_dirs = ep;
	opts.nep_dirs = 1;
	opts.workdir = dir;
	env_save(&env);
	if (pvmmon_vm_start(&vm, &opts) < 0) {
		CU_FAIL("private VM did not start");
		env_restore(&env);
		return;
	}
	pvmmon_vm_apply_env(vm);
	snprintf(logpath, sizeof(logpath), "%s/attach.xml", dir);
	harness_sh(&r, 120, "cd '%s' && %s/pvmmon run --attach -q -o '%s' -- %s/matmul -n 60 -w 2",
	           dir, harness_bin(), logpath, harness_bin());
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "checksum"));
	CU_ASSERT_EQUAL(pvmmon_log_read(&log, logpath), 0);
	if (log)
		CU_ASSERT_EQUAL(log->ntasks, 3);
	/* The VM belongs to the caller: pvmmon used it and left it running. */
	CU_ASSERT(pvmmon_vm_alive(vm));
	pvmmon_log_free(log);
	cmd_result_free(&r);
	CU_ASSERT_EQUAL(pvmmon_vm_halt(vm), 0);
	env_restore(&env);
}

/* A program spawned from the console that hangs (hang-linked cycle2): its tasks report
 * their waits to the monitor the first task started, which says the cycle; its
 * checkpoint log has it while the tasks still wait. The VM is halted after. */
static void test_console_spawned_hang(void)
{
	const char *dir = harness_tmpdir();
	const char *ep[] = {harness_bin()};
	pvmmon_vm_opts opts = {0};
	pvmmon_vm *vm = NULL;
	saved_env env;
	cmd_result r = {0};
	char logpath[4096], *log;

	opts.ep_dirs = ep;
	opts.nep_dirs = 1;
	opts.workdir = dir;
	env_save(&env);
	if (pvmmon_vm_start(&vm, &opts) < 0) {
		CU_FAIL("private VM did not start");
		env_restore(&env);
		return;
	}
	pvmmon_vm_apply_env(vm);
	snprintf(logpath, sizeof(logpath), "%s/hang-linked.pvmmon.xml", dir);
	/* The monitor's first checkpoint comes a second into the run, the cycle about half
	 * a second in: 60 s of looking leaves room for a loaded machine. */
	harness_sh(&r, 120,
	           "cd '%s' && (echo 'spawn -> hang-linked cycle2'; i=0; "
	           "while ! grep -q '<hang kind=\"deadlock\"' '%s' 2>/dev/null && [ $i -lt 600 ]; "
	           "do sleep 0.1; i=$((i+1)); done; echo quit) | env -u LD_PRELOAD pvm",
	           dir, logpath);
	log = harness_slurp(logpath, NULL);
	CU_ASSERT_PTR_NOT_NULL(log ? strstr(log, "<hang kind=\"deadlock\"") : NULL);
	CU_ASSERT_PTR_NOT_NULL(log ? strstr(log, "task 0.0 waits at hang.c:") : NULL);
	CU_ASSERT_PTR_NOT_NULL(log ? strstr(log, "for tag 1 from 0.0") : NULL);
	if (!log || !strstr(log, "<hang kind=\"deadlock\""))
		fprintf(stderr, "\nconsole said: %s\n%s\n", r.out, r.err);
	free(log);
	cmd_result_free(&r);
	CU_ASSERT_EQUAL(pvmmon_vm_halt(vm), 0);
	env_restore(&env);
}

CU_TestInfo test_console_tests[] = {
    {"console spawn: a hung program's cycle is said", test_console_spawned_hang},
    {"console spawn of a linked program writes a log", test_console_spawn_linked_program},
    {"run --attach uses a running VM and leaves it running", test_run_attach_leaves_vm_running},
    CU_TEST_INFO_NULL,
};
