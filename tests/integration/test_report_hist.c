/*
 * Integration tests of the reports built from time histograms: the HTML report of a
 * three-phase run (tests/fixtures/report-hist.xml, log 1.6) opened in headless Chromium
 * draws the overview timeline and a chart per statement and procedure with no console
 * error; the text report finds the three phases; `pvmmon report --between` restricts the
 * tables and refuses bad times and logs without histograms, naming the file.
 * Every report is made by the pvmmon command, which reads the fixture with the
 * validating reader (histograms included); `pvmmon validate` accepts the fixture.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "harness.h"
#include "pvmmon/report.h"
#include "report_check.h"

/*
 * A page that loads the report in a frame and, once it has loaded, writes what the
 * overview drew (its lanes, its size on the page, the buckets with a tooltip, the
 * computing boxes with a height) and how many charts have bars drawn with a size, into
 * the page, which --dump-dom then prints.
 */
static const char hist_page[] =
    "<!DOCTYPE html><html><body><iframe id=f src=\"index.html\" "
    "style=\"width:1280px;height:1000px\"></iframe><script>"
    "window.addEventListener('load',function(){var d=document.getElementById('f')."
    "contentDocument;var tl=d.querySelector('svg.tl'),r=tl.getBoundingClientRect();"
    "var lanes=tl.querySelectorAll('g.task').length;"
    "var tips=tl.querySelectorAll('g.task > g > title').length;"
    "var boxes=Array.from(tl.querySelectorAll('g.task rect.s0')).filter(function(x){"
    "return x.getBBox().height>0;}).length;"
    "var sp=Array.from(d.querySelectorAll('svg.spark')).filter(function(s){"
    "var q=s.querySelector('path').getBBox();return s.getBoundingClientRect().width>0&&"
    "q.width>0&&q.height>0;}).length;var p=document.createElement('pre');"
    "p.textContent='TL '+lanes+' '+Math.round(r.width)+'x'+Math.round(r.height)+' '+tips+' '+"
    "boxes+' SPARK '+sp+' END';document.body.appendChild(p);});</script></body></html>\n";

static void fixture(char *buf, size_t len)
{
	snprintf(buf, len, "%s/../tests/fixtures/report-hist.xml", harness_build());
}

/* The HTML report of the fixture into dir, by the command. */
static void write_report(const char *fix, const char *dir)
{
	cmd_result r;

	harness_sh(&r, 60, "%s/pvmmon report '%s' -o '%s'", harness_bin(), fix, dir);
	CU_ASSERT_EQUAL_FATAL(r.status, 0);
	cmd_result_free(&r);
}

/*
 * The overview and the charts drawn in headless Chromium, no console message, the page
 * offline. doc/images/phases-timeline.png was taken of a real run's report (apps/phases
 * 20) with `chromium --headless --hide-scrollbars --window-size=984,170 --screenshot
 * timeline.svg`.
 */
static void test_overview_in_chromium(void)
{
	const char *dir = harness_tmpdir();
	char fix[4000], rep[4200], *page;
	unsigned lanes = 0, w = 0, h = 0, tips = 0, boxes = 0, sparks = 0;
	const char *tl;
	cmd_result r;

	fixture(fix, sizeof(fix));
	snprintf(rep, sizeof(rep), "%s/rep", dir);
	write_report(fix, rep);
	snprintf(rep, sizeof(rep), "%s/rep/index.html", dir);
	page = harness_slurp(rep, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(page);
	CU_ASSERT_PTR_NOT_NULL(strstr(page, "<h2 id=overview>Overview</h2>"));
	CU_ASSERT_PTR_NULL(strstr(page, "http"));
	free(page);
	snprintf(rep, sizeof(rep), "%s/rep/timeline.svg", dir);
	CU_ASSERT(harness_file_size(rep) > 10000);

	snprintf(rep, sizeof(rep), "%s/rep", dir);
	CU_ASSERT_EQUAL_FATAL(report_write_file(rep, "hist.html", hist_page), 0);
	harness_sh(&r, 120,
	           CHROMIUM_RUN "--virtual-time-budget=10000 --dump-dom 'file://%s/hist.html'", dir,
	           rep);
	CU_ASSERT_EQUAL(r.status, 0);
	tl = strstr(r.out, "<pre>TL ");
	CU_ASSERT_PTR_NOT_NULL_FATAL(tl);
	CU_ASSERT_EQUAL(
	    sscanf(tl, "<pre>TL %u %ux%u %u %u SPARK %u", &lanes, &w, &h, &tips, &boxes, &sparks),
	    6);
	/* Four lanes of 48 buckets, each computing some of the time; drawn at its size; a
	 * chart for each of the four tasks' four statements and two procedures. */
	CU_ASSERT_EQUAL(lanes, 4);
	CU_ASSERT(w >= 900 && h >= 100);
	CU_ASSERT_EQUAL(tips, 4 * 48);
	CU_ASSERT_EQUAL(boxes, 4 * 48);
	CU_ASSERT_EQUAL(sparks, 4 * 4 + 2);
	if (strstr(r.err, ":CONSOLE"))
		fprintf(stderr, "\n%s", r.err);
	CU_ASSERT_PTR_NULL(strstr(r.err, ":CONSOLE"));
	cmd_result_free(&r);
	/* The whole page: the program and call graphs drawn, a screenshot, no console
	 * message (and the check can fail). */
	report_check_dir(dir, 2, NULL);
}

/* The text report of the fixture, or its --between tables with t non-NULL, into *out. */
static int text_of(const char *fix, const int64_t *t, char **out)
{
	cmd_result r;
	int rc;

	harness_sh(&r, 60,
	           t ? "%s/pvmmon report '%s' --between %lldns %lldns" : "%s/pvmmon report '%s'",
	           harness_bin(), fix, t ? (long long)t[0] : 0, t ? (long long)t[1] : 0);
	*out = strdup(r.out);
	rc = r.status;
	cmd_result_free(&r);
	return rc;
}

/* The text report finds the three phases at buckets 16 and 28 (within two buckets), with
 * the statement that waits in each; --between gives the interval's figures. */
static void test_phases_and_between(void)
{
	static const int64_t t[2] = {155000000, 165000000};
	char fix[4000], *text = NULL;
	const char *p;

	fixture(fix, sizeof(fix));
	CU_ASSERT_EQUAL_FATAL(text_of(fix, NULL, &text), 0);
	p = strstr(text, "\nPhases (");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_PTR_NOT_NULL(strstr(p, "  phase 2: 160.00 ms to 280.00 ms:"));
	CU_ASSERT_PTR_NOT_NULL(strstr(p, "  phase 3: 280.00 ms to 480.00 ms:"));
	CU_ASSERT_PTR_NULL(strstr(p, "  phase 4:"));
	CU_ASSERT_PTR_NOT_NULL(strstr(p, "threephase.c:61 in gather"));
	free(text);
	text = NULL;
	CU_ASSERT_EQUAL_FATAL(text_of(fix, t, &text), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "from 155.00 ms to 165.00 ms of virtual time"));
	p = strstr(text, "threephase.c:44 in exchange");
	CU_ASSERT(p && strstr(p, "2.40 ms          5\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "n/a: 4 without a time histogram"));
	free(text);
}

/* The fixture is a valid log 1.6 (schema and the histograms' arithmetic), and the
 * reader keeps its histograms: the settings and the program's four. */
static void test_fixture_validates(void)
{
	char fix[4000];
	pvmmon_log *log = NULL;
	cmd_result r;

	fixture(fix, sizeof(fix));
	harness_sh(&r, 60, "%s/pvmmon validate '%s'", harness_bin(), fix);
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "valid pvmmon log 1.6"));
	cmd_result_free(&r);
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&log, fix), 0);
	CU_ASSERT_EQUAL(log->ntasks, 4);
	CU_ASSERT_EQUAL(log->nhists, 4);
	CU_ASSERT(log->hist.enabled && log->ntasks > 0 && log->tasks[0].nhists > 0);
	/* Written as pvmmon writes them: all 128 buckets in base64. */
	CU_ASSERT(log->nhists > 0 && log->hists[0].nbuckets == 128);
	pvmmon_log_free(log);
}

/* The command's errors: bad times, an empty interval, -o, a log without histograms. */
static void test_between_errors(void)
{
	static const char *const bad[] = {"1.5 2s", "1s 1s", "2s 1s", "1s", "abc 1s", NULL};
	cmd_result r;

	for (size_t i = 0; bad[i]; i++) {
		harness_sh(&r, 60,
		           "%s/pvmmon report %s/../tests/fixtures/report-hist.xml --between %s",
		           harness_bin(), harness_build(), bad[i]);
		CU_ASSERT_EQUAL(r.status, 2);
		CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "--between"));
		cmd_result_free(&r);
	}
	harness_sh(&r, 60, "%s/pvmmon report %s/../tests/fixtures/report-matmul.xml --between 0 1s",
	           harness_bin(), harness_build());
	CU_ASSERT_EQUAL(r.status, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "report-matmul.xml: the log has no time histograms"));
	cmd_result_free(&r);
	harness_sh(&r, 60,
	           "%s/pvmmon report %s/../tests/fixtures/report-matmul.xml --between 0 1s "
	           "-o '%s/x'",
	           harness_bin(), harness_build(), harness_tmpdir());
	CU_ASSERT_EQUAL(r.status, 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "--between is for the text report"));
	cmd_result_free(&r);
}

CU_TestInfo test_report_hist_tests[] = {
    {"the fixture validates and its histograms are read", test_fixture_validates},
    {"overview timeline and charts in headless Chromium, no console error",
     test_overview_in_chromium},
    {"text report: three phases found; --between restricts the tables", test_phases_and_between},
    {"report --between: bad times, empty interval, -o, log without histograms",
     test_between_errors},
    CU_TEST_INFO_NULL,
};
