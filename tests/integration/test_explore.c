/*
 * Integration tests of pvmmon explore on real pvmds: the "go" race (a node's wildcard
 * receive taking its predecessor's number before "go"), a probe-then-receive race and
 * a tag-wildcard race are each found, their records replay the failure every time, and
 * plain runs rarely show the go race; programs whose output does not depend on the order
 * (apps/race with its order line ignored, the probe race done right, mcpi, matmul) give
 * no finding; the page renders in headless Chromium; a deterministic program ends after
 * one run; bad usage is refused.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "harness.h"
#include "report_check.h"

/* A whole explore (a run a few tenths of a second, 20 to 50 of them) on a busy machine. */
#define EXPLORE_TIMEOUT 600
#define PLAIN_RUNS 100
/* The go race with 6 nodes: the goal for the first finding. */
#define GO_FIRST_MAX 10

/* The file dir/name's text (heap), NULL if it cannot be read. */
static char *slurp_at(const char *dir, const char *name)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return harness_slurp(path, NULL);
}

/* The run number of the first finding in an explore's summary table, -1 for none. */
static int first_finding_run(const char *out)
{
	for (const char *p = out; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		size_t l = strcspn(p, "\n");
		const char *same = strstr(p, "\tsame as the first run");

		if (p[0] >= '1' && p[0] <= '9' && memchr(p, '\t', l) &&
		    !(same && (size_t)(same - p) < l) && !strncmp(p + l - 1, "\"", 1))
			return atoi(p);
		if (p[0] >= '1' && p[0] <= '9' && strstr(p, "exit status") &&
		    (size_t)(strstr(p, "exit status") - p) < l)
			return atoi(p);
	}
	return -1;
}

static void test_go_race_found(void)
{
	const char *dir = harness_tmpdir();
	cmd_result r;
	int i, wrong = 0, first, usual = 0;

	/* Explore compares every run with its first, which takes the race's usual order in
	 * about 19 runs of 20 (see the plain runs below); a first run that took a number
	 * before "go" makes the usual order the finding, so the subject is explored again
	 * then, at most four times. */
	for (i = 0;; i++) {
		char *run0;

		harness_sh(&r, EXPLORE_TIMEOUT,
		           "cd '%s' && rm -rf go && %s/pvmmon explore -o go -- %s/gorace -w", dir,
		           harness_bin(), harness_bin());
		run0 = slurp_at(dir, "go/run-0.out");
		usual = run0 && strstr(run0, "order ok");
		free(run0);
		if (usual || i == 4)
			break;
		fprintf(stderr, "\n  gorace: the first run took a number before go; again");
		cmd_result_free(&r);
	}
	/* Under ASan the unmonitored race itself goes wrong about half the time (the
	 * preserve suite's go race says so): with no usual order to start from, what is
	 * left to check is that explore ends with a verdict. */
	if (!usual && harness_slowed()) {
		fprintf(stderr, "\n  gorace: no first run in the usual order under ASan");
		CU_ASSERT(r.status == 0 || r.status == 1);
		cmd_result_free(&r);
		return;
	}
	CU_ASSERT(usual);
	CU_ASSERT_EQUAL(r.status, 1);
	/* Finding 1 is usually a node's receive ("task 0.N"). A forced run goes free after
	 * its forced event, and the race itself then happens by chance in about 1 run of 20
	 * whatever was forced: one CI run's first finding came so, named after the forced
	 * event (an earlier receive), and its replay showed the wrong order as it must. */
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "finding 1: task "));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "number before go"));
	first = first_finding_run(r.out);
	fprintf(stderr, "\n  gorace: first finding at run %d", first);
	/* The goal: within 10 runs for 6 nodes (the nodes' events come early). */
	CU_ASSERT(first >= 1 && first <= GO_FIRST_MAX);
	if (r.status != 1)
		fprintf(stderr, "\n%s%s\n", r.out, r.err);
	cmd_result_free(&r);
	for (i = 0; i < 3; i++) {
		harness_sh(&r, 120, "cd '%s' && %s/pvmmon replay go/finding-1.xml -q -o rp.xml -- "
		                    "%s/gorace -w",
		           dir, harness_bin(), harness_bin());
		CU_ASSERT_EQUAL(r.status, 0);
		CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "order wrong"));
		/* The nodes' output comes on pvmmon's standard error. */
		CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "number before go"));
		cmd_result_free(&r);
	}
	/* Plain monitored runs, which take the order timing gives them. Under ASan every
	 * process is several times slower and uneven, and the unmonitored race itself goes
	 * wrong often there (the preserve suite's go race says so): not measured. */
	if (harness_slowed())
		return;
	for (i = 0; i < PLAIN_RUNS; i++) {
		harness_sh(&r, 120, "cd '%s' && %s/pvmmon run -q --no-record -o p.xml -- %s/gorace -w",
		           dir, harness_bin(), harness_bin());
		CU_ASSERT_EQUAL(r.status, 0);
		wrong += strstr(r.out, "order wrong") != NULL;
		cmd_result_free(&r);
	}
	fprintf(stderr, "\n  gorace: %d of %d plain runs took a number before go", wrong,
	        PLAIN_RUNS);
	/* Timing shows the race rarely: 5 of 100 plain runs in each of two series on an
	 * idle 2-CPU machine (the 0 of 10 is the same rate), where explore finds it
	 * in its first runs every time. A quarter would mean the subject no longer needs
	 * explore to show its bug. */
	CU_ASSERT(wrong < PLAIN_RUNS / 4);
}

/* Explores prog into DIR/ex; its status, and the first finding's record replayed to the
 * same exit status when there is one. Returns DIR. */
static const char *explore_one(const char *prog, const char *opts, int want, const char *finding)
{
	const char *dir = harness_tmpdir();
	cmd_result r;

	harness_sh(&r, EXPLORE_TIMEOUT, "cd '%s' && %s/pvmmon explore %s -o ex -- %s/%s", dir,
	           harness_bin(), opts, harness_bin(), prog);
	CU_ASSERT_EQUAL(r.status, want);
	if (r.status != want)
		fprintf(stderr, "\nexplore %s: %d\n%s%s\n", prog, r.status, r.out, r.err);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, " runs after the first, "));
	if (finding)
		CU_ASSERT_PTR_NOT_NULL(strstr(r.out, finding));
	{
		const char *s = strstr(r.out, "explore: ");

		fprintf(stderr, "\n  %s: %.*s", prog, s ? (int)strcspn(s, ";") : 0, s ? s : "");
	}
	cmd_result_free(&r);
	if (want != 1)
		return dir;
	harness_sh(&r, 120, "cd '%s' && %s/pvmmon replay ex/finding-1.xml -q -o rp.xml -- %s/%s",
	           dir, harness_bin(), harness_bin(), prog);
	CU_ASSERT_EQUAL(r.status, 1);
	cmd_result_free(&r);
	return dir;
}

static void test_probe_race_found(void)
{
	explore_one("prace", "", 1, "mismatch: probed worker 0, received worker 1");
}

/* The page of an explore in dir/ex, in headless Chromium: the finding, its link, and
 * no console message; the reports it links exist. */
static void check_page(const char *dir)
{
	cmd_result r;
	char path[512];

	harness_sh(&r, 120, CHROMIUM_RUN "--dump-dom 'file://%s/ex/index.html'", dir, dir);
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "finding 1: task 0, event "));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "href=\"report-finding-1/index.html\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "<td>same as the first run</td>") ||
	                       strstr(r.out, "<td>exit status 1 instead of 0"));
	CU_ASSERT_PTR_NULL(strstr(r.err, ":CONSOLE"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "<img src=\"report-finding-1/spacetime-virtual.svg\""));
	cmd_result_free(&r);
	snprintf(path, sizeof(path), "%s/ex/report-finding-1/index.html", dir);
	CU_ASSERT(harness_file_size(path) > 1000);
	/* The two space-time pictures side by side on the page. */
	snprintf(path, sizeof(path), "%s/ex/report-finding-1/spacetime-virtual.svg", dir);
	CU_ASSERT(harness_file_size(path) > 1000);
	snprintf(path, sizeof(path), "%s/ex/report-0/spacetime-virtual.svg", dir);
	CU_ASSERT(harness_file_size(path) > 1000);
	snprintf(path, sizeof(path), "%s/ex/report-0/index.html", dir);
	CU_ASSERT(harness_file_size(path) > 1000);
}

static void test_tag_race_found(void)
{
	check_page(explore_one("tagrace", "", 1, "done before data"));
}

/* A program with no receive from any source, poll or probe ends after its first run. */
static void test_deterministic_program(void)
{
	const char *dir = harness_tmpdir();
	cmd_result r;

	harness_sh(&r, EXPLORE_TIMEOUT, "cd '%s' && %s/pvmmon explore -o ring -- %s/ring", dir,
	           harness_bin(), harness_bin());
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "no nondeterministic events: nothing to explore (1 run)"));
	CU_ASSERT_PTR_NULL(strstr(r.out, "run-1"));
	cmd_result_free(&r);
}

static void test_order_free_programs_no_finding(void)
{
	/* The probe done right: PVM's probe and receive with one filter take the same
	 * message in every order. */
	explore_one("prace -a", "", 0, NULL);
	/* apps/race prints the order it took the messages in, and nothing else depends
	 * on it. */
	explore_one("race", "--runs 15 --same-output='order='", 0, NULL);
	/* Sums of integers (mcpi's hits) and a checksum (matmul's) in any order. */
	explore_one("mcpi", "--runs 10", 0, NULL);
	explore_one("matmul", "--runs 10", 0, NULL);
}

static void test_bad_usage(void)
{
	cmd_result r;

	harness_sh(&r, 30, "%s/pvmmon explore", harness_bin());
	CU_ASSERT_EQUAL(r.status, 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "which program?"));
	cmd_result_free(&r);
	harness_sh(&r, 30, "%s/pvmmon explore --runs many -- %s/race", harness_bin(), harness_bin());
	CU_ASSERT_EQUAL(r.status, 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "--runs wants a number"));
	cmd_result_free(&r);
	harness_sh(&r, 30, "%s/pvmmon explore --same-output='(' -- %s/race", harness_bin(),
	           harness_bin());
	CU_ASSERT_EQUAL(r.status, 2);
	cmd_result_free(&r);
}

CU_TestInfo test_explore_tests[] = {
    {"the go race is found within 10 runs and replays; plain runs rarely show it",
     test_go_race_found},
    {"a probe-then-receive race is found and replays", test_probe_race_found},
    {"a tag-wildcard race is found and replays", test_tag_race_found},
    {"order-free programs give no finding", test_order_free_programs_no_finding},
    {"a deterministic program ends after one run", test_deterministic_program},
    {"bad usage is refused", test_bad_usage},
    CU_TEST_INFO_NULL,
};
