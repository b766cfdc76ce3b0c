/* The probes (include/pvmmon/probe.h) outside their common case, which records.c runs:
 * the gate, the rare charges, the calibrated cost, the scheduler's tick, throttling. */
#include <stdlib.h>
#include <string.h>

#include "critpath.h"
#include "hooks.h"
#include "probes.h"
#include "records.h"
#include "sched.h"

hooks_probe_state hooks__probe = {.cost = -1, .next_tick = INT64_MAX, .slow = 1};

/* Dynamic instrumentation's part (hooks__probe_extend). */
static hooks_probe_ext ext;

void hooks__probe_extend(const hooks_probe_ext *e) { ext = *e; }

/* A site's first entry: dynamic instrumentation learns it (hooks__probe_extend). */
static int first_entry(pvmmon_probe_site *site)
{
	if (ext.first)
		return ext.first(site);
	site->seen = 1;
	return site->enabled;
}

/* PVMMON_TEST_PROBE_DELAY for this task (tests only). */
static int64_t test_delay_ns;
/* Real time at which the next probe runs the scheduler (INT64_MAX until the task is
 * registered; the scheduler sets it). */
static int64_t tick_at = INT64_MAX;

void hooks__probe_refresh(void)
{
	hooks__probe.slow =
	    hooks__state() != HOOKS_ACTIVE || hooks__probe.cost < 0 || test_delay_ns != 0;
	/* With the critical path on, every probe has its part to do there. */
	hooks__probe.next_tick = hooks__cp_selected() ? INT64_MIN : tick_at;
}

/* The task tells its state's changes through the core (hooks__set_state), which calls
 * no feature: the probes give it their refresh when the library is loaded. */
__attribute__((constructor)) static void watch_state(void) { hooks__watch_probes(hooks__probe_refresh); }

void hooks__probe_tick_at(int64_t t)
{
	tick_at = t;
	hooks__probe_refresh();
}

void hooks__probe_tick(int64_t t)
{
	/* The tick charges its own time from now: the probe's is charged. */
	if (t >= tick_at)
		tick_at = sched__tick(pvmmon_clock_now());
	hooks__probe_refresh();
}

int64_t hooks__probe_test_delay(void) { return test_delay_ns; }

/*
 * What one probe costs, charged to intrusion. Calibration at registration measures a
 * whole entry and exit pair, call and return included (hooks__probe_cost_set); until
 * then, and without it, the first PROBE_SAMPLES probes measure themselves with a second
 * clock read (which misses their call and first clock read) and the median of those is
 * charged after. Either way a probe reads the clock once (a clock read is a large part
 * of its cost).
 */
#define PROBE_SAMPLES 255
static int64_t samples[PROBE_SAMPLES];
static int nsamples;

uint64_t hooks__probe_charged(void) { return hooks__probe.charged; }

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

static __attribute__((noinline)) void charge_sample(vclock *c, int64_t t0)
{
	int64_t d;

	d = pvmmon_clock_now() - t0;
	vclock__intrude(c, d);
	samples[nsamples++] = d;
	if (nsamples == PROBE_SAMPLES) {
		qsort(samples, PROBE_SAMPLES, sizeof(*samples), cmp_i64);
		hooks__probe.cost = samples[PROBE_SAMPLES / 2];
		hooks__probe_refresh();
	}
}

static inline void charge(vclock *c, int64_t t0)
{
	if (__builtin_expect(hooks__probe.cost >= 0, 1)) {
		hooks__probe.charged++;
		vclock__intrude(c, hooks__probe.cost);
		return;
	}
	charge_sample(c, t0);
}

void hooks__probe_cost_set(int64_t ns)
{
	if (ns > 0) {
		hooks__probe.cost = ns;
		hooks__probe_refresh();
	}
}

int64_t hooks__probe_cost(void) { return hooks__probe.cost; }

/* Charges what a probe took from t0, measured: for the rare probes that do more than
 * usual (a site's first entry, a new record). */
static void charge_measured(int64_t t0)
{
	vclock__intrude(hooks__clock(), pvmmon_clock_now() - t0);
}

/* Busy-waits the test delay, from t0 (the probe's start). */
static void test_delay(int64_t t0)
{
	while (pvmmon_clock_now() - t0 < test_delay_ns)
		;
}

void hooks__test_delay_init(void)
{
	const char *d = getenv("PVMMON_TEST_PROBE_DELAY"), *colon, *p, *lid = hooks__lid();
	size_t n;

	test_delay_ns = 0;
	hooks__probe_refresh();
	if (!d || !lid || !(colon = strchr(d, ':')))
		return;
	n = strlen(lid);
	for (p = colon + 1; *p;) {
		size_t len = strcspn(p, ",");

		if (len == n && strncmp(p, lid, n) == 0) {
			test_delay_ns = atol(d) * 1000;
			hooks__probe_refresh();
			return;
		}
		p += len + (p[len] == ',');
	}
}

/* Switches site off for good, with the loops that follow a split procedure's site:
 * its calls then take the plain copy. */
static void switch_off(pvmmon_probe_site *site)
{
	int i;

	site->enabled = 0;
	for (i = 0; site->kind == PVMMON_PROBE_PROC && i < site->group; i++)
		site[1 + i].enabled = 0;
}

/*
 * The rare cases before a probe's work, out of line; 1: go on, 0: the probe is done. A
 * probe runs in a task that is or may become monitored (procedures such as main are
 * entered before the task's first PVM call registers it), outside any wrapper. An
 * entry needs an enabled site (the library sees a site first at its first entry); an
 * exit is taken whenever its entry was, even if the site was switched off between.
 */
static __attribute__((noinline)) int gate(pvmmon_probe_site *site, int entry)
{
	hooks_state_kind state = hooks__state();

	if (state == HOOKS_UNINIT && entry) {
		hooks__probe_enrol();
		state = hooks__state();
	}
	if ((state != HOOKS_ACTIVE && state != HOOKS_UNINIT) || hooks__guard) {
		/* Unmonitored for good: the site's inline test skips the call. */
		if (entry && state == HOOKS_PASSIVE)
			switch_off(site);
		return 0;
	}
	if (entry && !site->enabled)
		return 0;
	if (entry && !site->seen) {
		int64_t t0 = pvmmon_clock_now();
		int known = first_entry(site);

		/* Learning the site is monitoring: its time is charged, measured. */
		charge_measured(t0);
		return known;
	}
	return 1;
}

/* The rare ways of charging a probe: the test delay, a probe that made a record
 * (malloc, strdup: far more than the calibrated probe, so timed), or no calibrated
 * cost yet. */
static __attribute__((noinline)) void charge_rare(vclock *c, int64_t t0, int made)
{
	if (test_delay_ns)
		test_delay(t0);
	if (made)
		charge_measured(t0);
	else
		charge(c, t0);
}

/* The record's work of a probe at real time t, virtual time v and local time l
 * (records.h): returns HOOKS_REC_* flags. */
typedef int (*probe_fn)(pvmmon_probe_site *site, int64_t t, int64_t v, int64_t l);

/*
 * A probe outside the common case, out of line: gate() decides whether it runs; then
 * it reads the clock, stamps and charges as the rare cases need (charge_rare).
 */
static __attribute__((noinline)) int probe_rare(pvmmon_probe_site *site, probe_fn fn, int entry)
{
	int64_t t0, v;
	vclock *c;
	int r;

	if (!gate(site, entry))
		return 0;
	t0 = pvmmon_clock_now();
	c = hooks__clock();
	/* The stamp first: it may clamp L, which the local time must then be read after
	 * (as arguments of one call, their order was the compiler's to choose). */
	v = vclock__stamp(c, t0);
	r = fn(site, t0, v, vclock__local(c, t0));
	if (__builtin_expect((r & HOOKS_REC_MADE) || test_delay_ns || hooks__probe.cost < 0, 0)) {
		charge_rare(c, t0, r & HOOKS_REC_MADE);
	} else {
		hooks__probe.charged++;
		vclock__intrude(c, hooks__probe.cost);
	}
	if (__builtin_expect(t0 >= hooks__probe.next_tick, 0))
		hooks__probe_tick(t0);
	return r;
}

/*
 * Throttling (doc/architecture.md, "Dynamic instrumentation and cost"): a site whose
 * probe pair costs more than this share of its own time a call (virtual, inclusive for
 * a procedure, a whole entry for a loop) is demoted to counting only, once it has run
 * HOOKS_THROTTLE_MIN times (records.h) and at every power of two after (a mean over
 * 1024 calls is steady, and the demotion's own cost, at most 1024 timed pairs a site,
 * stays small). A loop is judged by its entries since the last look: one whose first
 * entries were long and later ones short is demoted when they get short, not once the
 * short ones outweigh the long ones in a mean over its life (records.h says why a
 * procedure is not).
 * PVMMON_THROTTLE gives the percentage (pvmmon run sets it; 0: never); -1: not read.
 * A demoted site is switched off, and its calls are counted where its probes would
 * have run (pvmmon/probe.h: the scope tests and the dispatcher count `off`).
 */
#define THROTTLE_DEFAULT 0.10
static double throttle_share = -1;
static int throttle_paused;

void hooks__probe_calibration_pause(int paused)
{
	static uint64_t charged_before;

	throttle_paused = paused;
	/* The calibration's probes are none of the program's: they would widen every
	 * task's uncertainty alike (tens of thousands of probes, hundreds of
	 * microseconds), a program with no probe at all included. */
	if (paused)
		charged_before = hooks__probe.charged;
	else
		hooks__probe.charged = charged_before;
}

void hooks__probe_throttle_set(double share) { throttle_share = share > 0 ? share : 0; }

/* Under a cost budget below the share, the budget is the share: a site whose probes
 * cost more than the budget of its own time is demoted at once, in the task, where the
 * monitor's switches come a flush or two later (SQLite under --budget=5%: the first
 * 40 ms, before the monitor's switches took hold, cost 13 of the run's 17 ms;
 * observed 5.3 to 8.7% of the run, 5.2 to 5.6% with the cap). */
static double throttle_cap;

void hooks__probe_throttle_cap(double budget) { throttle_cap = budget > 0 ? budget : 0; }

static double throttle_get(void)
{
	if (throttle_share < 0) {
		const char *e = getenv("PVMMON_THROTTLE");
		char *end;
		double v = e ? strtod(e, &end) : THROTTLE_DEFAULT * 100;

		throttle_share = e && (end == e || v < 0) ? THROTTLE_DEFAULT : v / 100;
	}
	return throttle_share;
}

/* After site's exit closed its record: demotes it when its probe pair costs too much
 * of its time a call. A procedure active further up (recursion) waits for the next
 * check, so that its outer activations' times are whole. */
static __attribute__((noinline)) void throttle_check(pvmmon_probe_site *site)
{
	uint64_t total, n;
	int64_t t, pair, at = 0;
	double share;

	if (site->enabled != 1 || hooks__probe.cost <= 0 || throttle_paused || throttle_get() <= 0)
		return;
	if (!hooks__records_last_exit(site, &total, &n, &t) || total < HOOKS_THROTTLE_MIN ||
	    (total & (total - 1)) || n == 0)
		return;
	pair = 2 * hooks__probe.cost;
	share = throttle_cap > 0 && throttle_cap < throttle_share ? throttle_cap : throttle_share;
	if ((double)pair <= share * (double)(t > 0 ? t : 0) / (double)n)
		return;
	if (site->kind == PVMMON_PROBE_PROC && hooks__proc_active(site))
		return;
	if (hooks__start())
		at = pvmmon_clock_now() - hooks__start();
	if (ext.throttle)
		ext.throttle(site);
	else
		site->enabled = 0;
	hooks__records_throttled(site, at > 0 ? at : 0, t > 0 ? t / (int64_t)n : 0, pair);
}

/* After an exit whose record reached a count that throttling looks at (records.h,
 * HOOKS_REC_CHECK): nothing to check without throttling (0, as --no-throttle sets it)
 * or while calibration pauses it. */
static inline void throttle_maybe(pvmmon_probe_site *site, int r)
{
	if (__builtin_expect(r & HOOKS_REC_CHECK, 0) && throttle_share != 0 && !throttle_paused)
		throttle_check(site);
}

void hooks__probe_check(pvmmon_probe_site *site) { throttle_maybe(site, HOOKS_REC_CHECK); }

/* Set by instrumented code just before a call statement; see pvmmon/probe.h. */
int pvmmon_call_line;

static int proc_enter(pvmmon_probe_site *site, int64_t t, int64_t v, int64_t l)
{
	/* The line is consumed so that a procedure entered later from code that sets no
	 * line (an uninstrumented library calling back) does not inherit it. */
	int32_t line = pvmmon_call_line;

	pvmmon_call_line = 0;
	return hooks__proc_enter_at(site, line, t, v, l);
}

int pvmmon_probe_unwatched(void) { return hooks__probe_unwatched(); }

int pvmmon_probe_counting(void) { return throttle_get() > 0; }

/* The procedure probes themselves are in records.c (their common case works on its
 * stack); these are the rest of them. */
void hooks__probe_proc_enter_rare(pvmmon_probe_site *site) { probe_rare(site, proc_enter, 1); }

void hooks__probe_proc_exit_rare(pvmmon_probe_site *site)
{
	throttle_maybe(site, probe_rare(site, hooks__proc_exit_at, 0));
}

void hooks__probe_loop_enter_rare(pvmmon_probe_site *site)
{
	probe_rare(site, hooks__loop_enter_at, 1);
}

void hooks__probe_loop_exit_rare(pvmmon_probe_site *site)
{
	throttle_maybe(site, probe_rare(site, hooks__loop_exit_at, 0));
}

/* The real time of the moment whose virtual time is v, and its local time in *l: the
 * callers below pass the virtual time of a moment the clock has not moved since. */
static int64_t real_local(int64_t v, int64_t *l)
{
	const vclock *c = hooks__clock();

	*l = vclock__local(c, v + vclock__intrusion(c));
	return v + vclock__intrusion(c);
}

int hooks__proc_enter(pvmmon_probe_site *site, int32_t call_line, int64_t v)
{
	int64_t l, t = real_local(v, &l);

	return hooks__proc_enter_at(site, call_line, t, v, l);
}

int hooks__proc_exit(pvmmon_probe_site *site, int64_t v)
{
	int64_t l, t = real_local(v, &l);

	return hooks__proc_exit_at(site, t, v, l);
}

int hooks__loop_enter(pvmmon_probe_site *site, int64_t v)
{
	int64_t l, t = real_local(v, &l);

	return hooks__loop_enter_at(site, t, v, l);
}

int hooks__loop_exit(pvmmon_probe_site *site, int64_t v)
{
	int64_t l, t = real_local(v, &l);

	return hooks__loop_exit_at(site, t, v, l);
}
