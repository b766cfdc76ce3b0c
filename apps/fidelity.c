/*
 * A fidelity probe for pvmmon's compensation: a master spawns two workers of this very
 * program and takes their results with a wildcard receive. Worker "calls" makes N calls
 * of a tiny procedure that calls another (so it is not a leaf and pvmmon-cc times it),
 * worker "flat" runs one loop of M steps with no call. Unmonitored, the calls worker
 * finishes first; instrumented, its probes cost far more than its work.
 *
 * usage: fidelity [-n CALLS] [-m STEPS]   (master; prints the order its results came in)
 *        fidelity calls N | fidelity flat M (workers, spawned by the master)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pvm3.h>

#include "apputil.h"

#define TAG_RESULT 1

/* A leaf: counted, not timed, by pvmmon-cc. */
static uint64_t tiny(uint64_t h, long i) { return APPUTIL_MIX(h, i); }

/* Not a leaf (it calls tiny), so pvmmon-cc times it: its probe pair costs far more than
 * its few nanoseconds. */
static uint64_t outer(uint64_t h, long i)
{
	h = tiny(h, i);
	return h ^ (uint64_t)i;
}

static uint64_t work_calls(long n)
{
	uint64_t h = 1;

	for (long i = 0; i < n; i++)
		h = outer(h, i);
	return h;
}

static uint64_t work_flat(long m)
{
	uint64_t h = 1;

	for (long i = 0; i < m; i++)
		h = APPUTIL_MIX(h, i);
	return h;
}

static int worker(const char *kind, long n)
{
	int k = !strcmp(kind, "calls") ? 0 : 1;
	uint64_t h = k == 0 ? work_calls(n) : work_flat(n);
	uint32_t sum = APPUTIL_FOLD(h); /* a macro that reads h twice */

	pvm_initsend(PvmDataDefault);
	pvm_pkint(&k, 1, 1);
	pvm_pkuint(&sum, 1, 1);
	pvm_send(pvm_parent(), TAG_RESULT);
	pvm_exit();
	return 0;
}

int main(int argc, char **argv)
{
	long n = 1000000, m = 6000000;
	char nbuf[32], mbuf[32];
	char *a_args[] = {"calls", nbuf, NULL}, *b_args[] = {"flat", mbuf, NULL};
	const char *names[] = {"calls", "flat"};
	int tid, i;

	if (argc == 3 && (!strcmp(argv[1], "calls") || !strcmp(argv[1], "flat")))
		return worker(argv[1],
		              apputil_parse_num("fidelity", argv[2], "count", 1, 1L << 40));
	for (i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "-n"))
			n = apputil_parse_num("fidelity", argv[i + 1], "-n", 1, 1L << 40);
		else if (!strcmp(argv[i], "-m"))
			m = apputil_parse_num("fidelity", argv[i + 1], "-m", 1, 1L << 40);
		else
			break;
	}
	if (i < argc) {
		fprintf(stderr, "usage: fidelity [-n CALLS] [-m STEPS]\n");
		return 2;
	}
	if (pvm_mytid() < 0)
		return 1;
	snprintf(nbuf, sizeof(nbuf), "%ld", n);
	snprintf(mbuf, sizeof(mbuf), "%ld", m);
	if (pvm_spawn("fidelity", a_args, PvmTaskDefault, "", 1, &tid) != 1 ||
	    pvm_spawn("fidelity", b_args, PvmTaskDefault, "", 1, &tid) != 1) {
		fprintf(stderr, "fidelity: spawn failed\n");
		pvm_exit();
		return 1;
	}
	printf("fidelity: order");
	for (i = 0; i < 2; i++) {
		int k;
		uint32_t sum;

		pvm_recv(-1, TAG_RESULT);
		pvm_upkint(&k, 1, 1);
		pvm_upkuint(&sum, 1, 1);
		printf(" %s=%08x", names[k & 1], (unsigned)sum);
	}
	printf("\n");
	pvm_exit();
	return 0;
}
