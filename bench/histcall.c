/*
 * What the time histograms cost a task per wrapped call (pvmhooks/histos.c): the
 * call's end (its time split into computing, waiting and PVM, the messages and the
 * monitoring time, the call's statement) and the poll after it, with the default
 * histograms and with none (--no-histograms), over a run long enough to double the
 * buckets many times. Usage: histcall [CALLS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../pvmhooks/histos.h"
#include "../pvmhooks/records.h"

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* n calls 20 us apart, each 5 us long, waiting 1 us, sending one message of 8 bytes. */
static double ns_per_call(int defaults, long n)
{
	const int64_t t0 = 1000000000000LL;
	pvmmon_log_stmt *st;
	hooks_call c;
	double a, b;

	hooks__records_reset();
	vclock__init(hooks__clock());
	hooks__set_start(t0);
	histos__welcome(128, 10000000, 8, defaults, NULL, NULL);
	memset(&c, 0, sizeof(c));
	c.site = (void *)ns_per_call;
	c.op = HOOKS_OP_pvm_send;
	st = hooks__stmt(c.site, c.op);
	a = now_ns();
	for (long i = 0; i < n; i++) {
		int64_t t = t0 + i * 20000;

		c.v0 = t;
		c.sync = 1000;
		if (st) {
			st->count++;
			st->time_ns += 5000;
		}
		hooks__count_sent(1, 8);
		histos__call_end(&c, t + 5000);
		histos__poll(t + 5000);
	}
	b = now_ns();
	histos__flush(1, t0 + n * 20000);
	return (b - a) / (double)n;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 2000000;
	double on[5], off[5];

	for (int r = 0; r < 5; r++) {
		on[r] = ns_per_call(1, n);
		off[r] = ns_per_call(0, n);
	}
	for (int r = 0; r < 5; r++)
		printf("histograms %.1f ns/call, none %.1f ns/call\n", on[r], off[r]);
	return 0;
}
