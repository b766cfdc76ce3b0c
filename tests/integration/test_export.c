/*
 * Integration tests of `pvmmon export`: traced runs of matmul and of Monte Carlo pi
 * built with pvmmon-cc (procedures and loops) exported as CSV and JSON, loaded with
 * python3's csv module and checked against `pvmmon report --text` of the same log
 * (tests/integration/export_check.py), the JSON validated against
 * doc/pvmmon-export.schema.json with jsonschema; logs with a critical path and hangs
 * from the fixtures; the same runs as OTF2 archives read by otf2-print and python3-otf2
 * (tests/integration/otf2_check.py), and as Perfetto traces checked against the Trace
 * Event Format and the log (tests/integration/perfetto_check.py); bad input and options.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "harness.h"

/* Runs the checker on log (relative to the tree or absolute) into a new scratch folder;
 * pvmmon is the command it runs (the real one, or a wrapper). */
static void check_export(const char *pvmmon, const char *log)
{
	cmd_result r;

	harness_sh(&r, 120,
	           "/usr/bin/python3 tests/integration/export_check.py '%s' '%s' '%s' "
	           "doc/pvmmon-export.schema.json",
	           pvmmon, log, harness_tmpdir());
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "export-check ok"));
	if (r.status)
		fprintf(stderr, "\nexport check of %s: %s\n%s\n", log, r.out, r.err);
	cmd_result_free(&r);
}

/* Exports log as OTF2 into a new scratch folder and checks the archive with otf2-print
 * and python3-otf2 against the log's trace (tests/integration/otf2_check.py; Debian's
 * python3, which has the otf2 module). */
static void check_otf2(const char *pvmmon, const char *log)
{
	cmd_result r;

	harness_sh(&r, 120, "/usr/bin/python3 tests/integration/otf2_check.py '%s' '%s' '%s/otf2'",
	           pvmmon, log, harness_tmpdir());
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "otf2-check ok"));
	if (r.status)
		fprintf(stderr, "\nOTF2 check of %s: %s\n%s\n", log, r.out, r.err);
	cmd_result_free(&r);
}

/* Exports log as a Perfetto trace (virtual time, then real) into a new scratch folder
 * and checks it against the Trace Event Format and the log's trace
 * (tests/integration/perfetto_check.py, python3's json module). */
static void check_perfetto(const char *pvmmon, const char *log)
{
	static const char *const clocks[] = {"", "--time real"};

	for (size_t i = 0; i < 2; i++) {
		cmd_result r;

		harness_sh(&r, 120,
		           "/usr/bin/python3 tests/integration/perfetto_check.py '%s' '%s' "
		           "'%s/trace.json' %s",
		           pvmmon, log, harness_tmpdir(), clocks[i]);
		CU_ASSERT_EQUAL(r.status, 0);
		CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "perfetto-check ok"));
		if (r.status)
			fprintf(stderr, "\nPerfetto check of %s %s: %s\n%s\n", log, clocks[i],
			        r.out, r.err);
		cmd_result_free(&r);
	}
}

/* Sampled as well (--sample), so that the samples' tables are checked against the
 * report's sampled sections, each task's and all tasks' merged. */
static void test_export_matmul(void)
{
	const char *dir = harness_tmpdir();
	char pvmmon[4200], log[4200];
	cmd_result r;

	snprintf(pvmmon, sizeof(pvmmon), "%s/pvmmon", harness_bin());
	snprintf(log, sizeof(log), "%s/m.xml", dir);
	harness_sh(&r, 120, "%s run -q --trace --sample=997 -o '%s' -- %s/matmul -n 30 -w 2", pvmmon, log,
	           harness_bin());
	CU_ASSERT_EQUAL_FATAL(r.status, 0);
	cmd_result_free(&r);
	check_export(pvmmon, log);
	check_otf2(pvmmon, log);
	check_perfetto(pvmmon, log);
}

/* mcpi built with pvmmon-cc: procedure and loop tables, and the critical path of main. */
static void test_export_mcpi_cc(void)
{
	const char *dir = harness_tmpdir();
	char pvmmon[4200];
	cmd_result r;

	snprintf(pvmmon, sizeof(pvmmon), "%s/pvmmon", harness_bin());
	harness_sh(&r, 180,
	           "cd '%s' && %s/pvmmon-cc -g -O2 -o mcpi %s/../apps/mcpi.c -lpvm3 && "
	           "%s/pvmmon-cc -g -O2 -o mcpi-worker %s/../apps/mcpi-worker.c -lpvm3 && "
	           "%s run -q --trace --cp=main --sample=997 -o m.xml -- ./mcpi -w 2 -c 20 -s 100000",
	           dir, harness_bin(), harness_build(), harness_bin(), harness_build(), pvmmon);
	if (r.status)
		fprintf(stderr, "\n%s%s\n", r.out, r.err);
	CU_ASSERT_EQUAL_FATAL(r.status, 0);
	cmd_result_free(&r);
	{
		char log[4200];

		snprintf(log, sizeof(log), "%s/m.xml", dir);
		check_export(pvmmon, log);
		check_otf2(pvmmon, log);
		check_perfetto(pvmmon, log);
		/* With --cp=main, the critical path's thread (perfetto_check.py has checked its
		 * length against the log's). */
		harness_sh(&r, 60, "%s export '%s' --perfetto '%s/cp.json'", pvmmon, log, dir);
		CU_ASSERT_EQUAL(r.status, 0);
		CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "the critical path as its own thread"));
		cmd_result_free(&r);
	}
}

/* A traced ping-pong exported for Perfetto: every message an arrow from its send to its
 * receive (checked against the log by perfetto_check.py, and counted here: 20 pings,
 * 20 pongs and the stop); traced fixtures with a critical path, an interval profile and a cut
 * trace; a run without a trace refused with the file named. */
static void test_export_perfetto(void)
{
	const char *dir = harness_tmpdir();
	char pvmmon[4200], log[4200];
	static const char *const logs[] = {"cp-issort", "cp-ring-interval", "report-trace",
	                                   "report-trace-cut"};
	cmd_result r;

	snprintf(pvmmon, sizeof(pvmmon), "%s/pvmmon", harness_bin());
	snprintf(log, sizeof(log), "%s/pp.xml", dir);
	harness_sh(&r, 120, "%s run -q --trace -o '%s' -- %s/pingpong -n 20 -w 0", pvmmon, log,
	           harness_bin());
	CU_ASSERT_EQUAL_FATAL(r.status, 0);
	cmd_result_free(&r);
	check_perfetto(pvmmon, log);
	harness_sh(&r, 60,
	           "%s export '%s' --perfetto - | /usr/bin/python3 -c 'import json,sys; "
	           "d=json.load(sys.stdin); print(sum(e[\"ph\"] == \"s\" and "
	           "e[\"name\"] == \"message\" for e in d[\"traceEvents\"]))'",
	           pvmmon, log);
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_STRING_EQUAL(r.out, "41\n");
	if (strcmp(r.out, "41\n"))
		fprintf(stderr, "\nping-pong's arrows: %s\n%s\n", r.out, r.err);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "41 message arrows"));
	cmd_result_free(&r);
	for (size_t i = 0; i < sizeof(logs) / sizeof(logs[0]); i++) {
		snprintf(log, sizeof(log), "tests/fixtures/%s.xml", logs[i]);
		check_perfetto(pvmmon, log);
	}
	harness_sh(&r, 30, "%s export tests/fixtures/report-matmul.xml --perfetto '%s/x.json'",
	           pvmmon, dir);
	CU_ASSERT_EQUAL(r.status, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "report-matmul.xml has no event trace"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "pvmmon run --trace"));
	cmd_result_free(&r);
	harness_sh(&r, 30, "test ! -e '%s/x.json'", dir);
	CU_ASSERT_EQUAL(r.status, 0);
	cmd_result_free(&r);
}

/* Logs that need no VM: a critical-path profile, recursion (24 procedures mutually in
 * report-mutual24), hangs, a pvmmon-cc build. */
static void test_export_fixtures(void)
{
	static const char *const logs[] = {"cp-issort", "report-proctest", "report-hangs",
	                                   "report-matmul-cc", "report-trace-cut", "report-mutual24"};
	char pvmmon[4200], log[256];

	snprintf(pvmmon, sizeof(pvmmon), "%s/pvmmon", harness_bin());
	for (size_t i = 0; i < sizeof(logs) / sizeof(logs[0]); i++) {
		snprintf(log, sizeof(log), "tests/fixtures/%s.xml", logs[i]);
		check_export(pvmmon, log);
		check_otf2(pvmmon, log);
	}
}

/* OTF2 details: real time orders differently but reads as well; an archive is never
 * overwritten; a run without a trace gives its profile and says how to get a trace. */
static void test_export_otf2_options(void)
{
	const char *dir = harness_tmpdir();
	cmd_result r;

	harness_sh(&r, 60,
	           "%s/pvmmon export tests/fixtures/report-trace.xml --otf2 '%s/o' --time real && "
	           "otf2-print '%s/o/traces.otf2' | grep -c '^MPI_SEND'",
	           harness_bin(), dir, dir);
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_STRING_EQUAL(r.out, "30\n");
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "(real time)"));
	cmd_result_free(&r);
	harness_sh(&r, 60, "%s/pvmmon export tests/fixtures/report-trace.xml --otf2 '%s/o'",
	           harness_bin(), dir);
	CU_ASSERT_EQUAL(r.status, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "already holds an OTF2 archive"));
	cmd_result_free(&r);
	harness_sh(&r, 60, "%s/pvmmon export tests/fixtures/report-matmul.xml --otf2 '%s/p'",
	           harness_bin(), dir);
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "pvmmon run --trace"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "the run's profile, 14 samples"));
	cmd_result_free(&r);
	/* Without a trace, the profile: statements, procedures and loops of a pvmmon-cc
	 * build as metric samples that otf2-print and python3-otf2 read back. */
	{
		char pvmmon[4200];

		snprintf(pvmmon, sizeof(pvmmon), "%s/pvmmon", harness_bin());
		check_otf2(pvmmon, "tests/fixtures/report-matmul-cc.xml");
	}
	harness_sh(&r, 60, "%s/pvmmon export tests/fixtures/report-trace.xml --otf2 x --time wall",
	           harness_bin());
	CU_ASSERT_EQUAL(r.status, 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "--time wants virtual or real"));
	cmd_result_free(&r);
}

/* The checker fails when an exported figure differs from the report's: a pvmmon whose
 * export writes one task's sent count wrong. */
static void test_export_check_can_fail(void)
{
	const char *dir = harness_tmpdir();
	cmd_result r;

	harness_sh(
	    &r, 60,
	    "cd '%s' && printf '#!/bin/sh\\n%s/pvmmon \"$@\" || exit $?\\n"
	    "[ \"$1\" = export ] && sed -i \"2s/,12,6,/,13,6,/\" \"$4/tasks.csv\"\\nexit 0\\n' "
	    "> bad && chmod +x bad && cd - >/dev/null && /usr/bin/python3 "
	    "tests/integration/export_check.py '%s/bad' tests/fixtures/report-matmul.xml "
	    "'%s' doc/pvmmon-export.schema.json",
	    dir, harness_bin(), dir, harness_tmpdir());
	CU_ASSERT_NOT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "task 0"));
	cmd_result_free(&r);
}

static void test_export_bad_input(void)
{
	const char *dir = harness_tmpdir();
	cmd_result r;

	harness_sh(&r, 30, "%s/pvmmon export tests/fixtures/not-xml.txt --csv '%s/out'",
	           harness_bin(), dir);
	CU_ASSERT_EQUAL(r.status, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "not-xml.txt"));
	cmd_result_free(&r);
	harness_sh(&r, 30, "test ! -e '%s/out'", dir);
	CU_ASSERT_EQUAL(r.status, 0);
	cmd_result_free(&r);

	harness_sh(&r, 30, "%s/pvmmon export tests/fixtures/truncated.xml --json '%s/x.json'",
	           harness_bin(), dir);
	CU_ASSERT_EQUAL(r.status, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "truncated.xml"));
	cmd_result_free(&r);

	harness_sh(&r, 30, "%s/pvmmon export tests/fixtures/report-matmul.xml", harness_bin());
	CU_ASSERT_EQUAL(r.status, 2);
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(r.err, "--csv DIR, --json FILE, --otf2 DIR or --perfetto FILE"));
	cmd_result_free(&r);

	harness_sh(&r, 30, "%s/pvmmon export tests/fixtures/report-matmul.xml --csv",
	           harness_bin());
	CU_ASSERT_EQUAL(r.status, 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "--csv needs a value"));
	cmd_result_free(&r);

	harness_sh(&r, 30, "%s/pvmmon export tests/fixtures/report-matmul.xml --xml x",
	           harness_bin());
	CU_ASSERT_EQUAL(r.status, 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "unknown option '--xml'"));
	cmd_result_free(&r);

	/* A folder where a file is: the error names it. */
	harness_sh(&r, 30,
	           "touch '%s/file' && %s/pvmmon export tests/fixtures/report-matmul.xml "
	           "--csv '%s/file'",
	           dir, harness_bin(), dir);
	CU_ASSERT_EQUAL(r.status, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "file is not a folder"));
	cmd_result_free(&r);

	harness_sh(&r, 30, "%s/pvmmon export --help", harness_bin());
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "--json FILE"));
	cmd_result_free(&r);

	/* JSON to standard output. */
	harness_sh(&r, 30,
	           "%s/pvmmon export tests/fixtures/report-matmul.xml --json - | "
	           "/usr/bin/python3 -c 'import json,sys; d=json.load(sys.stdin); "
	           "print(len(d[\"tables\"][\"tasks\"]))'",
	           harness_bin());
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_STRING_EQUAL(r.out, "4\n");
	cmd_result_free(&r);
}

/* perfetto_check.py fails on a document that breaks the format: a pvmmon whose Perfetto
 * export loses one message's arrow end, and one whose slices lose their durations. */
static void test_export_perfetto_check_can_fail(void)
{
	static const char *const breaks[] = {
	    "f = [e for e in d['traceEvents'] if e['ph'] == 'f'][0]; d['traceEvents'].remove(f)",
	    "[e.pop('dur') for e in d['traceEvents'] if e['ph'] == 'X']",
	};
	const char *dir = harness_tmpdir();

	for (size_t i = 0; i < sizeof(breaks) / sizeof(breaks[0]); i++) {
		char bad[4200];
		cmd_result r;
		FILE *f;

		snprintf(bad, sizeof(bad), "%s/bad%zu", dir, i);
		f = fopen(bad, "w");
		CU_ASSERT_PTR_NOT_NULL_FATAL(f);
		fprintf(f,
		        "#!/bin/sh\n%s/pvmmon \"$@\" || exit $?\n"
		        "/usr/bin/python3 -c \"import json, sys\n"
		        "d = json.load(open(sys.argv[1]))\n%s\n"
		        "json.dump(d, open(sys.argv[1], 'w'))\" \"$4\"\n",
		        harness_bin(), breaks[i]);
		fclose(f);
		harness_sh(&r, 60,
		           "chmod +x '%s' && /usr/bin/python3 tests/integration/perfetto_check.py "
		           "'%s' tests/fixtures/report-trace.xml '%s/t.json'",
		           bad, bad, dir);
		CU_ASSERT_NOT_EQUAL(r.status, 0);
		CU_ASSERT_PTR_NULL(strstr(r.out, "perfetto-check ok"));
		CU_ASSERT_PTR_NOT_NULL(
		    strstr(r.out, i == 0 ? "flow starts and ends" : "X without a duration"));
		if (!strstr(r.out, i == 0 ? "flow starts and ends" : "X without a duration"))
			fprintf(stderr, "\nbroken check %zu: %s\n%s\n", i, r.out, r.err);
		cmd_result_free(&r);
	}
}

CU_TestInfo test_export_tests[] = {
    {"export: a traced matmul run matches the text report", test_export_matmul},
    {"export: mcpi built with pvmmon-cc matches the text report", test_export_mcpi_cc},
    {"export: fixture logs match the text report", test_export_fixtures},
    {"export: the check fails on a wrong figure", test_export_check_can_fail},
    {"export: OTF2 in real time, no overwrite, a run without a trace", test_export_otf2_options},
    {"export: bad logs and options", test_export_bad_input},
    {"export: Perfetto traces of ping-pong and fixtures", test_export_perfetto},
    {"export: the Perfetto check fails on a broken document", test_export_perfetto_check_can_fail},
    CU_TEST_INFO_NULL,
};
