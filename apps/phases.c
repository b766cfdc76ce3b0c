/*
 * A program of three phases, for time histograms: the master spawns three workers
 * (this program with "worker N SCALE"); together they compute (phase 1), then, once all
 * have, exchange small messages with the master in a tight ping-pong (phase 2), then
 * compute again while worker 0 computes three times as long (phase 3), which the master
 * and the other workers wait for. SCALE (default 1, about 20 ms in all on an idle
 * machine) multiplies every phase's length, so a run SCALE times longer has the same
 * shape. With "idle" after SCALE the compute phases sleep instead (0.5 ms a tenth of a
 * unit, so that the exchange's own work is a few thousandths of the computing), so
 * that their lengths, and the run's load balance (1/2: the master computes nothing,
 * worker 0 twice what the others do), do not depend on the processors.
 *
 * usage: phases [SCALE [idle]]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <pvm3.h>

#include "apputil.h"

#define NWORKERS 3
#define TAG_PING 81
#define TAG_PONG 82
#define TAG_DONE 83
#define TAG_GO 84
#define TAG_READY 85
/* Work in tenths of a unit (about 0.1 ms each), and the exchange's round trips. */
#define COMPUTE_TENTHS 30
#define SLOW_FACTOR 3
#define ROUNDS 50

static volatile uint32_t sink;

/* Busy work of n tenths of a unit (counted in steps, never timed). */
static uint32_t compute(long tenths)
{
	uint64_t h = 1;

	for (long i = 0; i < tenths * (APPUTIL_ITERS_PER_UNIT / 10); i++)
		h = APPUTIL_MIX(h, i);
	return APPUTIL_FOLD(h);
}

/* The compute phases sleep instead ("idle"). */
static int asleep;

static void phase_compute(long tenths)
{
	if (asleep) {
		struct timespec ts = {tenths / 2000, (tenths % 2000) * 500000L};

		while (nanosleep(&ts, &ts) != 0)
			;
		return;
	}
	sink += compute(tenths);
}

/* Round trips of one int with the master. */
static void phase_exchange(int master, long rounds)
{
	int v = 0;

	for (long r = 0; r < rounds; r++) {
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&v, 1, 1);
		pvm_send(master, TAG_PING);
		pvm_recv(master, TAG_PONG);
		pvm_upkint(&v, 1, 1);
	}
}

static int worker(int me, long scale)
{
	int master = pvm_parent();

	/* All start phase 1 together, once the master has spawned every worker. */
	pvm_recv(master, TAG_GO);
	phase_compute(COMPUTE_TENTHS * scale);
	/* And the exchange together, once all have computed (two CPUs for three workers
	 * let one finish well before another). */
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&me, 1, 1);
	pvm_send(master, TAG_READY);
	pvm_recv(master, TAG_GO);
	phase_exchange(master, ROUNDS * scale);
	phase_compute(COMPUTE_TENTHS * scale * (me == 0 ? SLOW_FACTOR : 1));
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&me, 1, 1);
	pvm_send(master, TAG_DONE);
	pvm_exit();
	return 0;
}

/* Answers every worker's pings (phase 2), each round in the workers' order: receives
 * from a named task, so the run's replay record does not grow with its length. */
static void serve(const int *tids, long rounds)
{
	int v;

	for (long n = 0; n < rounds; n++)
		for (int w = 0; w < NWORKERS; w++) {
			pvm_recv(tids[w], TAG_PING);
			pvm_upkint(&v, 1, 1);
			v++;
			pvm_initsend(PvmDataDefault);
			pvm_pkint(&v, 1, 1);
			pvm_send(tids[w], TAG_PONG);
		}
}

int main(int argc, char **argv)
{
	int tids[NWORKERS], done = 0, me;
	long scale = 1;
	char num[2][24];

	if (argc >= 4 && !strcmp(argv[1], "worker")) {
		/* One call a statement: pvmmon-cc notes the line of each. */
		me = (int)apputil_parse_num("phases", argv[2], "worker", 0, NWORKERS - 1);
		scale = apputil_parse_num("phases", argv[3], "scale", 1, 100000);
		asleep = argc >= 5 && !strcmp(argv[4], "idle");
		return worker(me, scale);
	}
	if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		printf("usage: phases [SCALE [idle]]\nThree phases: compute, a ping-pong with the "
		       "master, compute with worker 0 three times as long;\nSCALE multiplies "
		       "them; with idle the compute phases sleep.\n");
		return 0;
	}
	if (argc >= 2)
		scale = apputil_parse_num("phases", argv[1], "scale", 1, 100000);
	if (argc >= 3 && strcmp(argv[2], "idle")) {
		fprintf(stderr, "phases: '%s' is not \"idle\"\nusage: phases [SCALE [idle]]\n",
		        argv[2]);
		return 2;
	}
	asleep = argc >= 3;
	if (pvm_mytid() < 0)
		return 1;
	snprintf(num[1], sizeof(num[1]), "%ld", scale);
	for (int i = 0; i < NWORKERS; i++) {
		snprintf(num[0], sizeof(num[0]), "%d", i);
		if (pvm_spawn(argv[0], (char *[]){"worker", num[0], num[1], asleep ? "idle" : NULL, NULL},
		              PvmTaskDefault, "", 1, &tids[i]) != 1) {
			fprintf(stderr, "phases: cannot spawn worker %d\n", i);
			pvm_exit();
			return 1;
		}
	}
	pvm_initsend(PvmDataDefault);
	pvm_mcast(tids, NWORKERS, TAG_GO);
	for (int i = 0; i < NWORKERS; i++)
		pvm_recv(-1, TAG_READY);
	pvm_initsend(PvmDataDefault);
	pvm_mcast(tids, NWORKERS, TAG_GO);
	serve(tids, ROUNDS * scale);
	for (; done < NWORKERS; done++) {
		pvm_recv(-1, TAG_DONE);
		pvm_upkint(&me, 1, 1);
	}
	printf("phases: %d workers, scale %ld, done\n", done, scale);
	pvm_exit();
	return 0;
}
