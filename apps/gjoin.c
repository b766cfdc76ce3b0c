/*
 * A PVM program whose course depends on group answers, for record and replay of them:
 * the master spawns N nodes at once, each joins one group (its instance number follows
 * the order in which the joins reach the group server), reads the group's size right
 * after its join (others are still joining), and after a barrier asks pvm_gettid for
 * instance 0 (the leader) and for its ring neighbours by instance, pvm_getinst for
 * itself, and passes its node number to the next instance. The master prints which
 * node got which instance, who its left neighbour was, the size it saw and who leads:
 * two runs differ, a replay prints what its recording printed.
 *
 *   gjoin [-n NODES] [-r] [-g GROUP]   (-r: the odd instances leave and join again
 *                                       once, and take the instances the group server
 *                                       gives then; -g: the group, by default
 *                                       pvmmon-gjoin: a changed program for a replay)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pvm3.h>

#define MAXN 32
#define TAG_RING 61
#define TAG_REPORT 62

static int fail(const char *what, int code)
{
	fprintf(stderr, "gjoin: %s (PVM error %d)\n", what, code);
	pvm_exit();
	return 1;
}

/* One node: join, look, pass its tid on to the next instance, report to the master. */
static int node(int n, char *group, int rejoin)
{
	int inst, first, seen, right, left, leader, again, from = -1, me = pvm_mytid(), r[5];

	if ((inst = first = pvm_joingroup(group)) < 0)
		return fail("pvm_joingroup failed", inst);
	/* Whoever has joined by now: a number each run picks anew. */
	seen = pvm_gsize(group);
	if (rejoin) {
		/* Everyone is in before the odd instances leave: no leave frees an instance
		 * that a first join could take. */
		if ((again = pvm_barrier(group, n)) < 0)
			return fail("pvm_barrier failed", again);
		if (first % 2) {
			pvm_lvgroup(group);
			/* The freed instances go to whoever comes back first. */
			if ((inst = pvm_joingroup(group)) < 0)
				return fail("pvm_joingroup (again) failed", inst);
		}
	}
	if ((again = pvm_barrier(group, n)) < 0)
		return fail("pvm_barrier failed", again);
	leader = pvm_gettid(group, 0);
	right = pvm_gettid(group, (inst + 1) % n);
	left = pvm_gettid(group, (inst + n - 1) % n);
	if (leader < 0 || right < 0 || left < 0 || pvm_getinst(group, me) != inst)
		return fail("group answers do not agree", inst);
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&me, 1, 1);
	pvm_send(right, TAG_RING);
	pvm_recv(left, TAG_RING);
	pvm_upkint(&from, 1, 1);
	if ((again = pvm_barrier(group, n)) < 0)
		return fail("pvm_barrier failed", again);
	r[0] = inst;
	r[1] = from;
	r[2] = seen;
	r[3] = leader == me;
	r[4] = first;
	pvm_initsend(PvmDataDefault);
	pvm_pkint(r, 5, 1);
	pvm_send(pvm_parent(), TAG_REPORT);
	pvm_lvgroup(group);
	pvm_exit();
	return 0;
}

/* The node number of tid: its place in the spawn's answer. */
static int node_of(const int *tids, int n, int tid)
{
	for (int k = 0; k < n; k++)
		if (tids[k] == tid)
			return k;
	return -1;
}

int main(int argc, char **argv)
{
	int n = 12, rejoin = 0, tids[MAXN], rep[MAXN][5], r[5], rc, src, k, lead = -1;
	char nb[16], *group = "pvmmon-gjoin", *args[5];

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-n") && i + 1 < argc)
			n = atoi(argv[++i]);
		else if (!strcmp(argv[i], "-r"))
			rejoin = 1;
		else if (!strcmp(argv[i], "-g") && i + 1 < argc)
			group = argv[++i];
		else if (!strcmp(argv[i], "-node") && i + 2 < argc)
			return node(atoi(argv[i + 1]), argv[i + 2], i + 3 < argc);
		else {
			fprintf(stderr, "usage: gjoin [-n NODES] [-r] [-g GROUP]\n");
			return 2;
		}
	}
	if (n < 2 || n > MAXN) {
		fprintf(stderr, "gjoin: NODES must be 2..%d\n", MAXN);
		return 2;
	}
	if ((rc = pvm_mytid()) < 0)
		return fail("cannot join PVM", rc);
	/* All nodes at once; node k is the k-th tid of the answer. */
	snprintf(nb, sizeof(nb), "%d", n);
	args[0] = "-node";
	args[1] = nb;
	args[2] = group;
	args[3] = rejoin ? "-r" : NULL;
	args[4] = NULL;
	if ((rc = pvm_spawn(argv[0], args, PvmTaskDefault, "", n, tids)) != n)
		return fail("cannot start the nodes", rc);
	memset(rep, 0, sizeof(rep));
	for (int i = 0; i < n; i++) {
		if ((rc = pvm_recv(-1, TAG_REPORT)) < 0)
			return fail("pvm_recv failed", rc);
		pvm_bufinfo(rc, NULL, NULL, &src);
		pvm_upkint(r, 5, 1);
		if ((k = node_of(tids, n, src)) >= 0)
			memcpy(rep[k], r, sizeof(r));
	}
	for (k = 0; k < n; k++) {
		printf("node %d: instance %d", k, rep[k][0]);
		if (rejoin)
			printf(" (first %d)", rep[k][4]);
		printf(", left neighbour node %d, saw size %d\n", node_of(tids, n, rep[k][1]),
		       rep[k][2]);
		if (rep[k][3])
			lead = k;
	}
	printf("leader: node %d\n", lead);
	pvm_exit();
	return 0;
}
