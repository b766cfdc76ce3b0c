/* The code calibration times in place (pvmhooks/calsites.h): the same caller and
 * callee plain and with pvmmon-cc's scopes, compiled alike. */
#include "calsites.h"

/* The sites are marked seen, so their first entry does not register them. */
static pvmmon_probe_site sites[CALSITES_N] = {
    {"(calibration caller)", __FILE__, 1, PVMMON_PROBE_PROC, 1, -1, 1, 0, 0},
    {"(calibration caller loop)", __FILE__, 2, PVMMON_PROBE_LOOP, 1, -1, 1, 0, 0},
    {"(calibration)", __FILE__, 3, PVMMON_PROBE_PROC, 1, -1, 1, 0, 0},
    {"(calibration loop)", __FILE__, 4, PVMMON_PROBE_LOOP, 1, -1, 1, 0, 0},
};

pvmmon_probe_site *calsites__site(int i)
{
	return &sites[i];
}

int calsites__unwatched;

/* The step count comes from the caller through a variable the compiler cannot see
 * through, as a program's arguments do: a constant would spare the callee a register. */
static volatile int work = CALSITES_WORK;

/*
 * The callee is a few steps of an integer hash, a small procedure of the kind whose
 * probes cost most relative to its work. Its work is a serial chain, so the
 * processor cannot hide the probes' instructions in idle units any more than in a
 * program's own small procedures.
 */
static __attribute__((noinline)) unsigned callee_plain(unsigned x, int w)
{
	for (int i = 0; i < w; i++)
		x = (x ^ (x >> 7)) * 2654435761u + (unsigned)i;
	return x;
}

/*
 * The callee as pvmmon-cc splits it (instrument/plain.h): a dispatcher that jumps to
 * the instrumented copy while one of its sites is on, else to a plain copy (which the
 * compiler may inline; the unwatched copy, never taken here, is callee_plain).
 */
static __attribute__((noinline)) unsigned callee_on(unsigned x, int w)
{
	PVMMON__PROC_SCOPE_AT(sites[2]);
	{
		PVMMON__LOOP_SCOPE_AT(sites[3]);
		for (int i = 0; i < w; i++)
			x = (x ^ (x >> 7)) * 2654435761u + (unsigned)i;
	}
	return x;
}

static unsigned callee_off(unsigned x, int w)
{
	for (int i = 0; i < w; i++)
		x = (x ^ (x >> 7)) * 2654435761u + (unsigned)i;
	return x;
}

static __attribute__((noinline)) unsigned callee_probed(unsigned x, int w)
{
	if (calsites__unwatched)
		return callee_plain(x, w);
	if (sites[2].enabled | sites[3].enabled)
		return callee_on(x, w);
	++sites[2].off; /* as pvmmon-cc's dispatchers count a switched-off call */
	return callee_off(x, w);
}

__attribute__((noinline)) unsigned calsites__plain(unsigned seed, long n)
{
	unsigned acc = seed;
	int w = work;

	for (long i = 0; i < n; i++)
		acc += callee_plain((unsigned)i ^ seed, w);
	return acc;
}

/* The caller's copies: each call statement sets the call line, as pvmmon-cc rewrites a
 * call, in the plain copy too. */
static __attribute__((noinline)) unsigned caller_on(unsigned seed, long n)
{
	PVMMON__PROC_SCOPE_AT(sites[0]);
	unsigned acc = seed;
	int w = work;

	{
		PVMMON__LOOP_SCOPE_AT(sites[1]);
		for (long i = 0; i < n; i++)
			acc += (pvmmon_call_line = 5, callee_probed((unsigned)i ^ seed, w));
	}
	return acc;
}

static unsigned caller_off(unsigned seed, long n)
{
	unsigned acc = seed;
	int w = work;

	for (long i = 0; i < n; i++)
		acc += (pvmmon_call_line = 5, callee_probed((unsigned)i ^ seed, w));
	return acc;
}

__attribute__((noinline)) unsigned calsites__probed(unsigned seed, long n)
{
	if (calsites__unwatched)
		return calsites__plain(seed, n);
	if (sites[0].enabled | sites[1].enabled)
		return caller_on(seed, n);
	++sites[0].off;
	return caller_off(seed, n);
}
