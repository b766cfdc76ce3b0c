/* Unit tests for cli/run.c: the run file that pvmmon top and pvmmon cp find a run by,
 * and what pvmmon run and replay refuse before anything starts (no virtual machine is
 * started by these tests: each case fails before that). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "../../../cli/cli.h"
#include "../../../cli/runopts.h"
#include "cmd.h"
#include "pvmmon/errors.h"

/* The entries of folder dir, sorted, joined by spaces. */
static char *listing(const char *dir)
{
	char cmd[128], *text;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "ls -A %s", dir);
	p = popen(cmd, "r");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	{
		char buf[1024];
		size_t n = fread(buf, 1, sizeof(buf) - 1, p);

		buf[n] = '\0';
		for (char *c = buf; *c; c++)
			if (*c == '\n')
				*c = ' ';
		text = strdup(buf);
	}
	pclose(p);
	return text;
}

static void test_run_file(void)
{
	char dir[40], log[80], run[96], want[512], *text, *ls;
	struct stat st;

	cmd_tmpdir(dir);
	snprintf(log, sizeof(log), "%s/app.xml", dir);
	snprintf(run, sizeof(run), "%s.run", log);
	CU_ASSERT_EQUAL_FATAL(cli__run_file_write(log, "/tmp/pvm.x", 11, -1, 0xabcULL), 0);
	/* One line per fact; the token in 16 hex digits; pvmmon's own pid. */
	snprintf(want, sizeof(want),
	         "pvm_tmp=/tmp/pvm.x\nlog=%s\npid=%d\nmonitor_pid=11\npvmd_pid=-1\n"
	         "token=0000000000000abc\n",
	         log, (int)getpid());
	text = cmd_slurp(run);
	CU_ASSERT_STRING_EQUAL(text, want);
	free(text);
	/* Readable by its owner only; nothing else left in the folder. */
	CU_ASSERT_EQUAL_FATAL(stat(run, &st), 0);
	CU_ASSERT_EQUAL(st.st_mode & 0777, 0600);
	ls = listing(dir);
	CU_ASSERT_STRING_EQUAL(ls, "app.xml.run ");
	free(ls);
	/* Written again: replaced whole. */
	CU_ASSERT_EQUAL(cli__run_file_write(log, "/var/pvm", 12, 345, 0xfedcba9876543210ULL), 0);
	snprintf(want, sizeof(want),
	         "pvm_tmp=/var/pvm\nlog=%s\npid=%d\nmonitor_pid=12\npvmd_pid=345\n"
	         "token=fedcba9876543210\n",
	         log, (int)getpid());
	text = cmd_slurp(run);
	CU_ASSERT_STRING_EQUAL(text, want);
	free(text);
	cli__run_file_remove(log);
	CU_ASSERT_NOT_EQUAL(access(run, F_OK), 0);
	cli__run_file_remove(log); /* none: nothing to do */
	cmd_remove(dir);
}

/* A symlink where the run file goes is replaced, never followed. */
static void test_run_file_symlink(void)
{
	char dir[40], log[80], run[96], target[80], *text;
	struct stat st;

	cmd_tmpdir(dir);
	snprintf(log, sizeof(log), "%s/app.xml", dir);
	snprintf(run, sizeof(run), "%s.run", log);
	snprintf(target, sizeof(target), "%s/target", dir);
	cmd_write(target, "keep\n");
	CU_ASSERT_EQUAL_FATAL(symlink(target, run), 0);
	CU_ASSERT_EQUAL(cli__run_file_write(log, "/tmp/pvm.x", 11, 22, 1), 0);
	text = cmd_slurp(target);
	CU_ASSERT_STRING_EQUAL(text, "keep\n");
	free(text);
	CU_ASSERT_EQUAL_FATAL(lstat(run, &st), 0);
	CU_ASSERT(S_ISREG(st.st_mode));
	cmd_remove(dir);
}

/* A folder that does not exist: PVMMON_EIO naming the file and why. */
static void test_run_file_error(void)
{
	char dir[40], log[80], want[200];

	cmd_tmpdir(dir);
	snprintf(log, sizeof(log), "%s/gone/app.xml", dir);
	CU_ASSERT_EQUAL(cli__run_file_write(log, "/tmp/pvm.x", 11, 22, 1), PVMMON_EIO);
	snprintf(want, sizeof(want), "cannot create %s.run.%d: No such file or directory", log,
	         (int)getpid());
	CU_ASSERT_STRING_EQUAL(pvmmon_error_last(), want);
	cmd_remove(dir);
}

/* PVMMON_HOOKS set for the runs below, so that the hooks library is found whether or
 * not it is built (it is never loaded: each run stops before), and put back after. */
static char *saved_hooks;

static void hooks_set(void)
{
	const char *v = getenv("PVMMON_HOOKS");

	saved_hooks = v ? strdup(v) : NULL;
	setenv("PVMMON_HOOKS", "/nonexistent/libpvmhooks.so", 1);
}

static void hooks_restore(void)
{
	if (saved_hooks)
		setenv("PVMMON_HOOKS", saved_hooks, 1);
	else
		unsetenv("PVMMON_HOOKS");
	free(saved_hooks);
	saved_hooks = NULL;
}

/* What pvmmon run refuses before it starts a virtual machine: the status, and one line
 * naming what is wrong. */
static void test_run_refuses(void)
{
	char dir[40], out[96], want[256];
	cmd_result r;

	cmd_run(&r, cli__run, "run", "/nonexistent/prog", "-x", NULL);
	CU_ASSERT_EQUAL(r.status, EXIT_PVMMON);
	CU_ASSERT_STRING_EQUAL(
	    r.err, "pvmmon: run: /nonexistent/prog: no such program (or not executable)\n");
	cmd_free(&r);
	cmd_run(&r, cli__run, "run", "pvmmon-unit-no-such-program", NULL);
	CU_ASSERT_EQUAL(r.status, EXIT_PVMMON);
	CU_ASSERT_STRING_EQUAL(r.err, "pvmmon: run: pvmmon-unit-no-such-program: no such program "
	                              "(or not executable)\n");
	cmd_free(&r);
	/* A log whose folder does not exist. */
	cmd_tmpdir(dir);
	snprintf(out, sizeof(out), "%s/gone/app.xml", dir);
	hooks_set();
	cmd_run(&r, cli__run, "run", "-q", "-o", out, "/bin/true", NULL);
	hooks_restore();
	CU_ASSERT_EQUAL(r.status, EXIT_PVMMON);
	snprintf(want, sizeof(want),
	         "pvmmon: run: cannot write the log '%s' into its folder '%s/gone': No such file "
	         "or directory\n",
	         out, dir);
	CU_ASSERT_STRING_EQUAL(r.err, want);
	cmd_free(&r);
	cmd_remove(dir);
	/* The option reader's own errors: status 2. */
	cmd_run(&r, cli__run, "run", "--frobnicate", "/bin/true", NULL);
	CU_ASSERT_EQUAL(r.status, 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "frobnicate"));
	cmd_free(&r);
	cmd_run(&r, cli__run, "run", "--help", NULL);
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_NSTRING_EQUAL(r.out, "usage: pvmmon run", 17);
	cmd_free(&r);
}

/* Started in a folder that has since been removed, with no absolute -o: the log has
 * no path, which is said (it used to end with status 125 and no word). */
static void test_run_in_removed_folder(void)
{
	int here = open(".", O_RDONLY | O_DIRECTORY);
	char dir[40];
	cmd_result r;

	CU_ASSERT_FATAL(here >= 0);
	cmd_tmpdir(dir);
	CU_ASSERT_EQUAL_FATAL(chdir(dir), 0);
	CU_ASSERT_EQUAL_FATAL(rmdir(dir), 0);
	hooks_set();
	cmd_run(&r, cli__run, "run", "-q", "/bin/true", NULL);
	hooks_restore();
	CU_ASSERT_EQUAL(fchdir(here), 0);
	close(here);
	CU_ASSERT_EQUAL(r.status, EXIT_PVMMON);
	CU_ASSERT_STRING_EQUAL(r.err, "pvmmon: run: cannot name the log: the current folder cannot "
	                              "be found (No such file or directory); give -o with a full "
	                              "path\n");
	cmd_free(&r);
}

/* What pvmmon replay refuses: no log; a log without a replay record. */
static void test_replay_refuses(void)
{
	cmd_result r;

	cmd_run(&r, cli__replay, "replay", NULL);
	CU_ASSERT_EQUAL(r.status, 2);
	CU_ASSERT_STRING_EQUAL(r.err, "pvmmon: replay: which log? (pvmmon replay LOG [--] PROGRAM "
	                              "[ARGS...])\n");
	cmd_free(&r);
	cmd_run(&r, cli__replay, "replay", "-q", "app.xml", "/bin/true", NULL);
	CU_ASSERT_EQUAL(r.status, 2);
	cmd_free(&r);
	cmd_run(&r, cli__replay, "replay", "tests/fixtures/report-matmul.xml", "/bin/true", NULL);
	CU_ASSERT_EQUAL(r.status, EXIT_PVMMON);
	CU_ASSERT_STRING_EQUAL(r.err, "pvmmon: replay: tests/fixtures/report-matmul.xml: the run "
	                              "kept no replay record (it was run with --no-record, or it "
	                              "is a replay itself)\n");
	cmd_free(&r);
	cmd_run(&r, cli__replay, "replay", "--help", NULL);
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_NSTRING_EQUAL(r.out, "usage: pvmmon replay LOG", 24);
	cmd_free(&r);
}

CU_TestInfo test_run_tests[] = {
    {"the run file: its lines, 0600, rewritten, removed", test_run_file},
    {"the run file replaces a symlink, never follows it", test_run_file_symlink},
    {"a run file that cannot be made is said", test_run_file_error},
    {"run refuses a missing program, an unwritable log", test_run_refuses},
    {"run in a removed folder says why it cannot", test_run_in_removed_folder},
    {"replay refuses no log, a log without a record", test_replay_refuses},
    CU_TEST_INFO_NULL,
};
