/* Unit tests for monitor/histmerge.c: a task's histograms moved to the run's axis, the
 * list of `pvmmon ctl histogram` requests, and the program and host foci merged. */
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "../../../monitor/histmerge.h"
#include "../../../monitor/tasks.h"
#include "fakeio.h"
#include "pvmmon/errors.h"

#define HOST 0x40000
#define MS 1000000LL

static int64_t sum(const pvmmon_log_hist *h)
{
	int64_t s = 0;

	for (size_t i = 0; i < h->nbuckets; i++)
		s += h->values[i];
	return s;
}

/* A heap histogram of metric m over the task focus: n values of v, width w. */
static void make(pvmmon_log_hist *h, pvmmon_hist_metric m, int64_t start, int64_t w,
                 uint32_t doublings, size_t n, int64_t v, const char *req)
{
	memset(h, 0, sizeof(*h));
	h->metric = m;
	h->focus = PVMMON_FOCUS_TASK;
	h->start_ns = start;
	h->width_ns = w;
	h->doublings = doublings;
	h->to_ns = -1;
	h->requested = req ? strdup(req) : NULL;
	h->nbuckets = n;
	h->values = calloc(n ? n : 1, sizeof(int64_t));
	for (size_t i = 0; i < n; i++)
		h->values[i] = v;
}

/* A flush's histograms go onto the run's axis by the task's start; one whose width is
 * no doubling of the run's initial width is dropped and counted. */
static void test_take(void)
{
	mon_run run;
	mon_task *t = NULL;
	pvmmon_log_task fresh;

	fake_run(&run, HOST);
	CU_ASSERT_EQUAL_FATAL(tasks__add(&t, &run, 0x40001), 0);
	t->rec.start_ns = 5 * MS;
	memset(&fresh, 0, sizeof(fresh));
	fresh.nhists = 3;
	fresh.hists = calloc(3, sizeof(*fresh.hists));
	make(&fresh.hists[0], PVMMON_HIST_COMPUTE, 0, 20 * MS, 1, 3, 7, NULL);
	make(&fresh.hists[1], PVMMON_HIST_WAIT, 0, 30 * MS, 1, 1, 1, NULL);
	make(&fresh.hists[2], PVMMON_HIST_WAIT, 0, 10 * MS, 0, 2, 1, "ctl");
	fresh.hists[2].from_ns = 2 * MS;
	fresh.hists[2].to_ns = 4 * MS;
	histmerge__take(&run, t, &fresh);
	CU_ASSERT_EQUAL_FATAL(t->rec.nhists, 2);
	CU_ASSERT_EQUAL(run.bad_messages, 1);
	CU_ASSERT_EQUAL(t->rec.hists[0].start_ns, 5 * MS);
	CU_ASSERT_EQUAL(t->rec.hists[0].from_ns, 0);
	CU_ASSERT_EQUAL(t->rec.hists[1].from_ns, 7 * MS);
	CU_ASSERT_EQUAL(t->rec.hists[1].to_ns, 9 * MS);
	CU_ASSERT_PTR_NULL(fresh.hists);
	fake_done(&run);
}

/* ctl histogram on and off keep the list of those on, which later tasks are welcomed
 * with; a bad request changes nothing. */
static void test_request_list(void)
{
	mon_run run;

	fake_run(&run, HOST);
	CU_ASSERT_EQUAL(histmerge__request(&run, 1, "wait:program"), 0);
	CU_ASSERT_STRING_EQUAL(run.hist_ctl, "wait:program");
	CU_ASSERT_EQUAL(histmerge__request(&run, 1, "wait:program,msgs-sent:task"), 0);
	CU_ASSERT_STRING_EQUAL(run.hist_ctl, "wait:program,msgs-sent:task");
	CU_ASSERT_EQUAL(histmerge__request(&run, 0, "wait:program"), 0);
	CU_ASSERT_STRING_EQUAL(run.hist_ctl, "msgs-sent:task");
	CU_ASSERT_EQUAL(histmerge__request(&run, 1, "time:proc"), PVMMON_EINVAL);
	CU_ASSERT_EQUAL(histmerge__request(&run, 1, "speed:task"), PVMMON_EINVAL);
	CU_ASSERT_STRING_EQUAL(run.hist_ctl, "msgs-sent:task");
	CU_ASSERT_EQUAL(histmerge__request(&run, 0, "msgs-sent:task"), 0);
	CU_ASSERT_PTR_NULL(run.hist_ctl);
	fake_done(&run);
}

/* Two tasks on two hosts, of different widths and starts: the program's histogram
 * holds both from 0, at least as wide as the widest, and each host's its task's. */
static void test_build_program_and_hosts(void)
{
	mon_run run;
	pvmmon_log *log = NULL;
	const pvmmon_log_hist *p = NULL, *ha = NULL, *hb = NULL;

	fake_run(&run, HOST);
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_new(&log), 0);
	log->nhosts = 2;
	log->hosts = calloc(2, sizeof(*log->hosts));
	log->hosts[0].name = strdup("a");
	log->hosts[1].name = strdup("b");
	log->ntasks = 2;
	log->tasks = calloc(2, sizeof(*log->tasks));
	for (int i = 0; i < 2; i++) {
		log->tasks[i].host = strdup(i ? "b" : "a");
		log->tasks[i].nhists = 1;
		log->tasks[i].hists = calloc(1, sizeof(pvmmon_log_hist));
	}
	make(&log->tasks[0].hists[0], PVMMON_HIST_COMPUTE, 3 * MS, 10 * MS, 0, 100, 5 * MS, NULL);
	make(&log->tasks[1].hists[0], PVMMON_HIST_COMPUTE, 40 * MS, 40 * MS, 2, 90, 30 * MS, NULL);
	histmerge__build(&run, log);
	CU_ASSERT_EQUAL(log->hist.enabled, 1);
	CU_ASSERT_EQUAL(log->hist.buckets, 128);
	CU_ASSERT_EQUAL(log->hist.initial_width_ns, 10 * MS);
	CU_ASSERT_EQUAL_FATAL(log->nhists, 3);
	for (size_t i = 0; i < log->nhists; i++) {
		const pvmmon_log_hist *h = &log->hists[i];

		if (h->focus == PVMMON_FOCUS_PROGRAM)
			p = h;
		else if (h->focus == PVMMON_FOCUS_HOST && !strcmp(h->name, "a"))
			ha = h;
		else if (h->focus == PVMMON_FOCUS_HOST && !strcmp(h->name, "b"))
			hb = h;
	}
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_PTR_NOT_NULL_FATAL(ha);
	CU_ASSERT_PTR_NOT_NULL_FATAL(hb);
	CU_ASSERT_EQUAL(sum(p), 100 * 5 * MS + 90 * 30 * MS);
	CU_ASSERT_EQUAL(sum(ha), 100 * 5 * MS);
	CU_ASSERT_EQUAL(sum(hb), 90 * 30 * MS);
	CU_ASSERT_EQUAL(p->start_ns, 0);
	CU_ASSERT(p->width_ns >= 40 * MS);
	CU_ASSERT_EQUAL(p->width_ns, (10 * MS) << p->doublings);
	CU_ASSERT(p->nbuckets <= 128);
	CU_ASSERT_EQUAL(p->from_ns, 0);
	CU_ASSERT_EQUAL(p->to_ns, -1);
	pvmmon_log_free(log);
	fake_done(&run);
}

CU_TestInfo test_histmerge_tests[] = {
    {"a flush's histograms go onto the run's axis", test_take},
    {"ctl histogram on and off keep the list", test_request_list},
    {"program and host foci merged", test_build_program_and_hosts},
    CU_TEST_INFO_NULL,
};
