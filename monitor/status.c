/* The requests of pvmmon commands (status, cp, enable, disable, histogram, sample):
 * carried out, and answered with a snapshot of the run. */
#include <stdlib.h>

#include "cost.h"
#include "critpath.h"
#include "histmerge.h"
#include "logbuild.h"
#include "pvmmon/errors.h"
#include "status.h"

int status__request(mon_run *run, int src, const uint8_t *data, size_t len)
{
	wire_ctl c;
	char *xml = NULL;
	size_t n = 0;

	if (wire__ctl_decode(&c, data, len) != 0) {
		run->bad_messages++;
		return 0;
	}
	if (c.token != run->token) {
		free(c.procs);
		return PVMMON_EINVAL;
	}
	if (c.cmd == WIRE_CTL_CP_START && c.procs && *c.procs)
		critpath__start(run, c.procs, c.exclusive);
	else if (c.cmd == WIRE_CTL_CP_STOP)
		critpath__stop(run);
	else if ((c.cmd == WIRE_CTL_ENABLE || c.cmd == WIRE_CTL_DISABLE) && c.procs &&
	         cost__switch(run, c.cmd == WIRE_CTL_ENABLE, c.procs, 0, NULL) < 0)
		run->bad_messages++;
	else if ((c.cmd == WIRE_CTL_HIST_ON || c.cmd == WIRE_CTL_HIST_OFF) && c.procs &&
	         histmerge__request(run, c.cmd == WIRE_CTL_HIST_ON, c.procs) < 0)
		run->bad_messages++;
	else if (c.cmd == WIRE_CTL_SAMPLE && cost__sample(run, c.gen) < 0)
		run->bad_messages++;
	free(c.procs);
	if (logbuild__snapshot(&xml, &n, run) == 0) {
		wire_buf b;

		wire__buf_init(&b);
		wire__snapshot_encode(&b, &(wire_snapshot){xml, n});
		if (!b.failed)
			run->io.send(run->ctx, src, WIRE_TAG_SNAPSHOT, b.data, b.len);
		wire__buf_free(&b);
	}
	free(xml);
	return 0;
}
