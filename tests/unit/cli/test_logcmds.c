/* Unit tests for cli/logcmds.c: pvmmon validate and pvmmon report on logs of
 * tests/fixtures, their options and what they refuse. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "../../../cli/cli.h"
#include "cmd.h"
#include "pvmmon/log.h"
#include "pvmmon/report.h"

#define FIX "tests/fixtures/"

static void test_validate(void)
{
	cmd_result r;

	/* One line per log, valid ones on stdout with their version, the others' errors
	 * naming them on stderr; 1 if any is bad. */
	cmd_run(&r, cli__validate, "validate", FIX "valid-1.0.xml", FIX "not-xml.txt",
	        FIX "report-hist.xml", FIX "version-2.xml", NULL);
	CU_ASSERT_EQUAL(r.status, 1);
	CU_ASSERT_STRING_EQUAL(r.out, FIX "valid-1.0.xml: valid pvmmon log 1.0\n" FIX
	                                  "report-hist.xml: valid pvmmon log 1.6\n");
	CU_ASSERT_STRING_EQUAL(r.err, "pvmmon: " FIX "not-xml.txt: not a well-formed XML file "
	                              "(line 1: Start tag expected, '<' not found)\n"
	                              "pvmmon: " FIX "version-2.xml: log format version 2.0 is "
	                              "not supported (this pvmmon reads 1.x)\n");
	cmd_free(&r);
	cmd_run(&r, cli__validate, "validate", FIX "report-trace.xml", NULL);
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_STRING_EQUAL(r.out, FIX "report-trace.xml: valid pvmmon log 1.1\n");
	CU_ASSERT_STRING_EQUAL(r.err, "");
	cmd_free(&r);
	cmd_run(&r, cli__validate, "validate", FIX "nope.xml", NULL);
	CU_ASSERT_EQUAL(r.status, 1);
	CU_ASSERT_STRING_EQUAL(r.err, "pvmmon: " FIX "nope.xml: no such file\n");
	cmd_free(&r);
	/* No log: the usage, 2; an unknown option, 2, before any log is read. */
	cmd_run(&r, cli__validate, "validate", NULL);
	CU_ASSERT_EQUAL(r.status, 2);
	CU_ASSERT_NSTRING_EQUAL(r.err, "usage: pvmmon validate LOG...", 29);
	cmd_free(&r);
	cmd_run(&r, cli__validate, "validate", FIX "valid-1.0.xml", "--strict", NULL);
	CU_ASSERT_EQUAL(r.status, 2);
	CU_ASSERT_STRING_EQUAL(r.out, "");
	CU_ASSERT_STRING_EQUAL(r.err, "pvmmon: validate: unknown option '--strict'\n");
	cmd_free(&r);
	cmd_run(&r, cli__validate, "validate", "--help", NULL);
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_NSTRING_EQUAL(r.out, "usage: pvmmon validate LOG...", 29);
	cmd_free(&r);
}

/* Each bad report command line: status 2 and one line saying what is wrong. */
static void test_report_refuses(void)
{
	static const struct {
		const char *words[6];
		const char *err;
	} cases[] = {
	    {{"a.xml", "b.xml"}, "report: one log at a time ('a.xml' and 'b.xml')"},
	    {{"a.xml", "--colour"}, "report: unknown option '--colour'"},
	    {{"a.xml", "--format", "gif", "-o", "d"},
	     "report: unknown format 'gif' (svg, png or pdf)"},
	    {{"a.xml", "-o", "d", "--prune", "101"},
	     "report: --prune wants a percentage from 0 to 100, not '101'"},
	    {{"a.xml", "-o", "d", "--prune", "5%"},
	     "report: --prune wants a percentage from 0 to 100, not '5%'"},
	    {{"a.xml", "-o", "d", "--time", "wall"},
	     "report: --time wants virtual, real or both, not 'wall'"},
	    {{"a.xml", "--compensation=some"},
	     "report: --compensation wants none, local or parallel, not 'some'"},
	    {{"a.xml", "--compensation"}, "report: --compensation needs a value"},
	    {{"a.xml", "-o"}, "report: -o needs a value"},
	    {{"a.xml", "--prune"}, "report: --prune needs a value"},
	    {{"a.xml", "--between", "2s", "1s"},
	     "report: --between: T0 (2s) must come before T1 (1s)"},
	    {{"a.xml", "--between", "1s"},
	     "report: --between needs two times (T0 T1, such as 1.5s 2s)"},
	    {{"a.xml", "--between", "1s", "soon"},
	     "report: --between: 'soon' is not a time (a number and a unit: 1.5s, 200ms, 30us, "
	     "500ns)"},
	    {{"a.xml", "--dot"}, "report: --format, --dot, --prune and --time need -o DIR"},
	    {{"a.xml", "--time", "both"},
	     "report: --format, --dot, --prune and --time need -o DIR"},
	    {{"a.xml", "-o", "d", "--between", "1s", "2s"},
	     "report: --between is for the text report (no -o)"},
	};
	char want[256];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *const *w = cases[i].words;
		cmd_result r;

		cmd_run(&r, cli__report, "report", w[0], w[1], w[2], w[3], w[4], w[5], NULL);
		snprintf(want, sizeof(want), "pvmmon: %s\n", cases[i].err);
		CU_ASSERT_EQUAL(r.status, 2);
		if (strcmp(r.err, want) != 0)
			fprintf(stderr, "\ncase %zu: stderr '%s'\n", i, r.err);
		CU_ASSERT_STRING_EQUAL(r.err, want);
		CU_ASSERT_STRING_EQUAL(r.out, "");
		cmd_free(&r);
	}
	/* No log: the usage. */
	{
		cmd_result r;

		cmd_run(&r, cli__report, "report", "--text", NULL);
		CU_ASSERT_EQUAL(r.status, 2);
		CU_ASSERT_NSTRING_EQUAL(r.err, "usage: pvmmon report LOG", 24);
		cmd_free(&r);
	}
}

/* The text report of the log at path (with between, of the interval t0, t1), its times
 * made those of compensation c first. */
static char *expected(const char *path, pvmmon_comp c, int between, int64_t t0, int64_t t1)
{
	pvmmon_log *log = NULL;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&log, path), 0);
	if (c != PVMMON_COMP_PARALLEL) {
		CU_ASSERT_EQUAL(pvmmon_log_use_times(log, c), 0);
	}
	f = open_memstream(&text, &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	if (between) {
		CU_ASSERT_EQUAL(pvmmon_report_text_between(log, t0, t1, f), 0);
	} else {
		CU_ASSERT_EQUAL(pvmmon_report_text(log, f), 0);
	}
	fclose(f);
	pvmmon_log_free(log);
	return text;
}

static void test_report_text(void)
{
	char dir[40], path[80], *want, *other;
	pvmmon_log *log = NULL;
	cmd_result r;

	/* The summary, as graphs/text_report.c writes it. */
	want = expected(FIX "report-matmul-cc.xml", PVMMON_COMP_PARALLEL, 0, 0, 0);
	cmd_run(&r, cli__report, "report", FIX "report-matmul-cc.xml", "--text", NULL);
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_STRING_EQUAL(r.out, want);
	CU_ASSERT_STRING_EQUAL(r.err, "");
	cmd_free(&r);
	/* A log without real times asked for them: said, and the virtual ones shown. */
	cmd_run(&r, cli__report, "report", "--compensation", "none", FIX "report-matmul-cc.xml",
	        NULL);
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_STRING_EQUAL(r.out, want);
	CU_ASSERT_STRING_EQUAL(
	    r.err, "pvmmon: the log has no raw or local times (task 0; logs before "
	           "version 1.2 have virtual times only): showing parallel compensation "
	           "(virtual time) instead of none\n");
	cmd_free(&r);
	free(want);
	/* One with them: the real times. */
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&log, FIX "report-matmul-cc.xml"), 0);
	for (size_t i = 0; i < log->ntasks; i++) {
		pvmmon_log_task *t = &log->tasks[i];

		t->has_raw = 1;
		for (size_t k = 0; k < t->nprocs; k++) {
			t->procs[k].raw_incl_ns = 3 * t->procs[k].incl_ns + 1000;
			t->procs[k].raw_excl_ns = 3 * t->procs[k].excl_ns + 1000;
		}
	}
	cmd_tmpdir(dir);
	snprintf(path, sizeof(path), "%s/raw.xml", dir);
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_write(log, path), 0);
	pvmmon_log_free(log);
	want = expected(path, PVMMON_COMP_NONE, 0, 0, 0);
	other = expected(path, PVMMON_COMP_PARALLEL, 0, 0, 0);
	CU_ASSERT_NOT_EQUAL(strcmp(want, other), 0);
	cmd_run(&r, cli__report, "report", path, "--compensation=none", NULL);
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_STRING_EQUAL(r.out, want);
	CU_ASSERT_STRING_EQUAL(r.err, "");
	cmd_free(&r);
	cmd_run(&r, cli__report, "report", path, NULL);
	CU_ASSERT_STRING_EQUAL(r.out, other);
	cmd_free(&r);
	free(want);
	free(other);
	cmd_remove(dir);
}

/* --between: the interval's figures from the histograms; a log without them is said
 * with its name. */
static void test_report_between(void)
{
	char *want = expected(FIX "report-hist.xml", PVMMON_COMP_PARALLEL, 1, 100000000, 200000000);
	cmd_result r;

	cmd_run(&r, cli__report, "report", FIX "report-hist.xml", "--between", "0.1s", "200ms",
	        NULL);
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_STRING_EQUAL(r.out, want);
	CU_ASSERT_NSTRING_EQUAL(r.out, "Run: /work/threephase, from 100.00 ms to 200.00 ms", 50);
	cmd_free(&r);
	free(want);
	cmd_run(&r, cli__report, "report", FIX "report-matmul.xml", "--between", "1ms", "2ms",
	        NULL);
	CU_ASSERT_EQUAL(r.status, 1);
	CU_ASSERT_STRING_EQUAL(r.err, "pvmmon: " FIX "report-matmul.xml: the log has no time "
	                              "histograms, so no interval can be shown (a run of pvmmon "
	                              "1.6 or later keeps them)\n");
	cmd_free(&r);
	cmd_run(&r, cli__report, "report", FIX "nope.xml", NULL);
	CU_ASSERT_EQUAL(r.status, 1);
	CU_ASSERT_STRING_EQUAL(r.err, "pvmmon: " FIX "nope.xml: no such file\n");
	cmd_free(&r);
}

/* -o DIR: the HTML report with its pictures in the format asked for, the Graphviz
 * sources with --dot. */
static void test_report_html(void)
{
	char dir[40], out[64], path[128], want[128];
	cmd_result r;

	cmd_tmpdir(dir);
	snprintf(out, sizeof(out), "%s/rep", dir);
	cmd_run(&r, cli__report, "report", FIX "report-matmul.xml", "-o", out, "--format", "png",
	        "--dot", "--prune", "0", NULL);
	CU_ASSERT_EQUAL(r.status, 0);
	snprintf(want, sizeof(want), "pvmmon: report written to %s/index.html\n", out);
	CU_ASSERT_STRING_EQUAL(r.out, want);
	CU_ASSERT_STRING_EQUAL(r.err, "");
	cmd_free(&r);
	snprintf(path, sizeof(path), "%s/index.html", out);
	CU_ASSERT_EQUAL(access(path, R_OK), 0);
	snprintf(path, sizeof(path), "%s/program-0.png", out);
	CU_ASSERT_EQUAL(access(path, R_OK), 0);
	snprintf(path, sizeof(path), "%s/program-0.dot", out);
	CU_ASSERT_EQUAL(access(path, R_OK), 0);
	snprintf(path, sizeof(path), "%s/program-0.svg", out);
	CU_ASSERT_NOT_EQUAL(access(path, F_OK), 0);
	cmd_remove(dir);
}

CU_TestInfo test_logcmds_tests[] = {
    {"validate: a line per log, errors naming the file", test_validate},
    {"report: bad command lines say what is wrong", test_report_refuses},
    {"report: the text summary, compensations", test_report_text},
    {"report: --between, logs that cannot be shown", test_report_between},
    {"report: -o DIR with --format, --dot", test_report_html},
    CU_TEST_INFO_NULL,
};
