/*
 * Unit tests for graphs/perfetto.c: traced logs built in memory exported in the Trace
 * Event Format, read back with a small JSON reader (jsonmini.c) and checked as the
 * format's documentation asks: every event with its phase, time, process and thread
 * (and a duration for complete events), complete events in time order per thread,
 * every flow start with exactly one flow end of the same id, category and name, the
 * processes and threads named; then against the log: the calls, their args, the
 * message flows, the critical path's track; logs without a trace refused.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "../export/logbuild.h"
#include "jsonmini.h"
#include "pvmmon/errors.h"
#include "pvmmon/export.h"

/* What check() found in a document. */
typedef struct summary {
	size_t x, s, f, meta;
	size_t x_by_tid[8];
	double cp_dur_us;   /* the critical path's slices' durations summed */
	double cp_last_len; /* the last one's path_length_ns */
} summary;

/*
 * The structure the Trace Event Format asks for, checked on doc; what it holds
 * counted into *sum. Returns the number of violations (the callers assert 0).
 */
static int check(const jm *doc, summary *sum)
{
	const jm *evs = jm_get(doc, "traceEvents");
	double last[64];
	int bad = 0;

#define WANT(c)                                                                                    \
	do {                                                                                       \
		if (!(c)) {                                                                        \
			bad++;                                                                     \
		}                                                                                  \
	} while (0)
	memset(sum, 0, sizeof(*sum));
	for (size_t i = 0; i < 64; i++)
		last[i] = -INFINITY;
	WANT(doc && doc->type == JM_OBJ);
	WANT(evs && evs->type == JM_ARR);
	WANT(jm_str(doc, "displayTimeUnit") && !strcmp(jm_str(doc, "displayTimeUnit"), "ns"));
	WANT(jm_get(doc, "metadata") && jm_get(doc, "metadata")->type == JM_OBJ);
	for (size_t i = 0; evs && evs->type == JM_ARR && i < evs->n; i++) {
		const jm *e = &evs->kids[i], *ts = jm_get(e, "ts"), *pid = jm_get(e, "pid");
		const jm *tid = jm_get(e, "tid"), *dur = jm_get(e, "dur");
		const char *ph = jm_str(e, "ph");

		WANT(e->type == JM_OBJ && ph && jm_str(e, "name"));
		WANT(ts && ts->type == JM_NUM && pid && pid->type == JM_NUM && tid &&
		     tid->type == JM_NUM);
		if (!ph || !ts || !tid || !pid)
			continue;
		if (!strcmp(ph, "M")) {
			sum->meta++;
			WANT(jm_get(e, "args") && jm_get(e, "args")->type == JM_OBJ);
		} else if (!strcmp(ph, "X")) {
			size_t t = (size_t)tid->num;

			sum->x++;
			WANT(dur && dur->type == JM_NUM && dur->num >= 0);
			WANT(t < 64 && ts->num >= last[t]);
			if (t < 64)
				last[t] = ts->num;
			if (t < 8)
				sum->x_by_tid[t]++;
		} else if (!strcmp(ph, "s") || !strcmp(ph, "f")) {
			const jm *id = jm_get(e, "id");
			size_t match = 0;

			*(ph[0] == 's' ? &sum->s : &sum->f) += 1;
			WANT(id && id->type == JM_NUM && jm_str(e, "cat"));
			if (ph[0] == 'f')
				WANT(jm_str(e, "bp") && !strcmp(jm_str(e, "bp"), "e"));
			/* Exactly one other end: same id, category and name, the other phase. */
			for (size_t k = 0; id && k < evs->n; k++) {
				const jm *o = &evs->kids[k], *oid = jm_get(o, "id");
				const char *oph = jm_str(o, "ph");

				match += oph && oid && oid->num == id->num && oph[0] != ph[0] &&
				         (oph[0] == 's' || oph[0] == 'f') && !oph[1] &&
				         jm_str(o, "cat") &&
				         !strcmp(jm_str(o, "cat"), jm_str(e, "cat")) &&
				         !strcmp(jm_str(o, "name"), jm_str(e, "name"));
			}
			WANT(match == 1);
		} else {
			WANT(0); /* no other phase is written */
		}
		if (!strcmp(ph, "X") && jm_str(e, "cat") && !strcmp(jm_str(e, "cat"), "critical")) {
			const jm *len = jm_get(jm_get(e, "args"), "path_length_ns");

			sum->cp_dur_us += dur ? dur->num : 0;
			sum->cp_last_len = len ? len->num : -1;
		}
	}
#undef WANT
	return bad;
}

/* The M event named name (process_name, thread_name) of pid and tid, its args.name. */
static const char *meta_name(const jm *doc, const char *name, int pid, int tid)
{
	const jm *evs = jm_get(doc, "traceEvents");

	for (size_t i = 0; evs && i < evs->n; i++) {
		const jm *e = &evs->kids[i];

		if (!strcmp(jm_str(e, "ph"), "M") && !strcmp(jm_str(e, "name"), name) &&
		    jm_get(e, "pid")->num == pid && jm_get(e, "tid")->num == tid)
			return jm_str(jm_get(e, "args"), "name");
	}
	return NULL;
}

/* The n-th event of phase ph on thread tid, or NULL. */
static const jm *nth(const jm *doc, const char *ph, int tid, size_t n)
{
	const jm *evs = jm_get(doc, "traceEvents");

	for (size_t i = 0; evs && i < evs->n; i++) {
		const jm *e = &evs->kids[i];

		if (!strcmp(jm_str(e, "ph"), ph) && jm_get(e, "tid")->num == tid && n-- == 0)
			return e;
	}
	return NULL;
}

static double num(const jm *o, const char *key)
{
	const jm *v = jm_get(o, key);

	return v && v->type == JM_NUM ? v->num : NAN;
}

/* log exported on the chosen clock and parsed back (NULL when the export failed). */
static jm *export(const pvmmon_log *log, int real, pvmmon_perfetto_counts *n)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	jm *doc = NULL;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	if (pvmmon_export_perfetto(log, f, real, n) == 0) {
		fclose(f);
		doc = jm_parse(text);
		CU_ASSERT_PTR_NOT_NULL(doc);
	} else {
		fclose(f);
	}
	free(text);
	return doc;
}

/*
 * Task 0 (host alpha) spawns task 1 (host beta), sends it tag 7 (seq 0), sends to a
 * tid that is no task of the program, runs the selected procedure solve, and receives
 * task 1's answer (seq 0), whose virtual start lies before its last event's (a clock
 * step back, held), waiting for it. Task 1: the receive of the send, a pvm_nrecv of a
 * message without a piggyback, the answer, late enough to put the message on the
 * critical path. Task 2 has no host in the host list and no events.
 */
static pvmmon_log *traced_log(int select)
{
	pvmmon_log *log = logbuild_new();
	size_t a, b;

	log->trace.enabled = 1;
	log->program = strdup("pipe");
	if (select) {
		log->cp.enabled = 1;
		log->cp.to_ns = -1;
		log->cp.nprocs = 1;
		log->cp.procs = calloc(1, sizeof(*log->cp.procs));
		CU_ASSERT_PTR_NOT_NULL_FATAL(log->cp.procs);
		log->cp.procs[0].name = strdup("solve");
	}
	logbuild_host(log, "alpha");
	logbuild_host(log, "beta");
	a = logbuild_task(log, 0x40001, "0", "alpha");
	b = logbuild_task(log, 0x80002, "0.1", "beta");
	logbuild_task(log, 0x80003, "0.2", "gamma");
	log->tasks[a].program = strdup("/x/pipe");
	log->tasks[b].program = strdup("worker");
	log->tasks[b].parent_tid = 0x40001;
	log->tasks[a].end_ns = log->tasks[a].virtual_ns = 5000;
	log->tasks[b].start_ns = 1200;
	log->tasks[b].end_ns = 3800;
	log->tasks[b].virtual_ns = 2600;
	logbuild_stmt(log, a, "pvm_spawn", "pipe.c", 10, NULL, 0, 1, 500, 0);
	logbuild_stmt(log, a, "pvm_send", "pipe.c", 40, NULL, 0, 2, 200, 48);
	logbuild_stmt(log, a, "pvm_recv", NULL, 0, "pipe", 0x4f0, 1, 400, 4);
	logbuild_event(log, a, PVMMON_EV_SPAWN, 0x80002, 0, 0, 0, 1000, 1500, 11000, 11600);
	logbuild_event(log, a, PVMMON_EV_SEND, 0x80002, 7, 40, 0, 2000, 2100, 12000, 12150);
	log->tasks[a].events[1].stmt = 1;
	logbuild_event(log, a, PVMMON_EV_SEND, 0x99999, 3, 8, 0, 2200, 2300, 12300, 12400);
	log->tasks[a].events[2].stmt = 1;
	logbuild_event(log, a, PVMMON_EV_ENTER, 0, 0, 0, 0, 3000, 3000, 13000, 13000);
	logbuild_event(log, a, PVMMON_EV_EXIT, 0, 0, 0, 0, 3500, 3500, 13600, 13600);
	logbuild_event(log, a, PVMMON_EV_RECV, 0x80002, 9, 4, 0, 3450, 4000, 13900, 14950);
	log->tasks[a].events[5].stmt = 2;
	log->tasks[a].events[5].sync = 500;
	log->tasks[a].events[5].trans = 350; /* sent at 3600, there at 3950 */
	logbuild_event(log, b, PVMMON_EV_RECV, 0x40001, 7, 40, 0, 1300, 2200, 11300, 12200);
	log->tasks[b].events[0].sync = 800; /* it waits for the send at 2000 */
	log->tasks[b].events[0].trans = 100;
	logbuild_event(log, b, PVMMON_EV_NRECV, 0x40001, 0, 0, -1, 2300, 2310, 12300, 12310);
	logbuild_event(log, b, PVMMON_EV_SEND, 0x40001, 9, 4, 0, 3600, 3650, 13600, 13650);
	return log;
}

static void test_structure(void)
{
	pvmmon_log *log = traced_log(1);
	pvmmon_perfetto_counts n;
	jm *doc = export(log, 0, &n);
	summary s;

	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	CU_ASSERT_EQUAL(check(doc, &s), 0);
	/* Six calls and one procedure; two messages between tasks of the program (the
	 * send to a stranger and the receive without a piggyback have no other end). */
	CU_ASSERT_EQUAL(s.x_by_tid[1], 5);
	CU_ASSERT_EQUAL(s.x_by_tid[2], 3);
	CU_ASSERT_EQUAL(s.x_by_tid[3], 0);
	CU_ASSERT_EQUAL(n.slices, 8);
	CU_ASSERT_EQUAL(s.s, 2);
	CU_ASSERT_EQUAL(s.f, 2);
	CU_ASSERT_EQUAL(n.flows, 2);
	/* A process per host (the host outside the list its own), a thread per task named
	 * by logical id, program and tid, and the critical path's own. */
	CU_ASSERT_STRING_EQUAL(meta_name(doc, "process_name", 1, 0), "host alpha");
	CU_ASSERT_STRING_EQUAL(meta_name(doc, "process_name", 2, 0), "host beta");
	CU_ASSERT_STRING_EQUAL(meta_name(doc, "process_name", 3, 0), "host unknown");
	CU_ASSERT_STRING_EQUAL(meta_name(doc, "thread_name", 1, 1), "0 pipe (t40001)");
	CU_ASSERT_STRING_EQUAL(meta_name(doc, "thread_name", 2, 2), "0.1 worker (t80002)");
	CU_ASSERT_STRING_EQUAL(meta_name(doc, "thread_name", 3, 3), "0.2 ? (t80003)");
	CU_ASSERT_STRING_EQUAL(meta_name(doc, "thread_name", 4, 4), "critical path");
	CU_ASSERT_STRING_EQUAL(jm_str(jm_get(doc, "metadata"), "clock"), "virtual");
	jm_free(doc);
	pvmmon_log_free(log);
}

static void test_events(void)
{
	pvmmon_log *log = traced_log(1);
	jm *doc = export(log, 0, NULL);
	const jm *e, *s, *f;

	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	/* The send: virtual times in microseconds, its statement, partner, tag, bytes. */
	e = nth(doc, "X", 1, 1);
	CU_ASSERT_STRING_EQUAL(jm_str(e, "name"), "pvm_send");
	CU_ASSERT_DOUBLE_EQUAL(num(e, "ts"), 2.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(num(e, "dur"), 0.1, 1e-9);
	CU_ASSERT_STRING_EQUAL(jm_str(jm_get(e, "args"), "statement"), "pipe.c:40");
	CU_ASSERT_STRING_EQUAL(jm_str(jm_get(e, "args"), "peer"), "0.1");
	CU_ASSERT_EQUAL(num(jm_get(e, "args"), "tag"), 7);
	CU_ASSERT_EQUAL(num(jm_get(e, "args"), "bytes"), 40);
	/* The send to a stranger names it by tid. */
	CU_ASSERT_STRING_EQUAL(jm_str(jm_get(nth(doc, "X", 1, 2), "args"), "peer"), "t99999");
	/* The procedure: entry to exit. */
	e = nth(doc, "X", 1, 3);
	CU_ASSERT_STRING_EQUAL(jm_str(e, "name"), "solve");
	CU_ASSERT_DOUBLE_EQUAL(num(e, "ts"), 3.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(num(e, "dur"), 0.5, 1e-9);
	/* The receive that started before the exit is held at it; its wait in args; a
	 * statement without a source place by module and offset. */
	e = nth(doc, "X", 1, 4);
	CU_ASSERT_STRING_EQUAL(jm_str(e, "name"), "pvm_recv");
	CU_ASSERT_DOUBLE_EQUAL(num(e, "ts"), 3.5, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(num(e, "dur"), 0.5, 1e-9);
	CU_ASSERT_EQUAL(num(jm_get(e, "args"), "wait_ns"), 500);
	CU_ASSERT_PTR_NOT_NULL(strstr(jm_str(jm_get(e, "args"), "statement"), "pipe+0x4f0"));
	/* The message 0 -> 0.1: from the send on task 0's thread to the receive on 0.1's. */
	s = nth(doc, "s", 1, 0);
	f = nth(doc, "f", 2, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_EQUAL(num(s, "id"), num(f, "id"));
	CU_ASSERT_DOUBLE_EQUAL(num(s, "ts"), 2.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(num(f, "ts"), 1.3, 1e-9);
	CU_ASSERT_EQUAL(num(s, "pid"), 1);
	CU_ASSERT_EQUAL(num(f, "pid"), 2);
	/* Its answer: from 0.1's send to task 0's receive. */
	CU_ASSERT_EQUAL(num(nth(doc, "s", 2, 0), "id"), num(nth(doc, "f", 1, 0), "id"));
	CU_ASSERT_NOT_EQUAL(num(s, "id"), num(nth(doc, "s", 2, 0), "id"));
	jm_free(doc);
	pvmmon_log_free(log);
}

/* The critical path's track: its slices end where the path does, their durations add
 * up to its length (virtual time; the message's transmission estimate is its flight
 * in the log's times, as in a real log), and it names the segments. */
static void test_critical_path(void)
{
	pvmmon_log *log = traced_log(1);
	pvmmon_perfetto_counts n;
	jm *doc = export(log, 0, &n);
	summary s;

	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	CU_ASSERT_EQUAL(check(doc, &s), 0);
	CU_ASSERT_STRING_EQUAL(n.no_path, "");
	CU_ASSERT(n.cp_segments >= 3);
	CU_ASSERT_EQUAL(s.x_by_tid[4], n.cp_segments);
	CU_ASSERT(s.cp_last_len > 0);
	CU_ASSERT_DOUBLE_EQUAL(s.cp_dur_us * 1000, s.cp_last_len, 1);
	CU_ASSERT_STRING_EQUAL(jm_str(jm_get(doc, "metadata"), "critical_path"),
	                       "the thread \"critical path\"");
	{
		int message = 0;

		for (size_t i = 0; i < n.cp_segments; i++)
			message |= !strcmp(jm_str(nth(doc, "X", 4, i), "name"), "message 0.1 -> 0");
		CU_ASSERT(message);
	}
	jm_free(doc);
	pvmmon_log_free(log);
	/* Without a selection: no track, and the metadata says why. */
	log = traced_log(0);
	doc = export(log, 0, &n);
	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	CU_ASSERT_EQUAL(check(doc, &s), 0);
	CU_ASSERT_EQUAL(n.cp_segments, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(n.no_path, "--cp="));
	CU_ASSERT_PTR_NOT_NULL(strstr(jm_str(jm_get(doc, "metadata"), "critical_path"), "--cp="));
	CU_ASSERT_PTR_NULL(meta_name(doc, "thread_name", 4, 4));
	jm_free(doc);
	pvmmon_log_free(log);
}

/* --time real: the calls' real start and end. */
static void test_real_time(void)
{
	pvmmon_log *log = traced_log(1);
	jm *doc = export(log, 1, NULL);
	summary s;
	const jm *e;

	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	CU_ASSERT_EQUAL(check(doc, &s), 0);
	e = nth(doc, "X", 1, 1);
	CU_ASSERT_DOUBLE_EQUAL(num(e, "ts"), 12.0, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(num(e, "dur"), 0.15, 1e-9);
	CU_ASSERT_STRING_EQUAL(jm_str(jm_get(doc, "metadata"), "clock"), "real");
	jm_free(doc);
	pvmmon_log_free(log);
}

/* A log without a trace, a trace without events, no log: refused, nothing written. */
static void test_refused(void)
{
	pvmmon_log *log = traced_log(1);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	log->trace.enabled = 0;
	CU_ASSERT_EQUAL(pvmmon_export_perfetto(log, f, 0, NULL), PVMMON_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(pvmmon_error_last(), "pvmmon run --trace"));
	pvmmon_log_free(log);
	log = logbuild_new();
	log->trace.enabled = 1;
	logbuild_task(log, 0x40001, "0", NULL);
	CU_ASSERT_EQUAL(pvmmon_export_perfetto(log, f, 0, NULL), PVMMON_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(pvmmon_error_last(), "no events"));
	CU_ASSERT_EQUAL(pvmmon_export_perfetto(NULL, f, 0, NULL), PVMMON_EINVAL);
	fclose(f);
	CU_ASSERT_EQUAL(len, 0);
	free(text);
	pvmmon_log_free(log);
}

/* The check fails on what it must catch: a flow start without its end, a complete
 * event without a duration, slices out of order on a thread, a document no JSON. */
static void test_check_can_fail(void)
{
	static const char *const broken[] = {
	    "{\"traceEvents\": [{\"ph\": \"s\", \"name\": \"m\", \"cat\": \"message\", \"id\": 1, "
	    "\"pid\": 1, \"tid\": 1, \"ts\": 1}], \"displayTimeUnit\": \"ns\", \"metadata\": {}}",
	    "{\"traceEvents\": [{\"ph\": \"X\", \"name\": \"a\", \"pid\": 1, \"tid\": 1, \"ts\": "
	    "1}], "
	    "\"displayTimeUnit\": \"ns\", \"metadata\": {}}",
	    "{\"traceEvents\": [{\"ph\": \"X\", \"name\": \"a\", \"pid\": 1, \"tid\": 1, \"ts\": "
	    "2, "
	    "\"dur\": 1}, {\"ph\": \"X\", \"name\": \"b\", \"pid\": 1, \"tid\": 1, \"ts\": 1, "
	    "\"dur\": 1}], \"displayTimeUnit\": \"ns\", \"metadata\": {}}",
	};
	summary s;

	for (size_t i = 0; i < sizeof(broken) / sizeof(broken[0]); i++) {
		jm *doc = jm_parse(broken[i]);

		CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
		CU_ASSERT(check(doc, &s) > 0);
		jm_free(doc);
	}
	CU_ASSERT_PTR_NULL(jm_parse("{\"traceEvents\": [1, ]}"));
	CU_ASSERT_PTR_NULL(jm_parse("{\"a\": 1} x"));
	CU_ASSERT_PTR_NULL(jm_parse("{\"a\": 01}"));
}

CU_TestInfo test_perfetto_tests[] = {
    {"perfetto: the format's structure, processes and threads named", test_structure},
    {"perfetto: calls, args, procedures and message flows", test_events},
    {"perfetto: the critical path's track, or why there is none", test_critical_path},
    {"perfetto: real time", test_real_time},
    {"perfetto: logs without a trace refused", test_refused},
    {"perfetto: the structure check catches broken documents", test_check_can_fail},
    CU_TEST_INFO_NULL,
};
