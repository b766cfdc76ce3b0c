/* The compact streaming encoding of replay records, with base64 and a hash for the log. */
/*
 * A record lists the outcomes of one task's nondeterministic calls in call order. Most
 * programs see a handful of distinct outcomes again and again (the same few senders
 * and tags, the same miss of a polling pvm_nrecv), so the stream keeps three tables
 * that the encoder and the decoder grow in step as definitions go by: senders, tags,
 * and outcomes (op, kind, sender index and tag index, or spawn value). An entry is
 * then usually one byte naming an outcome, and a run of equal entries is one repeat
 * item. Nothing is aligned and nothing is framed, so chunks taken from the encoder at
 * any point concatenate into one stream.
 *
 * A stream is a sequence of items, each starting with a head byte h:
 *
 *   0x00-0xBF       outcome h, seq_delta 0                              (1 byte)
 *   0xC0-0xDE       the previous entry again, h - 0xBF times (1..31)     (1 byte)
 *   0xDF n          the previous entry again, n times (n >= 1)
 *   0xE0 i          outcome i, seq_delta 0 (for i >= 0xC0)
 *   0xE1 i d        outcome i with seq_delta d (d != 0, a MSG outcome)
 *   0xE2 def        defines the next outcome and delivers it, seq_delta 0
 *   0xE3 def d      defines the next outcome and delivers it with seq_delta d
 *   0xE4 op kind .. a literal entry that changes no table: MSG sender, tag, seq_delta;
 *                   SPAWN value; nothing for NONE and TIMEOUT; HANDLED and NOTIFY
 *                   sender, tag, seq_delta, value. The encoder writes one only when a
 *                   table is full (REPLAY_TABLE_MAX) or out of memory.
 *   0xE5 op kind s t v d
 *                   a HANDLED or NOTIFY entry: sender reference s and tag reference t
 *                   (as in def), value v and seq_delta d (0 for NOTIFY). These entries
 *                   carry a value that differs from one to the next (a position, a
 *                   named task), so they never become table outcomes.
 *   0xE6-0xFF       reserved: damage
 *
 * Streams written before HANDLED and NOTIFY existed never contain 0xE5 and decode
 * unchanged; a decoder of that time reports 0xE5 as damage rather than misreading it.
 *
 * def is op (1 byte, a pvmmon_event_op), kind (1 byte, a replay_kind) and then, for
 * MSG, a sender reference and a tag reference, for SPAWN the value, for NONE and
 * TIMEOUT nothing. A reference r is 0 for a new table entry (its zigzag value follows
 * and it is appended to the table) or the index of an existing one plus 1.
 *
 * Numbers (n, i, r) are unsigned LEB128 varints of at most 5 bytes holding at most
 * 2^32 - 1; signed values (ids, tags, deltas, spawn values) are zigzag-mapped first.
 *
 * Costs: a Monte Carlo pi master receiving from 8 workers with 2 tags has 16 outcomes,
 * so 1 byte per receive after 16 definitions of 4 to 10 bytes each (the unit test
 * measures just under 1.0 byte/entry, repeats included); 10^5 pvm_nrecv misses in a
 * row are a 3-byte definition and a 4-byte repeat.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "pvmmon/errors.h"
#include "replay.h"

enum {
	H_OUTCOME_MAX = 0xbf, /* last one-byte outcome reference */
	H_REPEAT_MIN = 0xc0,  /* one-byte repeats: 0xc0 = once ... 0xde = 31 times */
	H_REPEAT_N = 0xdf,
	H_OUTCOME = 0xe0,
	H_OUTCOME_DELTA = 0xe1,
	H_DEFINE = 0xe2,
	H_DEFINE_DELTA = 0xe3,
	H_LITERAL = 0xe4,
	H_EXTENDED = 0xe5,
};
#define REPEAT_SHORT (H_REPEAT_N - H_REPEAT_MIN) /* 31: the longest one-byte repeat */

/* Whether a stream can hold an outcome of this kind for this call. */
static int valid(unsigned op, int kind)
{
	switch (kind) {
	case REPLAY_MSG:
		return op == PVMMON_EV_RECV || op == PVMMON_EV_NRECV || op == PVMMON_EV_TRECV ||
		       op == PVMMON_EV_PRECV || op == PVMMON_EV_PROBE;
	case REPLAY_NONE:
		return op == PVMMON_EV_NRECV || op == PVMMON_EV_PROBE;
	case REPLAY_TIMEOUT:
		return op == PVMMON_EV_TRECV;
	case REPLAY_SPAWN:
		/* A count of children, or a group instance number. */
		return op == PVMMON_EV_SPAWN || op == PVMMON_EV_JOINGROUP;
	case REPLAY_HANDLED:
		/* The wrapped call the handler ran in (OTHER for calls without an event). */
		return (op >= PVMMON_EV_SEND && op <= PVMMON_EV_OTHER) || op == PVMMON_EV_JOINGROUP;
	case REPLAY_NOTIFY:
		return op == PVMMON_EV_RECV || op == PVMMON_EV_NRECV || op == PVMMON_EV_TRECV;
	}
	return 0;
}

/* The entry with the fields its kind does not use cleared, so that equal outcomes
 * compare equal whatever the caller left in them. */
static replay_entry normalise(const replay_entry *in)
{
	replay_entry n;

	memset(&n, 0, sizeof(n));
	n.op = in->op;
	n.kind = in->kind;
	if (in->kind == REPLAY_MSG || in->kind == REPLAY_HANDLED || in->kind == REPLAY_NOTIFY) {
		n.sender = in->sender;
		n.tag = in->tag;
	}
	if (in->kind == REPLAY_MSG || in->kind == REPLAY_HANDLED)
		n.seq_delta = in->seq_delta;
	if (in->kind == REPLAY_SPAWN || in->kind == REPLAY_HANDLED || in->kind == REPLAY_NOTIFY)
		n.value = in->value;
	return n;
}

static int same(const replay_entry *a, const replay_entry *b)
{
	return a->op == b->op && a->kind == b->kind && a->sender == b->sender &&
	       a->tag == b->tag && a->seq_delta == b->seq_delta && a->value == b->value;
}

static uint32_t zigzag(int32_t v)
{
	return ((uint32_t)v << 1) ^ (uint32_t)(v >> 31);
}

static int32_t unzigzag(uint32_t u)
{
	return (int32_t)((u >> 1) ^ (0u - (u & 1)));
}

/* ---- The encoder's lookup tables: open addressing, at most half full. ---- */

static uint64_t mix(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	k *= 0xc4ceb9fe1a85ec53ULL;
	k ^= k >> 33;
	return k;
}

/* The index stored for key, or -1. */
static int64_t map_get(const replay_map *m, uint64_t key)
{
	size_t i;

	if (!m->cap)
		return -1;
	for (i = mix(key) & (m->cap - 1); m->vals[i]; i = (i + 1) & (m->cap - 1))
		if (m->keys[i] == key)
			return (int64_t)m->vals[i] - 1;
	return -1;
}

static void map_insert(replay_map *m, uint64_t key, uint32_t index)
{
	size_t i = mix(key) & (m->cap - 1);

	while (m->vals[i])
		i = (i + 1) & (m->cap - 1);
	m->keys[i] = key;
	m->vals[i] = index + 1;
	m->used++;
}

/* Makes room for one more key; -1 when out of memory (the map is then unchanged). */
static int map_reserve(replay_map *m)
{
	replay_map bigger;
	size_t i;

	if ((m->used + 1) * 2 <= m->cap)
		return 0;
	bigger.cap = m->cap ? m->cap * 2 : 64;
	bigger.used = 0;
	bigger.keys = malloc(bigger.cap * sizeof(*bigger.keys));
	bigger.vals = calloc(bigger.cap, sizeof(*bigger.vals));
	if (!bigger.keys || !bigger.vals) {
		free(bigger.keys);
		free(bigger.vals);
		return -1;
	}
	for (i = 0; i < m->cap; i++)
		if (m->vals[i])
			map_insert(&bigger, m->keys[i], m->vals[i] - 1);
	free(m->keys);
	free(m->vals);
	*m = bigger;
	return 0;
}

static void map_free(replay_map *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}

/* The key of an outcome: the op and kind, and the table indices of a MSG's sender and
 * tag (each below REPLAY_TABLE_MAX, so 17 bits suffice) or a spawn's value. */
static uint64_t outcome_key(const replay_entry *n, uint32_t si, uint32_t ti)
{
	uint64_t k = (uint64_t)n->op << 56 | (uint64_t)n->kind << 48;

	if (n->kind == REPLAY_MSG)
		return k | (uint64_t)si << 24 | ti;
	return k | (uint32_t)n->value;
}

/* ---- Encoding. ---- */

static void put_varint(wire_buf *b, uint32_t v)
{
	while (v >= 0x80) {
		wire_put_u8(b, (uint8_t)(v | 0x80));
		v >>= 7;
	}
	wire_put_u8(b, (uint8_t)v);
}

/* Appends len bytes to b the way wire_put_* do, failing into b->failed. */
static void put_bytes(wire_buf *b, const uint8_t *data, size_t len)
{
	if (b->failed || len == 0)
		return;
	if (b->len + len > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		uint8_t *d;

		while (cap < b->len + len)
			cap *= 2;
		d = realloc(b->data, cap);
		if (!d) {
			b->failed = 1;
			return;
		}
		b->data = d;
		b->cap = cap;
	}
	memcpy(b->data + b->len, data, len);
	b->len += len;
}

void replay_enc_init(replay_enc *e)
{
	memset(e, 0, sizeof(*e));
	wire_buf_init(&e->out);
}

void replay_enc_free(replay_enc *e)
{
	wire_buf_free(&e->out);
	map_free(&e->senders);
	map_free(&e->tags);
	map_free(&e->outcomes);
	memset(e, 0, sizeof(*e));
}

static void flush_repeat(replay_enc *e)
{
	if (!e->pending)
		return;
	if (e->pending <= REPEAT_SHORT) {
		wire_put_u8(&e->out, (uint8_t)(H_REPEAT_MIN - 1 + e->pending));
	} else {
		wire_put_u8(&e->out, H_REPEAT_N);
		put_varint(&e->out, e->pending);
	}
	e->pending = 0;
}

static void put_literal(replay_enc *e, const replay_entry *n)
{
	wire_put_u8(&e->out, H_LITERAL);
	wire_put_u8(&e->out, n->op);
	wire_put_u8(&e->out, (uint8_t)n->kind);
	if (n->kind == REPLAY_MSG) {
		put_varint(&e->out, zigzag(n->sender));
		put_varint(&e->out, zigzag(n->tag));
		put_varint(&e->out, zigzag(n->seq_delta));
	} else if (n->kind == REPLAY_SPAWN) {
		put_varint(&e->out, zigzag(n->value));
	} else if (n->kind == REPLAY_HANDLED || n->kind == REPLAY_NOTIFY) {
		put_varint(&e->out, zigzag(n->sender));
		put_varint(&e->out, zigzag(n->tag));
		put_varint(&e->out, zigzag(n->seq_delta));
		put_varint(&e->out, zigzag(n->value));
	}
}

/* A table reference: the index + 1 of a known value, or 0 and the new value. */
static void put_ref(wire_buf *b, int64_t index, int32_t value)
{
	if (index >= 0) {
		put_varint(b, (uint32_t)index + 1);
	} else {
		put_varint(b, 0);
		put_varint(b, zigzag(value));
	}
}

/* A HANDLED or NOTIFY entry: its sender and tag through the tables, its value and
 * delta as numbers. */
static void put_extended(replay_enc *e, const replay_entry *n)
{
	int64_t s = map_get(&e->senders, (uint32_t)n->sender);
	int64_t t = map_get(&e->tags, (uint32_t)n->tag);

	if ((s < 0 && (e->nsenders >= REPLAY_TABLE_MAX || map_reserve(&e->senders) < 0)) ||
	    (t < 0 && (e->ntags >= REPLAY_TABLE_MAX || map_reserve(&e->tags) < 0))) {
		put_literal(e, n);
		return;
	}
	wire_put_u8(&e->out, H_EXTENDED);
	wire_put_u8(&e->out, n->op);
	wire_put_u8(&e->out, (uint8_t)n->kind);
	put_ref(&e->out, s, n->sender);
	put_ref(&e->out, t, n->tag);
	if (s < 0)
		map_insert(&e->senders, (uint32_t)n->sender, e->nsenders++);
	if (t < 0)
		map_insert(&e->tags, (uint32_t)n->tag, e->ntags++);
	put_varint(&e->out, zigzag(n->value));
	put_varint(&e->out, zigzag(n->seq_delta));
}

static void put_entry(replay_enc *e, const replay_entry *n)
{
	int64_t s = -1, t = -1, o = -1;
	uint32_t si = 0, ti = 0;
	uint64_t key;

	if (n->kind == REPLAY_HANDLED || n->kind == REPLAY_NOTIFY) {
		put_extended(e, n);
		return;
	}
	if (n->kind == REPLAY_MSG) {
		s = map_get(&e->senders, (uint32_t)n->sender);
		t = map_get(&e->tags, (uint32_t)n->tag);
		/* Room in both tables first: the decoder must see the definition whole. */
		if ((s < 0 && (e->nsenders >= REPLAY_TABLE_MAX || map_reserve(&e->senders) < 0)) ||
		    (t < 0 && (e->ntags >= REPLAY_TABLE_MAX || map_reserve(&e->tags) < 0)))
			goto literal;
		si = s >= 0 ? (uint32_t)s : e->nsenders;
		ti = t >= 0 ? (uint32_t)t : e->ntags;
	}
	key = outcome_key(n, si, ti);
	if (s >= 0 && t >= 0)
		o = map_get(&e->outcomes, key);
	else if (n->kind != REPLAY_MSG)
		o = map_get(&e->outcomes, key);
	if (o >= 0) {
		if (n->seq_delta) {
			wire_put_u8(&e->out, H_OUTCOME_DELTA);
			put_varint(&e->out, (uint32_t)o);
			put_varint(&e->out, zigzag(n->seq_delta));
		} else if (o <= H_OUTCOME_MAX) {
			wire_put_u8(&e->out, (uint8_t)o);
		} else {
			wire_put_u8(&e->out, H_OUTCOME);
			put_varint(&e->out, (uint32_t)o);
		}
		return;
	}
	if (e->noutcomes >= REPLAY_TABLE_MAX || map_reserve(&e->outcomes) < 0)
		goto literal;
	wire_put_u8(&e->out, n->seq_delta ? H_DEFINE_DELTA : H_DEFINE);
	wire_put_u8(&e->out, n->op);
	wire_put_u8(&e->out, (uint8_t)n->kind);
	if (n->kind == REPLAY_MSG) {
		put_ref(&e->out, s, n->sender);
		put_ref(&e->out, t, n->tag);
		if (s < 0)
			map_insert(&e->senders, (uint32_t)n->sender, e->nsenders++);
		if (t < 0)
			map_insert(&e->tags, (uint32_t)n->tag, e->ntags++);
	} else if (n->kind == REPLAY_SPAWN) {
		put_varint(&e->out, zigzag(n->value));
	}
	map_insert(&e->outcomes, key, e->noutcomes++);
	if (n->seq_delta)
		put_varint(&e->out, zigzag(n->seq_delta));
	return;
literal:
	put_literal(e, n);
}

int replay_enc_add(replay_enc *e, const replay_entry *ent)
{
	replay_entry n;

	if (e->failed)
		return pvmmon_error_set(PVMMON_ENOMEM, "replay record: out of memory");
	if (!valid(ent->op, (int)ent->kind))
		return pvmmon_error_set(PVMMON_EINVAL, "replay record: call %u cannot have outcome %d",
					(unsigned)ent->op, (int)ent->kind);
	n = normalise(ent);
	if (e->have_prev && same(&n, &e->prev) && e->pending < UINT32_MAX) {
		e->pending++;
		return 0;
	}
	flush_repeat(e);
	put_entry(e, &n);
	e->prev = n;
	e->have_prev = 1;
	if (e->out.failed) {
		e->failed = 1;
		return pvmmon_error_set(PVMMON_ENOMEM, "replay record: out of memory");
	}
	return 0;
}

int replay_enc_take(replay_enc *e, wire_buf *b)
{
	flush_repeat(e);
	if (e->out.failed)
		e->failed = 1;
	if (!e->failed)
		put_bytes(b, e->out.data, e->out.len);
	wire_buf_reset(&e->out);
	if (e->failed || b->failed) {
		/* A lost chunk would shift every later definition: the stream is gone. */
		e->failed = 1;
		b->failed = 1;
		return pvmmon_error_set(PVMMON_ENOMEM, "replay record: out of memory");
	}
	return 0;
}

/* ---- Decoding. ---- */

void replay_dec_init(replay_dec *d, const uint8_t *data, size_t len)
{
	memset(d, 0, sizeof(*d));
	d->data = data;
	d->len = data ? len : 0;
}

void replay_dec_free(replay_dec *d)
{
	free(d->outcomes);
	free(d->senders);
	free(d->tags);
	memset(d, 0, sizeof(*d));
}

static int damaged(replay_dec *d, size_t at, const char *what)
{
	d->failed = PVMMON_EPARSE;
	return pvmmon_error_set(PVMMON_EPARSE, "replay record damaged at byte %zu: %s", at, what);
}

/* Reads a varint; 0, or -1 (truncated) or -2 (longer than 32 bits). */
static int get_varint(replay_dec *d, uint32_t *v)
{
	uint64_t x = 0;

	for (int shift = 0; shift < 35; shift += 7) {
		uint8_t c;

		if (d->pos >= d->len)
			return -1;
		c = d->data[d->pos++];
		x |= (uint64_t)(c & 0x7f) << shift;
		if (!(c & 0x80)) {
			if (x > UINT32_MAX)
				return -2;
			*v = (uint32_t)x;
			return 0;
		}
	}
	return -2;
}

static int get_u8(replay_dec *d, uint8_t *v)
{
	if (d->pos >= d->len)
		return -1;
	*v = d->data[d->pos++];
	return 0;
}

/* Grows a table to hold one more item of size bytes; the table never exceeds
 * REPLAY_TABLE_MAX items, and only definitions read make it grow. */
static int grow(void **table, uint32_t *cap, uint32_t n, size_t size)
{
	uint32_t want;
	void *t;

	if (n < *cap)
		return 0;
	want = *cap ? *cap * 2 : 16;
	if (want > REPLAY_TABLE_MAX)
		want = REPLAY_TABLE_MAX;
	t = realloc(*table, (size_t)want * size);
	if (!t)
		return -1;
	*table = t;
	*cap = want;
	return 0;
}

/* Reads a table reference into *value, appending a new value to the table. */
static int get_ref(replay_dec *d, size_t at, int32_t **table, uint32_t *n, uint32_t *cap,
		   int32_t *value, const char *what)
{
	uint32_t r, raw;
	int rc = get_varint(d, &r);

	if (rc < 0)
		return damaged(d, at, rc == -1 ? "truncated" : "number too large");
	if (r > 0) {
		if (r - 1 >= *n)
			return damaged(d, at, what);
		*value = (*table)[r - 1];
		return 0;
	}
	rc = get_varint(d, &raw);
	if (rc < 0)
		return damaged(d, at, rc == -1 ? "truncated" : "number too large");
	if (*n >= REPLAY_TABLE_MAX)
		return damaged(d, at, "too many distinct values");
	if (grow((void **)table, cap, *n, sizeof(**table)) < 0) {
		d->failed = PVMMON_ENOMEM;
		return pvmmon_error_set(PVMMON_ENOMEM, "replay record: out of memory");
	}
	*value = unzigzag(raw);
	(*table)[(*n)++] = *value;
	return 0;
}

/* Reads op, kind and what the kind carries: table references (def) or literal
 * values (!def). */
static int get_outcome(replay_dec *d, size_t at, int def, replay_entry *ent)
{
	uint8_t op, kind;
	uint32_t u;
	int rc;

	memset(ent, 0, sizeof(*ent));
	if (get_u8(d, &op) < 0 || get_u8(d, &kind) < 0)
		return damaged(d, at, "truncated");
	if (!valid(op, kind) || (def && (kind == REPLAY_HANDLED || kind == REPLAY_NOTIFY)))
		return damaged(d, at, "impossible outcome");
	ent->op = op;
	ent->kind = (replay_kind)kind;
	if (kind == REPLAY_MSG && def) {
		rc = get_ref(d, at, &d->senders, &d->nsenders, &d->cap_senders, &ent->sender,
			     "undefined sender");
		if (rc == 0)
			rc = get_ref(d, at, &d->tags, &d->ntags, &d->cap_tags, &ent->tag,
				     "undefined tag");
		return rc;
	}
	for (int k = 0; k < (kind == REPLAY_MSG ? 3 : kind == REPLAY_SPAWN ? 1 : kind >= REPLAY_HANDLED ? 4 : 0); k++) {
		rc = get_varint(d, &u);
		if (rc < 0)
			return damaged(d, at, rc == -1 ? "truncated" : "number too large");
		if (kind == REPLAY_SPAWN)
			ent->value = unzigzag(u);
		else
			*(k == 0 ? &ent->sender : k == 1 ? &ent->tag : k == 2 ? &ent->seq_delta : &ent->value) =
			    unzigzag(u);
	}
	if (kind == REPLAY_NOTIFY && ent->seq_delta)
		return damaged(d, at, "sequence delta without a message");
	return 0;
}

/* Reads a HANDLED or NOTIFY item after its head byte. */
static int get_extended(replay_dec *d, size_t at, replay_entry *ent)
{
	uint8_t op, kind;
	uint32_t v, dl;
	int rc;

	memset(ent, 0, sizeof(*ent));
	if (get_u8(d, &op) < 0 || get_u8(d, &kind) < 0)
		return damaged(d, at, "truncated");
	if ((kind != REPLAY_HANDLED && kind != REPLAY_NOTIFY) || !valid(op, kind))
		return damaged(d, at, "impossible outcome");
	ent->op = op;
	ent->kind = (replay_kind)kind;
	rc = get_ref(d, at, &d->senders, &d->nsenders, &d->cap_senders, &ent->sender,
		     "undefined sender");
	if (rc == 0)
		rc = get_ref(d, at, &d->tags, &d->ntags, &d->cap_tags, &ent->tag, "undefined tag");
	if (rc < 0)
		return rc;
	rc = get_varint(d, &v);
	if (rc == 0)
		rc = get_varint(d, &dl);
	if (rc < 0)
		return damaged(d, at, rc == -1 ? "truncated" : "number too large");
	ent->value = unzigzag(v);
	ent->seq_delta = unzigzag(dl);
	if (kind == REPLAY_NOTIFY && ent->seq_delta)
		return damaged(d, at, "sequence delta without a message");
	return 0;
}

int replay_dec_next(replay_dec *d, replay_entry *out)
{
	replay_entry ent;
	uint32_t index = 0, u;
	int32_t delta = 0;
	size_t at;
	uint8_t h;
	int rc;

	if (d->failed)
		return d->failed;
	if (d->pending) {
		d->pending--;
		*out = d->prev;
		return 1;
	}
	if (d->pos >= d->len)
		return 0;
	at = d->pos;
	h = d->data[d->pos++];
	if (h <= H_OUTCOME_MAX) {
		index = h;
		goto outcome;
	}
	if (h <= H_REPEAT_N) {
		if (h == H_REPEAT_N) {
			rc = get_varint(d, &u);
			if (rc < 0)
				return damaged(d, at, rc == -1 ? "truncated" : "number too large");
			if (u == 0)
				return damaged(d, at, "empty repeat");
		} else {
			u = (uint32_t)(h - H_REPEAT_MIN + 1);
		}
		if (!d->have_prev)
			return damaged(d, at, "repeat with nothing before it");
		d->pending = u - 1;
		*out = d->prev;
		return 1;
	}
	switch (h) {
	case H_OUTCOME:
	case H_OUTCOME_DELTA:
		rc = get_varint(d, &index);
		if (rc == 0 && h == H_OUTCOME_DELTA) {
			rc = get_varint(d, &u);
			delta = unzigzag(u);
		}
		if (rc < 0)
			return damaged(d, at, rc == -1 ? "truncated" : "number too large");
		goto outcome;
	case H_DEFINE:
	case H_DEFINE_DELTA:
		rc = get_outcome(d, at, 1, &ent);
		if (rc < 0)
			return rc;
		if (d->noutcomes >= REPLAY_TABLE_MAX)
			return damaged(d, at, "too many distinct outcomes");
		if (grow((void **)&d->outcomes, &d->cap_outcomes, d->noutcomes,
			 sizeof(*d->outcomes)) < 0) {
			d->failed = PVMMON_ENOMEM;
			return pvmmon_error_set(PVMMON_ENOMEM, "replay record: out of memory");
		}
		d->outcomes[d->noutcomes++] = ent;
		if (h == H_DEFINE_DELTA) {
			rc = get_varint(d, &u);
			if (rc < 0)
				return damaged(d, at, rc == -1 ? "truncated" : "number too large");
			if (ent.kind != REPLAY_MSG)
				return damaged(d, at, "sequence delta without a message");
			ent.seq_delta = unzigzag(u);
		}
		goto deliver;
	case H_LITERAL:
		rc = get_outcome(d, at, 0, &ent);
		if (rc < 0)
			return rc;
		goto deliver;
	case H_EXTENDED:
		rc = get_extended(d, at, &ent);
		if (rc < 0)
			return rc;
		goto deliver;
	default:
		return damaged(d, at, "unknown item");
	}
outcome:
	if (index >= d->noutcomes)
		return damaged(d, at, "undefined outcome");
	ent = d->outcomes[index];
	if (delta && ent.kind != REPLAY_MSG)
		return damaged(d, at, "sequence delta without a message");
	ent.seq_delta = delta;
deliver:
	d->prev = ent;
	d->have_prev = 1;
	*out = ent;
	return 1;
}

int replay_remap(const uint8_t *data, size_t len, int32_t (*map)(void *ctx, int32_t id),
		 void *ctx, wire_buf *out, uint64_t *nentries)
{
	replay_dec d;
	replay_enc e;
	replay_entry ent;
	uint64_t n = 0;
	int rc;

	wire_buf_init(out);
	*nentries = 0;
	replay_dec_init(&d, data, len);
	replay_enc_init(&e);
	for (;;) {
		rc = replay_dec_next(&d, &ent);
		if (rc <= 0)
			break;
		if (ent.kind == REPLAY_MSG || ent.kind == REPLAY_HANDLED || ent.kind == REPLAY_NOTIFY)
			ent.sender = map(ctx, ent.sender);
		/* A notify names a task by tid: in a log, by its logical id like a sender. */
		if (ent.kind == REPLAY_NOTIFY)
			ent.value = map(ctx, ent.value);
		rc = replay_enc_add(&e, &ent);
		if (rc < 0)
			goto out;
		n++;
		/* The repeats still pending are this entry again: they move to the encoder's
		 * repeat count at once, since a few bytes can repeat an entry 2^32 times
		 * each, and walking them one by one would stall the monitor for minutes. */
		while (d.pending) {
			uint32_t k;

			if (e.pending == UINT32_MAX)
				flush_repeat(&e);
			k = UINT32_MAX - e.pending;
			if (k > d.pending)
				k = (uint32_t)d.pending;
			e.pending += k;
			d.pending -= k;
			n += k;
		}
	}
	if (rc < 0)
		goto out;
	rc = replay_enc_take(&e, out);
	if (rc == 0)
		*nentries = n;
out:
	replay_dec_free(&d);
	replay_enc_free(&e);
	return rc;
}

int replay_check(const uint8_t *data, size_t len, size_t nsenders, uint64_t *nentries)
{
	replay_dec d;
	replay_entry ent;
	uint64_t n = 0;
	int rc;

	*nentries = 0;
	replay_dec_init(&d, data, len);
	while ((rc = replay_dec_next(&d, &ent)) == 1) {
		if ((ent.kind == REPLAY_MSG || ent.kind == REPLAY_HANDLED || ent.kind == REPLAY_NOTIFY) &&
		    (ent.sender < 0 || (size_t)ent.sender >= nsenders ||
		     (ent.kind == REPLAY_NOTIFY && (ent.value < 0 || (size_t)ent.value >= nsenders)))) {
			rc = pvmmon_error_set(PVMMON_EPARSE,
					      "replay record damaged: entry %" PRIu64 " has sender %d "
					      "of %zu", n, (int)ent.sender, nsenders);
			goto out;
		}
		/* The repeats still pending are this entry again, already checked, so they
		 * are counted at once: a few bytes can repeat an entry 2^32 times each. */
		n += 1 + d.pending;
		d.pending = 0;
	}
	if (rc == 0)
		*nentries = n;
out:
	replay_dec_free(&d);
	return rc;
}

/* ---- Base64 and the hash. ---- */

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

char *replay_b64_encode(const uint8_t *data, size_t len)
{
	char *s = malloc((len + 2) / 3 * 4 + 1), *p = s;
	size_t i;

	if (!s)
		return NULL;
	for (i = 0; i + 2 < len; i += 3) {
		uint32_t v = (uint32_t)data[i] << 16 | (uint32_t)data[i + 1] << 8 | data[i + 2];

		*p++ = b64[v >> 18];
		*p++ = b64[(v >> 12) & 63];
		*p++ = b64[(v >> 6) & 63];
		*p++ = b64[v & 63];
	}
	if (i < len) {
		uint32_t v = (uint32_t)data[i] << 16 | (i + 1 < len ? (uint32_t)data[i + 1] << 8 : 0);

		*p++ = b64[v >> 18];
		*p++ = b64[(v >> 12) & 63];
		*p++ = i + 1 < len ? b64[(v >> 6) & 63] : '=';
		*p++ = '=';
	}
	*p = '\0';
	return s;
}

static int b64_value(char c)
{
	const char *p = c ? strchr(b64, c) : NULL;

	return p ? (int)(p - b64) : -1;
}

int replay_b64_decode(const char *text, uint8_t **out, size_t *len)
{
	size_t n = strlen(text), i, o = 0;
	uint8_t *buf;

	*out = NULL;
	*len = 0;
	if (n % 4)
		return pvmmon_error_set(PVMMON_EPARSE, "base64: length %zu is not a multiple of 4", n);
	buf = malloc(n / 4 * 3 + 1);
	if (!buf)
		return pvmmon_error_set(PVMMON_ENOMEM, "base64: out of memory");
	for (i = 0; i < n; i += 4) {
		int v[4], pad = 0;

		for (int k = 0; k < 4; k++) {
			v[k] = b64_value(text[i + k]);
			/* Padding only ends the text: "xx==" or "xxx=". */
			if (v[k] < 0 && text[i + k] == '=' && i + 4 == n && k >= 2 &&
			    (k == 3 || text[i + 3] == '=')) {
				v[k] = 0;
				pad++;
			} else if (v[k] < 0) {
				free(buf);
				return pvmmon_error_set(PVMMON_EPARSE, "base64: bad character at %zu",
							i + k);
			}
		}
		buf[o++] = (uint8_t)(v[0] << 2 | v[1] >> 4);
		if (pad < 2)
			buf[o++] = (uint8_t)((v[1] & 15) << 4 | v[2] >> 2);
		if (pad < 1)
			buf[o++] = (uint8_t)((v[2] & 3) << 6 | v[3]);
	}
	*out = buf;
	*len = o;
	return 0;
}

uint64_t replay_hash(const uint8_t *data, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < len; i++) {
		h ^= data[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}
