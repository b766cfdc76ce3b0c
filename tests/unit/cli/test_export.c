/* Unit tests for cli/export.c: pvmmon export's command line, and the CSV, JSON and OTF2
 * it writes for logs of tests/fixtures, compared with what graphs/ and export/ write
 * for the same log. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "../../../cli/cli.h"
#include "../../../export/otf2.h"
#include "cmd.h"
#include "pvmmon/export.h"
#include "pvmmon/log.h"

#define MATMUL "tests/fixtures/report-matmul.xml"
#define TRACE "tests/fixtures/report-trace.xml"
#define TRACE_CUT "tests/fixtures/report-trace-cut.xml"

static void test_command_line(void)
{
	static const struct {
		const char *words[5];
		const char *err;
	} cases[] = {
	    {{"--csv", "d"}, "pvmmon: export: no log given\nusage: pvmmon export LOG"},
	    {{MATMUL}, "pvmmon: export: say --csv DIR, --json FILE, --otf2 DIR or --perfetto FILE\nusage: "},
	    {{MATMUL, "--json"}, "pvmmon: export: --json needs a value\n"},
	    {{MATMUL, "--perfetto"}, "pvmmon: export: --perfetto needs a value\n"},
	    {{TRACE, "--json", "-", "--perfetto", "-"},
	     "pvmmon: export: --json - and --perfetto - would share standard output\n"},
	    {{MATMUL, "--otf2", "d", "--time"}, "pvmmon: export: --time needs a value\n"},
	    {{MATMUL, "--otf2", "d", "--time", "wall"},
	     "pvmmon: export: --time wants virtual or real, not 'wall'\n"},
	    {{MATMUL, "--xml", "f"},
	     "pvmmon: export: unknown option '--xml' (see pvmmon export "
	     "--help)\n"},
	    {{MATMUL, TRACE, "--json", "-"},
	     "pvmmon: export: one log at a time "
	     "('" MATMUL "' and '" TRACE "')\n"},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *const *w = cases[i].words;
		cmd_result r;

		cmd_run(&r, cli__export, "export", w[0], w[1], w[2], w[3], w[4], NULL);
		CU_ASSERT_EQUAL(r.status, 2);
		if (strncmp(r.err, cases[i].err, strlen(cases[i].err)) != 0)
			fprintf(stderr, "\ncase %zu: stderr '%s'\n", i, r.err);
		CU_ASSERT_NSTRING_EQUAL(r.err, cases[i].err, strlen(cases[i].err));
		CU_ASSERT_STRING_EQUAL(r.out, "");
		cmd_free(&r);
	}
}

/* --json FILE and --json -: the document graphs/export.c makes, whole; in a file,
 * written aside and renamed (nothing else left beside it). */
static void test_json(void)
{
	char dir[40], path[80], tmp[160], *want = NULL, *got;
	pvmmon_log *log = NULL;
	size_t len = 0;
	cmd_result r;
	FILE *f;

	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&log, MATMUL), 0);
	f = open_memstream(&want, &len);
	CU_ASSERT_EQUAL_FATAL(pvmmon_export_json(log, f), 0);
	fclose(f);
	pvmmon_log_free(log);
	cmd_run(&r, cli__export, "export", MATMUL, "--json", "-", NULL);
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_STRING_EQUAL(r.out, want);
	CU_ASSERT_STRING_EQUAL(r.err, "");
	cmd_free(&r);
	cmd_tmpdir(dir);
	snprintf(path, sizeof(path), "%s/run.json", dir);
	cmd_run(&r, cli__export, "export", "--json", path, MATMUL, NULL);
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_STRING_EQUAL(r.out, "");
	cmd_free(&r);
	got = cmd_slurp(path);
	CU_ASSERT_PTR_NOT_NULL_FATAL(got);
	CU_ASSERT_STRING_EQUAL(got, want);
	free(got);
	snprintf(tmp, sizeof(tmp), "%s.tmp%ld", path, (long)getpid());
	CU_ASSERT_NOT_EQUAL(access(tmp, F_OK), 0);
	/* A file that cannot be written: named, status 1. */
	snprintf(path, sizeof(path), "%s/gone/run.json", dir);
	cmd_run(&r, cli__export, "export", MATMUL, "--json", path, NULL);
	CU_ASSERT_EQUAL(r.status, 1);
	snprintf(tmp, sizeof(tmp), "pvmmon: export: cannot write %s: No such file or directory\n",
	         path);
	CU_ASSERT_STRING_EQUAL(r.err, tmp);
	cmd_free(&r);
	/* A log that cannot be read: named, status 1, nothing written. */
	snprintf(path, sizeof(path), "%s/other.json", dir);
	cmd_run(&r, cli__export, "export", "tests/fixtures/truncated.xml", "--json", path, NULL);
	CU_ASSERT_EQUAL(r.status, 1);
	CU_ASSERT_NSTRING_EQUAL(r.err, "pvmmon: tests/fixtures/truncated.xml: ", 38);
	CU_ASSERT_NOT_EQUAL(access(path, F_OK), 0);
	cmd_free(&r);
	free(want);
	cmd_remove(dir);
}

/* --csv DIR (made when missing): the files graphs/export.c writes, the same bytes. */
static void test_csv(void)
{
	static const char *const tables[] = {"run", "tasks", "statements", "messages",
	                                     "procedures"};
	char dir[40], mine[64], theirs[64], a[96], b[192];
	pvmmon_log *log = NULL;
	cmd_result r;

	cmd_tmpdir(dir);
	snprintf(mine, sizeof(mine), "%s/cli", dir);
	snprintf(theirs, sizeof(theirs), "%s/lib", dir);
	cmd_run(&r, cli__export, "export", MATMUL, "--csv", mine, NULL);
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_STRING_EQUAL(r.err, "");
	cmd_free(&r);
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&log, MATMUL), 0);
	CU_ASSERT_EQUAL_FATAL(pvmmon_export_csv(log, theirs), 0);
	pvmmon_log_free(log);
	for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++) {
		char *x, *y;

		snprintf(a, sizeof(a), "%s/%s.csv", mine, tables[i]);
		snprintf(b, sizeof(b), "%s/%s.csv", theirs, tables[i]);
		x = cmd_slurp(a);
		y = cmd_slurp(b);
		CU_ASSERT_PTR_NOT_NULL(x);
		CU_ASSERT_PTR_NOT_NULL(y);
		if (x && y)
			CU_ASSERT_STRING_EQUAL(x, y);
		free(x);
		free(y);
	}
	snprintf(a, sizeof(a), "%s/gone/csv", dir);
	cmd_run(&r, cli__export, "export", MATMUL, "--csv", a, NULL);
	CU_ASSERT_EQUAL(r.status, 1);
	snprintf(b, sizeof(b), "pvmmon: export: cannot create %s: No such file or directory\n", a);
	CU_ASSERT_STRING_EQUAL(r.err, b);
	cmd_free(&r);
	cmd_remove(dir);
}

/* The counts export__otf2 gives for the log at path. */
static pvmmon_otf2_counts counts_of(const char *path, int real, const char *dir)
{
	pvmmon_log *log = NULL;
	pvmmon_otf2_counts n;

	memset(&n, 0, sizeof(n));
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&log, path), 0);
	CU_ASSERT_EQUAL(export__otf2(log, dir, real, &n), 0);
	pvmmon_log_free(log);
	return n;
}

/* --otf2 DIR: the archive, and what it holds said on stderr; a second one into the
 * same folder refused. */
static void test_otf2(void)
{
	char dir[40], out[64], ref[64], want[512];
	pvmmon_otf2_counts n;
	cmd_result r;

	cmd_tmpdir(dir);
	snprintf(out, sizeof(out), "%s/trace", dir);
	snprintf(ref, sizeof(ref), "%s/ref", dir);
	CU_ASSERT_EQUAL_FATAL(mkdir(ref, 0700), 0);
	n = counts_of(TRACE, 0, ref);
	cmd_run(&r, cli__export, "export", TRACE, "--otf2", out, NULL);
	CU_ASSERT_EQUAL(r.status, 0);
	snprintf(want, sizeof(want),
	         "pvmmon: export: %s/traces.otf2: %llu enters, %llu leaves, %llu sends, %llu "
	         "receives (virtual time)\n",
	         out, (unsigned long long)n.enters, (unsigned long long)n.leaves,
	         (unsigned long long)n.sends, (unsigned long long)n.recvs);
	CU_ASSERT_STRING_EQUAL(r.err, want);
	CU_ASSERT(n.enters > 0 && n.sends > 0);
	cmd_free(&r);
	snprintf(want, sizeof(want), "%s/traces.otf2", out);
	CU_ASSERT_EQUAL(access(want, R_OK), 0);
	cmd_run(&r, cli__export, "export", TRACE, "--otf2", out, NULL);
	CU_ASSERT_EQUAL(r.status, 1);
	snprintf(want, sizeof(want), "pvmmon: export: %s already holds an OTF2 archive\n", out);
	CU_ASSERT_STRING_EQUAL(r.err, want);
	cmd_free(&r);
	/* A trace cut at its limit, in real time: said so. */
	cmd_remove(ref);
	CU_ASSERT_EQUAL_FATAL(mkdir(ref, 0700), 0);
	n = counts_of(TRACE_CUT, 1, ref);
	snprintf(out, sizeof(out), "%s/cut", dir);
	cmd_run(&r, cli__export, "export", TRACE_CUT, "--otf2", out, "--time", "real", NULL);
	CU_ASSERT_EQUAL(r.status, 0);
	snprintf(want, sizeof(want),
	         "pvmmon: export: %s/traces.otf2: %llu enters, %llu leaves, %llu sends, %llu "
	         "receives (real time); the trace was cut at its limit\n",
	         out, (unsigned long long)n.enters, (unsigned long long)n.leaves,
	         (unsigned long long)n.sends, (unsigned long long)n.recvs);
	CU_ASSERT_STRING_EQUAL(r.err, want);
	cmd_free(&r);
	/* A run without a trace: its profile. */
	cmd_remove(ref);
	CU_ASSERT_EQUAL_FATAL(mkdir(ref, 0700), 0);
	n = counts_of(MATMUL, 0, ref);
	snprintf(out, sizeof(out), "%s/profile", dir);
	cmd_run(&r, cli__export, "export", MATMUL, "--otf2", out, NULL);
	CU_ASSERT_EQUAL(r.status, 0);
	snprintf(want, sizeof(want),
	         "pvmmon: export: %s/traces.otf2: the run's profile, %llu samples (a task's time, "
	         "calls and bytes per statement, procedure and loop, as metrics); the run has no "
	         "event trace: a trace needs pvmmon run --trace\n",
	         out, (unsigned long long)n.samples);
	CU_ASSERT_STRING_EQUAL(r.err, want);
	CU_ASSERT(n.samples > 0);
	cmd_free(&r);
	/* A folder that cannot be made. */
	snprintf(out, sizeof(out), "%s/gone/otf2", dir);
	cmd_run(&r, cli__export, "export", MATMUL, "--otf2", out, NULL);
	CU_ASSERT_EQUAL(r.status, 1);
	snprintf(want, sizeof(want),
	         "pvmmon: export: cannot create %s: No such file or directory\n", out);
	CU_ASSERT_STRING_EQUAL(r.err, want);
	cmd_free(&r);
	cmd_remove(dir);
}

/* --perfetto FILE and -: the document graphs/perfetto.c makes, whole, and what it holds
 * said; in real time with --time real; a log without a trace refused, the file named,
 * nothing written. */
static void test_perfetto(void)
{
	char dir[40], path[80], *want = NULL, *real = NULL;
	pvmmon_log *log = NULL;
	size_t len = 0;
	cmd_result r;
	struct stat st;
	FILE *f;

	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&log, TRACE), 0);
	f = open_memstream(&want, &len);
	CU_ASSERT_EQUAL_FATAL(pvmmon_export_perfetto(log, f, 0, NULL), 0);
	fclose(f);
	f = open_memstream(&real, &len);
	CU_ASSERT_EQUAL_FATAL(pvmmon_export_perfetto(log, f, 1, NULL), 0);
	fclose(f);
	pvmmon_log_free(log);
	cmd_run(&r, cli__export, "export", TRACE, "--perfetto", "-", NULL);
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_STRING_EQUAL(r.out, want);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "pvmmon: export: standard output: "));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "message arrows"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "(virtual time)"));
	cmd_free(&r);
	cmd_run(&r, cli__export, "export", TRACE, "--perfetto", "-", "--time", "real", NULL);
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_STRING_EQUAL(r.out, real);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "(real time)"));
	cmd_free(&r);
	cmd_tmpdir(dir);
	snprintf(path, sizeof(path), "%s/run.json", dir);
	cmd_run(&r, cli__export, "export", MATMUL, "--perfetto", path, NULL);
	CU_ASSERT_EQUAL(r.status, 1);
	CU_ASSERT_STRING_EQUAL(r.err, "pvmmon: export: " MATMUL " has no event trace: a Perfetto "
	                              "trace needs a run recorded with pvmmon run --trace\n");
	CU_ASSERT_NOT_EQUAL(stat(path, &st), 0);
	cmd_free(&r);
	cmd_remove(dir);
	free(want);
	free(real);
}

CU_TestInfo test_cli_export_tests[] = {
    {"bad command lines say what is wrong", test_command_line},
    {"--json FILE and --json -, files that cannot be written", test_json},
    {"--csv DIR, a folder that cannot be made", test_csv},
    {"--otf2 DIR: traced, cut, profile; what is said", test_otf2},
    {"--perfetto FILE: virtual and real time, a log without a trace", test_perfetto},
    CU_TEST_INFO_NULL,
};
