/* The replay record's decoder: reads a stream item by item, growing its tables only
 * with definitions actually read, and reports damage with the byte offset. */
#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "pvmmon/errors.h"

/* ---- Decoding. ---- */

void replay__dec_init(replay_dec *d, const uint8_t *data, size_t len)
{
	memset(d, 0, sizeof(*d));
	d->data = data;
	d->len = data ? len : 0;
}

void replay__dec_free(replay_dec *d)
{
	free(d->outcomes);
	free(d->senders);
	free(d->tags);
	while (d->ngroups)
		free(d->groups[--d->ngroups]);
	free(d->groups);
	free(d->scratch);
	memset(d, 0, sizeof(*d));
}

static int damaged(replay_dec *d, size_t at, const char *what)
{
	d->failed = PVMMON_EPARSE;
	return pvmmon_error_set(PVMMON_EPARSE, "replay record damaged at byte %zu: %s", at, what);
}

/* Why a number could not be read (get_varint, get_varint64, get_u8): damage, which the
 * caller reports with damaged() and read_what(). */
enum { READ_TRUNCATED = -1, READ_TOO_LARGE = -2 };

static const char *read_what(int rc)
{
	return rc == READ_TRUNCATED ? "truncated" : "number too large";
}

/* Reads a varint; 0, or READ_TRUNCATED or READ_TOO_LARGE (longer than 32 bits). */
static int get_varint(replay_dec *d, uint32_t *v)
{
	uint64_t x = 0;

	for (int shift = 0; shift < 35; shift += 7) {
		uint8_t c;

		if (d->pos >= d->len)
			return READ_TRUNCATED;
		c = d->data[d->pos++];
		x |= (uint64_t)(c & 0x7f) << shift;
		if (!(c & 0x80)) {
			if (x > UINT32_MAX)
				return READ_TOO_LARGE;
			*v = (uint32_t)x;
			return 0;
		}
	}
	return READ_TOO_LARGE;
}

/* Reads a 64-bit varint; 0, or READ_TRUNCATED or READ_TOO_LARGE (longer than 64 bits). */
static int get_varint64(replay_dec *d, uint64_t *v)
{
	uint64_t x = 0;

	for (int shift = 0; shift < 70; shift += 7) {
		uint8_t c;

		if (d->pos >= d->len)
			return READ_TRUNCATED;
		c = d->data[d->pos++];
		if (shift == 63 && (c & 0x7e))
			return READ_TOO_LARGE;
		x |= (uint64_t)(c & 0x7f) << shift;
		if (!(c & 0x80)) {
			*v = x;
			return 0;
		}
	}
	return READ_TOO_LARGE;
}

/* Reads a byte; 0, or READ_TRUNCATED. */
static int get_u8(replay_dec *d, uint8_t *v)
{
	if (d->pos >= d->len)
		return READ_TRUNCATED;
	*v = d->data[d->pos++];
	return 0;
}

/* Reads a SOURCE item after its head byte: the source and the delta from its last
 * reading. */
static int get_source(replay_dec *d, size_t at, replay_entry *ent)
{
	uint8_t src;
	uint64_t u;
	int rc;

	memset(ent, 0, sizeof(*ent));
	if (get_u8(d, &src) < 0)
		return damaged(d, at, "truncated");
	if (!replay__valid(src, REPLAY_SOURCE))
		return damaged(d, at, "unknown source");
	rc = get_varint64(d, &u);
	if (rc < 0)
		return damaged(d, at, read_what(rc));
	ent->op = src;
	ent->kind = REPLAY_SOURCE;
	ent->reading = (int64_t)((uint64_t)d->last[src] + (uint64_t)unzigzag64(u));
	d->last[src] = ent->reading;
	return 0;
}

/* Reads a GROUP item after its head byte: the call, the group (a reference, or a name
 * that joins the table while it has room), the task, the instance and the answer. */
static int get_group(replay_dec *d, size_t at, replay_entry *ent)
{
	uint8_t op;
	uint32_t g, len, v[3];
	char *name, **t;
	int rc;

	memset(ent, 0, sizeof(*ent));
	if (get_u8(d, &op) < 0)
		return damaged(d, at, "truncated");
	if (!replay__valid(op, REPLAY_GROUP))
		return damaged(d, at, "unknown group call");
	if ((rc = get_varint(d, &g)) < 0)
		return damaged(d, at, read_what(rc));
	if (g > 0) {
		if (g - 1 >= d->ngroups)
			return damaged(d, at, "undefined group");
		ent->group = d->groups[g - 1];
	} else {
		if ((rc = get_varint(d, &len)) < 0)
			return damaged(d, at, read_what(rc));
		if (len == 0 || len > REPLAY_GROUP_NAME_MAX)
			return damaged(d, at, "bad group name length");
		if (len > d->len - d->pos)
			return damaged(d, at, "truncated");
		if (memchr(d->data + d->pos, '\0', len))
			return damaged(d, at, "group name with a NUL byte");
		if (!(name = malloc(len + 1)))
			goto nomem;
		memcpy(name, d->data + d->pos, len);
		name[len] = '\0';
		d->pos += len;
		if (d->ngroups < REPLAY_GROUP_MAX) {
			if (!(t = realloc(d->groups, (d->ngroups + 1) * sizeof(*t)))) {
				free(name);
				goto nomem;
			}
			d->groups = t;
			d->groups[d->ngroups++] = name;
		} else {
			free(d->scratch);
			d->scratch = name;
		}
		ent->group = name;
	}
	for (int k = 0; k < 3; k++)
		if ((rc = get_varint(d, &v[k])) < 0)
			return damaged(d, at, read_what(rc));
	ent->op = op;
	ent->kind = REPLAY_GROUP;
	ent->sender = unzigzag(v[0]);
	ent->tag = unzigzag(v[1]);
	ent->value = unzigzag(v[2]);
	return 0;
nomem:
	d->failed = PVMMON_ENOMEM;
	return pvmmon_error_set(PVMMON_ENOMEM, "replay record: out of memory");
}

/* Grows a table to hold one more item of size bytes; the table never exceeds
 * REPLAY_TABLE_MAX items, and only definitions read make it grow. 0, or PVMMON_ENOMEM
 * (the caller reports it). */
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
		return PVMMON_ENOMEM;
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
		return damaged(d, at, read_what(rc));
	if (r > 0) {
		if (r - 1 >= *n)
			return damaged(d, at, what);
		*value = (*table)[r - 1];
		return 0;
	}
	rc = get_varint(d, &raw);
	if (rc < 0)
		return damaged(d, at, read_what(rc));
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
	if (!replay__valid(op, kind) || kind == REPLAY_SOURCE || kind == REPLAY_GROUP ||
	    (def && (kind == REPLAY_HANDLED || kind == REPLAY_NOTIFY)))
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
	for (int k = 0; k < (kind == REPLAY_MSG       ? 3
	                     : kind == REPLAY_SPAWN   ? 1
	                     : kind >= REPLAY_HANDLED ? 4
	                                              : 0);
	     k++) {
		rc = get_varint(d, &u);
		if (rc < 0)
			return damaged(d, at, read_what(rc));
		if (kind == REPLAY_SPAWN)
			ent->value = unzigzag(u);
		else
			*(k == 0   ? &ent->sender
			  : k == 1 ? &ent->tag
			  : k == 2 ? &ent->seq_delta
			           : &ent->value) = unzigzag(u);
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
	if ((kind != REPLAY_HANDLED && kind != REPLAY_NOTIFY) || !replay__valid(op, kind))
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
		return damaged(d, at, read_what(rc));
	ent->value = unzigzag(v);
	ent->seq_delta = unzigzag(dl);
	if (kind == REPLAY_NOTIFY && ent->seq_delta)
		return damaged(d, at, "sequence delta without a message");
	return 0;
}

int replay__dec_next(replay_dec *d, replay_entry *out)
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
				return damaged(d, at, read_what(rc));
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
			return damaged(d, at, read_what(rc));
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
				return damaged(d, at, read_what(rc));
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
	case H_SOURCE:
		rc = get_source(d, at, &ent);
		if (rc < 0)
			return rc;
		goto deliver;
	case H_GROUP:
		rc = get_group(d, at, &ent);
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
