/*
 * hotspots: one PVM task whose computing is known in advance, the subject of the call-path
 * sampling tests: of its compute, hot_a does 60%, hot_b 30% (called from hot_b_caller, so
 * that a call path has depth) and main's own loop 10%.
 *
 * Every loop runs the same serial chain (one multiply and one add a step on a value the
 * next step needs), so a step takes the same time in each and the shares are the step
 * counts' 6:3:1. The functions are noipa so that gcc neither inlines nor folds them, and
 * their constants differ so that identical code folding cannot merge hot_a and hot_b.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <pvm3.h>

__attribute__((noipa)) static uint64_t hot_a(uint64_t steps, uint64_t x)
{
	for (uint64_t i = 0; i < steps; i++)
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
	return x;
}

__attribute__((noipa)) static uint64_t hot_b(uint64_t steps, uint64_t x)
{
	for (uint64_t i = 0; i < steps; i++)
		x = x * 2862933555777941757ULL + 3037000493ULL;
	return x;
}

__attribute__((noipa)) static uint64_t hot_b_caller(uint64_t steps, uint64_t x)
{
	return hot_b(steps, x) ^ 1;
}

int main(int argc, char **argv)
{
	/* Steps of one unit (10 units in all); about 1.5 ns a step. */
	long unit = argc > 1 ? strtol(argv[1], NULL, 10) : 100000000L;
	uint64_t x = 1;

	if (unit <= 0 || unit > 10000000000L) {
		fprintf(stderr, "usage: hotspots [STEPS_PER_UNIT]\n");
		return 2;
	}
	if (pvm_mytid() < 0)
		return 1;
	/* Interleaved in rounds, so that a sample rate in step with the program cannot
	 * favour one function. */
	for (int round = 0; round < 10; round++) {
		x = hot_a((uint64_t)unit * 6 / 10, x);
		x = hot_b_caller((uint64_t)unit * 3 / 10, x);
		for (uint64_t i = 0; i < (uint64_t)unit / 10; i++)
			x = x * 3935559000370003845ULL + 2691343689449507681ULL;
	}
	printf("hotspots: %llu\n", (unsigned long long)(x & 0xffff));
	pvm_exit();
	return 0;
}
