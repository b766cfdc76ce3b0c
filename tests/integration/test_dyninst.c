/*
 * Integration tests of dynamic instrumentation and cost: probe sites switched off and
 * on in a running program with `pvmmon ctl` (counts frozen, then resumed), the
 * calibration and cost each task reports, and the cost budget switching the most
 * expensive sites off in a call-heavy program (apps/callheavy built with pvmmon-cc).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "pvmmon/log.h"
#include "harness.h"

#define RUN_TIMEOUT 180

/* Builds apps/callheavy with pvmmon-cc into dir; 1 when it did. */
static int build_callheavy(const char *dir)
{
	cmd_result r;
	int ok;

	harness_sh(&r, 120,
		   "cd '%s' && %s/pvmmon-cc -g -O2 -o callheavy %s/../apps/callheavy.c -lpvm3", dir,
		   harness_bin(), harness_build());
	ok = r.status == 0;
	if (!ok)
		fprintf(stderr, "\nbuild callheavy: %s%s\n", r.out, r.err);
	cmd_result_free(&r);
	return ok;
}

/* The task's proc record of name (the first, when several), or NULL. */
static const pvmmon_log_proc *proc_of(const pvmmon_log_task *t, const char *name)
{
	for (size_t i = 0; i < t->nprocs; i++)
		if (t->procs[i].name && !strcmp(t->procs[i].name, name))
			return &t->procs[i];
	return NULL;
}

/* The checksum line callheavy prints, or NULL (heap). */
static char *checksum_line(const char *out)
{
	const char *p = strstr(out, "callheavy: calls=");

	return p ? strndup(p, strcspn(p, "\n")) : NULL;
}

/* The program's output without monitoring (the reference for what it computes). */
static char *reference(const char *dir, const char *args)
{
	cmd_result r;
	char *line;

	harness_sh(&r, RUN_TIMEOUT, "cd '%s' && %s/pvmmon run --raw -q -- ./callheavy %s", dir,
		   harness_bin(), args);
	line = checksum_line(r.out);
	cmd_result_free(&r);
	return line;
}

#define CALLS 10000000L
#define ARGS "-n 10000000 -w 100 -p 1"
/* For the switch off and on again: the program must still run at the second, some
 * 1.7 s after the run's start, and for a while after. 10^7 calls took 2.5 s with mix
 * on and under 2 s with it off a second, and the enable came after the end. */
#define LONG_CALLS 30000000L
#define LONG_ARGS "-n 30000000 -w 100 -p 1"

/*
 * `pvmmon ctl disable proc=mix` while the program runs, then `enable`: the log lists
 * both switches by the user in order, mix's count stops growing in between (it ends
 * well below the calls made) and grows again after, fold (never switched) counts every
 * call, and the program computes what it computes unmonitored.
 */
static void test_ctl_disable_then_enable(void)
{
	const char *dir = harness_tmpdir();
	char path[4200], *ref, *got;
	pvmmon_log *log = NULL;
	cmd_result r;

	CU_ASSERT_FATAL(build_callheavy(dir));
	ref = reference(dir, LONG_ARGS);
	CU_ASSERT_PTR_NOT_NULL_FATAL(ref);
	harness_sh(&r, RUN_TIMEOUT,
		   "cd '%s' && { %s/pvmmon run -q --no-throttle --flush-ms 100 -o ch.xml -- ./callheavy %s "
		   ">ch.out 2>&1 & } && "
		   "i=0; while [ ! -e ch.xml.run ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done; "
		   "sleep 0.6; %s/pvmmon ctl disable proc=mix ch.xml; echo rc=$?; sleep 1; "
		   "%s/pvmmon ctl enable proc=mix ch.xml; echo rc=$?; "
		   "i=0; while [ -e ch.xml.run ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done; "
		   "cat ch.out",
		   dir, harness_bin(), LONG_ARGS, harness_bin(), harness_bin());
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "pvmmon: disabled proc=mix (switch 1 of the run)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "pvmmon: enabled proc=mix (switch 2 of the run)"));
	CU_ASSERT_EQUAL(harness_count(r.out, "rc=0"), 2);
	got = checksum_line(r.out);
	CU_ASSERT_PTR_NOT_NULL(got);
	if (got)
		CU_ASSERT_STRING_EQUAL(got, ref);
	free(got);
	if (r.status || !strstr(r.out, "rc=0"))
		fprintf(stderr, "\n%s\n%s\n", r.out, r.err);
	cmd_result_free(&r);
	snprintf(path, sizeof(path), "%s/ch.xml", dir);
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&log, path), 0);
	CU_ASSERT_EQUAL_FATAL(log->nswitches, 2);
	CU_ASSERT_EQUAL(log->switches[0].on, 0);
	CU_ASSERT_EQUAL(log->switches[1].on, 1);
	CU_ASSERT_STRING_EQUAL(log->switches[0].resource, "proc=mix");
	CU_ASSERT_STRING_EQUAL(log->switches[0].by, "user");
	CU_ASSERT(log->switches[1].time_ns - log->switches[0].time_ns >= 900000000);
	CU_ASSERT_EQUAL_FATAL(log->ntasks, 1);
	{
		const pvmmon_log_proc *mix = proc_of(&log->tasks[0], "mix");
		const pvmmon_log_proc *fold = proc_of(&log->tasks[0], "fold");

		CU_ASSERT_PTR_NOT_NULL_FATAL(mix);
		CU_ASSERT_PTR_NOT_NULL_FATAL(fold);
		/* About a second of calls is missing, out of seven or so; on again at the
		 * end. */
		CU_ASSERT(mix->count > LONG_CALLS / 20 && mix->count < LONG_CALLS * 19 / 20);
		CU_ASSERT_EQUAL(mix->disabled, 0);
		CU_ASSERT_EQUAL(fold->count, (uint64_t)(LONG_CALLS + 63) / 64);
		fprintf(stderr, "[mix %llu of %ld calls counted] ", (unsigned long long)mix->count,
			LONG_CALLS);
	}
	pvmmon_log_free(log);
	free(ref);
}

/*
 * A site switched off and left off: its record says so, its count is frozen below the
 * calls made, and the cost record is there with calibrated values.
 */
static void test_ctl_disable_freezes_counts_and_cost_is_logged(void)
{
	const char *dir = harness_tmpdir();
	char path[4200];
	pvmmon_log *log = NULL;
	cmd_result r;

	CU_ASSERT_FATAL(build_callheavy(dir));
	harness_sh(&r, RUN_TIMEOUT,
		   "cd '%s' && { %s/pvmmon run -q --no-throttle --flush-ms 100 -o ch.xml -- ./callheavy %s "
		   ">ch.out 2>&1 & } && "
		   "i=0; while [ ! -e ch.xml.run ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done; "
		   "sleep 0.6; %s/pvmmon ctl disable task=0,file=callheavy.c,line=34 ch.xml; "
		   "i=0; while [ -e ch.xml.run ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done",
		   dir, harness_bin(), ARGS, harness_bin());
	CU_ASSERT_EQUAL(r.status, 0);
	cmd_result_free(&r);
	snprintf(path, sizeof(path), "%s/ch.xml", dir);
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&log, path), 0);
	CU_ASSERT_EQUAL_FATAL(log->ntasks, 1);
	{
		const pvmmon_log_task *t = &log->tasks[0];
		const pvmmon_log_proc *mix = proc_of(t, "mix");

		CU_ASSERT_PTR_NOT_NULL_FATAL(mix);
		CU_ASSERT_EQUAL(mix->disabled, 1);
		CU_ASSERT(mix->count > 0 && mix->count < CALLS * 3 / 4);
		CU_ASSERT_EQUAL(proc_of(t, "fold")->disabled, 0);
		/* Calibrated on this host: plausible sizes, not zeros. */
		CU_ASSERT_EQUAL(t->cost.known, 1);
		CU_ASSERT(t->cost.proc_pair_ns > 5 && t->cost.proc_pair_ns < 20000);
		CU_ASSERT(t->cost.loop_pair_ns > 5 && t->cost.loop_pair_ns < 20000);
		CU_ASSERT(t->cost.wrapper_ns > 0 && t->cost.wrapper_ns < 20000);
		CU_ASSERT(t->cost.pb_send_ns > 0 && t->cost.pb_recv_ns > 0);
		CU_ASSERT(t->cost.wrapped_calls >= 1);
		/* In place a call with its loop costs at least what the two pairs cost in a
		 * loop of probes, within reason; with no budget the switched-off cost is
		 * not measured. A sanitized library (make check-asan) skips the in-place
		 * calibration. */
		if (harness_slowed()) {
			CU_ASSERT_EQUAL(t->cost.site_on_ps, 0);
		} else {
			CU_ASSERT(t->cost.site_on_ps >
				  500 * (t->cost.proc_pair_ns + t->cost.loop_pair_ns));
			CU_ASSERT(t->cost.site_on_ps <
				  4000 * (t->cost.proc_pair_ns + t->cost.loop_pair_ns));
		}
		CU_ASSERT_EQUAL(t->cost.site_off_ps, 0);
		/* Observed and predicted: mix's counted calls at a calibrated pair each are
		 * most of both. */
		CU_ASSERT((double)t->cost.predicted_ns >= (double)mix->count * t->cost.proc_pair_ns);
		CU_ASSERT(t->cost.observed_ns > t->cost.predicted_ns / 4);
		CU_ASSERT(t->cost.observed_ns < (t->end_ns - t->start_ns));
	}
	pvmmon_log_free(log);
}

/*
 * Statements: an unmodified program (mcpi, preloaded), the workers' communication
 * statements switched off by file and kind while it runs. Their records are frozen and
 * marked, the master's are whole (it received every request), and the result is
 * right: the piggybacks still go.
 */
static void test_ctl_switches_statements(void)
{
	const char *dir = harness_tmpdir();
	char path[4200];
	pvmmon_log *log = NULL;
	cmd_result r;
	size_t i, j;
	uint64_t worker_sends = 0, master_recvs = 0;
	int workers = 0;

	harness_sh(&r, RUN_TIMEOUT,
		   "cd '%s' && { %s/pvmmon run -q --flush-ms 100 -o mc.xml -- %s/mcpi -w 2 -c 2000 "
		   "-s 400000 >mc.out 2>&1 & } && "
		   "i=0; while [ ! -e mc.xml.run ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done; "
		   "sleep 0.7; %s/pvmmon ctl disable kind=stmt,file=mcpi-worker.c mc.xml; "
		   "i=0; while [ -e mc.xml.run ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done; "
		   "cat mc.out",
		   dir, harness_bin(), harness_bin(), harness_bin());
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "mcpi: chunks=2000 samples=400000"));
	cmd_result_free(&r);
	snprintf(path, sizeof(path), "%s/mc.xml", dir);
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&log, path), 0);
	for (i = 0; i < log->ntasks; i++) {
		const pvmmon_log_task *t = &log->tasks[i];
		int worker = t->program && strstr(t->program, "mcpi-worker");

		workers += worker;
		for (j = 0; j < t->nstmts; j++) {
			const pvmmon_log_stmt *s = &t->stmts[j];

			if (worker) {
				CU_ASSERT_EQUAL(s->disabled, 1);
				if (!strcmp(s->op, "pvm_send"))
					worker_sends += s->count;
			} else {
				CU_ASSERT_EQUAL(s->disabled, 0);
				if (!strcmp(s->op, "pvm_recv"))
					master_recvs += s->count;
			}
		}
	}
	CU_ASSERT_EQUAL(workers, 2);
	/* Every request reached the master (2000 chunks and a last request each); the
	 * workers' records stopped counting well before. */
	CU_ASSERT_EQUAL(master_recvs, 2002);
	CU_ASSERT(worker_sends > 0 && worker_sends < 1800);
	fprintf(stderr, "[workers' sends counted %llu of 2002] ", (unsigned long long)worker_sends);
	pvmmon_log_free(log);
}

/*
 * Unmonitored (--raw), a program built with pvmmon-cc runs with its hooks passive: the
 * probes switch themselves off at their first entry, and every wrapper passes its
 * call through unchanged. pvm_precv did not: its pass-through read a forced source and
 * tag from an uninitialised record, and the worker waited for ever.
 */
static void test_raw_run_of_a_pvmmon_cc_build(void)
{
	const char *dir = harness_tmpdir();
	cmd_result r;

	harness_sh(&r, 120,
		   "cd '%s' && %s/pvmmon-cc -O2 -o mcpi %s/../apps/mcpi.c -lpvm3 && "
		   "%s/pvmmon-cc -O2 -o mcpi-worker %s/../apps/mcpi-worker.c -lpvm3 && "
		   "timeout 60 %s/pvmmon run --raw -q -- ./mcpi -w 2 -c 40 -s 20000",
		   dir, harness_bin(), harness_build(), harness_bin(), harness_build(), harness_bin());
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "mcpi: chunks=40 samples=20000"));
	if (r.status)
		fprintf(stderr, "\n%s\n%s\n", r.out, r.err);
	cmd_result_free(&r);
}

/* Bad commands: a resource that does not parse, and no run to talk to. */
static void test_ctl_errors(void)
{
	const char *dir = harness_tmpdir();
	cmd_result r;

	harness_sh(&r, 30, "cd '%s' && %s/pvmmon ctl disable colour=red x.xml", dir, harness_bin());
	CU_ASSERT_EQUAL(r.status, 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "unknown term 'colour'"));
	cmd_result_free(&r);
	harness_sh(&r, 30, "cd '%s' && %s/pvmmon ctl pause all x.xml", dir, harness_bin());
	CU_ASSERT_EQUAL(r.status, 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "enable, disable, histogram or sample"));
	cmd_result_free(&r);
	harness_sh(&r, 30, "cd '%s' && %s/pvmmon ctl disable all none.xml", dir, harness_bin());
	CU_ASSERT_EQUAL(r.status, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "no run in progress"));
	cmd_result_free(&r);
	harness_sh(&r, 30, "cd '%s' && %s/pvmmon run --budget=zero -- ./x", dir, harness_bin());
	CU_ASSERT_EQUAL(r.status, 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "--budget wants a percentage"));
	cmd_result_free(&r);
	harness_sh(&r, 30, "cd '%s' && %s/pvmmon run --budget=5%% --raw -- ./x", dir, harness_bin());
	CU_ASSERT_EQUAL(r.status, 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "exclude each other"));
	cmd_result_free(&r);
}

/*
 * The budget: a program making millions of small calls a second runs with
 * --budget=5%. Loops start off (coarse first), the budget switches mix off (its probes
 * cost more than it does) and says why, and after that the task's cost stays under the
 * budget: its observed monitoring time over the run is a small fraction. The program
 * computes what it computes unmonitored. Throttling is off: it would demote mix before
 * the budget saw it (the fidelity suite tests throttling).
 */
static void test_budget_switches_off_expensive_sites(void)
{
	const char *dir = harness_tmpdir();
	char path[4200], *ref, *got;
	pvmmon_log *log = NULL;
	cmd_result r;
	size_t i;
	int mix_off = 0;

	CU_ASSERT_FATAL(build_callheavy(dir));
	ref = reference(dir, "-n 600000000 -w 4");
	CU_ASSERT_PTR_NOT_NULL_FATAL(ref);
	harness_sh(&r, RUN_TIMEOUT,
		   "cd '%s' && %s/pvmmon run -q --no-throttle --budget=5%% -o b.xml -- "
		   "./callheavy -n 600000000 -w 4",
		   dir, harness_bin());
	CU_ASSERT_EQUAL(r.status, 0);
	got = checksum_line(r.out);
	CU_ASSERT_PTR_NOT_NULL(got);
	if (got)
		CU_ASSERT_STRING_EQUAL(got, ref);
	free(got);
	free(ref);
	cmd_result_free(&r);
	snprintf(path, sizeof(path), "%s/b.xml", dir);
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&log, path), 0);
	CU_ASSERT_EQUAL(log->budget_pct, 5);
	CU_ASSERT_FATAL(log->nswitches >= 2);
	CU_ASSERT_STRING_EQUAL(log->switches[0].resource, "kind=loop");
	CU_ASSERT_STRING_EQUAL(log->switches[0].by, "budget");
	for (i = 1; i < log->nswitches; i++) {
		const pvmmon_log_switch *w = &log->switches[i];

		CU_ASSERT_STRING_EQUAL(w->by, "budget");
		CU_ASSERT_PTR_NOT_NULL(w->reason);
		if (!w->on && strstr(w->resource, "proc=mix")) {
			mix_off = 1;
			CU_ASSERT_PTR_NOT_NULL(strstr(w->reason, "> budget 5%"));
			/* It acted within a fraction of a second of the start. */
			CU_ASSERT(w->time_ns < 500000000);
		}
	}
	CU_ASSERT(mix_off);
	{
		const pvmmon_log_task *t = &log->tasks[0];
		const pvmmon_log_proc *mix = proc_of(t, "mix"), *main_ = proc_of(t, "main");
		double cost = (double)t->cost.observed_ns / (double)(t->end_ns - t->start_ns);

		CU_ASSERT_PTR_NOT_NULL_FATAL(mix);
		CU_ASSERT_PTR_NOT_NULL_FATAL(main_);
		CU_ASSERT_EQUAL(mix->disabled, 1);
		CU_ASSERT(mix->count < 600000000 / 50);
		/* Procedures the budget could afford stay on and are measured. */
		CU_ASSERT_EQUAL(main_->disabled, 0);
		CU_ASSERT(cost < 0.05);
		/* Under a budget the switched-off cost is measured (a small part of a call
		 * with its probes on; about a nanosecond, which a disturbed calibration can
		 * find to be nothing), and mix, off after its rate was seen, then has a cost
		 * estimated over the run that the reasons of later switches count. */
		fprintf(stderr, "[site on %lld ps, off %lld ps] ", (long long)t->cost.site_on_ps,
		        (long long)t->cost.site_off_ps);
		CU_ASSERT(t->cost.site_off_ps >= 0 &&
			  (harness_slowed() ? t->cost.site_off_ps == 0
					    : t->cost.site_off_ps < t->cost.site_on_ps / 4));
		if (t->cost.site_off_ps > 0)
			CU_ASSERT(t->cost.static_ns > 0);
		CU_ASSERT(t->cost.static_ns >= 0 && t->cost.static_ns < t->end_ns - t->start_ns);
		fprintf(stderr, "[observed cost %.1f%% of the run, switched-off sites %.1f%%, %zu "
				"switches] ",
			100 * cost,
			100.0 * (double)t->cost.static_ns / (double)(t->end_ns - t->start_ns),
			log->nswitches);
	}
	pvmmon_log_free(log);
}

CU_TestInfo test_dyninst_tests[] = {
    {"pvmmon ctl disable then enable: counts frozen, then resumed",
     test_ctl_disable_then_enable},
    {"a site left off keeps its count; calibration and cost are logged",
     test_ctl_disable_freezes_counts_and_cost_is_logged},
    {"pvmmon ctl switches statements of an unmodified program", test_ctl_switches_statements},
    {"pvmmon ctl and --budget: bad input", test_ctl_errors},
    {"a pvmmon-cc build runs unmonitored (--raw)", test_raw_run_of_a_pvmmon_cc_build},
    {"--budget=5% switches off the expensive sites and says why",
     test_budget_switches_off_expensive_sites},
    CU_TEST_INFO_NULL,
};
