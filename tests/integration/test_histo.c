/*
 * Integration tests of time histograms (seed 001 section 2.2): apps/phases built with
 * pvmmon-cc has the default histograms, each adding up to the matching profile total;
 * a run 100 times longer has a log of about the same size whose widths doubled as
 * often as its length asks; `pvmmon ctl histogram` starts and stops one while the
 * program runs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "harness.h"
#include "pvmmon/errors.h"
#include "pvmmon/log.h"
#include "test_histo.h"

#define RUN_TIMEOUT 180

int histo_build_phases(const char *dir)
{
	cmd_result r;
	int ok;

	harness_sh(&r, 120,
	           "cd '%s' && %s/pvmmon-cc -g -O2 -I%s/../apps -o phases %s/../apps/phases.c "
	           "-lpvm3",
	           dir, harness_bin(), harness_build(), harness_build());
	ok = r.status == 0;
	if (!ok)
		fprintf(stderr, "\nbuild phases: %s%s\n", r.out, r.err);
	cmd_result_free(&r);
	return ok;
}

/* Runs phases SCALE under pvmmon run with opts into dir/log; reads the log (validated
 * against the schema) into *out. 0 when both went well. */
static int run_phases(pvmmon_log **out, const char *dir, const char *opts, int scale,
                      const char *log)
{
	cmd_result r;
	char path[512];
	int rc;

	*out = NULL;
	harness_sh(&r, RUN_TIMEOUT, "cd '%s' && %s/pvmmon run -q %s -o %s -- ./phases %d", dir,
	           harness_bin(), opts, log, scale);
	rc = r.status;
	if (rc || !strstr(r.out, "phases: 3 workers"))
		fprintf(stderr, "\nphases %d: %d\n%s%s\n", scale, r.status, r.out, r.err);
	cmd_result_free(&r);
	snprintf(path, sizeof(path), "%s/%s", dir, log);
	if (rc == 0 && pvmmon_log_read(out, path) < 0) {
		fprintf(stderr, "\n%s\n", pvmmon_error_last());
		rc = -1;
	}
	return rc;
}

static int64_t total(const pvmmon_log_hist *h)
{
	int64_t s = 0;

	for (size_t i = 0; i < h->nbuckets; i++)
		s += h->values[i];
	return s;
}

/* The task's histogram of (metric, focus, name or stmt), the default one; NULL when
 * none. */
static const pvmmon_log_hist *find(const pvmmon_log_hist *h, size_t n, pvmmon_hist_metric m,
                                   pvmmon_hist_focus f, const char *name, uint32_t stmt)
{
	for (size_t i = 0; i < n; i++)
		if (h[i].metric == m && h[i].focus == f && !h[i].requested &&
		    (!name || (h[i].name && !strcmp(h[i].name, name))) &&
		    (f != PVMMON_FOCUS_STMT || h[i].stmt == stmt))
			return &h[i];
	return NULL;
}

/* Equal within rounding: the histograms add up what the records add up, exactly
 * here; a microsecond (or a thousandth) of slack for the clock's clamping. */
#define CLOSE(a, b) (llabs((long long)(a) - (long long)(b)) <= 1000 + llabs((long long)(b)) / 1000)

/* One task's histograms against its profile totals. */
static void check_task(const pvmmon_log_task *t)
{
	const pvmmon_log_hist *h = t->hists;
	size_t n = t->nhists;
	int64_t states = 0, sync = 0;
	int procs = 0, loops = 0;

	for (int m = PVMMON_HIST_COMPUTE; m <= PVMMON_HIST_BYTES_RECV; m++)
		CU_ASSERT_PTR_NOT_NULL_FATAL(
		    find(h, n, (pvmmon_hist_metric)m, PVMMON_FOCUS_TASK, NULL, 0));
	for (int m = PVMMON_HIST_COMPUTE; m <= PVMMON_HIST_PVM; m++)
		states += total(find(h, n, (pvmmon_hist_metric)m, PVMMON_FOCUS_TASK, NULL, 0));
	for (size_t i = 0; i < t->nstmts; i++)
		sync += t->stmts[i].sync_ns;
	CU_ASSERT(CLOSE(states, t->virtual_ns));
	/* A wait is put in the histogram as at most its call's virtual span, which a clamp
	 * of the clock shortens (histos.c, call_fast), while the statement keeps the whole
	 * delay: they may differ by what the clock clamped (clamped-ns), which a loaded
	 * machine makes more than the slack. */
	{
		int64_t hw = total(find(h, n, PVMMON_HIST_WAIT, PVMMON_FOCUS_TASK, NULL, 0));
		int ok = CLOSE(hw, sync) || (hw <= sync && sync - hw <= t->clamped_ns + 1000);

		if (!ok)
			fprintf(stderr, "\n  wait histogram %lld ns, statements' sync %lld ns, clamped %lld ns",
			        (long long)hw, (long long)sync, (long long)t->clamped_ns);
		CU_ASSERT(ok);
	}
	CU_ASSERT(total(find(h, n, PVMMON_HIST_OVERHEAD, PVMMON_FOCUS_TASK, NULL, 0)) > 0);
	CU_ASSERT_EQUAL(total(find(h, n, PVMMON_HIST_MSGS_SENT, PVMMON_FOCUS_TASK, NULL, 0)),
	                (int64_t)t->msgs_sent);
	CU_ASSERT_EQUAL(total(find(h, n, PVMMON_HIST_BYTES_SENT, PVMMON_FOCUS_TASK, NULL, 0)),
	                (int64_t)t->bytes_sent);
	CU_ASSERT_EQUAL(total(find(h, n, PVMMON_HIST_MSGS_RECV, PVMMON_FOCUS_TASK, NULL, 0)),
	                (int64_t)t->msgs_recv);
	CU_ASSERT_EQUAL(total(find(h, n, PVMMON_HIST_BYTES_RECV, PVMMON_FOCUS_TASK, NULL, 0)),
	                (int64_t)t->bytes_recv);
	for (size_t i = 0; i < t->nstmts; i++) {
		const pvmmon_log_stmt *s = &t->stmts[i];
		const pvmmon_log_hist *ht =
		    find(h, n, PVMMON_HIST_TIME, PVMMON_FOCUS_STMT, NULL, s->id);
		const pvmmon_log_hist *hc =
		    find(h, n, PVMMON_HIST_CALLS, PVMMON_FOCUS_STMT, NULL, s->id);

		/* Every statement is among the 16 hottest of a phases task (the master has
		 * more than the default 8). */
		CU_ASSERT_PTR_NOT_NULL_FATAL(ht);
		CU_ASSERT_PTR_NOT_NULL_FATAL(hc);
		CU_ASSERT(CLOSE(total(ht), s->time_ns));
		CU_ASSERT_EQUAL(total(hc), (int64_t)s->count);
	}
	for (size_t i = 0; i < n; i++) {
		int64_t incl = 0, count = 0;

		if (h[i].focus != PVMMON_FOCUS_PROC)
			continue;
		for (size_t k = 0; k < t->nprocs; k++)
			if (!strcmp(t->procs[k].name, h[i].name)) {
				incl += t->procs[k].incl_ns;
				count += (int64_t)t->procs[k].count;
			}
		CU_ASSERT(CLOSE(total(&h[i]), h[i].metric == PVMMON_HIST_TIME ? incl : count));
		procs++;
	}
	/* main and the workers' phase procedures: their time and calls. */
	CU_ASSERT(procs >= 2);
	/* Each loop record has its own, under the loop's name. */
	for (size_t i = 0; i < n; i++) {
		int64_t time = 0, count = 0;

		if (h[i].focus != PVMMON_FOCUS_LOOP)
			continue;
		for (size_t k = 0; k < t->nloops; k++)
			if (!strcmp(t->loops[k].name, h[i].name)) {
				time += t->loops[k].time_ns;
				count += (int64_t)t->loops[k].count;
			}
		CU_ASSERT(CLOSE(total(&h[i]), h[i].metric == PVMMON_HIST_TIME ? time : count));
		loops++;
	}
	CU_ASSERT(loops >= 2);
	for (size_t i = 0; i < n; i++)
		CU_ASSERT(h[i].nbuckets <= 128);
}

/* phases: the log validates, has the default histograms of every task and of the
 * program, and every histogram adds up to its profile total. */
static void test_phases_totals(void)
{
	const char *dir = harness_tmpdir();
	pvmmon_log *log;

	CU_ASSERT_FATAL(histo_build_phases(dir));
	CU_ASSERT_EQUAL_FATAL(run_phases(&log, dir, "--hist-hottest=16", 1, "p.xml"), 0);
	CU_ASSERT_EQUAL(log->hist.enabled, 1);
	CU_ASSERT_EQUAL(log->hist.buckets, 128);
	CU_ASSERT_EQUAL(log->hist.initial_width_ns, 10000000);
	CU_ASSERT_EQUAL(log->hist.hottest, 16);
	CU_ASSERT_EQUAL(log->ntasks, 4);
	for (size_t i = 0; i < log->ntasks; i++)
		check_task(&log->tasks[i]);
	/* The program's merged histograms hold every task's. */
	for (int m = PVMMON_HIST_COMPUTE; m <= PVMMON_HIST_BYTES_RECV; m++) {
		const pvmmon_log_hist *p = find(log->hists, log->nhists, (pvmmon_hist_metric)m,
		                                PVMMON_FOCUS_PROGRAM, NULL, 0);
		int64_t sum = 0;

		CU_ASSERT_PTR_NOT_NULL_FATAL(p);
		for (size_t i = 0; i < log->ntasks; i++)
			sum += total(find(log->tasks[i].hists, log->tasks[i].nhists,
			                  (pvmmon_hist_metric)m, PVMMON_FOCUS_TASK, NULL, 0));
		CU_ASSERT_EQUAL(total(p), sum);
		CU_ASSERT_EQUAL(p->start_ns, 0);
	}
	pvmmon_log_free(log);
}

/* The doublings a task's histograms must have made: the least d for which its
 * virtual time at its last flush lies within 128 buckets of w0 * 2^d. */
static uint32_t expected_doublings(const pvmmon_log_task *t, int64_t w0)
{
	uint32_t d = 0;

	while (t->virtual_ns >= (int64_t)128 * (w0 << d))
		d++;
	return d;
}

/* The value text of a log's histograms is what changes with the run's length. */
static void check_doublings(const pvmmon_log *log, int64_t w0)
{
	for (size_t i = 0; i < log->ntasks; i++) {
		const pvmmon_log_task *t = &log->tasks[i];
		uint32_t d = expected_doublings(t, w0);

		for (size_t k = 0; k < t->nhists; k++) {
			CU_ASSERT_EQUAL(t->hists[k].doublings, d);
			CU_ASSERT_EQUAL(t->hists[k].width_ns, w0 << d);
			CU_ASSERT(t->hists[k].nbuckets <= 128);
		}
	}
}

static size_t nhists(const pvmmon_log *log)
{
	size_t n = log->nhists;

	for (size_t i = 0; i < log->ntasks; i++)
		n += log->tasks[i].nhists;
	return n;
}

/*
 * A run 100 times longer keeps as many histograms, whose width doubled as often as each
 * task's length asks, and its log has the same size within 2% (where a trace or a
 * growing array would make it 100 times larger). Every histogram writes all of the
 * run's 128 buckets at a fixed width (le64-base64), so they are the same size in both;
 * what remains is the digits of the profile's numbers and of the histograms' start and
 * width (measured: +0.3%). apps/phases makes no more nondeterministic receives in a
 * longer run (the master receives the exchange's pings from named workers), so its
 * replay record, one entry per such outcome, keeps its size too. 100 us buckets, so
 * that both runs have doubled.
 */
static void test_size_independent_of_length(void)
{
	const char *dir = harness_tmpdir();
	pvmmon_log *s = NULL, *l = NULL;
	char path[512];
	long ss, ls;

	CU_ASSERT_FATAL(histo_build_phases(dir));
	CU_ASSERT_EQUAL_FATAL(run_phases(&s, dir, "--hist-width=100us", 1, "s.xml"), 0);
	CU_ASSERT_EQUAL_FATAL(run_phases(&l, dir, "--hist-width=100us", 100, "l.xml"), 0);
	snprintf(path, sizeof(path), "%s/s.xml", dir);
	ss = harness_file_size(path);
	snprintf(path, sizeof(path), "%s/l.xml", dir);
	ls = harness_file_size(path);
	fprintf(stderr, "\nhisto: log of scale 1 %ld bytes, of scale 100 %ld bytes (%+.1f%%)\n", ss,
	        ls, 100.0 * (double)(ls - ss) / (double)ss);
	CU_ASSERT(ss > 0 && ls > 0);
	CU_ASSERT(ls <= ss * 102 / 100 && ls >= ss * 98 / 100);
	/* Every histogram has the run's 128 buckets, filled or not. */
	CU_ASSERT_EQUAL(l->tasks[0].hists[0].nbuckets, 128);
	CU_ASSERT_EQUAL(s->tasks[0].hists[0].nbuckets, 128);
	CU_ASSERT_EQUAL(nhists(s), nhists(l));
	check_doublings(s, 100000);
	check_doublings(l, 100000);
	/* The longer run did double more: 100 times is six or seven doublings. */
	CU_ASSERT(l->tasks[0].hists[0].doublings >= s->tasks[0].hists[0].doublings + 5);
	pvmmon_log_free(s);
	pvmmon_log_free(l);
}

/* The task histogram of metric asked for by ctl; NULL when none. */
static const pvmmon_log_hist *ctl_hist(const pvmmon_log_task *t, pvmmon_hist_metric m)
{
	for (size_t i = 0; i < t->nhists; i++)
		if (t->hists[i].metric == m && t->hists[i].requested &&
		    !strcmp(t->hists[i].requested, "ctl"))
			return &t->hists[i];
	return NULL;
}

/* The run's merged histogram of metric requested by req; NULL when none. */
static const pvmmon_log_hist *find_req(const pvmmon_log_hist *h, size_t n, pvmmon_hist_metric m,
                                       const char *req)
{
	for (size_t i = 0; i < n; i++)
		if (h[i].metric == m && h[i].requested && !strcmp(h[i].requested, req))
			return &h[i];
	return NULL;
}

/* Whether every bucket of h that ends before `from` or starts at or after `to` (-1:
 * never) is 0. */
static int zero_outside(const pvmmon_log_hist *h, int64_t from, int64_t to)
{
	for (size_t i = 0; i < h->nbuckets; i++) {
		int64_t a = h->start_ns + (int64_t)i * h->width_ns;

		if ((a + h->width_ns <= from || (to >= 0 && a >= to)) && h->values[i])
			return 0;
	}
	return 1;
}

/*
 * `pvmmon ctl histogram` on a running program: the histograms it asks for start when
 * each task takes the command (after the request, before the program ends) and hold
 * nothing before; `--off` ends the one it names, which then holds nothing after.
 */
static void test_ctl_histogram(void)
{
	const char *dir = harness_tmpdir();
	pvmmon_log *log = NULL;
	cmd_result r;
	char path[512];
	long long t0 = 0, t1 = 0, t3 = 0;
	int tasks_with = 0;

	CU_ASSERT_FATAL(histo_build_phases(dir));
	/* The request waits until the monitor answers (pvmmon top), not a fixed time. The
	 * half second between on and off leaves the program (scale 60: two seconds or
	 * more) running on either side of it on a loaded machine too. */
	harness_sh(
	    &r, RUN_TIMEOUT,
	    "cd '%s' || exit 1; b=%s; t0=$(date +%%s%%N); "
	    "($b/pvmmon run -q -o c.xml -- ./phases 60 > run.out 2>&1; echo rc=$? >> run.out) & "
	    "for i in $(seq 1 400); do $b/pvmmon top --once c.xml >/dev/null 2>&1 && break; "
	    "sleep 0.02; done; "
	    "t1=$(date +%%s%%N); $b/pvmmon ctl histogram wait:program,msgs-sent:task c.xml; "
	    "echo ctl=$?; sleep 0.5; "
	    "$b/pvmmon ctl histogram --off wait:program c.xml; echo off=$?; "
	    "t3=$(date +%%s%%N); wait; cat run.out; echo times $t0 $t1 $t3",
	    dir, harness_bin());
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "ctl=0"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "off=0"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "rc=0"));
	if (strstr(r.out, "times "))
		sscanf(strstr(r.out, "times "), "times %lld %lld %lld", &t0, &t1, &t3);
	if (!strstr(r.out, "rc=0"))
		fprintf(stderr, "\nctl histogram: %s%s\n", r.out, r.err);
	cmd_result_free(&r);
	snprintf(path, sizeof(path), "%s/c.xml", dir);
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&log, path), 0);
	for (size_t i = 0; i < log->ntasks; i++) {
		const pvmmon_log_task *t = &log->tasks[i];
		const pvmmon_log_hist *w = ctl_hist(t, PVMMON_HIST_WAIT);
		const pvmmon_log_hist *m = ctl_hist(t, PVMMON_HIST_MSGS_SENT);

		/* Every task takes msgs-sent: the master at its next receive, a worker at its
		 * next call (the end of its first phase: seconds of computing without one at
		 * scale 60, so possibly after the off) or, welcomed after it, from its start. */
		CU_ASSERT_PTR_NOT_NULL_FATAL(m);
		CU_ASSERT(m->from_ns >= t->start_ns);
		CU_ASSERT(i > 0 || m->from_ns <= t3 - t0);
		/* Virtual time runs behind the real time since pvmmon run started: from-ns is
		 * at most the real time at the off's answer. */
		CU_ASSERT(zero_outside(m, m->from_ns, m->to_ns));
		/* Only wait was switched off: msgs-sent collected to the end, and counted no
		 * more than the default histogram of the whole run. */
		CU_ASSERT_EQUAL(m->to_ns, -1);
		CU_ASSERT(total(m) <= (int64_t)t->msgs_sent);
		/* A worker welcomed after the off never had wait. */
		if (!w)
			continue;
		tasks_with++;
		CU_ASSERT(w->from_ns >= t->start_ns);
		CU_ASSERT(i > 0 || w->from_ns <= t3 - t0);
		/* The off is taken at the task's next call after the answer: no upper bound. */
		CU_ASSERT(w->to_ns >= w->from_ns);
		CU_ASSERT(zero_outside(w, w->from_ns, w->to_ns));
	}
	/* The master took both: it was running all along, waiting for the workers'
	 * messages most of the time, in the half second between on and off too. */
	CU_ASSERT_PTR_NOT_NULL_FATAL(ctl_hist(&log->tasks[0], PVMMON_HIST_WAIT));
	CU_ASSERT(total(ctl_hist(&log->tasks[0], PVMMON_HIST_WAIT)) > 0);
	CU_ASSERT(tasks_with >= 1);
	CU_ASSERT_PTR_NOT_NULL(find_req(log->hists, log->nhists, PVMMON_HIST_WAIT, "ctl"));
	CU_ASSERT_PTR_NOT_NULL(find_req(log->hists, log->nhists, PVMMON_HIST_MSGS_SENT, "ctl"));
	(void)t1;
	pvmmon_log_free(log);
}

/* --no-histograms with --histogram: only what was asked for, marked requested="run":
 * a task metric per task (and merged for the program), and every loop's time. */
static void test_run_histogram_option(void)
{
	const char *dir = harness_tmpdir();
	pvmmon_log *log;

	CU_ASSERT_FATAL(histo_build_phases(dir));
	CU_ASSERT_EQUAL_FATAL(
	    run_phases(&log, dir, "--no-histograms --histogram=wait:task,time:loop", 1, "o.xml"),
	    0);
	CU_ASSERT_EQUAL(log->hist.enabled, 1);
	CU_ASSERT_EQUAL(log->hist.hottest, 0);
	for (size_t i = 0; i < log->ntasks; i++) {
		const pvmmon_log_task *t = &log->tasks[i];
		size_t waits = 0, loops = 0;
		int64_t sync = 0;

		for (size_t k = 0; k < t->nhists; k++) {
			const pvmmon_log_hist *h = &t->hists[k];

			CU_ASSERT_PTR_NOT_NULL_FATAL(h->requested);
			CU_ASSERT_STRING_EQUAL(h->requested, "run");
			if (h->metric == PVMMON_HIST_WAIT && h->focus == PVMMON_FOCUS_TASK) {
				for (size_t j = 0; j < t->nstmts; j++)
					sync += t->stmts[j].sync_ns;
				CU_ASSERT(CLOSE(total(h), sync));
				waits++;
			} else {
				CU_ASSERT_EQUAL(h->metric, PVMMON_HIST_TIME);
				CU_ASSERT_EQUAL(h->focus, PVMMON_FOCUS_LOOP);
				loops++;
			}
		}
		CU_ASSERT_EQUAL(waits, 1);
		/* Every loop that ran has one (the master's and the workers' loops). */
		CU_ASSERT(loops >= 1 && loops <= t->nloops);
	}
	CU_ASSERT_PTR_NOT_NULL(find_req(log->hists, log->nhists, PVMMON_HIST_WAIT, "run"));
	CU_ASSERT_PTR_NULL(
	    find(log->hists, log->nhists, PVMMON_HIST_COMPUTE, PVMMON_FOCUS_PROGRAM, NULL, 0));
	pvmmon_log_free(log);
}

CU_TestInfo test_histo_tests[] = {
    {"phases: default histograms add up to the profile", test_phases_totals},
    {"a run 100 times longer: same histograms, doubled widths", test_size_independent_of_length},
    {"pvmmon ctl histogram starts and stops one", test_ctl_histogram},
    {"--no-histograms --histogram: only those asked for", test_run_histogram_option},
    CU_TEST_INFO_NULL,
};
