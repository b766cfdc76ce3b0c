/* Measures what an empty poll costs: N calls of pvm_nrecv and of pvm_probe that find
 * nothing (a tag no one sends), after a warm-up; prints ns per call. Run it raw and
 * monitored (pvmmon run --raw / pvmmon run): a run longer than the wait threshold is
 * a polling wait the task reports once, and what that adds is in the figure. Then N
 * calls of pvm_mytid, a wrapped call that does almost nothing: the wrapper's own cost
 * on every call, with no system call and no scheduling in it. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <pvm3.h>

#define NOBODY_TAG 7777

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000000, i;
	double t0, nrecv, probe, mytid;

	if (pvm_mytid() < 0)
		return 1;
	for (i = 0; i < n / 10; i++)
		pvm_nrecv(-1, NOBODY_TAG);
	t0 = now_ns();
	for (i = 0; i < n; i++)
		if (pvm_nrecv(-1, NOBODY_TAG) != 0)
			return 1;
	nrecv = (now_ns() - t0) / (double)n;
	t0 = now_ns();
	for (i = 0; i < n; i++)
		if (pvm_probe(-1, NOBODY_TAG) != 0)
			return 1;
	probe = (now_ns() - t0) / (double)n;
	t0 = now_ns();
	for (i = 0; i < n; i++)
		if (pvm_mytid() < 0)
			return 1;
	mytid = (now_ns() - t0) / (double)n;
	printf("nrecv_ns=%.1f probe_ns=%.1f mytid_ns=%.1f\n", nrecv, probe, mytid);
	pvm_exit();
	return 0;
}
