/*
 * Private to pvmmon: a task's wait reports (doc/architecture.md, "Hangs"): WAIT when a
 * blocking receive has waited longer than the threshold, WAITEND when it completes.
 */
#ifndef PVMMON_COMMON_WIRE_HANG_H
#define PVMMON_COMMON_WIRE_HANG_H

#include "wire_buf.h"

/* The receive that waits. */
typedef enum wire_wait_op {
	WIRE_WAIT_RECV = 0,  /* pvm_recv, or pvm_trecv without a timeout */
	WIRE_WAIT_TRECV = 1, /* pvm_trecv with a timeout (deadline set): never a hang */
	WIRE_WAIT_PRECV = 2,
	WIRE_WAIT_POLL = 3, /* pvm_nrecv/pvm_probe polling with no result */
	/* A replay's forced wait for a recorded message (a receive, a probe, a message
	 * handler's delivery): src and tag are the recorded sender's; no deadline. */
	WIRE_WAIT_FORCED = 4,
} wire_wait_op;

/* User messages this task has sent to and received from one partner (monitored ones,
 * counted by their piggybacks). */
typedef struct wire_wpeer {
	int32_t tid;
	uint32_t sent, recv;
} wire_wpeer;

/* A message queued at the waiting task that the receive does not take. */
typedef struct wire_wqueued {
	int32_t src, tag, ctx;
	uint32_t len;
} wire_wqueued;

/* The most queued messages one report lists. */
#define WIRE_WAIT_MAX_QUEUED 16

typedef struct wire_wait {
	uint32_t seq;          /* the task's wait number (from 1); a repeat updates it */
	uint8_t op;            /* wire_wait_op */
	int32_t src, tag, ctx; /* what it waits for (-1: any) and its context */
	uint32_t stmt;         /* the statement's id in the task's records */
	char *module;          /* the call site */
	uint64_t offset;
	int64_t rt_start, vt_start; /* the wait's start, the task's own clock */
	int64_t deadline;           /* real time a pvm_trecv gives up, 0 when never */
	uint32_t npeers, nqueued;
	wire_wpeer *peers;
	wire_wqueued *queued;
	/* Every message queued that the receive does not take (queued lists the first
	 * WIRE_WAIT_MAX_QUEUED): of a specific source, all of them from it. */
	uint32_t queued_total;
} wire_wait;

void wire__wait_encode(wire_buf *b, const wire_wait *w);
/* Decodes into *w; its arrays and module are the caller's (wire__wait_clear). */
int wire__wait_decode(wire_wait *w, const uint8_t *data, size_t len);
void wire__wait_clear(wire_wait *w);

/* WAITEND: wait seq is over (the receive returned at rt_end, the task's clock). */
typedef struct wire_waitend {
	uint32_t seq;
	int64_t rt_end;
} wire_waitend;

void wire__waitend_encode(wire_buf *b, const wire_waitend *e);
int wire__waitend_decode(wire_waitend *e, const uint8_t *data, size_t len);

#endif
