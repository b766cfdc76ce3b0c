/*
 * A PVM program that uses dynamic groups (libgpvm3 and the group server pvmgs): join,
 * barrier, broadcast and a global sum, checked against the expected values. Run as
 * "groups" it spawns copies of itself as members; it prints one line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pvm3.h>

#define GROUP "pvmmon-groups"
#define TAG_BCAST 51
#define TAG_SUM 52
#define TAG_ANSWER 53

static int fail(const char *what, int code)
{
	fprintf(stderr, "groups: %s (PVM error %d)\n", what, code);
	return 1;
}

/* Every member, master included, waits at the barrier and takes part in the sum. */
static int member(int size, int inst, int *sum_out)
{
	int rc, value, sum;

	if (inst < 0)
		return fail("pvm_joingroup failed", inst);
	rc = pvm_barrier(GROUP, size);
	if (rc < 0)
		return fail("pvm_barrier failed", rc);
	value = (inst + 1) * 10;
	/* The sum goes to instance 0 (the master), which answers everyone. */
	rc = pvm_initsend(PvmDataDefault);
	pvm_pkint(&value, 1, 1);
	rc = pvm_reduce(PvmSum, &value, 1, PVM_INT, TAG_SUM, GROUP, 0);
	if (rc < 0)
		return fail("pvm_reduce failed", rc);
	sum = value;
	*sum_out = sum;
	return 0;
}

int main(int argc, char **argv)
{
	int size = 4, inst = -1, sum = 0, rc, i, want = 0, answer = 0;
	int *tids = NULL;

	if (argc > 1 && !strcmp(argv[1], "--help")) {
		printf("usage: groups [MEMBERS]\nJoins MEMBERS tasks (default 4) in a group, "
		       "barrier, broadcast and global sum.\n");
		return 0;
	}
	if (pvm_mytid() < 0)
		return fail("cannot join PVM", 0);
	if (argc > 1 && !strcmp(argv[1], "-member")) {
		size = atoi(argv[2]);
		rc = member(size, pvm_joingroup(GROUP), &sum);
		if (rc == 0) {
			/* Members learn the total from a broadcast. */
			rc = pvm_recv(-1, TAG_BCAST) < 0;
			pvm_upkint(&answer, 1, 1);
			pvm_initsend(PvmDataDefault);
			pvm_pkint(&answer, 1, 1);
			pvm_send(pvm_parent(), TAG_ANSWER);
		}
		pvm_lvgroup(GROUP);
		pvm_exit();
		return rc;
	}
	if (argc > 1)
		size = atoi(argv[1]);
	if (size < 2 || size > 32) {
		pvm_exit();
		return fail("MEMBERS must be 2..32", 0);
	}
	tids = calloc(size, sizeof(int));
	if (!tids)
		return fail("out of memory", 0);
	{
		char n[16];
		char *args[] = {"-member", n, NULL};

		snprintf(n, sizeof(n), "%d", size);
		/* The master joins first so that it is instance 0. */
		if ((inst = pvm_joingroup(GROUP)) != 0)
			return fail("master must be instance 0", inst);
		rc = pvm_spawn("groups", args, PvmTaskDefault, "", size - 1, tids);
		if (rc != size - 1)
			return fail("cannot start the members", rc);
	}
	rc = member(size, inst, &sum);
	if (rc != 0)
		goto out;
	for (i = 0; i < size; i++)
		want += (i + 1) * 10;
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&sum, 1, 1);
	rc = pvm_bcast(GROUP, TAG_BCAST);
	if (rc < 0) {
		rc = fail("pvm_bcast failed", rc);
		goto out;
	}
	for (i = 0; i < size - 1; i++) {
		pvm_recv(-1, TAG_ANSWER);
		pvm_upkint(&answer, 1, 1);
		if (answer != want) {
			rc = fail("a member got a wrong sum", answer);
			goto out;
		}
	}
	printf("groups: %d members, instance %d, sum %d %s\n", size, inst, sum,
	       sum == want ? "ok" : "WRONG");
	rc = sum == want ? 0 : 1;
out:
	pvm_lvgroup(GROUP);
	free(tids);
	pvm_exit();
	return rc;
}
