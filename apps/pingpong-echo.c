/* The echo side of the ping-pong demo: returns every message to its sender unchanged. */
#include <stdio.h>
#include <stdlib.h>

#include <pvm3.h>

#include "pingpong.h"

int main(void)
{
	int parent = pvm_parent();
	char *buf = NULL;
	int cap = 0, rc = 1, ctx = 0;

	if (pvm_mytid() < 0 || parent < 0) {
		fprintf(stderr, "pingpong-echo: must be spawned by pingpong\n");
		return 1;
	}
	for (;;) {
		int bufid = pvm_recv(parent, -1), bytes, tag, src;

		if (bufid < 0)
			goto out;
		pvm_bufinfo(bufid, &bytes, &tag, &src);
		if (tag == PINGPONG_TAG_STOP)
			break;
		if (tag == PINGPONG_TAG_TRAILER) {
			pvm_upkint(&ctx, 1, 1);
			continue;
		}
		if (tag == PINGPONG_TAG_DIRECT) {
			pvm_setopt(PvmRoute, PvmRouteDirect);
			continue;
		}
		if (tag != PINGPONG_TAG_PING)
			continue;
		if (bytes > cap) {
			char *n = realloc(buf, bytes);

			if (!n)
				goto out;
			buf = n;
			cap = bytes;
		}
		pvm_upkbyte(buf, bytes, 1);
		pingpong_trailer_recv(ctx, parent, PINGPONG_TAG_PING);
		pvm_initsend(PvmDataRaw);
		pvm_pkbyte(buf, bytes, 1);
		if (pvm_send(parent, PINGPONG_TAG_PONG) < 0)
			goto out;
		pingpong_trailer_send(ctx, parent, PINGPONG_TAG_PONG);
	}
	rc = 0;
out:
	free(buf);
	pvm_exit();
	return rc;
}
