/* The codecs of record and replay's messages: record chunks, a replayed task's record,
 * logical id lookups, divergences and stops for a debugger. */
#include <stdlib.h>
#include <string.h>

#include "pvmmon/errors.h"
#include "wire_impl.h"

/* An op name, and a divergence's descriptions (tasks write them into 512 bytes). */
#define MAX_OP 64
#define MAX_TEXT 1024

void wire_rchunk_encode(wire_buf *b, const wire_rchunk *c)
{
	wire_head_put(b);
	wire_put_u32(b, (uint32_t)c->tid);
	wire_buf_append(b, c->data, c->len);
}

int wire_rchunk_decode(wire_rchunk *c, const uint8_t *data, size_t len)
{
	wire_in in;
	int rc;

	memset(c, 0, sizeof(*c));
	wire_in_init(&in, data, len);
	rc = wire_head_get(&in, "record chunk");
	if (rc < 0)
		return rc;
	c->tid = (int32_t)wire_get_u32(&in);
	if (in.failed)
		return pvmmon_error_set(PVMMON_EPARSE, "record chunk: damaged message");
	/* The stream's own decoder checks the bytes, when the record is read. */
	c->data = in.p;
	c->len = in.left;
	return 0;
}

void wire_replaydata_encode(wire_buf *b, const wire_replaydata *r)
{
	wire_head_put(b);
	wire_put_u8(b, r->keep_going ? 1 : 0);
	wire_put_u64(b, r->stop_at);
	wire_put_u32(b, r->nsenders);
	for (uint32_t i = 0; i < r->nsenders; i++)
		wire_put_str(b, r->senders[i]);
	wire_buf_append(b, r->record, r->record_len);
}

void wire_replaydata_clear(wire_replaydata *r)
{
	for (uint32_t i = 0; r->senders && i < r->nsenders; i++)
		free(r->senders[i]);
	free(r->senders);
	memset(r, 0, sizeof(*r));
}

int wire_replaydata_decode(wire_replaydata *r, const uint8_t *data, size_t len)
{
	wire_in in;
	size_t n;
	int rc;

	memset(r, 0, sizeof(*r));
	wire_in_init(&in, data, len);
	rc = wire_head_get(&in, "replay data");
	if (rc < 0)
		return rc;
	r->keep_going = wire__get_flag(&in);
	r->stop_at = wire_get_u64(&in);
	/* Each sender's id takes at least its length. */
	r->senders = wire__get_array(&in, &n, sizeof(*r->senders), 4);
	r->nsenders = (uint32_t)n;
	for (uint32_t i = 0; i < r->nsenders && !in.failed; i++) {
		r->senders[i] = wire_get_str(&in, WIRE_LID_MAX);
		/* A sender is named, by logical id or tid: tasks look at its first byte. */
		if (!r->senders[i])
			in.failed = 1;
	}
	if (in.failed) {
		wire_replaydata_clear(r);
		return pvmmon_error_set(PVMMON_EPARSE, "replay data: damaged message");
	}
	r->record = in.p;
	r->record_len = in.left;
	return 0;
}

void wire_lid_encode(wire_buf *b, const wire_lid *l)
{
	wire_head_put(b);
	wire_put_str(b, l->lid);
}

void wire_lid_clear(wire_lid *l)
{
	free(l->lid);
	l->lid = NULL;
}

int wire_lid_decode(wire_lid *l, const uint8_t *data, size_t len)
{
	wire_in in;
	int rc;

	memset(l, 0, sizeof(*l));
	wire_in_init(&in, data, len);
	rc = wire_head_get(&in, "logical id query");
	if (rc < 0)
		return rc;
	l->lid = wire_get_str(&in, WIRE_LID_MAX);
	if (!l->lid)
		in.failed = 1;
	rc = wire__done(&in, "logical id query");
	if (rc < 0)
		wire_lid_clear(l);
	return rc;
}

void wire_lidtid_encode(wire_buf *b, const wire_lidtid *l)
{
	wire_head_put(b);
	wire_put_u32(b, (uint32_t)l->tid);
}

int wire_lidtid_decode(wire_lidtid *l, const uint8_t *data, size_t len)
{
	wire_in in;
	int rc;

	memset(l, 0, sizeof(*l));
	wire_in_init(&in, data, len);
	rc = wire_head_get(&in, "logical id answer");
	if (rc < 0)
		return rc;
	l->tid = (int32_t)wire_get_u32(&in);
	rc = wire__done(&in, "logical id answer");
	if (rc < 0)
		l->tid = 0;
	return rc;
}

void wire_diverged_encode(wire_buf *b, const wire_diverged *d)
{
	wire_head_put(b);
	wire_put_u64(b, d->index);
	wire_put_str(b, d->module);
	wire_put_u64(b, d->offset);
	wire_put_str(b, d->op);
	wire_put_str(b, d->expected);
	wire_put_str(b, d->observed);
}

void wire_diverged_clear(wire_diverged *d)
{
	free(d->module);
	free(d->op);
	free(d->expected);
	free(d->observed);
	memset(d, 0, sizeof(*d));
}

int wire_diverged_decode(wire_diverged *d, const uint8_t *data, size_t len)
{
	wire_in in;
	int rc;

	memset(d, 0, sizeof(*d));
	wire_in_init(&in, data, len);
	rc = wire_head_get(&in, "divergence");
	if (rc < 0)
		return rc;
	d->index = wire_get_u64(&in);
	d->module = wire_get_str(&in, WIRE_MAX_STR);
	d->offset = wire_get_u64(&in);
	d->op = wire_get_str(&in, MAX_OP);
	d->expected = wire_get_str(&in, MAX_TEXT);
	d->observed = wire_get_str(&in, MAX_TEXT);
	rc = wire__done(&in, "divergence");
	if (rc < 0)
		wire_diverged_clear(d);
	return rc;
}

void wire_stopped_encode(wire_buf *b, const wire_stopped *s)
{
	wire_head_put(b);
	wire_put_u64(b, s->event);
	wire_put_u32(b, s->pid);
	wire_put_str(b, s->module);
	wire_put_u64(b, s->offset);
	wire_put_u8(b, s->kind);
}

void wire_stopped_clear(wire_stopped *s)
{
	free(s->module);
	memset(s, 0, sizeof(*s));
}

int wire_stopped_decode(wire_stopped *s, const uint8_t *data, size_t len)
{
	wire_in in;
	int rc;

	memset(s, 0, sizeof(*s));
	wire_in_init(&in, data, len);
	rc = wire_head_get(&in, "stop report");
	if (rc < 0)
		return rc;
	s->event = wire_get_u64(&in);
	s->pid = wire_get_u32(&in);
	s->module = wire_get_str(&in, WIRE_MAX_STR);
	s->offset = wire_get_u64(&in);
	s->kind = wire_get_u8(&in);
	if (s->kind > WIRE_STOP_HOLDING)
		in.failed = 1;
	rc = wire__done(&in, "stop report");
	if (rc < 0)
		wire_stopped_clear(s);
	return rc;
}
