/* Unit tests for export/otf2.c: a traced run written as an OTF2 archive, read back with
 * libotf2's reader and compared record by record with the log it came from. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <CUnit/CUnit.h>
#include <otf2/OTF2_ErrorCodes.h>

#include "../../../export/otf2.h"
#include "logbuild.h"
#include "otf2read.h"
#include "pvmmon/errors.h"

/*
 * Two tasks on two hosts and a third with neither name nor events; one procedure in the
 * critical-path selection. Task 0: a spawn, a send to task 1, a send to a task that is
 * not the program's, a critical-path start, the selected procedure, one not selected,
 * and a receive whose virtual start lies before the last record's (a clock step back).
 * Task 1: the receive of that send, a pvm_nrecv of a message without a piggyback, a
 * send, and another call whose end was logged before its start.
 */
static pvmmon_log *traced_log(void)
{
	pvmmon_log *log = logbuild_new();
	size_t a, b;

	log->trace.enabled = 1;
	log->cp.nprocs = 1;
	log->cp.procs = calloc(1, sizeof(*log->cp.procs));
	CU_ASSERT_PTR_NOT_NULL_FATAL(log->cp.procs);
	log->cp.procs[0].name = strdup("solve");
	logbuild_host(log, "alpha");
	logbuild_host(log, "beta");
	a = logbuild_task(log, 0x40001, "0", "beta");
	b = logbuild_task(log, 0x80002, "0.1", "alpha");
	logbuild_task(log, 0x80003, NULL, NULL);
	logbuild_event(log, a, PVMMON_EV_SPAWN, 0x80002, 0, 0, 0, 1000, 1500, 11000, 11600);
	logbuild_event(log, a, PVMMON_EV_SEND, 0x80002, 7, 40, 0, 2000, 2100, 12000, 12150);
	logbuild_event(log, a, PVMMON_EV_SEND, 0x99999, 3, 8, 0, 2200, 2300, 12300, 12400);
	logbuild_event(log, a, PVMMON_EV_CPSTART, 0, 1, 0, 0, 2400, 2400, 12500, 12500);
	logbuild_event(log, a, PVMMON_EV_ENTER, 0, 0, 0, 0, 3000, 3000, 13000, 13000);
	logbuild_event(log, a, PVMMON_EV_EXIT, 0, 0, 0, 0, 3500, 3500, 13600, 13600);
	logbuild_event(log, a, PVMMON_EV_ENTER, 0, 5, 0, 0, 3600, 3600, 13700, 13700);
	logbuild_event(log, a, PVMMON_EV_EXIT, 0, -1, 0, 0, 3700, 3700, 13800, 13800);
	logbuild_event(log, a, PVMMON_EV_RECV, 0x80002, 9, 4, 1, 3650, 3690, 13900, 13950);
	logbuild_event(log, b, PVMMON_EV_RECV, 0x40001, 7, 40, 0, 500, 2200, 10500, 12200);
	logbuild_event(log, b, PVMMON_EV_NRECV, 0x40001, 0, 0, -1, 2300, 2310, 12300, 12310);
	logbuild_event(log, b, PVMMON_EV_SEND, 0x40001, 9, 4, 1, 2400, 2450, 12400, 12450);
	logbuild_event(log, b, PVMMON_EV_OTHER, 0, 0, 0, 0, 2500, 2400, 12500, 12400);
	return log;
}

static void test_events(void)
{
	char dir[] = "/tmp/pvmmon-otf2-XXXXXX";
	pvmmon_log *log = traced_log();
	pvmmon_otf2_counts n;
	char *text = otf2read_export(log, 0, &n, dir);

	/* Each call an enter and a leave on its task's location, the message with it when
	 * the partner is a task of the program (ranks: the tasks' places in the log); the
	 * critical-path start is no record; the selected procedure is its own region and
	 * every other one region; a step back of the clock is held at the last time. */
	otf2read_check_block(text, "0@1000 enter \"pvm_spawn\"\n"
	                  "0@1500 leave \"pvm_spawn\"\n"
	                  "0@2000 enter \"pvm_send\"\n"
	                  "0@2000 send to 1 tag 7 bytes 40\n"
	                  "0@2100 leave \"pvm_send\"\n"
	                  "0@2200 enter \"pvm_send\"\n"
	                  "0@2300 leave \"pvm_send\"\n"
	                  "0@3000 enter \"solve\"\n"
	                  "0@3500 leave \"solve\"\n"
	                  "0@3600 enter \"procedure (not selected)\"\n"
	                  "0@3700 leave \"procedure (not selected)\"\n"
	                  "0@3700 enter \"pvm_recv\"\n"
	                  "0@3700 recv from 1 tag 9 bytes 4\n"
	                  "0@3700 leave \"pvm_recv\"\n"
	                  "1@500 enter \"pvm_recv\"\n");
	/* A receive's message at its end; none for a message without a piggyback (no
	 * sequence number); an end logged before the start is the start. */
	otf2read_check_block(text, "1@500 enter \"pvm_recv\"\n"
	                  "1@2200 recv from 0 tag 7 bytes 40\n"
	                  "1@2200 leave \"pvm_recv\"\n"
	                  "1@2300 enter \"pvm_nrecv\"\n"
	                  "1@2310 leave \"pvm_nrecv\"\n"
	                  "1@2400 enter \"pvm_send\"\n"
	                  "1@2400 send to 0 tag 9 bytes 4\n"
	                  "1@2450 leave \"pvm_send\"\n"
	                  "1@2500 enter \"other\"\n"
	                  "1@2500 leave \"other\"\n");
	CU_ASSERT_PTR_NULL(strstr(text, "\n2@"));
	CU_ASSERT_EQUAL(n.enters, 10);
	CU_ASSERT_EQUAL(n.leaves, 10);
	CU_ASSERT_EQUAL(n.sends, 2);
	CU_ASSERT_EQUAL(n.recvs, 2);
	CU_ASSERT_EQUAL(n.samples, 0);
	free(text);
	logbuild_remove(dir);
	pvmmon_log_free(log);
}

static void test_definitions(void)
{
	char dir[] = "/tmp/pvmmon-otf2-XXXXXX";
	pvmmon_log *log = traced_log();
	pvmmon_otf2_counts n;
	char *text = otf2read_export(log, 0, &n, dir);

	/* Nanoseconds, the run's length from its first to its last event. */
	otf2read_check_block(text, "clock 1000000000 length 3701\n");
	/* The machine, its hosts, a process per task on its host (the first host when its
	 * own is not known) holding one location with the task's record count. */
	otf2read_check_block(text, "node 0 \"PVM virtual machine\" class \"machine\" parent -\n"
	                  "node 1 \"alpha\" class \"node\" parent 0\n"
	                  "node 2 \"beta\" class \"node\" parent 0\n"
	                  "process 0 \"task 0 (t40001)\" node 2\n"
	                  "location 0 \"task 0 (t40001)\" events 14 process 0\n"
	                  "process 1 \"task 0.1 (t80002)\" node 1\n"
	                  "location 1 \"task 0.1 (t80002)\" events 10 process 1\n"
	                  "process 2 \"task ? (t80003)\" node 1\n"
	                  "location 2 \"task ? (t80003)\" events 0 process 2\n");
	/* A region per PVM call, the message-passing ones point-to-point, then the
	 * selected procedures and one for the others. */
	otf2read_check_block(text, "region 0 \"pvm_send\" point2point file \"\" line 0\n");
	otf2read_check_block(text, "region 3 \"pvm_recv\" point2point file \"\" line 0\n");
	otf2read_check_block(text, "region 8 \"pvm_spawn\" function file \"\" line 0\n");
	otf2read_check_block(text, "region 14 \"pvm_joingroup\" function file \"\" line 0\n"
	                  "region 15 \"solve\" function file \"\" line 0\n"
	                  "region 16 \"procedure (not selected)\" function file \"\" line 0\n");
	CU_ASSERT_PTR_NULL(strstr(text, "region 17 "));
	/* The communicator of every task, ranks in log order. */
	otf2read_check_block(text, "group 0 \"tasks\" members 0,1,2\n"
	                  "group 1 \"ranks\" members 0,1,2\n"
	                  "comm 0 \"PVM tasks\" group 1\n");
	free(text);
	logbuild_remove(dir);
	pvmmon_log_free(log);
}

/* --time real: the real call times; the earliest event (real or virtual) is time 0
 * when one is negative, and a log without hosts has one named "host". */
static void test_real_times_and_base(void)
{
	char dir[] = "/tmp/pvmmon-otf2-XXXXXX";
	pvmmon_log *log = logbuild_new();
	pvmmon_otf2_counts n;
	size_t a;
	char *text;

	log->trace.enabled = 1;
	a = logbuild_task(log, 0x40001, "0", "vm");
	logbuild_event(log, a, PVMMON_EV_PROBE, 0, 0, 0, 0, -100, 50, 7000, 7300);
	logbuild_event(log, a, PVMMON_EV_OTHER, 0, 0, 0, 0, 60, 80, 8000, 8100);
	text = otf2read_export(log, 1, &n, dir);
	otf2read_check_block(text, "clock 1000000000 length 8101\n");
	otf2read_check_block(text, "node 1 \"host\" class \"node\" parent 0\n"
	                  "process 0 \"task 0 (t40001)\" node 1\n");
	otf2read_check_block(text, "0@7000 enter \"pvm_probe\"\n"
	                  "0@7300 leave \"pvm_probe\"\n"
	                  "0@8000 enter \"other\"\n"
	                  "0@8100 leave \"other\"\n");
	free(text);
	logbuild_remove(dir);
	strcpy(dir, "/tmp/pvmmon-otf2-XXXXXX");
	text = otf2read_export(log, 0, &n, dir);
	otf2read_check_block(text, "clock 1000000000 length 181\n");
	otf2read_check_block(text, "0@0 enter \"pvm_probe\"\n"
	                  "0@150 leave \"pvm_probe\"\n"
	                  "0@160 enter \"other\"\n"
	                  "0@180 leave \"other\"\n");
	free(text);
	logbuild_remove(dir);
	pvmmon_log_free(log);
}

/* libotf2's own messages, which it prints on stderr unless told otherwise: counted. */
static int otf2_errors;

static OTF2_ErrorCode quiet(void *ud, const char *file, uint64_t line, const char *fn,
                            OTF2_ErrorCode code, const char *fmt, va_list va)
{
	(void)ud;
	(void)file;
	(void)line;
	(void)fn;
	(void)fmt;
	(void)va;
	otf2_errors++;
	return code;
}

/* An archive already in the folder is refused, and one that cannot be made is said
 * with the folder's name. */
static void test_errors(void)
{
	char dir[] = "/tmp/pvmmon-otf2-XXXXXX", path[64], msg[128];
	pvmmon_log *log = traced_log();
	pvmmon_otf2_counts n;
	OTF2_ErrorCallback was;
	FILE *f;

	logbuild_tmpdir(dir);
	CU_ASSERT_EQUAL_FATAL(export__otf2(log, dir, 0, &n), 0);
	CU_ASSERT_EQUAL(export__otf2(log, dir, 0, &n), PVMMON_EEXISTS);
	snprintf(msg, sizeof(msg), "export: %s already holds an OTF2 archive", dir);
	CU_ASSERT_STRING_EQUAL(pvmmon_error_last(), msg);
	CU_ASSERT_EQUAL(n.enters, 0);
	/* A folder under a file cannot be. */
	snprintf(path, sizeof(path), "%s/file", dir);
	f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/file/sub", dir);
	otf2_errors = 0;
	was = OTF2_Error_RegisterCallback(quiet, NULL);
	CU_ASSERT_EQUAL(export__otf2(log, path, 0, &n), PVMMON_EIO);
	OTF2_Error_RegisterCallback(was, NULL);
	CU_ASSERT(otf2_errors > 0);
	snprintf(msg, sizeof(msg), "export: cannot create an OTF2 archive in %s", path);
	CU_ASSERT_STRING_EQUAL(pvmmon_error_last(), msg);
	logbuild_remove(dir);
	pvmmon_log_free(log);
}

CU_TestInfo test_otf2_tests[] = {
    {"events: calls, messages, procedures, clock steps", test_events},
    {"definitions: clock, system tree, regions, communicator", test_definitions},
    {"real times, negative times, a log without hosts", test_real_times_and_base},
    {"an existing archive or a bad folder is an error", test_errors},
    CU_TEST_INFO_NULL,
};
