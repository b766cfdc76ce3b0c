/* Master of the dies demo: one worker makes its sends and then dies (or waits for
 * ever); the master receives them all and learns of the worker's end by pvm_notify. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pvm3.h>

#include "dies.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: dies [-n SENDS] [-s segv|abort|kill|wait|poll|exit|handled] [-p] [-x]\n"
	           "            [-H HOST]\n"
	           "Starts one dies-worker, which sends SENDS messages to the master (paced to\n"
	           "one a millisecond with -p) and then faults (segv; handled: with its own\n"
	           "SIGSEGV handler, which exits 3), calls abort(), kills\n"
	           "itself with SIGKILL, or waits for a message that never comes, blocked in\n"
	           "pvm_recv (wait) or polling with pvm_trecv (poll), and the master waits for\n"
	           "ever too; otherwise the master receives every message and ends when pvmd\n"
	           "tells it that the worker has ended (defaults: -n 10000 -s segv). With -x\n"
	           "the master itself faults once it has answered the worker. -H starts the\n"
	           "worker on HOST.\n");
}

int main(int argc, char **argv)
{
	static const char *const hows[] = {"segv", "abort", "kill",   "wait",
	                                   "poll", "exit",  "handled"};
	int msg[3] = {10000, DIES_SEGV, 0}, opt, tid, i, got = 0, fault = 0;
	char *where = NULL, *handled[] = {"handled", NULL};

	while ((opt = getopt(argc, argv, "n:s:pxH:h")) != -1) {
		switch (opt) {
		case 'n':
			msg[0] = atoi(optarg);
			break;
		case 's':
			for (msg[1] = 0; msg[1] < 7 && strcmp(optarg, hows[msg[1]]); msg[1]++)
				;
			if (msg[1] == 7) {
				usage(stderr);
				return 2;
			}
			break;
		case 'H':
			where = optarg;
			break;
		case 'x':
			fault = 1;
			break;
		case 'p':
			msg[2] = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (pvm_mytid() < 0) {
		fprintf(stderr, "dies: cannot join PVM (is a pvmd running?)\n");
		return 1;
	}
	if (pvm_spawn("dies-worker", msg[1] == DIES_HANDLED ? handled : NULL,
	              where ? PvmTaskHost : PvmTaskDefault, where ? where : "", 1, &tid) != 1) {
		fprintf(stderr, "dies: cannot start dies-worker\n");
		pvm_exit();
		return 1;
	}
	pvm_notify(PvmTaskExit, DIES_TAG_EXIT, 1, &tid);
	pvm_initsend(PvmDataDefault);
	pvm_pkint(msg, 3, 1);
	pvm_send(tid, DIES_TAG_WORK);
	for (i = 0; i < msg[0]; i++)
		if (pvm_recv(tid, DIES_TAG_DATA) > 0)
			got++;
	printf("dies: received %d\n", got);
	fflush(stdout);
	if (msg[1] == DIES_WAIT || msg[1] == DIES_POLL) {
		dies_wait_forever(tid, msg[1] == DIES_POLL);
	} else {
		pvm_initsend(PvmDataDefault);
		pvm_send(tid, DIES_TAG_ACK);
	}
	if (fault) {
		/* The master itself faults: its exit status is the signal's. */
		volatile int *nowhere = NULL;

		*nowhere = 1;
	}
	pvm_recv(-1, DIES_TAG_EXIT);
	printf("dies: the worker has ended\n");
	pvm_exit();
	return 0;
}
