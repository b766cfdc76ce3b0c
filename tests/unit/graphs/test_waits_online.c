/* Unit tests for graphs/waits_online.c: the online wait analysis's tables (log 1.14)
 * summed by computation, named, and reported where a log has no usable trace. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "../../../graphs/figures.h"
#include "pvmmon/export.h"
#include "pvmmon/log.h"
#include "golden.h"
#include "pvmmon/waits.h"
#include "waitslog.h"

/* Appends the entry (tid, stmt, short, long, waits) to task ti's table. */
static void blame(pvmmon_log *log, size_t ti, int32_t tid, uint32_t stmt, int64_t s, int64_t l,
                  uint64_t waits)
{
	pvmmon_log_task *t = &log->tasks[ti];
	pvmmon_log_blame *b = realloc(t->blames, (t->nblames + 1) * sizeof(*b));

	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	t->blames = b;
	t->blames[t->nblames++] = (pvmmon_log_blame){tid, stmt, s, l, waits};
}

/*
 * An untraced pipeline: 0 sends (pipe.c:20 in main) to 0.0, which sends (pipe.c:40) to
 * 0.1. 0.0 waited 30 ms for 0's computation; 0.1 waited 20 ms for 0.0's own and 25 ms
 * for 0's through 0.0's waits (5 of its waits indirect), and 1 ms for a task the log
 * does not have.
 */
static pvmmon_log *pipeline(void)
{
	pvmmon_log *log = wlog__new_log(NULL, 0);
	size_t a = wlog__task(log, 0x40001, "0", 0, 100 * MS);
	size_t b = wlog__task(log, 0x40002, "0.0", 0, 100 * MS);
	size_t c = wlog__task(log, 0x40003, "0.1", 0, 100 * MS);

	log->trace.enabled = 0;
	wlog__stmt(log, a, 1, "pvm_send", "pipe.c", 20);
	log->tasks[a].stmts[0].function = strdup("main");
	wlog__stmt(log, b, 0, "pvm_recv", "pipe.c", 30);
	wlog__stmt(log, b, 2, "pvm_send", "pipe.c", 40);
	wlog__stmt(log, c, 5, "pvm_recv", "pipe.c", 50);
	log->tasks[c].stmts[0].indirect = 5;
	log->tasks[c].stmts[0].indirect_ns = 25 * MS;
	blame(log, b, 0x40001, 1, 30 * MS, 0, 10);
	blame(log, c, 0x40002, 2, 20 * MS, 0, 5);
	blame(log, c, 0x40001, 1, 0, 25 * MS, 5);
	blame(log, c, 0x40009, 4, 1 * MS, 0, 1);
	return log;
}

/* The tables summed by computation, largest first, each with the tasks that charged it. */
static void test_online_sums_by_computation(void)
{
	pvmmon_log *log = pipeline();
	pvmmon_wait_blame *v = NULL;
	size_t n = 0;

	CU_ASSERT_EQUAL_FATAL(pvmmon_waits_online(&v, &n, log), 0);
	CU_ASSERT_EQUAL_FATAL(n, 3);
	CU_ASSERT(v[0].tid == 0x40001 && v[0].stmt == 1);
	CU_ASSERT_EQUAL(v[0].short_ns, 30 * MS);
	CU_ASSERT_EQUAL(v[0].long_ns, 25 * MS);
	CU_ASSERT_EQUAL(v[0].waits, 15);
	CU_ASSERT_EQUAL(v[0].receivers, 2);
	CU_ASSERT(v[1].tid == 0x40002 && v[1].stmt == 2 && v[1].receivers == 1);
	CU_ASSERT(v[2].tid == 0x40009 && v[2].short_ns == 1 * MS);
	free(v);
	/* No task with a table: nothing, and no section. */
	for (size_t i = 0; i < log->ntasks; i++) {
		free(log->tasks[i].blames);
		log->tasks[i].blames = NULL;
		log->tasks[i].nblames = 0;
	}
	CU_ASSERT_EQUAL(pvmmon_waits_online(&v, &n, log), 0);
	CU_ASSERT(v == NULL && n == 0);
	{
		int rc;
		char *text = wlog__report(log, &rc);

		CU_ASSERT_EQUAL(rc, 0);
		CU_ASSERT_STRING_EQUAL(text, "");
		free(text);
	}
	pvmmon_log_free(log);
}

/* A cause is named as the traced section names a segment; a statement the task's records
 * lack, and a task the log lacks, by number. */
static void test_online_names(void)
{
	pvmmon_log *log = pipeline();
	char name[600];

	pvmmon_waits_online_name(name, sizeof(name), log, 0x40001, 1);
	CU_ASSERT_STRING_EQUAL(name, "0 before pipe.c:20 in main");
	pvmmon_waits_online_name(name, sizeof(name), log, 0x40002, 9);
	CU_ASSERT_STRING_EQUAL(name, "0.0 before statement 9");
	pvmmon_waits_online_name(name, sizeof(name), log, 0x40009, 4);
	CU_ASSERT_STRING_EQUAL(name, "t40009 before statement 4");
	pvmmon_log_free(log);
}

static const char pipeline_section[] =
    "Why tasks wait (online, without a trace, by segment)\n"
    "  waiting 76.00 ms (online), 25.00 ms of it propagated; 5 waits indirect\n"
    "  caused by (task, computation)                    direct propagated  share\n"
    "  0 before pipe.c:20 in main                     30.00 ms   25.00 ms  72.4%\n"
    "  0.0 before pipe.c:40                           20.00 ms       0 ns  26.3%\n"
    "  t40009 before statement 4                       1.00 ms       0 ns   1.3%\n"
    "  waited by (task)                                waiting propagated\n"
    "  0.1                                            46.00 ms   25.00 ms\n"
    "  0.0                                            30.00 ms       0 ns\n"
    "\n";

/* Without a trace, the report's section is the tables', rows in order. */
static void test_online_report(void)
{
	pvmmon_log *log = pipeline();
	int rc;
	char *text = wlog__report(log, &rc);

	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_STRING_EQUAL(text, pipeline_section);
	if (strcmp(text, pipeline_section))
		fprintf(stderr, "\n%s", text);
	free(text);
	/* A cut trace is no usable trace either. */
	log->trace.enabled = 1;
	log->trace.dropped = 3;
	text = wlog__report(log, &rc);
	CU_ASSERT_STRING_EQUAL(text, pipeline_section);
	free(text);
	pvmmon_log_free(log);
}

/* A trace that analyses wins: its section, and not a word of the tables. */
static void test_traced_section_wins(void)
{
	pvmmon_log *log = wlog__late_sender_log();
	int rc;
	char *text;

	blame(log, 0, 2, 0, 8 * MS, 0, 1);
	text = wlog__report(log, &rc);
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "Why tasks wait (from the trace, in virtual time)\n"));
	CU_ASSERT_PTR_NULL(strstr(text, "online"));
	free(text);
	pvmmon_log_free(log);
}

/* The HTML report has the same text under the traced section's heading. */
static void test_online_html(void)
{
	pvmmon_log *log = pipeline();
	char *text = NULL, *want = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);

	CU_ASSERT_PTR_NOT_NULL_FATAL(mem);
	graphs__waits_html(log, mem);
	fclose(mem);
	CU_ASSERT_FATAL(asprintf(&want,
	                         "<h2 id=why-wait>Why tasks wait</h2>\n<pre class=why>%s</pre>\n",
	                         strchr(pipeline_section, '\n') + 1) > 0);
	CU_ASSERT_STRING_EQUAL(text, want);
	free(want);
	free(text);
	pvmmon_log_free(log);
}

/* The export's online_waits table: a row per waiting task and computation, in the log's
 * order; a cause the log lacks by its tid, with no site. */
static void test_online_export(void)
{
	pvmmon_log *log = pipeline();
	char *text = unit_export_json(log);

	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(text, "\"online_waits\": [\n"
	                 "      {\"task\": \"0.0\", \"cause_task\": \"0\", \"cause_stmt\": 1, "
	                 "\"cause_site\": \"pipe.c:20\", \"short_ns\": 30000000, \"long_ns\": 0, "
	                 "\"waits\": 10},\n"
	                 "      {\"task\": \"0.1\", \"cause_task\": \"0.0\", \"cause_stmt\": 2, "
	                 "\"cause_site\": \"pipe.c:40\", \"short_ns\": 20000000, \"long_ns\": 0, "
	                 "\"waits\": 5},\n"
	                 "      {\"task\": \"0.1\", \"cause_task\": \"0\", \"cause_stmt\": 1, "
	                 "\"cause_site\": \"pipe.c:20\", \"short_ns\": 0, \"long_ns\": 25000000, "
	                 "\"waits\": 5},\n"
	                 "      {\"task\": \"0.1\", \"cause_task\": \"t40009\", \"cause_stmt\": 4, "
	                 "\"cause_site\": \"\", \"short_ns\": 1000000, \"long_ns\": 0, "
	                 "\"waits\": 1}\n"
	                 "    ]"));
	/* The receives' share of it in the statements table. */
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"indirect_waits\": 5, \"indirect_ns\": 25000000}"));
	free(text);
	pvmmon_log_free(log);
}

CU_TestInfo test_waits_online_tests[] = {
    {"the export's table: a row per waiting task and cause", test_online_export},
    {"the tables summed by computation, largest first", test_online_sums_by_computation},
    {"causes named by segment, by number when unknown", test_online_names},
    {"without a usable trace, the online section", test_online_report},
    {"a trace that analyses wins", test_traced_section_wins},
    {"the HTML report has the same section", test_online_html},
    CU_TEST_INFO_NULL,
};
