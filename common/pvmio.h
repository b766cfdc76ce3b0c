/*
 * Private to pvmmon: sending and receiving pvmmon's own byte messages over PVM in a
 * given context without disturbing the caller's send buffer, receive buffer or
 * context. The PVM functions are passed in so that the hooks library can use libpvm3's
 * real entry points rather than its own wrappers.
 */
#ifndef PVMMON_COMMON_PVMIO_H
#define PVMMON_COMMON_PVMIO_H

#include <stddef.h>
#include <stdint.h>
#include <sys/time.h>

typedef struct pvmio_fns {
	int (*send)(int tid, int tag);
	int (*recv)(int tid, int tag);
	int (*trecv)(int tid, int tag, struct timeval *tmout);
} pvmio_fns;

/* Sends len bytes to tid with tag in context ctx. Returns 0 or PVMMON_EPVM. */
int pvmio__send(const pvmio_fns *f, int ctx, int tid, int tag, const void *data, size_t len);

/*
 * Receives one message from tid (-1: any) with tag (-1: any) in ctx, waiting at most
 * timeout_ms (negative: forever). On success *out (heap, caller frees) and *len hold
 * the bytes, *src and *rtag (either may be NULL) the sender and tag. Returns 0,
 * PVMMON_ETIMEOUT or PVMMON_EPVM.
 */
int pvmio__recv(const pvmio_fns *f, int ctx, int tid, int tag, int timeout_ms, uint8_t **out,
	       size_t *len, int *src, int *rtag);

/* Unpacks the bytes of the active receive buffer bufid (all of it) into a heap copy. */
int pvmio__unpack(int bufid, uint8_t **out, size_t *len, int *src, int *rtag);

#endif
