/* Unit tests for pvmhooks/dyninst.c: sites switched by the monitor's rules, and
 * records that stay consistent when a site is switched between its entry and exit. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <CUnit/CUnit.h>

#include "../../../pvmhooks/dyninst.h"
#include "../../../pvmhooks/hooks.h"
#include "../../../pvmhooks/probes.h"
#include "../../../pvmhooks/records.h"

/* Sites of two files; the loops sit in "solve". */
static pvmmon_probe_site p_main = {"main", "/src/app.c", 10, PVMMON_PROBE_PROC, 1, -1, 0, 0, 0};
static pvmmon_probe_site p_solve = {"solve", "/src/app.c", 30, PVMMON_PROBE_PROC, 1, -1, 0, 0, 0};
static pvmmon_probe_site p_kern = {"kern", "/src/kernel.c", 5, PVMMON_PROBE_PROC, 1, -1, 0, 0, 0};
static pvmmon_probe_site l_rows = {"for@33", "/src/app.c", 33, PVMMON_PROBE_LOOP, 1, -1, 0, 0, 0};
static pvmmon_probe_site l_cols = {"for@35", "/src/app.c", 35, PVMMON_PROBE_LOOP, 1, -1, 0, 0, 0};

/* A first entry, as the probes make it (the procedure stack gives a loop's procedure). */
static int first(pvmmon_probe_site *s)
{
	int on = hooks__dyn_first(s);

	if (on && s->kind == PVMMON_PROBE_PROC)
		hooks__proc_enter(s, 0, 100);
	return on;
}

static void test_rules_decide_sites_last_match_wins(void)
{
	static char lid[] = "0.1";

	hooks__records_reset();
	hooks__set_identity(0, strdup(lid));
	/* Loops off, then one loop back on; a rule for another task changes nothing. */
	hooks__dyn_rules("-kind=loop;+task=0.1,loop=app.c:35;-task=0.2,proc=main");
	CU_ASSERT_EQUAL(first(&p_main), 1);
	CU_ASSERT_EQUAL(first(&p_solve), 1);
	CU_ASSERT_EQUAL(first(&l_rows), 0);
	CU_ASSERT_EQUAL(first(&l_cols), 1);
	CU_ASSERT_EQUAL(first(&p_kern), 1);
	/* A site switched off at its first entry still has a record, with no counts. */
	CU_ASSERT_EQUAL(hooks__records_task()->nloops, 1);
	CU_ASSERT_EQUAL(hooks__records_task()->loops[0].count, 0);
	/* Commands: a file, then a procedure with its loops. */
	hooks__dyn_switch(0, "file=kernel.c");
	CU_ASSERT_EQUAL(p_kern.enabled, 0);
	CU_ASSERT_EQUAL(p_main.enabled, 1);
	hooks__dyn_switch(0, "proc=solve");
	CU_ASSERT_EQUAL(p_solve.enabled, 0);
	CU_ASSERT_EQUAL(l_cols.enabled, 0);
	CU_ASSERT_EQUAL(p_main.enabled, 1);
	hooks__dyn_switch(1, "all");
	CU_ASSERT(p_main.enabled && p_solve.enabled && p_kern.enabled && l_rows.enabled &&
		  l_cols.enabled);
	/* A resource that does not parse is no rule. */
	hooks__dyn_switch(0, "colour=red");
	CU_ASSERT_EQUAL(p_main.enabled, 1);
	/* Another task's rule is not kept. */
	hooks__dyn_switch(0, "task=0.2");
	CU_ASSERT_EQUAL(p_main.enabled, 1);
	hooks__records_reset();
	hooks__set_identity(0, NULL);
}

/* A rule of kind=proc naming one procedure (the budget's) switches exactly the sites of
 * that name, two static procedures of one name in two files alike, and one seen after
 * the earlier rules too; line= still has to match. */
static void test_proc_rules_by_name(void)
{
	static pvmmon_probe_site d1 = {"dup", "/src/a.c", 3, PVMMON_PROBE_PROC, 1, -1, 0, 0, 0};
	static pvmmon_probe_site d2 = {"dup", "/src/b.c", 4, PVMMON_PROBE_PROC, 1, -1, 0, 0, 0};
	static pvmmon_probe_site other = {"other", "/src/a.c", 9, PVMMON_PROBE_PROC, 1, -1, 0,
	                                  0, 0};
	static pvmmon_probe_site late = {"late", "/src/b.c", 7, PVMMON_PROBE_PROC, 1, -1, 0, 0, 0};

	hooks__records_reset();
	hooks__dyn_rules("");
	CU_ASSERT(first(&d1) && first(&d2) && first(&other));
	hooks__dyn_switch(0, "kind=proc,proc=dup");
	CU_ASSERT(!d1.enabled && !d2.enabled && other.enabled);
	CU_ASSERT_EQUAL(first(&late), 1);
	hooks__dyn_switch(0, "kind=proc,proc=late,line=8");
	CU_ASSERT_EQUAL(late.enabled, 1);
	hooks__dyn_switch(0, "kind=proc,proc=late,line=7");
	CU_ASSERT_EQUAL(late.enabled, 0);
	CU_ASSERT_EQUAL(other.enabled, 1);
	hooks__dyn_switch(1, "kind=proc,proc=dup,file=b.c");
	CU_ASSERT(!d1.enabled && d2.enabled);
	hooks__dyn_switch(1, "all");
	hooks__records_reset();
}

/* An exit whose entry was not taken (the site was switched on in between) ends
 * nothing: the open procedures stay open and their times right. */
static void test_exit_without_entry_keeps_the_stack(void)
{
	static pvmmon_probe_site a = PVMMON_PROBE_SITE_INIT("a", PVMMON_PROBE_PROC);
	static pvmmon_probe_site b = PVMMON_PROBE_SITE_INIT("b", PVMMON_PROBE_PROC);
	static pvmmon_probe_site lp = PVMMON_PROBE_SITE_INIT("lp", PVMMON_PROBE_LOOP);
	pvmmon_log_task *t;

	hooks__records_reset();
	hooks__proc_enter(&a, 0, 0);
	hooks__loop_enter(&lp, 5);
	hooks__proc_exit(&b, 10); /* b was never entered */
	hooks__loop_exit(&lp, 20);
	hooks__loop_exit(&lp, 25); /* a second exit: nothing open */
	hooks__proc_exit(&a, 100);
	t = hooks__records_task();
	CU_ASSERT_EQUAL_FATAL(t->nprocs, 1);
	CU_ASSERT_STRING_EQUAL(t->procs[0].name, "a");
	CU_ASSERT_EQUAL(t->procs[0].count, 1);
	CU_ASSERT_EQUAL(t->procs[0].incl_ns, 100);
	CU_ASSERT_EQUAL_FATAL(t->nloops, 1);
	CU_ASSERT_EQUAL(t->loops[0].count, 1);
	CU_ASSERT_EQUAL(t->loops[0].time_ns, 15);
	hooks__records_reset();
}

/* Flushed records say which sites are off. */
static void test_records_mark_switched_off_sites(void)
{
	static pvmmon_probe_site a = PVMMON_PROBE_SITE_INIT("a", PVMMON_PROBE_PROC);
	static pvmmon_probe_site lp = PVMMON_PROBE_SITE_INIT("lp", PVMMON_PROBE_LOOP);
	pvmmon_log_task *t;

	hooks__records_reset();
	hooks__proc_enter(&a, 0, 0);
	hooks__loop_enter(&lp, 1);
	hooks__loop_exit(&lp, 2);
	hooks__proc_exit(&a, 3);
	a.enabled = 0;
	hooks__records_update_counts();
	t = hooks__records_task();
	CU_ASSERT_EQUAL(t->procs[0].disabled, 1);
	CU_ASSERT_EQUAL(t->loops[0].disabled, 0);
	a.enabled = 1;
	lp.enabled = 0;
	hooks__records_update_counts();
	CU_ASSERT_EQUAL(t->procs[0].disabled, 0);
	CU_ASSERT_EQUAL(t->loops[0].disabled, 1);
	lp.enabled = 1;
	hooks__records_reset();
}

/* A procedure pvmmon-cc split: its loops' sites follow its own, and are switched
 * with it from its first entry on, entered or not (a loop left on would keep the
 * instrumented copy in use). */
static void test_split_procedure_loops_switch_with_it(void)
{
	static char lid[] = "0.1";
	static pvmmon_probe_site sp[] = {
	    {"split", "/src/app.c", 50, PVMMON_PROBE_PROC, 1, -1, 0, 2, 0},
	    {"for@52", "/src/app.c", 52, PVMMON_PROBE_LOOP, 1, -1, 0, 0, 0},
	    {"while@60", "/src/app.c", 60, PVMMON_PROBE_LOOP, 1, -1, 0, 0, 0},
	};
	static pvmmon_probe_site quiet[] = {
	    {"quiet", "/src/app.c", 70, PVMMON_PROBE_PROC, 1, -1, 0, 1, 0},
	    {"for@72", "/src/app.c", 72, PVMMON_PROBE_LOOP, 1, -1, 0, 0, 0},
	};
	hooks_state_kind state = hooks__state();

	hooks__records_reset();
	hooks__set_identity(0, strdup(lid));
	hooks__dyn_rules("-kind=loop");
	CU_ASSERT_EQUAL(first(&sp[0]), 1);
	CU_ASSERT(sp[1].seen && sp[2].seen);
	CU_ASSERT_EQUAL(sp[1].enabled, 0);
	CU_ASSERT_EQUAL(sp[2].enabled, 0);
	/* Known, but no record until a loop is entered (inside its procedure). */
	CU_ASSERT_EQUAL(hooks__records_task()->nloops, 0);
	/* The loops take their procedure's name: a loop rule and a procedure rule. */
	hooks__dyn_switch(1, "proc=split,loop=app.c:60");
	CU_ASSERT_EQUAL(sp[2].enabled, 1);
	CU_ASSERT_EQUAL(sp[1].enabled, 0);
	hooks__dyn_switch(0, "proc=split");
	CU_ASSERT(!sp[0].enabled && !sp[1].enabled && !sp[2].enabled);
	/* Unmonitored for good: the first entry switches the procedure and its loops off,
	 * so its calls take the plain copy. */
	hooks__set_state(HOOKS_PASSIVE);
	pvmmon_probe_proc_enter(&quiet[0]);
	CU_ASSERT_EQUAL(quiet[0].enabled, 0);
	CU_ASSERT_EQUAL(quiet[1].enabled, 0);
	hooks__set_state(state);
	hooks__dyn_switch(1, "all");
	hooks__records_reset();
	hooks__set_identity(0, NULL);
}

/* n calls of tiny from inside outer, through the public probes. */
static void run_calls(pvmmon_probe_site *outer, pvmmon_probe_site *tiny, int n)
{
	pvmmon_probe_proc_enter(outer);
	for (int i = 0; i < n; i++) {
		/* As the scope macros do. */
		if (tiny->enabled) {
			pvmmon_probe_proc_enter(tiny);
			pvmmon_probe_proc_exit(tiny);
		} else {
			tiny->off++;
		}
	}
	pvmmon_probe_proc_exit(outer);
	hooks__records_update_counts();
}

/* The record of site p with counted == counted, or NULL. */
static const pvmmon_log_proc *record_of(const char *name, int counted)
{
	const pvmmon_log_task *t = hooks__records_task();

	for (size_t i = 0; i < t->nprocs; i++)
		if (!strcmp(t->procs[i].name, name) && t->procs[i].counted == counted)
			return &t->procs[i];
	return NULL;
}

/*
 * A procedure whose probe pair (2 us charged here) costs far more than its own time a
 * call (its probes' clamped interval: about nothing) is demoted to counting only after
 * HOOKS_THROTTLE_MIN calls: its count stays exact (timed calls plus counted ones), its records say
 * when and why, its caller stays timed and never negative. With throttling off it
 * stays timed; a cheap pair (2 ns) against the same procedure never demotes it.
 */
static void test_throttling_demotes_expensive_sites(void)
{
	static pvmmon_probe_site outer = PVMMON_PROBE_SITE_INIT("t_outer", PVMMON_PROBE_PROC);
	static pvmmon_probe_site tiny = PVMMON_PROBE_SITE_INIT("t_tiny", PVMMON_PROBE_PROC);
	static pvmmon_probe_site tiny2 = PVMMON_PROBE_SITE_INIT("t_tiny2", PVMMON_PROBE_PROC);
	const pvmmon_log_proc *timed, *counted, *o;

	/* A process with no pvmmon environment goes passive at its first probe unless a
	 * pvmd spawned it: look spawned, and undo an earlier test's decision. */
	setenv("PVMEPID", "1", 1);
	hooks__set_state(HOOKS_UNINIT);
	hooks__records_reset();
	hooks__probe_cost_set(1000);
	hooks__probe_throttle_set(0.25);
	run_calls(&outer, &tiny, 3000);
	CU_ASSERT_EQUAL(tiny.enabled, 0);
	CU_ASSERT_EQUAL(outer.enabled, 1);
	timed = record_of("t_tiny", 0);
	counted = record_of("t_tiny", 1);
	o = record_of("t_outer", 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(timed);
	CU_ASSERT_PTR_NOT_NULL_FATAL(counted);
	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	CU_ASSERT_EQUAL(timed->count, HOOKS_THROTTLE_MIN);
	CU_ASSERT_EQUAL(timed->count + counted->count, 3000);
	CU_ASSERT_EQUAL(timed->throttle_pair_ns, 2000);
	CU_ASSERT_EQUAL(counted->throttle_pair_ns, 2000);
	CU_ASSERT(timed->throttle_call_ns >= 0 && timed->throttle_call_ns < 500);
	CU_ASSERT(timed->incl_ns >= 0 && timed->excl_ns >= 0);
	CU_ASSERT_EQUAL(o->count, 1);
	CU_ASSERT(o->incl_ns >= timed->incl_ns && o->excl_ns >= 0);
	CU_ASSERT_EQUAL(timed->disabled, 0);
	/* A rule that switches it on leaves it counting only. */
	hooks__dyn_switch(1, "proc=t_tiny");
	CU_ASSERT_EQUAL(tiny.enabled, 0);

	/* Throttling off: every call timed. */
	hooks__probe_throttle_set(0);
	run_calls(&outer, &tiny2, 3000);
	CU_ASSERT_EQUAL(tiny2.enabled, 1);
	CU_ASSERT_PTR_NULL(record_of("t_tiny2", 1));
	CU_ASSERT_EQUAL(record_of("t_tiny2", 0)->count, 3000);

	hooks__records_reset();
	hooks__dyn_rules("");
	hooks__probe_throttle_set(0.25);
}

/* A cheap pair (2 ns charged) against the same procedure: its time a call (the probes'
 * own real cost, tens of nanoseconds, of which 2 are removed) keeps it timed. */
static void test_throttling_keeps_cheap_sites(void)
{
	static pvmmon_probe_site outer = PVMMON_PROBE_SITE_INIT("c_outer", PVMMON_PROBE_PROC);
	static pvmmon_probe_site tiny = PVMMON_PROBE_SITE_INIT("c_tiny", PVMMON_PROBE_PROC);

	setenv("PVMEPID", "1", 1);
	hooks__set_state(HOOKS_UNINIT);
	hooks__records_reset();
	hooks__probe_cost_set(1);
	hooks__probe_throttle_set(0.25);
	run_calls(&outer, &tiny, 3000);
	CU_ASSERT_EQUAL(tiny.enabled, 1);
	CU_ASSERT_EQUAL(record_of("c_tiny", 0)->count, 3000);
	CU_ASSERT_EQUAL(record_of("c_tiny", 0)->throttle_pair_ns, 0);
	hooks__records_reset();
}

/* Busy for about us microseconds of real time. */
static void busy_us(long us)
{
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	do
		clock_gettime(CLOCK_MONOTONIC, &b);
	while ((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec) < us * 1000L);
}

/*
 * Throttling judges a loop by its entries since its last look: a loop whose first 1024
 * entries take 5 us each and whose later ones take next to nothing, against a pair
 * charged 200 ns (25%: 800 ns an entry), is demoted at its 2048th entry, when the 1024
 * short ones are judged by themselves. A mean over its life would keep it timed until
 * the 8192nd (5 us x 1024 / 8192 = 625 ns). 4096 is allowed too: a preemption among the
 * short entries of a busy machine can lengthen one window.
 */
static void test_throttling_judges_loops_recent_entries(void)
{
	static pvmmon_probe_site outer = PVMMON_PROBE_SITE_INIT("l_outer", PVMMON_PROBE_PROC);
	static pvmmon_probe_site loop = PVMMON_PROBE_SITE_INIT("l_phases", PVMMON_PROBE_LOOP);
	int demoted_at = -1;

	setenv("PVMEPID", "1", 1);
	hooks__set_state(HOOKS_UNINIT);
	hooks__records_reset();
	hooks__probe_cost_set(100);
	hooks__probe_throttle_set(0.25);
	pvmmon_probe_proc_enter(&outer);
	for (int i = 0; i < 10000; i++) {
		if (!loop.enabled) {
			if (demoted_at < 0)
				demoted_at = i;
			continue;
		}
		pvmmon_probe_loop_enter(&loop);
		if (i < 1024)
			busy_us(5);
		pvmmon_probe_loop_exit(&loop);
	}
	pvmmon_probe_proc_exit(&outer);
	if (demoted_at != 2048)
		fprintf(stderr, "\n  loop demoted at entry %d ", demoted_at);
	CU_ASSERT(demoted_at == 2048 || demoted_at == 4096);
	hooks__records_reset();
}

/* n calls of site inner, 1 us each, inside outer, while inner stays on; the call at
 * which it was demoted, or -1. */
static int run_us_calls(pvmmon_probe_site *outer, pvmmon_probe_site *inner, int n)
{
	int demoted_at = -1;

	pvmmon_probe_proc_enter(outer);
	for (int i = 0; i < n && demoted_at < 0; i++) {
		if (!inner->enabled) {
			demoted_at = i;
			break;
		}
		pvmmon_probe_proc_enter(inner);
		busy_us(1);
		pvmmon_probe_proc_exit(inner);
	}
	pvmmon_probe_proc_exit(outer);
	return demoted_at;
}

/*
 * Under a cost budget below the throttling share, the budget is the share: a procedure
 * of at least 1 us a call against a pair charged 200 ns (at most 20%) stays timed at a
 * share of 25%, and is demoted at its first look, the 64th call, under a budget of 5%.
 * On a busy machine a preemption only lengthens calls, which keeps it timed at 25%; at
 * 5% it would take over 12 ms of preemption among 4096 calls to keep it so.
 */
static void test_budget_caps_throttling(void)
{
	static pvmmon_probe_site outer = PVMMON_PROBE_SITE_INIT("b_outer", PVMMON_PROBE_PROC);
	static pvmmon_probe_site mid = PVMMON_PROBE_SITE_INIT("b_mid", PVMMON_PROBE_PROC);
	static pvmmon_probe_site mid2 = PVMMON_PROBE_SITE_INIT("b_mid2", PVMMON_PROBE_PROC);
	static pvmmon_probe_site mid3 = PVMMON_PROBE_SITE_INIT("b_mid3", PVMMON_PROBE_PROC);
	int at;

	setenv("PVMEPID", "1", 1);
	hooks__set_state(HOOKS_UNINIT);
	hooks__records_reset();
	hooks__probe_cost_set(100);
	hooks__probe_throttle_set(0.25);
	CU_ASSERT_EQUAL(run_us_calls(&outer, &mid, 2048), -1);
	CU_ASSERT_EQUAL(mid.enabled, 1);
	hooks__probe_throttle_cap(0.05);
	at = run_us_calls(&outer, &mid2, 4096);
	if (at != HOOKS_THROTTLE_MIN)
		fprintf(stderr, "\n  demoted at call %d ", at);
	CU_ASSERT(at >= HOOKS_THROTTLE_MIN);
	CU_ASSERT_EQUAL(mid2.enabled, 0);
	/* A budget over the share leaves the share. */
	hooks__probe_throttle_cap(0.5);
	CU_ASSERT_EQUAL(run_us_calls(&outer, &mid3, 2048), -1);
	hooks__probe_throttle_cap(0);
	hooks__records_reset();
}

/*
 * A re-check under 90% of the calibration at registration says that one was disturbed
 * as a whole: the probe charge is scaled by their ratio. A re-check as dear or dearer
 * (disturbance only lengthens a measurement), or within 10%, leaves it alone.
 */
static void test_recheck_scales_a_disturbed_calibration(void)
{
	/* Calibrated 80 ns a loop pair, charged 22 ns a probe; a re-check found 60. */
	CU_ASSERT_EQUAL(hooks__dyn_recheck_charge(22, 80, 60), 17);
	CU_ASSERT_EQUAL(hooks__dyn_recheck_charge(22, 80, 40), 11);
	/* Within 10%, or dearer: unchanged. */
	CU_ASSERT_EQUAL(hooks__dyn_recheck_charge(22, 80, 73), 22);
	CU_ASSERT_EQUAL(hooks__dyn_recheck_charge(22, 80, 72), 22);
	/* Under it: scaled. */
	CU_ASSERT_EQUAL(hooks__dyn_recheck_charge(22, 80, 71), 20);
	CU_ASSERT_EQUAL(hooks__dyn_recheck_charge(22, 80, 120), 22);
	/* Nothing measured: unchanged. */
	CU_ASSERT_EQUAL(hooks__dyn_recheck_charge(22, 0, 60), 22);
	CU_ASSERT_EQUAL(hooks__dyn_recheck_charge(22, 80, 0), 22);
	CU_ASSERT_EQUAL(hooks__dyn_recheck_charge(-1, 80, 60), -1);
}

CU_TestInfo test_dyninst_tests[] = {
    {"a re-check scales a calibration the machine disturbed",
     test_recheck_scales_a_disturbed_calibration},
    {"throttling demotes a site whose probes cost more than it",
     test_throttling_demotes_expensive_sites},
    {"throttling keeps a site whose probes are cheap", test_throttling_keeps_cheap_sites},
    {"throttling judges a loop by its entries since the last look",
     test_throttling_judges_loops_recent_entries},
    {"a cost budget below the throttling share takes its place", test_budget_caps_throttling},
    {"a split procedure's loops switch with it", test_split_procedure_loops_switch_with_it},
    {"rules decide sites, the last match wins", test_rules_decide_sites_last_match_wins},
    {"a kind=proc rule switches the sites of its name only", test_proc_rules_by_name},
    {"an exit without its entry keeps the stack", test_exit_without_entry_keeps_the_stack},
    {"records mark switched-off sites", test_records_mark_switched_off_sites},
    CU_TEST_INFO_NULL,
};
