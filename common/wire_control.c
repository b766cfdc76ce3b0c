/* The codecs of control messages: the monitor's commands to tasks, pvmmon commands'
 * requests to the monitor and its snapshots. */
#include <stdlib.h>
#include <string.h>

#include "pvmmon/errors.h"
#include "wire_impl.h"

void wire_ctl_encode(wire_buf *b, const wire_ctl *c)
{
	wire_head_put(b);
	wire_put_u8(b, (uint8_t)c->cmd);
	wire_put_u32(b, c->gen);
	wire_put_u8(b, c->exclusive ? 1 : 0);
	wire_put_str(b, c->procs);
	wire_put_u64(b, c->token);
}

int wire_ctl_decode(wire_ctl *c, const uint8_t *data, size_t len)
{
	wire_in in;
	int rc;

	memset(c, 0, sizeof(*c));
	wire_in_init(&in, data, len);
	rc = wire_head_get(&in, "command");
	if (rc < 0)
		return rc;
	c->cmd = (wire_ctl_cmd)wire_get_u8(&in);
	c->gen = wire_get_u32(&in);
	c->exclusive = wire_get_u8(&in);
	c->procs = wire_get_str(&in, WIRE_MAX_STR);
	c->token = wire_get_u64(&in);
	if (c->cmd < WIRE_CTL_CP_START || c->cmd > WIRE_CTL_RELEASE)
		in.failed = 1;
	rc = wire__done(&in, "command");
	if (rc < 0)
		wire_ctl_clear(c);
	return rc;
}

void wire_ctl_clear(wire_ctl *c)
{
	free(c->procs);
	memset(c, 0, sizeof(*c));
}

void wire_snapshot_encode(wire_buf *b, const wire_snapshot *s)
{
	wire_head_put(b);
	wire_buf_append(b, s->xml, s->len);
}

int wire_snapshot_decode(wire_snapshot *s, const uint8_t *data, size_t len)
{
	wire_in in;
	int rc;

	memset(s, 0, sizeof(*s));
	wire_in_init(&in, data, len);
	rc = wire_head_get(&in, "snapshot");
	if (rc < 0)
		return rc;
	/* The log reader checks the XML. */
	s->xml = (const char *)in.p;
	s->len = in.left;
	return 0;
}
