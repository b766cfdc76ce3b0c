/* Source of the pipeline demo: feeds items through a chain of stages of growing cost. */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <pvm3.h>

#include "apputil.h"
#include "pipeline.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: pipeline [-s STAGES] [-m ITEMS] [-u UNITS] [-p UNITS] [-c UNITS]\n"
		   "Sends ITEMS items through a chain of STAGES PVM tasks (pipeline-stage); stage i\n"
		   "(from 0) spends (i+1)*UNITS work units on each item, the source spends -p units\n"
		   "producing each item and -c units consuming the results; a unit is about 1 ms\n"
		   "(defaults: -s 3 -m 20 -u 5 -p 1 -c 5).\n");
}

/* Makes the value of one item; its cost is the same for every item. */
static __attribute__((noinline)) uint32_t produce(int item, long units)
{
	uint64_t h = 0x243f6a8885a308d3ull ^ (uint64_t)item;
	long i, n = units * APPUTIL_ITERS_PER_UNIT;

	for (i = 0; i < n; i++)
		h = APPUTIL_MIX(h, i);
	return APPUTIL_FOLD(h);
}

/*
 * Combines the results in item order, then spends its fixed cost; the order is the
 * items' and not that of arrival, so the checksum never depends on timing.
 */
static __attribute__((noinline)) uint32_t consume(const uint32_t *results, int items, long units)
{
	uint64_t h = 0x13198a2e03707344ull;
	long i, n = units * APPUTIL_ITERS_PER_UNIT;

	for (i = 0; i < items; i++)
		h = APPUTIL_MIX(h ^ results[i], i);
	for (i = 0; i < n; i++)
		h = APPUTIL_MIX(h, i);
	return APPUTIL_FOLD(h);
}

/* Tells every stage its place in the chain and the amounts of work. */
static int setup_stages(const int *tids, int stages, int items, long units, int me)
{
	int s;

	for (s = 0; s < stages; s++) {
		int conf[6];

		conf[0] = s;
		conf[1] = stages;
		conf[2] = items;
		conf[3] = (int)units;
		conf[4] = s == 0 ? me : tids[s - 1];
		conf[5] = s == stages - 1 ? me : tids[s + 1];
		pvm_initsend(PvmDataDefault);
		pvm_pkint(conf, 6, 1);
		if (pvm_send(tids[s], PIPE_TAG_SETUP) < 0)
			return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {{"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
	int stages = 3, items = 20, opt, started, i, me, rc = 1;
	long units = 5, punits = 1, cunits = 5;
	int *tids = NULL;
	uint32_t *results = NULL;

	while ((opt = getopt_long(argc, argv, "s:m:u:p:c:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 's': stages = (int)apputil_parse_num("pipeline", optarg, "-s", 1, 64); break;
		case 'm': items = (int)apputil_parse_num("pipeline", optarg, "-m", 1, 100000); break;
		case 'u': units = apputil_parse_num("pipeline", optarg, "-u", 0, 10000); break;
		case 'p': punits = apputil_parse_num("pipeline", optarg, "-p", 0, 10000); break;
		case 'c': cunits = apputil_parse_num("pipeline", optarg, "-c", 0, 100000); break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "pipeline: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	me = pvm_mytid();
	if (me < 0) {
		fprintf(stderr, "pipeline: cannot join PVM (is a pvmd running?)\n");
		return 1;
	}
	tids = calloc(stages, sizeof(int));
	results = calloc(items, sizeof(uint32_t));
	if (!tids || !results) {
		fprintf(stderr, "pipeline: out of memory\n");
		goto out;
	}
	started = pvm_spawn("pipeline-stage", NULL, PvmTaskDefault, "", stages, tids);
	if (started < stages) {
		fprintf(stderr, "pipeline: could only start %d of %d pipeline-stage tasks\n",
			started < 0 ? 0 : started, stages);
		for (i = 0; i < (started > 0 ? started : 0); i++)
			pvm_kill(tids[i]);
		goto out;
	}
	if (setup_stages(tids, stages, items, units, me) < 0) {
		fprintf(stderr, "pipeline: cannot send the set-up to the stages\n");
		goto kill;
	}
	/* Items go out as soon as they are made, so the stages work while the source
	 * still produces: the chain runs at the pace of its slowest stage. */
	for (i = 0; i < items; i++) {
		int item = i;
		unsigned int value = produce(i, punits);

		pvm_initsend(PvmDataDefault);
		pvm_pkint(&item, 1, 1);
		pvm_pkuint(&value, 1, 1);
		if (pvm_send(tids[0], PIPE_TAG_ITEM) < 0) {
			fprintf(stderr, "pipeline: cannot send item %d to the first stage\n", i);
			goto kill;
		}
	}
	/* PVM keeps the order of messages between two tasks, so results come back in item
	 * order; the item number is still checked. */
	for (i = 0; i < items; i++) {
		int item = -1;
		unsigned int value = 0;

		if (pvm_recv(tids[stages - 1], PIPE_TAG_RESULT) < 0) {
			fprintf(stderr, "pipeline: cannot receive result %d from the last stage\n", i);
			goto kill;
		}
		pvm_upkint(&item, 1, 1);
		pvm_upkuint(&value, 1, 1);
		if (item != i) {
			fprintf(stderr, "pipeline: expected the result of item %d, got %d\n", i, item);
			goto kill;
		}
		results[i] = value;
	}
	printf("pipeline: stages=%d items=%d units=%ld produce=%ld consume=%ld checksum=%08x\n",
	       stages, items, units, punits, cunits, (unsigned)consume(results, items, cunits));
	rc = 0;
	goto out;
kill:
	for (i = 0; i < stages; i++)
		pvm_kill(tids[i]);
out:
	free(tids);
	free(results);
	pvm_exit();
	return rc;
}
