/*
 * The commonest master/worker deadlock, and two programs that only look like it, for
 * the tests of the rule that a program whose tasks all wait for anyone is stuck:
 * `allwait [MODE]` spawns two workers (itself, as `allwait worker MODE`).
 *   hang      (the default) the master waits for tag 3 from any task; each worker
 *             waits for tag 1 from any task: nobody sends
 *   late [S]  the same waits, but the master computes S seconds (1) first, then sends
 *             each worker tag 1; each answers tag 3
 *   notify    the master asks pvm_notify(PvmTaskExit) with tag 3 for the workers and
 *             waits for tag 3 from any task twice; worker I computes 0.3 (I + 1) s and
 *             exits: pvmd's exit messages end the master's waits (the second one has
 *             been reported as a wait when the last worker ends)
 * The lines the tests look for carry a comment naming them (ALLWAIT-...).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <pvm3.h>

#define TAG_WORK 1
#define TAG_DONE 3
#define NWORKERS 2

static void compute(double seconds)
{
	struct timespec a, b;
	volatile unsigned long x = 0;

	clock_gettime(CLOCK_MONOTONIC, &a);
	do {
		for (int i = 0; i < 100000; i++)
			x += (unsigned long)i;
		clock_gettime(CLOCK_MONOTONIC, &b);
	} while ((double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9 < seconds);
}

static void worker(const char *mode, int me)
{
	int v = 0;

	if (!strcmp(mode, "notify")) {
		compute(0.3 * (me + 1));
		pvm_exit();
		return;
	}
	pvm_recv(-1, TAG_WORK); /* ALLWAIT-WORKER */
	pvm_upkint(&v, 1, 1);
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&v, 1, 1);
	pvm_send(pvm_parent(), TAG_DONE);
	pvm_exit();
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "hang";
	int tids[NWORKERS];
	double late = argc > 2 ? atof(argv[2]) : 1.0;
	char *self;

	if (argc == 4 && !strcmp(argv[1], "worker")) {
		worker(argv[2], atoi(argv[3]));
		return 0;
	}
	if (argc > 3 || (strcmp(mode, "hang") && strcmp(mode, "late") && strcmp(mode, "notify")) ||
	    (argc == 3 && strcmp(mode, "late")) || late < 0) {
		fprintf(stderr, "usage: allwait [hang | late [S] | notify]\n");
		return 2;
	}
	self = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	if (pvm_mytid() < 0)
		return 1;
	for (int i = 0; i < NWORKERS; i++) {
		char idx[16], *args[] = {"worker", (char *)mode, idx, NULL};

		snprintf(idx, sizeof(idx), "%d", i);
		if (pvm_spawn(self, args, PvmTaskDefault, "", 1, &tids[i]) != 1) {
			fprintf(stderr, "allwait: cannot start worker %d\n", i);
			pvm_exit();
			return 1;
		}
	}
	if (!strcmp(mode, "notify"))
		pvm_notify(PvmTaskExit, TAG_DONE, NWORKERS, tids);
	if (!strcmp(mode, "late")) {
		compute(late);
		for (int i = 0; i < NWORKERS; i++) {
			pvm_initsend(PvmDataDefault);
			pvm_pkint(&i, 1, 1);
			pvm_send(tids[i], TAG_WORK);
		}
	}
	for (int i = 0; i < NWORKERS; i++)
		pvm_recv(-1, TAG_DONE); /* ALLWAIT-MASTER */
	printf("allwait: %s done\n", mode);
	pvm_exit();
	return 0;
}
