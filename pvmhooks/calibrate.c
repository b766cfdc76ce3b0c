/* What monitoring costs in this task (pvmhooks/dyninst.h): the calibration of probes,
 * wrappers and piggybacks at registration, the cost record and the budget. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <pvm3.h>

#include "../common/clock.h"
#include "calsites.h"
#include "channel.h"
#include "critpath.h"
#include "dyninst.h"
#include "hooks.h"
#include "probes.h"
#include "ptrmap.h"
#include "records.h"
#include "sched.h"
#include "trace.h"

/* The run's cost budget as a fraction (0: none). */
static double budget;

/* The shortest interval between two flushes that the budget asks for: the monitor
 * measures rates over at least this (monitor/cost.c, MIN_INTERVAL_NS). */
#define BUDGET_FLUSH_NS 10000000LL

/* The observed monitoring time at the last flush, with the time monitoring spends
 * outside the virtual clock's charges (the sampler's handler: extra_cost), and the
 * time spent flushing by then. */
static int64_t own_at_flush, flushing_at_flush;
static int64_t (*extra_cost)(void);

void hooks__dyn_extra_cost(int64_t (*cost)(void)) { extra_cost = cost; }

static int64_t own_now(void)
{
	return vclock__own(hooks__clock()) + (extra_cost ? extra_cost() : 0);
}

/* The charge a probe got from the calibration at registration, which re-checks scale. */
static int64_t charge0;

/* Calibrated costs and observed totals. */
static pvmmon_log_cost cal;

void hooks__dyn_set_budget(double b)
{
	budget = b;
	hooks__probe_throttle_cap(b);
}

/* An early flush is due when the monitoring since the last one, flushes left out,
 * was over the budget: counting them, a flush of a program's thousands of records
 * (1 to 3 ms) was over 5% of the next 10 ms by itself, and a task under a budget of 5%
 * flushed every 10 ms for the rest of its run (SQLite: 30% observed). */
int hooks__dyn_flush_due(int64_t now, int64_t last_flush)
{
	return budget > 0 && now - last_flush >= BUDGET_FLUSH_NS &&
	       (double)((own_now() - own_at_flush) - (sched__flush_ns() - flushing_at_flush)) >
	           budget * (double)(now - last_flush);
}

void hooks__dyn_wrapped(void) { cal.wrapped_calls++; }

/* Calibration: each measurement is repeated CAL_REPS times and the median kept; one
 * repetition runs at most CAL_PAIRS pairs or CAL_REP_NS, so that a host whose probes
 * are slow (or a test's probe delay) does not hold the task up. */
#define CAL_REPS 5
#define CAL_PAIRS 1000
#define CAL_REP_NS 2000000LL
#define CAL_PB_REPS 9
#define CAL_TAG 0x7e5a00f0
/* A sanitized library's own copy of the scopes carries the sanitizer's checks (the
 * scope variables' addresses are taken, so they get redzones), which a program built
 * without it does not pay: there the loop calibration is kept. */
#if defined(__SANITIZE_ADDRESS__)
#define CAL_PLACE 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CAL_PLACE 0
#endif
#endif
#ifndef CAL_PLACE
#define CAL_PLACE 1
#endif
/* Calls per repetition and repetitions of the in-place measurements (about 1 ms and,
 * under a budget, 25 ms more at the first re-check: measure_off). */
#define CAL_PLACE_ON_CALLS 500
#define CAL_PLACE_ON_REPS 8
#define CAL_PLACE_OFF_CALLS 10000
#define CAL_PLACE_OFF_REPS 32

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

static int64_t median(int64_t *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_i64);
	return v[n / 2];
}

/* The probe sites calibration runs on; their records are dropped after it. */
static pvmmon_probe_site cal_proc = {
    "(calibration)", __FILE__, 1, PVMMON_PROBE_PROC, 1, -1, 1, 0, 0};
static pvmmon_probe_site cal_loop = {
    "(calibration)", __FILE__, 1, PVMMON_PROBE_LOOP, 1, -1, 1, 0, 0};

/* The cost of one entry and exit pair of site's kind, through the public probes.
 * Slow probes (a test's probe delay) end it after one repetition past CAL_TOTAL_NS. */
#define CAL_TOTAL_NS 10000000LL
static int64_t pair_cost(pvmmon_probe_site *site)
{
	int64_t per[CAL_REPS], start = pvmmon_clock_now();
	int r;

	for (r = 0; r < CAL_REPS && (r == 0 || pvmmon_clock_now() - start < CAL_TOTAL_NS); r++) {
		int64_t t0 = pvmmon_clock_now(), t;
		int n = 0;

		/* After the first 16 pairs the clock is read every 16 pairs only: its own
		 * cost is a large part of a fast pair's. */
		do {
			if (site->kind == PVMMON_PROBE_PROC) {
				pvmmon_probe_proc_enter(site);
				pvmmon_probe_proc_exit(site);
			} else {
				pvmmon_probe_loop_enter(site);
				pvmmon_probe_loop_exit(site);
			}
			n++;
			t = (n > 16 && (n & 15)) ? t0 : pvmmon_clock_now();
		} while (n < CAL_PAIRS && ((n > 16 && (n & 15)) || t - t0 < CAL_REP_NS));
		t = pvmmon_clock_now();
		per[r] = (t - t0) / n;
	}
	return median(per, r);
}

#define CAL_PLACE_REPS_MAX 32
/* A half (plain or probed) of a repetition that took over this much (per mille) more
 * than the least of its kind was disturbed; measuring again at most this many times. */
#define CAL_PLACE_SLACK_PM 100
#define CAL_PLACE_TRIES 3
static volatile unsigned place_sink;

/* One in-place measurement (see place_cost) into per[] (ps per call, a pair's mean
 * each), leaving out the pairs with a disturbed half when reject; the pairs kept. */
static int place_pairs(int sites_on, long n, int reps, int reject, int64_t *per)
{
	int64_t plain[CAL_PLACE_REPS_MAX], probed[CAL_PLACE_REPS_MAX], lp = 0, lq = 0;
	unsigned sink = 0;
	int r, i, kept = 0;

	for (i = 0; i < CALSITES_N; i++)
		calsites__site(i)->enabled = sites_on;
	/* A first pass makes the records and warms the code; it is not counted. */
	sink += calsites__plain(1, 64) + calsites__probed(1, 64);
	for (r = 0; r < reps && r < CAL_PLACE_REPS_MAX; r++) {
		int64_t t0 = pvmmon_clock_now(), t1, t2;

		/* The order alternates, so that a drift of the machine's speed during the
		 * measurement does not favour either. */
		sink +=
		    (r & 1) ? calsites__probed((unsigned)r, n) : calsites__plain((unsigned)r, n);
		t1 = pvmmon_clock_now();
		sink +=
		    (r & 1) ? calsites__plain((unsigned)r, n) : calsites__probed((unsigned)r, n);
		t2 = pvmmon_clock_now();
		plain[r] = (r & 1) ? t2 - t1 : t1 - t0;
		probed[r] = (r & 1) ? t1 - t0 : t2 - t1;
		if (t2 - t0 > CAL_REP_NS) {
			r++;
			break;
		}
	}
	place_sink = sink;
	for (i = 0; i < r; i++) {
		if (!i || plain[i] < lp)
			lp = plain[i];
		if (!i || probed[i] < lq)
			lq = probed[i];
	}
	/* Whichever runs first in a repetition pays for warming the caches and branch
	 * history: each repetition's difference leans one way, the next one's the other.
	 * The pairs' means cancel that. An odd last repetition stands alone. */
	for (i = 0; i < r; i += 2) {
		int j = i + 1 < r ? i + 1 : i, k, bad = 0;

		for (k = i; k <= j; k++)
			bad |= plain[k] * 1000 > lp * (1000 + CAL_PLACE_SLACK_PM) ||
			       probed[k] * 1000 > lq * (1000 + CAL_PLACE_SLACK_PM);
		if (reject && bad)
			continue;
		per[kept++] = ((probed[i] - plain[i]) + (probed[j] - plain[j])) * 500 / n;
	}
	return kept;
}

/*
 * The cost of an instrumented call in place, in picoseconds per call (0 when none is
 * found): the caller's and callee's code of calsites.c timed with its probes on or
 * off (sites_on) against the same code plain, over reps repetitions of n calls
 * (how the differences make one cost is said below).
 * Probes cost more among a program's own code than in a loop of nothing but probes
 * (the caller's call-line store, its open procedure's bookkeeping, the scopes' saved
 * registers), and a switched-off site still costs its tests and frame: only code like
 * the program's shows either. A repetition that takes over CAL_REP_NS ends the
 * measurement (probes made slow by a test delay).
 * A disturbance (another process taking the CPU, an interrupt; the tasks of a run
 * calibrate at once, on shared CPUs) lengthens the half it lands in: with the probes
 * on, a half more than 10% over the least of its kind marks its pair disturbed, and
 * the pair is left out; a measurement with fewer than 2 pairs left is taken again, up
 * to 3 times, and then gives 0 (the loop calibration stays). The few disturbances
 * that pass land more often in the longer, instrumented half and make a pair too
 * dear, so the cost is the kept pairs' lower quartile; with the probes off both halves
 * are as long, nothing is left out, and the median it is.
 */
static int64_t place_cost(int sites_on, long n, int reps)
{
	int64_t per[CAL_PLACE_REPS_MAX];
	int r = 0, tries;

	for (tries = 0; tries < (sites_on ? CAL_PLACE_TRIES : 1) && r < 2; tries++)
		r = place_pairs(sites_on, n, reps, sites_on, per);
	if (r < 1)
		return 0;
	qsort(per, (size_t)r, sizeof(*per), cmp_i64);
	r = (r - 1) / (sites_on ? 4 : 2);
	return per[r] > 0 ? per[r] : 0;
}

/* A piggyback's send and receive, timed on messages to this task itself in the
 * private context (encoding, packing, the pvmd round and decoding, as for a real
 * one). All are sent first, then all received: the first receive waits for pvmd to
 * route them back, the others find theirs queued, so the registration waits for one
 * round through pvmd, not one per repetition (on a busy host each took a millisecond
 * or more, and the receive's time was mostly that wait, which the median now leaves
 * out as a real piggyback's queued receive does). */
static void pb_costs(void)
{
	int64_t snd[CAL_PB_REPS], rcv[CAL_PB_REPS];
	uint8_t enc[WIRE_PB_HEADER + 16], got[WIRE_PB_HEADER + 16];
	int32_t dest = hooks__mytid();
	uint32_t seq = 0;
	wire_piggyback pb;
	int r, n = 0, ns = 0, oldctx, oldrbuf;

	memset(&pb, 0, sizeof(pb));
	pb.sender_tid = hooks__mytid();
	pb.token = hooks__token();
	pb.ndests = 1;
	pb.dest_tid = &dest;
	pb.seq = &seq;
	oldctx = pvm_setcontext(channel__ctx());
	for (r = 0; r < CAL_PB_REPS; r++) {
		int sbuf, oldbuf;
		int64_t t0 = pvmmon_clock_now();
		size_t len;

		pb.vt_send = t0;
		len = wire__piggyback_encode(&pb, enc);
		sbuf = hooks__pvm.mkbuf(PvmDataRaw);
		oldbuf = pvm_setsbuf(sbuf);
		hooks__pvm.pkbyte((char *)enc, (int)len, 1);
		if (hooks__pvm.send(hooks__mytid(), CAL_TAG) >= 0)
			snd[ns++] = pvmmon_clock_now() - t0;
		pvm_setsbuf(oldbuf);
		hooks__pvm.freebuf(sbuf);
	}
	oldrbuf = pvm_setrbuf(0);
	for (r = 0; r < ns; r++) {
		int rbuf, bytes = 0, tag = 0, src = 0;
		int64_t t1 = pvmmon_clock_now();
		wire_piggyback in;

		rbuf = hooks__pvm.recv(hooks__mytid(), CAL_TAG);
		if (rbuf > 0 && pvm_bufinfo(rbuf, &bytes, &tag, &src) >= 0 && bytes > 0 &&
		    (size_t)bytes <= sizeof(got)) {
			hooks__pvm.upkbyte((char *)got, bytes, 1);
			wire__piggyback_decode(&in, got, (size_t)bytes, hooks__mytid());
		}
		if (rbuf > 0)
			hooks__pvm.freebuf(rbuf);
		if (rbuf <= 0)
			break;
		rcv[n++] = pvmmon_clock_now() - t1;
	}
	pvm_setrbuf(oldrbuf);
	pvm_setcontext(oldctx);
	if (ns > 0)
		cal.pb_send_ns = median(snd, ns);
	if (n > 0)
		cal.pb_recv_ns = median(rcv, n);
}

/* A wrapper's own bookkeeping without its piggyback: four clock reads and a lookup
 * of the statement's record by call site, as hooks__begin and hooks__end do them. */
static int64_t wrapper_cost(void)
{
	int64_t per[CAL_REPS];
	ptrmap m = {0};
	int r, i;

	if (!ptrmap__put(&m, (const void *)pair_cost, 1))
		return 0;
	for (r = 0; r < CAL_REPS; r++) {
		int64_t t0 = pvmmon_clock_now(), sink = 0;

		for (i = 0; i < CAL_PAIRS; i++) {
			size_t *v;

			sink += pvmmon_clock_now() - pvmmon_clock_now();
			sink += pvmmon_clock_now() - pvmmon_clock_now();
			v = ptrmap__find(&m, (const void *)pair_cost);
			sink += v ? (int64_t)*v : 0;
		}
		per[r] = (pvmmon_clock_now() - t0 + (sink & 1)) / CAL_PAIRS;
	}
	ptrmap__free(&m);
	return median(per, CAL_REPS);
}

/* Starts (paused 1) or ends a calibration: its probes are no part of the program (no
 * critical path, no trace events, no throttling, no stamps), and the records they make
 * are dropped at its end (hooks__records_calibration_end, by the caller). */
static void cal_pause(vclock *c, int paused)
{
	hooks__cp_pause(paused);
	hooks__trace_pause(paused);
	hooks__probe_calibration_pause(paused);
	vclock__pause_stamps(c, paused);
	if (paused)
		hooks__records_calibration_begin();
}

/*
 * Re-checks during the run: every recheck_ns of the task's real time (PVMMON_RECHECK_MS,
 * default 1000; 0: never), at the first scheduler run after it (a call's end or a probe
 * tick, never inside a wait), the loop calibration is taken again (a fraction of a
 * millisecond, charged as monitoring time). Disturbance only ever lengthens a
 * measurement, so the least pair cost found is the best estimate: one under
 * CAL_RECHECK_LOW_PM per mille of the calibration at registration says that the
 * machine disturbed that one as a whole (every half of it slow alike, which its own
 * check cannot see), and the probe charge is scaled down by their ratio from then on.
 * The spread of all the calibrations widens the virtual time's uncertainty
 * (hooks__records_probe_spread). A test's probe delay (a fixed busy wait) leaves
 * nothing to re-check.
 */
#define CAL_RECHECK_DEFAULT_MS 1000
#define CAL_RECHECK_LOW_PM 900
static int64_t recheck_ns = -1; /* -1: not read yet */
static int64_t last_recheck;

int64_t hooks__dyn_recheck_charge(int64_t charge, int64_t start_pair, int64_t least_pair)
{
	if (charge <= 0 || start_pair <= 0 || least_pair <= 0 ||
	    least_pair * 1000 >= start_pair * CAL_RECHECK_LOW_PM)
		return charge;
	return (charge * least_pair + start_pair / 2) / start_pair;
}

/*
 * What a switched-off site costs (site_off_ps) matters to the budget only (a budget
 * cannot switch it off): the monitor's estimate of the switched-off sites' cost. It is
 * a nanosecond or so of a small procedure's call, so it takes many calls to measure:
 * some 25 ms. Measured at registration, that was 5% of a half-second run by itself
 * (SQLite's workload under --budget=5%), so it is measured at the first re-check, a
 * second into the run (PVMMON_RECHECK_MS), once; until then the switched-off sites
 * count nothing, as without a budget. A run shorter than that, or without re-checks,
 * never measures it (0: not measured).
 */
static int off_measured;

static void measure_off(void)
{
	if (!CAL_PLACE || budget <= 0 || off_measured || hooks__probe_test_delay())
		return;
	off_measured = 1;
	cal.site_off_ps = place_cost(0, CAL_PLACE_OFF_CALLS, CAL_PLACE_OFF_REPS);
}

static void recheck(int64_t now)
{
	vclock *c = hooks__clock();
	int64_t i0 = vclock__intrusion(c), l0 = vclock__own(c), pair;
	int guard = hooks__guard;
	pvmmon_probe_site *const used[] = {&cal_loop, calsites__site(0), calsites__site(1),
	                                   calsites__site(2), calsites__site(3)};

	last_recheck = now;
	/* The probes must run (the guard skips them) and must not run the scheduler
	 * from inside it. */
	hooks__guard = 0;
	hooks__probe_tick_at(INT64_MAX);
	cal_pause(c, 1);
	pair = pair_cost(&cal_loop);
	measure_off();
	hooks__records_calibration_end(used, sizeof(used) / sizeof(used[0]));
	cal_pause(c, 0);
	hooks__probe_tick_at(pvmmon_clock_now());
	hooks__guard = guard;
	if (pair > 0) {
		if (!cal.rechecks || pair < cal.recheck_min_ns)
			cal.recheck_min_ns = pair;
		if (!cal.rechecks || pair > cal.recheck_max_ns)
			cal.recheck_max_ns = pair;
		cal.rechecks++;
		hooks__probe_cost_set(
		    hooks__dyn_recheck_charge(charge0, cal.loop_pair_ns, cal.recheck_min_ns));
	}
	/* Its probes' charges are taken back; its time is charged by the scheduler's run
	 * it is part of (sched__run charges all its periodic work). Charged here as well,
	 * it was charged twice: the next stamp gave the excess back as a clamp, and every
	 * re-check widened the uncertainty by its own length. */
	vclock__set_charges(c, i0, l0, 0);
}

void hooks__dyn_poll(int64_t now)
{
	if (recheck_ns < 0) {
		const char *e = getenv("PVMMON_RECHECK_MS");
		char *end;
		long v = e ? strtol(e, &end, 10) : CAL_RECHECK_DEFAULT_MS;

		recheck_ns =
		    (e && (end == e || *end || v < 0) ? CAL_RECHECK_DEFAULT_MS : v) * 1000000LL;
	}
	if (!cal.known || !recheck_ns || now - last_recheck < recheck_ns ||
	    hooks__probe_test_delay() || hooks__state() != HOOKS_ACTIVE)
		return;
	recheck(now);
}

/* The host's calibration from the welcome (tid 0: none): see take_host_calibration. */
static wire_calib host_cal;

void hooks__dyn_host_calibration(const wire_calib *k) { host_cal = *k; }

/* The probe clock as a calibration names it (wire_calib.clock). */
static uint8_t clock_code(void) { return strcmp(pvmmon__clock_name(), "tsc") == 0 ? 2 : 1; }

/* PVMMON_CALIBRATION=own: every task measures its own calibration. */
static int own_wanted(void)
{
	const char *e = getenv("PVMMON_CALIBRATION");

	return e && strcmp(e, "own") == 0;
}

/* What a probe is charged from the calibration: half a pair, procedures' and loops'
 * alike, or a quarter of the instrumented call in place where that was measured. */
static void set_charge(void)
{
	hooks__probe_cost_set((cal.proc_pair_ns + cal.loop_pair_ns) / 4);
	if (cal.site_on_ps > 0)
		hooks__probe_cost_set((cal.site_on_ps + 2000) / 4000);
}

/* Takes the calibration another task of the host measured (monitor/calib.c says why):
 * 1 when it did. Not when it was measured on another clock, nor under a test's probe
 * delay (this task's probes cost what its delay makes them), nor when asked not to. */
static int take_host_calibration(void)
{
	if (!host_cal.tid || host_cal.tid == hooks__mytid() || host_cal.clock != clock_code() ||
	    hooks__probe_test_delay() || own_wanted() || host_cal.proc_pair_ns <= 0 ||
	    host_cal.loop_pair_ns <= 0)
		return 0;
	cal.proc_pair_ns = host_cal.proc_pair_ns;
	cal.loop_pair_ns = host_cal.loop_pair_ns;
	cal.wrapper_ns = host_cal.wrapper_ns;
	cal.pb_send_ns = host_cal.pb_send_ns;
	cal.pb_recv_ns = host_cal.pb_recv_ns;
	cal.site_on_ps = host_cal.site_on_ps;
	cal.site_off_ps = host_cal.site_off_ps;
	cal.calibrated_by = host_cal.tid;
	set_charge();
	return 1;
}

/* Offers this task's own calibration to the host's later tasks (not one a test's probe
 * delay distorts). */
static void share_calibration(void)
{
	wire_calib k = {hooks__mytid(),   clock_code(),   cal.proc_pair_ns,
	                cal.loop_pair_ns, cal.wrapper_ns, cal.pb_send_ns,
	                cal.pb_recv_ns,   cal.site_on_ps, cal.site_off_ps};
	wire_buf b;

	if (hooks__probe_test_delay() || k.proc_pair_ns <= 0 || k.loop_pair_ns <= 0)
		return;
	wire__buf_init(&b);
	wire__calib_encode(&b, &k);
	if (!b.failed)
		channel__send(WIRE_TAG_CALIB, b.data, b.len);
	wire__buf_free(&b);
}

void hooks__dyn_calibrate(void)
{
	vclock *c = hooks__clock();
	int64_t t0, i0, l0;

	if (hooks__state() != HOOKS_ACTIVE || cal.known)
		return;
	/* The whole calibration is monitoring time: charged as one, below, in place of
	 * what its probes charge themselves (which misses part of their cost: a
	 * procedure around the calibration would keep it as its own time). */
	i0 = vclock__intrusion(c);
	l0 = vclock__own(c);
	t0 = pvmmon_clock_now();
	if (take_host_calibration())
		goto out;
	cal_pause(c, 1);
	cal.proc_pair_ns = pair_cost(&cal_proc);
	cal.loop_pair_ns = pair_cost(&cal_loop);
	/* The pairs' charge first: the in-place measure's probes are charged too. */
	set_charge();
	/* In place, as probes really run; the probes are charged from it (the loop's
	 * measurement stays for the pair costs' split). A test's probe delay would make
	 * the in-place code take milliseconds: the loop's measurement then stays. */
	if (CAL_PLACE && !hooks__probe_test_delay()) {
		cal.site_on_ps = place_cost(1, CAL_PLACE_ON_CALLS, CAL_PLACE_ON_REPS);
		set_charge();
		/* What a switched-off site costs is measured later, under a budget only
		 * (measure_off). */
	}
	cal.wrapper_ns = wrapper_cost();
	{
		pvmmon_probe_site *const used[] = {&cal_proc,         &cal_loop,
		                                   calsites__site(0), calsites__site(1),
		                                   calsites__site(2), calsites__site(3)};

		hooks__records_calibration_end(used, sizeof(used) / sizeof(used[0]));
	}
	pb_costs();
	/* Its probes stamped nothing: they were calibration, not the program. */
	cal_pause(c, 0);
	share_calibration();
out:
	cal.known = 1;
	charge0 = hooks__probe_cost();
	last_recheck = pvmmon_clock_now();
	t0 = pvmmon_clock_now() - t0;
	vclock__set_charges(c, i0 + t0, l0 + t0, 0);
}

int hooks__dyn_start(void)
{
	/* Calibration charges its own time. */
	hooks__dyn_calibrate();
	/* Under a budget the monitor gets the task's cost at once, as the start of the
	 * interval its first rates are measured over. */
	return budget > 0;
}

int64_t hooks__dyn_uncertainty(void)
{
	return vclock__uncertainty(hooks__clock(), hooks__probe_charged(),
	                           hooks__records_probe_spread(&cal));
}

void hooks__dyn_cost(pvmmon_log_cost *cost)
{
	*cost = cal;
	/* The sampler's time goes with its samples (cost-ns), not in observed. */
	cost->observed_ns = vclock__own(hooks__clock());
	own_at_flush = own_now();
	flushing_at_flush = sched__flush_ns();
	cost->predicted_ns = 0;
}
