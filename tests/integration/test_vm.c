/*
 * Integration tests of the private virtual machine (common/vm.c): a real pvmd started,
 * used by a real PVM task, and halted with nothing left behind.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CUnit/CUnit.h>
#include <pvm3.h>

#include "../../common/vm.h"
#include "pvmmon/errors.h"
#include "harness.h"

/* Keeps PVM_TMP as it was, since apply_env() changes this process's environment. */
static char *saved_tmp;

static void save_env(void)
{
	const char *t = getenv("PVM_TMP");

	saved_tmp = t ? strdup(t) : NULL;
}

static void restore_env(void)
{
	if (saved_tmp)
		setenv("PVM_TMP", saved_tmp, 1);
	else
		unsetenv("PVM_TMP");
	free(saved_tmp);
	saved_tmp = NULL;
}

static int is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Enrolls a forked child in the VM of the current environment; returns 1 if it could. */
static int child_can_enroll(void)
{
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		int tid = pvm_mytid();

		if (tid > 0)
			pvm_exit();
		_exit(tid > 0 ? 0 : 1);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return 0;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static void test_start_use_halt(void)
{
	const char *ep[] = {"/opt/pvmmon-test-dir"};
	pvmmon_vm_opts opts = {0};
	pvmmon_vm *vm = NULL;
	char *tmp, hostfile[4096], *text;
	pid_t pid;

	opts.ep_dirs = ep;
	opts.nep_dirs = 1;
	save_env();
	CU_ASSERT_EQUAL_FATAL(pvmmon_vm_start(&vm, &opts), 0);
	pid = pvmmon_vm_pvmd_pid(vm);
	tmp = strdup(pvmmon_vm_tmpdir(vm));
	CU_ASSERT(pid > 0);
	CU_ASSERT(pvmmon_vm_alive(vm));
	CU_ASSERT(is_dir(tmp));
	/* The spawn path starts with the given folder and ends with PVM's library folder. */
	snprintf(hostfile, sizeof(hostfile), "%s/../hostfile", tmp);
	text = harness_slurp(hostfile, NULL);
	CU_ASSERT_PTR_NOT_NULL(text);
	if (text) {
		CU_ASSERT_PTR_NOT_NULL(strstr(text, "* ep=/opt/pvmmon-test-dir:"));
		CU_ASSERT_PTR_NOT_NULL(strstr(text, "/lib wd="));
	}
	free(text);
	CU_ASSERT_EQUAL(pvmmon_vm_apply_env(vm), 0);
	CU_ASSERT_STRING_EQUAL(getenv("PVM_TMP"), tmp);
	CU_ASSERT(child_can_enroll());
	CU_ASSERT_EQUAL(pvmmon_vm_halt(vm), 0);
	/* Nothing is left: the daemon is gone (not even a zombie) and so is the folder. */
	CU_ASSERT(kill(pid, 0) != 0);
	CU_ASSERT(!is_dir(tmp));
	free(tmp);
	restore_env();
}

static void test_two_vms_are_independent(void)
{
	pvmmon_vm *a = NULL, *b = NULL;
	char *ta, *tb;

	save_env();
	CU_ASSERT_EQUAL_FATAL(pvmmon_vm_start(&a, NULL), 0);
	if (pvmmon_vm_start(&b, NULL) != 0) {
		CU_FAIL("second VM did not start");
		pvmmon_vm_halt(a);
		restore_env();
		return;
	}
	ta = strdup(pvmmon_vm_tmpdir(a));
	tb = strdup(pvmmon_vm_tmpdir(b));
	CU_ASSERT_STRING_NOT_EQUAL(ta, tb);
	CU_ASSERT_NOT_EQUAL(pvmmon_vm_pvmd_pid(a), pvmmon_vm_pvmd_pid(b));
	CU_ASSERT_EQUAL(pvmmon_vm_halt(a), 0);
	/* Halting one leaves the other working. */
	CU_ASSERT(pvmmon_vm_alive(b));
	pvmmon_vm_apply_env(b);
	CU_ASSERT(child_can_enroll());
	CU_ASSERT_EQUAL(pvmmon_vm_halt(b), 0);
	CU_ASSERT(!is_dir(ta));
	CU_ASSERT(!is_dir(tb));
	free(ta);
	free(tb);
	restore_env();
}

static void test_halt_after_pvmd_died(void)
{
	pvmmon_vm *vm = NULL;
	char *tmp;

	CU_ASSERT_EQUAL_FATAL(pvmmon_vm_start(&vm, NULL), 0);
	tmp = strdup(pvmmon_vm_tmpdir(vm));
	/* SIGKILL leaves pvmd's files behind; halt must still clean everything. */
	kill(pvmmon_vm_pvmd_pid(vm), SIGKILL);
	usleep(100000);
	CU_ASSERT(!pvmmon_vm_alive(vm));
	CU_ASSERT_EQUAL(pvmmon_vm_halt(vm), 0);
	CU_ASSERT(!is_dir(tmp));
	free(tmp);
}

static void test_attach(void)
{
	pvmmon_vm *vm = NULL, *att = NULL;
	pvmmon_vm_opts opts = {0};
	char *tmp;

	save_env();
	opts.attach = 1;
	/* Nothing runs in an empty folder: attaching there is a clear error. */
	setenv("PVM_TMP", harness_tmpdir(), 1);
	CU_ASSERT_EQUAL(pvmmon_vm_start(&att, &opts), PVMMON_ENOTFOUND);
	CU_ASSERT_PTR_NOT_NULL(strstr(pvmmon_error_last(), "no running PVM"));

	CU_ASSERT_EQUAL_FATAL(pvmmon_vm_start(&vm, NULL), 0);
	tmp = strdup(pvmmon_vm_tmpdir(vm));
	setenv("PVM_TMP", tmp, 1);
	CU_ASSERT_EQUAL(pvmmon_vm_start(&att, &opts), 0);
	if (att) {
		CU_ASSERT_EQUAL(pvmmon_vm_pvmd_pid(att), -1);
		CU_ASSERT_STRING_EQUAL(pvmmon_vm_tmpdir(att), tmp);
		/* Letting go of an attached VM leaves it running. */
		CU_ASSERT_EQUAL(pvmmon_vm_halt(att), 0);
	}
	CU_ASSERT(pvmmon_vm_alive(vm));
	CU_ASSERT(child_can_enroll());
	CU_ASSERT_EQUAL(pvmmon_vm_halt(vm), 0);
	free(tmp);
	restore_env();
}

static void test_bad_hostfile(void)
{
	pvmmon_vm_opts opts = {0};
	pvmmon_vm *vm = NULL;

	opts.hostfile = "/nonexistent/hostfile";
	CU_ASSERT_EQUAL(pvmmon_vm_start(&vm, &opts), PVMMON_EIO);
	CU_ASSERT_PTR_NOT_NULL(strstr(pvmmon_error_last(), "/nonexistent/hostfile"));
	CU_ASSERT_PTR_NULL(vm);
}

CU_TestInfo test_vm_tests[] = {
    {"start, enroll a task, halt leaves nothing", test_start_use_halt},
    {"two private VMs are independent", test_two_vms_are_independent},
    {"halt after the pvmd was killed", test_halt_after_pvmd_died},
    {"attach to a running VM, never halt it", test_attach},
    {"a missing hostfile is a clear error", test_bad_hostfile},
    CU_TEST_INFO_NULL,
};
