/* The codecs of control messages: the monitor's commands to tasks, pvmmon commands'
 * requests to the monitor and its snapshots. */
#include <stdlib.h>
#include <string.h>

#include "pvmmon/errors.h"
#include "wire_control.h"

void wire__ctl_encode(wire_buf *b, const wire_ctl *c)
{
	wire__head_put(b);
	wire__put_u8(b, (uint8_t)c->cmd);
	wire__put_u32(b, c->gen);
	wire__put_u8(b, c->exclusive ? 1 : 0);
	wire__put_str(b, c->procs);
	wire__put_u64(b, c->token);
}

int wire__ctl_decode(wire_ctl *c, const uint8_t *data, size_t len)
{
	wire_in in;
	int rc;

	memset(c, 0, sizeof(*c));
	wire__in_init(&in, data, len);
	rc = wire__head_get(&in, "command");
	if (rc < 0)
		return rc;
	c->cmd = (wire_ctl_cmd)wire__get_u8(&in);
	c->gen = wire__get_u32(&in);
	c->exclusive = wire__get_u8(&in);
	c->procs = wire__get_str(&in, WIRE_MAX_STR);
	c->token = wire__get_u64(&in);
	if (c->cmd < WIRE_CTL_CP_START || c->cmd > WIRE_CTL_SAMPLE)
		in.failed = 1;
	if (c->cmd == WIRE_CTL_SAMPLE && c->gen > WIRE_SAMPLE_MAX_HZ)
		in.failed = 1;
	rc = wire__done(&in, "command");
	if (rc < 0)
		wire__ctl_clear(c);
	return rc;
}

void wire__ctl_clear(wire_ctl *c)
{
	free(c->procs);
	memset(c, 0, sizeof(*c));
}

void wire__snapshot_encode(wire_buf *b, const wire_snapshot *s)
{
	wire__head_put(b);
	wire__buf_append(b, s->xml, s->len);
}

int wire__snapshot_decode(wire_snapshot *s, const uint8_t *data, size_t len)
{
	wire_in in;
	int rc;

	memset(s, 0, sizeof(*s));
	wire__in_init(&in, data, len);
	rc = wire__head_get(&in, "snapshot");
	if (rc < 0)
		return rc;
	/* The log reader checks the XML. */
	s->xml = (const char *)in.p;
	s->len = in.left;
	return 0;
}
