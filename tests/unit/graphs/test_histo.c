/*
 * Unit tests for graphs/histo.c: a histogram's values over an interval, pro rata for
 * buckets it covers in part; the common grid of a log's task-state histograms (virtual
 * axis first, the widest width); the program's states from its own histograms or the
 * tasks' summed.
 */
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "../../../graphs/histo.h"
#include "histmodel.h"
#include "pvmmon/errors.h"

/* Values 10, 20, 30 in buckets of 10 ns from 100: a part of a bucket counts for the
 * part of its width covered. */
static void test_pro_rata(void)
{
	int64_t v[] = {10, 20, 30};
	pvmmon_log_hist h = {.width_ns = 10, .start_ns = 100, .nbuckets = 3, .values = v};

	CU_ASSERT_DOUBLE_EQUAL(graphs__hist_sum(&h, 100, 130), 60, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(graphs__hist_sum(&h, 105, 125), 5 + 20 + 15, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(graphs__hist_sum(&h, 111, 112), 2, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(graphs__hist_sum(&h, 0, 105), 5, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(graphs__hist_sum(&h, 125, 1000), 15, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(graphs__hist_sum(&h, 130, 1000), 0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(graphs__hist_sum(&h, 0, 100), 0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(graphs__hist_sum(&h, 120, 110), 0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(graphs__hist_sum(NULL, 0, 100), 0, 1e-9);
	CU_ASSERT_EQUAL(graphs__hist_end(&h), 130);
}

/* The grid: the virtual axis when tasks have it, the widest width, up to the last end. */
static void test_grid(void)
{
	pvmmon_log *log = hm_three_phase(2), *none = hm_log(1);
	graphs_grid g;

	CU_ASSERT_EQUAL_FATAL(graphs__hist_grid(log, &g), 0);
	CU_ASSERT_EQUAL(g.axis, PVMMON_AXIS_VIRTUAL);
	CU_ASSERT_EQUAL(g.width, HM_WIDTH);
	CU_ASSERT_EQUAL(g.n, HM_END);
	for (size_t i = 0; i < log->ntasks; i++)
		for (size_t j = 0; j < log->tasks[i].nhists; j++)
			log->tasks[i].hists[j].axis = PVMMON_AXIS_REAL;
	CU_ASSERT_EQUAL_FATAL(graphs__hist_grid(log, &g), 0);
	CU_ASSERT_EQUAL(g.axis, PVMMON_AXIS_REAL);
	CU_ASSERT_EQUAL(graphs__hist_grid(none, &g), PVMMON_ENOTFOUND);
	pvmmon_log_free(log);
	pvmmon_log_free(none);
}

/* The program's states per column: the tasks' summed, or its own histograms. */
static void test_program_states(void)
{
	pvmmon_log *log = hm_three_phase(3);
	double v[HM_END][GRAPHS_NSTATES];
	graphs_grid g;
	int64_t own[HM_END];

	CU_ASSERT_EQUAL_FATAL(graphs__hist_grid(log, &g), 0);
	graphs__program_states(log, &g, v);
	CU_ASSERT_DOUBLE_EQUAL(v[0][0], 3 * 9000000.0, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(v[HM_P2][1], 3 * 4800000.0, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(v[HM_P3][0], 2 * 4500000.0 + 9600000.0, 1e-6);
	for (int b = 0; b < HM_END; b++)
		own[b] = 1234;
	for (int k = 0; k < 3; k++)
		hm_add(&log->hists, &log->nhists, (pvmmon_hist_metric)(PVMMON_HIST_COMPUTE + k),
		       PVMMON_FOCUS_PROGRAM, NULL, 0, own, HM_END);
	graphs__program_states(log, &g, v);
	CU_ASSERT_DOUBLE_EQUAL(v[0][0], 1234, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(v[HM_P2][1], 1234, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(v[HM_P2][3], 0, 1e-9);
	pvmmon_log_free(log);
}

CU_TestInfo test_histo_tests[] = {
    {"sums over an interval pro rata", test_pro_rata},
    {"the grid: axis, widest width, span", test_grid},
    {"the program's states: its own histograms, else the tasks' summed", test_program_states},
    CU_TEST_INFO_NULL,
};
