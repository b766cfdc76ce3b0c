/*
 * Integration tests of the wait analysis (include/pvmmon/waits.h) on real pvmds: a
 * pipeline whose stage 0 spends 6 ms an item in one procedure (apps/slowstage, asleep,
 * so that no answer depends on the processors) has its waiting charged to that
 * procedure, directly by stage 1 and through the stages between by the others; the
 * charges add up to the waiting; the run replayed without the procedure waits about
 * what was charged to it less; efficiency's identities hold; the text report opens
 * with the section. A barrier with one late member (apps/latebar) names it the
 * latecomer of every round and charges it the others' waiting. apps/phases asleep has
 * the analytic load balance; a prediction is checked against the run with the fix.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "harness.h"
#include "pvmmon/log.h"
#include "pvmmon/waits.h"

#define RUN_TIMEOUT 120

static int64_t waits_of(const pvmmon_waits *w, const pvmmon_log *log, const char *lid, size_t *n,
                        size_t *indirect)
{
	int64_t ns = 0;

	*n = *indirect = 0;
	for (size_t s = 0; s < w->nstates; s++)
		if (!strcmp(log->tasks[w->states[s].task].lid, lid)) {
			ns += w->states[s].wait_ns;
			(*n)++;
			*indirect += w->states[s].indirect != 0;
		}
	return ns;
}

/* The master's 2 ms an item for stage 3's own work, charged to it directly: 20 of
 * them, each at least the nap's 2 ms (19 asserted: the first wait's interval also
 * holds the stages' starts); with slow_part (top), nearly all the waiting. */
static void stage3_work_charged(const pvmmon_waits *w, const pvmmon_log *log,
                                const pvmmon_wait_cause *top)
{
	const pvmmon_wait_cause *s3w = NULL;
	char name[256];

	for (size_t i = 0; i < w->ncauses && !s3w; i++) {
		pvmmon_waits_cause_name(name, sizeof(name), log, &w->causes[i]);
		if (!strcmp(name, "0.3 stage_work"))
			s3w = &w->causes[i];
	}
	CU_ASSERT_PTR_NOT_NULL_FATAL(s3w);
	fprintf(stderr, "; 0.3 stage_work %.1f ms direct", s3w->short_ns / 1e6);
	CU_ASSERT(s3w->short_ns >= 19 * 2000000LL && s3w->short_ns < 20 * 4000000LL);
	/* slow_part and stage 3's work together: 96.7% analytically (520 of 538 ms),
	 * 91.8-96.8% measured (the starts and the naps' jitter above, which grow with
	 * the machine's load: 91.8% at a load average of 4 on 2 CPUs); 88% asserted,
	 * 85% under ASan. */
	CU_ASSERT(top->short_ns + top->long_ns + s3w->short_ns + s3w->long_ns >=
	          w->total_wait_ns * (harness_slowed() ? 85 : 88) / 100);
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/* One traced run of the issue's pipeline as log name in dir: slow_part's direct and
 * propagated costs and the waiting in all; 0, or -1 when slow_part is not the top. */
static int issue_pipeline_run(const char *dir, const char *name, int64_t *shrt, int64_t *lng,
                              int64_t *total)
{
	char path[512], top[256];
	cmd_result r;
	pvmmon_log *log = NULL;
	pvmmon_waits *w = NULL;
	int rc = -1;

	harness_sh(&r, RUN_TIMEOUT,
	           "cd '%s' && %s/pvmmon run -q --trace --cp=slow_part,stage_work -o %s -- "
	           "./slowstage -b 1 -r 40",
	           dir, harness_bin(), name);
	CU_ASSERT_EQUAL(r.status, 0);
	cmd_result_free(&r);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (pvmmon_log_read(&log, path) == 0 && pvmmon_waits_compute(&w, log) == 0 &&
	    w->ncauses > 0) {
		pvmmon_waits_cause_name(top, sizeof(top), log, &w->causes[0]);
		CU_ASSERT_STRING_EQUAL(top, "0.0 slow_part");
		*shrt = w->causes[0].short_ns;
		*lng = w->causes[0].long_ns;
		*total = w->total_wait_ns;
		rc = strcmp(top, "0.0 slow_part") ? -1 : 0;
	}
	pvmmon_waits_free(w);
	pvmmon_log_free(log);
	return rc;
}

/*
 * The issue's own pipeline: four stages, stage 0 6 ms more an item in slow_part, each
 * stage 1 ms of work, 40 items. Analytically (tasks started at once, messages free):
 * stage 1 waits 7 ms for the first item and 6 for each next, all of it slow_part's
 * directly but the first item's 1 ms of stage 0's work: 240 ms short-term; stages 2
 * and 3 and the master wait 6 ms an item for stage 0 through the stages between:
 * 3 x 240 = 720 ms long-term; the master also waits stage 3's 1 ms an item, and the
 * filling's work: of 1009 ms of waiting, slow_part carries 960 (95.1%). Measured:
 * 90.5-94.2%, direct 234-246 ms, propagated 677-727 ms: each nap overshoots by a
 * little more on a loaded machine, and a stage whose own 1 ms nap overshot waits less
 * for the next item (a CI run: -6.0% propagated). So the medians of three runs are
 * judged. With 2 ms of work and 20 items (the test below), stage 3's own work takes
 * 7.4% and slow_part's analytic share is 89.2%.
 */
static void test_issue_pipeline(void)
{
	const char *dir = harness_tmpdir();
	char name[32];
	cmd_result r;
	int64_t shrt[3], lng[3], share[3], total = 1;
	/* The slowed builds (ASan, valgrind) start tasks and run their loops several
	 * times slower, which lengthens the first waits. */
	int64_t tol = harness_slowed() ? 10 : 5;

	harness_sh(&r, RUN_TIMEOUT,
	           "cd '%s' && %s/pvmmon-cc -g -O2 -o slowstage %s/../apps/slowstage.c -lpvm3", dir,
	           harness_bin(), harness_build());
	CU_ASSERT_EQUAL_FATAL(r.status, 0);
	cmd_result_free(&r);
	for (int k = 0; k < 3; k++) {
		snprintf(name, sizeof(name), "p%d.xml", k);
		CU_ASSERT_EQUAL_FATAL(issue_pipeline_run(dir, name, &shrt[k], &lng[k], &total), 0);
		/* Per mille of the waiting, so that the medians are of integers. */
		share[k] = 1000 * (shrt[k] + lng[k]) / total;
		fprintf(stderr,
		        "\n  slow_part: %.1f ms direct (240), %.1f ms propagated (720), %.1f%%",
		        shrt[k] / 1e6, lng[k] / 1e6, share[k] / 10.0);
	}
	qsort(shrt, 3, sizeof(*shrt), cmp_i64);
	qsort(lng, 3, sizeof(*lng), cmp_i64);
	qsort(share, 3, sizeof(*share), cmp_i64);
	CU_ASSERT(share[1] >= (harness_slowed() ? 850 : 900));
	CU_ASSERT(shrt[1] >= 240000000LL * (100 - tol) / 100 &&
	          shrt[1] <= 240000000LL * (100 + tol) / 100);
	CU_ASSERT(lng[1] >= 720000000LL * (100 - tol) / 100 &&
	          lng[1] <= 720000000LL * (100 + tol) / 100);
}

static void test_slow_stage_blamed(void)
{
	const char *dir = harness_tmpdir();
	char path[512], name[256];
	cmd_result r;
	pvmmon_log *log = NULL;
	pvmmon_waits *w = NULL;
	const pvmmon_wait_cause *top;
	int64_t sum = 0, s1, s2, s3, after = 0;
	size_t n1, i1, n2, i2, n3, i3;

	harness_sh(&r, RUN_TIMEOUT,
	           "cd '%s' && %s/pvmmon-cc -g -O2 -o slowstage %s/../apps/slowstage.c -lpvm3 && "
	           "%s/pvmmon run -q --trace --cp=slow_part,stage_work -o s.xml -- ./slowstage && "
	           "%s/pvmmon report s.xml -o rep >/dev/null && %s/pvmmon report s.xml",
	           dir, harness_bin(), harness_build(), harness_bin(), harness_bin(),
	           harness_bin());
	CU_ASSERT_EQUAL_FATAL(r.status, 0);
	/* The section comes first, before the tasks. */
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "Why tasks wait (from the trace, in virtual time)"));
	CU_ASSERT(strstr(r.out, "Why tasks wait") < strstr(r.out, "slowstage.c:"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "  0.0 slow_part "));
	cmd_result_free(&r);
	/* The HTML report has the section too, before its graphs. */
	{
		char *html;

		snprintf(path, sizeof(path), "%s/rep/index.html", dir);
		html = harness_slurp(path, NULL);
		CU_ASSERT_PTR_NOT_NULL(html);
		CU_ASSERT(html && strstr(html, "<h2 id=why-wait>Why tasks wait</h2>") &&
		          strstr(html, "  0.0 slow_part ") &&
		          strstr(html, "<h2 id=why-wait>") < strstr(html, "<h2 id=graphs>"));
		free(html);
	}
	snprintf(path, sizeof(path), "%s/s.xml", dir);
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&log, path), 0);
	CU_ASSERT_EQUAL_FATAL(pvmmon_waits_compute(&w, log), 0);
	CU_ASSERT_FATAL(w->ncauses > 0);
	top = &w->causes[0];
	pvmmon_waits_cause_name(name, sizeof(name), log, top);
	CU_ASSERT_STRING_EQUAL(name, "0.0 slow_part");
	for (size_t i = 0; i < w->ncauses; i++)
		sum += w->causes[i].short_ns + w->causes[i].long_ns;
	fprintf(stderr,
	        "\n  slowstage: waiting %.1f ms, slow_part %.1f ms direct + %.1f ms "
	        "propagated (%.1f%%)",
	        w->total_wait_ns / 1e6, top->short_ns / 1e6, top->long_ns / 1e6,
	        100.0 * (double)(top->short_ns + top->long_ns) / (double)w->total_wait_ns);
	/* Every wait is charged, and only once. */
	CU_ASSERT(sum > w->total_wait_ns * 99 / 100 && sum < w->total_wait_ns * 101 / 100);
	/* Stage 1 waits for stage 0 alone: all of it slow_part's, directly, within 5%, but
	 * for the first item's wait, which also covers stage 0's start (its computation
	 * before its first call, longer on a busy machine). */
	s1 = waits_of(w, log, "0.1", &n1, &i1);
	{
		int64_t first = 0;

		for (size_t s = 0; s < w->nstates && !first; s++)
			if (!strcmp(log->tasks[w->states[s].task].lid, "0.1"))
				first = w->states[s].wait_ns;
		fprintf(stderr, "; stage 1 waited %.1f ms, %.1f ms of it for the first item",
		        s1 / 1e6, first / 1e6);
		CU_ASSERT(top->short_ns > (s1 - first) * 95 / 100 && top->short_ns <= s1);
	}
	CU_ASSERT_EQUAL(i1, 0);
	/* Stages 2 and 3 wait for stages that wait: indirect, all but perhaps the first
	 * item's wait, whose interval is mostly the earlier stage's start. They wait in
	 * 19 or 20 of the 20 rounds; under ASan or valgrind the monitoring around a stage's
	 * receive and send is several times slower, and an item can be queued before the
	 * stage asks for it (a CI run under ASan: stage 2 waited in 18), so a slowed build
	 * is held to 15. */
	s2 = waits_of(w, log, "0.2", &n2, &i2);
	s3 = waits_of(w, log, "0.3", &n3, &i3);
	fprintf(stderr, "; indirect: stage 2 %zu of %zu, stage 3 %zu of %zu", i2, n2, i3, n3);
	CU_ASSERT(n2 >= (harness_slowed() ? 15u : 19u) && i2 + 1 >= n2);
	CU_ASSERT(n3 >= (harness_slowed() ? 15u : 19u) && i3 + 1 >= n3);
	/* The stages' waiting is slow_part's; of the master's (6 + 2 ms an item), the 2 ms of
	 * stage 3's own work are stage 3's (the master would wait them without slow_part).
	 * Analytically, with the tasks started at once and messages free, the 20 rounds
	 * wait 538 ms: the stages 8, 10 and 12 ms for the first item (the pipeline filling:
	 * slow_part's 6 ms and 2 ms of stage_work per stage before) and 6 ms for each next;
	 * the master 14 ms, then 8. slow_part carries 4 x 6 + 19 x 24 = 480 ms of it (89.2%,
	 * at most 92.3% with many rounds), stage 3's stage_work 20 x 2 = 40 ms (7.4%), the
	 * other stages' stage_work the filling's 18 ms. Measured, slow_part has 83-88%: less, as
	 * the stages' starts (spawns) lengthen the first waits, and Boehme's rule charges
	 * every positive excess, so the jitter of two equal naps (stage_work of the sender
	 * over the receiver's, never offset when it is the other way) is charged too, and
	 * passed down the pipeline. Not the messages: the waiting is the same with messages
	 * of any cost once the pipeline is full. 75% is asserted for slow_part alone; under
	 * ASan the tasks' own code (their start, the master's loop) is several times slower,
	 * and more so on a busy machine: 75-84% measured; 70% is asserted there. */
	CU_ASSERT(top->short_ns + top->long_ns >=
	          w->total_wait_ns * (harness_slowed() ? 70 : 75) / 100);
	stage3_work_charged(w, log, top);
	CU_ASSERT(top->long_ns > (s2 + s3) * 95 / 100);
	/* Self-consistency: replayed without slow_part, the run waits about what was charged
	 * to it less (within 10% of that charge). */
	CU_ASSERT_EQUAL(pvmmon_waits_predict_wait(&after, log, top, 100), 0);
	fprintf(stderr, "; replayed without it: waiting %.1f ms", after / 1e6);
	{
		int64_t expect = w->total_wait_ns - top->short_ns - top->long_ns;
		int64_t charged = top->short_ns + top->long_ns;

		CU_ASSERT(after > expect - charged / 10 && after < expect + charged / 10);
	}
	/* Efficiency's identities. */
	CU_ASSERT_DOUBLE_EQUAL(w->parallel_efficiency, w->load_balance * w->comm_efficiency, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(w->comm_efficiency, w->serialisation * w->transfer, 1e-9);
	/* Free messages never lengthen the replayed run (the run as measured, replayed:
	 * within a few tenths of a percent of the run itself, more under ASan). */
	{
		int64_t replayed = 0;

		CU_ASSERT_EQUAL(pvmmon_waits_predict(&replayed, log, top, 0), 0);
		CU_ASSERT(w->ideal_ns > 0 && w->ideal_ns <= replayed);
		CU_ASSERT(w->transfer > 0 && w->transfer <= 1.0);
	}
	pvmmon_waits_free(w);
	pvmmon_log_free(log);
}

/* An untraced log has no section and says nothing of waits. */
/* pvmmon efficiency over two runs at different stage counts: a line each, the first the
 * reference (scaling 100%), and an untraced log refused by name. */
static void test_efficiency_across_runs(void)
{
	const char *dir = harness_tmpdir();
	cmd_result r;
	const char *l2, *l4;

	harness_sh(&r, RUN_TIMEOUT,
	           "cd '%s' && %s/pvmmon run -q --trace -o s2.xml -- %s/slowstage -s 2 -r 10 && "
	           "%s/pvmmon run -q --trace -o s4.xml -- %s/slowstage -s 4 -r 10 && "
	           "%s/pvmmon efficiency s2.xml s4.xml",
	           dir, harness_bin(), harness_bin(), harness_bin(), harness_bin(), harness_bin());
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(r.out, "LB     comm   serial transfer parallel  scaling   global"));
	l2 = strstr(r.out, "\ns2.xml ");
	l4 = strstr(r.out, "\ns4.xml ");
	CU_ASSERT_PTR_NOT_NULL(l2);
	CU_ASSERT_PTR_NOT_NULL(l4);
	/* The reference's scaling is 100% by definition. */
	CU_ASSERT(l2 && strstr(l2, " 100.0% ") && strstr(l2, " 100.0% ") < l4);
	fprintf(stderr, "\n%s", r.out);
	cmd_result_free(&r);
	harness_sh(&r, RUN_TIMEOUT,
	           "cd '%s' && %s/pvmmon run -q -o u.xml -- %s/slowstage -s 2 -r 2 && "
	           "%s/pvmmon efficiency u.xml",
	           dir, harness_bin(), harness_bin(), harness_bin());
	CU_ASSERT_EQUAL(r.status, 1);
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(r.err, "efficiency: u.xml: the wait analysis needs a whole trace"));
	cmd_result_free(&r);
}

/* apps/worder: the master waits for worker 1's result while worker 0's, sent earlier and
 * taken next, is there: a late sender in the wrong order, worker 1's computation its
 * cause; the second receive does not wait. */
static void test_wrong_order(void)
{
	const char *dir = harness_tmpdir();
	char path[512];
	cmd_result r;
	pvmmon_log *log = NULL;
	pvmmon_waits *w = NULL;
	size_t master_waits = 0;

	harness_sh(&r, RUN_TIMEOUT,
	           "cd '%s' && %s/pvmmon run -q --trace -o w.xml -- %s/worder -m 20", dir,
	           harness_bin(), harness_bin());
	CU_ASSERT_EQUAL_FATAL(r.status, 0);
	cmd_result_free(&r);
	snprintf(path, sizeof(path), "%s/w.xml", dir);
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&log, path), 0);
	CU_ASSERT_EQUAL_FATAL(pvmmon_waits_compute(&w, log), 0);
	for (size_t s = 0; s < w->nstates; s++) {
		const pvmmon_wait_state *st = &w->states[s];

		if (strcmp(log->tasks[st->task].lid, "0") != 0 || st->wait_ns < 5000000)
			continue;
		master_waits++;
		CU_ASSERT_EQUAL(st->kind, PVMMON_WAIT_WRONG_ORDER);
		CU_ASSERT_STRING_EQUAL(log->tasks[st->from].lid, "0.1");
		/* Worker 1's 20 ms (asleep) less what the master did meanwhile, plus worker 1's
		 * start after its spawn: a few ms on an idle machine, but 30 ms and more on a
		 * busy 2-CPU one (two of four runs beside other builds passed 40 ms), and 100
		 * ms or more under ASan's runtime. The bound catches a wait charged whole
		 * (the run's length), not the start's spread. */
		CU_ASSERT(st->wait_ns > 10000000 &&
		          st->wait_ns < (harness_slowed() ? 1000000000 : 250000000));
	}
	CU_ASSERT_EQUAL(master_waits, 1);
	CU_ASSERT(w->wrong_order_ns >= 10000000);
	pvmmon_waits_free(w);
	pvmmon_log_free(log);
}

/*
 * apps/phases with its compute phases asleep, at scale 5: 75 ms, then 75 ms or 225 ms a
 * worker. The master computes nothing, worker 0 twice what the others do, so the load
 * balance (mean useful / max useful over the four tasks) is (0 + 2 + 1 + 1) / 4 / 2 =
 * 50%, within 2% (relative). The rest of each task's useful time (the exchange's 250
 * round trips between calls, its start) is about a millisecond against 300 ms (at 0.1
 * ms a tenth it was 1.5%), and timed waiting does not stretch with a busy 2-CPU machine's
 * load; under ASan each task's own code is slower.
 */
static void test_phases_load_balance(void)
{
	const char *dir = harness_tmpdir();
	char path[512];
	cmd_result r;
	pvmmon_log *log = NULL;
	pvmmon_waits *w = NULL;
	double tol = harness_slowed() ? 0.05 : 0.02;

	harness_sh(&r, RUN_TIMEOUT,
	           "cd '%s' && PATH='%s':$PATH %s/pvmmon run -q --trace -o ph.xml -- %s/phases 5 "
	           "idle", /* the subject's mode: its phases idle (apps/phases) */
	           dir, harness_bin(), harness_bin(), harness_bin());
	CU_ASSERT_EQUAL_FATAL(r.status, 0);
	cmd_result_free(&r);
	snprintf(path, sizeof(path), "%s/ph.xml", dir);
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&log, path), 0);
	CU_ASSERT_EQUAL_FATAL(pvmmon_waits_compute(&w, log), 0);
	fprintf(stderr, "\n  phases: load balance %.2f%% (50%% analytic), parallel %.2f%%",
	        100 * w->load_balance, 100 * w->parallel_efficiency);
	CU_ASSERT(w->load_balance > 0.5 * (1 - tol) && w->load_balance < 0.5 * (1 + tol));
	CU_ASSERT_DOUBLE_EQUAL(w->parallel_efficiency, w->load_balance * w->comm_efficiency, 1e-9);
	pvmmon_waits_free(w);
	pvmmon_log_free(log);
}

/* Reads dir/name's log and its wait analysis (FATAL on failure: the caller frees). */
static void read_run(const char *dir, const char *name, pvmmon_log **log, pvmmon_waits **w)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	*log = NULL;
	*w = NULL;
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(log, path), 0);
	CU_ASSERT_EQUAL_FATAL(pvmmon_waits_compute(w, *log), 0);
}

/*
 * What a fix would gain, checked against the fix: slowstage with stage 0's slow_part at
 * 40 ms an item predicts its run with slow_part 50% faster; the same program with -x 20
 * measures it. Why 5% holds on a busy 2-CPU machine: all the subject's work is timed
 * waiting, so the run's length is set by stage 0's: 40 items x 22 ms = 880 ms after the fix
 * whatever the processors do; what load changes is the start (spawning four stages,
 * 15-35 ms measured, in both runs) and each wake-up (0.1-0.5 ms an item, in
 * both, halved for slow_part's in the prediction): together under 30 ms, 5% is 44 ms.
 * A busy machine can still stall a task for longer once in a while (about one run in
 * 8 measured 7-15% long, the first as often as the second): the pair of runs is made
 * again, up to three times, until one pair agrees; a wrong prediction is outside in
 * all of them.
 */
static void test_predict_checked_by_fix(void)
{
	const char *dir = harness_tmpdir();
	cmd_result r;
	pvmmon_log *log = NULL;
	pvmmon_waits *w = NULL;
	const pvmmon_wait_cause *top;
	char name[256];
	int64_t predicted = 0, curve[PVMMON_WAITS_CURVE], measured = 0;
	int within = 0;
	/* ASan's runtime makes every task's start 100 ms or more longer. */
	int64_t tol_pct = harness_slowed() ? 20 : 5;

	harness_sh(&r, RUN_TIMEOUT,
	           "cd '%s' && %s/pvmmon-cc -g -O2 -o slowstage %s/../apps/slowstage.c -lpvm3", dir,
	           harness_bin(), harness_build());
	CU_ASSERT_EQUAL_FATAL(r.status, 0);
	cmd_result_free(&r);
	for (int attempt = 0; attempt < 3 && !within; attempt++) {
		harness_sh(
		    &r, RUN_TIMEOUT,
		    "cd '%s' && %s/pvmmon run -q --trace --cp=slow_part,stage_work -o full.xml "
		    "-- ./slowstage -r 40 -x 40 && "
		    "%s/pvmmon run -q --trace --cp=slow_part,stage_work -o half.xml "
		    "-- ./slowstage -r 40 -x 20",
		    dir, harness_bin(), harness_bin());
		CU_ASSERT_EQUAL_FATAL(r.status, 0);
		cmd_result_free(&r);
		read_run(dir, "full.xml", &log, &w);
		CU_ASSERT_FATAL(w->ncauses > 0);
		top = &w->causes[0];
		pvmmon_waits_cause_name(name, sizeof(name), log, top);
		CU_ASSERT_STRING_EQUAL(name, "0.0 slow_part");
		CU_ASSERT_EQUAL(pvmmon_waits_predict(&predicted, log, top, 50), 0);
		/* The curve: p = 0 is the replayed run, p = 50 the prediction, never longer
		 * when faster. */
		CU_ASSERT_EQUAL(pvmmon_waits_curve(curve, log, top, -1, 0), 0);
		CU_ASSERT_EQUAL(curve[5], predicted);
		CU_ASSERT(llabs(curve[0] - w->runtime_ns) <= w->runtime_ns / 100);
		for (int k = 1; k < PVMMON_WAITS_CURVE; k++)
			CU_ASSERT(curve[k] <= curve[k - 1]);
		fprintf(stderr,
		        "\n  slowstage -x 40: run %.1f ms, predicted with slow_part 50%% "
		        "faster %.1f ms; ",
		        w->runtime_ns / 1e6, predicted / 1e6);
		pvmmon_waits_free(w);
		pvmmon_log_free(log);
		read_run(dir, "half.xml", &log, &w);
		measured = w->runtime_ns;
		fprintf(stderr, "-x 20 measured %.1f ms", measured / 1e6);
		within = llabs(predicted - measured) <= measured * tol_pct / 100;
		pvmmon_waits_free(w);
		pvmmon_log_free(log);
	}
	CU_ASSERT(within);
}

/*
 * The network what-if on a real run: --network=ideal predicts exactly the replay with
 * free messages that the efficiency figures use; a slow network (10 ms a message, 1 MB/s)
 * makes the run longer by at least the pipeline's chain of messages; the command line
 * shows both and the curve of a chosen task, and refuses bad values by the option's name.
 */
static void test_network_whatif(void)
{
	const char *dir = harness_tmpdir();
	cmd_result r;
	pvmmon_log *log = NULL;
	pvmmon_waits *w = NULL;
	int64_t ideal = 0, slow = 0, lat = 0;
	double bpns = 0;

	harness_sh(&r, RUN_TIMEOUT,
	           "cd '%s' && %s/pvmmon run -q --trace -o n.xml -- %s/slowstage -r 10", dir,
	           harness_bin(), harness_bin());
	CU_ASSERT_EQUAL_FATAL(r.status, 0);
	cmd_result_free(&r);
	read_run(dir, "n.xml", &log, &w);
	CU_ASSERT_EQUAL(pvmmon_waits_parse_network("--network", "ideal", &lat, &bpns), 0);
	CU_ASSERT_EQUAL(pvmmon_waits_predict_net(&ideal, log, NULL, 0, lat, bpns), 0);
	CU_ASSERT_EQUAL(ideal, w->ideal_ns);
	CU_ASSERT_EQUAL(pvmmon_waits_parse_network("--network", "10000,1", &lat, &bpns), 0);
	CU_ASSERT_EQUAL(pvmmon_waits_predict_net(&slow, log, NULL, 0, lat, bpns), 0);
	/* The last item leaves stage 0 when stage 0 is done and passes four messages (three
	 * stages, the master) before the run ends: at least 4 x 10 ms later than with free
	 * messages (the first item's way to stage 0 may be hidden by stage 0's start). */
	CU_ASSERT(slow >= ideal + 4 * 10000000LL);
	fprintf(stderr,
	        "\n  slowstage -r 10: run %.2f ms, ideal network %.2f ms, 10 ms + 1 MB/s "
	        "%.2f ms",
	        w->runtime_ns / 1e6, ideal / 1e6, slow / 1e6);
	pvmmon_waits_free(w);
	pvmmon_log_free(log);
	harness_sh(&r, RUN_TIMEOUT,
	           "cd '%s' && %s/pvmmon efficiency --network=ideal --curve=0.2 n.xml", dir,
	           harness_bin());
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "    net run"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "run (ms) if faster by"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "  0.2 all its computation "));
	cmd_result_free(&r);
	harness_sh(
	    &r, RUN_TIMEOUT,
	    "cd '%s' && %s/pvmmon efficiency --network=5 n.xml; "
	    "%s/pvmmon efficiency --network=x,2 n.xml; %s/pvmmon efficiency --network=1,-2 n.xml",
	    dir, harness_bin(), harness_bin(), harness_bin());
	CU_ASSERT_EQUAL(r.status, 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "--network=5: no comma"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "--network=x,2: the latency 'x'"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "--network=1,-2: the bandwidth '-2'"));
	CU_ASSERT_PTR_NULL(strstr(r.out, "n.xml"));
	cmd_result_free(&r);
}

/*
 * apps/latebar: 4 members meet at a barrier after each of 5 rounds; member 3 (task 0.3)
 * takes 100 ms more a round in late_part (napping). It is named the latecomer of every round's
 * barrier; the other three wait 5 x 100 ms x 3 = 1.5 s there in all; late_part is the top
 * cause. Within 5%: the members' work is timed waiting, so none needs a processor, and
 * the analysis is in virtual time, so pvmmon's own cost is not in it; what is left is a
 * wake-up coming late on a busy 2-CPU machine (a few ms, 20 ms seen once),
 * against a 75 ms budget, and a member would have to wake 98 ms late to be the latecomer.
 */
#define LB_ROUNDS 5
#define LB_EXTRA_MS 100
#define LB_MEMBERS 4
static void test_late_barrier_member(void)
{
	const char *dir = harness_tmpdir();
	char path[512], name[256];
	cmd_result r;
	pvmmon_log *log = NULL;
	pvmmon_waits *w = NULL;
	int64_t others = 0, expect = (int64_t)LB_ROUNDS * LB_EXTRA_MS * 1000000 * (LB_MEMBERS - 1);
	size_t rounds[LB_MEMBERS] = {0}, named = 0;

	harness_sh(
	    &r, RUN_TIMEOUT,
	    "cd '%s' && %s/pvmmon-cc -g -O2 -o latebar %s/../apps/latebar.c -lgpvm3 -lpvm3 && "
	    "%s/pvmmon run -q --trace --cp=late_part,member_work -o b.xml -- ./latebar -n %d "
	    "-r %d -x %d && %s/pvmmon report b.xml && %s/pvmmon export b.xml --csv csv && "
	    "echo barrier rows $(grep -c ',0.3,barrier,' csv/wait_states.csv)",
	    dir, harness_bin(), harness_build(), harness_bin(), LB_MEMBERS, LB_ROUNDS, LB_EXTRA_MS,
	    harness_bin(), harness_bin());
	CU_ASSERT_EQUAL_FATAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(r.out, "latebar: 4 members, 5 rounds, member 3 late by 100 ms: ok"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, ", at barriers: latecomer 0.3 in 5 of 5"));
	/* The export's wait_states: a row for each round's wait of each other member, its
	 * kind barrier and 0.3 in the from column (and the first barrier's, if 0.3 joined
	 * last). */
	{
		const char *rows = strstr(r.out, "barrier rows ");
		int n = rows ? atoi(rows + strlen("barrier rows ")) : 0;

		CU_ASSERT(n >= LB_ROUNDS * (LB_MEMBERS - 1) &&
		          n <= (LB_ROUNDS + 1) * (LB_MEMBERS - 1));
	}
	cmd_result_free(&r);
	snprintf(path, sizeof(path), "%s/b.xml", dir);
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&log, path), 0);
	CU_ASSERT_EQUAL_FATAL(pvmmon_waits_compute(&w, log), 0);
	/* Every member's barrier waits in their order: the first is the barrier after the
	 * join (its latecomer is whoever joined last), then one a round. */
	for (size_t s = 0; s < w->nstates; s++) {
		const pvmmon_wait_state *st = &w->states[s];
		const char *lid = log->tasks[st->task].lid;
		const pvmmon_log_stmt *at = NULL;

		if (st->kind != PVMMON_WAIT_BARRIER)
			continue;
		for (size_t i = 0; i < log->tasks[st->task].nstmts; i++)
			if (log->tasks[st->task].stmts[i].id ==
			    log->tasks[st->task].events[st->event].stmt)
				at = &log->tasks[st->task].stmts[i];
		CU_ASSERT_FATAL(at && at->op && !strcmp(at->op, "pvm_barrier"));
		/* The rounds' barrier is the second pvm_barrier call site (the first's line
		 * is the join's barrier). */
		if (strncmp(lid, "0.", 2) != 0 || at->count != LB_ROUNDS)
			continue;
		rounds[atoi(lid + 2) % LB_MEMBERS]++;
		named += !strcmp(log->tasks[st->from].lid, "0.3");
		if (strcmp(lid, "0.3") != 0)
			others += st->wait_ns;
	}
	fprintf(stderr,
	        "\n  latebar: the others waited %.1f ms at the rounds' barriers (%.1f ms "
	        "expected), at barriers %.1f ms in all",
	        others / 1e6, expect / 1e6, w->barrier_ns / 1e6);
	/* The late member never waits in a round; each other one does every round. */
	CU_ASSERT_EQUAL(rounds[3], 0);
	for (int k = 0; k < 3; k++)
		CU_ASSERT_EQUAL(rounds[k], LB_ROUNDS);
	CU_ASSERT_EQUAL(named, (size_t)LB_ROUNDS * (LB_MEMBERS - 1));
	CU_ASSERT(others > expect * 95 / 100 && others < expect * 105 / 100);
	CU_ASSERT(w->barrier_ns >= others);
	CU_ASSERT_FATAL(w->ncauses > 0);
	pvmmon_waits_cause_name(name, sizeof(name), log, &w->causes[0]);
	CU_ASSERT_STRING_EQUAL(name, "0.3 late_part");
	/* Its direct cost is the barrier waits (the master's waits for the members'
	 * answers come through them: propagated). */
	CU_ASSERT(w->causes[0].short_ns > expect * 95 / 100);
	/* The replay holds each member at a barrier until the last arrives: without
	 * late_part the run is about 5 x 100 ms shorter, and the gain predicted is the gain
	 * a run with -x 0 measures, within 5% of it (25 ms: the two runs' starts, a few ms
	 * each, which load varies). Before the replay modelled barriers, every barrier kept
	 * its measured length and the prediction gained nothing. */
	{
		int64_t gone = 0;
		pvmmon_log *l0 = NULL;
		pvmmon_waits *w0 = NULL;

		CU_ASSERT_EQUAL(pvmmon_waits_predict(&gone, log, &w->causes[0], 100), 0);
		harness_sh(
		    &r, RUN_TIMEOUT,
		    "cd '%s' && %s/pvmmon run -q --trace -o b0.xml -- ./latebar -n %d -r %d -x 0",
		    dir, harness_bin(), LB_MEMBERS, LB_ROUNDS);
		CU_ASSERT_EQUAL(r.status, 0);
		cmd_result_free(&r);
		snprintf(path, sizeof(path), "%s/b0.xml", dir);
		CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&l0, path), 0);
		CU_ASSERT_EQUAL_FATAL(pvmmon_waits_compute(&w0, l0), 0);
		fprintf(stderr, "; without late_part: predicted %.1f ms, measured %.1f ms",
		        gone / 1e6, w0->runtime_ns / 1e6);
		{
			int64_t predicted = w->runtime_ns - gone,
			        measured = w->runtime_ns - w0->runtime_ns;
			int64_t tol = measured / 20 + (harness_slowed() ? 50000000 : 0);

			CU_ASSERT(predicted > measured - tol && predicted < measured + tol);
		}
		pvmmon_waits_free(w0);
		pvmmon_log_free(l0);
	}
	pvmmon_waits_free(w);
	pvmmon_log_free(log);
}

/* apps/endwait: the master's timed receives that found nothing until the worker's result
 * came are one polling wait, the worker's computation (WORK_MS, 40 ms) its cause; its
 * timed receives after the worker had exited (3 x 20 ms) waits for an ended task, with no
 * cause; the text report and the export name both kinds. */
static void test_poll_and_ended(void)
{
	const char *dir = harness_tmpdir();
	char path[512];
	cmd_result r;
	pvmmon_log *log = NULL;
	pvmmon_waits *w = NULL;
	size_t npoll = 0;

	harness_sh(&r, RUN_TIMEOUT,
	           "cd '%s' && %s/pvmmon run -q --trace -o e.xml -- %s/endwait && "
	           "%s/pvmmon export e.xml --csv csv && grep -h -e ',poll,' -e ',ended,' "
	           "csv/wait_states.csv && %s/pvmmon report e.xml | grep 'for ended tasks'",
	           dir, harness_bin(), harness_bin(), harness_bin(), harness_bin());
	CU_ASSERT_EQUAL_FATAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "result 42 after "));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "asked the ended worker 3 times"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, ",poll,"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, ",ended,"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "polling "));
	cmd_result_free(&r);
	snprintf(path, sizeof(path), "%s/e.xml", dir);
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&log, path), 0);
	CU_ASSERT_EQUAL_FATAL(pvmmon_waits_compute(&w, log), 0);
	fprintf(stderr, "\n  endwait: polling %.1f ms, for the ended worker %.1f ms",
	        w->poll_ns / 1e6, w->ended_ns / 1e6);
	for (size_t s = 0; s < w->nstates; s++) {
		const pvmmon_wait_state *st = &w->states[s];

		if (st->kind == PVMMON_WAIT_POLL) {
			npoll++;
			CU_ASSERT_STRING_EQUAL(log->tasks[st->task].lid, "0");
			CU_ASSERT_STRING_EQUAL(log->tasks[st->from].lid, "0.0");
			CU_ASSERT(st->first < st->event);
		}
		if (st->kind == PVMMON_WAIT_ENDED)
			CU_ASSERT_STRING_EQUAL(log->tasks[st->from].lid, "0.0");
	}
	CU_ASSERT_EQUAL(npoll, 1);
	/* The worker computes 40 ms before it sends; the master polls from soon after the
	 * spawn: most of the 40 ms (the worker's start before it is not the master's wait
	 * in full, the master's first poll comes after its notify call). */
	CU_ASSERT(w->poll_ns >= 20000000 && w->poll_ns < 2000000000);
	/* The worker's computation caused it: the largest cause is the worker's. */
	CU_ASSERT_FATAL(w->ncauses > 0);
	CU_ASSERT_STRING_EQUAL(log->tasks[w->causes[0].task].lid, "0.0");
	/* The three timed receives after the notify of the worker's exit, 20 ms each at
	 * least; the first may have begun before the worker's end in virtual time (the
	 * notify carries no virtual time): two asserted. */
	CU_ASSERT(w->ended_ns >= 2 * 20000000LL);
	CU_ASSERT(w->total_wait_ns >= w->poll_ns + w->ended_ns);
	pvmmon_waits_free(w);
	pvmmon_log_free(log);
}

CU_TestInfo test_waits_tests[] = {
    {"a slow stage's procedure carries the pipeline's waiting", test_slow_stage_blamed},
    {"the issue's pipeline: slow_part carries >= 90%, analytic costs within 5%",
     test_issue_pipeline},
    {"pvmmon efficiency compares runs at two task counts", test_efficiency_across_runs},
    {"a receive by name while an earlier message waits is in the wrong order", test_wrong_order},
    {"apps/phases asleep: load balance within 2% of the analytic 50%", test_phases_load_balance},
    {"a prediction of slow_part 50% faster matches the run with it halved",
     test_predict_checked_by_fix},
    {"the network what-if: ideal agrees with the efficiency replay", test_network_whatif},
    {"a barrier's late member is named and carries the waiting", test_late_barrier_member},
    {"polling for a late worker and asking an ended one are waits of their own kinds",
     test_poll_and_ended},
    CU_TEST_INFO_NULL,
};
