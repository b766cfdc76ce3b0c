/* Unit tests for graphs/export.c and export_tables.c: CSV quoting, JSON escaping, nulls. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "pvmmon/errors.h"
#include "pvmmon/export.h"
#include "pvmmon/log.h"

/* A log of one task whose program name needs quoting and whose lid is missing. */
static pvmmon_log *awkward_log(void)
{
	pvmmon_log *log = NULL;

	CU_ASSERT_EQUAL_FATAL(pvmmon_log_new(&log), 0);
	log->program = strdup("a,\"b\"\nc\\d\te");
	log->tasks = calloc(1, sizeof(*log->tasks));
	CU_ASSERT_PTR_NOT_NULL_FATAL(log->tasks);
	log->ntasks = 1;
	log->tasks[0].tid = 0x40005;
	log->tasks[0].virtual_ns = 1234;
	log->tasks[0].msgs_sent = 7;
	return log;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = calloc(1, 65536);

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_PTR_NOT_NULL_FATAL(buf);
	if (fread(buf, 1, 65535, f) == 0)
		buf[0] = '\0';
	fclose(f);
	return buf;
}

static void test_csv_quoting_and_nulls(void)
{
	char dir[] = "/tmp/pvmmon-export-XXXXXX", path[128], *text;
	pvmmon_log *log = awkward_log();

	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	CU_ASSERT_EQUAL_FATAL(pvmmon_export_csv(log, dir), 0);
	snprintf(path, sizeof(path), "%s/run.csv", dir);
	text = slurp(path);
	/* The field is quoted, its quotes doubled, its line break kept inside the quotes;
	 * started (unknown) is an empty field. */
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\r\n\"a,\"\"b\"\"\nc\\d\te\",,,"));
	free(text);
	snprintf(path, sizeof(path), "%s/tasks.csv", dir);
	text = slurp(path);
	/* A task without a logical id is named by its tid; a log without raw times has empty
	 * real and local time fields. */
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\r\nt40005,262149,0,"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, ",1234,0,,,0,7,"));
	free(text);
	/* Every table has its file, even an empty one: a header row. */
	snprintf(path, sizeof(path), "%s/hangs.csv", dir);
	text = slurp(path);
	CU_ASSERT_STRING_EQUAL(text, "kind,diagnosis,delay_ns\r\n");
	free(text);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	CU_ASSERT_EQUAL(system(path), 0);
	pvmmon_log_free(log);
}

static void test_json_escaping(void)
{
	pvmmon_log *log = awkward_log();
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL(pvmmon_export_json(log, f), 0);
	fclose(f);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"program\": \"a,\\\"b\\\"\\nc\\\\d\\te\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"started\": null"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"hangs\": []"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"format\": \"pvmmon-export\""));
	free(text);
	pvmmon_log_free(log);
}

static void test_export_errors(void)
{
	pvmmon_log *log = awkward_log();

	/* A folder that cannot be made: the error names it. */
	CU_ASSERT_EQUAL(pvmmon_export_csv(log, "/proc/no/such/dir"), PVMMON_EIO);
	CU_ASSERT_PTR_NOT_NULL(strstr(pvmmon_error_last(), "/proc/no/such/dir"));
	CU_ASSERT_EQUAL(pvmmon_export_json(NULL, stdout), PVMMON_EINVAL);
	pvmmon_log_free(log);
}

CU_TestInfo test_export_tests[] = {
    {"csv: quoting, nulls, empty tables", test_csv_quoting_and_nulls},
    {"json: escaping and nulls", test_json_escaping},
    {"errors name the folder", test_export_errors},
    CU_TEST_INFO_NULL,
};
