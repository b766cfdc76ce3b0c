/*
 * Unit tests for graphs/spacetime.c: the space-time diagrams of a real traced mcpi run
 * (tests/fixtures/report-trace.xml, and report-trace-cut.xml whose trace was cut short)
 * match the golden files, draw one arrow per matched message, stay bounded for a large
 * trace, and render with Graphviz.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>
#include <libxml/parser.h>

#include "pvmmon/cpath.h"
#include "pvmmon/errors.h"
#include "pvmmon/log.h"
#include "pvmmon/report.h"
#include "../../../graphs/render.h"
#include "golden.h"

#define TRACE "tests/fixtures/report-trace.xml"
#define TRACE_CUT "tests/fixtures/report-trace-cut.xml"

/* The diagram of log on time axis tb as a heap string, asserting that it was made. */
static char *diagram(const pvmmon_log *log, pvmmon_timebase tb)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);

	CU_ASSERT_PTR_NOT_NULL_FATAL(mem);
	CU_ASSERT_EQUAL(pvmmon_report_dot_spacetime(log, tb, mem), 0);
	fclose(mem);
	return text;
}

/* How many times needle occurs in text. */
static size_t count(const char *text, const char *needle)
{
	size_t n = 0;

	for (const char *p = text; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

static void check_golden(const char *log_path, pvmmon_timebase tb, const char *golden)
{
	pvmmon_log *log = NULL;
	char *text;

	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&log, log_path), 0);
	text = diagram(log, tb);
	unit_check_golden(text, golden);
	free(text);
	pvmmon_log_free(log);
}

static void test_virtual_time_golden(void)
{
	check_golden(TRACE, PVMMON_TIME_VIRTUAL,
		     "tests/fixtures/golden/trace-spacetime-virtual.dot");
}

static void test_real_time_golden(void)
{
	check_golden(TRACE, PVMMON_TIME_REAL, "tests/fixtures/golden/trace-spacetime-real.dot");
}

static int receives(pvmmon_event_op op)
{
	return op == PVMMON_EV_RECV || op == PVMMON_EV_NRECV || op == PVMMON_EV_TRECV ||
	       op == PVMMON_EV_PRECV;
}

static const pvmmon_log_task *task_by_tid(const pvmmon_log *log, int32_t tid)
{
	for (size_t i = 0; i < log->ntasks; i++)
		if (log->tasks[i].tid == tid)
			return &log->tasks[i];
	return NULL;
}

static void test_one_arrow_per_matched_message(void)
{
	pvmmon_log *log = NULL;
	size_t expected = 0, matched = 0;

	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&log, TRACE), 0);
	/* Every monitored message from a traced sender: a receive with a sequence number. */
	for (size_t i = 0; i < log->ntasks; i++)
		for (size_t j = 0; j < log->tasks[i].nevents; j++) {
			const pvmmon_log_event *e = &log->tasks[i].events[j];
			const pvmmon_log_task *from = task_by_tid(log, e->peer);

			if (receives(e->op) && e->peer != 0 && e->seq >= 0 && from && from->nevents)
				expected++;
		}
	/* The pairs, found the slow way: each send against every receive of its receiver. */
	for (size_t i = 0; i < log->ntasks; i++)
		for (size_t j = 0; j < log->tasks[i].nevents; j++) {
			const pvmmon_log_event *s = &log->tasks[i].events[j];
			const pvmmon_log_task *to = task_by_tid(log, s->peer);

			if (!pvmmon_event_op_sends(s->op) || s->peer == 0 || s->seq < 0 || !to)
				continue;
			for (size_t k = 0; k < to->nevents; k++)
				if (receives(to->events[k].op) &&
				    to->events[k].peer == log->tasks[i].tid &&
				    to->events[k].seq == s->seq) {
					matched++;
					break;
				}
		}
	CU_ASSERT(matched > 0);
	CU_ASSERT_EQUAL(matched, expected);
	for (int tb = PVMMON_TIME_VIRTUAL; tb <= PVMMON_TIME_REAL; tb++) {
		char *text = diagram(log, (pvmmon_timebase)tb), want[64];

		CU_ASSERT_EQUAL(count(text, " -> r"), matched);
		snprintf(want, sizeof(want), "; %zu messages", matched);
		CU_ASSERT_PTR_NOT_NULL(strstr(text, want));
		CU_ASSERT_PTR_NULL(strstr(text, "showing"));
		CU_ASSERT_PTR_NULL(strstr(text, "truncated"));
		free(text);
	}
	pvmmon_log_free(log);
}

static void test_untraced_log_is_refused(void)
{
	pvmmon_log *log = NULL;
	char *text = NULL;
	size_t len = 0;
	FILE *mem;

	/* matmul was run without --trace. */
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&log, "tests/fixtures/report-matmul.xml"), 0);
	mem = open_memstream(&text, &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(mem);
	CU_ASSERT_EQUAL(pvmmon_report_dot_spacetime(log, PVMMON_TIME_VIRTUAL, mem), PVMMON_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(pvmmon_error_last(), "not traced"));
	/* Traced, but no task has an event. */
	log->trace.enabled = 1;
	CU_ASSERT_EQUAL(pvmmon_report_dot_spacetime(log, PVMMON_TIME_REAL, mem), PVMMON_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(pvmmon_error_last(), "no events"));
	CU_ASSERT_EQUAL(pvmmon_report_dot_spacetime(NULL, PVMMON_TIME_REAL, mem), PVMMON_EINVAL);
	fclose(mem);
	/* Nothing half-written. */
	CU_ASSERT_EQUAL(len, 0);
	free(text);
	pvmmon_log_free(log);
}

static void test_cut_trace_is_said_in_the_label(void)
{
	pvmmon_log *log = NULL;

	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&log, TRACE_CUT), 0);
	CU_ASSERT_FATAL(log->trace.dropped > 0);
	for (int tb = PVMMON_TIME_VIRTUAL; tb <= PVMMON_TIME_REAL; tb++) {
		char *text = diagram(log, (pvmmon_timebase)tb), want[64];

		snprintf(want, sizeof(want), "trace truncated: %llu events dropped",
			 (unsigned long long)log->trace.dropped);
		CU_ASSERT_PTR_NOT_NULL(strstr(text, want));
		CU_ASSERT_PTR_NOT_NULL(strstr(text, tb == PVMMON_TIME_REAL
							? "lanes stop there"
							: "stop at their last traced event"));
		free(text);
	}
	pvmmon_log_free(log);
}

/*
 * A ring of 64 tasks, each sending 1000 messages to the next and receiving 1000 from
 * the previous, alternately: 128000 events and 64000 messages.
 */
static pvmmon_log *ring_log(void)
{
	enum { NTASKS = 64, NEVENTS = 2000 };
	pvmmon_log *log = NULL;

	CU_ASSERT_EQUAL_FATAL(pvmmon_log_new(&log), 0);
	log->trace.enabled = 1;
	log->program = strdup("ring");
	log->tasks = calloc(NTASKS, sizeof(*log->tasks));
	CU_ASSERT_PTR_NOT_NULL_FATAL(log->tasks);
	log->ntasks = NTASKS;
	for (int i = 0; i < NTASKS; i++) {
		pvmmon_log_task *t = &log->tasks[i];
		char lid[16];

		snprintf(lid, sizeof(lid), "0.%d", i);
		t->tid = 0x40001 + i;
		t->lid = strdup(lid);
		t->program = strdup("ring");
		t->start_ns = 1000 * i;
		t->end_ns = t->start_ns + 10000 * (NEVENTS + 1);
		t->virtual_ns = 8000 * (NEVENTS + 1);
		t->events = calloc(NEVENTS, sizeof(*t->events));
		CU_ASSERT_PTR_NOT_NULL_FATAL(t->events);
		t->nevents = NEVENTS;
		for (int k = 0; k < NEVENTS; k++) {
			pvmmon_log_event *e = &t->events[k];
			int64_t at = t->start_ns + 10000 * (k + 1);
			int64_t vat = t->start_ns + 8000 * (k + 1);

			e->op = k % 2 ? PVMMON_EV_RECV : PVMMON_EV_SEND;
			e->peer = 0x40001 + (k % 2 ? (i + NTASKS - 1) % NTASKS : (i + 1) % NTASKS);
			e->tag = 1;
			e->bytes = 64;
			e->seq = k / 2;
			e->rt[0] = at;
			e->rt[1] = at + 500;
			e->rt[2] = at + 3000;
			e->rt[3] = at + 3500;
			e->vt0 = vat;
			e->vt1 = vat + 2500;
			e->sync = k % 2 ? 2000 : 0;
		}
	}
	return log;
}

static void test_large_trace_stays_bounded(void)
{
	pvmmon_log *log = ring_log();

	for (int tb = PVMMON_TIME_VIRTUAL; tb <= PVMMON_TIME_REAL; tb++) {
		char *text = diagram(log, (pvmmon_timebase)tb);

		/* At most 600 boxes a lane, 2000 arrows with two end points, some labels. */
		CU_ASSERT(count(text, "[pos=") < 64 * 600 + 2 * 2000 + 200);
		CU_ASSERT_EQUAL(count(text, " -> r"), 2000);
		CU_ASSERT_PTR_NOT_NULL(strstr(text, "showing 2000 of 64000 messages"));
		free(text);
	}
	pvmmon_log_free(log);
}

/* Rendering comes last: it needs the Graphviz layout the graph names (nop2). */
static void test_renders_to_svg(void)
{
	char dir[256], path[300];
	const char *tmp = getenv("TMPDIR");
	pvmmon_log *log = NULL;

	snprintf(dir, sizeof(dir), "%s/pvmmon-unit-spacetime.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&log, TRACE), 0);
	for (int tb = PVMMON_TIME_VIRTUAL; tb <= PVMMON_TIME_REAL; tb++) {
		char *text = diagram(log, (pvmmon_timebase)tb);
		xmlDocPtr doc;
		int rc;

		snprintf(path, sizeof(path), "%s/spacetime-%d.svg", dir, tb);
		rc = graphs__render(text, "svg", path);
		if (rc < 0)
			fprintf(stderr, "\n  %s\n", pvmmon_error_last());
		CU_ASSERT_EQUAL(rc, 0);
		doc = xmlReadFile(path, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR);
		CU_ASSERT_PTR_NOT_NULL(doc);
		if (doc) {
			xmlNodePtr root = xmlDocGetRootElement(doc);
			char *svg = unit_slurp(path);

			CU_ASSERT(root && !strcmp((const char *)root->name, "svg"));
			/* Every arrow is drawn, with its tooltip. */
			CU_ASSERT_PTR_NOT_NULL(svg);
			if (svg) {
				CU_ASSERT_EQUAL(count(svg, "class=\"edge\""), count(text, " -> r"));
				CU_ASSERT_PTR_NOT_NULL(strstr(svg, "pvm_recv from t"));
			}
			free(svg);
			xmlFreeDoc(doc);
		}
		free(text);
	}
	pvmmon_log_free(log);
	{
		char cmd[300];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		CU_ASSERT_EQUAL(system(cmd), 0);
	}
}

/*
 * The issort run's critical path drawn over its diagrams: the label gives its length,
 * every message and spawn on it is one thick arrow, and without a path the diagram is
 * the plain one.
 */
static void test_critical_path_drawn(void)
{
	pvmmon_log *log = NULL;
	pvmmon_cpath *cp = NULL;
	char *plain, *text = NULL;
	size_t len = 0, messages = 0, spawns = 0;
	FILE *mem;

	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&log, "tests/fixtures/cp-issort.xml"), 0);
	CU_ASSERT_EQUAL_FATAL(pvmmon_cpath_compute(&cp, log), 0);
	for (size_t i = 0; i < cp->npath; i++) {
		messages += cp->path[i].via == PVMMON_CPATH_VIA_MESSAGE;
		spawns += cp->path[i].via == PVMMON_CPATH_VIA_SPAWN;
	}
	for (int tb = 0; tb < 2; tb++) {
		mem = open_memstream(&text, &len);
		CU_ASSERT_PTR_NOT_NULL_FATAL(mem);
		CU_ASSERT_EQUAL(pvmmon_report_dot_spacetime_cp(log, (pvmmon_timebase)tb, cp, mem), 0);
		fclose(mem);
		CU_ASSERT_PTR_NOT_NULL(strstr(text, "critical path (thick black): 258.93 ms, ends in "
						    "task 0"));
		CU_ASSERT_EQUAL(count(text, "tooltip=\"critical path: message\""), messages);
		CU_ASSERT_EQUAL(count(text, "tooltip=\"critical path: spawn\""), spawns);
		CU_ASSERT(count(text, "tooltip=\"critical path: work\"") >= 4);
		free(text);
		text = NULL;
		mem = open_memstream(&text, &len);
		CU_ASSERT_PTR_NOT_NULL_FATAL(mem);
		CU_ASSERT_EQUAL(pvmmon_report_dot_spacetime_cp(log, (pvmmon_timebase)tb, NULL, mem), 0);
		fclose(mem);
		plain = diagram(log, (pvmmon_timebase)tb);
		CU_ASSERT_STRING_EQUAL(text, plain);
		CU_ASSERT_PTR_NULL(strstr(plain, "critical path"));
		free(plain);
		free(text);
		text = NULL;
	}
	CU_ASSERT(messages == 3 && spawns == 1);
	pvmmon_cpath_free(cp);
	pvmmon_log_free(log);
}

CU_TestInfo test_spacetime_tests[] = {
    {"virtual-time diagram of a traced mcpi run (golden)", test_virtual_time_golden},
    {"real-time diagram of a traced mcpi run (golden)", test_real_time_golden},
    {"one arrow per matched send and receive", test_one_arrow_per_matched_message},
    {"untraced or empty trace refused with EINVAL", test_untraced_log_is_refused},
    {"cut trace said in the label", test_cut_trace_is_said_in_the_label},
    {"64 tasks x 2000 events stay bounded", test_large_trace_stays_bounded},
    {"renders to SVG with Graphviz", test_renders_to_svg},
    {"critical path drawn over the diagram", test_critical_path_drawn},
    CU_TEST_INFO_NULL,
};
