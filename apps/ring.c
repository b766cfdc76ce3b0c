/* Task 0 of the ring demo: starts the ring, passes a token round it and prints a checksum. */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <pvm3.h>

#include "apputil.h"
#include "ring.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: ring [-n TASKS] [-r ROUNDS] [-u UNITS]\n"
		   "Passes a token ROUNDS times round a ring of TASKS PVM tasks (this one and\n"
		   "TASKS-1 ring-node tasks); task i (from 0) spends (i+1)*UNITS work units on each\n"
		   "visit of the token; a unit is about 1 ms (defaults: -n 4 -r 10 -u 5).\n");
}

/*
 * Task 0's turn with the token: the same procedure as the nodes' (ring-node.c), so
 * that a profile by procedure name adds both up.
 */
static __attribute__((noinline)) uint32_t ring_work(int index, uint32_t token, long units)
{
	uint64_t h = ((uint64_t)(index + 1) << 32) ^ token;
	long i, n = (long)(index + 1) * units * APPUTIL_ITERS_PER_UNIT;

	for (i = 0; i < n; i++)
		h = APPUTIL_MIX(h, i);
	return APPUTIL_FOLD(h);
}

/* Tells every node its place in the ring and the amounts of work. */
static int setup_nodes(const int *tids, int tasks, int rounds, long units)
{
	int i;

	for (i = 1; i < tasks; i++) {
		int conf[6];

		conf[0] = i;
		conf[1] = tasks;
		conf[2] = rounds;
		conf[3] = (int)units;
		conf[4] = tids[i - 1];
		conf[5] = tids[(i + 1) % tasks];
		pvm_initsend(PvmDataDefault);
		pvm_pkint(conf, 6, 1);
		if (pvm_send(tids[i], RING_TAG_SETUP) < 0)
			return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {{"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
	int tasks = 4, rounds = 10, opt, started, r, i, rc = 1;
	long units = 5;
	unsigned int token = 1;
	int *tids = NULL;

	while ((opt = getopt_long(argc, argv, "n:r:u:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'n': tasks = (int)apputil_parse_num("ring", optarg, "-n", 2, 64); break;
		case 'r': rounds = (int)apputil_parse_num("ring", optarg, "-r", 1, 1000000); break;
		case 'u': units = apputil_parse_num("ring", optarg, "-u", 0, 10000); break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "ring: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	tids = calloc(tasks, sizeof(int));
	if (!tids) {
		fprintf(stderr, "ring: out of memory\n");
		return 1;
	}
	tids[0] = pvm_mytid();
	if (tids[0] < 0) {
		fprintf(stderr, "ring: cannot join PVM (is a pvmd running?)\n");
		free(tids);
		return 1;
	}
	started = pvm_spawn("ring-node", NULL, PvmTaskDefault, "", tasks - 1, tids + 1);
	if (started < tasks - 1) {
		fprintf(stderr, "ring: could only start %d of %d ring-node tasks\n",
			started < 0 ? 0 : started, tasks - 1);
		for (i = 1; i <= (started > 0 ? started : 0); i++)
			pvm_kill(tids[i]);
		goto out;
	}
	if (setup_nodes(tids, tasks, rounds, units) < 0) {
		fprintf(stderr, "ring: cannot send the set-up to the ring nodes\n");
		goto kill;
	}
	/* Each round starts here: task 0 works, sends the token on, and the round ends
	 * when the token comes back from the last node. Only one task works at a time. */
	for (r = 0; r < rounds; r++) {
		int round = r;

		token = ring_work(0, token, units);
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&round, 1, 1);
		pvm_pkuint(&token, 1, 1);
		if (pvm_send(tids[1], RING_TAG_TOKEN) < 0) {
			fprintf(stderr, "ring: cannot send the token in round %d\n", r + 1);
			goto kill;
		}
		if (pvm_recv(tids[tasks - 1], RING_TAG_TOKEN) < 0) {
			fprintf(stderr, "ring: cannot receive the token in round %d\n", r + 1);
			goto kill;
		}
		pvm_upkint(&round, 1, 1);
		pvm_upkuint(&token, 1, 1);
		if (round != r) {
			fprintf(stderr, "ring: token of round %d came back in round %d\n", round + 1,
				r + 1);
			goto kill;
		}
	}
	printf("ring: tasks=%d rounds=%d units=%ld checksum=%08x\n", tasks, rounds, units, token);
	rc = 0;
	goto out;
kill:
	for (i = 1; i < tasks; i++)
		pvm_kill(tids[i]);
out:
	free(tids);
	pvm_exit();
	return rc;
}
