/* The codecs of record and replay's messages: record chunks, a replayed task's record,
 * logical id lookups, divergences and stops for a debugger. */
#include <stdlib.h>
#include <string.h>

#include "pvmmon/errors.h"
#include "wire_replay.h"

/* An op name, and a divergence's descriptions (tasks write them into 512 bytes). */
#define MAX_OP 64
#define MAX_TEXT 1024

void wire__rchunk_encode(wire_buf *b, const wire_rchunk *c)
{
	wire__head_put(b);
	wire__put_u32(b, (uint32_t)c->tid);
	wire__buf_append(b, c->data, c->len);
}

int wire__rchunk_decode(wire_rchunk *c, const uint8_t *data, size_t len)
{
	wire_in in;
	int rc;

	memset(c, 0, sizeof(*c));
	wire__in_init(&in, data, len);
	rc = wire__head_get(&in, "record chunk");
	if (rc < 0)
		return rc;
	c->tid = (int32_t)wire__get_u32(&in);
	if (in.failed)
		return pvmmon_error_set(PVMMON_EPARSE, "record chunk: damaged message");
	/* The stream's own decoder checks the bytes, when the record is read. */
	c->data = in.p;
	c->len = in.left;
	return 0;
}

void wire__replaydata_encode(wire_buf *b, const wire_replaydata *r)
{
	wire__head_put(b);
	wire__put_u8(b, r->keep_going ? 1 : 0);
	wire__put_u64(b, r->stop_at);
	wire__put_u32(b, r->nsenders);
	for (uint32_t i = 0; i < r->nsenders; i++)
		wire__put_str(b, r->senders[i]);
	wire__buf_append(b, r->record, r->record_len);
}

void wire__replaydata_clear(wire_replaydata *r)
{
	for (uint32_t i = 0; r->senders && i < r->nsenders; i++)
		free(r->senders[i]);
	free(r->senders);
	memset(r, 0, sizeof(*r));
}

int wire__replaydata_decode(wire_replaydata *r, const uint8_t *data, size_t len)
{
	wire_in in;
	size_t n;
	int rc;

	memset(r, 0, sizeof(*r));
	wire__in_init(&in, data, len);
	rc = wire__head_get(&in, "replay data");
	if (rc < 0)
		return rc;
	r->keep_going = wire__get_flag(&in);
	r->stop_at = wire__get_u64(&in);
	/* Each sender's id takes at least its length. */
	r->senders = wire__get_array(&in, &n, sizeof(*r->senders), 4);
	r->nsenders = (uint32_t)n;
	for (uint32_t i = 0; i < r->nsenders && !in.failed; i++) {
		r->senders[i] = wire__get_str(&in, WIRE_LID_MAX);
		/* A sender is named, by logical id or tid: tasks look at its first byte. */
		if (!r->senders[i])
			in.failed = 1;
	}
	if (in.failed) {
		wire__replaydata_clear(r);
		return pvmmon_error_set(PVMMON_EPARSE, "replay data: damaged message");
	}
	r->record = in.p;
	r->record_len = in.left;
	return 0;
}

void wire__lid_encode(wire_buf *b, const wire_lid *l)
{
	wire__head_put(b);
	wire__put_str(b, l->lid);
}

void wire__lid_clear(wire_lid *l)
{
	free(l->lid);
	l->lid = NULL;
}

int wire__lid_decode(wire_lid *l, const uint8_t *data, size_t len)
{
	wire_in in;
	int rc;

	memset(l, 0, sizeof(*l));
	wire__in_init(&in, data, len);
	rc = wire__head_get(&in, "logical id query");
	if (rc < 0)
		return rc;
	l->lid = wire__get_str(&in, WIRE_LID_MAX);
	if (!l->lid)
		in.failed = 1;
	rc = wire__done(&in, "logical id query");
	if (rc < 0)
		wire__lid_clear(l);
	return rc;
}

void wire__lidtid_encode(wire_buf *b, const wire_lidtid *l)
{
	wire__head_put(b);
	wire__put_u32(b, (uint32_t)l->tid);
}

int wire__lidtid_decode(wire_lidtid *l, const uint8_t *data, size_t len)
{
	wire_in in;
	int rc;

	memset(l, 0, sizeof(*l));
	wire__in_init(&in, data, len);
	rc = wire__head_get(&in, "logical id answer");
	if (rc < 0)
		return rc;
	l->tid = (int32_t)wire__get_u32(&in);
	rc = wire__done(&in, "logical id answer");
	if (rc < 0)
		l->tid = 0;
	return rc;
}

void wire__diverged_encode(wire_buf *b, const wire_diverged *d)
{
	wire__head_put(b);
	wire__put_u64(b, d->index);
	wire__put_str(b, d->module);
	wire__put_u64(b, d->offset);
	wire__put_str(b, d->op);
	wire__put_str(b, d->expected);
	wire__put_str(b, d->observed);
}

void wire__diverged_clear(wire_diverged *d)
{
	free(d->module);
	free(d->op);
	free(d->expected);
	free(d->observed);
	memset(d, 0, sizeof(*d));
}

int wire__diverged_decode(wire_diverged *d, const uint8_t *data, size_t len)
{
	wire_in in;
	int rc;

	memset(d, 0, sizeof(*d));
	wire__in_init(&in, data, len);
	rc = wire__head_get(&in, "divergence");
	if (rc < 0)
		return rc;
	d->index = wire__get_u64(&in);
	d->module = wire__get_str(&in, WIRE_MAX_STR);
	d->offset = wire__get_u64(&in);
	d->op = wire__get_str(&in, MAX_OP);
	d->expected = wire__get_str(&in, MAX_TEXT);
	d->observed = wire__get_str(&in, MAX_TEXT);
	rc = wire__done(&in, "divergence");
	if (rc < 0)
		wire__diverged_clear(d);
	return rc;
}

void wire__stopped_encode(wire_buf *b, const wire_stopped *s)
{
	wire__head_put(b);
	wire__put_u64(b, s->event);
	wire__put_u32(b, s->pid);
	wire__put_str(b, s->module);
	wire__put_u64(b, s->offset);
	wire__put_u8(b, s->kind);
}

void wire__stopped_clear(wire_stopped *s)
{
	free(s->module);
	memset(s, 0, sizeof(*s));
}

int wire__stopped_decode(wire_stopped *s, const uint8_t *data, size_t len)
{
	wire_in in;
	int rc;

	memset(s, 0, sizeof(*s));
	wire__in_init(&in, data, len);
	rc = wire__head_get(&in, "stop report");
	if (rc < 0)
		return rc;
	s->event = wire__get_u64(&in);
	s->pid = wire__get_u32(&in);
	s->module = wire__get_str(&in, WIRE_MAX_STR);
	s->offset = wire__get_u64(&in);
	s->kind = wire__get_u8(&in);
	if (s->kind > WIRE_STOP_HOLDING)
		in.failed = 1;
	rc = wire__done(&in, "stop report");
	if (rc < 0)
		wire__stopped_clear(s);
	return rc;
}
