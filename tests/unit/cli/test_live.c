/* Unit tests for cli/live.c: the command lines of pvmmon top, cp and ctl and how they
 * find a run's file, up to the point where they would join the run's virtual machine
 * (which needs a running monitor: the integration tests' cli and console suites). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "../../../cli/cli.h"
#include "cmd.h"

typedef struct refusal {
	const char *words[6];
	int status;
	const char *err; /* all of stderr, after "pvmmon: " */
} refusal;

static void check_refusals(int (*fn)(int, char **), const char *name, const refusal *cases,
                           size_t n)
{
	char want[512];

	for (size_t i = 0; i < n; i++) {
		const char *const *w = cases[i].words;
		cmd_result r;

		cmd_run(&r, fn, name, w[0], w[1], w[2], w[3], w[4], w[5], NULL);
		snprintf(want, sizeof(want), "pvmmon: %s\n", cases[i].err);
		CU_ASSERT_EQUAL(r.status, cases[i].status);
		if (strcmp(r.err, want) != 0)
			fprintf(stderr, "\n%s case %zu: stderr '%s'\n", name, i, r.err);
		CU_ASSERT_STRING_EQUAL(r.err, want);
		CU_ASSERT_STRING_EQUAL(r.out, "");
		cmd_free(&r);
	}
}

static void test_cp_command_line(void)
{
	static const refusal cases[] = {
	    {{"frob"}, 2, "cp: unknown command 'frob' (start or stop)"},
	    {{"start"}, 2, "cp start: which procedures? (pvmmon cp start PROC[,PROC...])"},
	    {{"start", "--exclusive"},
	     2,
	     "cp start: which procedures? (pvmmon cp start PROC[,PROC...])"},
	    {{"stop", "--exclusive"}, 2, "cp: unknown option '--exclusive'"},
	    {{"start", "solve", "--all"}, 2, "cp: unknown option '--all'"},
	    {{"stop", "a.xml", "b.xml"}, 2, "cp: one run at a time"},
	    {{"start", "a b"}, 2, "cp start: ' ' cannot be part of a procedure name in 'a b'"},
	    {{"start", "a,,b"},
	     2,
	     "cp start: wants procedure names separated by commas, not 'a,,b'"},
	    {{"start", "solve", "--exclusive", "tests/fixtures/nope.xml"},
	     1,
	     "tests/fixtures/nope.xml: no run in progress (tests/fixtures/nope.xml.run: No such "
	     "file or directory)"},
	};
	cmd_result r;

	check_refusals(cli__cp, "cp", cases, sizeof(cases) / sizeof(cases[0]));
	/* No command: the usage on stderr, 2; --help: on stdout, 0. */
	cmd_run(&r, cli__cp, "cp", NULL);
	CU_ASSERT_EQUAL(r.status, 2);
	CU_ASSERT_NSTRING_EQUAL(r.err, "usage: pvmmon cp start", 22);
	cmd_free(&r);
	cmd_run(&r, cli__cp, "cp", "--help", NULL);
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_NSTRING_EQUAL(r.out, "usage: pvmmon cp start", 22);
	cmd_free(&r);
}

static void test_ctl_command_line(void)
{
	static const refusal cases[] = {
	    {{"frob"}, 2, "ctl: unknown command 'frob' (enable, disable, histogram or sample)"},
	    {{"enable"},
	     2,
	     "ctl enable: which sites? (a RESOURCE such as proc=solve, or all; see pvmmon ctl "
	     "--help)"},
	    {{"disable", "-v"},
	     2,
	     "ctl disable: which sites? (a RESOURCE such as proc=solve, or all; see pvmmon ctl "
	     "--help)"},
	    {{"enable", "bogus=1"},
	     2,
	     "ctl enable: resource: unknown term 'bogus' (task=, file=, proc=, line=, kind=, "
	     "loop=, stmt=, or all)"},
	    {{"disable", "all", "a.xml", "b.xml"}, 2, "ctl: one run at a time"},
	    {{"enable", "all", "-x"}, 2, "ctl: unknown option '-x'"},
	    {{"histogram"}, 2, "ctl histogram: which? (METRIC:FOCUS such as wait:program)"},
	    {{"histogram", "--off"},
	     2,
	     "ctl histogram: which? (METRIC:FOCUS such as wait:program)"},
	    {{"histogram", "nonsense:x"},
	     2,
	     "ctl histogram: histogram 'nonsense:x': unknown metric (compute, wait, pvm, overhead, "
	     "msgs-sent, bytes-sent, msgs-recv, bytes-recv, calls, time)"},
	    {{"histogram", "--bad"}, 2, "ctl histogram: unknown option '--bad'"},
	    {{"histogram", "wait:program", "a.xml", "b.xml"}, 2, "ctl: one run at a time"},
	    {{"enable", "proc=solve", "tests/fixtures/nope.xml"},
	     1,
	     "tests/fixtures/nope.xml: no run in progress (tests/fixtures/nope.xml.run: No such "
	     "file or directory)"},
	    {{"histogram", "--off", "wait:program", "tests/fixtures/nope.run"},
	     1,
	     "tests/fixtures/nope.run: no run in progress (tests/fixtures/nope.run: No such file "
	     "or directory)"},
	};
	cmd_result r;

	check_refusals(cli__ctl, "ctl", cases, sizeof(cases) / sizeof(cases[0]));
	cmd_run(&r, cli__ctl, "ctl", NULL);
	CU_ASSERT_EQUAL(r.status, 2);
	CU_ASSERT_NSTRING_EQUAL(r.err, "usage: pvmmon ctl enable|disable", 32);
	cmd_free(&r);
	cmd_run(&r, cli__ctl, "ctl", "-h", NULL);
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_NSTRING_EQUAL(r.out, "usage: pvmmon ctl enable|disable", 32);
	cmd_free(&r);
}

static void test_top_command_line(void)
{
	static const refusal cases[] = {
	    {{"--bogus"}, 2, "top: unknown option '--bogus'"},
	    {{"a.xml", "--once", "b.xml"}, 2, "top: one run at a time"},
	    {{"--once", "tests/fixtures/nope.xml"},
	     1,
	     "tests/fixtures/nope.xml: no run in progress (tests/fixtures/nope.xml.run: No such "
	     "file or directory)"},
	};
	cmd_result r;

	check_refusals(cli__top, "top", cases, sizeof(cases) / sizeof(cases[0]));
	cmd_run(&r, cli__top, "top", "--help", NULL);
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_NSTRING_EQUAL(r.out, "usage: pvmmon top", 17);
	cmd_free(&r);
}

/*
 * Without a log, the only *.run file of the current folder: none and several are said;
 * a file that is not a run file (no pvm_tmp or token line) is refused before PVM is
 * touched.
 */
static void test_run_file_lookup(void)
{
	static const refusal none[] = {
	    {{"stop"},
	     1,
	     "no run in progress here (no *.run file beside a log); give the log of "
	     "the run"},
	};
	static const refusal bad[] = {
	    {{"stop"}, 1, "a.run: not a pvmmon run file (no pvm_tmp or token line)"},
	};
	static const refusal bad_token[] = {
	    {{"stop", "a.xml"}, 1, "a.xml.run: not a pvmmon run file (no pvm_tmp or token line)"},
	};
	static const refusal several[] = {
	    {{"stop"},
	     1,
	     "several runs in progress here (a.run, a.xml.run, ...); give the log of one"},
	};
	char dir[40];
	int here = open(".", O_RDONLY | O_DIRECTORY);

	CU_ASSERT_FATAL(here >= 0);
	cmd_tmpdir(dir);
	CU_ASSERT_EQUAL_FATAL(chdir(dir), 0);
	check_refusals(cli__cp, "cp", none, 1);
	cmd_write("a.run", "log=a.xml\npid=1\n");
	check_refusals(cli__cp, "cp", bad, 1);
	cmd_write("a.xml.run", "pvm_tmp=/tmp\ntoken=0\n");
	check_refusals(cli__cp, "cp", bad_token, 1);
	cmd_write("b.run", "pvm_tmp=/tmp\ntoken=00000000000000ab\n");
	check_refusals(cli__cp, "cp", several, 1);
	CU_ASSERT_EQUAL(fchdir(here), 0);
	close(here);
	cmd_remove(dir);
}

CU_TestInfo test_live_tests[] = {
    {"cp: bad command lines, a run that is not there", test_cp_command_line},
    {"ctl: bad command lines, resources, histograms", test_ctl_command_line},
    {"top: bad command lines", test_top_command_line},
    {"the run file: found, not found, several, not one", test_run_file_lookup},
    CU_TEST_INFO_NULL,
};
