/* Unit tests for the task record's field list (common/log_task_fields.def): what the
 * codec, the XML writer and export make of a sample task, against golden files. */
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "../../../common/wire.h"
#include "../graphs/golden.h"
#include "pvmmon/export.h"
#include "pvmmon/log.h"

#define GOLDEN "tests/fixtures/golden/"

/* Two tasks: one with every field of the record set (every optional attribute
 * written), one with every field left zero (every optional attribute left out). */
static pvmmon_log *sample_log(void)
{
	pvmmon_log *log = NULL;
	pvmmon_log_task *t;

	CU_ASSERT_EQUAL_FATAL(pvmmon_log_new(&log), 0);
	log->tool_version = strdup("0.1.0");
	log->program = strdup("/opt/app/ring");
	log->started = strdup("2026-11-28T05:00:00Z");
	log->ntasks = 2;
	log->tasks = calloc(2, sizeof(*log->tasks));
	t = &log->tasks[0];
	t->tid = 0x40001;
	t->lid = strdup("0.3");
	t->parent_tid = 0x40002;
	t->earlier_tid = 0x40009;
	t->host = strdup("node1");
	t->pid = 4242;
	t->program = strdup("ring");
	t->status = PVMMON_TASK_KILLED;
	t->signal = SIGSEGV;
	t->last_stmt = 4;
	t->ended = strdup("killed by SIGSEGV at ring.c:31");
	t->start_ns = 5;
	t->end_ns = 6000000000LL;
	t->virtual_ns = 5900000000LL;
	t->intrusion_ns = -7;
	t->has_raw = 1;
	t->raw_ns = 6100000000LL;
	t->local_ns = 5950000000LL;
	t->uncertainty_ns = 120;
	t->clamped_ns = 12;
	t->flushes = 7;
	t->msgs_sent = 10;
	t->msgs_recv = 11;
	t->bytes_sent = 1ull << 40;
	t->bytes_recv = 13;
	t->unmonitored_recv = 1;
	t->bad_piggybacks = 2;
	t->waiting = strdup("at ring.c:12 for tag 7 from any task");
	t->clock = strdup("tsc");
	t = &log->tasks[1];
	t->tid = 0x40002;
	return log;
}

/* The XML writer's <task> elements, as before the list. */
static void test_xml_golden(void)
{
	pvmmon_log *log = sample_log();
	char dir[] = "/tmp/pvmmon-fields.XXXXXX", path[64];
	char *text;

	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/run.xml", dir);
	CU_ASSERT_EQUAL(pvmmon_log_write(log, path), 0);
	text = unit_slurp(path);
	unlink(path);
	rmdir(dir);
	unit_check_golden(text, GOLDEN "task-fields.xml");
	free(text);
	pvmmon_log_free(log);
}

/* The records message's bytes for the full task, in hexadecimal, 32 bytes a line. */
static void test_wire_golden(void)
{
	pvmmon_log *log = sample_log();
	wire_buf b;
	char *text;
	size_t i, n = 0;

	wire__buf_init(&b);
	wire__records_encode(&b, &log->tasks[0], 1);
	text = calloc(1, b.len * 3 + 2);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	for (i = 0; i < b.len; i++)
		n += (size_t)sprintf(text + n, "%02x%s", b.data[i],
		                     i + 1 == b.len || i % 32 == 31 ? "\n" : "");
	unit_check_golden(text, GOLDEN "task-fields.wire");
	free(text);
	wire__buf_free(&b);
	pvmmon_log_free(log);
}

/* The export's tasks table (JSON holds every table in one text). */
static void test_export_golden(void)
{
	pvmmon_log *log = sample_log();
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL(pvmmon_export_json(log, f), 0);
	fclose(f);
	unit_check_golden(text, GOLDEN "task-fields.json");
	free(text);
	pvmmon_log_free(log);
}

CU_TestInfo test_log_fields_tests[] = {
    {"a sample task's XML matches the golden file", test_xml_golden},
    {"a sample task's records message matches the golden bytes", test_wire_golden},
    {"a sample task's export matches the golden file", test_export_golden},
    CU_TEST_INFO_NULL,
};
