/*
 * Unit tests for graphs/phases.c: a synthetic three-phase run (compute, communicate,
 * compute with one slow task) split at its boundaries within two buckets, with and
 * without noise; bounded phase count and minimal length; a steady run is one phase;
 * the text report lists each phase's span, shares and top statements, deterministically.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "../../../graphs/histo.h"
#include "histmodel.h"
#include "pvmmon/report.h"

static size_t dist(size_t a, size_t b) { return a > b ? a - b : b - a; }

static void check_three(const pvmmon_log *log)
{
	graphs_phase ph[GRAPHS_MAX_PHASES];
	size_t n = 0;

	CU_ASSERT_EQUAL_FATAL(graphs__log_phases(log, ph, &n), 0);
	CU_ASSERT_EQUAL_FATAL(n, 3);
	CU_ASSERT_EQUAL(ph[0].first, 0);
	CU_ASSERT(dist(ph[1].first, HM_P2) <= 2);
	CU_ASSERT(dist(ph[2].first, HM_P3) <= 2);
	CU_ASSERT_EQUAL(ph[2].end, HM_END);
	CU_ASSERT_EQUAL(ph[1].from_ns, (int64_t)ph[1].first * HM_WIDTH);
	CU_ASSERT_EQUAL(ph[2].to_ns, (int64_t)HM_END * HM_WIDTH);
	/* Phase 1 computes, phase 2 waits and talks, phase 3 waits more than phase 1. */
	CU_ASSERT(ph[0].share[0] > 0.85);
	CU_ASSERT(ph[1].share[1] > 0.4 && ph[1].share[2] > 0.3);
	CU_ASSERT(ph[2].share[1] > 0.3);
}

static void test_three_phases(void)
{
	pvmmon_log *log = hm_three_phase(4);

	check_three(log);
	pvmmon_log_free(log);
}

/* Each value off by up to 8% (a fixed pseudo-random sequence): the same boundaries. */
static void test_three_phases_noisy(void)
{
	pvmmon_log *log = hm_three_phase(6);
	uint32_t x = 12345;

	for (size_t i = 0; i < log->ntasks; i++)
		for (size_t j = 0; j < log->tasks[i].nhists; j++) {
			pvmmon_log_hist *h = &log->tasks[i].hists[j];

			for (size_t b = 0; b < h->nbuckets; b++) {
				x = x * 1103515245u + 12345u;
				h->values[b] +=
				    h->values[b] * ((int64_t)((x >> 16) % 161) - 80) / 1000;
			}
		}
	check_three(log);
	pvmmon_log_free(log);
}

/* The program-focus histograms are used when the log has them (here a run that is one
 * steady phase, whatever the tasks say). */
static void test_program_focus(void)
{
	pvmmon_log *log = hm_three_phase(3);
	graphs_phase ph[GRAPHS_MAX_PHASES];
	int64_t v[HM_END];
	size_t n = 0;

	for (int k = 0; k < 3; k++) {
		for (int b = 0; b < HM_END; b++)
			v[b] = k == 0 ? 7000000 : 1000000;
		hm_add(&log->hists, &log->nhists, (pvmmon_hist_metric)(PVMMON_HIST_COMPUTE + k),
		       PVMMON_FOCUS_PROGRAM, NULL, 0, v, HM_END);
	}
	CU_ASSERT_EQUAL_FATAL(graphs__log_phases(log, ph, &n), 0);
	CU_ASSERT_EQUAL(n, 1);
	CU_ASSERT_DOUBLE_EQUAL(ph[0].share[0], 7.0 / 9, 1e-9);
	pvmmon_log_free(log);
}

/* Many short changes: never more than the bound, none shorter than the minimum; a blip
 * of two columns is no phase; idle columns at the ends are outside every phase. */
static void test_bounds(void)
{
	double v[100][GRAPHS_NSTATES];
	graphs_phase ph[GRAPHS_MAX_PHASES];
	size_t n;

	/* Nine steps of computing share from 100% down to 20%, idle at both ends: at most
	 * four phases. */
	memset(v, 0, sizeof(v));
	for (int c = 5; c < 95; c++)
		v[c][0] = 1e6 - (c - 5) / 10 * 1e5, v[c][1] = 1e6 - v[c][0];
	n = graphs__split_phases((const double(*)[GRAPHS_NSTATES])v, 100, 4, 3, ph);
	CU_ASSERT(n >= 2 && n <= 4);
	for (size_t i = 0; i < n; i++)
		CU_ASSERT(ph[i].end - ph[i].first >= 3);
	CU_ASSERT_EQUAL(ph[0].first, 5);
	CU_ASSERT_EQUAL(ph[n - 1].end, 95);

	memset(v, 0, sizeof(v));
	for (int c = 0; c < 60; c++)
		v[c][0] = 1e6;
	v[30][0] = 0, v[30][1] = 1e6, v[31][0] = 0, v[31][1] = 1e6;
	n = graphs__split_phases((const double(*)[GRAPHS_NSTATES])v, 60, 8, 3, ph);
	for (size_t i = 0; i < n; i++)
		CU_ASSERT(ph[i].end - ph[i].first >= 3);
	/* Nothing ran: no phase. */
	memset(v, 0, sizeof(v));
	CU_ASSERT_EQUAL(graphs__split_phases((const double(*)[GRAPHS_NSTATES])v, 60, 8, 3, ph), 0);
}

static void test_steady(void)
{
	double v[40][GRAPHS_NSTATES];
	graphs_phase ph[GRAPHS_MAX_PHASES];

	for (int c = 0; c < 40; c++)
		v[c][0] = 8e6 + (c % 3) * 1e5, v[c][1] = 1e6, v[c][2] = 1e6, v[c][3] = 0;
	CU_ASSERT_EQUAL(graphs__split_phases((const double(*)[GRAPHS_NSTATES])v, 40, 8, 3, ph), 1);
	CU_ASSERT_EQUAL(ph[0].first, 0);
	CU_ASSERT_EQUAL(ph[0].end, 40);
}

static char *text_of(const pvmmon_log *log)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);

	CU_ASSERT_PTR_NOT_NULL_FATAL(mem);
	CU_ASSERT_EQUAL(pvmmon_report_text(log, mem), 0);
	fclose(mem);
	return text;
}

/* The text report's Phases section: spans, shares, each phase's top statements (from
 * their histograms), the same text each time. */
static void test_text(void)
{
	pvmmon_log *log = hm_three_phase(4);
	char *a = text_of(log), *b = text_of(log);
	const char *p = strstr(a, "\nPhases ("), *p2, *p3;

	CU_ASSERT_STRING_EQUAL(a, b);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	p2 = strstr(p, "  phase 2: 160.00 ms to 280.00 ms: compute 10.0% wait 48.0% pvm 40.0% "
	               "overhead 2.0%\n");
	p3 = strstr(p, "  phase 3: 280.00 ms to 480.00 ms:");
	CU_ASSERT_PTR_NOT_NULL(strstr(p, "  phase 1: 0 ns to 160.00 ms: compute 93.8%"));
	CU_ASSERT_PTR_NOT_NULL_FATAL(p2);
	CU_ASSERT_PTR_NOT_NULL_FATAL(p3);
	/* Phase 2's top statement is the receive in exchange, then the send; phase 3's
	 * the receive in gather; phase 1's the send in work. */
	CU_ASSERT_PTR_NOT_NULL(strstr(p, "threephase.c:25 in work"));
	/* Phase 2's top statements: the receive (4.8 ms a bucket), then the send (4 ms),
	 * each summed over the four tasks. */
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(p2, "threephase.c:44 in exchange                  4 tasks         230.40 ms\n"));
	CU_ASSERT(strstr(p2, "threephase.c:44 in exchange") <
	          strstr(p2, "threephase.c:40 in exchange"));
	CU_ASSERT(strstr(p2, "threephase.c:40 in exchange") < p3);
	CU_ASSERT_PTR_NOT_NULL(strstr(p3, "threephase.c:61 in gather"));
	CU_ASSERT_PTR_NULL(strstr(p3, "in exchange"));
	free(a);
	free(b);
	pvmmon_log_free(log);
}

/* A log without histograms has no Phases section. */
static void test_text_without(void)
{
	pvmmon_log *log = hm_log(2);
	char *a = text_of(log);

	CU_ASSERT_PTR_NULL(strstr(a, "Phases"));
	free(a);
	pvmmon_log_free(log);
}

CU_TestInfo test_phases_tests[] = {
    {"three-phase run: boundaries within two buckets", test_three_phases},
    {"three-phase run with noise: boundaries within two buckets", test_three_phases_noisy},
    {"program-focus histograms used when present", test_program_focus},
    {"bounded phase count, minimal length, idle ends", test_bounds},
    {"a steady run is one phase", test_steady},
    {"text report: phases with spans, shares, top statements", test_text},
    {"text report without histograms: no Phases section", test_text_without},
    CU_TEST_INFO_NULL,
};
