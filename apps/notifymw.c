/*
 * A manager/worker program that takes its workers' results and pvmd's exit notices
 * with one receive: the manager spawns workers (this program with "worker"), asks
 * pvm_notify(PvmTaskExit) for them with the results' tag, hands out problems one at a
 * time as results come back with pvm_recv(-1, tag), then tells the workers to stop
 * and counts their exit notices on the same receive. It prints the sum of the results
 * and the exits seen, which are the same in every run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pvm3.h>

#include "apputil.h"

#define TAG_WORK 61
#define TAG_RESULT 62

static void usage(FILE *f)
{
	fprintf(f, "usage: notifymw [-w WORKERS] [-n PROBLEMS]\n"
		   "Hands out problems to workers and takes their results and exit notices\n"
		   "with one pvm_recv(-1, tag); prints the results' sum and the exits.\n");
}

/* A problem is a number; its result a few mixing steps of it, so each costs little.
 * Workers take their problems from any source, as many programs do. */
static int worker(void)
{
	int parent = pvm_parent(), p;

	for (;;) {
		uint64_t h;

		pvm_recv(-1, TAG_WORK);
		pvm_upkint(&p, 1, 1);
		if (p < 0)
			break;
		h = (uint64_t)p;
		for (int i = 0; i < 64; i++)
			h = APPUTIL_MIX(h, i);
		p = (int)(APPUTIL_FOLD(h) & 0xffff);
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&p, 1, 1);
		pvm_send(parent, TAG_RESULT);
	}
	pvm_exit();
	return 0;
}

static void give(int tid, int p)
{
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&p, 1, 1);
	pvm_send(tid, TAG_WORK);
}

int main(int argc, char **argv)
{
	int nw = 4, n = 2000, c, i, *tids, next = 0, done = 0, exits = 0;
	long long sum = 0;
	char *args[] = {"worker", NULL};

	if (argc > 1 && !strcmp(argv[1], "worker"))
		return worker();
	while ((c = getopt(argc, argv, "w:n:h")) != -1) {
		switch (c) {
		case 'w':
			nw = (int)apputil_parse_num("notifymw", optarg, "-w", 1, 64);
			break;
		case 'n':
			n = (int)apputil_parse_num("notifymw", optarg, "-n", 1, 10000000);
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	tids = calloc((size_t)nw, sizeof(*tids));
	if (!tids)
		return 1;
	if (pvm_spawn("notifymw", args, PvmTaskDefault, "", nw, tids) != nw) {
		fprintf(stderr, "notifymw: cannot spawn its workers\n");
		pvm_exit();
		return 1;
	}
	pvm_notify(PvmTaskExit, TAG_RESULT, nw, tids);
	for (i = 0; i < nw; i++)
		give(tids[i], next < n ? next++ : -1);
	/* Results and exit notices on one receive: a notice comes from pvmd, not from a
	 * worker, and carries the ended worker's tid. */
	while (done < n || exits < nw) {
		int src = 0, tag, bytes, v = 0, w = -1, b = pvm_recv(-1, TAG_RESULT);

		if (b < 0)
			break;
		pvm_bufinfo(b, &bytes, &tag, &src);
		pvm_upkint(&v, 1, 1);
		for (i = 0; i < nw; i++)
			if (src == tids[i])
				w = i;
		if (w < 0) {
			exits++;
			continue;
		}
		sum += v;
		done++;
		give(src, next < n ? next++ : -1);
	}
	printf("notifymw: %d results, sum %lld, %d exits\n", done, sum, exits);
	free(tids);
	pvm_exit();
	return 0;
}
