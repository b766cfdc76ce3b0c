/* Worker of the issort demo: counts its share of the keys by key, in parallel with the others. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <pvm3.h>

#include "apputil.h"
#include "issort.h"

/*
 * The ranking step of the sort for this worker's keys: counts each key value, then
 * spends a fixed amount of busy work seeded by the counts; returns the work's hash.
 */
static __attribute__((noinline)) uint32_t do_rank(const int *keys, int nkeys, int *counts,
						  long units)
{
	uint64_t h = 0xc0ac29b7c97c50ddull;
	long i, n = units * APPUTIL_ITERS_PER_UNIT;

	for (i = 0; i < nkeys; i++)
		counts[keys[i]]++;
	for (i = 0; i < ISSORT_MAX_KEY; i++)
		h = APPUTIL_MIX(h ^ (uint64_t)counts[i], i);
	for (i = 0; i < n; i++)
		h = APPUTIL_MIX(h, i);
	return APPUTIL_FOLD(h);
}

int main(void)
{
	int parent = pvm_parent(), head[2], i, rc = 1;
	static int counts[ISSORT_MAX_KEY];
	int *keys = NULL;
	unsigned int hash;

	if (pvm_mytid() < 0 || parent < 0) {
		fprintf(stderr, "issort-worker: must be spawned by issort\n");
		return 1;
	}
	pvm_initsend(PvmDataDefault);
	if (pvm_send(parent, ISSORT_TAG_READY) < 0) {
		fprintf(stderr, "issort-worker: cannot report to issort\n");
		goto out;
	}
	if (pvm_recv(parent, ISSORT_TAG_KEYS) < 0) {
		fprintf(stderr, "issort-worker: cannot receive the keys from issort\n");
		goto out;
	}
	/* head: rank units, number of keys. */
	pvm_upkint(head, 2, 1);
	if (head[0] < 0 || head[1] < 0) {
		fprintf(stderr, "issort-worker: bad key message\n");
		goto out;
	}
	keys = malloc(sizeof(int) * (head[1] > 0 ? head[1] : 1));
	if (!keys) {
		fprintf(stderr, "issort-worker: out of memory\n");
		goto out;
	}
	pvm_upkint(keys, head[1], 1);
	/* A key out of range would write outside the counts: refuse it. */
	for (i = 0; i < head[1]; i++)
		if (keys[i] < 0 || keys[i] >= ISSORT_MAX_KEY) {
			fprintf(stderr, "issort-worker: key %d out of range\n", keys[i]);
			goto out;
		}
	hash = do_rank(keys, head[1], counts, head[0]);
	pvm_initsend(PvmDataDefault);
	pvm_pkint(counts, ISSORT_MAX_KEY, 1);
	pvm_pkuint(&hash, 1, 1);
	if (pvm_send(parent, ISSORT_TAG_COUNTS) < 0) {
		fprintf(stderr, "issort-worker: cannot send the counts to issort\n");
		goto out;
	}
	rc = 0;
out:
	free(keys);
	pvm_exit();
	return rc;
}
