/* Node of the ring demo: works on the token each round and passes it to the next task. */
#include <stdint.h>
#include <stdio.h>

#include <pvm3.h>

#include "apputil.h"
#include "ring.h"

/* Task number index (from 0) spends (index + 1) * units work units on each visit. */
static __attribute__((noinline)) uint32_t ring_work(int index, uint32_t token, long units)
{
	uint64_t h = ((uint64_t)(index + 1) << 32) ^ token;
	long i, n = (long)(index + 1) * units * APPUTIL_ITERS_PER_UNIT;

	for (i = 0; i < n; i++)
		h = APPUTIL_MIX(h, i);
	return APPUTIL_FOLD(h);
}

int main(void)
{
	int parent = pvm_parent(), conf[6], r, rc = 1;

	if (pvm_mytid() < 0 || parent < 0) {
		fprintf(stderr, "ring-node: must be spawned by ring\n");
		return 1;
	}
	if (pvm_recv(parent, RING_TAG_SETUP) < 0) {
		fprintf(stderr, "ring-node: cannot receive the set-up from ring\n");
		goto out;
	}
	pvm_upkint(conf, 6, 1);
	/* conf: index, tasks, rounds, units, tid before, tid after. */
	if (conf[0] < 1 || conf[0] >= conf[1] || conf[2] < 0 || conf[3] < 0) {
		fprintf(stderr, "ring-node: bad set-up message\n");
		goto out;
	}
	/* The node knows the number of rounds, so it leaves after the last one without
	 * waiting for a stop message. */
	for (r = 0; r < conf[2]; r++) {
		int round = -1;
		unsigned int token = 0;

		if (pvm_recv(conf[4], RING_TAG_TOKEN) < 0) {
			fprintf(stderr, "ring-node %d: cannot receive the token in round %d\n",
				conf[0], r + 1);
			goto out;
		}
		pvm_upkint(&round, 1, 1);
		pvm_upkuint(&token, 1, 1);
		token = ring_work(conf[0], token, conf[3]);
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&round, 1, 1);
		pvm_pkuint(&token, 1, 1);
		if (pvm_send(conf[5], RING_TAG_TOKEN) < 0) {
			fprintf(stderr, "ring-node %d: cannot pass the token on in round %d\n",
				conf[0], r + 1);
			goto out;
		}
	}
	rc = 0;
out:
	pvm_exit();
	return rc;
}
