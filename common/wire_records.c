/* The codecs of what tasks tell the monitor of their measurements: record flushes
 * (RECORDS), traced events (TRACE) and critical-path samples (CPSAMPLE); the piggyback's
 * is in wire_piggyback.c. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "log_fields.h"
#include "pvmmon/errors.h"
#include "wire_records.h"

/* The clock the task's probes read: 0 not said, 1 monotonic, 2 tsc. */
static uint8_t clock_code(const char *clock)
{
	return !clock ? 0 : strcmp(clock, "tsc") == 0 ? 2 : 1;
}

static void get_clock(wire_in *in, char **clock)
{
	switch (wire__get_u8(in)) {
	case 0:
		break;
	case 1:
		*clock = strdup("monotonic");
		break;
	case 2:
		*clock = strdup("tsc");
		break;
	default:
		in->failed = 1;
	}
}

/* A record's own fields: its list's wire fields in their places (field(pos) gives
 * them, common/log_task_fields.def and log_stmt_fields.def). */
static void put_fields(wire_buf *b, const void *rec, const log_field_desc *(*field)(unsigned))
{
	const log_field_desc *f;

	for (unsigned pos = 1; (f = field(pos)) != NULL; pos++) {
		const void *p = log__field_cat(rec, f);

		switch (f->kind) {
		case LOG_FK_I32:
		case LOG_FK_U32:
			wire__put_u32(b, *(const uint32_t *)p);
			break;
		case LOG_FK_I64:
			wire__put_i64(b, *(const int64_t *)p);
			break;
		case LOG_FK_U64:
		case LOG_FK_HEX64:
			wire__put_u64(b, *(const uint64_t *)p);
			break;
		case LOG_FK_STR:
			wire__put_str(b, *(char *const *)p);
			break;
		case LOG_FK_CLOCK:
			wire__put_u8(b, clock_code(*(char *const *)p));
			break;
		case LOG_FK_OFF:
			wire__put_u8(b, *(const int *)p ? 1 : 0);
			break;
		default:
			break;
		}
	}
}

static void put_com(wire_buf *b, const pvmmon_log_com *c)
{
	wire__put_u32(b, (uint32_t)c->partner_tid);
	wire__put_u64(b, c->count);
	wire__put_u64(b, c->bytes);
	wire__put_i64(b, c->trans_ns);
	wire__put_i64(b, c->sync_ns);
}

static void put_stmt(wire_buf *b, const pvmmon_log_stmt *s)
{
	put_fields(b, s, log__stmt_wire_field);
	wire__put_u32(b, (uint32_t)s->ncom);
	for (size_t j = 0; j < s->ncom; j++)
		put_com(b, &s->com[j]);
}

static void put_proc(wire_buf *b, const pvmmon_log_proc *p)
{
	wire__put_str(b, p->name);
	wire__put_str(b, p->file);
	wire__put_u32(b, (uint32_t)p->line);
	wire__put_str(b, p->caller);
	wire__put_u32(b, (uint32_t)p->call_line);
	wire__put_u64(b, p->count);
	wire__put_i64(b, p->incl_ns);
	wire__put_i64(b, p->excl_ns);
	wire__put_i64(b, p->raw_incl_ns);
	wire__put_i64(b, p->raw_excl_ns);
	wire__put_i64(b, p->local_incl_ns);
	wire__put_i64(b, p->local_excl_ns);
	/* Bit 0: counted, not timed; bit 1: switched off. */
	wire__put_u8(b, (uint8_t)((p->counted != 0) | (p->disabled ? 2 : 0)));
	wire__put_i64(b, p->throttled_at_ns);
	wire__put_i64(b, p->throttle_call_ns);
	wire__put_i64(b, p->throttle_pair_ns);
}

static void put_loop(wire_buf *b, const pvmmon_log_loop *l)
{
	wire__put_str(b, l->name);
	wire__put_str(b, l->file);
	wire__put_u32(b, (uint32_t)l->line);
	wire__put_str(b, l->proc);
	wire__put_u64(b, l->count);
	wire__put_i64(b, l->time_ns);
	wire__put_i64(b, l->raw_ns);
	wire__put_i64(b, l->local_ns);
	wire__put_u8(b, l->disabled ? 1 : 0);
	wire__put_i64(b, l->throttled_at_ns);
	wire__put_i64(b, l->throttle_call_ns);
	wire__put_i64(b, l->throttle_pair_ns);
}

static void put_static(wire_buf *b, const pvmmon_log_static *e)
{
	wire__put_u32(b, (uint32_t)e->kind);
	wire__put_str(b, e->name);
	wire__put_str(b, e->file);
	wire__put_u32(b, (uint32_t)e->line);
	wire__put_u32(b, (uint32_t)e->parent);
}

static void put_cost(wire_buf *b, const pvmmon_log_cost *c)
{
	wire__put_u8(b, c->known ? 1 : 0);
	wire__put_i64(b, c->proc_pair_ns);
	wire__put_i64(b, c->loop_pair_ns);
	wire__put_i64(b, c->wrapper_ns);
	wire__put_i64(b, c->pb_send_ns);
	wire__put_i64(b, c->pb_recv_ns);
	wire__put_u64(b, c->wrapped_calls);
	wire__put_i64(b, c->observed_ns);
	wire__put_i64(b, c->predicted_ns);
	wire__put_i64(b, c->site_on_ps);
	wire__put_i64(b, c->site_off_ps);
	wire__put_u32(b, c->rechecks);
	wire__put_i64(b, c->recheck_min_ns);
	wire__put_i64(b, c->recheck_max_ns);
	wire__put_u32(b, (uint32_t)c->calibrated_by);
}

static void put_hist(wire_buf *b, const pvmmon_log_hist *h)
{
	wire__put_u8(b, (uint8_t)h->metric);
	wire__put_u8(b, (uint8_t)h->focus);
	wire__put_u8(b, (uint8_t)h->axis);
	wire__put_str(b, h->name);
	wire__put_u32(b, h->stmt);
	wire__put_i64(b, h->start_ns);
	wire__put_i64(b, h->width_ns);
	wire__put_u32(b, h->doublings);
	wire__put_i64(b, h->from_ns);
	wire__put_i64(b, h->to_ns);
	wire__put_str(b, h->requested);
	wire__put_u32(b, (uint32_t)h->nbuckets);
	for (size_t i = 0; i < h->nbuckets; i++)
		wire__put_i64(b, h->values[i]);
}

/* The optional sections after the record arrays, each only when the task has it and
 * each behind its own byte, in this order: a flush without them is byte for byte
 * what it was before they came. */
enum { SECTION_SAMPLES = 1, SECTION_BLAMES = 2 };

/* The call-path samples (log 1.13). */
static void put_samples(wire_buf *b, const pvmmon_log_samples *s)
{
	size_t i;

	wire__put_u8(b, SECTION_SAMPLES);
	wire__put_u32(b, s->hz);
	wire__put_u64(b, s->total);
	wire__put_u64(b, s->truncated);
	wire__put_i64(b, s->cost_ns);
	wire__put_u32(b, (uint32_t)s->nmodules);
	for (i = 0; i < s->nmodules; i++)
		wire__put_str(b, s->modules[i]);
	wire__put_u32(b, (uint32_t)s->nnodes);
	for (i = 0; i < s->nnodes; i++) {
		const pvmmon_log_snode *n = &s->nodes[i];

		wire__put_u32(b, (uint32_t)n->parent);
		wire__put_u32(b, n->module);
		wire__put_u64(b, n->offset);
		for (int k = 0; k < PVMMON_SAMPLE_NSTATES; k++)
			wire__put_u64(b, n->self[k]);
	}
}

/* The online wait analysis's table (log 1.14). */
static void put_blames(wire_buf *b, const pvmmon_log_task *t)
{
	wire__put_u8(b, SECTION_BLAMES);
	wire__put_u32(b, (uint32_t)t->nblames);
	for (size_t i = 0; i < t->nblames; i++) {
		const pvmmon_log_blame *e = &t->blames[i];

		wire__put_u32(b, (uint32_t)e->tid);
		wire__put_u32(b, e->stmt);
		wire__put_i64(b, e->short_ns);
		wire__put_i64(b, e->long_ns);
		wire__put_u64(b, e->waits);
	}
}

/* The flush's first byte: final, and whether its proc and loop records are a delta. */
#define FLUSH_FINAL 1
#define FLUSH_DELTA 2

void wire__records_encode(wire_buf *b, const pvmmon_log_task *t, int final)
{
	wire__records_encode_delta(b, t, final, NULL);
}

void wire__records_encode_delta(wire_buf *b, const pvmmon_log_task *t, int final,
                                const wire_records_delta *d)
{
	size_t i;

	wire__head_put(b);
	wire__put_u8(b, (uint8_t)((final ? FLUSH_FINAL : 0) | (d ? FLUSH_DELTA : 0)));
	put_fields(b, t, log__task_wire_field);
	wire__put_u32(b, (uint32_t)t->nstmts);
	for (i = 0; i < t->nstmts; i++)
		put_stmt(b, &t->stmts[i]);
	if (d) {
		/* The task's counts, then the records carried, each after its index. */
		wire__put_u32(b, (uint32_t)t->nprocs);
		wire__put_u32(b, (uint32_t)d->npidx);
		for (i = 0; i < d->npidx; i++) {
			wire__put_u32(b, d->pidx[i]);
			put_proc(b, &t->procs[d->pidx[i]]);
		}
		wire__put_u32(b, (uint32_t)t->nloops);
		wire__put_u32(b, (uint32_t)d->nlidx);
		for (i = 0; i < d->nlidx; i++) {
			wire__put_u32(b, d->lidx[i]);
			put_loop(b, &t->loops[d->lidx[i]]);
		}
	} else {
		wire__put_u32(b, (uint32_t)t->nprocs);
		for (i = 0; i < t->nprocs; i++)
			put_proc(b, &t->procs[i]);
		wire__put_u32(b, (uint32_t)t->nloops);
		for (i = 0; i < t->nloops; i++)
			put_loop(b, &t->loops[i]);
	}
	wire__put_u32(b, (uint32_t)t->nstatics);
	for (i = 0; i < t->nstatics; i++)
		put_static(b, &t->statics[i]);
	put_cost(b, &t->cost);
	wire__put_u32(b, (uint32_t)t->nhists);
	for (i = 0; i < t->nhists; i++)
		put_hist(b, &t->hists[i]);
	if (t->samples)
		put_samples(b, t->samples);
	if (t->nblames > 0)
		put_blames(b, t);
}

/* Each item of a record array takes at least this many encoded bytes. */
#define MIN_ITEM 8

/* A record's own fields: its list's wire fields in their places. */
static void get_fields(wire_in *in, void *rec, const log_field_desc *(*field)(unsigned))
{
	const log_field_desc *f;

	for (unsigned pos = 1; (f = field(pos)) != NULL; pos++) {
		void *p = log__field_at(rec, f);

		switch (f->kind) {
		case LOG_FK_I32:
			*(int32_t *)p = (int32_t)wire__get_u32(in);
			break;
		case LOG_FK_U32:
			*(uint32_t *)p = wire__get_u32(in);
			break;
		case LOG_FK_I64:
			*(int64_t *)p = wire__get_i64(in);
			break;
		case LOG_FK_U64:
		case LOG_FK_HEX64:
			*(uint64_t *)p = wire__get_u64(in);
			break;
		case LOG_FK_STR:
			*(char **)p = wire__get_str(in, WIRE_MAX_STR);
			break;
		case LOG_FK_CLOCK:
			get_clock(in, (char **)p);
			break;
		case LOG_FK_OFF:
			*(int *)p = wire__get_flag(in);
			break;
		default:
			/* Kinds the lists never send (the log_fields suite checks). */
			in->failed = 1;
		}
	}
}

static void get_stmt(wire_in *in, pvmmon_log_stmt *s)
{
	get_fields(in, s, log__stmt_wire_field);
	s->com = wire__get_array(in, &s->ncom, sizeof(*s->com), MIN_ITEM);
	for (size_t j = 0; j < s->ncom && !in->failed; j++) {
		pvmmon_log_com *c = &s->com[j];

		c->partner_tid = (int32_t)wire__get_u32(in);
		c->count = wire__get_u64(in);
		c->bytes = wire__get_u64(in);
		c->trans_ns = wire__get_i64(in);
		c->sync_ns = wire__get_i64(in);
	}
}

static void get_proc(wire_in *in, pvmmon_log_proc *p)
{
	uint8_t f;

	p->name = wire__get_str(in, WIRE_MAX_STR);
	p->file = wire__get_str(in, WIRE_MAX_STR);
	p->line = (int32_t)wire__get_u32(in);
	p->caller = wire__get_str(in, WIRE_MAX_STR);
	p->call_line = (int32_t)wire__get_u32(in);
	p->count = wire__get_u64(in);
	p->incl_ns = wire__get_i64(in);
	p->excl_ns = wire__get_i64(in);
	p->raw_incl_ns = wire__get_i64(in);
	p->raw_excl_ns = wire__get_i64(in);
	p->local_incl_ns = wire__get_i64(in);
	p->local_excl_ns = wire__get_i64(in);
	f = wire__get_u8(in);
	p->counted = f & 1;
	p->disabled = (f & 2) != 0;
	if (f > 3)
		in->failed = 1;
	p->throttled_at_ns = wire__get_i64(in);
	p->throttle_call_ns = wire__get_i64(in);
	p->throttle_pair_ns = wire__get_i64(in);
}

static void get_loop(wire_in *in, pvmmon_log_loop *l)
{
	l->name = wire__get_str(in, WIRE_MAX_STR);
	l->file = wire__get_str(in, WIRE_MAX_STR);
	l->line = (int32_t)wire__get_u32(in);
	l->proc = wire__get_str(in, WIRE_MAX_STR);
	l->count = wire__get_u64(in);
	l->time_ns = wire__get_i64(in);
	l->raw_ns = wire__get_i64(in);
	l->local_ns = wire__get_i64(in);
	l->disabled = wire__get_flag(in);
	l->throttled_at_ns = wire__get_i64(in);
	l->throttle_call_ns = wire__get_i64(in);
	l->throttle_pair_ns = wire__get_i64(in);
}

/* The i-th static entry: a parent must come before its child, so the table is a
 * forest. */
static void get_static(wire_in *in, pvmmon_log_static *e, size_t i)
{
	e->kind = (pvmmon_static_kind)wire__get_u32(in);
	e->name = wire__get_str(in, WIRE_MAX_STR);
	e->file = wire__get_str(in, WIRE_MAX_STR);
	e->line = (int32_t)wire__get_u32(in);
	e->parent = (int32_t)wire__get_u32(in);
	if (!pvmmon_static_kind_name(e->kind) || e->parent < -1 || e->parent >= (int32_t)i)
		in->failed = 1;
}

static void get_cost(wire_in *in, pvmmon_log_cost *c)
{
	c->known = wire__get_flag(in);
	c->proc_pair_ns = wire__get_i64(in);
	c->loop_pair_ns = wire__get_i64(in);
	c->wrapper_ns = wire__get_i64(in);
	c->pb_send_ns = wire__get_i64(in);
	c->pb_recv_ns = wire__get_i64(in);
	c->wrapped_calls = wire__get_u64(in);
	c->observed_ns = wire__get_i64(in);
	c->predicted_ns = wire__get_i64(in);
	c->site_on_ps = wire__get_i64(in);
	c->site_off_ps = wire__get_i64(in);
	c->rechecks = wire__get_u32(in);
	c->recheck_min_ns = wire__get_i64(in);
	c->recheck_max_ns = wire__get_i64(in);
	c->calibrated_by = (int32_t)wire__get_u32(in);
	if (c->calibrated_by < 0)
		in->failed = 1;
}

/* A histogram: known metric, focus and axis; a width of initial * 2^doublings is the
 * monitor's to check against the run's settings. */
static void get_hist(wire_in *in, pvmmon_log_hist *h)
{
	h->metric = (pvmmon_hist_metric)wire__get_u8(in);
	h->focus = (pvmmon_hist_focus)wire__get_u8(in);
	h->axis = (pvmmon_hist_axis)wire__get_u8(in);
	h->name = wire__get_str(in, WIRE_MAX_STR);
	h->stmt = wire__get_u32(in);
	h->start_ns = wire__get_i64(in);
	h->width_ns = wire__get_i64(in);
	h->doublings = wire__get_u32(in);
	h->from_ns = wire__get_i64(in);
	h->to_ns = wire__get_i64(in);
	h->requested = wire__get_str(in, WIRE_MAX_STR);
	if (!pvmmon_hist_metric_name(h->metric) || !pvmmon_hist_focus_name(h->focus) ||
	    h->axis > PVMMON_AXIS_REAL || h->width_ns <= 0 || h->doublings > 62) {
		in->failed = 1;
		return;
	}
	h->values = wire__get_array(in, &h->nbuckets, sizeof(*h->values), 8);
	if (h->nbuckets > WIRE_HIST_MAX_BUCKETS)
		in->failed = 1;
	for (size_t i = 0; i < h->nbuckets && !in->failed; i++)
		h->values[i] = wire__get_i64(in);
}

/* The samples section (after its byte): every node's caller comes before it and every
 * module index is in the table, so that readers can walk the tree without checking
 * again. */
static pvmmon_log_samples *get_samples(wire_in *in)
{
	pvmmon_log_samples *s;
	size_t i;

	if (!(s = calloc(1, sizeof(*s)))) {
		in->failed = 1;
		return NULL;
	}
	s->hz = wire__get_u32(in);
	s->total = wire__get_u64(in);
	s->truncated = wire__get_u64(in);
	s->cost_ns = wire__get_i64(in);
	s->modules = wire__get_array(in, &s->nmodules, sizeof(*s->modules), 4);
	for (i = 0; i < s->nmodules && !in->failed; i++)
		if (!(s->modules[i] = wire__get_str(in, WIRE_MAX_STR)))
			in->failed = 1;
	s->nodes = wire__get_array(in, &s->nnodes, sizeof(*s->nodes), 40);
	for (i = 0; i < s->nnodes && !in->failed; i++) {
		pvmmon_log_snode *n = &s->nodes[i];

		n->parent = (int32_t)wire__get_u32(in);
		n->module = wire__get_u32(in);
		n->offset = wire__get_u64(in);
		for (int k = 0; k < PVMMON_SAMPLE_NSTATES; k++)
			n->self[k] = wire__get_u64(in);
		if (n->parent < -1 || n->parent >= (int64_t)i || n->module >= s->nmodules)
			in->failed = 1;
	}
	return s;
}

/* The blames section (after its byte): no share of waiting is negative; anything else
 * the report sums as it comes. */
static void get_blames(wire_in *in, pvmmon_log_task *t)
{
	t->blames = wire__get_array(in, &t->nblames, sizeof(*t->blames), WIRE_BLAME_SIZE);
	/* The section is only sent with entries, and never more than the hooks keep. */
	if (t->nblames == 0 || t->nblames > WIRE_BLAMES_MAX)
		in->failed = 1;
	for (size_t i = 0; i < t->nblames && !in->failed; i++) {
		pvmmon_log_blame *e = &t->blames[i];

		e->tid = (int32_t)wire__get_u32(in);
		e->stmt = wire__get_u32(in);
		e->short_ns = wire__get_i64(in);
		e->long_ns = wire__get_i64(in);
		e->waits = wire__get_u64(in);
		if (e->short_ns < 0 || e->long_ns < 0)
			in->failed = 1;
	}
}

/* The task's own fields, before its record arrays. */
static void get_task_head(wire_in *in, pvmmon_log_task *t)
{
	get_fields(in, t, log__task_wire_field);
	/* Tasks of this wire version always measure all three clocks. */
	t->has_raw = 1;
}

/* A delta's indices: the k-th record carried is record idx[k] of the task's total;
 * ascending, so each is carried once. */
static void get_delta_index(wire_in *in, uint32_t *idx, size_t k, uint32_t total)
{
	uint32_t v = wire__get_u32(in);

	if (v >= total || (k > 0 && v <= idx[k - 1]))
		in->failed = 1;
	idx[k] = v;
}

int wire__records_decode(pvmmon_log_task *t, int *final, const uint8_t *data, size_t len)
{
	wire_records_delta d;
	int rc = wire__records_decode_delta(t, final, &d, data, len);

	/* A delta is the monitor's alone: whole records are asked for here. */
	if (rc == 0 && d.delta) {
		wire__records_delta_clear(&d);
		wire__task_clear(t);
		return pvmmon_error_set(PVMMON_EPARSE,
		                        "records: a delta where whole records are read");
	}
	wire__records_delta_clear(&d);
	return rc;
}

void wire__records_delta_clear(wire_records_delta *d)
{
	free(d->pidx);
	free(d->lidx);
	memset(d, 0, sizeof(*d));
}

/* The proc and loop records: all of them, or a delta's (its counts and indices in *d). */
static void get_procs_loops(wire_in *in, pvmmon_log_task *t, wire_records_delta *d)
{
	size_t i;

	/* The counts say how large the monitor's arrays grow: bounded as any array. */
	if (d->delta && (d->nprocs = wire__get_u32(in)) > WIRE_MAX_ITEMS)
		in->failed = 1;
	t->procs = wire__get_array(in, &t->nprocs, sizeof(*t->procs), MIN_ITEM);
	if (d->delta && t->nprocs && !in->failed &&
	    !(d->pidx = calloc(t->nprocs, sizeof(*d->pidx))))
		in->failed = 1;
	d->npidx = d->delta ? t->nprocs : 0;
	for (i = 0; i < t->nprocs && !in->failed; i++) {
		if (d->delta)
			get_delta_index(in, d->pidx, i, d->nprocs);
		get_proc(in, &t->procs[i]);
	}
	if (d->delta && (d->nloops = wire__get_u32(in)) > WIRE_MAX_ITEMS)
		in->failed = 1;
	t->loops = wire__get_array(in, &t->nloops, sizeof(*t->loops), MIN_ITEM);
	if (d->delta && t->nloops && !in->failed &&
	    !(d->lidx = calloc(t->nloops, sizeof(*d->lidx))))
		in->failed = 1;
	d->nlidx = d->delta ? t->nloops : 0;
	for (i = 0; i < t->nloops && !in->failed; i++) {
		if (d->delta)
			get_delta_index(in, d->lidx, i, d->nloops);
		get_loop(in, &t->loops[i]);
	}
}

int wire__records_decode_delta(pvmmon_log_task *t, int *final, wire_records_delta *d,
                               const uint8_t *data, size_t len)
{
	wire_in in;
	size_t i;
	uint8_t flags;
	int rc;

	memset(t, 0, sizeof(*t));
	memset(d, 0, sizeof(*d));
	*final = 0;
	wire__in_init(&in, data, len);
	rc = wire__head_get(&in, "records");
	if (rc < 0)
		return rc;
	flags = wire__get_u8(&in);
	if (flags & ~(FLUSH_FINAL | FLUSH_DELTA))
		in.failed = 1;
	*final = flags & FLUSH_FINAL;
	d->delta = (flags & FLUSH_DELTA) != 0;
	get_task_head(&in, t);
	t->stmts = wire__get_array(&in, &t->nstmts, sizeof(*t->stmts), MIN_ITEM);
	for (i = 0; i < t->nstmts && !in.failed; i++)
		get_stmt(&in, &t->stmts[i]);
	get_procs_loops(&in, t, d);
	t->statics = wire__get_array(&in, &t->nstatics, sizeof(*t->statics), MIN_ITEM);
	for (i = 0; i < t->nstatics && !in.failed; i++)
		get_static(&in, &t->statics[i], i);
	get_cost(&in, &t->cost);
	t->hists = wire__get_array(&in, &t->nhists, sizeof(*t->hists), 40);
	for (i = 0; i < t->nhists && !in.failed; i++)
		get_hist(&in, &t->hists[i]);
	if (!in.failed && in.left > 0 && in.p[0] == SECTION_SAMPLES) {
		wire__get_u8(&in);
		t->samples = get_samples(&in);
	}
	if (!in.failed && in.left > 0) {
		if (wire__get_u8(&in) == SECTION_BLAMES)
			get_blames(&in, t);
		else
			in.failed = 1; /* another section, or one out of order */
	}
	rc = wire__done(&in, "records");
	if (rc < 0) {
		wire__task_clear(t);
		wire__records_delta_clear(d);
	}
	return rc;
}

void wire__trace_encode(wire_buf *b, int32_t tid, const pvmmon_log_event *ev, size_t n)
{
	size_t i;

	wire__head_put(b);
	wire__put_u32(b, (uint32_t)tid);
	wire__put_u32(b, (uint32_t)n);
	for (i = 0; i < n; i++) {
		const pvmmon_log_event *e = &ev[i];

		wire__put_u8(b, (uint8_t)e->op);
		wire__put_u32(b, (uint32_t)e->peer);
		wire__put_u32(b, (uint32_t)e->tag);
		wire__put_u32(b, e->bytes);
		wire__put_u64(b, (uint64_t)e->seq);
		wire__put_u32(b, e->stmt);
		for (int k = 0; k < 4; k++)
			wire__put_u64(b, (uint64_t)e->rt[k]);
		wire__put_u64(b, (uint64_t)e->vt0);
		wire__put_u64(b, (uint64_t)e->vt1);
		wire__put_u64(b, (uint64_t)e->sync);
		wire__put_u64(b, (uint64_t)e->trans);
		wire__put_u8(b, e->nd ? 1 : 0);
		wire__put_u32(b, (uint32_t)e->want_peer);
		wire__put_u32(b, (uint32_t)e->want_tag);
	}
}

int wire__trace_decode(int32_t *tid, pvmmon_log_event **ev, size_t *n, const uint8_t *data,
                       size_t len)
{
	pvmmon_log_event *out = NULL;
	wire_in in;
	uint32_t count, i;
	int rc;

	*ev = NULL;
	*n = 0;
	wire__in_init(&in, data, len);
	rc = wire__head_get(&in, "trace");
	if (rc < 0)
		return rc;
	*tid = (int32_t)wire__get_u32(&in);
	count = wire__get_u32(&in);
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

		e->op = (pvmmon_event_op)wire__get_u8(&in);
		e->peer = (int32_t)wire__get_u32(&in);
		e->tag = (int32_t)wire__get_u32(&in);
		e->bytes = wire__get_u32(&in);
		e->seq = (int64_t)wire__get_u64(&in);
		e->stmt = wire__get_u32(&in);
		for (int k = 0; k < 4; k++)
			e->rt[k] = (int64_t)wire__get_u64(&in);
		e->vt0 = (int64_t)wire__get_u64(&in);
		e->vt1 = (int64_t)wire__get_u64(&in);
		e->sync = (int64_t)wire__get_u64(&in);
		e->trans = (int64_t)wire__get_u64(&in);
		e->nd = wire__get_u8(&in);
		e->want_peer = (int32_t)wire__get_u32(&in);
		e->want_tag = (int32_t)wire__get_u32(&in);
		if (!pvmmon_event_op_name(e->op) || e->seq < -1 || e->nd > 1) {
			free(out);
			return pvmmon_error_set(PVMMON_EPARSE, "trace: damaged event %u", i);
		}
	}
	*ev = out;
	*n = count;
	return 0;
}

void wire__task_clear(pvmmon_log_task *t) { pvmmon_log_task_clear(t); }

void wire__cpsample_encode(wire_buf *b, const wire_cpsample *s)
{
	wire__head_put(b);
	wire__put_u32(b, (uint32_t)s->tid);
	wire__put_u8(b, s->final ? 1 : 0);
	wire__put_i64(b, s->vt);
	wire__cp_put(b, &s->cp);
}

int wire__cpsample_decode(wire_cpsample *s, const uint8_t *data, size_t len)
{
	wire_in in;
	int rc;

	memset(s, 0, sizeof(*s));
	wire__in_init(&in, data, len);
	rc = wire__head_get(&in, "critical-path sample");
	if (rc < 0)
		return rc;
	s->tid = (int32_t)wire__get_u32(&in);
	s->final = wire__get_flag(&in);
	s->vt = wire__get_i64(&in);
	wire__cp_get(&in, &s->cp);
	return wire__done(&in, "critical-path sample");
}
