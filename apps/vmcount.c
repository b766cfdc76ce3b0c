/*
 * A program that prints what it can count of its virtual machine: the tasks (all, and
 * on each host), the hosts and architectures, the mailbox classes, and the task ids
 * of its host that pvm_pstat finds alive, with two workers (this program with
 * "worker") running. Its output must be the same monitored as unmonitored.
 */
#include <stdio.h>
#include <string.h>

#include <pvm3.h>

#define NWORKERS 2
#define TAG_READY 61
#define TAG_GO 62
/* Task ids of a host probed with pvm_pstat: far more than a run of this program uses. */
#define PROBE_TIDS 64

static int worker(void)
{
	int parent = pvm_parent();

	pvm_initsend(PvmDataDefault);
	pvm_send(parent, TAG_READY);
	pvm_recv(parent, TAG_GO);
	pvm_exit();
	return 0;
}

/* Prints every count; 0, or 1 when a PVM call failed. */
static int print_counts(int me)
{
	struct pvmtaskinfo *ti;
	struct pvmhostinfo *hi;
	struct pvmmboxinfo *mb;
	int ntask = 0, nhost = 0, narch = 0, nclass = 0, alive = 0, host = pvm_tidtohost(me);

	if (pvm_tasks(0, &ntask, &ti) < 0 || pvm_config(&nhost, &narch, &hi) < 0)
		return 1;
	printf("tasks %d\nhosts %d arches %d\n", ntask, nhost, narch);
	/* pvm_config's array is replaced by the next pvm_config only: hi stays valid
	 * across the pvm_tasks calls below. */
	for (int h = 0; h < nhost; h++) {
		int n = 0;

		if (pvm_tasks(hi[h].hi_tid, &n, &ti) < 0)
			return 1;
		printf("host %d tasks %d\n", h, n);
	}
	if (pvm_getmboxinfo("*", &nclass, &mb) < 0)
		return 1;
	printf("mailbox classes %d\n", nclass);
	for (int i = 1; i <= PROBE_TIDS; i++)
		if (pvm_pstat(host | i) == PvmOk)
			alive++;
	printf("tids alive %d\n", alive);
	return 0;
}

int main(int argc, char **argv)
{
	int me = pvm_mytid(), tids[NWORKERS], rc;

	if (me < 0)
		return 1;
	if (argc > 1 && !strcmp(argv[1], "worker"))
		return worker();
	if (pvm_spawn(argv[0], (char *[]){"worker", NULL}, PvmTaskDefault, "", NWORKERS, tids) !=
	    NWORKERS) {
		fprintf(stderr, "vmcount: cannot spawn its workers\n");
		pvm_exit();
		return 1;
	}
	for (int i = 0; i < NWORKERS; i++)
		pvm_recv(tids[i], TAG_READY);
	rc = print_counts(me);
	pvm_initsend(PvmDataDefault);
	pvm_mcast(tids, NWORKERS, TAG_GO);
	pvm_exit();
	return rc;
}
