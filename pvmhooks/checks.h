/*
 * Private to libpvmhooks: the PVM usage checks (pvmmon run --check). The pack and
 * unpack wrappers keep each buffer's pack signature (runs of one type packed by one
 * statement); a send carries its buffer's in the piggyback; a receive keeps the one that
 * came with its message, and the unpacks are checked against it. At pvm_exit the
 * messages still queued and the buffers the program made and never freed are counted.
 * What a check finds goes to the monitor as FINDING (common/wire_check.h), once per
 * statement (pair) when first found and with its count at exit.
 */
#ifndef PVMMON_HOOKS_CHECKS_H
#define PVMMON_HOOKS_CHECKS_H

#include "hooks.h"

#pragma GCC visibility push(hidden)

/* The checks PVMMON_CHECK turns on ("all", the default; "none"; or a comma list of
 * unpack, queued, unfreed, ignored). */
enum {
	CHECKS_UNPACK = 1,
	CHECKS_QUEUED = 2,
	CHECKS_UNFREED = 4,
	CHECKS_IGNORED = 8,
	CHECKS_ALL = 15,
};
/* Which are on (read from the environment at first use); 0: none. */
int checks__on(void);
/* Parses a --check list into a mask; PVMMON_EINVAL when a name is unknown (*bad names
 * it). */
int checks__parse(const char *list, const char **bad);

/* Fills pb's signature for call's message (send, mcast: the current send buffer's;
 * psend: what checks__psend noted). */
void checks__sign(wire_piggyback *pb, const hooks_call *call);
/* pvm_psend's data type and count, from its pre hook. */
void checks__psend(int type, int len);
/* Receives: old, the receive buffer the call freed (0: none); bufid, the one it made
 * current (0: none), with the message's piggyback (NULL: none) from src with tag, of
 * bytes. */
void checks__rbuf_freed(int old);
void checks__received(int bufid, const wire_piggyback *pb, int src, int tag, int bytes,
                      int inner);
/* pvm_precv of len items of type, at call's statement, of a message with piggyback pb. */
void checks__precv(const hooks_call *call, int type, int len, const wire_piggyback *pb, int tag);
/* At pvm_exit, before the final flush: counts the queued messages and the unfreed
 * buffers, and sends every finding whose count changed. take_pb takes the trailing
 * piggyback of a message from src with tag (calls.c); 1 when there was one. */
void checks__exit(int (*take_pb)(int src, int tag, wire_piggyback *pb));

/* Forgets everything (tests). */
void checks__reset(void);

#pragma GCC visibility pop

#endif
