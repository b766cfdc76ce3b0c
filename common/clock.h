/* Private to pvmmon: the real-time clock every component timestamps with, and the
 * choice between CLOCK_MONOTONIC and the TSC for a task's own readings. */
#ifndef PVMMON_COMMON_CLOCK_H
#define PVMMON_COMMON_CLOCK_H

#include <stdint.h>
#include <time.h>

/* Internal to the library that links it (the archives are linked statically): its
 * names bind locally, with no GOT load or PLT call. */
#pragma GCC visibility push(hidden)

/*
 * A fixed shift of this process's clock (tests only): PVMMON_TEST_CLOCK_OFFSET_NS, read
 * once. The hosts test harness sets it per namespace host, so that one machine can
 * play hosts whose clocks disagree. pvmmon__clock_offset_ready is 0 until it was read.
 * PVMMON_TEST_CLOCK_DRIFT_PPB makes the clock run fast (or slow, negative) by that many
 * parts per billion from PVMMON_TEST_CLOCK_EPOCH_NS on, as real clocks drift apart.
 */
extern int64_t pvmmon__clock_offset;
extern int pvmmon__clock_offset_ready;
extern double pvmmon__clock_drift;
extern int64_t pvmmon__clock_epoch;
void pvmmon__clock_offset_init(void);

/* libc's clock_gettime, set by libpvmhooks (pvmhooks/sources.c), which interposes
 * clock_gettime to record and replay the program's reads: pvmmon's own reads must
 * never be recorded or replayed. Elsewhere the plain clock_gettime (common/clock.c):
 * called through the pointer, so that no object of libpvmhooks names the interposed
 * function (scripts/check-cycles.sh would see a call into sources.c). */
extern int (*pvmmon__clock_real)(clockid_t, struct timespec *);

/*
 * Nanoseconds of CLOCK_MONOTONIC: shared by all processes on one host (so a sender's
 * and a receiver's stamps compare directly), never stepped, about 30 ns a call via vDSO.
 * Other hosts' clocks differ by an offset that tasks estimate (doc/architecture.md,
 * "The virtual clock across hosts").
 */
static inline int64_t pvmmon__clock_mono(void)
{
	struct timespec ts;
	int64_t t;

	pvmmon__clock_real(CLOCK_MONOTONIC, &ts);
	if (__builtin_expect(!pvmmon__clock_offset_ready, 0))
		pvmmon__clock_offset_init();
	t = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
	if (__builtin_expect(pvmmon__clock_drift != 0, 0))
		t += (int64_t)((double)(t - pvmmon__clock_epoch) * pvmmon__clock_drift);
	return t + pvmmon__clock_offset;
}

/*
 * The TSC as a clock on CLOCK_MONOTONIC's time base (doc/architecture.md, "The probe
 * clock"): ns = ns0 + (tsc - tsc0) * mult / 2^32 for tsc - tsc0 <= limit (10 ms of
 * ticks); past that (or before tsc0) pvmmon__clock_slow() re-fits against
 * CLOCK_MONOTONIC. mult is the fitted scale, corrected by the error found at the last
 * re-fit so that the readings converge to CLOCK_MONOTONIC without ever going back;
 * mult_plain is the fitted scale alone, for ticks past limit.
 */
typedef struct pvmmon__clock_map {
	uint64_t tsc;
	int64_t ns;
	uint64_t mult;
	uint64_t mult_plain;
	uint64_t limit;
} pvmmon__clock_map;

/* The map in use; NULL: CLOCK_MONOTONIC (always in the monitor and the commands, which
 * never call pvmmon__clock_start). */
extern const pvmmon__clock_map *pvmmon__clock_tsc;
int64_t pvmmon__clock_slow(uint64_t tsc);

/*
 * This process's real time in nanoseconds on CLOCK_MONOTONIC's time base: the TSC
 * scaled where pvmmon__clock_start chose it (a task's probes, wrappers and virtual
 * clock), else CLOCK_MONOTONIC itself. Converted readings agree with other processes'
 * CLOCK_MONOTONIC within the calibration's error (tens of ns), so piggybacked times
 * compare across the tasks of a host as before.
 */
static inline int64_t pvmmon_clock_now(void)
{
#if defined(__x86_64__)
	const pvmmon__clock_map *m = __atomic_load_n(&pvmmon__clock_tsc, __ATOMIC_ACQUIRE);

	if (m) {
		uint64_t t = __builtin_ia32_rdtsc(), d = t - m->tsc;

		if (__builtin_expect(d <= m->limit, 1))
			return m->ns + (int64_t)(((unsigned __int128)d * m->mult) >> 32);
		return pvmmon__clock_slow(t);
	}
#endif
	return pvmmon__clock_mono();
}

/*
 * The TSC's reading on map m as pvmmon_clock_now gives it, in *t; 0 where that takes its
 * slow way (ticks past the map's limit: a re-fit), *t then unset. For the probes'
 * common case, which then hand over to their rare path rather than make a call
 * themselves (a result the caller branches on, so no test of the time itself).
 */
static inline int pvmmon__clock_tsc_fast(const pvmmon__clock_map *m, int64_t *t)
{
#if defined(__x86_64__)
	uint64_t d = __builtin_ia32_rdtsc() - m->tsc;

	if (__builtin_expect(d > m->limit, 0))
		return 0;
	*t = m->ns + (int64_t)(((unsigned __int128)d * m->mult) >> 32);
	return 1;
#else
	(void)m;
	(void)t;
	return 0;
#endif
}

/* A probe's real time in *t: the TSC on map m as pvmmon__clock_tsc_fast reads it (0:
 * past the map's limit), or CLOCK_MONOTONIC where there is no map (m NULL). */
static inline __attribute__((always_inline)) int pvmmon__clock_probe(const pvmmon__clock_map *m,
                                                                     int64_t *t)
{
	if (!m) {
		*t = pvmmon__clock_mono();
		return 1;
	}
	return pvmmon__clock_tsc_fast(m, t);
}

/*
 * Chooses this process's clock, once (later calls return the choice): the TSC where
 * pvmmon__clock_decide allows it from the kernel's clocksource, the CPU flags and
 * PVMMON_CLOCK, and the checks at start pass (monotonic across this process's CPUs,
 * in step with CLOCK_MONOTONIC, a scale known to 0.01% over at least 1 ms from
 * pvmmon__clock_mark's pair); else CLOCK_MONOTONIC. 1: the TSC. Waits only when the
 * mark is less than 1 ms old (or its pair was wide).
 */
int pvmmon__clock_start(void);
/* Takes the first calibration pair now (a task's library at load, about 200 ns): the
 * start's scale then spans the time to registration and seldom needs to wait. */
void pvmmon__clock_mark(void);
/* Re-fits the TSC against CLOCK_MONOTONIC now (a task's flushes); readings do so by
 * themselves every 10 ms. A scale more than 0.1% off ends the TSC's use for good. */
void pvmmon__clock_refit(void);
/* "tsc" or "monotonic": the clock pvmmon_clock_now reads now. */
const char *pvmmon__clock_name(void);
/* Why the clock is what it is ("clocksource tsc", "PVMMON_CLOCK=monotonic", ...). */
const char *pvmmon__clock_why(void);

/* The decision without the checks, from its inputs (tests give fake ones): env is
 * PVMMON_CLOCK (NULL: unset), current and available the clocksource files' contents
 * (NULL: unreadable), cpuinfo /proc/cpuinfo's (its first flags line counts; NULL:
 * unreadable). 1: the TSC may be used; *why says why or why not. */
int pvmmon__clock_decide(const char *env, const char *current, const char *available,
                         const char *cpuinfo, const char **why);

/* A paired reading: CLOCK_MONOTONIC's ns at the TSC reading tsc, within +- width / 2. */
typedef struct pvmmon__clock_pair {
	int64_t ns;
	uint64_t tsc;
	int64_t width;
} pvmmon__clock_pair;

/* The scale (ns a tick) from pairs a and b, and its relative error bound; 0, or
 * PVMMON_EINVAL where b is not after a. */
int pvmmon__clock_fit(double *scale, double *err, const pvmmon__clock_pair *a,
                      const pvmmon__clock_pair *b);
/* Whether the pairs p[0..n-1] (taken on each CPU in turn) lie on the line through a of
 * this scale, within their widths and tol ns: the CPUs' TSCs are in step. */
int pvmmon__clock_in_step(const pvmmon__clock_pair *a, double scale, const pvmmon__clock_pair *p,
                          int n, int64_t tol);
/* The map's reading for tsc: piecewise past limit, never before the anchor. */
int64_t pvmmon__clock_map_ns(const pvmmon__clock_map *m, uint64_t tsc);
/* A map anchored at (tsc, ns) with scale and no correction. */
void pvmmon__clock_map_set(pvmmon__clock_map *m, uint64_t tsc, int64_t ns, double scale);
/*
 * The re-fit: the next map from the current one cur, the first pair of the run, the
 * previous re-fit's pair prev and a fresh pair now, and the scale at start. The scale
 * is re-fitted from first to now; the map stays continuous at now (never going back)
 * and is steered to CLOCK_MONOTONIC over the next 10 ms (a lag of more than 1 us is
 * stepped forward). PVMMON_ERANGE (with *why) when the TSC's rate differs from
 * CLOCK_MONOTONIC's by more than 0.1%, over the run or since prev. *err: the map's
 * error at now before the re-fit (map minus CLOCK_MONOTONIC, ns).
 */
int pvmmon__clock_next_map(pvmmon__clock_map *out, int64_t *err, const char **why,
                           const pvmmon__clock_map *cur, const pvmmon__clock_pair *first,
                           const pvmmon__clock_pair *prev, const pvmmon__clock_pair *now,
                           double scale0);

#pragma GCC visibility pop

#endif
