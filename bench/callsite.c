/*
 * What finding a call's statement costs (pvmhooks/callsite.c), per call: for an
 * ordinary call site (one pointer-map lookup) and for a call through a stand-in of
 * PVM's Fortran binding (an unwind to the binding's caller), at the top of a shallow
 * stack and 20 frames deeper. Usage: callsite [CALLS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "../pvmhooks/callsite.h"

/* Keeps r through an empty asm, so that no call below is a tail call: the frames are
 * those of a wrapper, the binding and the program. */
#define KEEP(r) __asm__ volatile("" : "+r"(r))

__attribute__((noinline)) static void *wrapper_like(void)
{
	void *r = callsite__user(__builtin_return_address(0));

	KEEP(r);
	return r;
}

/* Named as gfortran names the binding's routines. */
__attribute__((noinline)) void *pvmfbench_(void);
__attribute__((noinline)) void *pvmfbench_(void)
{
	void *r = wrapper_like();

	KEEP(r);
	return r;
}

__attribute__((noinline)) static void *program(int fortran)
{
	void *r = fortran ? pvmfbench_() : wrapper_like();

	KEEP(r);
	return r;
}

__attribute__((noinline)) static int calls_at(int depth, int fortran, long n)
{
	int x = 0;

	if (depth) {
		x = calls_at(depth - 1, fortran, n);
		KEEP(x);
		return x + 1;
	}
	for (long i = 0; i < n; i++) {
		void *r = program(fortran);

		KEEP(r);
	}
	return 0;
}

static double ns_per_call(int fortran, int depth, long n)
{
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	calls_at(depth, fortran, n);
	clock_gettime(CLOCK_MONOTONIC, &b);
	return ((double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec)) / (double)n;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 200000;

	for (int k = 0; k < 3; k++)
		printf("ordinary site %.0f ns, through the binding %.0f ns, 20 frames deeper %.0f ns\n",
		       ns_per_call(0, 0, n), ns_per_call(1, 0, n), ns_per_call(1, 20, n));
	return 0;
}
