/*
 * The critical-path overhead benchmark's load (seed 003 section 4): two tasks that each
 * compute and then exchange a message, at a set message rate per task, for a set time.
 * Usage: cprate RATE SECONDS [BYTES]; the first process spawns its partner (itself
 * with a "partner" argument). Prints the wall time of the exchange loop.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <pvm3.h>

#include "../apps/apputil.h"

#define TAG 77

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Busy work of about us microseconds (apputil's calibration: 586 steps a microsecond). */
static __attribute__((noinline)) uint64_t compute(long us, uint64_t h)
{
	for (long i = 0; i < us * (APPUTIL_ITERS_PER_UNIT / 1000); i++)
		h = APPUTIL_MIX(h, i);
	return h;
}

int main(int argc, char **argv)
{
	int partner = argc > 1 && !strcmp(argv[1], "partner"), peer, n, i;
	long rate, bytes, period_us;
	double seconds, t0;
	char *buf;
	char *args[5];
	uint64_t h = 1;

	if (partner) {
		peer = pvm_parent();
		rate = atol(argv[2]);
		seconds = atof(argv[3]);
		bytes = atol(argv[4]);
	} else {
		if (argc < 3) {
			fprintf(stderr, "usage: cprate RATE SECONDS [BYTES]\n");
			return 2;
		}
		rate = apputil_parse_num("cprate", argv[1], "RATE", 1, 100000);
		seconds = atof(argv[2]);
		bytes = argc > 3 ? apputil_parse_num("cprate", argv[3], "BYTES", 1, 1 << 24) : 480;
		args[0] = "partner";
		args[1] = argv[1];
		args[2] = argv[2];
		args[3] = argc > 3 ? argv[3] : "480";
		args[4] = NULL;
		if (pvm_spawn("cprate", args, PvmTaskDefault, "", 1, &peer) != 1) {
			fprintf(stderr, "cprate: cannot spawn its partner\n");
			pvm_exit();
			return 1;
		}
	}
	if (seconds <= 0 || peer < 0 || bytes <= 0) {
		fprintf(stderr, "cprate: bad arguments\n");
		pvm_exit();
		return 2;
	}
	buf = calloc(1, (size_t)bytes);
	n = (int)(rate * seconds);
	period_us = 1000000 / rate;
	t0 = now_s();
	for (i = 0; i < n && buf; i++) {
		/* Three quarters of each period computing, as in the paper's runs. */
		h = compute(period_us * 3 / 4, h);
		pvm_initsend(PvmDataRaw);
		pvm_pkbyte(buf, (int)bytes, 1);
		if (pvm_send(peer, TAG) < 0 || pvm_recv(peer, TAG) < 0)
			break;
	}
	if (!partner)
		printf("cprate: rate=%ld messages=%d wall_s=%.4f check=%u\n", rate, i, now_s() - t0,
		       APPUTIL_FOLD(h) & 1u);
	free(buf);
	pvm_exit();
	return 0;
}
