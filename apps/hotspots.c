/*
 * hotspots: one PVM task whose computing is known in advance, the subject of the call-path
 * sampling tests: of its compute, hot_a does 60%, hot_b 30% (called from hot_b_caller, so
 * that a call path has depth) and warm, inlined into main, 10%.
 *
 * Every loop runs the same serial chain (one multiply and one add a step on a value the
 * next step needs), so a step takes the same time in each and the shares are the step
 * counts' 6:3:1. The functions are noipa so that gcc neither inlines nor folds them, and
 * their constants differ so that identical code folding cannot merge hot_a and hot_b.
 * The program also measures each part's CPU time itself and prints the shares
 * ("hotspots: a 60.1 b 29.8"): on a loaded machine a step's time may vary a little, and
 * the tests compare the samples with what really happened.
 *
 * "hotspots STEPS kill" (or "segv") ends without pvm_exit after computing: it makes sure
 * the monitor has its records (the flush at a PVM call once the flush period has
 * passed, then a message to itself, which pvmd hands back only after everything the task
 * sent before it), then kills itself with SIGKILL (or writes through a null pointer):
 * the sampling suite's test that a task that dies keeps its samples to its last flush.
 * Each round ends with a pvm_mytid, so that the task takes the monitor's commands
 * (pvmmon ctl) while it computes. `hotspots STEPS early` first runs before_pvm for half
 * as many steps again, before its first PVM call: computing that happens before a task
 * is registered (its "early" CPU time is printed too).
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

/* Always inlined: its samples are in main's code, and debug information names it. */
static inline __attribute__((always_inline)) uint64_t warm(uint64_t steps, uint64_t x)
{
	for (uint64_t i = 0; i < steps; i++)
		x = x * 3935559000370003845ULL + 2691343689449507681ULL;
	return x;
}

/* Computing before the first PVM call (the "early" mode). */
__attribute__((noipa)) static uint64_t before_pvm(uint64_t steps, uint64_t x)
{
	for (uint64_t i = 0; i < steps; i++)
		x = x * 1181783497276652981ULL + 1013904223ULL;
	return x;
}

#define ROUNDS 50

static int64_t cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Two round trips of a message to itself (the records' flush comes at the first PVM call
 * after the flush period; the second message follows it), then the death asked for. */
static void die(const char *how)
{
	int me = pvm_mytid();

	for (int i = 0; i < 2; i++) {
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&me, 1, 1);
		pvm_send(me, 7);
		pvm_recv(me, 7);
	}
	if (!strcmp(how, "segv")) {
		volatile int *nowhere = NULL;

		signal(SIGSEGV, SIG_DFL);
		*nowhere = 1;
	}
	raise(SIGKILL);
}

int main(int argc, char **argv)
{
	/* Steps in all (about 1.5 ns each), in ROUNDS rounds. */
	long steps = argc > 1 ? strtol(argv[1], NULL, 10) : 1000000000L;
	const char *mode = argc > 2 ? argv[2] : NULL, *death = NULL;
	uint64_t x = 1, round_steps;
	int64_t t0, t1, t2, t3, in_a = 0, in_b = 0, all = 0, early = 0;

	if (steps < ROUNDS * 10 || steps > 100000000000L ||
	    (mode && strcmp(mode, "kill") && strcmp(mode, "segv") && strcmp(mode, "early"))) {
		fprintf(stderr, "usage: hotspots [STEPS [kill|segv|early]]\n");
		return 2;
	}
	if (mode && strcmp(mode, "early"))
		death = mode;
	if (mode && !strcmp(mode, "early")) {
		t0 = cpu_ns();
		x = before_pvm((uint64_t)steps / 2, x);
		early = cpu_ns() - t0;
	}
	if (pvm_mytid() < 0)
		return 1;
	round_steps = (uint64_t)steps / ROUNDS;
	/* Interleaved in rounds, so that a change of the machine's speed during the run
	 * falls on every part alike. */
	for (int round = 0; round < ROUNDS; round++) {
		t0 = cpu_ns();
		x = hot_a(round_steps * 6 / 10, x);
		t1 = cpu_ns();
		x = hot_b_caller(round_steps * 3 / 10, x);
		t2 = cpu_ns();
		x = warm(round_steps / 10, x);
		t3 = cpu_ns();
		in_a += t1 - t0;
		in_b += t2 - t1;
		all += t3 - t0;
		pvm_mytid();
	}
	printf("hotspots: a %.1f b %.1f cpu %lld ms early %lld ms (%llu)\n",
	       100.0 * (double)in_a / (double)all, 100.0 * (double)in_b / (double)all,
	       (long long)(all / 1000000), (long long)(early / 1000000),
	       (unsigned long long)(x & 0xffff));
	if (death) {
		fflush(stdout);
		die(death);
	}
	pvm_exit();
	return 0;
}
