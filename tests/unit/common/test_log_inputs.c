/* Unit tests for the log reader on given inputs (common/log_read.c): bad inputs give
 * one line naming the file and what is wrong, and the fixture log of format 1.0 reads. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "pvmmon/errors.h"
#include "pvmmon/log.h"

/* A new empty file in TMPDIR (heap path; the caller unlinks and frees it). */
static char *scratch_file(void)
{
	const char *t = getenv("TMPDIR");
	char *p = NULL;
	int fd;

	CU_ASSERT_FATAL(asprintf(&p, "%s/pvmmon-unit-schema.XXXXXX", t && *t ? t : "/tmp") > 0);
	fd = mkstemp(p);
	CU_ASSERT_FATAL(fd >= 0);
	close(fd);
	return p;
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
}

static void expect_error(const char *path, int code, const char *what)
{
	pvmmon_log *log = NULL;

	CU_ASSERT_EQUAL(pvmmon_log_read(&log, path), code);
	CU_ASSERT_PTR_NULL(log);
	CU_ASSERT_PTR_NOT_NULL(strstr(pvmmon_error_last(), path));
	CU_ASSERT_PTR_NOT_NULL(strstr(pvmmon_error_last(), what));
	CU_ASSERT_PTR_NULL(strchr(pvmmon_error_last(), '\n'));
	CU_ASSERT_EQUAL(pvmmon_log_validate(path), code);
}

static void test_bad_inputs(void)
{
	char *p = scratch_file();

	expect_error("tests/fixtures/truncated.xml", PVMMON_EPARSE, "not a well-formed XML file");
	expect_error("tests/fixtures/not-xml.txt", PVMMON_EPARSE, "line 1");
	expect_error("tests/fixtures/version-2.xml", PVMMON_EVERSION, "version 2.0");
	expect_error("tests/fixtures/no-such.xml", PVMMON_ENOTFOUND, "no such file");
	write_text(p, "<?xml version=\"1.0\"?>\n<pvmmon-log version=\"1.0\"><run/></pvmmon-log>\n");
	expect_error(p, PVMMON_ESCHEMA, "does not match the log schema");
	write_text(p, "<?xml version=\"1.0\"?>\n<html/>\n");
	expect_error(p, PVMMON_ESCHEMA, "not a pvmmon log");
	CU_ASSERT_EQUAL(unlink(p), 0);
	free(p);
}

static void test_fixture_reads(void)
{
	pvmmon_log *log = NULL;
	int crashed = 0;

	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&log, "tests/fixtures/valid-1.0.xml"), 0);
	CU_ASSERT_EQUAL(log->ntasks, 3);
	for (size_t i = 0; i < log->ntasks; i++)
		crashed += log->tasks[i].status == PVMMON_TASK_CRASHED;
	CU_ASSERT_EQUAL(crashed, 1);
	/* A log from before raw and local times reads, and says it has none. */
	for (size_t i = 0; i < log->ntasks; i++) {
		CU_ASSERT_EQUAL(log->tasks[i].has_raw, 0);
		for (size_t j = 0; j < log->tasks[i].nprocs; j++)
			CU_ASSERT_EQUAL(log->tasks[i].procs[j].raw_incl_ns, 0);
	}
	CU_ASSERT_STRING_EQUAL(pvmmon_task_status_name(PVMMON_TASK_CRASHED), "crashed");
	CU_ASSERT_STRING_EQUAL(pvmmon_task_status_name(PVMMON_TASK_NOEXIT), "exited-without-pvm-exit");
	pvmmon_log_free(log);
	pvmmon_log_free(NULL);
	CU_ASSERT_PTR_NOT_NULL(strstr(pvmmon_log_schema(), "pvmmon-log"));
}

CU_TestInfo test_log_inputs_tests[] = {
    {"bad inputs give one line naming the file", test_bad_inputs},
    {"the fixture log reads", test_fixture_reads},
    CU_TEST_INFO_NULL,
};
