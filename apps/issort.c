/* Master of the issort demo: an integer sort shaped like NAS IS, with a sequential start. */
/*
 * The master makes the keys alone (create_seq, -c units), hands each of W workers a
 * range of them to count by key (do_rank in issort-worker, -d units each, run in
 * parallel), then sums the counts and checks the sort (verify, -v units). Like NAS IS
 * in Hollingsworth's critical-path paper, the sequential create_seq weighs much more on
 * the run's length than on its CPU time. With the defaults (150, 3 x 60 and 5 units,
 * a unit about 1 ms):
 *   CPU time, summed over the tasks: 150 + 180 + 5 = 335 units;
 *     create_seq 150/335 = 45%, do_rank 180/335 = 54%, verify 5/335 = 1.5%.
 *   Critical path: create_seq, one worker's do_rank, verify = 150 + 60 + 5 = 215 units;
 *     create_seq 150/215 = 70%, do_rank 60/215 = 28%, verify 5/215 = 2.3%.
 * Messages and start-up add a few ms to both. On a machine with fewer CPUs than
 * workers the do_rank calls share CPUs and take longer in wall-clock time: measured
 * on 2 CPUs with pvmmon-cc and -O2, create_seq took 151 ms, verify 6-7 ms and the three
 * do_rank calls 60, 90 and 92-105 ms, so create_seq was about 37% of the summed busy
 * time and about 58% of the path; with -w 2 on 2 CPUs each do_rank took 60 ms.
 */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <pvm3.h>

#include "apputil.h"
#include "issort.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: issort [-w WORKERS] [-k KEYS] [-c UNITS] [-d UNITS] [-v UNITS]\n"
		   "Sorts KEYS integer keys from 0 to %d like NAS IS: this task makes the keys\n"
		   "alone (-c work units), WORKERS PVM tasks (issort-worker) count their share\n"
		   "of them by key in parallel (-d units each), and this task sums the counts and\n"
		   "checks the sort (-v units); a unit is about 1 ms\n"
		   "(defaults: -w 3 -k 65536 -c 150 -d 60 -v 5).\n",
		ISSORT_MAX_KEY - 1);
}

/*
 * Makes the keys, sequentially: a fixed amount of busy work, whose result seeds the
 * generator of the keys so that the work is needed for the output.
 */
static __attribute__((noinline)) void create_seq(int *keys, int nkeys, long units)
{
	uint64_t h = 0x452821e638d01377ull;
	long i, n = units * APPUTIL_ITERS_PER_UNIT;

	for (i = 0; i < n; i++)
		h = APPUTIL_MIX(h, i);
	for (i = 0; i < nkeys; i++) {
		h = APPUTIL_MIX(h, i);
		keys[i] = (int)((h >> 40) % ISSORT_MAX_KEY);
	}
}

/*
 * Turns the summed counts into each key's first rank, places every key by it, and
 * checks that the result is sorted and complete; returns a checksum of the sorted keys
 * mixed with a fixed amount of busy work, or -1 when the sort is wrong.
 */
static __attribute__((noinline)) long verify(const int *keys, int nkeys, const long *counts,
					     int *sorted, long units)
{
	long rank[ISSORT_MAX_KEY], total = 0, i, n = units * APPUTIL_ITERS_PER_UNIT;
	uint64_t h = 0xbe5466cf34e90c6cull;

	for (i = 0; i < ISSORT_MAX_KEY; i++) {
		rank[i] = total;
		total += counts[i];
	}
	if (total != nkeys)
		return -1;
	for (i = 0; i < nkeys; i++)
		sorted[rank[keys[i]]++] = keys[i];
	for (i = 0; i < nkeys; i++) {
		if (i > 0 && sorted[i - 1] > sorted[i])
			return -1;
		h = APPUTIL_MIX(h ^ (uint64_t)sorted[i], i);
	}
	for (i = 0; i < n; i++)
		h = APPUTIL_MIX(h, i);
	return (long)APPUTIL_FOLD(h);
}

/* Sends worker w its range of the keys; the ranges differ by one key at most. */
static int distribute(const int *tids, int nw, const int *keys, int nkeys, long rank_units)
{
	int w;

	for (w = 0; w < nw; w++) {
		int lo = (int)((long)nkeys * w / nw), hi = (int)((long)nkeys * (w + 1) / nw);
		int head[2];

		head[0] = (int)rank_units;
		head[1] = hi - lo;
		pvm_initsend(PvmDataDefault);
		pvm_pkint(head, 2, 1);
		pvm_pkint((int *)keys + lo, hi - lo, 1);
		if (pvm_send(tids[w], ISSORT_TAG_KEYS) < 0)
			return -1;
	}
	return 0;
}

/*
 * Adds up the workers' counts, taking the workers in a fixed order (each receive names
 * its worker) so that the mix of their work hashes never depends on who finished first.
 */
static int collect(const int *tids, int nw, long *counts, uint64_t *mix)
{
	int w, k, part[ISSORT_MAX_KEY];

	for (w = 0; w < nw; w++) {
		unsigned int hash = 0;

		if (pvm_recv(tids[w], ISSORT_TAG_COUNTS) < 0)
			return -1;
		pvm_upkint(part, ISSORT_MAX_KEY, 1);
		pvm_upkuint(&hash, 1, 1);
		for (k = 0; k < ISSORT_MAX_KEY; k++)
			counts[k] += part[k];
		*mix = APPUTIL_MIX(*mix ^ hash, w);
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {{"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
	int nw = 3, nkeys = 65536, opt, started, i, rc = 1;
	long cunits = 150, dunits = 60, vunits = 5, check;
	static long counts[ISSORT_MAX_KEY];
	uint64_t mix = 0;
	int *tids = NULL, *keys = NULL, *sorted = NULL;

	while ((opt = getopt_long(argc, argv, "w:k:c:d:v:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'w': nw = (int)apputil_parse_num("issort", optarg, "-w", 1, 64); break;
		case 'k': nkeys = (int)apputil_parse_num("issort", optarg, "-k", 1, 1 << 24); break;
		case 'c': cunits = apputil_parse_num("issort", optarg, "-c", 0, 100000); break;
		case 'd': dunits = apputil_parse_num("issort", optarg, "-d", 0, 100000); break;
		case 'v': vunits = apputil_parse_num("issort", optarg, "-v", 0, 100000); break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "issort: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	if (pvm_mytid() < 0) {
		fprintf(stderr, "issort: cannot join PVM (is a pvmd running?)\n");
		return 1;
	}
	tids = calloc(nw, sizeof(int));
	keys = malloc(sizeof(int) * nkeys);
	sorted = malloc(sizeof(int) * nkeys);
	if (!tids || !keys || !sorted) {
		fprintf(stderr, "issort: out of memory\n");
		goto out;
	}
	/* The workers are started first, but they have nothing to do until the keys exist:
	 * create_seq is the sequential part of the run. */
	started = pvm_spawn("issort-worker", NULL, PvmTaskDefault, "", nw, tids);
	if (started < nw) {
		fprintf(stderr, "issort: could only start %d of %d issort-worker tasks\n",
			started < 0 ? 0 : started, nw);
		for (i = 0; i < (started > 0 ? started : 0); i++)
			pvm_kill(tids[i]);
		goto out;
	}
	/* Waiting until every worker has started keeps their start-up (loading, joining
	 * PVM) from sharing the CPUs with create_seq and stretching it. */
	for (i = 0; i < nw; i++)
		if (pvm_recv(tids[i], ISSORT_TAG_READY) < 0) {
			fprintf(stderr, "issort: worker %d did not report in\n", i);
			goto kill;
		}
	create_seq(keys, nkeys, cunits);
	if (distribute(tids, nw, keys, nkeys, dunits) < 0) {
		fprintf(stderr, "issort: cannot send the keys to the workers\n");
		goto kill;
	}
	if (collect(tids, nw, counts, &mix) < 0) {
		fprintf(stderr, "issort: cannot receive the counts from the workers\n");
		goto kill;
	}
	check = verify(keys, nkeys, counts, sorted, vunits);
	if (check < 0) {
		fprintf(stderr, "issort: verification failed: the counts do not sort the keys\n");
		goto out;
	}
	printf("issort: workers=%d keys=%d create=%ld rank=%ld verify=%ld checksum=%08x\n", nw,
	       nkeys, cunits, dunits, vunits, (unsigned)APPUTIL_FOLD(mix ^ (uint64_t)check));
	rc = 0;
	goto out;
kill:
	for (i = 0; i < nw; i++)
		pvm_kill(tids[i]);
out:
	free(tids);
	free(keys);
	free(sorted);
	pvm_exit();
	return rc;
}
