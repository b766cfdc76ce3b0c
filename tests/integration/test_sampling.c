/*
 * Integration tests of call-path sampling (pvmmon run --sample): apps/hotspots, a plain
 * gcc build and a stripped copy of it, on a private VM per run; the shares the report
 * gives against the program's own measurement of its CPU time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "harness.h"
#include "pvmmon/errors.h"
#include "pvmmon/log.h"

#define RUN_TIMEOUT 180
/*
 * Steps of apps/hotspots: about 3 s of CPU time, which the kernel's CPU-time timers
 * (checked at its 250 Hz tick) sample some 750 times, weighted to about 3000 samples
 * at 997 Hz. The samples fall at fixed intervals of the task's own CPU time, so each
 * of the program's 150 stretches (50 rounds of three parts) is counted to within about
 * one tick: the shares come out within a point of the program's own measurement (seen:
 * 0.8 points at most over 3 runs of half this length). CPU time is what the timer
 * counts, so a busy 2-CPU machine that deschedules the task changes the run's length,
 * not the shares; the comparison is with the program's own CPU-time measurement of
 * the same run, so a part slowed by a neighbour on the machine is slowed in both.
 */
#define STEPS "2000000000"

/* Runs PROG monitored with OPTS into dir/name.xml; the log (NULL when unreadable), the
 * report's text into *report (heap) when report is not NULL. */
static pvmmon_log *sampled_run(const char *dir, const char *name, const char *opts,
                               const char *prog, cmd_result *r, char **report)
{
	char path[4096];
	pvmmon_log *log = NULL;
	cmd_result rep;

	snprintf(path, sizeof(path), "%s/%s.xml", dir, name);
	harness_sh(r, RUN_TIMEOUT, "cd '%s' && %s/pvmmon run -q %s -o '%s' -- %s " STEPS, dir,
	           harness_bin(), opts, path, prog);
	if (r->status != 0)
		fprintf(stderr, "\npvmmon run %s: status %d\nstdout: %s\nstderr: %s\n", prog,
		        r->status, r->out, r->err);
	if (pvmmon_log_read(&log, path) < 0) {
		fprintf(stderr, "\n%s\n", pvmmon_error_last());
		return NULL;
	}
	if (report) {
		harness_sh(&rep, 60, "%s/pvmmon report '%s'", harness_bin(), path);
		CU_ASSERT_EQUAL(rep.status, 0);
		*report = rep.out;
		rep.out = NULL;
		cmd_result_free(&rep);
	}
	return log;
}

/* The self share (percent) of procedure name in the report's sampled table, or -1. */
static double self_share(const char *report, const char *name)
{
	const char *p = strstr(report, "\nSampled procedures");
	size_t l = strlen(name);
	unsigned long long self;
	double pct;

	for (p = p ? strchr(p + 1, '\n') : NULL; p; p = strchr(p + 1, '\n')) {
		const char *s = p + 1;

		while (*s == ' ')
			s++;
		if (!strncmp(s, name, l) && s[l] == ' ' &&
		    sscanf(s + l, " %llu %lf%%", &self, &pct) == 2)
			return pct;
	}
	return -1;
}

static void test_hot_functions_shares(void)
{
	const char *dir = harness_tmpdir();
	char prog[4096], *report = NULL;
	cmd_result r;
	pvmmon_log *log;
	double a = -1, b = -1, sa, sb;

	snprintf(prog, sizeof(prog), "%s/hotspots", harness_bin());
	log = sampled_run(dir, "hot", "--sample=997", prog, &r, &report);
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(log);
	CU_ASSERT_PTR_NOT_NULL_FATAL(report);
	CU_ASSERT_EQUAL_FATAL(log->ntasks, 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(log->tasks[0].samples);
	CU_ASSERT_EQUAL(log->tasks[0].samples->hz, 997);
	CU_ASSERT(log->tasks[0].samples->total >= 1500);
	CU_ASSERT_EQUAL(log->tasks[0].samples->truncated, 0);
	/* What the program measured of its own CPU time. */
	CU_ASSERT_EQUAL(sscanf(r.out, "hotspots: a %lf b %lf", &a, &b), 2);
	CU_ASSERT(a > 50 && a < 70);
	CU_ASSERT(b > 22 && b < 38);
	sa = self_share(report, "hot_a");
	sb = self_share(report, "hot_b");
	if (sa < a - 3 || sa > a + 3 || sb < b - 3 || sb > b + 3)
		fprintf(stderr, "\nmeasured a %.1f b %.1f, sampled %.1f %.1f\n%s\n", a, b, sa, sb,
		        report);
	CU_ASSERT(sa >= a - 3 && sa <= a + 3);
	CU_ASSERT(sb >= b - 3 && sb <= b + 3);
	/* hot_b's samples come through hot_b_caller: its inclusive share, its path. */
	CU_ASSERT_PTR_NOT_NULL(strstr(report, "main > hot_b_caller > hot_b"));
	/* warm is inlined into main: named from the debug information, with the rest. */
	CU_ASSERT(self_share(report, "warm") >= 100 - a - b - 3 &&
	          self_share(report, "warm") <= 100 - a - b + 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(report, "main > warm"));
	CU_ASSERT_PTR_NOT_NULL(strstr(report, "from call-path samples"));
	free(report);
	/* The page: the table and the flame graph, hot_a's box with its share. */
	{
		char html[4096], *page;
		cmd_result h;

		snprintf(html, sizeof(html), "%s/page", dir);
		harness_sh(&h, 60, "%s/pvmmon report -o '%s' '%s/hot.xml'", harness_bin(), html, dir);
		CU_ASSERT_EQUAL(h.status, 0);
		cmd_result_free(&h);
		snprintf(html, sizeof(html), "%s/page/index.html", dir);
		page = harness_slurp(html, NULL);
		CU_ASSERT_PTR_NOT_NULL_FATAL(page);
		CU_ASSERT_PTR_NOT_NULL(strstr(page, "<h2 id=sampled>Sampled procedures</h2>"));
		CU_ASSERT_PTR_NOT_NULL(strstr(page, "class=flame"));
		CU_ASSERT_PTR_NOT_NULL(strstr(page, "<title>hot_a: "));
		free(page);
	}
	pvmmon_log_free(log);
	cmd_result_free(&r);
}

/* A stripped copy has no symbols for its own functions (they are not dynamic): the
 * report says "?" with the binary's name, and still names libc's. */
static void test_stripped_copy(void)
{
	const char *dir = harness_tmpdir();
	char *report = NULL;
	cmd_result r, c;
	pvmmon_log *log;

	harness_sh(&c, 30, "cp '%s/hotspots' '%s/hs-stripped' && strip '%s/hs-stripped' && "
	                   "nm '%s/hs-stripped' 2>&1",
	           harness_bin(), dir, dir, dir);
	CU_ASSERT_PTR_NOT_NULL(strstr(c.out, "no symbols"));
	cmd_result_free(&c);
	log = sampled_run(dir, "stripped", "--sample=997", "./hs-stripped", &r, &report);
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(log);
	CU_ASSERT_PTR_NOT_NULL_FATAL(report);
	CU_ASSERT_PTR_NOT_NULL_FATAL(log->tasks[0].samples);
	CU_ASSERT(log->tasks[0].samples->total >= 1500);
	CU_ASSERT(self_share(report, "hot_a") < 0);
	CU_ASSERT(self_share(report, "? (hs-stripped)") > 95);
	CU_ASSERT_PTR_NOT_NULL(strstr(report, "__libc_start_call_main"));
	free(report);
	pvmmon_log_free(log);
	cmd_result_free(&r);
}

/* Without --sample a run takes no samples; bad rates are refused before any VM. */
static void test_off_by_default(void)
{
	const char *dir = harness_tmpdir();
	char prog[4096], *report = NULL;
	cmd_result r;
	pvmmon_log *log;

	snprintf(prog, sizeof(prog), "%s/hotspots", harness_bin());
	log = sampled_run(dir, "plain", "", prog, &r, &report);
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(log);
	CU_ASSERT_PTR_NULL(log->tasks[0].samples);
	CU_ASSERT_PTR_NULL(strstr(report, "Sampled procedures"));
	free(report);
	pvmmon_log_free(log);
	cmd_result_free(&r);
	harness_sh(&r, 30, "%s/pvmmon run --sample=0 -- true", harness_bin());
	CU_ASSERT_EQUAL(r.status, 2); /* usage */
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "--sample wants a rate"));
	cmd_result_free(&r);
	harness_sh(&r, 30, "%s/pvmmon run --sample --no-sample -- true", harness_bin());
	CU_ASSERT_EQUAL(r.status, 2); /* usage */
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "exclude each other"));
	cmd_result_free(&r);
}

CU_TestInfo test_sampling_tests[] = {
    {"hot functions' sampled shares within 3 points of their CPU time",
     test_hot_functions_shares},
    {"a stripped copy: its own code is ?, libc's is named", test_stripped_copy},
    {"off unless asked; bad rates refused", test_off_by_default},
    CU_TEST_INFO_NULL,
};
