/*
 * A race that only virtual time can settle: a master spawns nodes (this program with
 * "node"), hands each its successor, waits for every node's "ready", then sends each
 * node "go" in a loop. A node takes "go" with pvm_recv(-1, -1), sends its number to its
 * successor, then receives its predecessor's number. Unmonitored, "go" to node k leaves
 * the master microseconds after "go" to node k-1, while node k-1's number needs a whole
 * message latency more, so every node's wildcard receive takes "go" first. A node that
 * took its predecessor's number first prints "node K: number before go"; the master
 * prints "order ok" or "order wrong N" (how many nodes took the number first). With
 * -w the nodes take their setup with a wildcard receive too, as election programs do.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pvm3.h>

#include "apputil.h"

#define TAG_SETUP 41
#define TAG_READY 42
#define TAG_GO 43
#define TAG_NUM 44
#define TAG_DONE 45

static int node(int wild)
{
	int parent = pvm_parent(), me = 0, succ = 0, pred_num = -1, tag = 0, len, src, bad;
	int bufid;
	char word[16];

	pvm_recv(wild ? -1 : parent, TAG_SETUP);
	pvm_upkint(&me, 1, 1);
	pvm_upkint(&succ, 1, 1);
	pvm_initsend(PvmDataDefault);
	pvm_send(parent, TAG_READY);
	/* The nondeterministic receive: "go" from the master or the predecessor's number. */
	bufid = pvm_recv(-1, -1);
	pvm_bufinfo(bufid, &len, &tag, &src);
	bad = tag != TAG_GO;
	if (bad) {
		pvm_upkint(&pred_num, 1, 1);
		printf("node %d: number before go\n", me);
		fflush(stdout);
		pvm_recv(parent, TAG_GO);
	}
	pvm_upkstr(word);
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&me, 1, 1);
	pvm_send(succ, TAG_NUM);
	if (!bad)
		pvm_recv(-1, TAG_NUM);
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&bad, 1, 1);
	pvm_send(parent, TAG_DONE);
	pvm_exit();
	return 0;
}

int main(int argc, char **argv)
{
	int n = 6, c, i, wrong = 0, *tids;
	char *args[] = {"node", "0", NULL};

	if (argc > 2 && !strcmp(argv[1], "node"))
		return node(atoi(argv[2]));
	while ((c = getopt(argc, argv, "n:wh")) != -1) {
		switch (c) {
		case 'w':
			args[1] = "1";
			break;
		case 'n':
			n = (int)apputil_parse_num("gorace", optarg, "-n", 2, 32);
			break;
		case 'h':
			printf("usage: gorace [-n NODES] [-w]\nPrints whether every node took \"go\" "
			       "before its predecessor's number.\n");
			return 0;
		default:
			fprintf(stderr, "usage: gorace [-n NODES] [-w]\n");
			return 2;
		}
	}
	tids = calloc((size_t)n, sizeof(*tids));
	if (!tids || pvm_mytid() < 0) {
		fprintf(stderr, "gorace: cannot enrol in PVM\n");
		return 1;
	}
	if (pvm_spawn(argv[0], args, PvmTaskDefault, "", n, tids) != n) {
		fprintf(stderr, "gorace: cannot spawn %d nodes\n", n);
		pvm_exit();
		return 1;
	}
	for (i = 0; i < n; i++) {
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&i, 1, 1);
		pvm_pkint(&tids[(i + 1) % n], 1, 1);
		pvm_send(tids[i], TAG_SETUP);
	}
	for (i = 0; i < n; i++)
		pvm_recv(-1, TAG_READY);
	for (i = 0; i < n; i++) {
		pvm_initsend(PvmDataDefault);
		pvm_pkstr("go");
		pvm_send(tids[i], TAG_GO);
	}
	for (i = 0; i < n; i++) {
		int bad = 0;

		pvm_recv(-1, TAG_DONE);
		pvm_upkint(&bad, 1, 1);
		wrong += bad;
	}
	if (wrong)
		printf("order wrong %d\n", wrong);
	else
		printf("order ok\n");
	free(tids);
	pvm_exit();
	return 0;
}
