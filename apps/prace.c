/*
 * A probe-then-receive race for explore to find: the master polls its workers one by one
 * with pvm_probe(tid, TAG_RESULT), then takes "the probed result" with pvm_recv(-1,
 * TAG_RESULT), which takes the oldest queued result of any worker instead. A master
 * spawns 2 workers (this program with "worker K"), waits for each one's "ready" and
 * sends each "start"; worker 0 answers at once, worker 1 after about 50 ms of work.
 * Unmonitored, worker 0's result is alone in the queue when a probe finds it; had worker
 * 1's been queued ahead of it (a legal order: PVM orders messages per sender only), the
 * receive would take worker 1's. The master prints "results ok" or "mismatch: probed
 * worker P, received worker R" (exit 1). With -a the master probes with the receive's
 * own filter, pvm_probe(-1, TAG_RESULT): both then take the queue's first match, so that
 * version has no such order (PVM's probe and receive scan the queue alike).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <pvm3.h>

#define TAG_READY 5
#define TAG_START 6
#define TAG_RESULT 7
#define NWORKERS 2

static int worker(int k)
{
	struct timespec work = {0, 50 * 1000 * 1000};
	int parent = pvm_parent(), result = 100 + k;

	pvm_initsend(PvmDataDefault);
	pvm_send(parent, TAG_READY);
	pvm_recv(parent, TAG_START);
	if (k == 1)
		nanosleep(&work, NULL);
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&result, 1, 1);
	pvm_send(parent, TAG_RESULT);
	pvm_exit();
	return 0;
}

/* The logical number of the worker whose tid a message came from, or -1. */
static int sender(int bufid, const int *tids)
{
	int len = 0, tag = 0, src = 0, k;

	pvm_bufinfo(bufid, &len, &tag, &src);
	for (k = 0; k < NWORKERS; k++)
		if (tids[k] == src)
			return k;
	return -1;
}

/*
 * Polls until a probe finds a result; returns the probed worker's number. The pause
 * between rounds stands for the master's own work, and keeps the polls that find
 * nothing (each an outcome a replay record keeps) to a few, not thousands.
 */
static int poll_result(int any, const int *tids)
{
	struct timespec other_work = {0, 1000 * 1000};
	int k, b;

	for (;;) {
		if (any) {
			if ((b = pvm_probe(-1, TAG_RESULT)) > 0)
				return sender(b, tids);
		} else {
			for (k = 0; k < NWORKERS; k++)
				if ((b = pvm_probe(tids[k], TAG_RESULT)) > 0)
					return sender(b, tids);
		}
		nanosleep(&other_work, NULL);
	}
}

int main(int argc, char **argv)
{
	int tids[NWORKERS], any = 0, c, k, probed, got, rc = 0;
	char num[12], *args[] = {"worker", num, NULL};

	if (argc > 2 && !strcmp(argv[1], "worker"))
		return worker(atoi(argv[2]));
	if (argc > 1 && !strcmp(argv[1], "--help"))
		argv[1] = "-h";
	while ((c = getopt(argc, argv, "ah")) != -1) {
		switch (c) {
		case 'a':
			any = 1;
			break;
		case 'h':
			printf("usage: prace [-a]\nPrints whether the result received is the one "
			       "the probe found.\n");
			return 0;
		default:
			fprintf(stderr, "usage: prace [-a]\n");
			return 2;
		}
	}
	if (pvm_mytid() < 0) {
		fprintf(stderr, "prace: cannot enrol in PVM\n");
		return 1;
	}
	for (k = 0; k < NWORKERS; k++) {
		snprintf(num, sizeof(num), "%d", k);
		if (pvm_spawn(argv[0], args, PvmTaskDefault, "", 1, &tids[k]) != 1) {
			fprintf(stderr, "prace: cannot spawn worker %d\n", k);
			pvm_exit();
			return 1;
		}
	}
	/* Both workers are enrolled before either starts, so only the 50 ms part them. */
	for (k = 0; k < NWORKERS; k++)
		pvm_recv(tids[k], TAG_READY);
	for (k = 0; k < NWORKERS; k++) {
		pvm_initsend(PvmDataDefault);
		pvm_send(tids[k], TAG_START);
	}
	probed = poll_result(any, tids);
	/* The bug: this receive need not take the message the probe found. */
	got = sender(pvm_recv(-1, TAG_RESULT), tids);
	if (got != probed) {
		printf("mismatch: probed worker %d, received worker %d\n", probed, got);
		rc = 1;
	} else {
		pvm_recv(-1, TAG_RESULT);
		printf("results ok\n");
	}
	pvm_exit();
	return rc;
}
