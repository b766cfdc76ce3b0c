/*
 * Private to pvmmon: preserve mode's messages (doc/architecture.md, "Preserve mode"):
 * a task's requests and reports (PWAIT), the monitor's decisions (PGRANT) and its
 * request for a report (PASK).
 */
#ifndef PVMMON_COMMON_WIRE_PRESERVE_H
#define PVMMON_COMMON_WIRE_PRESERVE_H

#include "wire_buf.h"

/*
 * Preserve mode (doc/architecture.md, "Preserve mode"). A task's request before a
 * nondeterministic receive, its report when it blocks in a receive, and its answer to
 * the monitor's PASK share one message: what it waits for (if anything), its virtual
 * time, the counts of messages it has sent to and seen from each partner that changed
 * since its last report, and the candidates: per sender, the first queued message
 * that matches the pattern.
 */
typedef enum wire_pw_kind {
	WIRE_PW_RUNNING = 0, /* a state report: the task computes */
	WIRE_PW_BLOCKED = 1, /* a deterministic receive found nothing queued */
	WIRE_PW_RECV = 2,    /* a blocking receive from any source: request */
	WIRE_PW_NRECV = 3,   /* pvm_nrecv: request (found or not, and which) */
	WIRE_PW_PROBE = 4,   /* pvm_probe: request */
	WIRE_PW_TRECV = 5,   /* pvm_trecv with a timeout: request */
} wire_pw_kind;

typedef struct wire_pcount {
	int32_t tid;
	uint32_t n; /* messages sent to tid, or seen from tid, so far */
} wire_pcount;

typedef struct wire_pcand {
	int32_t src, tag;
	int64_t va;   /* virtual arrival: sender's virtual send time + transmission estimate */
	int64_t vs;   /* the sender's virtual send time: it is at least that far now */
	uint32_t seq; /* the sender's sequence number for this pair */
} wire_pcand;

typedef struct wire_pwait {
	uint32_t req;     /* the task's request number (from 1); in a blocked receive's
	                   * report, its block number (from 1); 0 in a running report */
	uint8_t kind;     /* wire_pw_kind */
	int32_t src, tag; /* the receive's patterns, -1 for any */
	int64_t vt;       /* virtual time: the receive's start, or now when running */
	int64_t deadline; /* virtual time it gives up (INT64_MAX: never) */
	char *module;     /* the call site, for deadlock reports (NULL in reports) */
	uint64_t offset;
	uint32_t nsent, nseen, ncand;
	wire_pcount *sent, *seen;
	/* A request's candidates; in a blocked receive's report, what its source has queued
	 * that it does not take (at most WIRE_WAIT_MAX_QUEUED). */
	wire_pcand *cand;
} wire_pwait;

typedef enum wire_pg_verdict {
	WIRE_PG_TAKE = 0, /* receive the first message from src with tag */
	WIRE_PG_NONE = 1, /* find nothing (a miss, or the timeout) */
} wire_pg_verdict;

void wire__pwait_encode(wire_buf *b, const wire_pwait *w);
/* Decodes into *w; its arrays and module are the caller's (wire__pwait_clear). */
int wire__pwait_decode(wire_pwait *w, const uint8_t *data, size_t len);
void wire__pwait_clear(wire_pwait *w);

/* PGRANT: the decision on request req. */
typedef struct wire_pgrant {
	uint32_t req;
	uint8_t verdict;  /* wire_pg_verdict */
	int32_t src, tag; /* TAKE: the message to receive */
} wire_pgrant;

void wire__pgrant_encode(wire_buf *b, const wire_pgrant *g);
int wire__pgrant_decode(wire_pgrant *g, const uint8_t *data, size_t len);

/* PASK carries nothing but the header. */
void wire__pask_encode(wire_buf *b);
int wire__pask_decode(const uint8_t *data, size_t len);

#endif
