/* pvmmon's own byte messages over PVM, leaving the caller's buffers and context alone. */
#include <stdlib.h>

#include <pvm3.h>

#include "pvmmon/errors.h"
#include "pvmio.h"

/* A message this long is packed in fragments of PVMIO_FRAG bytes, not libpvm3's
 * default of about 4 KB: a task's first records (SQLite's, 0.9 MB with its static
 * tables) took 2.3 to 3.8 ms to send through pvmd in 4 KB fragments and 0.8 to 0.9 ms
 * in 256 KB ones. The program's own setting is back before the send: its messages
 * keep their fragments. */
#define PVMIO_LONG 65536
#define PVMIO_FRAG 262144

int pvmio__send(const pvmio_fns *f, int ctx, int tid, int tag, const void *data, size_t len)
{
	int frag = len > PVMIO_LONG ? pvm_setopt(PvmFragSize, PVMIO_FRAG) : -1;
	int sbuf = pvm_mkbuf(PvmDataRaw), oldbuf, oldctx, rc;

	if (sbuf < 0) {
		if (frag > 0)
			pvm_setopt(PvmFragSize, frag);
		return pvmmon_error_set(PVMMON_EPVM, "pvm_mkbuf failed (%d)", sbuf);
	}
	oldbuf = pvm_setsbuf(sbuf);
	oldctx = pvm_setcontext(ctx);
	/* Packing allocates the fragments. */
	rc = pvm_pkbyte((char *)data, (int)len, 1);
	if (frag > 0)
		pvm_setopt(PvmFragSize, frag);
	if (rc >= 0)
		rc = f->send(tid, tag);
	pvm_setcontext(oldctx);
	pvm_setsbuf(oldbuf);
	pvm_freebuf(sbuf);
	if (rc < 0)
		return pvmmon_error_set(PVMMON_EPVM, "send to t%x failed (%d)", tid, rc);
	return 0;
}

int pvmio__unpack(int bufid, uint8_t **out, size_t *len, int *src, int *rtag)
{
	int bytes = 0, tag = 0, from = 0;
	uint8_t *d;

	if (pvm_bufinfo(bufid, &bytes, &tag, &from) < 0 || bytes < 0)
		return pvmmon_error_set(PVMMON_EPVM, "pvm_bufinfo failed");
	d = malloc(bytes ? (size_t)bytes : 1);
	if (!d)
		return pvmmon_error_set(PVMMON_ENOMEM, NULL);
	if (bytes && pvm_upkbyte((char *)d, bytes, 1) < 0) {
		free(d);
		return pvmmon_error_set(PVMMON_EPARSE, "message from t%x: cannot unpack", from);
	}
	*out = d;
	*len = (size_t)bytes;
	if (src)
		*src = from;
	if (rtag)
		*rtag = tag;
	return 0;
}

int pvmio__recv(const pvmio_fns *f, int ctx, int tid, int tag, int timeout_ms, uint8_t **out,
	       size_t *len, int *src, int *rtag)
{
	int rb = pvm_setrbuf(0), oldctx = pvm_setcontext(ctx), b, rc;

	if (timeout_ms < 0) {
		b = f->recv(tid, tag);
	} else {
		struct timeval tv = {timeout_ms / 1000, (timeout_ms % 1000) * 1000};

		b = f->trecv(tid, tag, &tv);
	}
	if (b > 0) {
		rc = pvmio__unpack(b, out, len, src, rtag);
		pvm_freebuf(b);
	} else if (b == 0) {
		rc = pvmmon_error_set(PVMMON_ETIMEOUT, "no message from t%x within %d ms", tid,
				      timeout_ms);
	} else {
		rc = pvmmon_error_set(PVMMON_EPVM, "receive failed (%d)", b);
	}
	pvm_setcontext(oldctx);
	pvm_setrbuf(rb);
	return rc;
}
