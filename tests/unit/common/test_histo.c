/* Unit tests for common/histo.c: fixed-size time histograms that double their width. */
#include <stdlib.h>
#include <string.h>

#include "../../../common/histo.h"
#include "../unit.h"
#include "pvmmon/errors.h"

/* Points land in their buckets; a point past the end doubles the width and pair-sums
 * the earlier values. */
static void test_points_and_doubling(void)
{
	histo h;

	CU_ASSERT_EQUAL_FATAL(histo__init(&h, 4, 10, 0), 0);
	histo__add_point(&h, 0, 1);
	histo__add_point(&h, 15, 2);
	histo__add_point(&h, 39, 4);
	CU_ASSERT_EQUAL(h.used, 4);
	CU_ASSERT_EQUAL(h.v[0], 1);
	CU_ASSERT_EQUAL(h.v[1], 2);
	CU_ASSERT_EQUAL(h.v[3], 4);
	histo__add_point(&h, 40, 8);
	CU_ASSERT_EQUAL(h.width, 20);
	CU_ASSERT_EQUAL(h.doublings, 1);
	CU_ASSERT_EQUAL(h.v[0], 3);
	CU_ASSERT_EQUAL(h.v[1], 4);
	CU_ASSERT_EQUAL(h.v[2], 8);
	CU_ASSERT_EQUAL(h.v[3], 0);
	CU_ASSERT_EQUAL(histo__total(&h), 15);
	/* Before the axis: bucket 0. */
	histo__add_point(&h, -5, 16);
	CU_ASSERT_EQUAL(h.v[0], 19);
	histo__free(&h);
	CU_ASSERT_EQUAL(histo__init(&h, 1, 10, 0), PVMMON_EINVAL);
	CU_ASSERT_EQUAL(histo__init(&h, 4, 0, 0), PVMMON_EINVAL);
}

/* An interval is spread by each bucket's share, and the parts add up exactly, whatever
 * the rounding. */
static void test_interval(void)
{
	histo h;

	CU_ASSERT_EQUAL_FATAL(histo__init(&h, 8, 10, 100), 0);
	histo__add_interval(&h, 105, 125, 20);
	CU_ASSERT_EQUAL(h.v[0], 5);
	CU_ASSERT_EQUAL(h.v[1], 10);
	CU_ASSERT_EQUAL(h.v[2], 5);
	histo__add_interval(&h, 101, 134, 7);
	CU_ASSERT_EQUAL(histo__total(&h), 27);
	/* Empty interval: a point. */
	histo__add_interval(&h, 150, 150, 3);
	CU_ASSERT_EQUAL(h.v[5], 3);
	/* An interval running past the end doubles first, then spreads. */
	histo__add_interval(&h, 170, 260, 90);
	CU_ASSERT_EQUAL(h.width, 20);
	CU_ASSERT_EQUAL(histo__total(&h), 120);
	histo__free(&h);
}

/* Doubling many times (a run 2^20 times the histogram's initial span, in steps that
 * each cross buckets) keeps the total exact and the width the initial times 2^n. */
static void test_many_doublings(void)
{
	histo h, c;
	int64_t total = 0, t = 0, n = 0;

	CU_ASSERT_EQUAL_FATAL(histo__init(&h, 128, 10000000, 0), 0);
	CU_ASSERT_EQUAL_FATAL(histo__init(&c, 128, 10000000, 0), 0);
	while (t < (int64_t)128 * 10000000 * (1 << 20)) {
		int64_t len = 1 + t / 3 + 7919;

		histo__add_interval(&h, t, t + len, len);
		histo__add_point(&c, t + len, 3);
		total += len;
		n++;
		t += len;
	}
	CU_ASSERT_EQUAL(histo__total(&h), total);
	CU_ASSERT_EQUAL(histo__total(&c), 3 * n);
	CU_ASSERT_EQUAL(c.doublings, h.doublings);
	CU_ASSERT(h.doublings >= 20 && h.doublings <= 21);
	CU_ASSERT_EQUAL(h.width, (int64_t)10000000 << h.doublings);
	CU_ASSERT(h.used <= h.cap);
	/* The span covers t: the last bucket's end is past it. */
	CU_ASSERT(t <= h.start + (int64_t)h.cap * h.width);
	/* Time values: no bucket holds more than its width (the rounding down of the
	 * shares never gives a bucket more than its part). */
	for (uint32_t i = 0; i < h.used; i++)
		CU_ASSERT(h.v[i] <= h.width);
	histo__free(&h);
	histo__free(&c);
}

/* Merging histograms of different widths and starts onto one axis: the merged width is
 * at least each source's, and the totals add exactly. */
static void test_merge(void)
{
	histo a, b, m;

	CU_ASSERT_EQUAL_FATAL(histo__init(&a, 16, 10, 0), 0);
	CU_ASSERT_EQUAL_FATAL(histo__init(&b, 16, 10, 35), 0);
	CU_ASSERT_EQUAL_FATAL(histo__init(&m, 16, 10, 0), 0);
	for (int64_t t = 0; t < 150; t += 10)
		histo__add_interval(&a, t, t + 10, 10);
	for (int64_t t = 35; t < 600; t += 5)
		histo__add_interval(&b, t, t + 5, 5);
	CU_ASSERT_EQUAL(a.width, 10);
	CU_ASSERT_EQUAL(b.width, 40);
	histo__merge(&m, &a);
	histo__merge(&m, &b);
	CU_ASSERT(m.width >= 40);
	CU_ASSERT_EQUAL(m.width, (int64_t)10 << m.doublings);
	CU_ASSERT_EQUAL(histo__total(&m), histo__total(&a) + histo__total(&b));
	CU_ASSERT_EQUAL(histo__total(&m), 150 + 565);
	/* Early buckets hold both; the time of two tasks in a bucket is at most twice its
	 * width. */
	CU_ASSERT(m.v[0] > 0);
	for (uint32_t i = 0; i < m.used; i++)
		CU_ASSERT(m.v[i] <= 2 * m.width);
	histo__free(&a);
	histo__free(&b);
	histo__free(&m);
}

/* Through the log model and back. */
static void test_log_round_trip(void)
{
	histo h, back;
	pvmmon_log_hist l = {0};

	CU_ASSERT_EQUAL_FATAL(histo__init(&h, 8, 10, 5), 0);
	histo__add_interval(&h, 5, 200, 195);
	CU_ASSERT_EQUAL_FATAL(histo__to_log(&l, &h), 0);
	CU_ASSERT_EQUAL(l.nbuckets, h.used);
	CU_ASSERT_EQUAL(l.width_ns, 40);
	CU_ASSERT_EQUAL(l.doublings, 2);
	CU_ASSERT_EQUAL(l.start_ns, 5);
	CU_ASSERT_EQUAL(histo__from_log(&back, &l, 4), PVMMON_EINVAL);
	CU_ASSERT_EQUAL_FATAL(histo__from_log(&back, &l, 8), 0);
	CU_ASSERT_EQUAL(histo__total(&back), 195);
	CU_ASSERT_EQUAL(back.doublings, 2);
	histo__free(&back);
	histo__free(&h);
	pvmmon_log_hist_clear(&l);
}

/* A minimal log with the run's settings, one merged histogram and one of a task. */
static pvmmon_log *hist_log(void)
{
	pvmmon_log *log = NULL;
	pvmmon_log_hist *h;

	CU_ASSERT_EQUAL_FATAL(pvmmon_log_new(&log), 0);
	log->program = strdup("phases");
	log->mode = strdup("observe");
	log->started = strdup("2026-11-24T10:00:00Z");
	log->hist = (pvmmon_log_histcfg){1, 4, 10000000, 8};
	log->nhists = 1;
	log->hists = calloc(1, sizeof(*log->hists));
	h = &log->hists[0];
	*h = (pvmmon_log_hist){.metric = PVMMON_HIST_WAIT,
	                       .focus = PVMMON_FOCUS_PROGRAM,
	                       .width_ns = 20000000,
	                       .doublings = 1,
	                       .to_ns = -1,
	                       .requested = strdup("run"),
	                       .nbuckets = 2};
	h->values = calloc(2, sizeof(int64_t));
	h->values[0] = 20000000;
	h->values[1] = -1;
	log->ntasks = 1;
	log->tasks = calloc(1, sizeof(*log->tasks));
	log->tasks[0].lid = strdup("0.1");
	log->tasks[0].program = strdup("phases");
	log->tasks[0].nhists = 1;
	log->tasks[0].hists = calloc(1, sizeof(pvmmon_log_hist));
	h = &log->tasks[0].hists[0];
	*h = (pvmmon_log_hist){.metric = PVMMON_HIST_TIME,
	                       .focus = PVMMON_FOCUS_STMT,
	                       .stmt = 3,
	                       .start_ns = 5,
	                       .width_ns = 10000000,
	                       .to_ns = -1};
	return log;
}

/* The log keeps histograms as written; a histogram that breaks the run's settings (more
 * values than buckets, a width that is no doubling of the initial one) is refused with
 * a message naming the file and the histogram. */
static void test_log_keeps_and_checks(void)
{
	pvmmon_log *log = hist_log(), *back = NULL;
	char *xml = NULL, *bad, *at;
	size_t len = 0;

	CU_ASSERT_EQUAL_FATAL(pvmmon_log_format(&xml, &len, log), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(xml, "<histograms buckets=\"4\" "
	                                   "initial-width-ns=\"10000000\" hottest=\"8\">"));
	/* Every one of the 4 buckets, as little-endian int64 in base64. */
	CU_ASSERT_PTR_NOT_NULL(strstr(xml, " encoding=\"le64-base64\">AC0xAQAAAAD//////////"
	                                   "wAAAAAAAAAAAAAAAAAAAAA=</histogram>"));
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_parse(&back, xml, len, "h.xml"), 0);
	CU_ASSERT_EQUAL(back->hist.enabled, 1);
	CU_ASSERT_EQUAL(back->hist.buckets, 4);
	CU_ASSERT_EQUAL_FATAL(back->nhists, 1);
	CU_ASSERT_EQUAL(back->hists[0].metric, PVMMON_HIST_WAIT);
	CU_ASSERT_EQUAL(back->hists[0].doublings, 1);
	CU_ASSERT_STRING_EQUAL(back->hists[0].requested, "run");
	CU_ASSERT_EQUAL_FATAL(back->hists[0].nbuckets, 4);
	CU_ASSERT_EQUAL(back->hists[0].values[0], 20000000);
	CU_ASSERT_EQUAL(back->hists[0].values[1], -1);
	CU_ASSERT_EQUAL(back->hists[0].values[3], 0);
	CU_ASSERT_EQUAL_FATAL(back->tasks[0].nhists, 1);
	CU_ASSERT_EQUAL(back->tasks[0].hists[0].stmt, 3);
	CU_ASSERT_EQUAL(back->tasks[0].hists[0].nbuckets, 4);
	CU_ASSERT_EQUAL(back->tasks[0].hists[0].start_ns, 5);
	pvmmon_log_free(back);
	/* A width that is not the initial one doubled. */
	bad = strdup(xml);
	at = strstr(bad, "width-ns=\"20000000\"");
	CU_ASSERT_PTR_NOT_NULL_FATAL(at);
	memcpy(at, "width-ns=\"30000000\"", 19);
	CU_ASSERT_EQUAL(pvmmon_log_parse(&back, bad, strlen(bad), "h.xml"), PVMMON_EPARSE);
	CU_ASSERT_PTR_NOT_NULL(strstr(pvmmon_error_last(), "h.xml"));
	CU_ASSERT_PTR_NOT_NULL(strstr(pvmmon_error_last(), "doubled"));
	free(bad);
	/* Decimal values (hand-made logs) read as well; damaged base64 is refused. */
	bad = strdup(xml);
	at = strstr(bad, " encoding=\"le64-base64\">AC0xAQAAAAD//////////wAAAAAAAAAAAAAAAAAAAAA=<");
	CU_ASSERT_PTR_NOT_NULL_FATAL(at);
	memcpy(at, "                       >20000000 -1                                 <", 69);
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_parse(&back, bad, strlen(bad), "h.xml"), 0);
	CU_ASSERT_EQUAL_FATAL(back->hists[0].nbuckets, 2);
	CU_ASSERT_EQUAL(back->hists[0].values[1], -1);
	pvmmon_log_free(back);
	free(bad);
	bad = strdup(xml);
	at = strstr(bad, "AC0xAQAAAAD//////////wAAAAAAAAAAAAAAAAAAAAA=<");
	CU_ASSERT_PTR_NOT_NULL_FATAL(at);
	memcpy(at, "AC0xAQAAAAD/////                            <", 45);
	CU_ASSERT_EQUAL(pvmmon_log_parse(&back, bad, strlen(bad), "h.xml"), PVMMON_EPARSE);
	CU_ASSERT_PTR_NOT_NULL(strstr(pvmmon_error_last(), "h.xml: a wait histogram's values"));
	CU_ASSERT_PTR_NOT_NULL(strstr(pvmmon_error_last(), "not whole 8-byte values"));
	free(bad);
	/* More values than the run's buckets. */
	log->hists[0].values = realloc(log->hists[0].values, 5 * sizeof(int64_t));
	log->hists[0].nbuckets = 5;
	for (int i = 2; i < 5; i++)
		log->hists[0].values[i] = i;
	free(xml);
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_format(&xml, &len, log), 0);
	CU_ASSERT_EQUAL(pvmmon_log_parse(&back, xml, len, "h.xml"), PVMMON_EPARSE);
	CU_ASSERT_PTR_NOT_NULL(strstr(pvmmon_error_last(), "5 values, more than the run's 4"));
	free(xml);
	pvmmon_log_free(log);
}

CU_TestInfo test_common_histo_tests[] = {
    {"points land in buckets; past the end the width doubles", test_points_and_doubling},
    {"an interval is spread by shares that add up exactly", test_interval},
    {"doubling twenty times keeps totals exact", test_many_doublings},
    {"merging different widths and starts keeps totals", test_merge},
    {"to the log model and back", test_log_round_trip},
    {"the log keeps histograms and checks them", test_log_keeps_and_checks},
    CU_TEST_INFO_NULL,
};
