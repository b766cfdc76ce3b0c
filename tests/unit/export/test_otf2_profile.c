/* Unit tests for export/otf2_profile.c: a run without a trace written as OTF2 metrics,
 * one sample per task and region, read back with libotf2's reader. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "../../../export/otf2.h"
#include "logbuild.h"
#include "otf2read.h"
#include "pvmmon/errors.h"

/* The number of lines of text that start with prefix. */
static size_t count_lines(const char *text, const char *prefix)
{
	size_t n = 0, len = strlen(prefix);

	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		n += !strncmp(p, prefix, len);
	return n;
}

/* Two tasks without hosts: task 0 with real times, a statement with its source place,
 * one with only its module and offset, a procedure and a loop; task 1 without real
 * times, a statement and the same procedure. */
static pvmmon_log *profile_log(void)
{
	pvmmon_log *log = logbuild_new();
	size_t a, b;

	a = logbuild_task(log, 0x40001, "0", NULL);
	b = logbuild_task(log, 0x40002, "0.1", NULL);
	log->tasks[a].virtual_ns = 9000;
	log->tasks[a].end_ns = 12000;
	log->tasks[a].has_raw = 1;
	log->tasks[b].virtual_ns = 8000;
	log->tasks[b].end_ns = 11000;
	logbuild_stmt(log, a, "pvm_send", "app.c", 12, "/usr/bin/app", 0x1200, 3, 300, 120);
	logbuild_stmt(log, a, "pvm_recv", NULL, 0, "/usr/bin/app", 0x12cf, 2, 700, 8);
	logbuild_proc(log, a, "solve", "app.c", 5, 4, 5000, 6000);
	logbuild_loop(log, a, "for@7:2", "app.c", 7, 1, 4000, 4500);
	logbuild_stmt(log, b, "pvm_recv", "app.c", 30, "/usr/bin/app", 0x1300, 3, 900, 120);
	logbuild_proc(log, b, "solve", "app.c", 5, 1, 2000, 0);
	return log;
}

static void test_virtual(void)
{
	char dir[] = "/tmp/pvmmon-otf2p-XXXXXX";
	pvmmon_log *log = profile_log();
	pvmmon_otf2_counts n;
	char *text = otf2read_export(log, 0, &n, dir);

	/* At each task's virtual end, its regions' time, calls and bytes; a statement by
	 * its call and source place, or module and offset; a procedure's inclusive time. */
	otf2read_check_block(text, "0@9000 metric \"pvm_send app.c:12\" 300 3 120\n"
	                  "0@9000 metric \"pvm_recv app+0x12cf\" 700 2 8\n"
	                  "0@9000 metric \"solve\" 5000 4 0\n"
	                  "0@9000 metric \"loop for@7:2\" 4000 1 0\n"
	                  "1@8000 metric \"pvm_recv app.c:30\" 900 3 120\n"
	                  "1@8000 metric \"solve\" 2000 1 0\n");
	/* One region per name over all tasks, with its source place. */
	otf2read_check_block(text, "region 0 \"pvm_send app.c:12\" point2point file \"app.c\" line 12\n"
	                  "region 1 \"pvm_recv app+0x12cf\" point2point file \"\" line 0\n"
	                  "region 2 \"solve\" function file \"app.c\" line 5\n"
	                  "region 3 \"loop for@7:2\" function file \"app.c\" line 7\n"
	                  "region 4 \"pvm_recv app.c:30\" point2point file \"app.c\" line 30\n");
	CU_ASSERT_EQUAL(count_lines(text, "region "), 5);
	/* The metric's members and the attribute naming a sample's region. */
	otf2read_check_block(text, "attribute 0 \"region\"\n"
	                  "member 0 \"time\" exponent -9 unit \"s\"\n"
	                  "member 1 \"calls\" exponent 0 unit \"#\"\n"
	                  "member 2 \"bytes\" exponent 0 unit \"bytes\"\n");
	otf2read_check_block(text, "clock 1000000000 length 9001\n");
	otf2read_check_block(text, "node 0 \"PVM virtual machine\" class \"machine\" parent -\n"
	                  "node 1 \"host\" class \"node\" parent 0\n"
	                  "process 0 \"task 0 (t40001)\" node 1\n"
	                  "location 0 \"task 0 (t40001)\" events 4 process 0\n"
	                  "process 1 \"task 0.1 (t40002)\" node 1\n"
	                  "location 1 \"task 0.1 (t40002)\" events 2 process 1\n");
	CU_ASSERT_EQUAL(n.samples, 6);
	CU_ASSERT_EQUAL(n.enters + n.leaves + n.sends + n.recvs, 0);
	free(text);
	logbuild_remove(dir);
	pvmmon_log_free(log);
}

/* --time real: at each task's real end, procedures' and loops' real times where the
 * task has them (a statement's time stays virtual). */
static void test_real(void)
{
	char dir[] = "/tmp/pvmmon-otf2p-XXXXXX";
	pvmmon_log *log = profile_log();
	pvmmon_otf2_counts n;
	char *text = otf2read_export(log, 1, &n, dir);

	otf2read_check_block(text, "0@12000 metric \"pvm_send app.c:12\" 300 3 120\n"
	                  "0@12000 metric \"pvm_recv app+0x12cf\" 700 2 8\n"
	                  "0@12000 metric \"solve\" 6000 4 0\n"
	                  "0@12000 metric \"loop for@7:2\" 4500 1 0\n"
	                  "1@11000 metric \"pvm_recv app.c:30\" 900 3 120\n"
	                  "1@11000 metric \"solve\" 2000 1 0\n");
	otf2read_check_block(text, "clock 1000000000 length 12001\n");
	free(text);
	logbuild_remove(dir);
	pvmmon_log_free(log);
}

/* Hundreds of regions (the name table grows and is hashed again), the same names in
 * a second task found again: each sample names its own statement. */
static void test_many_regions(void)
{
	char dir[] = "/tmp/pvmmon-otf2p-XXXXXX", line[96];
	pvmmon_log *log = logbuild_new();
	pvmmon_otf2_counts n;
	char *text;

	for (int t = 0; t < 2; t++) {
		size_t i = logbuild_task(log, 0x40001 + t, t ? "0.1" : "0", "vm");

		log->tasks[i].virtual_ns = 1000 + t;
		for (int k = 1; k <= 300; k++)
			logbuild_stmt(log, i, "pvm_send", "big.c", k, NULL, 0, (uint64_t)k,
			              10 * k + t, 0);
	}
	text = otf2read_export(log, 0, &n, dir);
	CU_ASSERT_EQUAL(count_lines(text, "region "), 300);
	CU_ASSERT_EQUAL(n.samples, 600);
	for (int k = 1; k <= 300; k += 37) {
		snprintf(line, sizeof(line), "region %d \"pvm_send big.c:%d\" point2point", k - 1,
		         k);
		otf2read_check_block(text, line);
		snprintf(line, sizeof(line), "1@1001 metric \"pvm_send big.c:%d\" %d %d 0\n", k,
		         10 * k + 1, k);
		otf2read_check_block(text, line);
	}
	free(text);
	logbuild_remove(dir);
	pvmmon_log_free(log);
}

/* A run without tasks: an archive with the machine alone and no samples. */
static void test_empty(void)
{
	char dir[] = "/tmp/pvmmon-otf2p-XXXXXX";
	pvmmon_log *log = logbuild_new();
	pvmmon_otf2_counts n;
	char *text = otf2read_export(log, 0, &n, dir);

	otf2read_check_block(text, "clock 1000000000 length 1\n");
	CU_ASSERT_EQUAL(count_lines(text, "location "), 0);
	CU_ASSERT_EQUAL(count_lines(text, "region "), 0);
	CU_ASSERT_EQUAL(n.samples, 0);
	free(text);
	logbuild_remove(dir);
	pvmmon_log_free(log);
}

CU_TestInfo test_otf2_profile_tests[] = {
    {"samples per task and region, virtual times", test_virtual},
    {"samples with real times where the task has them", test_real},
    {"hundreds of regions, shared between tasks", test_many_regions},
    {"a run without tasks", test_empty},
    CU_TEST_INFO_NULL,
};
