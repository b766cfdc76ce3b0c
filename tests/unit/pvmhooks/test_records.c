/* Unit tests for pvmhooks/records.c: statement, com, proc and loop records. */
#include <string.h>

#include <CUnit/CUnit.h>

#include "../../../pvmhooks/hooks.h"
#include "../../../pvmhooks/records.h"

static int setup(void)
{
	hooks__records_reset();
	hooks__records_init();
	return 0;
}

static void test_statement_per_site(void)
{
	pvmmon_log_task *t;
	pvmmon_log_stmt *a, *b;
	void *site1 = (void *)test_statement_per_site, *site2 = (void *)setup;

	setup();
	a = hooks__stmt(site1, HOOKS_OP_pvm_send);
	b = hooks__stmt(site2, HOOKS_OP_pvm_recv);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	a->count++;
	/* The same site gives the same record, even after the array grew. */
	for (int i = 0; i < 100; i++)
		hooks__stmt((char *)site2 + 1 + i, HOOKS_OP_pvm_send);
	a = hooks__stmt(site1, HOOKS_OP_pvm_send);
	CU_ASSERT_EQUAL(a->count, 1);
	t = hooks__records_task();
	CU_ASSERT_EQUAL(t->nstmts, 102);
	CU_ASSERT_STRING_EQUAL(t->stmts[1].op, "pvm_recv");
	/* The call site is named by its module (an absolute path) and offset. */
	CU_ASSERT_PTR_NOT_NULL_FATAL(t->stmts[0].module);
	CU_ASSERT_EQUAL(t->stmts[0].module[0], '/');
	CU_ASSERT(t->stmts[0].offset > 0);
}

static void test_com_per_partner(void)
{
	pvmmon_log_stmt *s;
	int tid;

	setup();
	s = hooks__stmt((void *)test_com_per_partner, HOOKS_OP_pvm_mcast);
	for (tid = 1; tid <= 64; tid++)
		hooks__com(s, 0x40000 + tid)->count++;
	for (tid = 1; tid <= 64; tid++)
		hooks__com(s, 0x40000 + tid)->count++;
	CU_ASSERT_EQUAL(s->ncom, 64);
	CU_ASSERT_EQUAL(s->com[10].count, 2);
	CU_ASSERT_EQUAL(s->com[10].partner_tid, 0x40000 + 11);
}

static pvmmon_probe_site s_main = PVMMON_PROBE_SITE_INIT("main", PVMMON_PROBE_PROC);
static pvmmon_probe_site s_solve = PVMMON_PROBE_SITE_INIT("solve", PVMMON_PROBE_PROC);
static pvmmon_probe_site s_fact = PVMMON_PROBE_SITE_INIT("fact", PVMMON_PROBE_PROC);
static pvmmon_probe_site s_loop = PVMMON_PROBE_SITE_INIT("rows", PVMMON_PROBE_LOOP);
/* Sites keep their record slot across resets: each test of loops has its own site. */
static pvmmon_probe_site s_cols = PVMMON_PROBE_SITE_INIT("cols", PVMMON_PROBE_LOOP);

static const pvmmon_log_proc *find_proc(const char *name, const char *caller)
{
	pvmmon_log_task *t = hooks__records_task();

	for (size_t i = 0; i < t->nprocs; i++)
		if (!strcmp(t->procs[i].name, name) &&
		    ((!caller && !t->procs[i].caller) ||
		     (caller && t->procs[i].caller && !strcmp(t->procs[i].caller, caller))))
			return &t->procs[i];
	return NULL;
}

static void test_proc_inclusive_exclusive(void)
{
	const pvmmon_log_proc *m, *s;

	setup();
	hooks__proc_enter(&s_main, 0, 0);
	hooks__proc_enter(&s_solve, 0, 10);
	hooks__proc_exit(&s_solve, 40);
	hooks__proc_enter(&s_solve, 0, 50);
	hooks__proc_exit(&s_solve, 70);
	hooks__proc_exit(&s_main, 100);
	m = find_proc("main", NULL);
	s = find_proc("solve", "main");
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL(m->count, 1);
	CU_ASSERT_EQUAL(m->incl_ns, 100);
	CU_ASSERT_EQUAL(m->excl_ns, 50);
	CU_ASSERT_EQUAL(s->count, 2);
	CU_ASSERT_EQUAL(s->incl_ns, 50);
	CU_ASSERT_EQUAL(s->excl_ns, 50);
}

static void test_recursion_counts_outermost_time(void)
{
	const pvmmon_log_proc *outer, *inner;

	setup();
	hooks__proc_enter(&s_fact, 0, 0);
	hooks__proc_enter(&s_fact, 0, 10);
	hooks__proc_enter(&s_fact, 0, 20);
	hooks__proc_exit(&s_fact, 30);
	hooks__proc_exit(&s_fact, 40);
	hooks__proc_exit(&s_fact, 50);
	outer = find_proc("fact", NULL);
	inner = find_proc("fact", "fact");
	CU_ASSERT_PTR_NOT_NULL_FATAL(outer);
	CU_ASSERT_PTR_NOT_NULL_FATAL(inner);
	CU_ASSERT_EQUAL(outer->incl_ns, 50);
	/* The recursive record counts calls; its time is inside the outer one's. */
	CU_ASSERT_EQUAL(inner->count, 2);
	CU_ASSERT_EQUAL(inner->incl_ns, 0);
	CU_ASSERT_EQUAL(outer->excl_ns + inner->excl_ns, 50);
}

static void test_proc_record_per_call_site(void)
{
	pvmmon_log_task *t;
	const pvmmon_log_proc *at12 = NULL, *at20 = NULL;

	setup();
	hooks__proc_enter(&s_main, 0, 0);
	for (int i = 0; i < 3; i++) {
		hooks__proc_enter(&s_solve, 12, 10 + 100 * i);
		hooks__proc_exit(&s_solve, 20 + 100 * i);
	}
	hooks__proc_enter(&s_solve, 20, 400);
	hooks__proc_exit(&s_solve, 450);
	hooks__proc_exit(&s_main, 500);
	t = hooks__records_task();
	for (size_t i = 0; i < t->nprocs; i++) {
		if (!strcmp(t->procs[i].name, "solve") && t->procs[i].call_line == 12)
			at12 = &t->procs[i];
		if (!strcmp(t->procs[i].name, "solve") && t->procs[i].call_line == 20)
			at20 = &t->procs[i];
	}
	/* Two call sites of solve in main: two records, each with its own figures. */
	CU_ASSERT_PTR_NOT_NULL_FATAL(at12);
	CU_ASSERT_PTR_NOT_NULL_FATAL(at20);
	CU_ASSERT_EQUAL(at12->count, 3);
	CU_ASSERT_EQUAL(at12->incl_ns, 30);
	CU_ASSERT_EQUAL(at20->count, 1);
	CU_ASSERT_EQUAL(at20->incl_ns, 50);
	CU_ASSERT_STRING_EQUAL(at20->caller, "main");
	/* main is a root: it has no call line even if one was pending. */
	CU_ASSERT_EQUAL(find_proc("main", NULL)->call_line, 0);
	CU_ASSERT_EQUAL(t->nprocs, 3);
}

static void test_missing_exit_unwinds(void)
{
	const pvmmon_log_proc *m;

	setup();
	hooks__proc_enter(&s_main, 0, 0);
	hooks__proc_enter(&s_solve, 0, 10); /* left by longjmp: no exit probe */
	hooks__proc_exit(&s_main, 100);
	m = find_proc("main", NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL(m->incl_ns, 100);
	CU_ASSERT_EQUAL(m->count, 1);
}

static void test_loops(void)
{
	pvmmon_log_task *t;

	setup();
	s_loop.slot = -1;
	hooks__proc_enter(&s_main, 0, 0);
	hooks__loop_enter(&s_loop, 5);
	hooks__loop_exit(&s_loop, 25);
	hooks__loop_enter(&s_loop, 30);
	hooks__loop_exit(&s_loop, 35);
	hooks__proc_exit(&s_main, 40);
	t = hooks__records_task();
	CU_ASSERT_EQUAL_FATAL(t->nloops, 1);
	CU_ASSERT_EQUAL(t->loops[0].count, 2);
	CU_ASSERT_EQUAL(t->loops[0].time_ns, 25);
	CU_ASSERT_STRING_EQUAL(t->loops[0].proc, "main");
	hooks__records_reset();
}

/* Moves the task's clock as probes and a receive would: real time rt, I and L. */
static int64_t at(int64_t rt, int64_t intrusion, int64_t local)
{
	vclock__set_charges(hooks__clock(), intrusion, local, 0);
	return rt - intrusion;
}

/*
 * Every record keeps real, local and virtual times, each exclusive time being the
 * inclusive time minus the callees' on the same clock (seed 002's per-child
 * correction): main's probes cost 5 each and a receive in main waited 100 for a sender
 * slowed by monitoring (I grows by 100, L only by the wrapper's own 2).
 */
static void test_three_clocks_per_child(void)
{
	const pvmmon_log_proc *m, *s;
	const pvmmon_log_loop *l;

	setup();
	hooks__proc_enter(&s_main, 0, at(0, 0, 0));
	hooks__loop_enter(&s_cols, at(8, 5, 5));
	hooks__proc_enter(&s_solve, 0, at(15, 10, 10));
	hooks__proc_exit(&s_solve, at(40, 15, 15));
	hooks__loop_exit(&s_cols, at(48, 20, 20));
	hooks__proc_exit(&s_main, at(200, 125, 27));
	m = find_proc("main", NULL);
	s = find_proc("solve", "main");
	l = &hooks__records_task()->loops[0];
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	/* solve: its own entry probe's 5 is removed by both compensations. */
	CU_ASSERT_EQUAL(s->raw_incl_ns, 25);
	CU_ASSERT_EQUAL(s->local_incl_ns, 20);
	CU_ASSERT_EQUAL(s->incl_ns, 20);
	CU_ASSERT_EQUAL(s->raw_excl_ns, 25);
	CU_ASSERT_EQUAL(s->local_excl_ns, 20);
	CU_ASSERT_EQUAL(s->excl_ns, 20);
	/* main: real 200; locally 200 - 27; virtually 200 - 125. */
	CU_ASSERT_EQUAL(m->raw_incl_ns, 200);
	CU_ASSERT_EQUAL(m->local_incl_ns, 173);
	CU_ASSERT_EQUAL(m->incl_ns, 75);
	/* Exclusive: minus solve on the same clock, so solve's probe costs are neither
	 * charged to main nor removed from it twice. */
	CU_ASSERT_EQUAL(m->raw_excl_ns, 175);
	CU_ASSERT_EQUAL(m->local_excl_ns, 153);
	CU_ASSERT_EQUAL(m->excl_ns, 55);
	CU_ASSERT_EQUAL(l->raw_ns, 40);
	CU_ASSERT_EQUAL(l->local_ns, 25);
	CU_ASSERT_EQUAL(l->time_ns, 25);
	at(0, 0, 0);
}

/* Recursion through two call sites (two records of one site): the inner record's
 * activation is inside the outer one's, so only the outer adds inclusive time. */
static void test_recursion_across_call_sites(void)
{
	const pvmmon_log_proc *outer, *inner;

	setup();
	hooks__proc_enter(&s_main, 0, 0);
	hooks__proc_enter(&s_fact, 5, 10);
	CU_ASSERT(hooks__proc_active(&s_fact));
	hooks__proc_enter(&s_fact, 7, 20);
	hooks__proc_exit(&s_fact, 30);
	/* The outer activation is still open. */
	CU_ASSERT(hooks__proc_active(&s_fact));
	hooks__proc_exit(&s_fact, 50);
	CU_ASSERT(!hooks__proc_active(&s_fact));
	hooks__proc_exit(&s_main, 100);
	outer = find_proc("fact", "main");
	inner = find_proc("fact", "fact");
	CU_ASSERT_PTR_NOT_NULL_FATAL(outer);
	CU_ASSERT_PTR_NOT_NULL_FATAL(inner);
	CU_ASSERT_EQUAL(outer->incl_ns, 40);
	CU_ASSERT_EQUAL(outer->excl_ns, 30);
	CU_ASSERT_EQUAL(inner->count, 1);
	CU_ASSERT_EQUAL(inner->incl_ns, 0);
	CU_ASSERT_EQUAL(inner->excl_ns, 10);
	/* A later call is outermost again: its time counts. */
	hooks__proc_enter(&s_fact, 0, 200);
	hooks__proc_exit(&s_fact, 230);
	CU_ASSERT_EQUAL(find_proc("fact", NULL)->incl_ns, 30);
}

/* Which procedures are open follows the stack through an unwind (longjmp) and a reset. */
static void test_active_after_unwind_and_reset(void)
{
	setup();
	hooks__proc_enter(&s_main, 0, 0);
	hooks__proc_enter(&s_solve, 0, 10);
	hooks__proc_enter(&s_fact, 0, 20);
	hooks__proc_exit(&s_main, 100); /* solve and fact left by longjmp */
	CU_ASSERT(!hooks__proc_active(&s_main));
	CU_ASSERT(!hooks__proc_active(&s_solve));
	CU_ASSERT(!hooks__proc_active(&s_fact));
	/* An exit without its entry ends nothing. */
	CU_ASSERT_EQUAL(hooks__proc_exit(&s_solve, 110), 0);
	CU_ASSERT_EQUAL(find_proc("solve", "main")->count, 0);
	hooks__proc_enter(&s_main, 0, 200);
	CU_ASSERT(hooks__proc_active(&s_main));
	setup();
	CU_ASSERT(!hooks__proc_active(&s_main));
	/* After the reset main is a root again, outermost, and its time counts. */
	hooks__proc_enter(&s_main, 0, 300);
	hooks__proc_exit(&s_main, 310);
	CU_ASSERT_EQUAL(find_proc("main", NULL)->incl_ns, 10);
}

/* An exit flags the counts throttling looks at (HOOKS_THROTTLE_MIN and each power of
 * two after), and only those; the first entry flags the record it made. */
static void test_exit_flags_throttle_counts(void)
{
	static pvmmon_probe_site s_loop2 = PVMMON_PROBE_SITE_INIT("for@9", PVMMON_PROBE_LOOP);
	int flagged = 0, want = 0, r;

	setup();
	CU_ASSERT_EQUAL(hooks__proc_enter(&s_solve, 0, 0), HOOKS_REC_MADE);
	CU_ASSERT_EQUAL(hooks__proc_exit(&s_solve, 1), 0);
	for (uint64_t n = 2; n <= 4096; n++) {
		CU_ASSERT_EQUAL(hooks__proc_enter(&s_solve, 0, 2 * (int64_t)n), 0);
		r = hooks__proc_exit(&s_solve, 2 * (int64_t)n + 1);
		CU_ASSERT_EQUAL(r, n >= HOOKS_THROTTLE_MIN && !(n & (n - 1)) ? HOOKS_REC_CHECK : 0);
		flagged += r != 0;
	}
	for (uint64_t n = HOOKS_THROTTLE_MIN; n <= 4096; n *= 2)
		want++;
	CU_ASSERT_EQUAL(flagged, want);
	CU_ASSERT_EQUAL(find_proc("solve", NULL)->count, 4096);
	for (uint64_t n = 1; n <= HOOKS_THROTTLE_MIN; n++) {
		CU_ASSERT_EQUAL(hooks__loop_enter(&s_loop2, 10000 + 2 * (int64_t)n),
		                n == 1 ? HOOKS_REC_MADE : 0);
		CU_ASSERT_EQUAL(hooks__loop_exit(&s_loop2, 10001 + 2 * (int64_t)n),
		                n == HOOKS_THROTTLE_MIN ? HOOKS_REC_CHECK : 0);
	}
	s_loop2.slot = -1;
}

/* A procedure called from many places (SQLite's moveToRoot, issue 41): every call finds
 * its call site's record through the records' index, also after calibration dropped
 * its own records (the index is rebuilt), and no record is made twice. */
static void test_many_callers_one_record_each(void)
{
	enum { NC = 300 };
	static pvmmon_probe_site callers[NC], s_leaf = PVMMON_PROBE_SITE_INIT("leaf", PVMMON_PROBE_PROC);
	static pvmmon_probe_site s_cal = PVMMON_PROBE_SITE_INIT("cal", PVMMON_PROBE_PROC);
	pvmmon_probe_site *cal[] = {&s_cal};
	pvmmon_log_task *t;
	int64_t v = 0;

	setup();
	for (int i = 0; i < NC; i++)
		callers[i] = (pvmmon_probe_site)PVMMON_PROBE_SITE_INIT("caller", PVMMON_PROBE_PROC);
	hooks__proc_enter(&s_main, 0, v++);
	for (int round = 0; round < 3; round++) {
		if (round == 1) {
			/* Calibration's records, made and dropped between two rounds. */
			hooks__records_calibration_begin();
			hooks__proc_enter(&s_cal, 7, v++);
			hooks__proc_exit(&s_cal, v++);
			hooks__records_calibration_end(cal, 1);
		}
		/* Each caller calls leaf from two lines: leaf's last record misses every time. */
		for (int i = 0; i < NC; i++) {
			hooks__proc_enter(&callers[i], 5, v++);
			for (int line = 10; line <= 11; line++) {
				hooks__proc_enter(&s_leaf, line, v);
				v += line; /* 10 ns at line 10, 11 at line 11 */
				hooks__proc_exit(&s_leaf, v++);
			}
			hooks__proc_exit(&callers[i], v++);
		}
	}
	hooks__proc_exit(&s_main, v++);
	t = hooks__records_task();
	/* main, the callers, leaf from each caller at each line. */
	CU_ASSERT_EQUAL_FATAL(t->nprocs, 1 + NC + 2 * NC);
	for (size_t i = 0; i < t->nprocs; i++) {
		const pvmmon_log_proc *p = &t->procs[i];

		if (!strcmp(p->name, "leaf")) {
			CU_ASSERT_EQUAL(p->count, 3);
			CU_ASSERT_EQUAL(p->incl_ns, 3 * p->call_line);
		} else if (!strcmp(p->name, "caller")) {
			CU_ASSERT_EQUAL(p->count, 3);
		}
	}
	s_leaf.slot = s_cal.slot = -1;
}

CU_TestInfo test_records_tests[] = {
    {"a statement record per call site", test_statement_per_site},
    {"a com record per partner", test_com_per_partner},
    {"proc inclusive and exclusive time", test_proc_inclusive_exclusive},
    {"recursion counts the outermost time", test_recursion_counts_outermost_time},
    {"a proc record per call site", test_proc_record_per_call_site},
    {"a missing exit probe unwinds", test_missing_exit_unwinds},
    {"loop records", test_loops},
    {"three clocks, per-child correction", test_three_clocks_per_child},
    {"recursion across call sites", test_recursion_across_call_sites},
    {"open procedures after an unwind and a reset", test_active_after_unwind_and_reset},
    {"exits flag the counts throttling checks", test_exit_flags_throttle_counts},
    {"many callers, one record each", test_many_callers_one_record_each},
    CU_TEST_INFO_NULL,
};
