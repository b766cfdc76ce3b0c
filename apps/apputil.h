/* Option parsing and calibrated busy work shared by the pipeline, ring and issort demos. */
#ifndef PVMMON_APPS_APPUTIL_H
#define PVMMON_APPS_APPUTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/*
 * One step of the busy-work hash. Each step needs the previous result (shift, xor,
 * multiply, add: about six cycles of latency), so the compiler can neither vectorize
 * nor shorten a chain of them, and the time of a loop of steps is proportional to its
 * length. It is a macro, not a function, so that pvmmon-cc sees no call statement in
 * the loops of the compute procedures and their time stays theirs.
 */
#define APPUTIL_MIX(h, i) ((((h) ^ ((h) >> 31)) * 0x9e3779b97f4a7c15ull) + (uint64_t)(i))

/*
 * Steps of APPUTIL_MIX per work unit, so that one unit takes about 1 ms. Measured on
 * the development machine (AMD EPYC, 2 CPUs) by timing 10^8 steps in a loop with
 * CLOCK_PROCESS_CPUTIME_ID: 170.6 ms at -O2 and at -O0 alike, that is 586,000 steps
 * per ms, five runs within 0.3% of each other. Other machines give other times but
 * the same outputs, because the work is counted in steps, never timed.
 */
#define APPUTIL_ITERS_PER_UNIT 586000L

/*
 * Folds a 64-bit hash to the 32 bits that PVM's default encoding carries exactly; a
 * macro too, so that the compute procedures contain no call statement at all.
 */
#define APPUTIL_FOLD(h) ((uint32_t)((h) ^ ((h) >> 32)))

/*
 * Parses a decimal integer option from min to max; on anything else prints which
 * option was wrong and the allowed range, and exits with status 2 like a usage error.
 */
static inline long apputil_parse_num(const char *prog, const char *s, const char *what,
				     long min, long max)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (*s == '\0' || *end != '\0' || v < min || v > max) {
		fprintf(stderr, "%s: %s must be an integer from %ld to %ld, not '%s'\n", prog, what,
			min, max, s);
		exit(2);
	}
	return v;
}

#endif
