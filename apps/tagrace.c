/*
 * A tag-wildcard race for explore to find: the master takes every message with
 * pvm_recv(-1, -1) and dispatches on its tag, trusting that the "done" message comes
 * after all the data. A master spawns N data workers and one done worker (this program
 * with "worker K"), waits for each one's "ready" and sends each "start"; a data worker
 * sends "data" (TAG_DATA) at once, the done worker sends "done" (TAG_DONE) after about
 * 50 ms. Unmonitored, every data message is in the queue long before "done"; taken
 * first, "done" makes the master print "done before data: N data messages lost" (exit
 * 1). Otherwise it prints "tagrace ok".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <pvm3.h>

#include "apputil.h"

#define TAG_READY 5
#define TAG_START 6
#define TAG_DATA 10
#define TAG_DONE 99

static int worker(int done)
{
	struct timespec work = {0, 50 * 1000 * 1000};
	int parent = pvm_parent(), zero = 0;

	pvm_initsend(PvmDataDefault);
	pvm_send(parent, TAG_READY);
	pvm_recv(parent, TAG_START);
	pvm_initsend(PvmDataDefault);
	if (done) {
		nanosleep(&work, NULL);
		pvm_pkint(&zero, 1, 1);
		pvm_send(parent, TAG_DONE);
	} else {
		pvm_pkstr("data");
		pvm_send(parent, TAG_DATA);
	}
	pvm_exit();
	return 0;
}

int main(int argc, char **argv)
{
	int n = 1, c, k, tag = 0, len, src, data = 0, *tids;
	char word[8], num[12], *args[] = {"worker", num, NULL};

	if (argc > 2 && !strcmp(argv[1], "worker"))
		return worker(!strcmp(argv[2], "done"));
	if (argc > 1 && !strcmp(argv[1], "--help"))
		argv[1] = "-h";
	while ((c = getopt(argc, argv, "n:h")) != -1) {
		switch (c) {
		case 'n':
			n = (int)apputil_parse_num("tagrace", optarg, "-n", 1, 16);
			break;
		case 'h':
			printf("usage: tagrace [-n DATA_WORKERS]\nPrints whether the done message "
			       "came after all the data.\n");
			return 0;
		default:
			fprintf(stderr, "usage: tagrace [-n DATA_WORKERS]\n");
			return 2;
		}
	}
	tids = calloc((size_t)n + 1, sizeof(*tids));
	if (!tids || pvm_mytid() < 0) {
		fprintf(stderr, "tagrace: cannot enrol in PVM\n");
		free(tids);
		return 1;
	}
	/* Workers 0 to n-1 send data, worker n sends done. */
	for (k = 0; k <= n; k++) {
		snprintf(num, sizeof(num), "%d", k);
		args[1] = k < n ? num : "done";
		if (pvm_spawn(argv[0], args, PvmTaskDefault, "", 1, &tids[k]) != 1) {
			fprintf(stderr, "tagrace: cannot spawn worker %d\n", k);
			free(tids);
			pvm_exit();
			return 1;
		}
	}
	/* All workers are enrolled before any starts, so only the 50 ms part them. */
	for (k = 0; k <= n; k++)
		pvm_recv(tids[k], TAG_READY);
	for (k = 0; k <= n; k++) {
		pvm_initsend(PvmDataDefault);
		pvm_send(tids[k], TAG_START);
	}
	/* The nondeterministic receive: any worker, any tag. */
	while (tag != TAG_DONE) {
		pvm_bufinfo(pvm_recv(-1, -1), &len, &tag, &src);
		if (tag == TAG_DATA) {
			pvm_upkstr(word);
			data++;
		}
	}
	if (data < n)
		printf("done before data: %d data messages lost\n", n - data);
	else
		printf("tagrace ok\n");
	free(tids);
	pvm_exit();
	return data < n;
}
