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
	/* Sent counts only (wire 17): the virtual send time of the first message to tid
	 * since the task's previous report (the monitor's lower bound on when the first
	 * message it has not seen left; INT64_MIN: not known). */
	int64_t vs;
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
	/* The task's transmission estimate for its smallest messages (ns, 0 before any
	 * sample): the monitor's lower bound on how long a message on its way to the task
	 * takes to arrive in the task's virtual time (a blocked task's wake bound). */
	int64_t trans;
	/* Receives the task has decided itself, and block notices it has sent to other
	 * tasks (wire_pblock), so far (see wire_pgrant's table). */
	uint32_t local, notices;
	/* A blocked receive's report sent late (after a block notice): how long it had
	 * waited, ns (0 otherwise), so that the monitor times the wait from its start. */
	int64_t waited;
	/* The task's virtual-time uncertainty now, ns (what its records would say): the
	 * monitor's tie window for its candidates between its flushes. */
	int64_t unc;
	/* A running report that records a receive the task decided itself (1; wire 16,
	 * sent only in a traced run, for the log's record of decisions): the sender and tag
	 * it took, its tie window and the least bound that allowed it (the horizon); the
	 * report's vt is the receive's start, cand its candidates. 0 otherwise. */
	uint8_t decided;
	int32_t taken_src, taken_tag;
	int64_t window, horizon;
	/* Whom the task may address (wire 19, wire_pw_reach bits): the monitor's knowledge
	 * rule (monitor/prknow.c) leaves out, for a receive from any source, the tasks that
	 * cannot address the receiver. */
	uint8_t reach;
	/* Receives the task decided itself whose wait for news ended on a timer (the wait
	 * threshold, the board's 50 ms) before it asked the monitor, so far (wire 20). */
	uint32_t timed;
} wire_pwait;

/* wire_pwait.reach: what a task's own calls say about whom it may address. */
typedef enum wire_pw_reach {
	/* It may address any task: it called, or its program imports, a call that lists
	 * tids (pvm_tasks, pvm_siblings, group calls, the mailbox), or it took a message
	 * from an unmonitored sender, whose data may hold tids. */
	WIRE_PW_REACH_ALL = 1,
	/* It packed a tid it had learned into a message or a spawn's arguments: its
	 * messages may teach others whom to address (the rule is then off for the run). */
	WIRE_PW_REACH_TEACH = 2,
	/* It sent to a task it was not seen to learn of (the rule is then off for the run,
	 * with a warning: decisions before may have been taken on a wrong premise). */
	WIRE_PW_REACH_SURPRISE = 4,
	/* It took a message from a task its bounds said could not address it (one taught
	 * its tid in a message: a relay), earlier in virtual time than one it had already
	 * taken: that decision may not be the unmonitored run's (the rule is then off for
	 * the run, with a warning). */
	WIRE_PW_REACH_MISORDER = 8,
} wire_pw_reach;
#define WIRE_PW_REACH_MASK 15

typedef enum wire_pg_verdict {
	WIRE_PG_TAKE = 0, /* receive the first message from src with tag */
	WIRE_PG_NONE = 1, /* find nothing (a miss, or the timeout) */
} wire_pg_verdict;

void wire__pwait_encode(wire_buf *b, const wire_pwait *w);
/* Decodes into *w; its arrays and module are the caller's (wire__pwait_clear). */
int wire__pwait_decode(wire_pwait *w, const uint8_t *data, size_t len);
void wire__pwait_clear(wire_pwait *w);

/* What may let a task of a grant's bounds send earlier than its bound: nothing (it
 * computes, and its virtual time only grows), the requester sending to it (it waits
 * on the requester alone), or the requester sending to anyone (it waits through other
 * tasks or on anyone). */
typedef enum wire_pb_dep {
	WIRE_PB_DEP_NONE = 0,
	WIRE_PB_DEP_SELF = 1,
	WIRE_PB_DEP_ANY = 2,
} wire_pb_dep;

/* One other task's bound in a grant (times on the monitor's clock). */
typedef struct wire_pbound {
	int32_t tid;
	uint8_t dep;   /* wire_pb_dep */
	int64_t bound; /* its next send is not earlier (INT64_MAX: not before the
	                * requester sends, by dep) */
	int64_t vt;    /* its virtual time at its last report: it sends nothing earlier */
	uint32_t seq;  /* the messages it had sent to the requester by that report */
	uint32_t rank; /* its place in the monitor's tie order (logical ids) */
	/* Who may address whom (wire 19, WIRE_PB_KNOWS_* bits): it may address the
	 * requester (always when the grant's know is 0); no task but the requester may
	 * address it. */
	uint8_t knows;
	/* Its least transmission (its last report's, ns; 0: none known, wire 19): a message
	 * the requester sends it reaches it, in its virtual time, no earlier than the
	 * send + half that (half: a new least sample may come with that very message). */
	int64_t trans;
} wire_pbound;
#define WIRE_PB_KNOWS_REQ 1
#define WIRE_PB_KNOWS_LONE 2

/* PGRANT: the decision on request req. With table set, the bounds of every other task
 * the monitor knows of (a blocking receive's TAKE): the task may then decide its next
 * receives itself while what it receives keeps them past its candidates (see
 * pvmhooks/prlocal.c). */
typedef struct wire_pgrant {
	uint32_t req;
	uint8_t verdict;  /* wire_pg_verdict */
	int32_t src, tag; /* TAKE: the message to receive */
	uint8_t table;
	/* The knowledge rule was used for the bounds (monitor/prknow.c, wire 19): a task
	 * that may not address the requester holds none of its receives from any source
	 * (wire_pbound.knows). */
	uint8_t know;
	int64_t umax; /* the spread of the tasks' virtual-time uncertainties, ns */
	uint32_t nb;
	wire_pbound *b;
} wire_pgrant;

void wire__pgrant_encode(wire_buf *b, const wire_pgrant *g);
/* Decodes into *g; its table is the caller's (wire__pgrant_clear). */
int wire__pgrant_decode(wire_pgrant *g, const uint8_t *data, size_t len);
void wire__pgrant_clear(wire_pgrant *g);

/* PBLOCK, task to task: the sender blocks in a receive that accepts messages from the
 * destination alone, or from any source with nothing it accepts queued (any), or ends
 * (told only to a task that asked for it on its piggybacks, see pvmhooks/prlocal.c). */
typedef struct wire_pblock {
	int64_t vt;      /* the receive's virtual start, on the monitor's clock */
	uint32_t seen;   /* messages from the destination the sender has seen */
	uint32_t sent;   /* messages the sender has sent to the destination */
	uint8_t quiet;   /* it has spawned nothing since its last send to the destination */
	uint8_t exiting; /* it ends (vt and seen are then 0): it sends nothing more */
	uint64_t sends;  /* its sends so far on its host's board (UINT64_MAX: none) */
	uint8_t any;     /* the receive takes messages from any source (wire 16) */
	uint8_t alone;   /* it has sent to and seen from no task but the destination */
	/* It waits in a call that is no receive from the destination alone or from any
	 * source with nothing queued (a receive from another task, a decision of its own
	 * with candidates, the monitor's grant, a timeout's deadline): it will send the
	 * destination nothing until it runs again (wire 20). vt, seen, sent, sends only. */
	uint8_t away;
} wire_pblock;

void wire__pblock_encode(wire_buf *b, const wire_pblock *k);
int wire__pblock_decode(wire_pblock *k, const uint8_t *data, size_t len);

/* PASK carries nothing but the header, and so does PWATCH (task to task, wire 20): the
 * sender waits for the destination's news (it woke it), and asks to be told when the
 * destination waits elsewhere (wire_pblock.away). */
void wire__pask_encode(wire_buf *b);
int wire__pask_decode(const uint8_t *data, size_t len);

#endif
