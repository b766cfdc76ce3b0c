/*
 * The trailing piggyback of every user message (doc/architecture.md, "In a task"): sent
 * after a send or mcast in the private context, taken at the receive, with the
 * per-pair sequence numbers that pair them. The call hooks (calls.c) and the message
 * handlers' and waits' code (mhf.c, waits.c) use it; it calls only the features it
 * carries data of (preserve mode's stash and counts, the trace, the critical path's
 * tuple, the checks' signature, the board) and the core.
 */
#include <stdlib.h>
#include <string.h>

#include "blame.h"
#include "board.h"
#include "checks.h"
#include "clocksync.h"
#include "critpath.h"
#include "hooks.h"
#include "piggyback.h"
#include "preserve.h"
#include "pvmmon/errors.h"
#include "reach.h"
#include "trace.h"

/* The piggyback's state: the per-pair sequence numbers and counts, the numbers taken
 * ahead of their turn, and what message handlers hold (piggyback__held_by). */
static struct {
	/* The per-pair sequence numbers: destination tid -> next one to send, source tid
	 * -> next one expected. */
	tidmap send_seq, recv_seq;
	/* Messages received from each sender, counted: the expected sequence number is no
	 * count once a receive has overtaken messages of another tag (it moves past them,
	 * and back when they are received). */
	tidmap recv_count;
	/* Sequence numbers consumed ahead of the expected one while messages a handler
	 * took were still unsettled (their piggybacks come later): (source, sequence). */
	struct {
		int src;
		int64_t seq;
	} * ahead;
	size_t nahead, capahead;
	/* Messages from a source that message handlers took and whose piggybacks are not
	 * yet taken (mhf.c gives it at install; none without). */
	int (*held_from)(int src);
} pg;

void hooks__pairs_restart(void)
{
	/* A new tid: every partner's sequence with it starts anew. */
	tidmap__free(&pg.send_seq);
	tidmap__free(&pg.recv_seq);
	tidmap__free(&pg.recv_count);
}

void piggyback__held_by(int (*held_from)(int src)) { pg.held_from = held_from; }

/* Sends the trailing piggyback message to tids in the private context with the user's
 * tag, leaving the user's send buffer and context as they were. */
int hooks__send_piggyback(hooks_call *call, const int *tids, int n, int tag, int bytes)
{
	uint8_t stack[PB_STACK_BYTES];
	int32_t stack_tids[PB_STACK_DESTS];
	uint32_t stack_seq[PB_STACK_DESTS];
	uint8_t *enc = stack;
	int32_t *dt = stack_tids;
	uint32_t *seq = stack_seq;
	wire_piggyback pb;
	size_t len;
	int i, rc = PVMMON_ENOMEM;

	if (n > PB_STACK_DESTS) {
		enc = malloc(wire__piggyback_size((uint32_t)n, WIRE_PB_CP_MAX) + WIRE_PB_SIG_BYTES +
		             WIRE_PB_BLAME_BYTES);
		dt = malloc(sizeof(*dt) * (size_t)n);
		seq = malloc(sizeof(*seq) * (size_t)n);
		if (!enc || !dt || !seq)
			goto out;
	}
	/* Field by field: the tuple (cp) alone is 800 bytes, read only when on. */
	/* The send's virtual time is the call's: the program sent when it called. What
	 * the wrapper did before the real send (answering the monitor, a preemption in
	 * it) is charged to monitoring at the call's end, and a stamp at t1 counted it:
	 * a master preempted for 170 us there made its next "go" look later than a
	 * relayed number in apps/gorace (issue 37). The real send time stays t1. */
	pb.vt_send = hooks__to_common(call->v0);
	pb.quiet = 0;
	for (i = 0; i < n; i++) {
		int64_t *s = tidmap__get(&pg.send_seq, tids[i], 0);

		dt[i] = tids[i];
		seq[i] = s ? (uint32_t)(*s)++ : 0;
		/* Quiet only for a send to one task (one piggyback serves all of a mcast's). */
		if (hooks__pr_on())
			pb.quiet = (uint8_t)(hooks__pr_sent(tids[i], pb.vt_send) && n == 1);
		if (hooks__trace_on())
			hooks__trace_msg(call, tids[i], tag, bytes > 0 ? (uint32_t)bytes : 0,
			                 seq[i], 0, 0);
	}
	pb.notify = (uint8_t)hooks__pr_deciding();
	/* One piggyback serves a mcast's every destination: it asks them all for news when
	 * one of them is watched, and all are then waited for as asked. */
	pb.watch = 0;
	for (i = 0; pb.notify && i < n && !pb.watch; i++)
		pb.watch = (uint8_t)hooks__pr_watching(tids[i]);
	for (i = 0; pb.watch && i < n; i++)
		hooks__pr_asked(tids[i]);
	pb.sender_index = hooks__index();
	pb.sender_tid = hooks__mytid();
	pb.rt_send = hooks__to_common(call->t1);
	pb.delay = vclock__intrusion(hooks__clock());
	pb.bytes = bytes > 0 ? (uint32_t)bytes : 0;
	pb.ncp = 0;
	pb.ndests = (uint32_t)n;
	pb.token = hooks__token();
	pb.sends = hooks__board_sends();
	pb.dest_tid = dt;
	pb.seq = seq;
	pb.my_seq = 0;
	/* The message carries the longest path up to the send's start (off: only cp.on is
	 * set). */
	hooks__cp_tuple(&pb.cp, call->v0);
	/* What the message holds, for its receiver's unpack check (checks.c). */
	checks__sign(&pb, call);
	/* What made the sender late, for its receiver's wait analysis (blame.c). */
	hooks__blame_sign(call, tids, n, &pb);
	len = wire__piggyback_encode(&pb, enc);
	rc = channel__pb_send(tids, n, tag, enc, len);
out:
	if (enc != stack) {
		free(enc);
		free(dt);
		free(seq);
	}
	return rc;
}

/* Adds (or finds) tid in peers (n of them, room for cap); NULL when full. */
static wire_wpeer *peer_of(wire_wpeer *peers, size_t *n, size_t cap, int32_t tid)
{
	for (size_t i = 0; i < *n; i++)
		if (peers[i].tid == tid)
			return &peers[i];
	if (*n == cap)
		return NULL;
	peers[*n] = (wire_wpeer){tid, 0, 0};
	return &peers[(*n)++];
}

size_t hooks__pair_counts(wire_wpeer **out)
{
	size_t cap = pg.send_seq.used + pg.recv_count.used, n = 0;
	wire_wpeer *p = cap ? calloc(cap, sizeof(*p)) : NULL, *e;

	*out = p;
	if (!p)
		return 0;
	for (size_t i = 0; i < pg.send_seq.cap; i++)
		if (pg.send_seq.slots[i].tid && (e = peer_of(p, &n, cap, pg.send_seq.slots[i].tid)))
			e->sent = (uint32_t)pg.send_seq.slots[i].value;
	for (size_t i = 0; i < pg.recv_count.cap; i++)
		if (pg.recv_count.slots[i].tid && (e = peer_of(p, &n, cap, pg.recv_count.slots[i].tid)))
			e->recv = (uint32_t)pg.recv_count.slots[i].value;
	return n;
}

/*
 * Takes the trailing piggyback of the message just consumed from src with tag into *pb
 * (from the preserve-mode stash, or through the channel, which waits for it when the
 * sender is monitored); 1 when there was a valid one. *arrived is when a stashed one
 * was taken off the queue.
 */
int piggyback__fetch(int src, int tag, wire_piggyback *pb, int64_t *arrived)
{
	uint8_t enc[PB_STACK_BYTES];
	uint8_t *big = NULL, *p = enc;
	size_t len = 0;
	int rc, have_pb = 0;

	/* In preserve mode it may have been taken off the queue already (the stash). */
	if (hooks__pr_on() && hooks__pr_take(&big, &len, arrived, src, tag)) {
		p = big;
		rc = 1;
	} else {
		rc = channel__pb_take(&big, &len, src, tag, enc, sizeof(enc));
		if (big)
			p = big;
	}
	/* A piggyback of another run (or forged without the run's token) is counted and
	 * ignored: its message counts as from an unmonitored sender. */
	if (rc == 1 && wire__piggyback_decode(pb, p, len, hooks__mytid()) == 0 &&
	    pb->token == hooks__token())
		have_pb = 1;
	else if (rc != 0)
		hooks__count_bad();
	free(big);
	/* Whom it may address: the source of what it took; an unmonitored sender's data
	 * (not pvmd's notify messages) may hold any tid. */
	if (hooks__reach_on()) {
		hooks__reach_learn(src);
		if (!have_pb && !((unsigned)src & 0x80000000u))
			hooks__reach_all();
	}
	if (have_pb && hooks__pr_on() && pb->my_seq >= 0)
		hooks__pr_seen(src, pb->my_seq + 1);
	if (have_pb && hooks__pr_on())
		hooks__pr_piggyback(src, pb);
	return have_pb;
}

/* Takes sequence number seq of src out of `ahead`; 1 if it was there. */
static int take_ahead(int src, int64_t seq)
{
	for (size_t i = 0; i < pg.nahead; i++)
		if (pg.ahead[i].src == src && pg.ahead[i].seq == seq) {
			pg.ahead[i] = pg.ahead[--pg.nahead];
			return 1;
		}
	return 0;
}

/*
 * The message's sequence number from its piggyback minus the one expected from src,
 * moving the expectation on. A message handler takes messages as they are read in, but
 * their piggybacks are taken when the call ends (mhf.c), so a receive in that call may
 * consume later numbers first: a gap no larger than the messages handlers hold from src
 * is theirs, counts as no difference, and is closed when they settle.
 */
int64_t piggyback__sequence(int src, const wire_piggyback *pb)
{
	int64_t *exp = tidmap__get(&pg.recv_seq, src, 0), *got = tidmap__get(&pg.recv_count, src, 0);
	int64_t gap;
	int held;

	if (got)
		++*got;
	if (!exp)
		return 0;
	if (pb->my_seq < 0) {
		++*exp;
		return 0;
	}
	gap = pb->my_seq - *exp;
	held = gap > 0 && pg.held_from ? pg.held_from(src) : 0;
	if (gap > 0 && gap <= held && pg.nahead < 1u << 20) {
		if (hooks__ensure((void **)&pg.ahead, &pg.capahead, pg.nahead + 1, sizeof(*pg.ahead)) < 0)
			goto resync;
		pg.ahead[pg.nahead].src = src;
		pg.ahead[pg.nahead++].seq = pb->my_seq;
		return 0;
	}
resync:
	/* A sequence number other than the expected one means pairing went wrong (or, in
	 * a replay, that the run diverged: the record keeps the difference). */
	if (gap != 0)
		hooks__count_bad();
	*exp = pb->my_seq + 1;
	while (pg.nahead && take_ahead(src, *exp))
		++*exp;
	return gap;
}

int64_t hooks__absorb_piggyback(int src, int tag, int bytes)
{
	wire_piggyback pb;
	int64_t arrived = 0;

	hooks__count_recv(bytes);
	if (!piggyback__fetch(src, tag, &pb, &arrived)) {
		hooks__count_unmonitored();
		return PIGGYBACK_NONE;
	}
	return piggyback__sequence(src, &pb);
}

