/*
 * Waits of two kinds for the wait analysis: the master polls with pvm_trecv (a 1 ms
 * timeout) for the result of a worker (this program with "worker") that computes
 * WORK_MS first (asleep: no answer depends on the processors), then, told by
 * pvm_notify that the worker has exited, asks it ASKS more times for more with a
 * TIMEOUT_MS pvm_trecv each: waits for a task that had ended.
 */
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include <pvm3.h>

#define TAG_RESULT 1
#define TAG_MORE 2
#define TAG_EXIT 3
#define WORK_MS 40
#define ASKS 3
#define TIMEOUT_MS 20

static int worker(void)
{
	struct timespec ts = {0, WORK_MS * 1000000L};
	int result = 42;

	nanosleep(&ts, NULL);
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&result, 1, 1);
	pvm_send(pvm_parent(), TAG_RESULT);
	pvm_exit();
	return 0;
}

int main(int argc, char **argv)
{
	struct timeval ms = {0, 1000}, timeout = {0, TIMEOUT_MS * 1000};
	int tid, polls = 0, result = 0, asked = 0;
	char *args[] = {"worker", NULL};

	if (argc > 1 && !strcmp(argv[1], "worker"))
		return worker();
	if (pvm_mytid() < 0 || pvm_spawn(argv[0], args, PvmTaskDefault, "", 1, &tid) != 1) {
		fprintf(stderr, "endwait: cannot start the worker\n");
		pvm_exit();
		return 1;
	}
	pvm_notify(PvmTaskExit, TAG_EXIT, 1, &tid);
	while (pvm_trecv(tid, TAG_RESULT, &ms) == 0)
		polls++;
	pvm_upkint(&result, 1, 1);
	pvm_recv(-1, TAG_EXIT);
	while (asked < ASKS && pvm_trecv(tid, TAG_MORE, &timeout) == 0)
		asked++;
	printf("result %d after %d polls; asked the ended worker %d times\n", result, polls, asked);
	pvm_exit();
	return 0;
}
