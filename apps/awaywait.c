/*
 * A program whose woken worker then waits for another task: each round the master
 * sends the worker a job and a helper a go, then takes two messages with
 * pvm_recv(-1, -1). The helper answers the go at once with a status, naps (20 ms by
 * default) and sends the worker its data; the worker, woken by the job, blocks on the
 * helper alone, then sends the master its result. The status always comes first. In
 * preserve mode the master's receive is held by the worker it woke, which waits
 * elsewhere and must say so (the master may not wait on a timer for its news).
 * Usage: awaywait [-n ROUNDS] [-s NAP_MS]; prints how often the status came first and
 * the sum.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <pvm3.h>

#define TAG_TID 81
#define TAG_JOB 82
#define TAG_GO 83
#define TAG_STATUS 84
#define TAG_DATA 85
#define TAG_DONE 86

static void send_int(int tid, int tag, int v)
{
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&v, 1, 1);
	pvm_send(tid, tag);
}

static int recv_int(int tid, int tag)
{
	int v = 0;

	pvm_recv(tid, tag);
	pvm_upkint(&v, 1, 1);
	return v;
}

static int helper(int ms)
{
	struct timespec nap = {ms / 1000, (long)(ms % 1000) * 1000000};
	int k, worker = recv_int(pvm_parent(), TAG_TID);

	while ((k = recv_int(pvm_parent(), TAG_GO)) >= 0) {
		send_int(pvm_parent(), TAG_STATUS, k);
		nanosleep(&nap, NULL);
		send_int(worker, TAG_DATA, k);
	}
	pvm_exit();
	return 0;
}

static int worker(void)
{
	int k, helper_tid = recv_int(pvm_parent(), TAG_TID);

	while ((k = recv_int(pvm_parent(), TAG_JOB)) >= 0)
		send_int(pvm_parent(), TAG_DONE, k + recv_int(helper_tid, TAG_DATA));
	pvm_exit();
	return 0;
}

int main(int argc, char **argv)
{
	int n = 20, ms = 20, tids[2], first = 0, sum = 0;
	char nap[16], *wargs[] = {"worker", NULL}, *hargs[] = {"helper", nap, NULL};

	if (argc > 1 && !strcmp(argv[1], "worker"))
		return worker();
	if (argc > 2 && !strcmp(argv[1], "helper"))
		return helper(atoi(argv[2]));
	for (int i = 1; i < argc; i += 2) {
		if (i + 1 < argc && !strcmp(argv[i], "-n"))
			n = atoi(argv[i + 1]);
		else if (i + 1 < argc && !strcmp(argv[i], "-s"))
			ms = atoi(argv[i + 1]);
		else
			n = 0;
	}
	if (n <= 0 || ms < 0 || ms > 10000) {
		fprintf(stderr, "usage: awaywait [-n ROUNDS] [-s NAP_MS]\n");
		return 2;
	}
	snprintf(nap, sizeof(nap), "%d", ms);
	if (pvm_mytid() < 0)
		return 1;
	if (pvm_spawn(argv[0], wargs, PvmTaskDefault, "", 1, &tids[0]) != 1 ||
	    pvm_spawn(argv[0], hargs, PvmTaskDefault, "", 1, &tids[1]) != 1) {
		fprintf(stderr, "awaywait: cannot spawn\n");
		pvm_exit();
		return 1;
	}
	send_int(tids[0], TAG_TID, tids[1]);
	send_int(tids[1], TAG_TID, tids[0]);
	for (int k = 0; k < n; k++) {
		send_int(tids[0], TAG_JOB, k);
		send_int(tids[1], TAG_GO, k);
		for (int i = 0; i < 2; i++) {
			int bufid = pvm_recv(-1, -1), bytes, tag, src, v = 0;

			pvm_bufinfo(bufid, &bytes, &tag, &src);
			pvm_upkint(&v, 1, 1);
			if (i == 0 && tag == TAG_STATUS)
				first++;
			if (tag == TAG_DONE)
				sum += v;
		}
	}
	send_int(tids[0], TAG_JOB, -1);
	send_int(tids[1], TAG_GO, -1);
	printf("awaywait: %d rounds, the status first in %d, sum %d\n", n, first, sum);
	pvm_exit();
	return 0;
}
