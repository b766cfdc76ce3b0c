/* The codecs of a task's life with the monitor: the mailbox entry, registration and
 * welcome, spawn reports, tid queries and the clock offset's messages. */
#include <stdlib.h>
#include <string.h>

#include "pvmmon/errors.h"
#include "wire_impl.h"

/* The rules of dynamic instrumentation can be long: one line per switched site. */
#define MAX_RULES (1u << 20)

void wire_mailbox_encode(wire_buf *b, const wire_mailbox *m)
{
	wire_head_put(b);
	wire_put_u32(b, (uint32_t)m->monitor_tid);
	wire_put_u32(b, (uint32_t)m->ctx);
	wire_put_u32(b, m->flush_ms);
	wire_put_u64(b, m->trace_events);
	wire_put_u64(b, m->token);
}

int wire_mailbox_decode(wire_mailbox *m, const uint8_t *data, size_t len)
{
	wire_in in;
	int rc;

	memset(m, 0, sizeof(*m));
	wire_in_init(&in, data, len);
	rc = wire_head_get(&in, "mailbox entry");
	if (rc < 0)
		return rc;
	m->monitor_tid = (int32_t)wire_get_u32(&in);
	m->ctx = (int32_t)wire_get_u32(&in);
	m->flush_ms = wire_get_u32(&in);
	m->trace_events = wire_get_u64(&in);
	m->token = wire_get_u64(&in);
	if (m->monitor_tid <= 0)
		in.failed = 1;
	return wire__done(&in, "mailbox entry");
}

void wire_register_encode(wire_buf *b, const wire_register *r)
{
	wire_head_put(b);
	wire_put_u32(b, (uint32_t)r->tid);
	wire_put_u32(b, (uint32_t)r->parent_tid);
	wire_put_u32(b, (uint32_t)r->pid);
	wire_put_u32(b, (uint32_t)r->dtid);
	wire_put_u64(b, (uint64_t)r->rt_start);
	wire_put_str(b, r->program);
	wire_put_u64(b, r->token);
}

void wire_register_clear(wire_register *r)
{
	free(r->program);
	memset(r, 0, sizeof(*r));
}

int wire_register_decode(wire_register *r, const uint8_t *data, size_t len)
{
	wire_in in;
	int rc;

	memset(r, 0, sizeof(*r));
	wire_in_init(&in, data, len);
	rc = wire_head_get(&in, "registration");
	if (rc < 0)
		return rc;
	r->tid = (int32_t)wire_get_u32(&in);
	r->parent_tid = (int32_t)wire_get_u32(&in);
	r->pid = (int32_t)wire_get_u32(&in);
	r->dtid = (int32_t)wire_get_u32(&in);
	r->rt_start = wire_get_u64(&in);
	r->program = wire_get_str(&in, WIRE_MAX_STR);
	r->token = wire_get_u64(&in);
	rc = wire__done(&in, "registration");
	if (rc < 0)
		wire_register_clear(r);
	return rc;
}

void wire_welcome_encode(wire_buf *b, const wire_welcome *w)
{
	wire_head_put(b);
	wire_put_u32(b, w->index);
	wire_put_str(b, w->lid);
	wire__put_i64(b, w->spawn_rt);
	wire_cp_put(b, &w->from);
	wire_put_u32(b, w->cp_gen);
	wire_put_u8(b, w->collecting ? 1 : 0);
	wire_put_u8(b, w->exclusive ? 1 : 0);
	wire_put_str(b, w->procs);
	wire_put_u8(b, w->rr);
	wire_put_u8(b, w->preserve ? 1 : 0);
	wire_put_str(b, w->rules);
	wire_put_u32(b, w->budget);
}

void wire_welcome_clear(wire_welcome *w)
{
	free(w->lid);
	free(w->procs);
	free(w->rules);
	memset(w, 0, sizeof(*w));
}

int wire_welcome_decode(wire_welcome *w, const uint8_t *data, size_t len)
{
	wire_in in;
	int rc;

	memset(w, 0, sizeof(*w));
	wire_in_init(&in, data, len);
	rc = wire_head_get(&in, "welcome");
	if (rc < 0)
		return rc;
	w->index = wire_get_u32(&in);
	w->lid = wire_get_str(&in, WIRE_MAX_STR);
	w->spawn_rt = wire__get_i64(&in);
	wire_cp_get(&in, &w->from);
	w->cp_gen = wire_get_u32(&in);
	w->collecting = wire__get_flag(&in);
	w->exclusive = wire__get_flag(&in);
	w->procs = wire_get_str(&in, WIRE_MAX_STR);
	/* Neither, record or replay. */
	w->rr = wire_get_u8(&in);
	if (w->rr > 2)
		in.failed = 1;
	w->preserve = wire__get_flag(&in);
	w->rules = wire_get_str(&in, MAX_RULES);
	w->budget = wire_get_u32(&in);
	rc = wire__done(&in, "welcome");
	if (rc < 0)
		wire_welcome_clear(w);
	return rc;
}

void wire_spawned_encode(wire_buf *b, const wire_spawned *s)
{
	wire_head_put(b);
	wire_put_u32(b, s->base);
	wire_put_u32(b, s->n);
	for (uint32_t i = 0; i < s->n; i++)
		wire_put_u32(b, (uint32_t)s->tids[i]);
	wire__put_i64(b, s->rt);
	wire_cp_put(b, &s->cp);
}

void wire_spawned_clear(wire_spawned *s)
{
	free(s->tids);
	memset(s, 0, sizeof(*s));
}

int wire_spawned_decode(wire_spawned *s, const uint8_t *data, size_t len)
{
	wire_in in;
	size_t n;
	int rc;

	memset(s, 0, sizeof(*s));
	wire_in_init(&in, data, len);
	rc = wire_head_get(&in, "spawn report");
	if (rc < 0)
		return rc;
	s->base = wire_get_u32(&in);
	s->tids = wire__get_array(&in, &n, sizeof(*s->tids), 4);
	s->n = (uint32_t)n;
	if (n > WIRE_SPAWNED_MAX)
		in.failed = 1;
	for (uint32_t i = 0; i < s->n && !in.failed; i++)
		s->tids[i] = (int32_t)wire_get_u32(&in);
	s->rt = wire__get_i64(&in);
	wire_cp_get(&in, &s->cp);
	rc = wire__done(&in, "spawn report");
	if (rc < 0)
		wire_spawned_clear(s);
	return rc;
}

void wire_query_encode(wire_buf *b, const wire_query *q)
{
	wire_head_put(b);
	wire_put_u32(b, (uint32_t)q->tid);
}

int wire_query_decode(wire_query *q, const uint8_t *data, size_t len)
{
	wire_in in;
	int rc;

	memset(q, 0, sizeof(*q));
	wire_in_init(&in, data, len);
	rc = wire_head_get(&in, "query");
	if (rc < 0)
		return rc;
	q->tid = (int32_t)wire_get_u32(&in);
	return wire__done(&in, "query");
}

void wire_answer_encode(wire_buf *b, const wire_answer *a)
{
	wire_head_put(b);
	wire_put_u32(b, (uint32_t)a->tid);
	wire_put_u8(b, a->monitored ? 1 : 0);
	wire__put_i64(b, a->m_recv);
	wire__put_i64(b, a->m_send);
}

int wire_answer_decode(wire_answer *a, const uint8_t *data, size_t len)
{
	wire_in in;
	int rc;

	memset(a, 0, sizeof(*a));
	wire_in_init(&in, data, len);
	rc = wire_head_get(&in, "answer");
	if (rc < 0)
		return rc;
	a->tid = (int32_t)wire_get_u32(&in);
	a->monitored = wire__get_flag(&in);
	a->m_recv = wire__get_i64(&in);
	a->m_send = wire__get_i64(&in);
	return wire__done(&in, "answer");
}

void wire_clock_encode(wire_buf *b, const wire_clock *c)
{
	wire_head_put(b);
	wire_put_u32(b, (uint32_t)c->tid);
	wire__put_i64(b, c->offset);
	wire__put_i64(b, c->uncertainty);
	wire__put_i64(b, c->rtt);
	wire__put_i64(b, c->at);
	wire_put_u32(b, c->samples);
}

int wire_clock_decode(wire_clock *c, const uint8_t *data, size_t len)
{
	wire_in in;
	int rc;

	memset(c, 0, sizeof(*c));
	wire_in_init(&in, data, len);
	rc = wire_head_get(&in, "clock estimate");
	if (rc < 0)
		return rc;
	c->tid = (int32_t)wire_get_u32(&in);
	c->offset = wire__get_i64(&in);
	c->uncertainty = wire__get_i64(&in);
	c->rtt = wire__get_i64(&in);
	c->at = wire__get_i64(&in);
	c->samples = wire_get_u32(&in);
	/* A negative spread or round trip comes from no clock: the message is damaged. */
	if (c->uncertainty < 0 || c->rtt < 0)
		in.failed = 1;
	return wire__done(&in, "clock estimate");
}

void wire_clockset_encode(wire_buf *b, const wire_clockset *c)
{
	wire_head_put(b);
	wire__put_i64(b, c->offset);
	wire__put_i64(b, c->uncertainty);
	wire__put_i64(b, c->tref);
	wire__put_i64(b, c->rate_ppt);
	wire_put_u8(b, c->keeper);
}

int wire_clockset_decode(wire_clockset *c, const uint8_t *data, size_t len)
{
	wire_in in;
	int rc;

	memset(c, 0, sizeof(*c));
	wire_in_init(&in, data, len);
	rc = wire_head_get(&in, "clock offset");
	if (rc < 0)
		return rc;
	c->offset = wire__get_i64(&in);
	c->uncertainty = wire__get_i64(&in);
	c->tref = wire__get_i64(&in);
	c->rate_ppt = wire__get_i64(&in);
	c->keeper = wire__get_flag(&in);
	/* No quartz drifts by a thousandth: such a rate is damage, not a clock. */
	if (c->uncertainty < 0 || c->rate_ppt > 1000000000 || c->rate_ppt < -1000000000)
		in.failed = 1;
	return wire__done(&in, "clock offset");
}

void wire_fatal_encode(wire_buf *b, const wire_fatal *f)
{
	wire_head_put(b);
	wire_put_u32(b, (uint32_t)f->sig);
	wire_put_u32(b, f->stmt);
	wire_put_u8(b, f->where);
	wire_put_u8(b, f->records);
}

int wire_fatal_decode(wire_fatal *f, const uint8_t *data, size_t len)
{
	wire_in in;
	int rc;

	memset(f, 0, sizeof(*f));
	wire_in_init(&in, data, len);
	rc = wire_head_get(&in, "fatal report");
	if (rc < 0)
		return rc;
	f->sig = (int32_t)wire_get_u32(&in);
	f->stmt = wire_get_u32(&in);
	f->where = wire_get_u8(&in);
	f->records = wire_get_u8(&in);
	/* Signal numbers are small and positive on every system PVM runs on. */
	if (f->sig <= 0 || f->sig > 128 || f->where > WIRE_FATAL_HOOKS || f->records > 1)
		in.failed = 1;
	rc = wire__done(&in, "fatal report");
	if (rc < 0)
		memset(f, 0, sizeof(*f));
	return rc;
}
