/* The codecs of a task's life with the monitor: the mailbox entry, registration and
 * welcome, spawn reports, tid queries, the clock offset's messages and the shared
 * calibration. */
#include <stdlib.h>
#include <string.h>

#include "pvmmon/errors.h"
#include "wire_control.h"
#include "wire_records.h"
#include "wire_task.h"

/* The rules of dynamic instrumentation can be long: one line per switched site. */
#define MAX_RULES (1u << 20)

void wire__mailbox_encode(wire_buf *b, const wire_mailbox *m)
{
	wire__head_put(b);
	wire__put_u32(b, (uint32_t)m->monitor_tid);
	wire__put_u32(b, (uint32_t)m->ctx);
	wire__put_u32(b, m->flush_ms);
	wire__put_u64(b, m->trace_events);
	wire__put_u64(b, m->token);
}

int wire__mailbox_decode(wire_mailbox *m, const uint8_t *data, size_t len)
{
	wire_in in;
	int rc;

	memset(m, 0, sizeof(*m));
	wire__in_init(&in, data, len);
	rc = wire__head_get(&in, "mailbox entry");
	if (rc < 0)
		return rc;
	m->monitor_tid = (int32_t)wire__get_u32(&in);
	m->ctx = (int32_t)wire__get_u32(&in);
	m->flush_ms = wire__get_u32(&in);
	m->trace_events = wire__get_u64(&in);
	m->token = wire__get_u64(&in);
	if (m->monitor_tid <= 0)
		in.failed = 1;
	return wire__done(&in, "mailbox entry");
}

void wire__register_encode(wire_buf *b, const wire_register *r)
{
	wire__head_put(b);
	wire__put_u32(b, (uint32_t)r->tid);
	wire__put_u32(b, (uint32_t)r->parent_tid);
	wire__put_u32(b, (uint32_t)r->pid);
	wire__put_u32(b, (uint32_t)r->dtid);
	wire__put_u64(b, (uint64_t)r->rt_start);
	wire__put_str(b, r->program);
	wire__put_u64(b, r->token);
	wire__put_u32(b, (uint32_t)r->earlier_tid);
	wire__put_str(b, r->exe);
}

void wire__register_clear(wire_register *r)
{
	free(r->program);
	free(r->exe);
	memset(r, 0, sizeof(*r));
}

int wire__register_decode(wire_register *r, const uint8_t *data, size_t len)
{
	wire_in in;
	int rc;

	memset(r, 0, sizeof(*r));
	wire__in_init(&in, data, len);
	rc = wire__head_get(&in, "registration");
	if (rc < 0)
		return rc;
	r->tid = (int32_t)wire__get_u32(&in);
	r->parent_tid = (int32_t)wire__get_u32(&in);
	r->pid = (int32_t)wire__get_u32(&in);
	r->dtid = (int32_t)wire__get_u32(&in);
	r->rt_start = wire__get_u64(&in);
	r->program = wire__get_str(&in, WIRE_MAX_STR);
	r->token = wire__get_u64(&in);
	r->earlier_tid = (int32_t)wire__get_u32(&in);
	r->exe = wire__get_str(&in, WIRE_MAX_STR);
	rc = wire__done(&in, "registration");
	if (rc < 0)
		wire__register_clear(r);
	return rc;
}

static void calib_put(wire_buf *b, const wire_calib *c)
{
	wire__put_u32(b, (uint32_t)c->tid);
	wire__put_u8(b, c->clock);
	wire__put_i64(b, c->proc_pair_ns);
	wire__put_i64(b, c->loop_pair_ns);
	wire__put_i64(b, c->wrapper_ns);
	wire__put_i64(b, c->pb_send_ns);
	wire__put_i64(b, c->pb_recv_ns);
	wire__put_i64(b, c->site_on_ps);
	wire__put_i64(b, c->site_off_ps);
}

/* A calibration is a task's (tid > 0, or 0 for none) on a known clock, its costs never
 * negative. */
static void calib_get(wire_in *in, wire_calib *c)
{
	c->tid = (int32_t)wire__get_u32(in);
	c->clock = wire__get_u8(in);
	c->proc_pair_ns = wire__get_i64(in);
	c->loop_pair_ns = wire__get_i64(in);
	c->wrapper_ns = wire__get_i64(in);
	c->pb_send_ns = wire__get_i64(in);
	c->pb_recv_ns = wire__get_i64(in);
	c->site_on_ps = wire__get_i64(in);
	c->site_off_ps = wire__get_i64(in);
	if (c->tid < 0 || c->clock > 2 || (c->tid && !c->clock) || c->proc_pair_ns < 0 ||
	    c->loop_pair_ns < 0 || c->wrapper_ns < 0 || c->pb_send_ns < 0 || c->pb_recv_ns < 0 ||
	    c->site_on_ps < 0 || c->site_off_ps < 0)
		in->failed = 1;
}

void wire__calib_encode(wire_buf *b, const wire_calib *c)
{
	wire__head_put(b);
	calib_put(b, c);
}

int wire__calib_decode(wire_calib *c, const uint8_t *data, size_t len)
{
	wire_in in;
	int rc;

	memset(c, 0, sizeof(*c));
	wire__in_init(&in, data, len);
	rc = wire__head_get(&in, "calibration");
	if (rc < 0)
		return rc;
	calib_get(&in, c);
	if (c->tid == 0)
		in.failed = 1;
	rc = wire__done(&in, "calibration");
	if (rc < 0)
		memset(c, 0, sizeof(*c));
	return rc;
}

void wire__welcome_encode(wire_buf *b, const wire_welcome *w)
{
	wire__head_put(b);
	wire__put_u32(b, w->index);
	wire__put_str(b, w->lid);
	wire__put_i64(b, w->spawn_rt);
	wire__cp_put(b, &w->from);
	wire__put_u32(b, w->cp_gen);
	wire__put_u8(b, w->collecting ? 1 : 0);
	wire__put_u8(b, w->exclusive ? 1 : 0);
	wire__put_str(b, w->procs);
	wire__put_u8(b, w->rr);
	wire__put_u8(b, w->preserve ? 1 : 0);
	wire__put_str(b, w->rules);
	wire__put_u32(b, w->budget);
	wire__put_u32(b, w->hist_buckets);
	wire__put_i64(b, w->hist_width);
	wire__put_u32(b, w->hist_hottest);
	wire__put_u8(b, w->hist_defaults ? 1 : 0);
	wire__put_str(b, w->hist_run);
	wire__put_str(b, w->hist_ctl);
	calib_put(b, &w->cal);
	wire__put_u8(b, w->sample_ctl ? 1 : 0);
	wire__put_u32(b, w->sample_hz);
}

void wire__welcome_clear(wire_welcome *w)
{
	free(w->lid);
	free(w->procs);
	free(w->rules);
	free(w->hist_run);
	free(w->hist_ctl);
	memset(w, 0, sizeof(*w));
}

int wire__welcome_decode(wire_welcome *w, const uint8_t *data, size_t len)
{
	wire_in in;
	int rc;

	memset(w, 0, sizeof(*w));
	wire__in_init(&in, data, len);
	rc = wire__head_get(&in, "welcome");
	if (rc < 0)
		return rc;
	w->index = wire__get_u32(&in);
	w->lid = wire__get_str(&in, WIRE_MAX_STR);
	w->spawn_rt = wire__get_i64(&in);
	wire__cp_get(&in, &w->from);
	w->cp_gen = wire__get_u32(&in);
	w->collecting = wire__get_flag(&in);
	w->exclusive = wire__get_flag(&in);
	w->procs = wire__get_str(&in, WIRE_MAX_STR);
	/* Neither, record or replay. */
	w->rr = wire__get_u8(&in);
	if (w->rr > 2)
		in.failed = 1;
	w->preserve = wire__get_flag(&in);
	w->rules = wire__get_str(&in, MAX_RULES);
	w->budget = wire__get_u32(&in);
	w->hist_buckets = wire__get_u32(&in);
	w->hist_width = wire__get_i64(&in);
	w->hist_hottest = wire__get_u32(&in);
	w->hist_defaults = wire__get_flag(&in);
	w->hist_run = wire__get_str(&in, WIRE_MAX_STR);
	w->hist_ctl = wire__get_str(&in, WIRE_MAX_STR);
	calib_get(&in, &w->cal);
	w->sample_ctl = wire__get_flag(&in);
	w->sample_hz = wire__get_u32(&in);
	if (w->sample_hz > WIRE_SAMPLE_MAX_HZ || (!w->sample_ctl && w->sample_hz))
		in.failed = 1;
	/* A histogram has at least two buckets, at most WIRE_HIST_MAX_BUCKETS, of a
	 * positive width. */
	if (w->hist_buckets &&
	    (w->hist_buckets < 2 || w->hist_buckets > WIRE_HIST_MAX_BUCKETS || w->hist_width <= 0))
		in.failed = 1;
	rc = wire__done(&in, "welcome");
	if (rc < 0)
		wire__welcome_clear(w);
	return rc;
}

void wire__spawned_encode(wire_buf *b, const wire_spawned *s)
{
	wire__head_put(b);
	wire__put_u32(b, s->base);
	wire__put_u32(b, s->n);
	for (uint32_t i = 0; i < s->n; i++)
		wire__put_u32(b, (uint32_t)s->tids[i]);
	wire__put_i64(b, s->rt);
	wire__cp_put(b, &s->cp);
}

void wire__spawned_clear(wire_spawned *s)
{
	free(s->tids);
	memset(s, 0, sizeof(*s));
}

int wire__spawned_decode(wire_spawned *s, const uint8_t *data, size_t len)
{
	wire_in in;
	size_t n;
	int rc;

	memset(s, 0, sizeof(*s));
	wire__in_init(&in, data, len);
	rc = wire__head_get(&in, "spawn report");
	if (rc < 0)
		return rc;
	s->base = wire__get_u32(&in);
	s->tids = wire__get_array(&in, &n, sizeof(*s->tids), 4);
	s->n = (uint32_t)n;
	if (n > WIRE_SPAWNED_MAX)
		in.failed = 1;
	for (uint32_t i = 0; i < s->n && !in.failed; i++)
		s->tids[i] = (int32_t)wire__get_u32(&in);
	s->rt = wire__get_i64(&in);
	wire__cp_get(&in, &s->cp);
	rc = wire__done(&in, "spawn report");
	if (rc < 0)
		wire__spawned_clear(s);
	return rc;
}

void wire__query_encode(wire_buf *b, const wire_query *q)
{
	wire__head_put(b);
	wire__put_u32(b, (uint32_t)q->tid);
}

int wire__query_decode(wire_query *q, const uint8_t *data, size_t len)
{
	wire_in in;
	int rc;

	memset(q, 0, sizeof(*q));
	wire__in_init(&in, data, len);
	rc = wire__head_get(&in, "query");
	if (rc < 0)
		return rc;
	q->tid = (int32_t)wire__get_u32(&in);
	return wire__done(&in, "query");
}

void wire__answer_encode(wire_buf *b, const wire_answer *a)
{
	wire__head_put(b);
	wire__put_u32(b, (uint32_t)a->tid);
	wire__put_u8(b, a->monitored ? 1 : 0);
	wire__put_i64(b, a->m_recv);
	wire__put_i64(b, a->m_send);
}

int wire__answer_decode(wire_answer *a, const uint8_t *data, size_t len)
{
	wire_in in;
	int rc;

	memset(a, 0, sizeof(*a));
	wire__in_init(&in, data, len);
	rc = wire__head_get(&in, "answer");
	if (rc < 0)
		return rc;
	a->tid = (int32_t)wire__get_u32(&in);
	a->monitored = wire__get_flag(&in);
	a->m_recv = wire__get_i64(&in);
	a->m_send = wire__get_i64(&in);
	return wire__done(&in, "answer");
}

void wire__clock_encode(wire_buf *b, const wire_clock *c)
{
	wire__head_put(b);
	wire__put_u32(b, (uint32_t)c->tid);
	wire__put_i64(b, c->offset);
	wire__put_i64(b, c->uncertainty);
	wire__put_i64(b, c->rtt);
	wire__put_i64(b, c->at);
	wire__put_u32(b, c->samples);
}

int wire__clock_decode(wire_clock *c, const uint8_t *data, size_t len)
{
	wire_in in;
	int rc;

	memset(c, 0, sizeof(*c));
	wire__in_init(&in, data, len);
	rc = wire__head_get(&in, "clock estimate");
	if (rc < 0)
		return rc;
	c->tid = (int32_t)wire__get_u32(&in);
	c->offset = wire__get_i64(&in);
	c->uncertainty = wire__get_i64(&in);
	c->rtt = wire__get_i64(&in);
	c->at = wire__get_i64(&in);
	c->samples = wire__get_u32(&in);
	/* A negative spread or round trip comes from no clock: the message is damaged. */
	if (c->uncertainty < 0 || c->rtt < 0)
		in.failed = 1;
	return wire__done(&in, "clock estimate");
}

void wire__clockset_encode(wire_buf *b, const wire_clockset *c)
{
	wire__head_put(b);
	wire__put_i64(b, c->offset);
	wire__put_i64(b, c->uncertainty);
	wire__put_i64(b, c->tref);
	wire__put_i64(b, c->rate_ppt);
	wire__put_u8(b, c->keeper);
}

int wire__clockset_decode(wire_clockset *c, const uint8_t *data, size_t len)
{
	wire_in in;
	int rc;

	memset(c, 0, sizeof(*c));
	wire__in_init(&in, data, len);
	rc = wire__head_get(&in, "clock offset");
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

void wire__fatal_encode(wire_buf *b, const wire_fatal *f)
{
	wire__head_put(b);
	wire__put_u32(b, (uint32_t)f->sig);
	wire__put_u32(b, f->stmt);
	wire__put_u8(b, f->where);
	wire__put_u8(b, f->records);
}

int wire__fatal_decode(wire_fatal *f, const uint8_t *data, size_t len)
{
	wire_in in;
	int rc;

	memset(f, 0, sizeof(*f));
	wire__in_init(&in, data, len);
	rc = wire__head_get(&in, "fatal report");
	if (rc < 0)
		return rc;
	f->sig = (int32_t)wire__get_u32(&in);
	f->stmt = wire__get_u32(&in);
	f->where = wire__get_u8(&in);
	f->records = wire__get_u8(&in);
	/* Signal numbers are small and positive on every system PVM runs on; 0 is an exit
	 * without pvm_exit. */
	if (f->sig < 0 || f->sig > 128 || f->where > WIRE_FATAL_HOOKS || f->records > 1)
		in.failed = 1;
	rc = wire__done(&in, "fatal report");
	if (rc < 0)
		memset(f, 0, sizeof(*f));
	return rc;
}
