/* The in-task side of the event trace: buffering events and sending them in chunks. */
#include <stdlib.h>
#include <string.h>

#include "../common/pvmio.h"
#include "trace.h"
#include "pvmmon/errors.h"

static int tracing; /* events are recorded (off for good once the limit is reached) */
static int paused;  /* calibration runs: its probes are no part of the program */

static pvmmon_log_event *buf;
static size_t nbuf, capbuf;
static uint64_t left;  /* events this task may still record */
static wire_buf chunk; /* reused encoding buffer */

/* The trace's name of each wrapped call; 0 for calls that are not traced. */
static const pvmmon_event_op op_of[HOOKS_OP_COUNT] = {
    [HOOKS_OP_pvm_send] = PVMMON_EV_SEND,   [HOOKS_OP_pvm_psend] = PVMMON_EV_PSEND,
    [HOOKS_OP_pvm_mcast] = PVMMON_EV_MCAST, [HOOKS_OP_pvm_recv] = PVMMON_EV_RECV,
    [HOOKS_OP_pvm_nrecv] = PVMMON_EV_NRECV, [HOOKS_OP_pvm_trecv] = PVMMON_EV_TRECV,
    [HOOKS_OP_pvm_precv] = PVMMON_EV_PRECV, [HOOKS_OP_pvm_probe] = PVMMON_EV_PROBE,
    [HOOKS_OP_pvm_spawn] = PVMMON_EV_SPAWN, [HOOKS_OP_pvm_joingroup] = PVMMON_EV_JOINGROUP,
};

pvmmon_event_op hooks__event_op(hooks_op op)
{
	return op < HOOKS_OP_COUNT ? op_of[op] : (pvmmon_event_op)0;
}

int hooks__trace_on(void)
{
	/* Without the monitor nothing more goes out: the events would only pile up. */
	return tracing && !paused && !channel__lost();
}

void hooks__trace_pause(int p) { paused = p; }

void hooks__trace_init(uint64_t max_events)
{
	left = max_events;
	tracing = max_events > 0;
	/* Again for a task that enrols again: what the first one held went with its final
	 * flush. */
	wire__buf_free(&chunk);
	wire__buf_init(&chunk);
}

/* A new event slot, or NULL when the limit is reached or memory is out. */
static pvmmon_log_event *next_slot(void)
{
	if (left == 0) {
		tracing = 0;
		return NULL;
	}
	if (nbuf == capbuf) {
		/* A mcast adds one event per destination within one call, so the buffer
		 * may grow past a chunk before the call ends and the chunk is sent. */
		size_t cap = capbuf ? capbuf * 2 : HOOKS_TRACE_CHUNK;
		pvmmon_log_event *b = realloc(buf, cap * sizeof(*b));

		if (!b) {
			tracing = 0;
			return NULL;
		}
		buf = b;
		capbuf = cap;
	}
	left--;
	return &buf[nbuf++];
}

/* The records' id of a call's statement (set by features.c: the records are above the
 * trace, whose events they name). */
static uint32_t (*stmt_id)(void *site, hooks_op op);

void hooks__trace_set_stmt_id(uint32_t (*fn)(void *site, hooks_op op))
{
	stmt_id = fn;
}

static void begin_event(hooks_call *call, pvmmon_log_event *e)
{

	if (call->trace_first < 0)
		call->trace_first = (int)(e - buf);
	e->op = op_of[call->op];
	e->stmt = stmt_id ? stmt_id(call->site, call->op) : 0;
	e->rt[0] = call->t0;
	e->rt[1] = call->t1;
	e->rt[2] = call->t2;
	e->vt0 = call->v0;
	e->peer = 0;
	e->tag = 0;
	e->bytes = 0;
	e->seq = -1;
	e->sync = 0;
	e->trans = 0;
	/* Only receives, polls and probes: a spawn's nondeterminism is its count. */
	e->nd = call->nondet && (pvmmon_event_op_receives(e->op) || e->op == PVMMON_EV_PROBE);
	e->want_peer = e->nd ? call->want_tid : 0;
	e->want_tag = e->nd ? call->want_tag : 0;
}

void hooks__trace_msg(hooks_call *call, int32_t peer, int32_t tag, uint32_t bytes, int64_t seq,
		      int64_t sync, int64_t trans)
{
	pvmmon_log_event *e;

	if (!hooks__trace_on() || !op_of[call->op] || !(e = next_slot()))
		return;
	begin_event(call, e);
	e->peer = peer;
	e->tag = tag;
	e->bytes = bytes;
	e->seq = seq;
	e->sync = sync;
	e->trans = trans;
}

void hooks__trace_point(pvmmon_event_op op, int32_t tag, int64_t rt, int64_t v)
{
	pvmmon_log_event *e;

	if (!hooks__trace_on() || !(e = next_slot()))
		return;
	memset(e, 0, sizeof(*e));
	e->op = op;
	e->tag = tag;
	e->seq = -1;
	e->rt[0] = e->rt[1] = e->rt[2] = e->rt[3] = rt;
	e->vt0 = e->vt1 = v;
}

void hooks__trace_end(hooks_call *call, int64_t t3)
{
	int64_t vt1 = vclock__virtual(hooks__clock(), t3);
	size_t i;

	if (!op_of[call->op])
		return;
	if (call->trace_first < 0) {
		pvmmon_log_event *e = hooks__trace_on() ? next_slot() : NULL;

		if (!e)
			return;
		begin_event(call, e);
	}
	for (i = (size_t)call->trace_first; i < nbuf; i++) {
		buf[i].rt[3] = t3;
		buf[i].vt1 = vt1;
	}
	if (nbuf >= HOOKS_TRACE_CHUNK)
		hooks__trace_flush();
}

int hooks__trace_flush(void)
{
	int rc = PVMMON_ENOMEM;

	if (nbuf == 0 || hooks__state() != HOOKS_ACTIVE)
		return 0;
	wire__buf_reset(&chunk);
	wire__trace_encode(&chunk, hooks__mytid(), buf, nbuf);
	if (!chunk.failed)
		rc = channel__send(WIRE_TAG_TRACE, chunk.data, chunk.len);
	nbuf = 0;
	return rc;
}
