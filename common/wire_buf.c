/* The wire codecs' buffer primitives: the growable buffer, the bounds-checked cursor,
 * the version header and the critical-path tuple several messages carry. */
#include <stdlib.h>
#include <string.h>

#include "pvmmon/errors.h"
#include "wire_buf.h"

void wire__buf_init(wire_buf *b) { memset(b, 0, sizeof(*b)); }

void wire__buf_reset(wire_buf *b)
{
	b->len = 0;
	b->failed = 0;
}

void wire__buf_free(wire_buf *b)
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

void wire__put_u8(wire_buf *b, uint8_t v)
{
	uint8_t *p = reserve(b, 1);

	if (p)
		*p = v;
}

void wire__put_u32(wire_buf *b, uint32_t v)
{
	uint8_t *p = reserve(b, 4);

	if (p)
		wire__store32(p, v);
}

void wire__put_u64(wire_buf *b, uint64_t v)
{
	uint8_t *p = reserve(b, 8);

	if (p)
		wire__store64(p, v);
}

void wire__buf_append(wire_buf *b, const void *data, size_t n)
{
	uint8_t *p = n ? reserve(b, n) : NULL;

	if (p)
		memcpy(p, data, n);
}

void wire__put_str(wire_buf *b, const char *s)
{
	size_t n;
	uint8_t *p;

	if (!s) {
		wire__put_u32(b, 0xffffffffu);
		return;
	}
	n = strlen(s);
	if (n > WIRE_MAX_STR)
		n = WIRE_MAX_STR;
	wire__put_u32(b, (uint32_t)n);
	p = reserve(b, n);
	if (p)
		memcpy(p, s, n);
}

void wire__in_init(wire_in *in, const void *data, size_t len)
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

uint8_t wire__get_u8(wire_in *in)
{
	const uint8_t *p = take(in, 1);

	return p ? *p : 0;
}

uint32_t wire__get_u32(wire_in *in)
{
	const uint8_t *p = take(in, 4);

	return p ? wire__load32(p) : 0;
}

uint64_t wire__get_u64(wire_in *in)
{
	const uint8_t *p = take(in, 8);

	return p ? wire__load64(p) : 0;
}

char *wire__get_str(wire_in *in, size_t max)
{
	uint32_t n = wire__get_u32(in);
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

void wire__head_put(wire_buf *b) { wire__put_u32(b, WIRE_VERSION); }

int wire__head_get(wire_in *in, const char *what)
{
	uint32_t v = wire__get_u32(in);

	if (in->failed)
		return pvmmon_error_set(PVMMON_EPARSE, "%s: no header", what);
	if (v != WIRE_VERSION)
		return pvmmon_error_set(PVMMON_EVERSION, "%s: wrong version", what);
	return 0;
}

int wire__done(const wire_in *in, const char *what)
{
	if (in->failed || in->left)
		return pvmmon_error_set(PVMMON_EPARSE, "%s: damaged message", what);
	return 0;
}

void *wire__get_array(wire_in *in, size_t *n, size_t size, size_t min)
{
	uint32_t count = wire__get_u32(in);
	void *a;

	*n = 0;
	if (in->failed || count == 0)
		return NULL;
	/* Each item takes at least min encoded bytes, so a larger count is damage: nothing
	 * is allocated on trust. */
	if (count > WIRE_MAX_ITEMS || (size_t)count * min > in->left) {
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

size_t wire__cp_size(const wire_cp *cp) { return cp->on ? 1 + 4 + 4 + 8 + 24 * (size_t)cp->n : 1; }

uint8_t *wire__cp_store(uint8_t *p, const wire_cp *cp)
{
	*p++ = cp->on ? 1 : 0;
	if (!cp->on)
		return p;
	wire__store32(p, cp->gen);
	wire__store32(p + 4, cp->n);
	wire__store64(p + 8, (uint64_t)cp->longest);
	p += 16;
	for (uint32_t k = 0; k < cp->n; k++, p += 24) {
		wire__store64(p, (uint64_t)cp->share[k]);
		wire__store64(p + 8, (uint64_t)cp->zlong[k]);
		wire__store64(p + 16, (uint64_t)cp->zshare[k]);
	}
	return p;
}

size_t wire__cp_load(const uint8_t *p, size_t len, wire_cp *cp)
{
	memset(cp, 0, sizeof(*cp));
	if (len < 1 || p[0] > 1)
		return 0;
	if (!p[0])
		return 1;
	if (len < 17)
		return 0;
	cp->gen = wire__load32(p + 1);
	cp->n = wire__load32(p + 5);
	if (cp->n > WIRE_CP_MAX || len < 17 + 24 * (size_t)cp->n) {
		cp->n = 0;
		cp->gen = 0;
		return 0;
	}
	cp->on = 1;
	cp->longest = (int64_t)wire__load64(p + 9);
	for (uint32_t k = 0; k < cp->n; k++) {
		const uint8_t *e = p + 17 + 24 * (size_t)k;

		cp->share[k] = (int64_t)wire__load64(e);
		cp->zlong[k] = (int64_t)wire__load64(e + 8);
		cp->zshare[k] = (int64_t)wire__load64(e + 16);
	}
	return 17 + 24 * (size_t)cp->n;
}

void wire__cp_put(wire_buf *b, const wire_cp *cp)
{
	uint8_t *p = reserve(b, wire__cp_size(cp));

	if (p)
		wire__cp_store(p, cp);
}

void wire__cp_get(wire_in *in, wire_cp *cp)
{
	size_t used = in->failed ? 0 : wire__cp_load(in->p, in->left, cp);

	if (!used) {
		memset(cp, 0, sizeof(*cp));
		in->failed = 1;
		return;
	}
	in->p += used;
	in->left -= used;
}
