/*
 * Unit tests for graphs/waitfor.c: the wait-for graph of a log with a three-task
 * deadlock, a wait for a task killed on another host, a queued mismatched message and a
 * wildcard wait with a timeout matches its golden file; odd phrases and logs without
 * waits are handled; a polling cycle is drawn as a blocking one; the HTML report draws
 * it in its Hangs section.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "golden.h"
#include "pvmmon/errors.h"
#include "pvmmon/log.h"
#include "pvmmon/report.h"

/* The wait-for graph of log into a new string (the caller frees it); rc gets the code. */
static char *dot_of(const pvmmon_log *log, int *rc)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);

	CU_ASSERT_PTR_NOT_NULL_FATAL(mem);
	*rc = pvmmon_report_dot_waits(log, mem);
	fclose(mem);
	return text;
}

static void test_golden(void)
{
	pvmmon_log *log = NULL;
	char *text;
	int rc;

	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&log, "tests/fixtures/report-hangs.xml"), 0);
	text = dot_of(log, &rc);
	CU_ASSERT_EQUAL(rc, 0);
	unit_check_golden(text, "tests/fixtures/golden/hangs-waits.dot");
	free(text);
	pvmmon_log_free(log);
}

/* The cycle's arrows are red and only theirs; the others keep their own styles. */
static void test_cycle_and_styles(void)
{
	pvmmon_log *log = NULL;
	char *text;
	int rc;

	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&log, "tests/fixtures/report-hangs.xml"), 0);
	text = dot_of(log, &rc);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(text, "\"w:0.2\" -> \"w:0.0\" [label=\"tag 1\", color=\"#b00000\""));
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(text, "\"w:0.4\" -> \"w:0.3\" [label=\"tag 4\\nin context 262145\"];"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "killed by SIGSEGV at hang.c:90"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"w:0.1\" -> \"w:0.4\" [label=\"tag 7 queued, not "
	                                    "matched (another context)\", style=dotted"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"w:0\" -> \"w:any task\" [label=\"tag 99\\n(with a "
	                                    "timeout)\", style=dashed]"));
	/* Three cycle arrows: each pair once, though the task's wait and the diagnosis
	 * both tell of it. */
	{
		int n = 0;

		for (const char *p = strstr(text, "penwidth=2.5"); p;
		     p = strstr(p + 1, "penwidth=2.5"))
			n++;
		CU_ASSERT_EQUAL(n, 3);
	}
	free(text);
	pvmmon_log_free(log);
}

/* Phrases the graph cannot read are left out, not guessed at; a diagnosis alone (no
 * task's wait kept) still draws its cycle; a log without waits has no graph. */
static void test_odd_input(void)
{
	pvmmon_log *log = NULL;
	pvmmon_log_task tasks[2];
	pvmmon_log_hang hang = {"deadlock",
	                        "task a waits at m.so+0x10 for x for tag 3 from b; task b waits "
	                        "at f.c:9 for any tag from a",
	                        0};
	char *text;
	int rc;

	CU_ASSERT_EQUAL_FATAL(pvmmon_log_new(&log), 0);
	memset(tasks, 0, sizeof(tasks));
	tasks[0].lid = "a";
	tasks[1].lid = "b";
	log->tasks = tasks;
	log->ntasks = 2;
	/* No statement between "at " and " for ", and no "at " at all. */
	tasks[0].waiting = "at  for tag 1 from b";
	text = dot_of(log, &rc);
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_PTR_NULL(strstr(text, "->"));
	free(text);
	tasks[0].waiting = "somewhere else";
	text = dot_of(log, &rc);
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_PTR_NULL(strstr(text, "->"));
	free(text);
	log->tasks[0].waiting = NULL;
	text = dot_of(log, &rc);
	CU_ASSERT_EQUAL(rc, PVMMON_EINVAL);
	free(text);
	log->hangs = &hang;
	log->nhangs = 1;
	text = dot_of(log, &rc);
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(text, "\"w:a\" -> \"w:b\" [label=\"tag 3\", color=\"#b00000\""));
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(text, "\"w:b\" -> \"w:a\" [label=\"any tag\", color=\"#b00000\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "waits at m.so+0x10 for x\""));
	free(text);
	log->hangs = NULL;
	log->nhangs = 0;
	log->tasks = NULL;
	log->ntasks = 0;
	pvmmon_log_free(log);
}

/* A polling cycle ("task A polls at ...", waits marked " (polling)") is drawn as a
 * blocking one. */
static void test_polling_cycle(void)
{
	pvmmon_log *log = NULL;
	pvmmon_log_task tasks[2];
	pvmmon_log_hang hang = {"deadlock",
	                        "task a polls at hang.c:88 for tag 2 from b; task b polls at "
	                        "hang.c:88 for tag 1 from a",
	                        0};
	char *text;
	int rc;

	CU_ASSERT_EQUAL_FATAL(pvmmon_log_new(&log), 0);
	memset(tasks, 0, sizeof(tasks));
	tasks[0].lid = "a";
	tasks[1].lid = "b";
	tasks[0].waiting = "at hang.c:88 for tag 2 from b (polling)";
	log->tasks = tasks;
	log->ntasks = 2;
	log->hangs = &hang;
	log->nhangs = 1;
	text = dot_of(log, &rc);
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(text, "\"w:a\" -> \"w:b\" [label=\"tag 2\", color=\"#b00000\""));
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(text, "\"w:b\" -> \"w:a\" [label=\"tag 1\", color=\"#b00000\""));
	CU_ASSERT_PTR_NULL(strstr(text, "polling"));
	free(text);
	log->hangs = NULL;
	log->nhangs = 0;
	log->tasks = NULL;
	log->ntasks = 0;
	pvmmon_log_free(log);
}

/* The HTML report's Hangs section: the diagnoses, the waits and the picture; a log
 * without any has neither section nor picture. */
static void test_html_hangs_section(void)
{
	char dir[] = "/tmp/pvmmon-unit-waits.XXXXXX", path[256], cmd[300];
	pvmmon_log *log = NULL;
	pvmmon_report_opts svg = {"svg", 0, 0.01, 0};
	char *index;

	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&log, "tests/fixtures/report-hangs.xml"), 0);
	CU_ASSERT_EQUAL(pvmmon_report_html(log, dir, &svg), 0);
	snprintf(path, sizeof(path), "%s/index.html", dir);
	index = unit_slurp(path);
	CU_ASSERT_PTR_NOT_NULL_FATAL(index);
	CU_ASSERT_PTR_NOT_NULL(strstr(index, "<h2 id=hangs>Hangs</h2>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(index, "<li><b>deadlock</b>: task 0.0 waits at hang.c:72 "
	                                     "for tag 1 from 0.1;"));
	CU_ASSERT_PTR_NOT_NULL(strstr(index, "<li>task 0.4 (running) waiting at hang.c:80 for "
	                                     "tag 4 from 0.3 in context 262145</li>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(index, "<img class=graph src=\"waits.svg\""));
	free(index);
	snprintf(path, sizeof(path), "%s/waits.svg", dir);
	CU_ASSERT_EQUAL(access(path, R_OK), 0);
	pvmmon_log_free(log);
	log = NULL;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CU_ASSERT_EQUAL(system(cmd), 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(strcpy(dir, "/tmp/pvmmon-unit-waits.XXXXXX")));
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&log, "tests/fixtures/report-proctest.xml"), 0);
	CU_ASSERT_EQUAL(pvmmon_report_html(log, dir, &svg), 0);
	snprintf(path, sizeof(path), "%s/index.html", dir);
	index = unit_slurp(path);
	CU_ASSERT_PTR_NOT_NULL_FATAL(index);
	CU_ASSERT_PTR_NULL(strstr(index, "id=hangs"));
	free(index);
	snprintf(path, sizeof(path), "%s/waits.svg", dir);
	CU_ASSERT_NOT_EQUAL(access(path, F_OK), 0);
	pvmmon_log_free(log);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CU_ASSERT_EQUAL(system(cmd), 0);
}

/* Every prefix of real phrases (a log cut or edited by hand) gives a graph, never a
 * read out of bounds (the sanitizer build checks that). */
static void test_every_prefix(void)
{
	static const char wait[] = "at hang.c:72 for tag 1 from 0.1 in context 5 (with a timeout)";
	static const char text[] =
	    "task 0.4 waits at hang.c:80 for tag 4 from 0.3 in context 262145; a message from "
	    "0.1 with tag 7 in another context waits unreceived in its queue";
	char w[sizeof(wait)], t[sizeof(text)];
	pvmmon_log *log = NULL;
	pvmmon_log_task task;
	pvmmon_log_hang hang = {"deadlock", t, 0};
	int ok = 0;

	CU_ASSERT_EQUAL_FATAL(pvmmon_log_new(&log), 0);
	memset(&task, 0, sizeof(task));
	task.lid = "0.4";
	task.waiting = w;
	log->tasks = &task;
	log->ntasks = 1;
	log->hangs = &hang;
	log->nhangs = 1;
	for (size_t n = 0; n < sizeof(text); n++) {
		char *dot;
		int rc;

		snprintf(w, sizeof(w), "%.*s", (int)(n < sizeof(wait) ? n : sizeof(wait) - 1),
		         wait);
		snprintf(t, sizeof(t), "%.*s", (int)n, text);
		dot = dot_of(log, &rc);
		ok += rc == 0 && dot && strstr(dot, "}\n");
		free(dot);
	}
	CU_ASSERT_EQUAL(ok, (int)sizeof(text));
	log->tasks = NULL;
	log->ntasks = 0;
	log->hangs = NULL;
	log->nhangs = 0;
	pvmmon_log_free(log);
}

CU_TestInfo test_waitfor_tests[] = {
    {"a polling cycle is drawn as a blocking one", test_polling_cycle},
    {"wait-for graph of a deadlock, an ended source, a mismatch (golden)", test_golden},
    {"wait-for graph: cycle arrows red once, other styles", test_cycle_and_styles},
    {"wait-for graph: unreadable phrases left out, diagnoses alone, no waits", test_odd_input},
    {"wait-for graph: every prefix of real phrases", test_every_prefix},
    {"HTML report: hangs section with the wait-for graph", test_html_hangs_section},
    CU_TEST_INFO_NULL,
};
