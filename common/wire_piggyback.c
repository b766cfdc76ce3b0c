/* The codec of the trailing piggyback that follows every user message (wire_records.h):
 * its header, per-pair sequence numbers, pack signature, wait summary and critical-path
 * tuple. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "pvmmon/errors.h"
#include "wire_records.h"

size_t wire__piggyback_size(uint32_t ndests, uint32_t ncp)
{
	return WIRE_PB_HEADER + (size_t)ndests * 8 + ncp;
}

size_t wire__piggyback_sig_size(const wire_piggyback *pb)
{
	return pb->sig_on
	           ? 5 + 9 * (size_t)(pb->nsig > WIRE_PB_SIG_MAX ? WIRE_PB_SIG_MAX : pb->nsig)
	           : 0;
}

size_t wire__piggyback_blame_size(const wire_piggyback *pb)
{
	return pb->nblame ? 5 + WIRE_PB_BLAME_ENTRY * (size_t)(pb->nblame > WIRE_PB_BLAME_MAX
	                                                           ? WIRE_PB_BLAME_MAX
	                                                           : pb->nblame)
	                  : 0;
}

/* The wait summary's bytes at p (wire__piggyback_blame_size of them); returns the end. */
static uint8_t *blame_store(uint8_t *p, const wire_piggyback *pb)
{
	uint8_t n = pb->nblame > WIRE_PB_BLAME_MAX ? WIRE_PB_BLAME_MAX : pb->nblame;

	*p++ = n;
	wire__store32(p, pb->blame_prog);
	p += 4;
	for (uint8_t i = 0; i < n; i++, p += WIRE_PB_BLAME_ENTRY) {
		p[0] = pb->blame[i].inherited ? 1 : 0;
		wire__store32(p + 1, (uint32_t)pb->blame[i].tid);
		wire__store32(p + 5, pb->blame[i].stmt);
		wire__store32(p + 9, pb->blame[i].site);
		wire__store64(p + 13, (uint64_t)pb->blame[i].ns);
	}
	return p;
}

/* Reads the wait summary at s (room bytes there) into pb; 0, or -1 when damaged (pb's
 * summary is then empty). */
static int blame_load(wire_piggyback *pb, const uint8_t *s, size_t room)
{
	uint8_t n;

	if (room < 5 || (n = s[0]) == 0 || n > WIRE_PB_BLAME_MAX ||
	    room < 5 + (size_t)n * WIRE_PB_BLAME_ENTRY)
		return -1;
	pb->blame_prog = wire__load32(s + 1);
	s += 5;
	for (uint8_t i = 0; i < n; i++, s += WIRE_PB_BLAME_ENTRY) {
		if (s[0] > 1)
			return -1;
		pb->blame[i].inherited = s[0];
		pb->blame[i].tid = (int32_t)wire__load32(s + 1);
		pb->blame[i].stmt = wire__load32(s + 5);
		pb->blame[i].site = wire__load32(s + 9);
		pb->blame[i].ns = (int64_t)wire__load64(s + 13);
		if (pb->blame[i].ns < 0)
			return -1;
	}
	pb->nblame = n;
	return 0;
}

size_t wire__piggyback_encode(const wire_piggyback *pb, uint8_t *out)
{
	uint32_t i;
	uint8_t *p = out;

	p[0] = (uint8_t)WIRE_PB_MAGIC;
	p[1] = (uint8_t)(WIRE_PB_MAGIC >> 8);
	p[2] = WIRE_VERSION;
	p[3] = (uint8_t)((pb->quiet ? 1 : 0) | (pb->notify ? 2 : 0) | (pb->sig_on ? 4 : 0) |
	                 (pb->watch ? 8 : 0) | (pb->nblame ? 16 : 0));
	wire__store32(p + 4, pb->sender_index);
	wire__store32(p + 8, (uint32_t)pb->sender_tid);
	wire__store32(p + 12, pb->bytes);
	wire__store64(p + 16, (uint64_t)pb->vt_send);
	wire__store64(p + 24, (uint64_t)pb->rt_send);
	wire__store64(p + 32, (uint64_t)pb->delay);
	wire__store32(p + 40, pb->cp.on ? (uint32_t)wire__cp_size(&pb->cp) : 0);
	wire__store32(p + 44, pb->ndests);
	wire__store64(p + 48, pb->token);
	wire__store64(p + 56, pb->sends);
	p += WIRE_PB_HEADER;
	for (i = 0; i < pb->ndests; i++, p += 8) {
		wire__store32(p, (uint32_t)pb->dest_tid[i]);
		wire__store32(p + 4, pb->seq[i]);
	}
	if (pb->sig_on) {
		uint8_t n = pb->nsig > WIRE_PB_SIG_MAX ? WIRE_PB_SIG_MAX : pb->nsig;

		*p++ = (uint8_t)(n | (pb->sig_more ? 0x80 : 0));
		wire__store32(p, pb->send_site);
		p += 4;
		for (i = 0; i < n; i++, p += 9) {
			p[0] = pb->sig[i].type;
			wire__store32(p + 1, pb->sig[i].count);
			wire__store32(p + 5, pb->sig[i].site);
		}
	}
	if (pb->nblame)
		p = blame_store(p, pb);
	if (pb->cp.on)
		p = wire__cp_store(p, &pb->cp);
	return (size_t)(p - out);
}

int wire__piggyback_decode(wire_piggyback *pb, const uint8_t *data, size_t len, int32_t my_tid)
{
	uint32_t i;
	size_t at;
	int blamed;

	/* All but the tuple's arrays (800 bytes, read only up to cp.n when cp.on). */
	memset(pb, 0, offsetof(wire_piggyback, cp));
	pb->cp.on = 0;
	pb->cp.gen = pb->cp.n = 0;
	pb->cp.longest = 0;
	pb->ndests = 0;
	pb->dest_tid = NULL;
	pb->seq = NULL;
	pb->my_seq = -1;
	pb->sig_on = pb->nsig = pb->sig_more = 0;
	pb->nblame = 0;
	if (len < WIRE_PB_HEADER || (data[0] | data[1] << 8) != WIRE_PB_MAGIC)
		return pvmmon_error_set(PVMMON_EPARSE, "piggyback: bad size or magic");
	if (data[2] != WIRE_VERSION)
		return pvmmon_error_set(PVMMON_EVERSION, "piggyback: version %u", data[2]);
	pb->quiet = data[3] & 1;
	pb->notify = (data[3] >> 1) & 1;
	pb->sig_on = (data[3] >> 2) & 1;
	pb->watch = (data[3] >> 3) & 1;
	blamed = (data[3] >> 4) & 1;
	pb->sender_index = wire__load32(data + 4);
	pb->sender_tid = (int32_t)wire__load32(data + 8);
	pb->bytes = wire__load32(data + 12);
	pb->vt_send = (int64_t)wire__load64(data + 16);
	pb->rt_send = (int64_t)wire__load64(data + 24);
	pb->delay = (int64_t)wire__load64(data + 32);
	pb->ncp = wire__load32(data + 40);
	pb->ndests = wire__load32(data + 44);
	pb->token = wire__load64(data + 48);
	pb->sends = wire__load64(data + 56);
	if (pb->ndests > WIRE_PB_MAX_DESTS || pb->ncp > WIRE_PB_CP_MAX ||
	    len < wire__piggyback_size(pb->ndests, pb->ncp) + (pb->sig_on ? 5 : 0))
		return pvmmon_error_set(PVMMON_EPARSE, "piggyback: %u destinations in %zu bytes",
		                        pb->ndests, len);
	if (pb->sig_on) {
		const uint8_t *s = data + WIRE_PB_HEADER + (size_t)pb->ndests * 8;

		pb->nsig = s[0] & 0x7f;
		pb->sig_more = s[0] >> 7;
		pb->send_site = wire__load32(s + 1);
		s += 4;
		if (pb->nsig > WIRE_PB_SIG_MAX) {
			unsigned n = pb->nsig;

			pb->nsig = 0;
			return pvmmon_error_set(PVMMON_EPARSE, "piggyback: %u signature runs", n);
		}
		if (len >= wire__piggyback_size(pb->ndests, pb->ncp) + wire__piggyback_sig_size(pb))
			for (i = 0; i < pb->nsig; i++) {
				pb->sig[i].type = s[1 + 9 * i];
				pb->sig[i].count = wire__load32(s + 2 + 9 * i);
				pb->sig[i].site = wire__load32(s + 6 + 9 * i);
			}
	}
	/* The wait summary lies between the signature and the tuple. */
	at = wire__piggyback_size(pb->ndests, 0) + wire__piggyback_sig_size(pb);
	if (blamed && (len < at + pb->ncp || blame_load(pb, data + at, len - at - pb->ncp) < 0)) {
		pb->nsig = pb->nblame = 0;
		return pvmmon_error_set(PVMMON_EPARSE, "piggyback: damaged wait summary");
	}
	if (len != wire__piggyback_size(pb->ndests, pb->ncp) + wire__piggyback_sig_size(pb) +
	               wire__piggyback_blame_size(pb)) {
		pb->nsig = pb->nblame = 0;
		return pvmmon_error_set(PVMMON_EPARSE, "piggyback: %u destinations in %zu bytes",
		                        pb->ndests, len);
	}
	if (pb->ncp && wire__cp_load(data + len - pb->ncp, pb->ncp, &pb->cp) != pb->ncp) {
		memset(&pb->cp, 0, sizeof(pb->cp));
		return pvmmon_error_set(PVMMON_EPARSE, "piggyback: damaged critical-path tuple");
	}
	for (i = 0; i < pb->ndests; i++) {
		const uint8_t *e = data + WIRE_PB_HEADER + (size_t)i * 8;

		if ((int32_t)wire__load32(e) == my_tid) {
			pb->my_seq = wire__load32(e + 4);
			break;
		}
	}
	return 0;
}
