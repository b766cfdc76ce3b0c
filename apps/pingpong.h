/* Message tags and the payload pattern shared by pingpong and pingpong-echo. */
#ifndef PVMMON_APPS_PINGPONG_H
#define PVMMON_APPS_PINGPONG_H

#include <pvm3.h>

#define PINGPONG_TAG_PING 31
#define PINGPONG_TAG_PONG 32
#define PINGPONG_TAG_STOP 33
#define PINGPONG_TAG_DIRECT 34  /* asks the echo task to use direct routing */
#define PINGPONG_TAG_TRAILER 35 /* gives the echo task the context of bare trailers */

/* The size of a bare trailing message, as large as a one-destination piggyback. */
#define PINGPONG_TRAILER_BYTES 64

/*
 * The bare trailing-message scheme, without monitoring, as a baseline for the benchmark:
 * after each message, one more with the same tag in a private context; after each
 * receive, its trailer is received. ctx 0 means off.
 */
static inline void pingpong_trailer_send(int ctx, int tid, int tag)
{
	char pad[PINGPONG_TRAILER_BYTES] = {0};
	int old, sb;

	if (!ctx)
		return;
	sb = pvm_setsbuf(pvm_mkbuf(PvmDataRaw));
	old = pvm_setcontext(ctx);
	pvm_pkbyte(pad, sizeof(pad), 1);
	pvm_send(tid, tag);
	pvm_setcontext(old);
	pvm_freebuf(pvm_setsbuf(sb));
}

static inline void pingpong_trailer_recv(int ctx, int tid, int tag)
{
	int old, rb;

	if (!ctx)
		return;
	rb = pvm_setrbuf(0);
	old = pvm_setcontext(ctx);
	pvm_freebuf(pvm_recv(tid, tag));
	pvm_setcontext(old);
	pvm_setrbuf(rb);
}

/* The byte at position i of round trip k, so a stale or mixed-up message is caught. */
static inline char pingpong_byte(long i, long k) { return (char)((i * 31 + k * 7) & 0xff); }

#endif
