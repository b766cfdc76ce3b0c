/*
 * Unit tests for graphs/timeline.c: the overview timeline's lanes, its buckets' colours
 * in proportion to the state shares, its tooltips, lanes shrinking to a minimum with
 * every k-th labelled at 128 tasks and more; the per-statement charts and the HTML
 * report's Overview section.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "golden.h"
#include "histmodel.h"
#include "pvmmon/errors.h"
#include "pvmmon/report.h"

static char *svg_of(const pvmmon_log *log, int *rc)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);

	CU_ASSERT_PTR_NOT_NULL_FATAL(mem);
	*rc = pvmmon_report_svg_timeline(log, mem);
	fclose(mem);
	return text;
}

static size_t count(const char *text, const char *what)
{
	size_t n = 0;

	for (const char *p = text; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

static double attr(const char *svg, const char *name)
{
	char key[64];
	const char *p;

	snprintf(key, sizeof(key), " %s=\"", name);
	p = strstr(svg, key);
	return p ? atof(p + strlen(key)) : -1;
}

/* One lane per task, labelled, with a legend and an axis; one group per bucket with
 * time. */
static void test_lanes(void)
{
	pvmmon_log *log = hm_three_phase(4);
	int rc;
	char *svg = svg_of(log, &rc);

	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL(attr(svg, "data-lanes"), 4);
	CU_ASSERT_EQUAL(attr(svg, "data-cols"), HM_END);
	CU_ASSERT_EQUAL(attr(svg, "data-label-every"), 1);
	CU_ASSERT_EQUAL(count(svg, "<g class=\"task\""), 4);
	CU_ASSERT_EQUAL(count(svg, "<g><title>task "), 4 * HM_END);
	CU_ASSERT_PTR_NOT_NULL(strstr(svg, "data-lid=\"0.3\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(svg, "text-anchor=\"end\">0.3</text>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(svg, ">computing</text>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(svg, ">waiting in a receive</text>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(svg, ">inside PVM</text>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(svg, ">monitoring</text>"));
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(svg, "virtual time from the run's start (buckets of 10.00 ms)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(svg, "xmlns=\"http://www.w3.org/2000/svg\""));
	/* The three phases marked: two boundaries, three labels. */
	CU_ASSERT_EQUAL(count(svg, "<line class=\"phase\""), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(svg, ">phase 3</text>"));
	free(svg);
	pvmmon_log_free(log);
}

/* The rects of the bucket whose tooltip starts with title: heights per state. */
static void heights(const char *svg, const char *title, double h[4])
{
	const char *p = strstr(svg, title), *end;

	memset(h, 0, 4 * sizeof(*h));
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	end = strstr(p, "</g>");
	for (const char *r = p; (r = strstr(r, "<rect class=\"s")) && r < end; r++) {
		int k = r[14] - '0';
		const char *hh = strstr(r, "height=\"");

		CU_ASSERT(k >= 0 && k < 4);
		h[k] = atof(hh + 8);
	}
}

/* A bucket's states are stacked in proportion to their shares of the bucket: the slow
 * task computes 96% of phase 3, the others 45% and wait 52%. */
static void test_colours_proportional(void)
{
	pvmmon_log *log = hm_three_phase(4);
	double h[4], lane = 18; /* 20 px lanes, 90% of them drawn */
	int rc;
	char *svg = svg_of(log, &rc);

	CU_ASSERT_EQUAL_FATAL(rc, 0);
	heights(svg,
	        "<g><title>task 0.3, 300.00 ms to 310.00 ms: compute 96.0%, wait 0.0%, "
	        "pvm 2.0%, overhead 1.0%</title>",
	        h);
	CU_ASSERT_DOUBLE_EQUAL(h[0], 0.96 * lane, 0.002);
	CU_ASSERT_DOUBLE_EQUAL(h[1], 0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(h[2], 0.02 * lane, 0.002);
	CU_ASSERT_DOUBLE_EQUAL(h[3], 0.01 * lane, 0.002);
	heights(svg, "<g><title>task 0.1, 300.00 ms to 310.00 ms: compute 45.0%, wait 52.0%", h);
	CU_ASSERT_DOUBLE_EQUAL(h[0], 0.45 * lane, 0.002);
	CU_ASSERT_DOUBLE_EQUAL(h[1], 0.52 * lane, 0.002);
	/* Phase 2: waiting 48%, PVM 40%, computing 10%. */
	heights(svg, "<g><title>task 0, 200.00 ms to 210.00 ms:", h);
	CU_ASSERT_DOUBLE_EQUAL(h[1] / h[2], 48.0 / 40, 0.01);
	CU_ASSERT_DOUBLE_EQUAL(h[0] / h[2], 10.0 / 40, 0.01);
	/* The colours: computing green, waiting red, PVM blue, monitoring orange. */
	CU_ASSERT_PTR_NOT_NULL(strstr(svg, ".tl .s0{fill:#4caf50}.tl .s1{fill:#e53935}"
	                                   ".tl .s2{fill:#1e88e5}.tl .s3{fill:#fb8c00}"));
	free(svg);
	pvmmon_log_free(log);
}

/* At 128 tasks and more lanes stop shrinking at 4 px and every k-th is labelled, so
 * labels never overlap; the picture grows instead. */
static void test_many_tasks(void)
{
	static const size_t ns[] = {130, 300};

	for (size_t i = 0; i < 2; i++) {
		pvmmon_log *log = hm_three_phase(ns[i]);
		int rc;
		char *svg = svg_of(log, &rc);
		double lane = 640.0 / (double)ns[i] < 4 ? 4 : 640.0 / (double)ns[i];
		size_t every = (size_t)attr(svg, "data-label-every");

		CU_ASSERT_EQUAL_FATAL(rc, 0);
		CU_ASSERT_EQUAL(attr(svg, "data-lanes"), (double)ns[i]);
		CU_ASSERT(every >= 2 && every * lane >= 11 && (every - 1) * lane < 11);
		CU_ASSERT_EQUAL(count(svg, "<g class=\"task\""), ns[i]);
		/* The labels, and the axis's last tick. */
		CU_ASSERT_EQUAL(count(svg, "text-anchor=\"end\">"),
		                (ns[i] + every - 1) / every + 1);
		CU_ASSERT_DOUBLE_EQUAL(attr(svg, "height"), 44 + lane * (double)ns[i] + 44 + 14, 1);
		CU_ASSERT_PTR_NOT_NULL(strstr(svg, "data-mode=\"mix\""));
		CU_ASSERT_PTR_NOT_NULL(strstr(svg, "Lanes too thin to stack"));
		/* The last task's lane is there, and its label only when its turn comes. */
		CU_ASSERT_PTR_NOT_NULL(strstr(svg, "<g><title>task 0.1, 0 ns to 10.00 ms:"));
		free(svg);
		pvmmon_log_free(log);
	}
}

/* The colour of the mixed box after title in svg, as r, g, b. */
static void fill(const char *svg, const char *title, unsigned c[3])
{
	const char *p = strstr(svg, title);

	c[0] = c[1] = c[2] = 999;
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	p = strstr(p, "<rect class=\"mix\"");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	p = strstr(p, "fill=\"#");
	CU_ASSERT_EQUAL(sscanf(p + 7, "%2x%2x%2x", &c[0], &c[1], &c[2]), 3);
}

/* Lanes too thin to stack: each bucket's colour is the states' colours (green 4caf50, red
 * e53935, blue 1e88e5, orange fb8c00, idle grey f2f2f2) mixed by their shares. */
static void test_mixed_colours(void)
{
	pvmmon_log *log = hm_three_phase(130);
	int rc;
	char *svg = svg_of(log, &rc);
	unsigned c[3];

	CU_ASSERT_EQUAL_FATAL(rc, 0);
	/* The slow task in phase 3: 96% green, 2% blue, 1% orange, 1% idle. */
	fill(svg, "<g><title>task 0.129, 300.00 ms to 310.00 ms:", c);
	CU_ASSERT(c[0] >= 77 && c[0] <= 79 && c[1] >= 174 && c[1] <= 175 && c[2] >= 83 &&
	          c[2] <= 85);
	/* Another in phase 3: 45% green, 52% red, 2% blue, 1% orange. */
	fill(svg, "<g><title>task 0.1, 300.00 ms to 310.00 ms:", c);
	CU_ASSERT(c[0] >= 155 && c[0] <= 157); /* .45*76+.52*229+.02*30+.01*251 */
	CU_ASSERT(c[1] >= 112 && c[1] <= 114); /* .45*175+.52*57+.02*136+.01*140 */
	CU_ASSERT(c[2] >= 67 && c[2] <= 69);   /* .45*80+.52*53+.02*229 */
	free(svg);
	pvmmon_log_free(log);
}

/* Tasks whose histograms doubled a different number of times: the columns are the
 * widest buckets, a finer task's buckets summed into them. */
static void test_mixed_widths(void)
{
	pvmmon_log *log = hm_log(2);
	int64_t fine[96], coarse[48];
	pvmmon_log_hist *h;
	int rc;
	char *svg;

	for (int b = 0; b < 96; b++)
		fine[b] = b % 2 ? 10000000 : 0; /* every other 10 ms bucket: half of 20 ms */
	for (int b = 0; b < 48; b++)
		coarse[b] = 15000000;
	hm_add(&log->tasks[0].hists, &log->tasks[0].nhists, PVMMON_HIST_COMPUTE, PVMMON_FOCUS_TASK,
	       NULL, 0, fine, 96);
	h = hm_add(&log->tasks[1].hists, &log->tasks[1].nhists, PVMMON_HIST_COMPUTE,
	           PVMMON_FOCUS_TASK, NULL, 0, coarse, 48);
	h->width_ns = 2 * HM_WIDTH;
	h->doublings = 1;
	svg = svg_of(log, &rc);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL(attr(svg, "data-cols"), 48);
	CU_ASSERT_EQUAL(attr(svg, "data-width-ns"), 2 * HM_WIDTH);
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(svg, "<g><title>task 0, 20.00 ms to 40.00 ms: compute 50.0%,"));
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(svg, "<g><title>task 0.1, 20.00 ms to 40.00 ms: compute 75.0%,"));
	free(svg);
	pvmmon_log_free(log);
}

/* A log without task state histograms has no timeline, and says why. */
static void test_no_histograms(void)
{
	pvmmon_log *log = hm_log(2);
	int rc;
	char *svg = svg_of(log, &rc);

	CU_ASSERT_EQUAL(rc, PVMMON_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(pvmmon_error_last(), "no task state histograms"));
	free(svg);
	pvmmon_log_free(log);
}

/* The first statement chart after marker in page: the columns its bars stand in. */
static void bars(const char *page, const char *marker, size_t *lo, size_t *hi, size_t *n)
{
	const char *p = strstr(page, marker), *d, *end;

	*lo = (size_t)-1, *hi = 0, *n = 0;
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	d = strstr(strstr(p, "<svg class=\"spark\""), " d=\"");
	end = strstr(d, "\"/>");
	for (const char *m = d; (m = strchr(m + 1, 'M')) && m < end;) {
		size_t x = strtoul(m + 1, NULL, 10);

		*lo = x < *lo ? x : *lo;
		*hi = x > *hi ? x : *hi;
		(*n)++;
	}
}

/* The HTML report: the overview inlined (no address in the page) and in timeline.svg;
 * a chart per statement and procedure with a histogram, bars only in its phase. */
static void test_html(void)
{
	pvmmon_log *log = hm_three_phase(4);
	char dir[] = "/tmp/pvmmon-tl-XXXXXX", path[256], *page, *file;
	size_t lo, hi, n;

	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	CU_ASSERT_EQUAL_FATAL(pvmmon_report_html(log, dir, NULL), 0);
	snprintf(path, sizeof(path), "%s/index.html", dir);
	page = unit_slurp(path);
	snprintf(path, sizeof(path), "%s/timeline.svg", dir);
	file = unit_slurp(path);
	CU_ASSERT_PTR_NOT_NULL_FATAL(page);
	CU_ASSERT_PTR_NOT_NULL_FATAL(file);
	CU_ASSERT_PTR_NOT_NULL(strstr(page, "<h2 id=overview>Overview</h2>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(page, "<svg class=\"tl\""));
	CU_ASSERT_PTR_NULL(strstr(page, "http"));
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(file, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"tl\""));
	/* The phases under it. */
	CU_ASSERT_PTR_NOT_NULL(strstr(page, "<table id=phases>"));
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(page, "<tr><td>3</td><td class=n>280.00 ms</td><td class=n>480.00 ms</td>"));
	CU_ASSERT_PTR_NULL(strstr(page, "<tr><td>4</td><td class=n>"));
	/* Four statements with histograms per task, the spawn without; work, exchange with
	 * charts, main and helper without. */
	CU_ASSERT_EQUAL(count(page, "<svg class=\"spark\""), 4 * 4 + 2);
	CU_ASSERT_EQUAL(count(page, "no histogram"), 4 + 2);
	bars(page, "threephase.c:44 in exchange", &lo, &hi, &n);
	CU_ASSERT(n == HM_P3 - HM_P2 && lo == HM_P2 && hi == HM_P3 - 1);
	bars(page, "threephase.c:61 in gather", &lo, &hi, &n);
	CU_ASSERT(n == HM_END - HM_P3 && lo == HM_P3 && hi == HM_END - 1);
	bars(page, "threephase.c:25 in work", &lo, &hi, &n);
	CU_ASSERT(n == HM_P2 && lo == 0 && hi == HM_P2 - 1);
	free(page);
	free(file);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	CU_ASSERT_EQUAL(system(path), 0);
	pvmmon_log_free(log);
}

/* A report of a log without histograms says there is no overview, and why. */
static void test_html_without(void)
{
	pvmmon_log *log = hm_log(2);
	char dir[] = "/tmp/pvmmon-tl-XXXXXX", path[256], *page;

	log->hist.enabled = 0;
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	CU_ASSERT_EQUAL_FATAL(pvmmon_report_html(log, dir, NULL), 0);
	snprintf(path, sizeof(path), "%s/index.html", dir);
	page = unit_slurp(path);
	CU_ASSERT_PTR_NOT_NULL_FATAL(page);
	CU_ASSERT_PTR_NOT_NULL(strstr(page, "no time histograms"));
	CU_ASSERT_PTR_NULL(strstr(page, "<svg class=\"tl\""));
	snprintf(path, sizeof(path), "%s/timeline.svg", dir);
	CU_ASSERT_NOT_EQUAL(access(path, F_OK), 0);
	free(page);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	CU_ASSERT_EQUAL(system(path), 0);
	pvmmon_log_free(log);
}

CU_TestInfo test_timeline_tests[] = {
    {"one lane per task, labels, legend, axis", test_lanes},
    {"bucket colours in proportion to the state shares", test_colours_proportional},
    {"128+ tasks: lanes at a minimum height, every k-th labelled", test_many_tasks},
    {"128+ tasks: bucket colours mixed in proportion to the shares", test_mixed_colours},
    {"tasks of different bucket widths on the widest", test_mixed_widths},
    {"no state histograms: no timeline, said why", test_no_histograms},
    {"HTML: overview inlined and in timeline.svg, charts per statement and procedure", test_html},
    {"HTML without histograms: the overview says why", test_html_without},
    CU_TEST_INFO_NULL,
};
