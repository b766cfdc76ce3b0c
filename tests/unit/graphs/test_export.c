/*
 * Unit tests for graphs/export.c and export_tables.c (CSV quoting, JSON escaping, nulls),
 * and for statements named from the static tables when the log has no line for them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "pvmmon/errors.h"
#include "pvmmon/export.h"
#include "pvmmon/log.h"
#include "golden.h"
#include "pvmmon/report.h"

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
	char *text = unit_export_json(log);

	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
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

/* A task of a build without -g: its statements have a module and offset but no file;
 * its static table has main with two pvm_send calls and one pvm_recv, and f with one
 * pvm_send. */
static pvmmon_log *nodebug_log(int sends_in_main)
{
	static const struct {
		pvmmon_static_kind kind;
		const char *name;
		int line, parent;
	} statics[] = {
	    {PVMMON_STATIC_PROC, "f", 10, -1},       {PVMMON_STATIC_COM, "pvm_send", 12, 0},
	    {PVMMON_STATIC_PROC, "main", 30, -1},    {PVMMON_STATIC_COM, "pvm_send", 40, 2},
	    {PVMMON_STATIC_LOOP, "for@50:2", 50, 2}, {PVMMON_STATIC_COM, "pvm_send", 52, 4},
	    {PVMMON_STATIC_COM, "pvm_recv", 53, 4}};
	static const struct {
		const char *op, *fn;
		uint64_t offset, count;
	} stmts[] = {{"pvm_send", "main", 0x200, 9},
	             {"pvm_recv", "main.cold", 0x900, 1},
	             {"pvm_send", "f", 0x80, 3},
	             {"pvm_send", "main", 0x100, 1}};
	pvmmon_log *log = NULL;
	pvmmon_log_task *t;
	size_t n = sizeof(stmts) / sizeof(stmts[0]);

	CU_ASSERT_EQUAL_FATAL(pvmmon_log_new(&log), 0);
	log->tasks = calloc(1, sizeof(*log->tasks));
	CU_ASSERT_PTR_NOT_NULL_FATAL(log->tasks);
	log->ntasks = 1;
	t = &log->tasks[0];
	t->lid = strdup("0");
	t->statics = calloc(7, sizeof(*t->statics));
	t->nstatics = 7;
	for (size_t i = 0; i < 7; i++)
		t->statics[i] =
		    (pvmmon_log_static){statics[i].kind, strdup(statics[i].name),
		                        strdup("src/cpseq.c"), statics[i].line, statics[i].parent};
	/* Without the first statement, main's sends are two candidates for one record. */
	if (!sends_in_main)
		n--;
	t->stmts = calloc(n, sizeof(*t->stmts));
	t->nstmts = n;
	for (size_t i = 0; i < n; i++) {
		size_t k = sends_in_main ? i : i + 1;

		t->stmts[i].id = (uint32_t)i;
		t->stmts[i].op = strdup(stmts[k].op);
		t->stmts[i].function = strdup(stmts[k].fn);
		t->stmts[i].module = strdup("/bin/cpseq");
		t->stmts[i].offset = stmts[k].offset;
		t->stmts[i].count = stmts[k].count;
		t->stmts[i].time_ns = 1000 * (int64_t)(10 - i);
	}
	return log;
}

static char *text_of(const pvmmon_log *log)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL(pvmmon_report_text(log, f), 0);
	fclose(f);
	return text;
}

/* A send's row of the text report's statements: name, call and count as it prints them. */
static const char *row(char *buf, size_t len, const char *name, int count)
{
	snprintf(buf, len, "%-40s %-10s %8d ", name, "pvm_send", count);
	return buf;
}

static int count_of(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = hay; (p = strstr(p, needle)) != NULL; p++)
		n++;
	return n;
}

static void test_statements_named_from_static_tables(void)
{
	pvmmon_log *log = nodebug_log(1);
	char *text = text_of(log), line[128];

	/* Each statement by its static entry: the only pvm_send of f, main's two in address
	 * order (the one at the lower address is line 40), a compiler's part of main. */
	CU_ASSERT_PTR_NULL(strstr(text, "+0x"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "cpseq.c:12 in f "));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, row(line, sizeof(line), "cpseq.c:52 in main", 9)));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, row(line, sizeof(line), "cpseq.c:40 in main", 1)));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "cpseq.c:53 in main.cold"));
	/* The program structure joins the records to the static entries (only the
	 * procedures and the loop, which have no records here, did not run). */
	CU_ASSERT_EQUAL(count_of(text, "not run"), 3);
	free(text);
	pvmmon_log_free(log);

	/* One record, two calls it could be: both lines, never a guess. */
	log = nodebug_log(0);
	text = text_of(log);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "cpseq.c:40,52 in main "));
	CU_ASSERT_PTR_NULL(strstr(text, "+0x"));
	free(text);
	/* A procedure main calls (g, at line 41) has a pvm_send too: a record in main may be
	 * its call, inlined, so its line is among those said. */
	{
		pvmmon_log_task *t = &log->tasks[0];
		pvmmon_log_static extra[] = {
		    {PVMMON_STATIC_CALL, strdup("g"), strdup("src/cpseq.c"), 41, 2},
		    {PVMMON_STATIC_PROC, strdup("g"), strdup("src/cpseq.c"), 58, -1},
		    {PVMMON_STATIC_COM, strdup("pvm_send"), strdup("src/cpseq.c"), 60, 8}};
		pvmmon_log_static *grown = realloc(t->statics, 10 * sizeof(*grown));

		CU_ASSERT_PTR_NOT_NULL_FATAL(grown);
		t->statics = grown;
		memcpy(&t->statics[7], extra, sizeof(extra));
		t->nstatics = 10;
		text = text_of(log);
		CU_ASSERT_PTR_NOT_NULL(strstr(text, "cpseq.c:40,52,60 in main "));
		CU_ASSERT_PTR_NULL(strstr(text, "+0x"));
		free(text);
	}
	/* Without static tables, module+offset as before. */
	log->tasks[0].nstatics = 0;
	text = text_of(log);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "cpseq+0x100 in main"));
	log->tasks[0].nstatics = 10;
	free(text);
	pvmmon_log_free(log);
}

/* The procedures table says how each record was measured and what its probes cost:
 * timed (calls times the task's calibrated pair), counted by pvmmon-cc, demoted by
 * throttling (the timed record until then and the counted one after), off. */
static void test_procedures_say_their_probes(void)
{
	static const struct {
		const char *name;
		int counted, disabled;
		int64_t pair;
		const char *row_end;
	} procs[] = {
	    {"p_timed", 0, 0, 0, ",0,0,timed,2000\r\n"},
	    {"p_counted", 1, 0, 0, ",1,0,counted,0\r\n"},
	    {"p_demoted", 0, 0, 30, ",0,0,demoted,2000\r\n"},
	    {"p_demoted", 1, 0, 30, ",1,0,demoted,0\r\n"},
	    {"p_off", 0, 1, 0, ",0,1,off,2000\r\n"},
	};
	char dir[] = "/tmp/pvmmon-export-XXXXXX", path[128], *text;
	pvmmon_log *log = awkward_log();
	pvmmon_log_task *t = &log->tasks[0];
	const size_t n = sizeof(procs) / sizeof(procs[0]);

	t->procs = calloc(n, sizeof(*t->procs));
	CU_ASSERT_PTR_NOT_NULL_FATAL(t->procs);
	t->nprocs = n;
	t->cost.known = 1;
	t->cost.proc_pair_ns = 20;
	for (size_t i = 0; i < n; i++) {
		t->procs[i].name = strdup(procs[i].name);
		t->procs[i].count = 100;
		t->procs[i].counted = procs[i].counted;
		t->procs[i].disabled = procs[i].disabled;
		t->procs[i].throttle_pair_ns = procs[i].pair;
	}
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	CU_ASSERT_EQUAL_FATAL(pvmmon_export_csv(log, dir), 0);
	snprintf(path, sizeof(path), "%s/procedures.csv", dir);
	text = slurp(path);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, ",counted,disabled,probes,probe_cost_ns\r\n"));
	for (size_t i = 0; i < n; i++) {
		char *row = strstr(text, procs[i].name), *end;

		/* The second demoted record is the row after the first. */
		if (row && i == 3)
			row = strstr(row + 1, procs[i].name);
		end = row ? strstr(row, "\r\n") : NULL;
		CU_ASSERT_PTR_NOT_NULL_FATAL(end);
		end += 2;
		CU_ASSERT(end - row >= (long)strlen(procs[i].row_end) &&
		          !strncmp(end - strlen(procs[i].row_end), procs[i].row_end,
		                   strlen(procs[i].row_end)));
	}
	free(text);
	/* Without a calibration the cost is unknown: an empty field. */
	t->cost.known = 0;
	CU_ASSERT_EQUAL_FATAL(pvmmon_export_csv(log, dir), 0);
	text = slurp(path);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, ",0,0,timed,\r\n"));
	free(text);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	CU_ASSERT_EQUAL(system(path), 0);
	pvmmon_log_free(log);
}

CU_TestInfo test_export_tests[] = {
    {"procedures say how they were measured and what their probes cost",
     test_procedures_say_their_probes},
    {"csv: quoting, nulls, empty tables", test_csv_quoting_and_nulls},
    {"json: escaping and nulls", test_json_escaping},
    {"errors name the folder", test_export_errors},
    {"statements named from the static tables without -g",
     test_statements_named_from_static_tables},
    CU_TEST_INFO_NULL,
};
