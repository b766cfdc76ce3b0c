/* The replay record's streaming encoder: its lookup tables and the items it writes
 * (the format is described in replay/codec.h). */
#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "pvmmon/errors.h"

/* Whether a stream can hold an outcome of this kind for this call. */
int replay__valid(unsigned op, int kind)
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
	case REPLAY_GROUP:
		return op >= REPLAY_GRP_JOIN && op < REPLAY_GRP_END;
	case REPLAY_SOURCE:
		return op >= REPLAY_SRC_GETTIMEOFDAY && op <= REPLAY_SRC_RANDOM_BYTES
		           ? 1
		           : op >= REPLAY_SRC_CLOCK && op < REPLAY_SRC_END;
	}
	return 0;
}

const char *replay__source_name(unsigned op)
{
	static const char *const clocks[REPLAY_SRC_END - REPLAY_SRC_CLOCK] = {
	    "clock_gettime(CLOCK_REALTIME)",
	    "clock_gettime(CLOCK_MONOTONIC)",
	    "clock_gettime(CLOCK_PROCESS_CPUTIME_ID)",
	    "clock_gettime(CLOCK_THREAD_CPUTIME_ID)",
	    "clock_gettime(CLOCK_MONOTONIC_RAW)",
	    "clock_gettime(CLOCK_REALTIME_COARSE)",
	    "clock_gettime(CLOCK_MONOTONIC_COARSE)",
	    "clock_gettime(CLOCK_BOOTTIME)",
	    "clock_gettime(CLOCK_REALTIME_ALARM)",
	    "clock_gettime(CLOCK_BOOTTIME_ALARM)",
	    "clock_gettime(clock 10)",
	    "clock_gettime(CLOCK_TAI)",
	    "clock_gettime(clock 12)",
	    "clock_gettime(clock 13)",
	    "clock_gettime(clock 14)",
	    "clock_gettime(clock 15)"};

	switch (op) {
	case REPLAY_SRC_GETTIMEOFDAY:
		return "gettimeofday";
	case REPLAY_SRC_TIME:
		return "time";
	case REPLAY_SRC_GETPID:
		return "getpid";
	case REPLAY_SRC_GETPPID:
		return "getppid";
	case REPLAY_SRC_GETRANDOM:
		return "getrandom";
	case REPLAY_SRC_RANDOM_BYTES:
		return "getrandom's bytes";
	}
	return op >= REPLAY_SRC_CLOCK && op < REPLAY_SRC_END ? clocks[op - REPLAY_SRC_CLOCK] : "?";
}

const char *replay__group_call(unsigned op)
{
	static const char *const names[REPLAY_GRP_END] = {
	    NULL, "pvm_joingroup", "pvm_lvgroup", "pvm_gettid", "pvm_getinst", "pvm_gsize"};

	return op >= REPLAY_GRP_JOIN && op < REPLAY_GRP_END ? names[op] : "?";
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
	if (in->kind == REPLAY_SOURCE)
		n.reading = in->reading;
	if (in->kind == REPLAY_GROUP) {
		n.sender = in->sender;
		n.tag = in->tag;
		n.value = in->value;
		n.group = in->group;
	}
	return n;
}

static int same(const replay_entry *a, const replay_entry *b)
{
	return a->op == b->op && a->kind == b->kind && a->sender == b->sender && a->tag == b->tag &&
	       a->seq_delta == b->seq_delta && a->value == b->value && a->reading == b->reading &&
	       (a->group == b->group || (a->group && b->group && !strcmp(a->group, b->group)));
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

/* No index is stored for the key. */
#define MAP_NONE (-1)

/* The index stored for key, or MAP_NONE. */
static int64_t map_get(const replay_map *m, uint64_t key)
{
	size_t i;

	if (!m->cap)
		return MAP_NONE;
	for (i = mix(key) & (m->cap - 1); m->vals[i]; i = (i + 1) & (m->cap - 1))
		if (m->keys[i] == key)
			return (int64_t)m->vals[i] - 1;
	return MAP_NONE;
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

/* Makes room for one more key; 0, or PVMMON_ENOMEM (the map is then unchanged, and the
 * entry is written literally). */
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
		return PVMMON_ENOMEM;
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

/* Appends len bytes to b, failing into b->failed. */
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

/* The stream is bytes, not a message: it appends to a wire_buf without the message
 * primitives. */
static void put_u8(wire_buf *b, uint8_t v)
{
	/* Most bytes find room: a store, not a call (every recorded read writes a few). */
	if (__builtin_expect(!b->failed && b->len < b->cap, 1))
		b->data[b->len++] = v;
	else
		put_bytes(b, &v, 1);
}

static void put_varint(wire_buf *b, uint32_t v)
{
	while (v >= 0x80) {
		put_u8(b, (uint8_t)(v | 0x80));
		v >>= 7;
	}
	put_u8(b, (uint8_t)v);
}

static void put_varint64(wire_buf *b, uint64_t v)
{
	while (v >= 0x80) {
		put_u8(b, (uint8_t)(v | 0x80));
		v >>= 7;
	}
	put_u8(b, (uint8_t)v);
}

void replay__enc_init(replay_enc *e)
{
	memset(e, 0, sizeof(*e));
	wire__buf_init(&e->out);
}

void replay__enc_free(replay_enc *e)
{
	wire__buf_free(&e->out);
	map_free(&e->senders);
	map_free(&e->tags);
	map_free(&e->outcomes);
	while (e->ngroups)
		free(e->groups[--e->ngroups]);
	free(e->groups);
	free(e->scratch);
	memset(e, 0, sizeof(*e));
}

static void flush_repeat(replay_enc *e)
{
	if (!e->pending)
		return;
	if (e->pending <= REPEAT_SHORT) {
		put_u8(&e->out, (uint8_t)(H_REPEAT_MIN - 1 + e->pending));
	} else {
		put_u8(&e->out, H_REPEAT_N);
		put_varint(&e->out, e->pending);
	}
	e->pending = 0;
}

static void put_literal(replay_enc *e, const replay_entry *n)
{
	put_u8(&e->out, H_LITERAL);
	put_u8(&e->out, n->op);
	put_u8(&e->out, (uint8_t)n->kind);
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
	put_u8(&e->out, H_EXTENDED);
	put_u8(&e->out, n->op);
	put_u8(&e->out, (uint8_t)n->kind);
	put_ref(&e->out, s, n->sender);
	put_ref(&e->out, t, n->tag);
	if (s < 0)
		map_insert(&e->senders, (uint32_t)n->sender, e->nsenders++);
	if (t < 0)
		map_insert(&e->tags, (uint32_t)n->tag, e->ntags++);
	put_varint(&e->out, zigzag(n->value));
	put_varint(&e->out, zigzag(n->seq_delta));
}

/*
 * A GROUP entry: its group by reference (a name seen before) or by name (appended to
 * the table while there is room); *n's group then points to the table's copy, which
 * lives as long as the encoder, so that the entry can stay the one a repeat compares.
 */
static void put_group(replay_enc *e, replay_entry *n)
{
	size_t len = strlen(n->group);
	uint32_t g;

	for (g = 0; g < e->ngroups && strcmp(e->groups[g], n->group); g++)
		;
	put_u8(&e->out, H_GROUP);
	put_u8(&e->out, n->op);
	if (g < e->ngroups) {
		put_varint(&e->out, g + 1);
		n->group = e->groups[g];
	} else {
		put_varint(&e->out, 0);
		put_varint(&e->out, (uint32_t)len);
		put_bytes(&e->out, (const uint8_t *)n->group, len);
		if (e->ngroups < REPLAY_GROUP_MAX) {
			char **t = realloc(e->groups, (e->ngroups + 1) * sizeof(*t));
			char *c = t ? strdup(n->group) : NULL;

			if (t)
				e->groups = t;
			if (!c) {
				/* Without the copy the decoder's table and ours would differ. */
				e->out.failed = 1;
				return;
			}
			e->groups[e->ngroups++] = c;
			n->group = c;
		} else {
			/* Not in the table: the entry keeps a copy of its own as long as it is
			 * the one repeats compare with. */
			free(e->scratch);
			if (!(e->scratch = strdup(n->group))) {
				e->out.failed = 1;
				return;
			}
			n->group = e->scratch;
		}
	}
	put_varint(&e->out, zigzag(n->sender));
	put_varint(&e->out, zigzag(n->tag));
	put_varint(&e->out, zigzag(n->value));
}

static void put_entry(replay_enc *e, replay_entry *n)
{
	int64_t s = -1, t = -1, o = -1;
	uint32_t si = 0, ti = 0;
	uint64_t key;

	if (n->kind == REPLAY_HANDLED || n->kind == REPLAY_NOTIFY) {
		put_extended(e, n);
		return;
	}
	if (n->kind == REPLAY_GROUP) {
		put_group(e, n);
		return;
	}
	if (n->kind == REPLAY_SOURCE) {
		/* A delta from the source's last reading, in wrapping arithmetic so that any
		 * two readings have one. */
		put_u8(&e->out, H_SOURCE);
		put_u8(&e->out, n->op);
		put_varint64(&e->out,
		             zigzag64((int64_t)((uint64_t)n->reading - (uint64_t)e->last[n->op])));
		e->last[n->op] = n->reading;
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
			put_u8(&e->out, H_OUTCOME_DELTA);
			put_varint(&e->out, (uint32_t)o);
			put_varint(&e->out, zigzag(n->seq_delta));
		} else if (o <= H_OUTCOME_MAX) {
			put_u8(&e->out, (uint8_t)o);
		} else {
			put_u8(&e->out, H_OUTCOME);
			put_varint(&e->out, (uint32_t)o);
		}
		return;
	}
	if (e->noutcomes >= REPLAY_TABLE_MAX || map_reserve(&e->outcomes) < 0)
		goto literal;
	put_u8(&e->out, n->seq_delta ? H_DEFINE_DELTA : H_DEFINE);
	put_u8(&e->out, n->op);
	put_u8(&e->out, (uint8_t)n->kind);
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

int replay__enc_add(replay_enc *e, const replay_entry *ent)
{
	replay_entry n;

	if (e->failed)
		return pvmmon_error_set(PVMMON_ENOMEM, "replay record: out of memory");
	if (!replay__valid(ent->op, (int)ent->kind))
		return pvmmon_error_set(PVMMON_EINVAL,
		                        "replay record: call %u cannot have outcome %d",
		                        (unsigned)ent->op, (int)ent->kind);
	if (ent->kind == REPLAY_GROUP &&
	    (!ent->group || !*ent->group || strlen(ent->group) > REPLAY_GROUP_NAME_MAX))
		return pvmmon_error_set(PVMMON_EINVAL, "replay record: a group call without a "
		                                       "group name, or with one too long");
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

int replay__enc_repeat(replay_enc *e, uint64_t n)
{
	if (e->failed)
		return pvmmon_error_set(PVMMON_ENOMEM, "replay record: out of memory");
	if (!e->have_prev)
		return pvmmon_error_set(PVMMON_EINVAL, "replay record: a repeat of nothing");
	while (n) {
		uint32_t k;

		if (e->pending == UINT32_MAX)
			flush_repeat(e);
		k = UINT32_MAX - e->pending;
		if (k > n)
			k = (uint32_t)n;
		e->pending += k;
		n -= k;
	}
	if (e->out.failed) {
		e->failed = 1;
		return pvmmon_error_set(PVMMON_ENOMEM, "replay record: out of memory");
	}
	return 0;
}

int replay__enc_take(replay_enc *e, wire_buf *b)
{
	flush_repeat(e);
	if (e->out.failed)
		e->failed = 1;
	if (!e->failed)
		put_bytes(b, e->out.data, e->out.len);
	wire__buf_reset(&e->out);
	if (e->failed || b->failed) {
		/* A lost chunk would shift every later definition: the stream is gone. */
		e->failed = 1;
		b->failed = 1;
		return pvmmon_error_set(PVMMON_ENOMEM, "replay record: out of memory");
	}
	return 0;
}
