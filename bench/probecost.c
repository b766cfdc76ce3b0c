/* Measures the cost of a procedure probe pair (entry and exit), enabled and disabled,
 * as an instrumented program pays it: a procedure that is a real call (noinline) with
 * pvmmon-cc's scope probes (PVMMON__PROC_SCOPE_AT: the inline enable test, the disabled
 * site's `off` count, the cleanup exit) against the same procedure without them; prints
 * ns per pair. With --pvm (under `pvmmon run --no-throttle`) it registers first, so the
 * enabled probes are those of a monitored task (run alone, a process outside any run
 * switches its sites off at their first entry and "enabled" measures a switched-off
 * site). Each loop runs ROUNDS times, the three interleaved, and the medians count. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <pvm3.h>

#include "pvmmon/probe.h"

#define ROUNDS 5

static pvmmon_probe_site on = {"on", __FILE__, __LINE__, PVMMON_PROBE_PROC, 1, -1, 0, 0, 0};
static pvmmon_probe_site off = {"off", __FILE__, __LINE__, PVMMON_PROBE_PROC, 0, -1, 0, 0, 0};
/* The procedures' work: one add to a global, the same in all three. */
static volatile long sink;

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static __attribute__((noinline)) void plain(long i) { sink += i; }

static __attribute__((noinline)) void probed_on(long i)
{
	PVMMON__PROC_SCOPE_AT(on);
	sink += i;
}

static __attribute__((noinline)) void probed_off(long i)
{
	PVMMON__PROC_SCOPE_AT(off);
	sink += i;
}

/* ns per call of fn over n calls. */
static double run(void (*fn)(long), long n)
{
	double t0 = now_ns();

	for (long i = 0; i < n; i++)
		fn(i);
	return (now_ns() - t0) / (double)n;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v)
{
	qsort(v, ROUNDS, sizeof(*v), cmp_d);
	return v[ROUNDS / 2];
}

int main(int argc, char **argv)
{
	int pvm = argc > 1 && strcmp(argv[1], "--pvm") == 0;
	long n = argc > 1 + pvm ? atol(argv[1 + pvm]) : 10000000;
	double empty[ROUNDS], enabled[ROUNDS], disabled[ROUNDS];
	unsigned long off_before = off.off;

	if (pvm && pvm_mytid() < 0)
		return 2;
	/* Each round changes which loop runs first. */
	for (int r = 0; r < ROUNDS; r++) {
		if (r % 2) {
			enabled[r] = run(probed_on, n);
			disabled[r] = run(probed_off, n);
			empty[r] = run(plain, n);
		} else {
			empty[r] = run(plain, n);
			disabled[r] = run(probed_off, n);
			enabled[r] = run(probed_on, n);
		}
	}
	if (off.off - off_before != (unsigned long)n * ROUNDS)
		fprintf(stderr, "probecost: the disabled site counted %lu calls, not %ld\n",
		        off.off - off_before, n * ROUNDS);
	printf("enabled_ns=%.2f disabled_ns=%.2f empty_ns=%.2f\n", median(enabled) - median(empty),
	       median(disabled) - median(empty), median(empty));
	if (pvm)
		pvm_exit();
	return 0;
}
