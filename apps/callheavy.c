/*
 * A call-heavy PVM program, in the manner of SPEC's integer codes: millions of calls a
 * second to small procedures with short loops, inside a few coarse phases. It is the
 * subject of the cost budget's tests and benchmarks (built with pvmmon-cc, its small
 * procedures are timed, so their probes cost far more than they measure).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include <pvm3.h>

static void usage(FILE *f)
{
	fprintf(f, "usage: callheavy [-n CALLS] [-w WORK] [-p PHASES]\n"
		   "Makes CALLS calls (default 20000000) of small procedures whose loops run WORK\n"
		   "steps (default 4), in PHASES phases (default 4), and prints a checksum.\n");
}

static long parse_num(const char *s, const char *what, long min, long max)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (*s == '\0' || *end != '\0' || v < min || v > max) {
		fprintf(stderr, "callheavy: %s must be an integer from %ld to %ld, not '%s'\n", what,
			min, max, s);
		exit(2);
	}
	return v;
}

/* The hot procedure: a few steps of an integer hash. */
static __attribute__((noinline)) unsigned mix(unsigned x, int work)
{
	for (int i = 0; i < work; i++)
		x = (x ^ (x >> 7)) * 2654435761u + (unsigned)i;
	return x;
}

/* A second, colder procedure: called once every 64 calls of mix. */
static __attribute__((noinline)) unsigned fold(unsigned acc, unsigned x, int work)
{
	for (int i = 0; i < work * 8; i++)
		acc = acc * 31u + (x >> (i & 15));
	return acc;
}

/* One coarse phase of n calls. */
static __attribute__((noinline)) unsigned phase(unsigned seed, long n, int work)
{
	unsigned acc = seed;

	for (long i = 0; i < n; i++) {
		acc += mix((unsigned)i ^ seed, work);
		if ((i & 63) == 0)
			acc = fold(acc, (unsigned)i, work);
	}
	return acc;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {{"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
	long calls = 20000000;
	int work = 4, phases = 4, opt;
	unsigned sum = 0;

	while ((opt = getopt_long(argc, argv, "n:w:p:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'n': calls = parse_num(optarg, "-n", 1, 100000000000L); break;
		case 'w': work = (int)parse_num(optarg, "-w", 1, 1000000); break;
		case 'p': phases = (int)parse_num(optarg, "-p", 1, 1000); break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "callheavy: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	if (pvm_mytid() < 0) {
		fprintf(stderr, "callheavy: cannot join PVM (is a pvmd running?)\n");
		return 1;
	}
	for (int p = 0; p < phases; p++)
		sum += phase(sum + (unsigned)p, calls / phases, work);
	printf("callheavy: calls=%ld work=%d checksum=%08x\n", calls, work, sum);
	pvm_exit();
	return 0;
}
