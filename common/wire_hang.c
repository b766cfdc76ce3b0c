/* The codecs of a task's wait reports: WAIT (what a blocked receive waits for, what is
 * in flight and what is queued unmatched) and WAITEND. */
#include <stdlib.h>
#include <string.h>

#include "pvmmon/errors.h"
#include "wire_hang.h"

void wire__wait_encode(wire_buf *b, const wire_wait *w)
{
	uint32_t i;

	wire__head_put(b);
	wire__put_u32(b, w->seq);
	wire__put_u8(b, w->op);
	wire__put_u32(b, (uint32_t)w->src);
	wire__put_u32(b, (uint32_t)w->tag);
	wire__put_u32(b, (uint32_t)w->ctx);
	wire__put_u32(b, w->stmt);
	wire__put_str(b, w->module);
	wire__put_u64(b, w->offset);
	wire__put_i64(b, w->rt_start);
	wire__put_i64(b, w->vt_start);
	wire__put_i64(b, w->deadline);
	wire__put_u32(b, w->npeers);
	for (i = 0; i < w->npeers; i++) {
		wire__put_u32(b, (uint32_t)w->peers[i].tid);
		wire__put_u32(b, w->peers[i].sent);
		wire__put_u32(b, w->peers[i].recv);
	}
	wire__put_u32(b, w->nqueued);
	for (i = 0; i < w->nqueued; i++) {
		wire__put_u32(b, (uint32_t)w->queued[i].src);
		wire__put_u32(b, (uint32_t)w->queued[i].tag);
		wire__put_u32(b, (uint32_t)w->queued[i].ctx);
		wire__put_u32(b, w->queued[i].len);
	}
	wire__put_u32(b, w->queued_total);
}

void wire__wait_clear(wire_wait *w)
{
	free(w->module);
	free(w->peers);
	free(w->queued);
	memset(w, 0, sizeof(*w));
}

int wire__wait_decode(wire_wait *w, const uint8_t *data, size_t len)
{
	wire_in in;
	size_t count;
	int rc;

	memset(w, 0, sizeof(*w));
	wire__in_init(&in, data, len);
	rc = wire__head_get(&in, "wait report");
	if (rc < 0)
		return rc;
	w->seq = wire__get_u32(&in);
	w->op = wire__get_u8(&in);
	w->src = (int32_t)wire__get_u32(&in);
	w->tag = (int32_t)wire__get_u32(&in);
	w->ctx = (int32_t)wire__get_u32(&in);
	w->stmt = wire__get_u32(&in);
	w->module = wire__get_str(&in, WIRE_MAX_STR);
	w->offset = wire__get_u64(&in);
	w->rt_start = wire__get_i64(&in);
	w->vt_start = wire__get_i64(&in);
	w->deadline = wire__get_i64(&in);
	w->peers = wire__get_array(&in, &count, sizeof(*w->peers), 12);
	w->npeers = (uint32_t)count;
	for (size_t i = 0; i < count && !in.failed; i++) {
		w->peers[i].tid = (int32_t)wire__get_u32(&in);
		w->peers[i].sent = wire__get_u32(&in);
		w->peers[i].recv = wire__get_u32(&in);
	}
	w->queued = wire__get_array(&in, &count, sizeof(*w->queued), 16);
	w->nqueued = (uint32_t)count;
	for (size_t i = 0; i < count && !in.failed; i++) {
		w->queued[i].src = (int32_t)wire__get_u32(&in);
		w->queued[i].tag = (int32_t)wire__get_u32(&in);
		w->queued[i].ctx = (int32_t)wire__get_u32(&in);
		w->queued[i].len = wire__get_u32(&in);
	}
	w->queued_total = wire__get_u32(&in);
	if (w->op > WIRE_WAIT_FORCED || w->nqueued > WIRE_WAIT_MAX_QUEUED ||
	    w->queued_total < w->nqueued)
		in.failed = 1;
	rc = wire__done(&in, "wait report");
	if (rc < 0)
		wire__wait_clear(w);
	return rc;
}

void wire__waitend_encode(wire_buf *b, const wire_waitend *e)
{
	wire__head_put(b);
	wire__put_u32(b, e->seq);
	wire__put_i64(b, e->rt_end);
}

int wire__waitend_decode(wire_waitend *e, const uint8_t *data, size_t len)
{
	wire_in in;
	int rc;

	memset(e, 0, sizeof(*e));
	wire__in_init(&in, data, len);
	rc = wire__head_get(&in, "wait end");
	if (rc < 0)
		return rc;
	e->seq = wire__get_u32(&in);
	e->rt_end = wire__get_i64(&in);
	return wire__done(&in, "wait end");
}
