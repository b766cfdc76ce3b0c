/*
 * Unit tests of graphs/samples.c: two tasks' call-path samples merged by procedure name
 * and module and by path, counts scaled to the higher rate, and the text report's table
 * of all tasks. The modules do not exist, so each frame is "? (module)".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "../../../graphs/samples.h"

static char *modules[] = {"/nowhere/prog", "/nowhere/libwork.so"};

/* A tree: prog's frame, under it libwork's (self counts computing c, in PVM p), and
 * another of prog's frames beside libwork's (computing c2). */
static void tree(pvmmon_log_snode *n, uint64_t c, uint64_t p, uint64_t c2)
{
	n[0] = (pvmmon_log_snode){-1, 0, 0x100, {0, 0, 0}};
	n[1] = (pvmmon_log_snode){0, 1, 0x200, {c, p, 0}};
	n[2] = (pvmmon_log_snode){0, 0, 0x300, {c2, 0, 1}};
}

static void test_merged_by_name_and_module(void)
{
	pvmmon_log_snode na[3], nb[3];
	pvmmon_log_samples sa = {997, 100, 0, 1000, 2, modules, 3, na};
	pvmmon_log_samples sb = {499, 50, 2, 500, 2, modules, 3, nb};
	pvmmon_log_task tasks[3];
	pvmmon_log log;
	graphs_samples all;
	const graphs_sproc *work = NULL, *prog = NULL;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	memset(tasks, 0, sizeof(tasks));
	memset(&log, 0, sizeof(log));
	tree(na, 60, 5, 30);
	tree(nb, 20, 0, 10);
	tasks[0].lid = "0";
	tasks[0].samples = &sa;
	tasks[0].virtual_ns = 900000000;
	tasks[1].lid = "0.0"; /* no samples */
	tasks[2].lid = "0.1";
	tasks[2].samples = &sb;
	tasks[2].virtual_ns = 300000000;
	log.ntasks = 3;
	log.tasks = tasks;
	CU_ASSERT_EQUAL_FATAL(graphs__samples_all(&log, &all), 0);
	CU_ASSERT_EQUAL(all.ntasks, 2);
	CU_ASSERT_EQUAL(all.hz, 997);
	CU_ASSERT(all.mixed_hz);
	/* 499 Hz counts twice as much CPU time a sample: 20 and 10 count as 39 and 19
	 * (20 * 997 / 499 and 10 * 997 / 499, rounded down). */
	CU_ASSERT_EQUAL(all.by_state[PVMMON_SAMPLE_COMPUTE], 90 + 59);
	CU_ASSERT_EQUAL(all.total, 150);
	CU_ASSERT_EQUAL(all.truncated, 2);
	CU_ASSERT_EQUAL(all.cost_ns, 1500);
	CU_ASSERT_EQUAL(all.compute_ns, 1200000000);
	for (size_t i = 0; i < all.nprocs; i++) {
		if (!strcmp(all.procs[i].name, "? (libwork.so)"))
			work = &all.procs[i];
		if (!strcmp(all.procs[i].name, "? (prog)"))
			prog = &all.procs[i];
	}
	CU_ASSERT_EQUAL_FATAL(all.nprocs, 2);
	CU_ASSERT_PTR_NOT_NULL_FATAL(work);
	CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
	CU_ASSERT_STRING_EQUAL(work->module, "libwork.so");
	CU_ASSERT_EQUAL(work->ntasks, 2);
	CU_ASSERT_EQUAL(work->self, 60 + 39);
	CU_ASSERT_EQUAL(prog->self, 30 + 19);
	CU_ASSERT_EQUAL(prog->incl, 90 + 59);
	/* Self ms: each task's share of its own compute time, summed: 900 ms * 60/90 and
	 * 300 ms * 20/30. */
	CU_ASSERT_DOUBLE_EQUAL(work->self_ms, 600.0 + 200.0, 1e-6);
	/* Most first. */
	CU_ASSERT_PTR_EQUAL(work, &all.procs[0]);
	CU_ASSERT_EQUAL_FATAL(all.npaths, 2);
	CU_ASSERT_STRING_EQUAL(all.paths[0].text, "? (prog) > ? (libwork.so)");
	CU_ASSERT_EQUAL(all.paths[0].count, 99);
	CU_ASSERT_EQUAL(all.paths[0].ntasks, 2);
	CU_ASSERT_STRING_EQUAL(all.paths[1].text, "? (prog)");
	graphs__samples_clear(&all);
	/* The report: the table of all tasks first, then each task's. */
	f = open_memstream(&text, &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL(graphs__report_samples(&log, f), 0);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\nall 2 sampled tasks: 150 samples, 149 computing "
	                                    "(counts scaled to the highest rate"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "  ? (libwork.so)               libwork.so           2"
	                                    "       99  66.4%"));
	CU_ASSERT(strstr(text, "\nall 2") < strstr(text, "\ntask 0 (?)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\ntask 0.1 (?)"));
	CU_ASSERT_PTR_NULL(strstr(text, "\ntask 0.0 "));
	free(text);
}

/* One sampled task: no table of all tasks, its own only. */
static void test_one_task_no_merged_table(void)
{
	pvmmon_log_snode na[3];
	pvmmon_log_samples sa = {997, 100, 0, 1000, 2, modules, 3, na};
	pvmmon_log_task task;
	pvmmon_log log;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	memset(&task, 0, sizeof(task));
	memset(&log, 0, sizeof(log));
	tree(na, 60, 5, 30);
	task.lid = "0";
	task.samples = &sa;
	log.ntasks = 1;
	log.tasks = &task;
	f = open_memstream(&text, &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL(graphs__report_samples(&log, f), 0);
	fclose(f);
	CU_ASSERT_PTR_NULL(strstr(text, "sampled tasks"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\ntask 0 (?): 100 samples at 997 Hz"));
	free(text);
}

CU_TestInfo test_samples_tests[] = {
    {"two tasks merged by name and module, scaled to the higher rate", test_merged_by_name_and_module},
    {"one sampled task: no table of all tasks", test_one_task_no_merged_table},
    CU_TEST_INFO_NULL,
};
