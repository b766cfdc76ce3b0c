/*
 * A program whose output depends on when its message handler runs: a master spawns
 * workers (this program with "worker") that each send it notes, taken by a handler
 * installed with pvm_addmhf, and work messages, which the master receives with a
 * wildcard source and answers. It prints the order of the work messages, how many
 * notes the handler had taken at each of them, and the order of the notes. Used to
 * test record and replay of handler deliveries: -x (one extra note from the first
 * worker) and -d (the master deletes its handler half way) change the program, so
 * that a replay of an unchanged run must diverge. With -r the handler answers each
 * note with a token that the worker waits for before it sends its work message: the
 * master's receive of work can then only end after the handler ran.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pvm3.h>

#include "apputil.h"

#define TAG_GO 41
#define TAG_NOTE 42
#define TAG_WORK 43
#define TAG_ACK 44
#define TAG_DONE 45
#define TAG_TOKEN 46

static char notes[1024];
static size_t nnotes;
static int answer; /* -r: the handler answers each note with a token */

static void usage(FILE *f)
{
	fprintf(f, "usage: mhf [-w WORKERS] [-n MESSAGES] [-r] [-x | -d]\n"
		   "Prints the order of the workers' work messages, the notes a message handler\n"
		   "had taken at each, and the order of the notes. -r: the handler answers each\n"
		   "note, and workers wait for the answer before sending work.\n");
}

static void send_int(int tid, int tag, int v)
{
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&v, 1, 1);
	pvm_send(tid, tag);
}

/* The handler: appends the note's sender, and with -r answers it. It may not receive,
 * and does not. */
static int on_note(int mid)
{
	int who = 0, bytes, tag, src;

	pvm_upkint(&who, 1, 1);
	if (nnotes + 1 < sizeof(notes))
		notes[nnotes++] = (char)('a' + who);
	if (answer && pvm_bufinfo(mid, &bytes, &tag, &src) >= 0)
		send_int(src, TAG_TOKEN, who);
	return 0;
}

static int worker(int n, int change, int wait_token)
{
	int parent = pvm_parent(), me = 0, i;

	pvm_recv(parent, TAG_GO);
	pvm_upkint(&me, 1, 1);
	if (me == 0 && change == 'x')
		send_int(parent, TAG_NOTE, me);
	for (i = 0; i < n; i++) {
		send_int(parent, TAG_NOTE, me);
		if (wait_token)
			pvm_recv(parent, TAG_TOKEN);
		send_int(parent, TAG_WORK, me);
		pvm_recv(parent, TAG_ACK);
	}
	send_int(parent, TAG_DONE, me);
	pvm_exit();
	return 0;
}

int main(int argc, char **argv)
{
	int nw = 3, n = 4, c, i, change = 0, mhid, *tids;
	char *order, *seen;

	if (argc > 4 && !strcmp(argv[1], "worker"))
		return worker(atoi(argv[2]), argv[3][0], argv[4][0] == 'r');
	while ((c = getopt(argc, argv, "w:n:rxdh")) != -1) {
		switch (c) {
		case 'r':
			answer = 1;
			break;
		case 'x':
		case 'd':
			change = c;
			break;
		case 'w':
			nw = (int)apputil_parse_num("mhf", optarg, "-w", 1, 26);
			break;
		case 'n':
			n = (int)apputil_parse_num("mhf", optarg, "-n", 1, 30);
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
	seen = calloc((size_t)(nw * n * 3 + 1), 1);
	if (!tids || !order || !seen)
		return 1;
	mhid = pvm_addmhf(-1, TAG_NOTE, pvm_getcontext(), on_note);
	if (mhid < 0) {
		fprintf(stderr, "mhf: pvm_addmhf failed (%d)\n", mhid);
		pvm_exit();
		return 1;
	}
	{
		char num[16], how[2] = {(char)(change ? change : '-'), 0};
		char wait[2] = {answer ? 'r' : '-', 0};
		char *args[] = {"worker", num, how, wait, NULL};

		snprintf(num, sizeof(num), "%d", n);
		if (pvm_spawn("mhf", args, PvmTaskDefault, "", nw, tids) != nw) {
			fprintf(stderr, "mhf: cannot spawn its workers\n");
			pvm_exit();
			return 1;
		}
	}
	for (i = 0; i < nw; i++)
		send_int(tids[i], TAG_GO, i);
	for (i = 0; i < nw * n; i++) {
		int who = 0, b = pvm_recv(-1, TAG_WORK);

		if (b < 0)
			break;
		pvm_upkint(&who, 1, 1);
		order[i] = (char)('a' + who);
		/* How many notes the handler had taken when this work message came. */
		snprintf(seen + strlen(seen), 4, "%s%zu", i ? "," : "", nnotes);
		if (change == 'd' && i == nw * n / 2)
			pvm_delmhf(mhid);
		send_int(tids[who], TAG_ACK, 0);
	}
	/* Each worker's notes come before its DONE (order per pair): after these, every
	 * note has reached the handler. */
	for (i = 0; i < nw; i++)
		pvm_recv(tids[i], TAG_DONE);
	printf("mhf: work=%s seen=%s notes=%s\n", order, seen, notes);
	free(tids);
	free(order);
	free(seen);
	pvm_exit();
	return 0;
}
