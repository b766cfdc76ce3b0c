/* Byte encodings between tasks and the monitor: piggyback, registration, record flushes. */
#include <stdlib.h>
#include <string.h>

#include "pvmmon/errors.h"
#include "wire.h"

/* Records and strings above these sizes are damage, not data. */
#define MAX_STR 4096
#define MAX_ITEMS (1u << 20)

void wire_buf_init(wire_buf *b)
{
	memset(b, 0, sizeof(*b));
}

void wire_buf_reset(wire_buf *b)
{
	b->len = 0;
	b->failed = 0;
}

void wire_buf_free(wire_buf *b)
{
	free(b->data);
	memset(b, 0, sizeof(*b));
}

static uint8_t *reserve(wire_buf *b, size_t n)
{
	if (b->failed)
		return NULL;
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		uint8_t *d;

		while (cap < b->len + n)
			cap *= 2;
		d = realloc(b->data, cap);
		if (!d) {
			b->failed = 1;
			return NULL;
		}
		b->data = d;
		b->cap = cap;
	}
	b->len += n;
	return b->data + b->len - n;
}

static void store32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static void store64(uint8_t *p, uint64_t v)
{
	store32(p, (uint32_t)v);
	store32(p + 4, (uint32_t)(v >> 32));
}

static uint32_t load32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t load64(const uint8_t *p)
{
	return (uint64_t)load32(p) | (uint64_t)load32(p + 4) << 32;
}

void wire_put_u8(wire_buf *b, uint8_t v)
{
	uint8_t *p = reserve(b, 1);

	if (p)
		*p = v;
}

void wire_put_u32(wire_buf *b, uint32_t v)
{
	uint8_t *p = reserve(b, 4);

	if (p)
		store32(p, v);
}

void wire_put_u64(wire_buf *b, uint64_t v)
{
	uint8_t *p = reserve(b, 8);

	if (p)
		store64(p, v);
}

void wire_put_str(wire_buf *b, const char *s)
{
	size_t n;
	uint8_t *p;

	if (!s) {
		wire_put_u32(b, 0xffffffffu);
		return;
	}
	n = strlen(s);
	if (n > MAX_STR)
		n = MAX_STR;
	wire_put_u32(b, (uint32_t)n);
	p = reserve(b, n);
	if (p)
		memcpy(p, s, n);
}

void wire_in_init(wire_in *in, const void *data, size_t len)
{
	in->p = data;
	in->left = len;
	in->failed = 0;
}

static const uint8_t *take(wire_in *in, size_t n)
{
	const uint8_t *p;

	if (in->failed || in->left < n) {
		in->failed = 1;
		return NULL;
	}
	p = in->p;
	in->p += n;
	in->left -= n;
	return p;
}

uint8_t wire_get_u8(wire_in *in)
{
	const uint8_t *p = take(in, 1);

	return p ? *p : 0;
}

uint32_t wire_get_u32(wire_in *in)
{
	const uint8_t *p = take(in, 4);

	return p ? load32(p) : 0;
}

uint64_t wire_get_u64(wire_in *in)
{
	const uint8_t *p = take(in, 8);

	return p ? load64(p) : 0;
}

char *wire_get_str(wire_in *in, size_t max)
{
	uint32_t n = wire_get_u32(in);
	const uint8_t *p;
	char *s;

	if (in->failed || n == 0xffffffffu)
		return NULL;
	if (n > max) {
		in->failed = 1;
		return NULL;
	}
	p = take(in, n);
	if (!p)
		return NULL;
	s = malloc(n + 1);
	if (!s) {
		in->failed = 1;
		return NULL;
	}
	memcpy(s, p, n);
	s[n] = '\0';
	/* An embedded NUL would make the string mean something else than was sent. */
	if (strlen(s) != n) {
		free(s);
		in->failed = 1;
		return NULL;
	}
	return s;
}

size_t wire_piggyback_size(uint32_t ndests, uint32_t ncp)
{
	return WIRE_PB_HEADER + (size_t)ndests * 8 + ncp;
}

size_t wire_cp_size(const wire_cp *cp)
{
	return cp->on ? 1 + 4 + 4 + 8 + 24 * (size_t)cp->n : 1;
}

/* The tuple's bytes into p (wire_cp_size(cp) of them); returns the end. */
static uint8_t *cp_store(uint8_t *p, const wire_cp *cp)
{
	*p++ = cp->on ? 1 : 0;
	if (!cp->on)
		return p;
	store32(p, cp->gen);
	store32(p + 4, cp->n);
	store64(p + 8, (uint64_t)cp->longest);
	p += 16;
	for (uint32_t k = 0; k < cp->n; k++, p += 24) {
		store64(p, (uint64_t)cp->share[k]);
		store64(p + 8, (uint64_t)cp->zlong[k]);
		store64(p + 16, (uint64_t)cp->zshare[k]);
	}
	return p;
}

/* Reads a tuple from len bytes at p; the bytes used, or 0 when damaged. */
static size_t cp_load(const uint8_t *p, size_t len, wire_cp *cp)
{
	memset(cp, 0, sizeof(*cp));
	if (len < 1 || p[0] > 1)
		return 0;
	if (!p[0])
		return 1;
	if (len < 17)
		return 0;
	cp->gen = load32(p + 1);
	cp->n = load32(p + 5);
	if (cp->n > WIRE_CP_MAX || len < 17 + 24 * (size_t)cp->n) {
		cp->n = 0;
		cp->gen = 0;
		return 0;
	}
	cp->on = 1;
	cp->longest = (int64_t)load64(p + 9);
	for (uint32_t k = 0; k < cp->n; k++) {
		const uint8_t *e = p + 17 + 24 * (size_t)k;

		cp->share[k] = (int64_t)load64(e);
		cp->zlong[k] = (int64_t)load64(e + 8);
		cp->zshare[k] = (int64_t)load64(e + 16);
	}
	return 17 + 24 * (size_t)cp->n;
}

void wire_cp_put(wire_buf *b, const wire_cp *cp)
{
	uint8_t *p = reserve(b, wire_cp_size(cp));

	if (p)
		cp_store(p, cp);
}

void wire_cp_get(wire_in *in, wire_cp *cp)
{
	size_t used = in->failed ? 0 : cp_load(in->p, in->left, cp);

	if (!used) {
		memset(cp, 0, sizeof(*cp));
		in->failed = 1;
		return;
	}
	in->p += used;
	in->left -= used;
}

size_t wire_piggyback_encode(const wire_piggyback *pb, uint8_t *out)
{
	uint32_t i;
	uint8_t *p = out;

	p[0] = (uint8_t)WIRE_PB_MAGIC;
	p[1] = (uint8_t)(WIRE_PB_MAGIC >> 8);
	p[2] = WIRE_VERSION;
	p[3] = 0;
	store32(p + 4, pb->sender_index);
	store32(p + 8, (uint32_t)pb->sender_tid);
	store32(p + 12, pb->bytes);
	store64(p + 16, (uint64_t)pb->vt_send);
	store64(p + 24, (uint64_t)pb->rt_send);
	store64(p + 32, (uint64_t)pb->delay);
	store32(p + 40, pb->cp.on ? (uint32_t)wire_cp_size(&pb->cp) : 0);
	store32(p + 44, pb->ndests);
	store64(p + 48, pb->token);
	p += WIRE_PB_HEADER;
	for (i = 0; i < pb->ndests; i++, p += 8) {
		store32(p, (uint32_t)pb->dest_tid[i]);
		store32(p + 4, pb->seq[i]);
	}
	if (pb->cp.on)
		p = cp_store(p, &pb->cp);
	return (size_t)(p - out);
}

int wire_piggyback_decode(wire_piggyback *pb, const uint8_t *data, size_t len, int32_t my_tid)
{
	uint32_t i;

	memset(pb, 0, sizeof(*pb));
	pb->my_seq = -1;
	if (len < WIRE_PB_HEADER || (data[0] | data[1] << 8) != WIRE_PB_MAGIC)
		return pvmmon_error_set(PVMMON_EPARSE, "piggyback: bad size or magic");
	if (data[2] != WIRE_VERSION)
		return pvmmon_error_set(PVMMON_EVERSION, "piggyback: version %u", data[2]);
	pb->sender_index = load32(data + 4);
	pb->sender_tid = (int32_t)load32(data + 8);
	pb->bytes = load32(data + 12);
	pb->vt_send = (int64_t)load64(data + 16);
	pb->rt_send = (int64_t)load64(data + 24);
	pb->delay = (int64_t)load64(data + 32);
	pb->ncp = load32(data + 40);
	pb->ndests = load32(data + 44);
	pb->token = load64(data + 48);
	if (pb->ndests > WIRE_PB_MAX_DESTS || pb->ncp > WIRE_PB_CP_MAX ||
	    len != wire_piggyback_size(pb->ndests, pb->ncp))
		return pvmmon_error_set(PVMMON_EPARSE, "piggyback: %u destinations in %zu bytes",
					pb->ndests, len);
	if (pb->ncp && cp_load(data + len - pb->ncp, pb->ncp, &pb->cp) != pb->ncp) {
		memset(&pb->cp, 0, sizeof(pb->cp));
		return pvmmon_error_set(PVMMON_EPARSE, "piggyback: damaged critical-path tuple");
	}
	for (i = 0; i < pb->ndests; i++) {
		const uint8_t *e = data + WIRE_PB_HEADER + (size_t)i * 8;

		if ((int32_t)load32(e) == my_tid) {
			pb->my_seq = load32(e + 4);
			break;
		}
	}
	return 0;
}

void wire_register_encode(wire_buf *b, const wire_register *r)
{
	wire_put_u32(b, WIRE_VERSION);
	wire_put_u32(b, (uint32_t)r->tid);
	wire_put_u32(b, (uint32_t)r->parent_tid);
	wire_put_u32(b, (uint32_t)r->pid);
	wire_put_u32(b, (uint32_t)r->dtid);
	wire_put_u64(b, (uint64_t)r->rt_start);
	wire_put_str(b, r->program);
	wire_put_u64(b, r->token);
}

int wire_register_decode(wire_register *r, const uint8_t *data, size_t len)
{
	wire_in in;

	memset(r, 0, sizeof(*r));
	wire_in_init(&in, data, len);
	if (wire_get_u32(&in) != WIRE_VERSION)
		return pvmmon_error_set(PVMMON_EVERSION, "registration: wrong version");
	r->tid = (int32_t)wire_get_u32(&in);
	r->parent_tid = (int32_t)wire_get_u32(&in);
	r->pid = (int32_t)wire_get_u32(&in);
	r->dtid = (int32_t)wire_get_u32(&in);
	r->rt_start = wire_get_u64(&in);
	r->program = wire_get_str(&in, MAX_STR);
	r->token = wire_get_u64(&in);
	if (in.failed || in.left) {
		free(r->program);
		r->program = NULL;
		return pvmmon_error_set(PVMMON_EPARSE, "registration: damaged message");
	}
	return 0;
}

static void put_i64(wire_buf *b, int64_t v)
{
	wire_put_u64(b, (uint64_t)v);
}

static int64_t get_i64(wire_in *in)
{
	return (int64_t)wire_get_u64(in);
}

void wire_records_encode(wire_buf *b, const pvmmon_log_task *t, int final)
{
	size_t i, j;

	wire_put_u32(b, WIRE_VERSION);
	wire_put_u8(b, final ? 1 : 0);
	wire_put_u32(b, (uint32_t)t->tid);
	put_i64(b, t->virtual_ns);
	put_i64(b, t->intrusion_ns);
	put_i64(b, t->raw_ns);
	put_i64(b, t->local_ns);
	put_i64(b, t->end_ns);
	wire_put_u64(b, t->msgs_sent);
	wire_put_u64(b, t->msgs_recv);
	wire_put_u64(b, t->bytes_sent);
	wire_put_u64(b, t->bytes_recv);
	wire_put_u64(b, t->unmonitored_recv);
	wire_put_u64(b, t->bad_piggybacks);
	wire_put_u32(b, (uint32_t)t->nstmts);
	for (i = 0; i < t->nstmts; i++) {
		const pvmmon_log_stmt *s = &t->stmts[i];

		wire_put_u32(b, s->id);
		wire_put_str(b, s->op);
		wire_put_str(b, s->module);
		wire_put_u64(b, s->offset);
		wire_put_str(b, s->file);
		wire_put_u32(b, (uint32_t)s->line);
		wire_put_str(b, s->function);
		wire_put_u64(b, s->count);
		put_i64(b, s->time_ns);
		put_i64(b, s->sync_ns);
		put_i64(b, s->trans_ns);
		wire_put_u64(b, s->bytes);
		wire_put_u64(b, s->unmonitored);
		wire_put_u64(b, s->reordered);
		put_i64(b, s->held_ns);
		wire_put_u8(b, s->disabled ? 1 : 0);
		wire_put_u32(b, (uint32_t)s->ncom);
		for (j = 0; j < s->ncom; j++) {
			const pvmmon_log_com *c = &s->com[j];

			wire_put_u32(b, (uint32_t)c->partner_tid);
			wire_put_u64(b, c->count);
			wire_put_u64(b, c->bytes);
			put_i64(b, c->trans_ns);
			put_i64(b, c->sync_ns);
		}
	}
	wire_put_u32(b, (uint32_t)t->nprocs);
	for (i = 0; i < t->nprocs; i++) {
		const pvmmon_log_proc *p = &t->procs[i];

		wire_put_str(b, p->name);
		wire_put_str(b, p->file);
		wire_put_u32(b, (uint32_t)p->line);
		wire_put_str(b, p->caller);
		wire_put_u32(b, (uint32_t)p->call_line);
		wire_put_u64(b, p->count);
		put_i64(b, p->incl_ns);
		put_i64(b, p->excl_ns);
		put_i64(b, p->raw_incl_ns);
		put_i64(b, p->raw_excl_ns);
		put_i64(b, p->local_incl_ns);
		put_i64(b, p->local_excl_ns);
		/* Bit 0: counted, not timed; bit 1: switched off. */
		wire_put_u8(b, (uint8_t)((p->counted != 0) | (p->disabled ? 2 : 0)));
	}
	wire_put_u32(b, (uint32_t)t->nloops);
	for (i = 0; i < t->nloops; i++) {
		const pvmmon_log_loop *l = &t->loops[i];

		wire_put_str(b, l->name);
		wire_put_str(b, l->file);
		wire_put_u32(b, (uint32_t)l->line);
		wire_put_str(b, l->proc);
		wire_put_u64(b, l->count);
		put_i64(b, l->time_ns);
		put_i64(b, l->raw_ns);
		put_i64(b, l->local_ns);
		wire_put_u8(b, l->disabled ? 1 : 0);
	}
	wire_put_u32(b, (uint32_t)t->nstatics);
	for (i = 0; i < t->nstatics; i++) {
		const pvmmon_log_static *e = &t->statics[i];

		wire_put_u32(b, (uint32_t)e->kind);
		wire_put_str(b, e->name);
		wire_put_str(b, e->file);
		wire_put_u32(b, (uint32_t)e->line);
		wire_put_u32(b, (uint32_t)e->parent);
	}
	wire_put_u8(b, t->cost.known ? 1 : 0);
	put_i64(b, t->cost.proc_pair_ns);
	put_i64(b, t->cost.loop_pair_ns);
	put_i64(b, t->cost.wrapper_ns);
	put_i64(b, t->cost.pb_send_ns);
	put_i64(b, t->cost.pb_recv_ns);
	wire_put_u64(b, t->cost.wrapped_calls);
	put_i64(b, t->cost.observed_ns);
	put_i64(b, t->cost.predicted_ns);
	put_i64(b, t->cost.site_on_ps);
	put_i64(b, t->cost.site_off_ps);
}

/* Reads an item count and allocates that many zeroed items; NULL with failed set on
 * damage. A count of 0 gives NULL without failure. */
static void *get_array(wire_in *in, size_t *n, size_t size)
{
	uint32_t count = wire_get_u32(in);
	void *a;

	*n = 0;
	if (in->failed || count == 0)
		return NULL;
	/* Each item takes at least 8 encoded bytes, so a larger count is damage. */
	if (count > MAX_ITEMS || (size_t)count * 8 > in->left) {
		in->failed = 1;
		return NULL;
	}
	a = calloc(count, size);
	if (!a) {
		in->failed = 1;
		return NULL;
	}
	*n = count;
	return a;
}

int wire_records_decode(pvmmon_log_task *t, int *final, const uint8_t *data, size_t len)
{
	wire_in in;
	size_t i, j;

	memset(t, 0, sizeof(*t));
	wire_in_init(&in, data, len);
	if (wire_get_u32(&in) != WIRE_VERSION)
		return pvmmon_error_set(PVMMON_EVERSION, "records: wrong version");
	*final = wire_get_u8(&in);
	t->tid = (int32_t)wire_get_u32(&in);
	t->virtual_ns = get_i64(&in);
	t->intrusion_ns = get_i64(&in);
	t->raw_ns = get_i64(&in);
	t->local_ns = get_i64(&in);
	/* Tasks of this wire version always measure all three clocks. */
	t->has_raw = 1;
	t->end_ns = get_i64(&in);
	t->msgs_sent = wire_get_u64(&in);
	t->msgs_recv = wire_get_u64(&in);
	t->bytes_sent = wire_get_u64(&in);
	t->bytes_recv = wire_get_u64(&in);
	t->unmonitored_recv = wire_get_u64(&in);
	t->bad_piggybacks = wire_get_u64(&in);
	t->stmts = get_array(&in, &t->nstmts, sizeof(*t->stmts));
	for (i = 0; i < t->nstmts && !in.failed; i++) {
		pvmmon_log_stmt *s = &t->stmts[i];

		s->id = wire_get_u32(&in);
		s->op = wire_get_str(&in, MAX_STR);
		s->module = wire_get_str(&in, MAX_STR);
		s->offset = wire_get_u64(&in);
		s->file = wire_get_str(&in, MAX_STR);
		s->line = (int32_t)wire_get_u32(&in);
		s->function = wire_get_str(&in, MAX_STR);
		s->count = wire_get_u64(&in);
		s->time_ns = get_i64(&in);
		s->sync_ns = get_i64(&in);
		s->trans_ns = get_i64(&in);
		s->bytes = wire_get_u64(&in);
		s->unmonitored = wire_get_u64(&in);
		s->reordered = wire_get_u64(&in);
		s->held_ns = get_i64(&in);
		s->disabled = wire_get_u8(&in);
		if (s->disabled > 1)
			in.failed = 1;
		s->com = get_array(&in, &s->ncom, sizeof(*s->com));
		for (j = 0; j < s->ncom && !in.failed; j++) {
			pvmmon_log_com *c = &s->com[j];

			c->partner_tid = (int32_t)wire_get_u32(&in);
			c->count = wire_get_u64(&in);
			c->bytes = wire_get_u64(&in);
			c->trans_ns = get_i64(&in);
			c->sync_ns = get_i64(&in);
		}
	}
	t->procs = get_array(&in, &t->nprocs, sizeof(*t->procs));
	for (i = 0; i < t->nprocs && !in.failed; i++) {
		pvmmon_log_proc *p = &t->procs[i];

		p->name = wire_get_str(&in, MAX_STR);
		p->file = wire_get_str(&in, MAX_STR);
		p->line = (int32_t)wire_get_u32(&in);
		p->caller = wire_get_str(&in, MAX_STR);
		p->call_line = (int32_t)wire_get_u32(&in);
		p->count = wire_get_u64(&in);
		p->incl_ns = get_i64(&in);
		p->excl_ns = get_i64(&in);
		p->raw_incl_ns = get_i64(&in);
		p->raw_excl_ns = get_i64(&in);
		p->local_incl_ns = get_i64(&in);
		p->local_excl_ns = get_i64(&in);
		{
			uint8_t f = wire_get_u8(&in);

			p->counted = f & 1;
			p->disabled = (f & 2) != 0;
			if (f > 3)
				in.failed = 1;
		}
	}
	t->loops = get_array(&in, &t->nloops, sizeof(*t->loops));
	for (i = 0; i < t->nloops && !in.failed; i++) {
		pvmmon_log_loop *l = &t->loops[i];

		l->name = wire_get_str(&in, MAX_STR);
		l->file = wire_get_str(&in, MAX_STR);
		l->line = (int32_t)wire_get_u32(&in);
		l->proc = wire_get_str(&in, MAX_STR);
		l->count = wire_get_u64(&in);
		l->time_ns = get_i64(&in);
		l->raw_ns = get_i64(&in);
		l->local_ns = get_i64(&in);
		l->disabled = wire_get_u8(&in);
		if (l->disabled > 1)
			in.failed = 1;
	}
	t->statics = get_array(&in, &t->nstatics, sizeof(*t->statics));
	for (i = 0; i < t->nstatics && !in.failed; i++) {
		pvmmon_log_static *e = &t->statics[i];

		e->kind = (pvmmon_static_kind)wire_get_u32(&in);
		e->name = wire_get_str(&in, MAX_STR);
		e->file = wire_get_str(&in, MAX_STR);
		e->line = (int32_t)wire_get_u32(&in);
		e->parent = (int32_t)wire_get_u32(&in);
		/* A parent must come before its child, so the table is a forest. */
		if (!pvmmon_static_kind_name(e->kind) || e->parent < -1 || e->parent >= (int32_t)i)
			in.failed = 1;
	}
	t->cost.known = wire_get_u8(&in);
	t->cost.proc_pair_ns = get_i64(&in);
	t->cost.loop_pair_ns = get_i64(&in);
	t->cost.wrapper_ns = get_i64(&in);
	t->cost.pb_send_ns = get_i64(&in);
	t->cost.pb_recv_ns = get_i64(&in);
	t->cost.wrapped_calls = wire_get_u64(&in);
	t->cost.observed_ns = get_i64(&in);
	t->cost.predicted_ns = get_i64(&in);
	t->cost.site_on_ps = get_i64(&in);
	t->cost.site_off_ps = get_i64(&in);
	if (t->cost.known > 1)
		in.failed = 1;
	if (in.failed || in.left) {
		wire_task_clear(t);
		return pvmmon_error_set(PVMMON_EPARSE, "records: damaged message");
	}
	return 0;
}

void wire_trace_encode(wire_buf *b, int32_t tid, const pvmmon_log_event *ev, size_t n)
{
	size_t i;

	wire_put_u32(b, WIRE_VERSION);
	wire_put_u32(b, (uint32_t)tid);
	wire_put_u32(b, (uint32_t)n);
	for (i = 0; i < n; i++) {
		const pvmmon_log_event *e = &ev[i];

		wire_put_u8(b, (uint8_t)e->op);
		wire_put_u32(b, (uint32_t)e->peer);
		wire_put_u32(b, (uint32_t)e->tag);
		wire_put_u32(b, e->bytes);
		wire_put_u64(b, (uint64_t)e->seq);
		wire_put_u32(b, e->stmt);
		for (int k = 0; k < 4; k++)
			wire_put_u64(b, (uint64_t)e->rt[k]);
		wire_put_u64(b, (uint64_t)e->vt0);
		wire_put_u64(b, (uint64_t)e->vt1);
		wire_put_u64(b, (uint64_t)e->sync);
		wire_put_u64(b, (uint64_t)e->trans);
	}
}

int wire_trace_decode(int32_t *tid, pvmmon_log_event **ev, size_t *n, const uint8_t *data,
		      size_t len)
{
	pvmmon_log_event *out = NULL;
	wire_in in;
	uint32_t count, i;

	*ev = NULL;
	*n = 0;
	wire_in_init(&in, data, len);
	if (wire_get_u32(&in) != WIRE_VERSION)
		return pvmmon_error_set(PVMMON_EVERSION, "trace: wrong version");
	*tid = (int32_t)wire_get_u32(&in);
	count = wire_get_u32(&in);
	/* The count must match the bytes that follow exactly: no allocation on trust. */
	if (in.failed || in.left != (size_t)count * WIRE_TRACE_EVENT_SIZE)
		return pvmmon_error_set(PVMMON_EPARSE, "trace: damaged message");
	if (count == 0)
		return 0;
	out = calloc(count, sizeof(*out));
	if (!out)
		return pvmmon_error_set(PVMMON_ENOMEM, "trace: out of memory");
	for (i = 0; i < count; i++) {
		pvmmon_log_event *e = &out[i];

		e->op = (pvmmon_event_op)wire_get_u8(&in);
		e->peer = (int32_t)wire_get_u32(&in);
		e->tag = (int32_t)wire_get_u32(&in);
		e->bytes = wire_get_u32(&in);
		e->seq = (int64_t)wire_get_u64(&in);
		e->stmt = wire_get_u32(&in);
		for (int k = 0; k < 4; k++)
			e->rt[k] = (int64_t)wire_get_u64(&in);
		e->vt0 = (int64_t)wire_get_u64(&in);
		e->vt1 = (int64_t)wire_get_u64(&in);
		e->sync = (int64_t)wire_get_u64(&in);
		e->trans = (int64_t)wire_get_u64(&in);
		if (!pvmmon_event_op_name(e->op) || e->seq < -1) {
			free(out);
			return pvmmon_error_set(PVMMON_EPARSE, "trace: damaged event %u", i);
		}
	}
	*ev = out;
	*n = count;
	return 0;
}

void wire_task_clear(pvmmon_log_task *t)
{
	size_t i, j;

	for (i = 0; i < t->nstmts; i++) {
		pvmmon_log_stmt *s = &t->stmts[i];

		free(s->op);
		free(s->module);
		free(s->file);
		free(s->function);
		for (j = 0; j < s->ncom; j++)
			free(s->com[j].partner_lid);
		free(s->com);
	}
	free(t->stmts);
	for (i = 0; i < t->nprocs; i++) {
		free(t->procs[i].name);
		free(t->procs[i].file);
		free(t->procs[i].caller);
	}
	free(t->procs);
	for (i = 0; i < t->nloops; i++) {
		free(t->loops[i].name);
		free(t->loops[i].file);
		free(t->loops[i].proc);
	}
	free(t->loops);
	for (i = 0; i < t->nstatics; i++) {
		free(t->statics[i].name);
		free(t->statics[i].file);
	}
	free(t->statics);
	free(t->events);
	free(t->record);
	for (i = 0; i < t->record_nsenders; i++)
		free(t->record_senders[i]);
	free(t->record_senders);
	free(t->lid);
	free(t->host);
	free(t->program);
	memset(t, 0, sizeof(*t));
}

void wire_ctl_encode(wire_buf *b, const wire_ctl *c)
{
	wire_put_u32(b, WIRE_VERSION);
	wire_put_u8(b, (uint8_t)c->cmd);
	wire_put_u32(b, c->gen);
	wire_put_u8(b, c->exclusive ? 1 : 0);
	wire_put_str(b, c->procs);
	wire_put_u64(b, c->token);
}

int wire_ctl_decode(wire_ctl *c, const uint8_t *data, size_t len)
{
	wire_in in;

	memset(c, 0, sizeof(*c));
	wire_in_init(&in, data, len);
	if (wire_get_u32(&in) != WIRE_VERSION)
		return pvmmon_error_set(PVMMON_EVERSION, "command: wrong version");
	c->cmd = (wire_ctl_cmd)wire_get_u8(&in);
	c->gen = wire_get_u32(&in);
	c->exclusive = wire_get_u8(&in);
	c->procs = wire_get_str(&in, MAX_STR);
	c->token = wire_get_u64(&in);
	if (in.failed || in.left || c->cmd < WIRE_CTL_CP_START || c->cmd > WIRE_CTL_RELEASE) {
		free(c->procs);
		c->procs = NULL;
		return pvmmon_error_set(PVMMON_EPARSE, "command: damaged");
	}
	return 0;
}

void wire_mailbox_encode(wire_buf *b, const wire_mailbox *m)
{
	wire_put_u32(b, WIRE_VERSION);
	wire_put_u32(b, (uint32_t)m->monitor_tid);
	wire_put_u32(b, (uint32_t)m->ctx);
	wire_put_u32(b, m->flush_ms);
	wire_put_u64(b, m->trace_events);
	wire_put_u64(b, m->token);
}

int wire_mailbox_decode(wire_mailbox *m, const uint8_t *data, size_t len)
{
	wire_in in;

	wire_in_init(&in, data, len);
	if (wire_get_u32(&in) != WIRE_VERSION)
		return pvmmon_error_set(PVMMON_EVERSION, "mailbox entry: wrong version");
	m->monitor_tid = (int32_t)wire_get_u32(&in);
	m->ctx = (int32_t)wire_get_u32(&in);
	m->flush_ms = wire_get_u32(&in);
	m->trace_events = wire_get_u64(&in);
	m->token = wire_get_u64(&in);
	if (in.failed || in.left || m->monitor_tid <= 0)
		return pvmmon_error_set(PVMMON_EPARSE, "mailbox entry: damaged");
	return 0;
}

void wire_clock_encode(wire_buf *b, const wire_clock *c)
{
	wire_put_u32(b, WIRE_VERSION);
	wire_put_u32(b, (uint32_t)c->tid);
	wire_put_u64(b, (uint64_t)c->offset);
	wire_put_u64(b, (uint64_t)c->uncertainty);
	wire_put_u64(b, (uint64_t)c->rtt);
	wire_put_u64(b, (uint64_t)c->at);
	wire_put_u32(b, c->samples);
}

int wire_clock_decode(wire_clock *c, const uint8_t *data, size_t len)
{
	wire_in in;

	memset(c, 0, sizeof(*c));
	wire_in_init(&in, data, len);
	if (wire_get_u32(&in) != WIRE_VERSION)
		return pvmmon_error_set(PVMMON_EVERSION, "clock estimate: wrong version");
	c->tid = (int32_t)wire_get_u32(&in);
	c->offset = (int64_t)wire_get_u64(&in);
	c->uncertainty = (int64_t)wire_get_u64(&in);
	c->rtt = (int64_t)wire_get_u64(&in);
	c->at = (int64_t)wire_get_u64(&in);
	c->samples = wire_get_u32(&in);
	/* A negative spread or round trip comes from no clock: the message is damaged. */
	if (in.failed || in.left || c->uncertainty < 0 || c->rtt < 0)
		return pvmmon_error_set(PVMMON_EPARSE, "clock estimate: damaged");
	return 0;
}

void wire_clockset_encode(wire_buf *b, const wire_clockset *c)
{
	wire_put_u64(b, (uint64_t)c->offset);
	wire_put_u64(b, (uint64_t)c->uncertainty);
	wire_put_u64(b, (uint64_t)c->tref);
	wire_put_u64(b, (uint64_t)c->rate_ppt);
	wire_put_u8(b, c->keeper);
}

int wire_clockset_decode(wire_clockset *c, const uint8_t *data, size_t len)
{
	wire_in in;

	memset(c, 0, sizeof(*c));
	wire_in_init(&in, data, len);
	c->offset = (int64_t)wire_get_u64(&in);
	c->uncertainty = (int64_t)wire_get_u64(&in);
	c->tref = (int64_t)wire_get_u64(&in);
	c->rate_ppt = (int64_t)wire_get_u64(&in);
	c->keeper = wire_get_u8(&in);
	/* No quartz drifts by a thousandth: such a rate is damage, not a clock. */
	if (in.failed || in.left || c->uncertainty < 0 || c->keeper > 1 ||
	    c->rate_ppt > 1000000000 || c->rate_ppt < -1000000000)
		return pvmmon_error_set(PVMMON_EPARSE, "clock offset: damaged");
	return 0;
}

void wire_pwait_encode(wire_buf *b, const wire_pwait *w)
{
	uint32_t i;

	wire_put_u32(b, WIRE_VERSION);
	wire_put_u32(b, w->req);
	wire_put_u8(b, w->kind);
	wire_put_u32(b, (uint32_t)w->src);
	wire_put_u32(b, (uint32_t)w->tag);
	put_i64(b, w->vt);
	put_i64(b, w->deadline);
	wire_put_str(b, w->module);
	wire_put_u64(b, w->offset);
	wire_put_u32(b, w->nsent);
	for (i = 0; i < w->nsent; i++) {
		wire_put_u32(b, (uint32_t)w->sent[i].tid);
		wire_put_u32(b, w->sent[i].n);
	}
	wire_put_u32(b, w->nseen);
	for (i = 0; i < w->nseen; i++) {
		wire_put_u32(b, (uint32_t)w->seen[i].tid);
		wire_put_u32(b, w->seen[i].n);
	}
	wire_put_u32(b, w->ncand);
	for (i = 0; i < w->ncand; i++) {
		wire_put_u32(b, (uint32_t)w->cand[i].src);
		wire_put_u32(b, (uint32_t)w->cand[i].tag);
		put_i64(b, w->cand[i].va);
		put_i64(b, w->cand[i].vs);
		wire_put_u32(b, w->cand[i].seq);
	}
}

void wire_pwait_clear(wire_pwait *w)
{
	free(w->module);
	free(w->sent);
	free(w->seen);
	free(w->cand);
	memset(w, 0, sizeof(*w));
}

static void get_counts(wire_in *in, wire_pcount **a, uint32_t *n)
{
	size_t count;

	*a = get_array(in, &count, sizeof(**a));
	*n = (uint32_t)count;
	for (size_t i = 0; i < count && !in->failed; i++) {
		(*a)[i].tid = (int32_t)wire_get_u32(in);
		(*a)[i].n = wire_get_u32(in);
	}
}

int wire_pwait_decode(wire_pwait *w, const uint8_t *data, size_t len)
{
	wire_in in;
	size_t count;

	memset(w, 0, sizeof(*w));
	wire_in_init(&in, data, len);
	if (wire_get_u32(&in) != WIRE_VERSION)
		return pvmmon_error_set(PVMMON_EVERSION, "preserve request: wrong version");
	w->req = wire_get_u32(&in);
	w->kind = wire_get_u8(&in);
	w->src = (int32_t)wire_get_u32(&in);
	w->tag = (int32_t)wire_get_u32(&in);
	w->vt = get_i64(&in);
	w->deadline = get_i64(&in);
	w->module = wire_get_str(&in, MAX_STR);
	w->offset = wire_get_u64(&in);
	get_counts(&in, &w->sent, &w->nsent);
	get_counts(&in, &w->seen, &w->nseen);
	w->cand = get_array(&in, &count, sizeof(*w->cand));
	w->ncand = (uint32_t)count;
	for (size_t i = 0; i < count && !in.failed; i++) {
		w->cand[i].src = (int32_t)wire_get_u32(&in);
		w->cand[i].tag = (int32_t)wire_get_u32(&in);
		w->cand[i].va = get_i64(&in);
		w->cand[i].vs = get_i64(&in);
		w->cand[i].seq = wire_get_u32(&in);
	}
	if (in.failed || in.left || w->kind > WIRE_PW_TRECV) {
		wire_pwait_clear(w);
		return pvmmon_error_set(PVMMON_EPARSE, "preserve request: damaged");
	}
	return 0;
}
