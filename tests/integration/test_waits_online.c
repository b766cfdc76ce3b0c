/*
 * Integration tests of the online wait analysis (pvmhooks/blame.c, the log's <blame>
 * tables, graphs/waits_online.c) on real pvmds: the pipeline (apps/slowstage,
 * asleep) run without a trace has its waiting charged by the tasks themselves to stage
 * 0's segment before its send, directly by stage 1 and through the stages between by
 * the others, every wait once; an untraced run's report says the section is online,
 * and a run with the analysis off has none; pvmmon diff compares two runs' tables.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "harness.h"
#include "pvmmon/log.h"

#define RUN_TIMEOUT 120

/* The task with tid in log (NULL if none). */
static const pvmmon_log_task *task_of(const pvmmon_log *log, int32_t tid)
{
	for (size_t i = 0; i < log->ntasks; i++)
		if (log->tasks[i].tid == tid)
			return &log->tasks[i];
	return NULL;
}

/* A receive statement's online counts of task lid: its waits found indirect. */
static uint64_t indirect_of(const pvmmon_log *log, const char *lid)
{
	uint64_t n = 0;

	for (size_t i = 0; i < log->ntasks; i++)
		if (log->tasks[i].lid && !strcmp(log->tasks[i].lid, lid))
			for (size_t j = 0; j < log->tasks[i].nstmts; j++)
				n += log->tasks[i].stmts[j].indirect;
	return n;
}

/*
 * The same pipeline without a trace: the tasks charge their waits themselves
 * (pvmhooks/blame.c), by segment. Stage 0's segment before its send holds its 1 ms of
 * work and slow_part's 6: analytically stage 1's whole waiting (7 + 39 x 6 = 241 ms)
 * directly, and 241 ms of each of stages 2 and 3 and of the master through the stages
 * between (723 ms); of 1009 ms, 95.5%. Measured 92.3-94.2%: the stages' starts, which
 * the offline analysis sees as well. Every wait is charged: the charges add up to the
 * receives' synchronisation delays.
 */
static void test_online_pipeline(void)
{
	const char *dir = harness_tmpdir();
	char path[512];
	cmd_result r;
	pvmmon_log *log = NULL;
	const pvmmon_log_task *s0 = NULL;
	int64_t total = 0, sync = 0, top_short = 0, top_long = 0;
	uint32_t send_stmt = UINT32_MAX;
	int64_t tol = harness_slowed() ? 10 : 5;

	harness_sh(&r, RUN_TIMEOUT,
	           "cd '%s' && %s/pvmmon-cc -g -O2 -o slowstage %s/../apps/slowstage.c -lpvm3 && "
	           "%s/pvmmon run -q -o o.xml -- ./slowstage -b 1 -r 40 && %s/pvmmon report o.xml",
	           dir, harness_bin(), harness_build(), harness_bin(), harness_bin());
	CU_ASSERT_EQUAL_FATAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(r.out, "Why tasks wait (online, without a trace, by segment)"));
	CU_ASSERT_PTR_NULL(strstr(r.out, "Why tasks wait (from the trace"));
	cmd_result_free(&r);
	snprintf(path, sizeof(path), "%s/o.xml", dir);
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&log, path), 0);
	for (size_t i = 0; i < log->ntasks; i++) {
		const pvmmon_log_task *t = &log->tasks[i];

		if (t->lid && !strcmp(t->lid, "0.0"))
			s0 = t;
		for (size_t j = 0; j < t->nstmts; j++)
			sync += t->stmts[j].sync_ns;
		for (size_t j = 0; j < t->nblames; j++)
			total += t->blames[j].short_ns + t->blames[j].long_ns;
	}
	CU_ASSERT_PTR_NOT_NULL_FATAL(s0);
	for (size_t j = 0; j < s0->nstmts; j++)
		if (s0->stmts[j].op && !strcmp(s0->stmts[j].op, "pvm_send"))
			send_stmt = s0->stmts[j].id;
	for (size_t i = 0; i < log->ntasks; i++)
		for (size_t j = 0; j < log->tasks[i].nblames; j++) {
			const pvmmon_log_blame *b = &log->tasks[i].blames[j];

			CU_ASSERT_PTR_NOT_NULL(task_of(log, b->tid));
			if (b->tid == s0->tid && b->stmt == send_stmt) {
				top_short += b->short_ns;
				top_long += b->long_ns;
			}
		}
	fprintf(stderr,
	        "\n  online: waiting %.1f ms (receives %.1f ms); stage 0 before its send: %.1f ms "
	        "direct (241), %.1f propagated (723), %.1f%%; indirect: stage 2 %llu, stage 3 "
	        "%llu, master %llu of 40",
	        total / 1e6, sync / 1e6, top_short / 1e6, top_long / 1e6,
	        total ? 100.0 * (double)(top_short + top_long) / (double)total : 0.0,
	        (unsigned long long)indirect_of(log, "0.2"),
	        (unsigned long long)indirect_of(log, "0.3"),
	        (unsigned long long)indirect_of(log, "0"));
	/* Every receive's synchronisation delay charged, once. */
	CU_ASSERT(total > 0 && total >= sync * 99 / 100 && total <= sync * 101 / 100);
	CU_ASSERT(top_short + top_long >= total * (harness_slowed() ? 80 : 88) / 100);
	CU_ASSERT(top_short >= 241000000LL * (100 - tol) / 100 &&
	          top_short <= 241000000LL * (100 + tol) / 100);
	CU_ASSERT(top_long >= 723000000LL * (100 - tol) / 100 &&
	          top_long <= 723000000LL * (100 + tol) / 100);
	/* Stages 2 and 3 and the master wait for tasks that wait: indirect, all but the
	 * first few items (whose intervals hold the stages' starts). */
	CU_ASSERT(indirect_of(log, "0.2") >= (harness_slowed() ? 30u : 37u));
	CU_ASSERT(indirect_of(log, "0.3") >= (harness_slowed() ? 30u : 37u));
	CU_ASSERT(indirect_of(log, "0") >= (harness_slowed() ? 30u : 37u));
	CU_ASSERT_EQUAL(indirect_of(log, "0.1"), 0);
	pvmmon_log_free(log);
}

static void test_untraced_log(void)
{
	const char *dir = harness_tmpdir();
	cmd_result r;
	const char *online;

	/* Without a trace the tasks' own tables give the section, and it says so; with the
	 * analysis off in the tasks (PVMMON_BLAME=0) there is no section at all. */
	harness_sh(&r, RUN_TIMEOUT,
	           "cd '%s' && %s/pvmmon run -q -o m.xml -- %s/mcpi && %s/pvmmon report m.xml && "
	           "PVMMON_BLAME=0 %s/pvmmon run -q -o n.xml -- %s/mcpi && echo '=== off' && "
	           "%s/pvmmon report n.xml",
	           dir, harness_bin(), harness_bin(), harness_bin(), harness_bin(), harness_bin(),
	           harness_bin());
	CU_ASSERT_EQUAL(r.status, 0);
	online = strstr(r.out, "Why tasks wait (online, without a trace, by segment)");
	CU_ASSERT_PTR_NOT_NULL(online);
	CU_ASSERT_PTR_NULL(strstr(r.out, "Why tasks wait (from the trace"));
	/* The workers wait for the master's hand-outs, the master for the workers. */
	CU_ASSERT(online && strstr(online, "  0 before mcpi.c:") &&
	          strstr(online, " before mcpi-worker.c:"));
	CU_ASSERT(strstr(r.out, "=== off") && !strstr(strstr(r.out, "=== off"), "Why tasks wait"));
	cmd_result_free(&r);
}

/* pvmmon diff of two untraced runs, stage 0 6 ms and 3 ms more an item: the online
 * tables side by side, stage 0's segment before its send with about half the
 * waiting in B (analytically, of 20 items: 4 x 6 x 20 = 480 ms against 240, plus the
 * first item's 1 ms of work in each of the four waits). */
static void test_online_diff(void)
{
	const char *dir = harness_tmpdir();
	cmd_result r;
	const char *sec, *row, *end;
	double pct = 0;

	harness_sh(
	    &r, RUN_TIMEOUT,
	    "cd '%s' && %s/pvmmon run -q -o a.xml -- %s/slowstage -b 1 -x 6 && "
	    "%s/pvmmon run -q -o b.xml -- %s/slowstage -b 1 -x 3 && %s/pvmmon diff a.xml b.xml",
	    dir, harness_bin(), harness_bin(), harness_bin(), harness_bin(), harness_bin());
	CU_ASSERT_EQUAL_FATAL(r.status, 0);
	sec = strstr(r.out, "Why tasks wait (A | B, online, by segment)");
	CU_ASSERT_PTR_NOT_NULL_FATAL(sec);
	row = strstr(sec, "\n  0.0 before slowstage.c:");
	CU_ASSERT_PTR_NOT_NULL_FATAL(row);
	/* The row's last column: B against A. */
	end = strchr(row + 1, '\n');
	CU_ASSERT_PTR_NOT_NULL_FATAL(end);
	for (const char *p = end; p > row; p--)
		if (*p == ' ') {
			pct = strtod(p + 1, NULL);
			break;
		}
	fprintf(stderr, "\n  stage 0's segment in B against A: %+.1f%%", pct);
	CU_ASSERT(pct < -30 && pct > -70);
	cmd_result_free(&r);
}

CU_TestInfo test_waits_online_tests[] = {
    {"the pipeline without a trace: the tasks charge stage 0's segment online",
     test_online_pipeline},
    {"an untraced log has the online section, none with the analysis off", test_untraced_log},
    {"pvmmon diff of two untraced runs puts their online tables side by side", test_online_diff},
    CU_TEST_INFO_NULL,
};
