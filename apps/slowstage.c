/*
 * A pipeline with one slow stage, for the wait analysis: a master sends ROUNDS items
 * through STAGES stages (this program with "stage K") and takes them back from the last.
 * Every stage works BASE ms on an item (asleep: the answer does not depend on the
 * processors), and stage 0 also spends EXTRA ms in its procedure slow_part, so that
 * every later stage waits for it, stage 1 directly and the others through the stages
 * before them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <pvm3.h>

#include "apputil.h"

#define TAG_NEXT 71
#define TAG_ITEM 72
#define MAX_STAGES 16

static void nap_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000};

	nanosleep(&ts, NULL);
}

void slow_part(long ms) { nap_ms(ms); }

void stage_work(long ms) { nap_ms(ms); }

static int stage(int k)
{
	int parent = pvm_parent(), info[4], next, rounds, item;
	long base, extra;

	pvm_recv(parent, TAG_NEXT);
	pvm_upkint(info, 4, 1);
	next = info[0];
	rounds = info[1];
	base = info[2];
	extra = info[3];
	for (int r = 0; r < rounds; r++) {
		pvm_recv(-1, TAG_ITEM);
		pvm_upkint(&item, 1, 1);
		stage_work(base);
		if (k == 0)
			slow_part(extra);
		item += 1;
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&item, 1, 1);
		pvm_send(next, TAG_ITEM);
	}
	pvm_exit();
	return 0;
}

int main(int argc, char **argv)
{
	int stages = 4, rounds = 20, opt, tids[MAX_STAGES], sum = 0, item;
	long base = 2, extra = 6;
	char *sargv[3], kbuf[16];

	if (argc == 3 && !strcmp(argv[1], "stage"))
		return stage(atoi(argv[2]));
	while ((opt = getopt(argc, argv, "s:r:b:x:h")) != -1) {
		switch (opt) {
		case 's':
			stages = (int)apputil_parse_num("slowstage", optarg, "-s (stages)", 1, MAX_STAGES);
			break;
		case 'r':
			rounds = (int)apputil_parse_num("slowstage", optarg, "-r (rounds)", 1, 100000);
			break;
		case 'b':
			base = apputil_parse_num("slowstage", optarg, "-b (ms a stage)", 0, 10000);
			break;
		case 'x':
			extra = apputil_parse_num("slowstage", optarg, "-x (stage 0's extra ms)", 0, 10000);
			break;
		default:
			fprintf(opt == 'h' ? stdout : stderr,
			        "usage: slowstage [-s STAGES] [-r ROUNDS] [-b MS] [-x MS]\n"
			        "Sends ROUNDS items through STAGES stages; each stage sleeps MS ms an "
			        "item,\nstage 0 -x ms more in slow_part (defaults: -s 4 -r 20 -b 2 -x 6).\n");
			return opt == 'h' ? 0 : 2;
		}
	}
	if (pvm_mytid() < 0)
		return 1;
	for (int k = 0; k < stages; k++) {
		snprintf(kbuf, sizeof(kbuf), "%d", k);
		sargv[0] = "stage";
		sargv[1] = kbuf;
		sargv[2] = NULL;
		if (pvm_spawn(argv[0], sargv, PvmTaskDefault, NULL, 1, &tids[k]) != 1) {
			fprintf(stderr, "slowstage: cannot spawn stage %d\n", k);
			pvm_exit();
			return 1;
		}
	}
	for (int k = 0; k < stages; k++) {
		int info[4] = {k + 1 < stages ? tids[k + 1] : pvm_mytid(), rounds, (int)base,
		               (int)extra};

		pvm_initsend(PvmDataDefault);
		pvm_pkint(info, 4, 1);
		pvm_send(tids[k], TAG_NEXT);
	}
	/* All items go in at once; the stages pass them on as fast as they can. */
	for (int r = 0; r < rounds; r++) {
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&r, 1, 1);
		pvm_send(tids[0], TAG_ITEM);
	}
	for (int r = 0; r < rounds; r++) {
		pvm_recv(-1, TAG_ITEM);
		pvm_upkint(&item, 1, 1);
		sum += item;
	}
	printf("slowstage: %d items, sum %d\n", rounds, sum);
	pvm_exit();
	return 0;
}
