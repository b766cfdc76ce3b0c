/* Master of the flood load demo: many workers pass many messages round a ring; checks them all. */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <pvm3.h>

#include "flood.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: flood [-w WORKERS] [-m MESSAGES]\n"
		   "Spawns WORKERS flood-worker tasks in a ring that pass MESSAGES small messages\n"
		   "between them, each to its right neighbour in lock step; checks what every worker\n"
		   "received and prints a checksum, then the largest peak RSS of the workers and\n"
		   "this task's own (defaults: -w 128 -m 100000).\n");
}

/* What worker index must have received: its left neighbour's values, in order. */
static uint32_t expected_hash(long total, int workers, int index)
{
	int left = (index + workers - 1) % workers, n = flood_count(total, workers, left), r;
	uint32_t hash = 0;

	for (r = 0; r < n; r++)
		hash = flood_hash(hash, flood_value(left, r));
	return hash;
}

/* Tells every worker its place in the ring and how many messages go each way. */
static int setup_workers(const int *tids, int workers, long total)
{
	int i;

	for (i = 0; i < workers; i++) {
		int left = (i + workers - 1) % workers, conf[6];

		conf[0] = i;
		conf[1] = workers;
		conf[2] = flood_count(total, workers, i);
		conf[3] = flood_count(total, workers, left);
		conf[4] = tids[left];
		conf[5] = tids[(i + 1) % workers];
		pvm_initsend(PvmDataDefault);
		pvm_pkint(conf, 6, 1);
		if (pvm_send(tids[i], FLOOD_TAG_SETUP) < 0)
			return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {{"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
	int workers = 128, opt, started, i, rc = 1, max_worker = -1;
	long total = 100000, max_rss = -1;
	uint32_t checksum = 0;
	int *tids = NULL;

	while ((opt = getopt_long(argc, argv, "w:m:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'w': workers = (int)apputil_parse_num("flood", optarg, "-w", 2, 4096); break;
		/* Each worker's count must fit PVM's int. */
		case 'm': total = apputil_parse_num("flood", optarg, "-m", 0, 1000000000L); break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "flood: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	if (pvm_mytid() < 0) {
		fprintf(stderr, "flood: cannot join PVM (is a pvmd running?)\n");
		return 1;
	}
	tids = calloc(workers, sizeof(int));
	if (!tids) {
		fprintf(stderr, "flood: out of memory\n");
		goto out;
	}
	started = pvm_spawn("flood-worker", NULL, PvmTaskDefault, "", workers, tids);
	if (started < workers) {
		/* PVM puts the error code of each task it could not start in its slot: the
		 * first one says which limit was hit. */
		int err = 0;

		for (i = 0; i < workers && !err; i++)
			if (tids[i] < 0)
				err = tids[i];
		fprintf(stderr, "flood: could only start %d of %d flood-worker tasks (PVM error %d)\n",
			started < 0 ? 0 : started, workers, started < 0 ? started : err);
		for (i = 0; i < workers; i++)
			if (tids[i] > 0)
				pvm_kill(tids[i]);
		goto out;
	}
	if (setup_workers(tids, workers, total) < 0) {
		fprintf(stderr, "flood: cannot send the set-up to the workers\n");
		goto kill;
	}
	/* The results are taken in worker order, so the run's output never depends on the
	 * order in which the workers finish. */
	for (i = 0; i < workers; i++) {
		int res[4], count = flood_count(total, workers, (i + workers - 1) % workers);
		uint32_t hash = expected_hash(total, workers, i);

		if (pvm_recv(tids[i], FLOOD_TAG_RESULT) < 0) {
			fprintf(stderr, "flood: cannot receive the result of worker %d\n", i);
			goto kill;
		}
		pvm_upkint(res, 4, 1);
		if (res[0] != i || res[1] != count || (uint32_t)res[2] != hash) {
			fprintf(stderr, "flood: worker %d received %d messages with hash %08x, "
					"expected %d with hash %08x\n",
				i, res[1], (uint32_t)res[2], count, hash);
			goto kill;
		}
		checksum = flood_hash(checksum, (uint32_t)res[2]);
		if (res[3] > max_rss) {
			max_rss = res[3];
			max_worker = i;
		}
	}
	printf("flood: workers=%d messages=%ld checksum=%08x ok\n", workers, total, checksum);
	printf("flood: peak-rss-kb workers-max=%ld (worker %d) master=%ld\n", max_rss, max_worker,
	       flood_peak_rss_kb());
	rc = 0;
	goto out;
kill:
	for (i = 0; i < workers; i++)
		pvm_kill(tids[i]);
out:
	free(tids);
	pvm_exit();
	return rc;
}
