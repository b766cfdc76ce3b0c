/*
 * A program whose output depends on the order in which messages arrive: a master
 * spawns workers (this program with "worker") that each send it a few messages, and
 * prints the order it received them in. -m chooses how it receives: pvm_recv with
 * wildcards, polling with pvm_nrecv, or pvm_trecv with a short timeout (it also prints
 * how many times that timed out). Used to test record and replay: -x (one extra
 * message from the first worker) and -t (the first worker's first message with another
 * tag) change the program, so that a replay of an unchanged run must diverge.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include <pvm3.h>

#include "apputil.h"

#define TAG_DATA 31
#define TAG_MORE 32

static void usage(FILE *f)
{
	fprintf(f, "usage: race [-w WORKERS] [-n MESSAGES] [-m recv|nrecv|trecv|recvf] [-x | -t]\n"
		   "Prints the order in which the master received its workers' messages.\n");
}

static int worker(int n, int change)
{
	int parent = pvm_parent(), me = 0, i;

	pvm_recv(parent, TAG_MORE);
	pvm_upkint(&me, 1, 1);
	if (me == 0 && change == 'x') {
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&me, 1, 1);
		pvm_send(parent, TAG_DATA);
	}
	for (i = 0; i < n; i++) {
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&me, 1, 1);
		/* Every other message with the second tag, so wildcard tags matter too. */
		pvm_send(parent, (i % 2 ? TAG_MORE : TAG_DATA) + (me == 0 && change == 't' && i == 0));
	}
	pvm_exit();
	return 0;
}

/* A matcher for pvm_recvf: any message with one of the workers' two data tags in the
 * current context, whatever the receive asked for. */
static int data_only(int mid, int tid, int tag)
{
	struct pvmminfo mi;

	(void)tid;
	(void)tag;
	return pvm_getminfo(mid, &mi) >= 0 && mi.ctx == pvm_getcontext() &&
	       (mi.tag == TAG_DATA || mi.tag == TAG_MORE);
}

int main(int argc, char **argv)
{
	int nw = 3, n = 4, c, i, got = 0, timeouts = 0, polls = 0, *tids;
	const char *mode = "recv";
	char *order;

	int change = 0;

	if (argc > 3 && !strcmp(argv[1], "worker"))
		return worker(atoi(argv[2]), argv[3][0]);
	while ((c = getopt(argc, argv, "w:n:m:xth")) != -1) {
		switch (c) {
		case 'x':
		case 't':
			change = c;
			break;
		case 'w':
			nw = (int)apputil_parse_num("race", optarg, "-w", 1, 32);
			break;
		case 'n':
			n = (int)apputil_parse_num("race", optarg, "-n", 1, 1000);
			break;
		case 'm':
			mode = optarg;
			if (strcmp(mode, "recv") && strcmp(mode, "nrecv") && strcmp(mode, "trecv") &&
			    strcmp(mode, "recvf")) {
				fprintf(stderr,
					"race: -m must be recv, nrecv, trecv or recvf, not '%s'\n",
					mode);
				return 2;
			}
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
	order = calloc((size_t)(nw * n + 1), 1);
	if (!tids || !order)
		return 1;
	{
		char num[16], how[2] = {(char)(change ? change : '-'), 0};
		char *args[] = {"worker", num, how, NULL};

		snprintf(num, sizeof(num), "%d", n);
		if (pvm_spawn("race", args, PvmTaskDefault, "", nw, tids) != nw) {
			fprintf(stderr, "race: cannot spawn its workers\n");
			pvm_exit();
			return 1;
		}
	}
	for (i = 0; i < nw; i++) {
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&i, 1, 1);
		pvm_send(tids[i], TAG_MORE);
	}
	/* recvf: a matcher of the program's own takes the workers' data messages only. */
	if (!strcmp(mode, "recvf"))
		pvm_recvf(data_only);
	while (got < nw * n) {
		int b = 0, who = -1;

		if (!strcmp(mode, "recv") || !strcmp(mode, "recvf")) {
			b = pvm_recv(-1, -1);
		} else if (!strcmp(mode, "nrecv")) {
			b = pvm_nrecv(-1, -1);
			polls += b == 0;
		} else {
			struct timeval tv = {0, 2000};

			b = pvm_trecv(-1, -1, &tv);
			timeouts += b == 0;
		}
		if (b < 0)
			break;
		if (b == 0)
			continue;
		pvm_upkint(&who, 1, 1);
		order[got++] = (char)('a' + who);
	}
	printf("race: mode=%s order=%s%s", mode, order, !strcmp(mode, "trecv") ? "" : "\n");
	if (!strcmp(mode, "trecv"))
		printf(" timeouts=%d\n", timeouts);
	(void)polls;
	free(tids);
	free(order);
	pvm_exit();
	return 0;
}
