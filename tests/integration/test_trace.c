/*
 * Integration tests of the event trace (`pvmmon run --trace`): real runs on private
 * VMs whose traces must agree with the records and pair every message, a trace cut
 * at its size limit, and the space-time diagrams drawn from a traced run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "pvmmon/errors.h"
#include "pvmmon/log.h"
#include "harness.h"

#define RUN_TIMEOUT 120

/* Runs PROGRAM ARGS under `pvmmon run OPTS` into dir/name.xml; returns the log or NULL. */
static pvmmon_log *traced(const char *dir, const char *name, const char *opts,
			  const char *prog_args, cmd_result *r)
{
	char path[4096];
	pvmmon_log *log = NULL;

	snprintf(path, sizeof(path), "%s/%s.xml", dir, name);
	harness_sh(r, RUN_TIMEOUT, "cd '%s' && %s/pvmmon run -q %s -o '%s' -- %s", dir,
		   harness_bin(), opts, path, prog_args);
	if (r->status != 0)
		fprintf(stderr, "\npvmmon run %s: status %d\nstderr: %s\n", prog_args, r->status,
			r->err);
	if (pvmmon_log_read(&log, path) < 0) {
		fprintf(stderr, "\n%s\n", pvmmon_error_last());
		return NULL;
	}
	return log;
}

static const pvmmon_log_task *task_of(const pvmmon_log *log, int32_t tid)
{
	for (size_t i = 0; i < log->ntasks; i++)
		if (log->tasks[i].tid == tid)
			return &log->tasks[i];
	return NULL;
}

/* The receive event of task r that delivered message seq from tid src, or NULL; the
 * count of such events in *n (exactly one when pairing is right). */
static const pvmmon_log_event *receive_of(const pvmmon_log_task *r, int32_t src, int64_t seq,
					  int *n)
{
	const pvmmon_log_event *found = NULL;

	*n = 0;
	for (size_t i = 0; i < r->nevents; i++) {
		const pvmmon_log_event *e = &r->events[i];

		if (pvmmon_event_op_receives(e->op) && e->peer == src && e->seq == seq) {
			found = e;
			(*n)++;
		}
	}
	return found;
}

/*
 * The checks every complete trace must pass: events in time order with consistent
 * stamps, as many message events as the task's counters, per-statement synchronisation
 * delay equal to the records', and every monitored message paired with exactly one
 * receive of the same tag and size that does not arrive, in virtual time, before it
 * was sent. Returns the number of pairs.
 */
static size_t check_trace(const pvmmon_log *log)
{
	size_t pairs = 0;

	for (size_t i = 0; i < log->ntasks; i++) {
		const pvmmon_log_task *t = &log->tasks[i];
		uint64_t sent = 0, recvd = 0;

		CU_ASSERT(t->nevents > 0);
		for (size_t k = 0; k < t->nevents; k++) {
			const pvmmon_log_event *e = &t->events[k];

			CU_ASSERT(e->rt[0] <= e->rt[1] && e->rt[1] <= e->rt[2] && e->rt[2] <= e->rt[3]);
			CU_ASSERT(e->vt0 <= e->vt1);
			/* Virtual time never runs ahead of real time. */
			CU_ASSERT(e->vt1 <= e->rt[3]);
			if (k > 0)
				CU_ASSERT(t->events[k - 1].rt[0] <= e->rt[0]);
			if (!e->peer || e->op == PVMMON_EV_SPAWN)
				continue;
			if (pvmmon_event_op_sends(e->op)) {
				const pvmmon_log_task *r = task_of(log, e->peer);
				const pvmmon_log_event *m;
				int n = 0;

				sent++;
				CU_ASSERT_PTR_NOT_NULL_FATAL(r);
				m = receive_of(r, t->tid, e->seq, &n);
				CU_ASSERT_EQUAL(n, 1);
				if (!m)
					continue;
				CU_ASSERT_EQUAL(m->tag, e->tag);
				CU_ASSERT_EQUAL(m->bytes, e->bytes);
				CU_ASSERT(m->vt0 + m->sync >= e->vt0);
				pairs++;
			} else {
				CU_ASSERT(pvmmon_event_op_receives(e->op));
				recvd++;
				CU_ASSERT(e->seq >= 0);
			}
		}
		CU_ASSERT_EQUAL(sent, t->msgs_sent);
		CU_ASSERT_EQUAL(recvd, t->msgs_recv);
		for (size_t s = 0; s < t->nstmts; s++) {
			int64_t sync = 0;

			for (size_t k = 0; k < t->nevents; k++)
				if (t->events[k].stmt == t->stmts[s].id)
					sync += t->events[k].sync;
			CU_ASSERT_EQUAL(sync, t->stmts[s].sync_ns);
		}
	}
	return pairs;
}

static void test_matmul_trace_pairs_every_message(void)
{
	const char *dir = harness_tmpdir();
	char args[512];
	cmd_result m, r;
	pvmmon_log *log;
	uint64_t msgs = 0;

	snprintf(args, sizeof(args), "%s/matmul -n 90 -w 3 -i 2", harness_bin());
	harness_sh(&r, RUN_TIMEOUT, "cd '%s' && %s/pvmmon run --raw -q -- %s", dir, harness_bin(),
		   args);
	log = traced(dir, "matmul", "--trace", args, &m);
	CU_ASSERT_EQUAL(m.status, 0);
	/* Tracing never changes what the program computes. */
	CU_ASSERT_STRING_EQUAL(m.out, r.out);
	CU_ASSERT_PTR_NOT_NULL_FATAL(log);
	CU_ASSERT_EQUAL(log->ntasks, 4);
	CU_ASSERT_EQUAL(log->trace.enabled, 1);
	CU_ASSERT_EQUAL(log->trace.limit_bytes, 16u << 20);
	CU_ASSERT_EQUAL(log->trace.dropped, 0);
	CU_ASSERT_EQUAL(log->trace.complete_until_ns, log->wall_ns);
	for (size_t i = 0; i < log->ntasks; i++)
		msgs += log->tasks[i].msgs_sent;
	/* matmul multicasts to its workers: one event, and one pair, per destination. */
	CU_ASSERT(msgs > 0);
	CU_ASSERT_EQUAL(check_trace(log), msgs);
	pvmmon_log_free(log);
	cmd_result_free(&m);
	cmd_result_free(&r);
}

static void test_wildcard_trace_and_untraced_run(void)
{
	const char *dir = harness_tmpdir();
	char args[512];
	cmd_result m, u;
	pvmmon_log *log, *plain;

	snprintf(args, sizeof(args), "%s/mcpi -w 3 -c 24 -s 20000", harness_bin());
	log = traced(dir, "mcpi", "--trace=1M", args, &m);
	plain = traced(dir, "plain", "", args, &u);
	CU_ASSERT_EQUAL(m.status, 0);
	CU_ASSERT_STRING_EQUAL(m.out, u.out);
	CU_ASSERT_PTR_NOT_NULL_FATAL(log);
	CU_ASSERT_PTR_NOT_NULL_FATAL(plain);
	CU_ASSERT_EQUAL(log->trace.limit_bytes, 1u << 20);
	CU_ASSERT(check_trace(log) > 24);
	/* Without --trace the log has no trace at all: its size does not grow with the
	 * run's length. */
	CU_ASSERT_EQUAL(plain->trace.enabled, 0);
	for (size_t i = 0; i < plain->ntasks; i++)
		CU_ASSERT_EQUAL(plain->tasks[i].nevents, 0);
	pvmmon_log_free(log);
	pvmmon_log_free(plain);
	cmd_result_free(&m);
	cmd_result_free(&u);
}

static void test_trace_stops_at_its_limit(void)
{
	const char *dir = harness_tmpdir();
	char args[512], path[4200];
	cmd_result m, r;
	pvmmon_log *log;
	uint64_t kept = 0;
	char *text;

	snprintf(args, sizeof(args), "%s/mcpi -w 3 -c 200 -s 2000", harness_bin());
	harness_sh(&r, RUN_TIMEOUT, "cd '%s' && %s/pvmmon run --raw -q -- %s", dir, harness_bin(),
		   args);
	log = traced(dir, "cut", "--trace=8K", args, &m);
	CU_ASSERT_EQUAL(m.status, 0);
	CU_ASSERT_STRING_EQUAL(m.out, r.out);
	CU_ASSERT_PTR_NOT_NULL_FATAL(log);
	CU_ASSERT_EQUAL(log->trace.limit_bytes, 8192);
	CU_ASSERT(log->trace.dropped > 0);
	CU_ASSERT(log->trace.complete_until_ns < log->wall_ns);
	for (size_t i = 0; i < log->ntasks; i++) {
		const pvmmon_log_task *t = &log->tasks[i];

		kept += t->nevents;
		/* Every task's trace ends where the first dropped event began. */
		for (size_t k = 0; k < t->nevents; k++)
			CU_ASSERT(t->events[k].rt[0] < log->trace.complete_until_ns);
	}
	CU_ASSERT_EQUAL(kept, log->trace.kept);
	CU_ASSERT(kept > 0);
	/* The events in the log take about the size allowed, not more. */
	snprintf(path, sizeof(path), "%s/cut.xml", dir);
	text = harness_slurp(path, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	CU_ASSERT(kept <= 8192 / 100);
	CU_ASSERT(harness_count(text, "<ev ") == (int)kept);
	free(text);
	pvmmon_log_free(log);
	cmd_result_free(&m);
	cmd_result_free(&r);
}

static void test_trace_option_errors(void)
{
	cmd_result r;

	harness_sh(&r, 30, "%s/pvmmon run --trace=12Q -- true", harness_bin());
	CU_ASSERT_EQUAL(r.status, 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "12Q"));
	cmd_result_free(&r);
	harness_sh(&r, 30, "%s/pvmmon run --trace=100 -- true", harness_bin());
	CU_ASSERT_EQUAL(r.status, 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "at least 1K"));
	cmd_result_free(&r);
}

static void test_traced_run_report(void)
{
	const char *dir = harness_tmpdir();
	char args[512];
	cmd_result m, r;
	pvmmon_log *log;

	snprintf(args, sizeof(args), "%s/mcpi -w 2 -c 8 -s 20000", harness_bin());
	log = traced(dir, "rep", "--trace", args, &m);
	CU_ASSERT_PTR_NOT_NULL_FATAL(log);
	pvmmon_log_free(log);
	harness_sh(&r, 120,
		   "cd '%s' && %s/pvmmon report rep.xml -o out --time both --dot && ls out && "
		   "xmllint --noout out/spacetime-virtual.svg out/spacetime-real.svg && "
		   "grep -c 'spacetime-' out/index.html",
		   dir, harness_bin());
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "spacetime-virtual.dot"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "spacetime-real.svg"));
	if (r.status)
		fprintf(stderr, "\n%s%s", r.out, r.err);
	cmd_result_free(&r);
	cmd_result_free(&m);
	harness_sh(&r, 30, "cd '%s' && %s/pvmmon report rep.xml -o out2 --time sideways", dir,
		   harness_bin());
	CU_ASSERT_EQUAL(r.status, 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "sideways"));
	cmd_result_free(&r);
}

CU_TestInfo test_trace_tests[] = {
    {"matmul traced: every message paired, trace agrees with the records",
     test_matmul_trace_pairs_every_message},
    {"mcpi traced (wildcards); an untraced run has no trace", test_wildcard_trace_and_untraced_run},
    {"a trace stops at its size limit and says where", test_trace_stops_at_its_limit},
    {"--trace option errors", test_trace_option_errors},
    {"a traced run's report has space-time diagrams", test_traced_run_report},
    CU_TEST_INFO_NULL,
};
