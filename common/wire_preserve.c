/* The codecs of preserve mode's messages: requests and reports, decisions, and the
 * monitor's request for a report. */
#include <stdlib.h>
#include <string.h>

#include "pvmmon/errors.h"
#include "wire_preserve.h"

void wire__pwait_encode(wire_buf *b, const wire_pwait *w)
{
	uint32_t i;

	wire__head_put(b);
	wire__put_u32(b, w->req);
	wire__put_u8(b, w->kind);
	wire__put_u32(b, (uint32_t)w->src);
	wire__put_u32(b, (uint32_t)w->tag);
	wire__put_i64(b, w->vt);
	wire__put_i64(b, w->deadline);
	wire__put_i64(b, w->trans);
	wire__put_u32(b, w->local);
	wire__put_u32(b, w->notices);
	wire__put_i64(b, w->waited);
	wire__put_i64(b, w->unc);
	wire__put_str(b, w->module);
	wire__put_u64(b, w->offset);
	wire__put_u32(b, w->nsent);
	for (i = 0; i < w->nsent; i++) {
		wire__put_u32(b, (uint32_t)w->sent[i].tid);
		wire__put_u32(b, w->sent[i].n);
		wire__put_i64(b, w->sent[i].vs);
	}
	wire__put_u32(b, w->nseen);
	for (i = 0; i < w->nseen; i++) {
		wire__put_u32(b, (uint32_t)w->seen[i].tid);
		wire__put_u32(b, w->seen[i].n);
	}
	wire__put_u32(b, w->ncand);
	for (i = 0; i < w->ncand; i++) {
		wire__put_u32(b, (uint32_t)w->cand[i].src);
		wire__put_u32(b, (uint32_t)w->cand[i].tag);
		wire__put_i64(b, w->cand[i].va);
		wire__put_i64(b, w->cand[i].vs);
		wire__put_u32(b, w->cand[i].seq);
	}
	wire__put_u8(b, w->decided);
	wire__put_u32(b, (uint32_t)w->taken_src);
	wire__put_u32(b, (uint32_t)w->taken_tag);
	wire__put_i64(b, w->window);
	wire__put_i64(b, w->horizon);
	wire__put_u8(b, w->reach);
	wire__put_u32(b, w->timed);
}

void wire__pwait_clear(wire_pwait *w)
{
	free(w->module);
	free(w->sent);
	free(w->seen);
	free(w->cand);
	memset(w, 0, sizeof(*w));
}

/* A count array; sent counts carry each first send's virtual time too. */
static void get_counts(wire_in *in, wire_pcount **a, uint32_t *n, int sent)
{
	size_t count;

	*a = wire__get_array(in, &count, sizeof(**a), sent ? 16 : 8);
	*n = (uint32_t)count;
	for (size_t i = 0; i < count && !in->failed; i++) {
		(*a)[i].tid = (int32_t)wire__get_u32(in);
		(*a)[i].n = wire__get_u32(in);
		(*a)[i].vs = sent ? wire__get_i64(in) : INT64_MIN;
	}
}

int wire__pwait_decode(wire_pwait *w, const uint8_t *data, size_t len)
{
	wire_in in;
	size_t count;
	int rc;

	memset(w, 0, sizeof(*w));
	wire__in_init(&in, data, len);
	rc = wire__head_get(&in, "preserve request");
	if (rc < 0)
		return rc;
	w->req = wire__get_u32(&in);
	w->kind = wire__get_u8(&in);
	w->src = (int32_t)wire__get_u32(&in);
	w->tag = (int32_t)wire__get_u32(&in);
	w->vt = wire__get_i64(&in);
	w->deadline = wire__get_i64(&in);
	w->trans = wire__get_i64(&in);
	w->local = wire__get_u32(&in);
	w->notices = wire__get_u32(&in);
	w->waited = wire__get_i64(&in);
	w->unc = wire__get_i64(&in);
	w->module = wire__get_str(&in, WIRE_MAX_STR);
	w->offset = wire__get_u64(&in);
	get_counts(&in, &w->sent, &w->nsent, 1);
	get_counts(&in, &w->seen, &w->nseen, 0);
	w->cand = wire__get_array(&in, &count, sizeof(*w->cand), 8);
	w->ncand = (uint32_t)count;
	for (size_t i = 0; i < count && !in.failed; i++) {
		w->cand[i].src = (int32_t)wire__get_u32(&in);
		w->cand[i].tag = (int32_t)wire__get_u32(&in);
		w->cand[i].va = wire__get_i64(&in);
		w->cand[i].vs = wire__get_i64(&in);
		w->cand[i].seq = wire__get_u32(&in);
	}
	w->decided = wire__get_u8(&in);
	w->taken_src = (int32_t)wire__get_u32(&in);
	w->taken_tag = (int32_t)wire__get_u32(&in);
	w->window = wire__get_i64(&in);
	w->horizon = wire__get_i64(&in);
	w->reach = wire__get_u8(&in);
	w->timed = wire__get_u32(&in);
	if (w->reach & ~WIRE_PW_REACH_MASK)
		in.failed = 1;
	if (w->kind > WIRE_PW_TRECV || w->trans < 0 || w->waited < 0 || w->unc < 0 ||
	    w->decided > 1 || (w->decided && w->kind != WIRE_PW_RUNNING) || w->window < 0)
		in.failed = 1;
	rc = wire__done(&in, "preserve request");
	if (rc < 0)
		wire__pwait_clear(w);
	return rc;
}

void wire__pgrant_encode(wire_buf *b, const wire_pgrant *g)
{
	wire__head_put(b);
	wire__put_u32(b, g->req);
	wire__put_u8(b, g->verdict);
	wire__put_u32(b, (uint32_t)g->src);
	wire__put_u32(b, (uint32_t)g->tag);
	wire__put_u8(b, g->table);
	wire__put_u8(b, g->know);
	wire__put_i64(b, g->umax);
	wire__put_u32(b, g->nb);
	for (uint32_t i = 0; i < g->nb; i++) {
		wire__put_u32(b, (uint32_t)g->b[i].tid);
		wire__put_u8(b, g->b[i].dep);
		wire__put_i64(b, g->b[i].bound);
		wire__put_i64(b, g->b[i].vt);
		wire__put_u32(b, g->b[i].seq);
		wire__put_u32(b, g->b[i].rank);
		wire__put_u8(b, g->b[i].knows);
		wire__put_i64(b, g->b[i].trans);
	}
}

void wire__pgrant_clear(wire_pgrant *g)
{
	free(g->b);
	g->b = NULL;
	g->nb = 0;
}

int wire__pgrant_decode(wire_pgrant *g, const uint8_t *data, size_t len)
{
	wire_in in;
	size_t count;
	int rc;

	memset(g, 0, sizeof(*g));
	wire__in_init(&in, data, len);
	rc = wire__head_get(&in, "preserve decision");
	if (rc < 0)
		return rc;
	g->req = wire__get_u32(&in);
	g->verdict = wire__get_u8(&in);
	g->src = (int32_t)wire__get_u32(&in);
	g->tag = (int32_t)wire__get_u32(&in);
	g->table = wire__get_u8(&in);
	g->know = wire__get_u8(&in);
	g->umax = wire__get_i64(&in);
	g->b = wire__get_array(&in, &count, sizeof(*g->b), 38);
	g->nb = (uint32_t)count;
	for (size_t i = 0; i < count && !in.failed; i++) {
		g->b[i].tid = (int32_t)wire__get_u32(&in);
		g->b[i].dep = wire__get_u8(&in);
		g->b[i].bound = wire__get_i64(&in);
		g->b[i].vt = wire__get_i64(&in);
		g->b[i].seq = wire__get_u32(&in);
		g->b[i].rank = wire__get_u32(&in);
		g->b[i].knows = wire__get_u8(&in);
		g->b[i].trans = wire__get_i64(&in);
		if (g->b[i].dep > WIRE_PB_DEP_ANY || g->b[i].trans < 0 ||
		    (g->b[i].knows & ~(WIRE_PB_KNOWS_REQ | WIRE_PB_KNOWS_LONE)))
			in.failed = 1;
	}
	if (g->verdict > WIRE_PG_NONE || g->table > 1 || g->know > 1 || g->umax < 0)
		in.failed = 1;
	rc = wire__done(&in, "preserve decision");
	if (rc < 0)
		wire__pgrant_clear(g);
	return rc;
}

void wire__pblock_encode(wire_buf *b, const wire_pblock *k)
{
	wire__head_put(b);
	wire__put_i64(b, k->vt);
	wire__put_u32(b, k->seen);
	wire__put_u32(b, k->sent);
	wire__put_u8(b, k->quiet);
	wire__put_u8(b, k->exiting);
	wire__put_u64(b, k->sends);
	wire__put_u8(b, k->any);
	wire__put_u8(b, k->alone);
	wire__put_u8(b, k->away);
}

int wire__pblock_decode(wire_pblock *k, const uint8_t *data, size_t len)
{
	wire_in in;
	int rc;

	memset(k, 0, sizeof(*k));
	wire__in_init(&in, data, len);
	rc = wire__head_get(&in, "preserve block notice");
	if (rc < 0)
		return rc;
	k->vt = wire__get_i64(&in);
	k->seen = wire__get_u32(&in);
	k->sent = wire__get_u32(&in);
	k->quiet = wire__get_u8(&in);
	k->exiting = wire__get_u8(&in);
	k->sends = wire__get_u64(&in);
	k->any = wire__get_u8(&in);
	k->alone = wire__get_u8(&in);
	k->away = wire__get_u8(&in);
	if (k->quiet > 1 || k->exiting > 1 || k->any > 1 || k->alone > 1 || k->away > 1 ||
	    (k->any && k->exiting) || (k->away && (k->any || k->exiting)))
		in.failed = 1;
	return wire__done(&in, "preserve block notice");
}

void wire__pask_encode(wire_buf *b) { wire__head_put(b); }

int wire__pask_decode(const uint8_t *data, size_t len)
{
	wire_in in;
	int rc;

	wire__in_init(&in, data, len);
	rc = wire__head_get(&in, "preserve state request");
	return rc < 0 ? rc : wire__done(&in, "preserve state request");
}
