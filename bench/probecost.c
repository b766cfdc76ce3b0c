/* Measures the cost of a procedure probe pair (entry and exit), enabled and disabled,
 * in a tight loop against an empty loop; prints ns per pair. With --pvm (under `pvmmon
 * run --no-throttle`) it registers first, so the enabled probes are those of a monitored
 * task (run alone, a process outside any run switches its sites off at their first
 * entry and "enabled" measures a switched-off site). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <pvm3.h>

#include "pvmmon/probe.h"

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
	static pvmmon_probe_site on = {"on", __FILE__, __LINE__, PVMMON_PROBE_PROC, 1, -1, 0, 0};
	/* volatile reads, as a site the monitor may switch off must be re-read each time. */
	static pvmmon_probe_site off = {"off", __FILE__, __LINE__, PVMMON_PROBE_PROC, 0, -1};
	int pvm = argc > 1 && strcmp(argv[1], "--pvm") == 0;
	long n = argc > 1 + pvm ? atol(argv[1 + pvm]) : 10000000, i;
	volatile long sink = 0;
	double t0, empty, enabled, disabled;

	if (pvm && pvm_mytid() < 0)
		return 2;

	t0 = now_ns();
	for (i = 0; i < n; i++)
		sink += i;
	empty = now_ns() - t0;
	t0 = now_ns();
	/* The enable test inline, as PVMMON_PROC_SCOPE does it. */
	for (i = 0; i < n; i++) {
		if (on.enabled)
			pvmmon_probe_proc_enter(&on);
		sink += i;
		if (on.enabled)
			pvmmon_probe_proc_exit(&on);
	}
	enabled = now_ns() - t0;
	t0 = now_ns();
	for (i = 0; i < n; i++) {
		if (off.enabled)
			pvmmon_probe_proc_enter(&off);
		sink += i;
		if (off.enabled)
			pvmmon_probe_proc_exit(&off);
	}
	disabled = now_ns() - t0;
	printf("enabled_ns=%.2f disabled_ns=%.2f\n", (enabled - empty) / (double)n,
	       (disabled - empty) / (double)n);
	if (pvm)
		pvm_exit();
	return sink == 42;
}
