/* Worker of the flood load demo: passes its share of messages round the ring in lock step. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <pvm3.h>

#include "flood.h"

int main(void)
{
	int parent = pvm_parent(), conf[6], r, rounds, rc = 1;
	uint32_t hash = 0;
	int received = 0, result[4];

	if (pvm_mytid() < 0 || parent < 0) {
		fprintf(stderr, "flood-worker: must be spawned by flood\n");
		return 1;
	}
	if (pvm_recv(parent, FLOOD_TAG_SETUP) < 0) {
		fprintf(stderr, "flood-worker: cannot receive the set-up from flood\n");
		goto out;
	}
	/* conf: index, workers, messages to send, messages the left neighbour sends, left
	 * tid, right tid. */
	pvm_upkint(conf, 6, 1);
	if (conf[0] < 0 || conf[0] >= conf[1] || conf[2] < 0 || conf[3] < 0) {
		fprintf(stderr, "flood-worker: bad set-up message\n");
		goto out;
	}
	/*
	 * Each round sends one message to the right and then takes one from the left, so a
	 * worker is never more than one round ahead of its left neighbour and at most
	 * workers - 1 messages wait for any worker: the queues, in PVM and in this
	 * process, are bounded by the ring's size, never by the number of messages.
	 */
	rounds = conf[2] > conf[3] ? conf[2] : conf[3];
	for (r = 0; r < rounds; r++) {
		if (r < conf[2]) {
			int msg[2];

			msg[0] = r;
			msg[1] = (int)flood_value(conf[0], r);
			pvm_initsend(PvmDataDefault);
			pvm_pkint(msg, 2, 1);
			if (pvm_send(conf[5], FLOOD_TAG_RING) < 0) {
				fprintf(stderr, "flood-worker %d: cannot send round %d\n", conf[0], r);
				goto out;
			}
		}
		if (r < conf[3]) {
			int msg[2];

			if (pvm_recv(conf[4], FLOOD_TAG_RING) < 0) {
				fprintf(stderr, "flood-worker %d: cannot receive round %d\n", conf[0], r);
				goto out;
			}
			pvm_upkint(msg, 2, 1);
			/* A message out of its round would make the hash wrong anyway; saying
			 * where it happened helps whoever has to find out why. */
			if (msg[0] != r) {
				fprintf(stderr, "flood-worker %d: round %d came in round %d\n", conf[0],
					msg[0], r);
				goto out;
			}
			hash = flood_hash(hash, (uint32_t)msg[1]);
			received++;
		}
	}
	result[0] = conf[0];
	result[1] = received;
	result[2] = (int)hash;
	result[3] = (int)flood_peak_rss_kb();
	pvm_initsend(PvmDataDefault);
	pvm_pkint(result, 4, 1);
	if (pvm_send(parent, FLOOD_TAG_RESULT) < 0) {
		fprintf(stderr, "flood-worker %d: cannot send the result\n", conf[0]);
		goto out;
	}
	rc = 0;
out:
	pvm_exit();
	return rc;
}
