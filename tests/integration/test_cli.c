/* Integration tests of the pvmmon command's error handling: bad logs, bad options. */
#include <string.h>

#include <CUnit/CUnit.h>

#include "harness.h"

/* One line on stderr that names the file, and a non-zero status. */
static void expect_one_line_error(const char *file, const char *what)
{
	cmd_result r;

	harness_sh(&r, 30, "%s/pvmmon validate '%s'", harness_bin(), file);
	CU_ASSERT_NOT_EQUAL(r.status, 0);
	CU_ASSERT_EQUAL(harness_count(r.err, "\n"), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, file));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, what));
	if (!strstr(r.err, what))
		fprintf(stderr, "\nvalidate said: %s\n", r.err);
	cmd_result_free(&r);
}

static void test_validate_bad_inputs(void)
{
	expect_one_line_error("tests/fixtures/truncated.xml", "well-formed");
	expect_one_line_error("tests/fixtures/not-xml.txt", "well-formed");
	expect_one_line_error("tests/fixtures/version-2.xml", "version");
	expect_one_line_error("tests/fixtures/no-such-log.xml", "no such file");
}

static void test_validate_good_fixture(void)
{
	cmd_result r;

	harness_sh(&r, 30, "%s/pvmmon validate tests/fixtures/valid-1.0.xml", harness_bin());
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "valid"));
	cmd_result_free(&r);
}

static void test_run_missing_program(void)
{
	cmd_result r;

	harness_sh(&r, 30, "%s/pvmmon run -- /nonexistent/prog", harness_bin());
	CU_ASSERT_EQUAL(r.status, 125);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "/nonexistent/prog"));
	cmd_result_free(&r);
}

static void test_run_unwritable_log_folder(void)
{
	cmd_result r;

	harness_sh(&r, 30, "%s/pvmmon run -o /nonexistent/dir/x.xml -- %s/matmul", harness_bin(),
		   harness_bin());
	CU_ASSERT_EQUAL(r.status, 125);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "/nonexistent/dir"));
	cmd_result_free(&r);
}

/*
 * A hostfile that is not PVM 3.4 syntax is refused before anything starts: exit status
 * 125, one line naming the file and the line, the program not run, and no private VM
 * folder and no pvmd left (the VM's folder would be under TMPDIR, which the pvmd's
 * command line names).
 */
static void test_run_bad_hostfile(void)
{
	const char *dir = harness_tmpdir();
	cmd_result r;

	harness_sh(&r, 60,
		   "cd '%s' && mkdir vms && printf '#!/bin/sh\\ntouch ran\\n' > prog && chmod +x prog && "
		   "printf '# two hosts\\nlocalhost\\n\\nnode2 lo=bob colour=red\\n' > hosts && "
		   "TMPDIR=\"$PWD/vms\" %s/pvmmon run --hostfile hosts -o x.xml -- ./prog; s=$?; "
		   "[ -e ran ] && echo PROGRAM-RAN; [ -e x.xml ] && echo LOG-WRITTEN; "
		   "ls -A vms | sed 's/^/LEFT /'; ps -eo args | grep \"[p]vmd.*$PWD/vms\" | "
		   "sed 's/^/PVMD /'; exit $s",
		   dir, harness_bin());
	CU_ASSERT_EQUAL(r.status, 125);
	CU_ASSERT_EQUAL(harness_count(r.err, "\n"), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "pvmmon: run: hosts:4: unknown option 'colour='"));
	CU_ASSERT_STRING_EQUAL(r.out, "");
	if (r.status != 125 || r.out[0] || !strstr(r.err, "hosts:4:"))
		fprintf(stderr, "\n%s\n%s\n", r.out, r.err);
	cmd_result_free(&r);
}

/* A hostfile of comments, defaults and options that names only this machine runs the
 * program on the one host, as without a hostfile. Its defaults line replaces pvmmon's,
 * as PVM does with two of them, so it gives the spawn path itself. */
static void test_run_good_hostfile(void)
{
	const char *dir = harness_tmpdir();
	cmd_result r;

	harness_sh(&r, 120,
		   "cd '%s' && printf '# this machine only\\n* ep=%s sp=1000\\n\\n  localhost \\t "
		   "sp=2000\\n&otherhost lo=nobody\\n' > hosts && "
		   "%s/pvmmon run -q --hostfile hosts -o m.xml -- %s/matmul -n 30 -w 2 && "
		   "%s/pvmmon validate m.xml",
		   dir, harness_bin(), harness_bin(), harness_bin(), harness_bin());
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "checksum"));
	if (r.status)
		fprintf(stderr, "\n%s\n%s\n", r.out, r.err);
	cmd_result_free(&r);
}

static void test_help_and_version(void)
{
	const char *cmds[] = {"--help", "run --help", "validate --help", "report --help",
			      "--version", "run --version"};
	cmd_result r;
	size_t i;

	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		harness_sh(&r, 30, "%s/pvmmon %s", harness_bin(), cmds[i]);
		CU_ASSERT_EQUAL(r.status, 0);
		CU_ASSERT(strstr(r.out, "usage") || strstr(r.out, "pvmmon "));
		cmd_result_free(&r);
	}
	harness_sh(&r, 30, "%s/pvmmon frobnicate", harness_bin());
	CU_ASSERT_EQUAL(r.status, 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "frobnicate"));
	cmd_result_free(&r);
	harness_sh(&r, 30, "%s/pvmmon run --flush-ms abc -- true", harness_bin());
	CU_ASSERT_EQUAL(r.status, 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "abc"));
	cmd_result_free(&r);
}

/* The monitor's options may come in any order and repeat: --cp once freed the run's
 * --stop-at task (its clean-up at the end of main had landed in the option's case), so
 * a second --cp freed it again. */
static void test_monitor_options_repeat(void)
{
	cmd_result r;

	harness_sh(&r, 30, "%s/pvmmon-monitor --stop-at 0.1:2 --cp a --cp b --version",
		   harness_bin());
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "pvmmon-monitor "));
	if (r.status)
		fprintf(stderr, "\n%s\n", r.err);
	cmd_result_free(&r);
}

/* PVMMON_MONITOR_WRAPPER's words go before the monitor's command (make check-valgrind
 * runs every monitor under memcheck that way): here a script that leaves a mark. */
static void test_monitor_wrapper(void)
{
	const char *dir = harness_tmpdir();
	cmd_result r;

	harness_sh(&r, 120,
		   "cd '%s' && printf '#!/bin/sh\\necho \"$@\" > wrapped\\nexec \"$@\"\\n' > wrap && "
		   "chmod +x wrap && PVMMON_MONITOR_WRAPPER=\"$PWD/wrap\" %s/pvmmon run -q -o m.xml -- "
		   "%s/matmul -n 30 -w 2 && grep -c pvmmon-monitor wrapped && %s/pvmmon validate m.xml",
		   dir, harness_bin(), harness_bin(), harness_bin());
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "checksum"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\n1\n"));
	if (r.status)
		fprintf(stderr, "\n%s\n%s\n", r.out, r.err);
	cmd_result_free(&r);
}

CU_TestInfo test_cli_tests[] = {
    {"validate: bad inputs give one clear line", test_validate_bad_inputs},
    {"validate: a good log", test_validate_good_fixture},
    {"run: a missing program", test_run_missing_program},
    {"run: an unwritable log folder", test_run_unwritable_log_folder},
    {"run: a bad hostfile is refused before anything starts", test_run_bad_hostfile},
    {"run: a hostfile with comments, defaults and options", test_run_good_hostfile},
    {"help, version, unknown command, bad option", test_help_and_version},
    {"monitor: options in any order, repeated", test_monitor_options_repeat},
    {"run: PVMMON_MONITOR_WRAPPER runs the monitor through a wrapper", test_monitor_wrapper},
    CU_TEST_INFO_NULL,
};
