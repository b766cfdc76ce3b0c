/* The clock of common/clock.h: the test-only shift and drift, and the choice, calibration
 * and re-fitting of the TSC as a task's clock on CLOCK_MONOTONIC's time base. */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "pvmmon/errors.h"

int64_t pvmmon__clock_offset;
int pvmmon__clock_offset_ready;
double pvmmon__clock_drift;
int64_t pvmmon__clock_epoch;
/* The C library's clock_gettime until libpvmhooks points it at libc's own (in
 * libpvmhooks, before that, the one its objects bind to, as a direct call did). */
int (*pvmmon__clock_real)(clockid_t, struct timespec *) = clock_gettime;
const pvmmon__clock_map *pvmmon__clock_tsc;

void pvmmon__clock_offset_init(void)
{
	const char *s = getenv("PVMMON_TEST_CLOCK_OFFSET_NS");
	const char *d = getenv("PVMMON_TEST_CLOCK_DRIFT_PPB");
	const char *e = getenv("PVMMON_TEST_CLOCK_EPOCH_NS");

	/* A malformed value counts as no shift: this is a test knob, not a setting. */
	pvmmon__clock_offset = s && *s ? strtoll(s, NULL, 10) : 0;
	/* The drift needs the epoch every process of the host shares, or the processes of
	 * one host would not agree on the time. */
	if (d && *d && e && *e) {
		pvmmon__clock_drift = (double)strtoll(d, NULL, 10) * 1e-9;
		pvmmon__clock_epoch = strtoll(e, NULL, 10);
	}
	pvmmon__clock_offset_ready = 1;
}

/* Readings re-fit after this long on one map: the error a map gathers is its scale's
 * error times this (a few ns once the scale is fitted over a second). */
#define REFIT_NS 10000000LL
/* A map more than this far behind CLOCK_MONOTONIC at a re-fit steps forward to it;
 * less is steered away over the next REFIT_NS. One ahead is always steered (a step
 * would go back), by at most MAX_STEER of its rate. */
#define STEP_NS 1000
#define MAX_STEER 0.01
/* The largest difference of rate from CLOCK_MONOTONIC's the TSC may show (0.1%); and
 * what the start asks of the scale's error bound before the TSC is used (0.01%). */
#define MAX_RATE_ERR 1e-3
#define START_ERR 1e-4
/* A pair wider than this (the process was preempted between its reads) is not used
 * to check or fit. */
#define MAX_PAIR_NS 20000
/* How far the CPUs' TSCs may disagree at start, beyond their pairs' widths (ns). */
#define STEP_TOL_NS 2000
#define MAX_CPUS 64

static const char *why_s = "not chosen";
static char why_buf[128];

const char *pvmmon__clock_name(void)
{
	return __atomic_load_n(&pvmmon__clock_tsc, __ATOMIC_ACQUIRE) ? "tsc" : "monotonic";
}

const char *pvmmon__clock_why(void) { return why_s; }

/* Whether word is one of the blank-separated words of the first len bytes of s. */
static int has_word(const char *s, size_t len, const char *word)
{
	size_t n = strlen(word), i = 0;

	while (i < len) {
		size_t j;

		while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n'))
			i++;
		for (j = i; j < len && s[j] != ' ' && s[j] != '\t' && s[j] != '\n'; j++)
			;
		if (j - i == n && strncmp(s + i, word, n) == 0)
			return 1;
		i = j;
	}
	return 0;
}

/* The words of /proc/cpuinfo's first flags line: its start and length (0: none). */
static const char *flags_line(const char *cpuinfo, size_t *len)
{
	const char *p = cpuinfo;

	*len = 0;
	while (p && *p) {
		const char *end = strchr(p, '\n'), *colon;
		size_t l = end ? (size_t)(end - p) : strlen(p);

		if (strncmp(p, "flags", 5) == 0 && (colon = memchr(p, ':', l))) {
			*len = l - (size_t)(colon + 1 - p);
			return colon + 1;
		}
		p = end ? end + 1 : NULL;
	}
	return NULL;
}

int pvmmon__clock_decide(const char *env, const char *current, const char *available,
                         const char *cpuinfo, const char **why)
{
	static const char *const fallback[] = {"hpet", "acpi_pm", "jiffies", "refined-jiffies"};
	const char *f;
	size_t fl = 0, cl = 0, i;
	int invariant, reliable;

	if (env && *env && strcmp(env, "auto") != 0) {
		*why = strcmp(env, "monotonic") == 0 ? "PVMMON_CLOCK=monotonic"
		                                     : "PVMMON_CLOCK is neither auto nor monotonic";
		return 0;
	}
#if !defined(__x86_64__)
	(void)current, (void)available, (void)cpuinfo, (void)fallback, (void)f, (void)fl;
	(void)cl, (void)i, (void)invariant, (void)reliable;
	*why = "not x86-64";
	return 0;
#else
	f = cpuinfo ? flags_line(cpuinfo, &fl) : NULL;
	if (!f || !has_word(f, fl, "tsc")) {
		*why = f ? "the CPU has no TSC" : "no CPU flags to read";
		return 0;
	}
	if (current)
		cl = strcspn(current, " \t\n");
	/* The kernel's own choice: it checked the TSC across CPUs at boot and its watchdog
	 * keeps checking it against another clock (and moves away from it if it drifts). */
	if (cl == 3 && strncmp(current, "tsc", 3) == 0) {
		*why = "the kernel's clocksource is tsc";
		return 1;
	}
	invariant = has_word(f, fl, "constant_tsc") && has_word(f, fl, "nonstop_tsc");
	reliable = has_word(f, fl, "tsc_reliable");
	if (!invariant || !(reliable || has_word(f, fl, "tsc_known_freq"))) {
		*why = "no invariant TSC (constant_tsc, nonstop_tsc and tsc_known_freq or "
		       "tsc_reliable) and the kernel's clocksource is not tsc";
		return 0;
	}
	/* tsc_reliable: the kernel was told (tsc=reliable, or its hypervisor said so) that
	 * the TSC needs no watchdog. Without it, a kernel that chose another clock while the
	 * TSC is invariant did so because it found the TSC unstable: a guest's kvm-clock
	 * ranks below an invariant, stable TSC, and hpet or acpi_pm are what the watchdog
	 * falls back to. */
	if (!reliable && has_word(f, fl, "hypervisor")) {
		*why = current ? "a guest whose kernel does not use the TSC as its clocksource"
		               : "a guest whose clocksource cannot be read";
		return 0;
	}
	for (i = 0; !reliable && current && i < sizeof(fallback) / sizeof(fallback[0]); i++)
		if (cl == strlen(fallback[i]) && strncmp(current, fallback[i], cl) == 0) {
			*why = "the kernel fell back from the TSC to another clocksource";
			return 0;
		}
	if (available && !has_word(available, strlen(available), "tsc")) {
		*why = "the kernel offers no tsc clocksource";
		return 0;
	}
	*why = "the CPU flags say the TSC is invariant";
	return 1;
#endif
}

int pvmmon__clock_fit(double *scale, double *err, const pvmmon__clock_pair *a,
                      const pvmmon__clock_pair *b)
{
	int64_t dns = b->ns - a->ns;
	int64_t dt = (int64_t)(b->tsc - a->tsc);

	if (dns <= 0 || dt <= 0)
		return pvmmon_error_set(PVMMON_EINVAL,
		                        "clock: the second pair is not after the first");
	*scale = (double)dns / (double)dt;
	if (err)
		*err = (double)(a->width + b->width) / 2.0 / (double)dns;
	return 0;
}

int pvmmon__clock_in_step(const pvmmon__clock_pair *a, double scale, const pvmmon__clock_pair *p,
                          int n, int64_t tol)
{
	int i;

	for (i = 0; i < n; i++) {
		double pred = (double)a->ns + scale * (double)(int64_t)(p[i].tsc - a->tsc);
		double dev = __builtin_fabs(pred - (double)p[i].ns);

		if (dev > (double)(a->width + p[i].width) / 2.0 + (double)tol)
			return 0;
	}
	return 1;
}

static uint64_t mult_of(double scale) { return (uint64_t)(scale * 4294967296.0 + 0.5); }

void pvmmon__clock_map_set(pvmmon__clock_map *m, uint64_t tsc, int64_t ns, double scale)
{
	m->tsc = tsc;
	m->ns = ns;
	m->mult = m->mult_plain = mult_of(scale);
	m->limit = (uint64_t)((double)REFIT_NS / scale);
}

int64_t pvmmon__clock_map_ns(const pvmmon__clock_map *m, uint64_t tsc)
{
	uint64_t d = tsc - m->tsc;

	if ((int64_t)d <= 0)
		return m->ns;
	if (d <= m->limit)
		return m->ns + (int64_t)(((unsigned __int128)d * m->mult) >> 32);
	return m->ns + (int64_t)(((unsigned __int128)m->limit * m->mult) >> 32) +
	       (int64_t)(((unsigned __int128)(d - m->limit) * m->mult_plain) >> 32);
}

int pvmmon__clock_next_map(pvmmon__clock_map *out, int64_t *err, const char **why,
                           const pvmmon__clock_map *cur, const pvmmon__clock_pair *first,
                           const pvmmon__clock_pair *prev, const pvmmon__clock_pair *now,
                           double scale0)
{
	int64_t c = pvmmon__clock_map_ns(cur, now->tsc), anchor;
	double s = 0, r = 0, steer;

	*err = c - now->ns;
	if (pvmmon__clock_fit(&s, NULL, first, now) != 0) {
		*why = "the TSC went back against CLOCK_MONOTONIC";
		return PVMMON_ERROR;
	}
	if (__builtin_fabs(s / scale0 - 1) > MAX_RATE_ERR) {
		*why = "over the run, the TSC's rate left CLOCK_MONOTONIC's by more than 0.1%";
		return PVMMON_ERROR;
	}
	if (prev && now->ns - prev->ns > 0) {
		/* Since the last re-fit: the pairs' widths are the measurement's own slack. */
		double slack = (double)(prev->width + now->width) / (double)(now->ns - prev->ns);

		if (pvmmon__clock_fit(&r, NULL, prev, now) != 0 ||
		    __builtin_fabs(r / s - 1) > MAX_RATE_ERR + slack) {
			*why = "the TSC's rate left CLOCK_MONOTONIC's by more than 0.1% between "
			       "re-fits";
			return PVMMON_ERROR;
		}
	}
	/* Continuous at now: readings never go back. A map behind by more than STEP_NS
	 * steps forward (harmless); otherwise it is steered to CLOCK_MONOTONIC over the
	 * next REFIT_NS. */
	anchor = *err < -STEP_NS ? now->ns : c;
	steer = -(double)(anchor - now->ns) / (double)REFIT_NS;
	if (steer > MAX_STEER)
		steer = MAX_STEER;
	if (steer < -MAX_STEER)
		steer = -MAX_STEER;
	pvmmon__clock_map_set(out, now->tsc, anchor, s);
	out->mult = mult_of(s * (1 + steer));
	return 0;
}

#if defined(__x86_64__)
static uint64_t rdtscp(void)
{
	unsigned aux;

	/* Waits for the instructions before it (the clock read): the pair is ordered. */
	return __builtin_ia32_rdtscp(&aux);
}

/* The narrowest of three pairs of CLOCK_MONOTONIC reads around a TSC read. */
static void take_pair(pvmmon__clock_pair *p)
{
	int i;

	for (i = 0; i < 3; i++) {
		int64_t a = pvmmon__clock_mono(), b;
		uint64_t t = rdtscp();

		b = pvmmon__clock_mono();
		if (i == 0 || b - a < p->width)
			*p = (pvmmon__clock_pair){a + (b - a) / 2, t, b - a};
	}
}

/* Four maps in turn: a reader that loaded the previous one may still be reading it. */
static pvmmon__clock_map maps[4];
static unsigned nmap;
static pvmmon__clock_pair first, prev;
static int marked;
static double scale0, scale;
static char busy;

static void publish(const pvmmon__clock_map *m)
{
	__atomic_store_n(&pvmmon__clock_tsc, m, __ATOMIC_RELEASE);
}

/* Re-fits against a fresh pair, the refit lock held. */
static void refit_locked(const pvmmon__clock_map *cur)
{
	pvmmon__clock_map *next = &maps[++nmap & 3];
	pvmmon__clock_pair now;
	const char *why = NULL;
	int64_t err;

	take_pair(&now);
	if (now.width > MAX_PAIR_NS || (int64_t)(now.tsc - cur->tsc) <= 0) {
		/* Disturbed: carry on at the fitted scale from here, check next time. */
		pvmmon__clock_map_set(next, now.tsc, pvmmon__clock_map_ns(cur, now.tsc), scale);
		publish(next);
		return;
	}
	if (pvmmon__clock_next_map(next, &err, &why, cur, &first, &prev, &now, scale0) != 0) {
		/* CLOCK_MONOTONIC from here on (the log says so). */
		why_s = why;
		publish(NULL);
		return;
	}
	pvmmon__clock_fit(&scale, NULL, &first, &now);
	prev = now;
	publish(next);
}

int64_t pvmmon__clock_slow(uint64_t tsc)
{
	const pvmmon__clock_map *m = __atomic_load_n(&pvmmon__clock_tsc, __ATOMIC_ACQUIRE);
	int64_t v;

	if (!m)
		return pvmmon__clock_mono();
	v = pvmmon__clock_map_ns(m, tsc);
	/* One thread re-fits; the others read on the map they have. */
	if ((int64_t)(tsc - m->tsc) > 0 && !__atomic_test_and_set(&busy, __ATOMIC_ACQUIRE)) {
		if (m == __atomic_load_n(&pvmmon__clock_tsc, __ATOMIC_ACQUIRE))
			refit_locked(m);
		__atomic_clear(&busy, __ATOMIC_RELEASE);
	}
	return v;
}

void pvmmon__clock_refit(void)
{
	const pvmmon__clock_map *m = __atomic_load_n(&pvmmon__clock_tsc, __ATOMIC_ACQUIRE);

	if (m && !__atomic_test_and_set(&busy, __ATOMIC_ACQUIRE)) {
		if (m == __atomic_load_n(&pvmmon__clock_tsc, __ATOMIC_ACQUIRE))
			refit_locked(m);
		__atomic_clear(&busy, __ATOMIC_RELEASE);
	}
}

/* Reads a small file whole into buf (NUL-terminated); NULL when it cannot. */
static const char *read_small(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return NULL;
	n = fread(buf, 1, size - 1, f);
	fclose(f);
	buf[n] = '\0';
	return n ? buf : NULL;
}

/* /proc/cpuinfo's first flags line (all a decision reads of it) into buf. */
static const char *read_flags(char *buf, size_t size)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	const char *r = NULL;

	if (!f)
		return NULL;
	while (fgets(buf, (int)size, f))
		if (strncmp(buf, "flags", 5) == 0) {
			r = buf;
			break;
		}
	fclose(f);
	return r;
}

/* Cross-CPU monotonicity: the TSC read after moving to each CPU of this thread's set
 * in turn (the move orders the reads) must be later than the one before, and each
 * CPU's pair goes to per[] for the check that they are in step. The set is restored. */
static int cpus_check(pvmmon__clock_pair *per, int *n)
{
	cpu_set_t orig, one;
	uint64_t last = rdtscp(), t;
	int cpu, ok = 1;

	*n = 0;
	if (sched_getaffinity(0, sizeof(orig), &orig) != 0)
		return 0;
	for (cpu = 0; cpu < CPU_SETSIZE && *n < MAX_CPUS && ok; cpu++) {
		if (!CPU_ISSET(cpu, &orig))
			continue;
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		if (sched_setaffinity(0, sizeof(one), &one) != 0)
			continue;
		t = rdtscp();
		ok = t > last;
		take_pair(&per[(*n)++]);
		last = per[*n - 1].tsc;
	}
	if (sched_setaffinity(0, sizeof(orig), &orig) != 0)
		return 0;
	return ok && rdtscp() > last;
}

void pvmmon__clock_mark(void)
{
	take_pair(&first);
	marked = 1;
}

/* The scale from first and a pair at least 1 ms later (longer when the pairs were
 * wide), to START_ERR; 0 when it cannot. */
static int start_scale(double *s)
{
	int64_t wait = 1000000;
	int tries;

	for (tries = 0; tries < 5; tries++, wait *= 2) {
		pvmmon__clock_pair b;
		double err;

		while (pvmmon__clock_mono() - first.ns < wait) {
			struct timespec ts = {0, (long)(wait - (pvmmon__clock_mono() - first.ns))};

			if (ts.tv_nsec > 0)
				nanosleep(&ts, NULL);
		}
		take_pair(&b);
		if (pvmmon__clock_fit(s, &err, &first, &b) == 0 && err <= START_ERR) {
			prev = b;
			return 1;
		}
		/* A wide pair at either end (the process preempted): from a fresh one. */
		take_pair(&first);
	}
	return 0;
}

int pvmmon__clock_start(void)
{
	static int started;
	char cur[64], avail[256], flags[4096];
	pvmmon__clock_pair per[MAX_CPUS];
	const char *why;
	int n;
	uint64_t t;
	int64_t at;

	if (started)
		return pvmmon__clock_tsc != NULL;
	started = 1;
	if (!pvmmon__clock_decide(
	        getenv("PVMMON_CLOCK"),
	        read_small("/sys/devices/system/clocksource/clocksource0/current_clocksource", cur,
	                   sizeof(cur)),
	        read_small("/sys/devices/system/clocksource/clocksource0/available_clocksource",
	                   avail, sizeof(avail)),
	        read_flags(flags, sizeof(flags)), &why)) {
		why_s = why;
		return 0;
	}
	if (!marked)
		take_pair(&first);
	if (!cpus_check(per, &n)) {
		why_s = "the TSC went back moving between CPUs";
		return 0;
	}
	if (!start_scale(&scale0)) {
		why_s = "the TSC's scale could not be fitted to 0.01%";
		return 0;
	}
	if (!pvmmon__clock_in_step(&first, scale0, per, n, STEP_TOL_NS)) {
		why_s = "the CPUs' TSCs are not in step";
		return 0;
	}
	scale = scale0;
	/* Anchored at a CLOCK_MONOTONIC read taken before its TSC read: never ahead of
	 * what this process has read so far, so the switch does not go back. */
	at = pvmmon__clock_mono();
	t = rdtscp();
	pvmmon__clock_map_set(&maps[0], t, at, scale0);
	snprintf(why_buf, sizeof(why_buf), "%s (%.6f GHz)", why, 1.0 / scale0);
	why_s = why_buf;
	publish(&maps[0]);
	return 1;
}
#else
void pvmmon__clock_mark(void) {}

int64_t pvmmon__clock_slow(uint64_t tsc)
{
	(void)tsc;
	return pvmmon__clock_mono();
}

void pvmmon__clock_refit(void) {}

int pvmmon__clock_start(void)
{
	why_s = "not x86-64";
	(void)why_buf;
	return 0;
}
#endif
