/* A call-heavy program: N calls of a tiny procedure, for comparing instrumentation
 * overheads (pvmmon-cc, gprof, -finstrument-functions). */
#include <stdio.h>
#include <stdlib.h>

static __attribute__((noinline)) unsigned leaf(unsigned x)
{
	return x * 3u + 1u;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 10000000;
	unsigned s = 0;

	for (long i = 0; i < n; i++)
		s += leaf((unsigned)i);
	printf("%u\n", s);
	return 0;
}
