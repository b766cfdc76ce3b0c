/* Stage of the pipeline demo: works on each item it receives and passes it on. */
#include <stdint.h>
#include <stdio.h>

#include <pvm3.h>

#include "apputil.h"
#include "pipeline.h"

/* Stage number stage (from 0) spends (stage + 1) * units work units on every item. */
static __attribute__((noinline)) uint32_t stage_work(int stage, uint32_t value, long units)
{
	uint64_t h = ((uint64_t)(stage + 1) << 32) ^ value;
	long i, n = (long)(stage + 1) * units * APPUTIL_ITERS_PER_UNIT;

	for (i = 0; i < n; i++)
		h = APPUTIL_MIX(h, i);
	return APPUTIL_FOLD(h);
}

int main(void)
{
	int parent = pvm_parent(), conf[6], i, rc = 1;

	if (pvm_mytid() < 0 || parent < 0) {
		fprintf(stderr, "pipeline-stage: must be spawned by pipeline\n");
		return 1;
	}
	if (pvm_recv(parent, PIPE_TAG_SETUP) < 0) {
		fprintf(stderr, "pipeline-stage: cannot receive the set-up from pipeline\n");
		goto out;
	}
	pvm_upkint(conf, 6, 1);
	/* conf: index, stages, items, units, tid before, tid after. */
	if (conf[0] < 0 || conf[0] >= conf[1] || conf[2] < 0 || conf[3] < 0) {
		fprintf(stderr, "pipeline-stage: bad set-up message\n");
		goto out;
	}
	for (i = 0; i < conf[2]; i++) {
		int item = -1;
		unsigned int value = 0;
		int last = conf[0] == conf[1] - 1;

		/* Only the task before this one in the chain sends items here. */
		if (pvm_recv(conf[4], PIPE_TAG_ITEM) < 0) {
			fprintf(stderr, "pipeline-stage %d: cannot receive item %d\n", conf[0], i);
			goto out;
		}
		pvm_upkint(&item, 1, 1);
		pvm_upkuint(&value, 1, 1);
		value = stage_work(conf[0], value, conf[3]);
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&item, 1, 1);
		pvm_pkuint(&value, 1, 1);
		if (pvm_send(conf[5], last ? PIPE_TAG_RESULT : PIPE_TAG_ITEM) < 0) {
			fprintf(stderr, "pipeline-stage %d: cannot pass item %d on\n", conf[0], i);
			goto out;
		}
	}
	rc = 0;
out:
	pvm_exit();
	return rc;
}
