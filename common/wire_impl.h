/*
 * Internal to common/'s wire codecs (wire_*.c): the bounds every decoder applies and
 * the helpers the family files share. No code outside the codecs includes it.
 */
#ifndef PVMMON_COMMON_WIRE_IMPL_H
#define PVMMON_COMMON_WIRE_IMPL_H

#include "wire.h"

/* Strings and item counts above these sizes are damage, not data. */
#define WIRE_MAX_STR 4096
#define WIRE_MAX_ITEMS (1u << 20)

static inline void wire__store32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static inline void wire__store64(uint8_t *p, uint64_t v)
{
	wire__store32(p, (uint32_t)v);
	wire__store32(p + 4, (uint32_t)(v >> 32));
}

static inline uint32_t wire__load32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t wire__load64(const uint8_t *p)
{
	return (uint64_t)wire__load32(p) | (uint64_t)wire__load32(p + 4) << 32;
}

static inline void wire__put_i64(wire_buf *b, int64_t v) { wire__put_u64(b, (uint64_t)v); }

static inline int64_t wire__get_i64(wire_in *in) { return (int64_t)wire__get_u64(in); }

/* A u8 that must be 0 or 1 (a flag): anything else marks the input damaged. */
static inline uint8_t wire__get_flag(wire_in *in)
{
	uint8_t v = wire__get_u8(in);

	if (v > 1)
		in->failed = 1;
	return v;
}

/* Reads an item count and allocates that many zeroed items of size bytes, each of
 * which takes at least min encoded bytes; NULL with failed set on damage. A count of 0
 * gives NULL without failure. */
void *wire__get_array(wire_in *in, size_t *n, size_t size, size_t min);

/* The tuple's bytes into p (wire__cp_size(cp) of them); returns the end. */
uint8_t *wire__cp_store(uint8_t *p, const wire_cp *cp);
/* Reads a tuple from len bytes at p; the bytes used, or 0 when damaged. */
size_t wire__cp_load(const uint8_t *p, size_t len, wire_cp *cp);

/* The end of a decoding: PVMMON_EPARSE (what is damaged) unless the input was read
 * exactly to its end without failure. */
int wire__done(const wire_in *in, const char *what);

#endif
