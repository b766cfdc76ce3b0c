/*
 * The per-call hooks around each wrapped PVM call: trailing piggyback after sends,
 * pairing the piggyback at receives, the virtual clock, and the statement records.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pvm3.h>

#include "board.h"
#include "calls.h"
#include "checks.h"
#include "clocksync.h"
#include "critpath.h"
#include "mhf.h"
#include "preserve.h"
#include "pvmmon/errors.h"
#include "records.h"
#include "rr.h"
#include "sched.h"
#include "spawnenv.h"
#include "trace.h"
#include "waits.h"
#include "../replay/replay.h"

/* The per-pair sequence numbers: destination tid -> next one to send, source tid ->
 * next one expected. */
static tidmap send_seq, recv_seq;
/* Messages received from each sender, counted: the expected sequence number is no
 * count once a receive has overtaken messages of another tag (it moves past them, and
 * back when they are received). */
static tidmap recv_count;
void hooks__pairs_restart(void)
{
	/* A new tid: every partner's sequence with it starts anew. */
	tidmap__free(&send_seq);
	tidmap__free(&recv_seq);
	tidmap__free(&recv_count);
}

/* Children spawned so far, for logical ids. */
static uint32_t spawn_index;

/* Piggybacks are small; one stack buffer covers a send or a mcast to 64 tasks. */
#define PB_STACK_DESTS 64

/* PVMMON_TEST_JITTER (microseconds, tests only): a random delay before every send, so
 * that tests can make wildcard receives take messages in different orders. */
void hooks__jitter(void)
{
	static long max = -1;
	static unsigned seed;

	if (max < 0) {
		const char *j = getenv("PVMMON_TEST_JITTER");

		max = j ? atol(j) : 0;
		seed = (unsigned)hooks__pid() ^ (unsigned)pvmmon_clock_now();
	}
	if (max > 0)
		usleep((useconds_t)(rand_r(&seed) % (max + 1)));
}

/* Sends the trailing piggyback message to tids in the private context with the user's
 * tag, leaving the user's send buffer and context as they were. */
int hooks__send_piggyback(hooks_call *call, const int *tids, int n, int tag, int bytes)
{
	uint8_t stack[WIRE_PB_HEADER + PB_STACK_DESTS * 8 + WIRE_PB_SIG_BYTES + WIRE_PB_CP_MAX];
	int32_t stack_tids[PB_STACK_DESTS];
	uint32_t stack_seq[PB_STACK_DESTS];
	uint8_t *enc = stack;
	int32_t *dt = stack_tids;
	uint32_t *seq = stack_seq;
	wire_piggyback pb;
	size_t len;
	int i, rc = PVMMON_ENOMEM;

	if (n > PB_STACK_DESTS) {
		enc = malloc(wire__piggyback_size((uint32_t)n, WIRE_PB_CP_MAX) + WIRE_PB_SIG_BYTES);
		dt = malloc(sizeof(*dt) * (size_t)n);
		seq = malloc(sizeof(*seq) * (size_t)n);
		if (!enc || !dt || !seq)
			goto out;
	}
	/* Field by field: the tuple (cp) alone is 800 bytes, read only when on. */
	pb.vt_send = hooks__to_common(vclock__virtual(hooks__clock(), call->t1));
	pb.quiet = 0;
	for (i = 0; i < n; i++) {
		int64_t *s = tidmap__get(&send_seq, tids[i], 0);

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
	size_t cap = send_seq.used + recv_count.used, n = 0;
	wire_wpeer *p = cap ? calloc(cap, sizeof(*p)) : NULL, *e;

	*out = p;
	if (!p)
		return 0;
	for (size_t i = 0; i < send_seq.cap; i++)
		if (send_seq.slots[i].tid && (e = peer_of(p, &n, cap, send_seq.slots[i].tid)))
			e->sent = (uint32_t)send_seq.slots[i].value;
	for (size_t i = 0; i < recv_count.cap; i++)
		if (recv_count.slots[i].tid && (e = peer_of(p, &n, cap, recv_count.slots[i].tid)))
			e->recv = (uint32_t)recv_count.slots[i].value;
	return n;
}

/*
 * Sends the piggyback of a send to tids. Inside a group call libgpvm3 also sends to
 * the group server, which is not monitored and would never take it: only monitored
 * destinations get one there.
 */
static void piggyback_after_send(hooks_call *call, const int *tids, int n, int tag, int bytes)
{
	int stack[PB_STACK_DESTS], *to = stack, m = 0;

	if (!call->inner) {
		hooks__send_piggyback(call, tids, n, tag, bytes);
		return;
	}
	if (n > PB_STACK_DESTS && !(to = malloc(sizeof(*to) * (size_t)n)))
		return;
	for (int i = 0; i < n; i++)
		if (channel__is_monitored(tids[i]))
			to[m++] = tids[i];
	if (m)
		hooks__send_piggyback(call, to, m, tag, bytes);
	if (to != stack)
		free(to);
}

/* Records one send of `bytes` to each of tids from the statement of call. */
static void record_send(hooks_call *call, const int *tids, int n, int bytes)
{
	pvmmon_log_stmt *st = hooks__stmt(call->site, call->op);
	int i;

	hooks__count_sent(n, bytes);
	hooks__note_send(call->site);
	if (!st)
		return;
	/* Inside a group call its statement counts the call and its time (groups.c). */
	if (!call->inner) {
		st->count++;
		st->time_ns += call->t2 - call->t1;
	}
	st->bytes += (uint64_t)bytes * (uint64_t)n;
	for (i = 0; i < n; i++) {
		pvmmon_log_com *c = hooks__com(st, tids[i]);

		if (c) {
			c->count++;
			c->bytes += (uint64_t)bytes;
		}
	}
}

/*
 * Takes the trailing piggyback of the message just consumed from src with tag into *pb
 * (from the preserve-mode stash, or through the channel, which waits for it when the
 * sender is monitored); 1 when there was a valid one. *arrived is when a stashed one
 * was taken off the queue.
 */
static int fetch_piggyback(int src, int tag, wire_piggyback *pb, int64_t *arrived)
{
	uint8_t enc[WIRE_PB_HEADER + PB_STACK_DESTS * 8 + WIRE_PB_SIG_BYTES + WIRE_PB_CP_MAX];
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
	if (have_pb && hooks__pr_on() && pb->my_seq >= 0)
		hooks__pr_seen(src, pb->my_seq + 1);
	if (have_pb && hooks__pr_on())
		hooks__pr_piggyback(src, pb);
	return have_pb;
}

/*
 * Sequence numbers consumed ahead of the expected one while messages a handler took
 * were still unsettled (their piggybacks come later): (source, sequence) pairs.
 */
static struct {
	int src;
	int64_t seq;
} * ahead;
static size_t nahead, capahead;

/* Takes sequence number seq of src out of `ahead`; 1 if it was there. */
static int take_ahead(int src, int64_t seq)
{
	for (size_t i = 0; i < nahead; i++)
		if (ahead[i].src == src && ahead[i].seq == seq) {
			ahead[i] = ahead[--nahead];
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
static int64_t take_sequence(int src, const wire_piggyback *pb)
{
	int64_t *exp = tidmap__get(&recv_seq, src, 0), *got = tidmap__get(&recv_count, src, 0);
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
	held = gap > 0 ? hooks__mhf_unsettled_from(src) : 0;
	if (gap > 0 && gap <= held && nahead < 1u << 20) {
		if (hooks__ensure((void **)&ahead, &capahead, nahead + 1, sizeof(*ahead)) < 0)
			goto resync;
		ahead[nahead].src = src;
		ahead[nahead++].seq = pb->my_seq;
		return 0;
	}
resync:
	/* A sequence number other than the expected one means pairing went wrong (or, in
	 * a replay, that the run diverged: the record keeps the difference). */
	if (gap != 0)
		hooks__count_bad();
	*exp = pb->my_seq + 1;
	while (nahead && take_ahead(src, *exp))
		++*exp;
	return gap;
}

int64_t hooks__absorb_piggyback(int src, int tag, int bytes)
{
	wire_piggyback pb;
	int64_t arrived = 0;

	hooks__count_recv(bytes);
	if (!fetch_piggyback(src, tag, &pb, &arrived)) {
		hooks__count_unmonitored();
		return -1;
	}
	return take_sequence(src, &pb);
}

/*
 * A message of the group server's, received by call inside a group call of statement
 * st. The server sends no piggyback, so the receive's real wait stands for its sync
 * delay: what a barrier waits for is the other members, whose arrival the server
 * answers.
 */
static void group_server_message(hooks_call *call, pvmmon_log_stmt *st, int src, int bytes)
{
	pvmmon_log_com *c = st ? hooks__com(st, src) : NULL;
	int64_t wait = call->t2 - call->t1;

	if (!c)
		return;
	c->count++;
	c->bytes += (uint64_t)bytes;
	c->sync_ns += wait;
	st->sync_ns += wait;
	call->sync += wait;
}

/*
 * Completes a receive that delivered a message of `bytes` from src with tag: receives
 * the sender's trailing piggyback (if it is monitored), applies the virtual clock and
 * records the statement. The user's receive buffer and context are restored.
 */
static void complete_receive(hooks_call *call, int src, int tag, int bytes)
{
	wire_piggyback pb;
	vclock_recv r;
	pvmmon_log_stmt *st;
	pvmmon_log_com *c;
	int have_pb;
	int64_t arrived = 0;

	hooks__count_recv(bytes);
	have_pb = fetch_piggyback(src, tag, &pb, &arrived);
	if (call->op == HOOKS_OP_pvm_precv)
		checks__precv(call, call->chk_type, call->chk_len, have_pb ? &pb : NULL, tag);
	else
		checks__received(call->chk_buf, have_pb ? &pb : NULL, src, tag, bytes, call->inner);

	st = hooks__stmt(call->site, call->op);
	if (st) {
		st->count += !call->inner;
		st->bytes += (uint64_t)bytes;
	}
	if (!have_pb) {
		/* A long wait's slices before the last (waits.c) are the program's waiting
		 * too, not the wrapper's time: with no piggyback to set the clock, they
		 * would count as intrusion. */
		if (call->t_wait && call->t_wait < call->t1 && !hooks__pr_on())
			call->t1 = call->t_wait;
		call->seq_delta = -1;
		if (hooks__trace_on())
			hooks__trace_msg(call, src, tag, (uint32_t)bytes, -1, 0, 0);
		if (call->inner) {
			/* Inside a group call, the unmonitored sender is the group server: its
			 * answers count with it as partner (the monitor names it). */
			group_server_message(call, st, src, bytes);
			return;
		}
		hooks__count_unmonitored();
		if (st) {
			st->unmonitored++;
			st->time_ns += call->t2 - call->t1;
		}
		return;
	}
	call->seq_delta = take_sequence(src, &pb);
	/* In preserve mode a receive may have waited before its real call, and the
	 * message's arrival is known from its piggyback's (see vclock__receive_seen). */
	vclock__receive_seen(hooks__clock(), call->t0, call->t_wait, call->t1, call->t2,
	                     pvmmon_clock_now(), hooks__from_common(pb.vt_send),
	                     hooks__from_common(pb.rt_send), arrived, (uint64_t)bytes, &r);
	call->clock_done = 1;
	/* A tuple of a selection this task has not heard of: the monitor's command for it
	 * is on its way (the sender had it), so take it now and start at this receive,
	 * with the sender's data (section 2.3, case 3). */
	if (pb.cp.on && pb.cp.gen > hooks__cp_gen())
		hooks__await_control(call->v0);
	call->sync += r.sync;
	hooks__cp_receive(call->v0, r.sync, r.trans, &pb.cp);
	if (hooks__trace_on())
		hooks__trace_msg(call, src, tag, (uint32_t)bytes, pb.my_seq, r.sync, r.trans);
	if (!st)
		return;
	if (!call->inner)
		st->time_ns += r.vt - r.v0;
	st->sync_ns += r.sync;
	st->trans_ns += r.trans;
	c = hooks__com(st, src);
	if (c) {
		c->count++;
		c->bytes += (uint64_t)bytes;
		c->trans_ns += r.trans;
		c->sync_ns += r.sync;
	}
}

/* Records a receive-like call that delivered nothing (nrecv miss, trecv timeout,
 * probe): its count and its real duration, which the program spends too. */
static void record_nothing(hooks_call *call)
{
	pvmmon_log_stmt *st = call->inner ? NULL : hooks__stmt(call->site, call->op);

	if (st) {
		st->count++;
		st->time_ns += call->t2 - call->t1;
	}
}

void hooks__pre_pvm_mytid(hooks_call *call) { (void)call; }

void hooks__post_pvm_mytid(hooks_call *call, int rc)
{
	(void)call;
	(void)rc;
}

void hooks__pre_pvm_send(hooks_call *call, int tid, int tag)
{
	(void)call;
	(void)tid;
	(void)tag;
	hooks__jitter();
}

void hooks__post_pvm_send(hooks_call *call, int rc, int tid, int tag)
{
	int bytes;

	if (rc < 0)
		return;
	bytes = channel__send_size();
	piggyback_after_send(call, &tid, 1, tag, bytes);
	record_send(call, &tid, 1, bytes);
}

void hooks__pre_pvm_psend(hooks_call *call, int tid, int tag, void *buf, int len, int type)
{
	hooks__jitter();
	checks__psend(type, len);
	(void)call;
	(void)tid;
	(void)tag;
	(void)buf;
}

/* Bytes of len items of a PVM data type. */
static int type_bytes(int len, int type)
{
	static const int size[] = {
	    [PVM_STR] = 1,   [PVM_BYTE] = 1,   [PVM_SHORT] = 2,  [PVM_INT] = 4,
	    [PVM_FLOAT] = 4, [PVM_CPLX] = 8,   [PVM_DOUBLE] = 8, [PVM_DCPLX] = 16,
	    [PVM_LONG] = 8,  [PVM_USHORT] = 2, [PVM_UINT] = 4,   [PVM_ULONG] = 8,
	};

	if (type < 0 || type >= (int)(sizeof(size) / sizeof(size[0])) || len < 0)
		return 0;
	return len * size[type];
}

void hooks__post_pvm_psend(hooks_call *call, int rc, int tid, int tag, void *buf, int len, int type)
{
	int bytes = type_bytes(len, type);

	(void)buf;
	if (rc < 0)
		return;
	piggyback_after_send(call, &tid, 1, tag, bytes);
	record_send(call, &tid, 1, bytes);
}

void hooks__pre_pvm_mcast(hooks_call *call, int *tids, int ntask, int tag)
{
	hooks__jitter();
	(void)call;
	(void)tids;
	(void)ntask;
	(void)tag;
}

void hooks__post_pvm_mcast(hooks_call *call, int rc, int *tids, int ntask, int tag)
{
	int bytes;

	if (rc < 0 || ntask <= 0 || !tids)
		return;
	bytes = channel__send_size();
	piggyback_after_send(call, tids, ntask, tag, bytes);
	record_send(call, tids, ntask, bytes);
}

/* Before a receive-like call: whether its outcome can differ between runs (a wildcard
 * source or tag, or a call that may find nothing), and in a replay, forcing it. */
static void before_receive(hooks_call *call, int tid, int tag, int nonblock,
                           const struct timeval *tmout)
{
	call->nondet = nonblock || tmout || tid == -1 || tag == -1;
	if (call->nondet && hooks__rr_mode() == HOOKS_RR_REPLAY)
		hooks__rr_before(call, tid, tag);
	else if (hooks__pr_on())
		hooks__pr_before(call, tid, tag, nonblock, tmout);
}

/* After a receive-like call that returns a buffer id (or 0 for nothing). */
static void after_receive(hooks_call *call, int rc)
{
	int bytes = 0, rtag = 0, src = 0;

	/* The call freed the receive buffer that was current (checks.c forgets it). */
	checks__rbuf_freed(call->chk_old);
	call->chk_buf = rc;
	if (rc > 0 && channel__buf_info(rc, &bytes, &rtag, &src) == 0)
		complete_receive(call, src, rtag, bytes);
	else
		record_nothing(call);
	if (call->nondet)
		hooks__rr_after(call, rc, src, rtag);
	hooks__pr_after(call);
}

/* A blocking receive waits in slices and reports a long wait (waits.c); preserve mode
 * has its own waiting, and a message handler's calls never wait. */
static void blocking_wait(hooks_call *call, int tid, int tag, const struct timeval *tmout)
{
	if (!hooks__pr_on() && !hooks__mhf_in_handler())
		waits__receive(call, tid, tag, tmout);
}

/* After a call that may poll (pvm_nrecv, pvm_probe, a short pvm_trecv): a run of
 * empty polls is a polling wait (waits.c), under the same conditions. */
static void polled(hooks_call *call, int rc, int tid, int tag)
{
	if (!hooks__pr_on() && !hooks__mhf_in_handler())
		waits__poll(call, rc, tid, tag);
}

void hooks__pre_pvm_recv(hooks_call *call, int tid, int tag)
{
	call->chk_old = pvm_getrbuf();
	before_receive(call, tid, tag, 0, NULL);
	blocking_wait(call, tid, tag, NULL);
}

void hooks__post_pvm_recv(hooks_call *call, int rc, int tid, int tag)
{
	(void)tid;
	(void)tag;
	after_receive(call, rc);
}

void hooks__pre_pvm_nrecv(hooks_call *call, int tid, int tag)
{
	call->chk_old = pvm_getrbuf();
	before_receive(call, tid, tag, 1, NULL);
}

void hooks__post_pvm_nrecv(hooks_call *call, int rc, int tid, int tag)
{
	after_receive(call, rc);
	polled(call, rc, tid, tag);
}

void hooks__pre_pvm_trecv(hooks_call *call, int tid, int tag, struct timeval *tmout)
{
	/* Without a timeout pvm_trecv blocks like pvm_recv; with a zero one it is
	 * pvm_nrecv. */
	int zero = tmout && tmout->tv_sec == 0 && tmout->tv_usec == 0;

	call->chk_old = pvm_getrbuf();
	before_receive(call, tid, tag, zero, zero ? NULL : tmout);
	if (!zero)
		blocking_wait(call, tid, tag, tmout);
}

void hooks__post_pvm_trecv(hooks_call *call, int rc, int tid, int tag, struct timeval *tmout)
{
	/* A timeout within the threshold polls (a longer one waited in slices, which
	 * ended any polling wait). */
	int64_t ns =
	    tmout ? (int64_t)tmout->tv_sec * 1000000000LL + (int64_t)tmout->tv_usec * 1000 : -1;

	after_receive(call, rc);
	if (ns >= 0 && ns <= waits__threshold())
		polled(call, rc, tid, tag);
}

void hooks__pre_pvm_precv(hooks_call *call, int tid, int tag, void *buf, int len, int type,
                          int *rtid, int *rtag, int *rlen)
{
	before_receive(call, tid, tag, 0, NULL);
	if (!hooks__pr_on() && !hooks__mhf_in_handler())
		waits__precv(call, tid, tag);
	call->chk_type = type;
	call->chk_len = len;
	(void)buf;
	(void)rtid;
	(void)rtag;
	(void)rlen;
}

void hooks__post_pvm_precv(hooks_call *call, int rc, int tid, int tag, void *buf, int len, int type,
                           int *rtid, int *rtag, int *rlen)
{
	(void)tid;
	(void)tag;
	(void)buf;
	(void)len;
	(void)type;
	waits__precv_end();
	/* pvm_precv has already freed its buffer: source and tag come from its outputs. */
	if (rc < 0 || !rtid || !rtag) {
		record_nothing(call);
		if (call->nondet)
			hooks__rr_after(call, rc, 0, 0);
		hooks__pr_after(call);
		return;
	}
	/* rlen is the message's length in bytes (pvm_bufinfo's), not in items of type. */
	complete_receive(call, *rtid, *rtag, rlen ? *rlen : 0);
	if (call->nondet)
		hooks__rr_after(call, rc, *rtid, *rtag);
	hooks__pr_after(call);
}

void hooks__pre_pvm_probe(hooks_call *call, int tid, int tag)
{
	before_receive(call, tid, tag, 1, NULL);
}

void hooks__post_pvm_probe(hooks_call *call, int rc, int tid, int tag)
{
	int bytes = 0, rtag = 0, src = 0;

	/* A probe does not consume the message; its piggyback stays queued for the
	 * receive that will. */
	record_nothing(call);
	if (rc > 0)
		channel__buf_info(rc, &bytes, &rtag, &src);
	hooks__rr_after(call, rc, src, rtag);
	hooks__pr_after(call);
	polled(call, rc, tid, tag);
}

/* Tells the monitor of spawned children, with this task's critical-path tuple at the
 * spawn (real time rt, virtual v) for them to start from. */
static int report_spawn(const int *tids, int n, int64_t rt, int64_t v)
{
	wire_spawned s = {spawn_index, (uint32_t)n, (int32_t *)tids, rt, {0}};
	wire_buf b;
	int rc = PVMMON_ENOMEM;

	hooks__cp_tuple(&s.cp, v);
	wire__buf_init(&b);
	wire__spawned_encode(&b, &s);
	spawn_index += (uint32_t)n;
	if (!b.failed)
		rc = channel__send(WIRE_TAG_SPAWNED, b.data, b.len);
	wire__buf_free(&b);
	return rc;
}

void hooks__pre_pvm_spawn(hooks_call *call, char *file, char **argv, int flag, char *where,
                          int ntask, int *tids)
{
	(void)call;
	(void)argv;
	(void)flag;
	(void)where;
	(void)ntask;
	(void)tids;
	call->nondet = 1;
	if (hooks__rr_mode() == HOOKS_RR_REPLAY)
		hooks__rr_before(call, 0, 0);
	if (hooks__pr_on())
		hooks__pr_spawning();
	hooks__spawn_env_begin(file);
}

void hooks__post_pvm_spawn(hooks_call *call, int rc, char *file, char **argv, int flag, char *where,
                           int ntask, int *tids)
{
	(void)file;
	(void)argv;
	(void)flag;
	(void)where;
	(void)ntask;
	hooks__spawn_env_end();
	if (rc > 0 && tids) {
		/* The children's paths start from this task's at the spawn's end. */
		if (hooks__trace_on())
			for (int i = 0; i < rc; i++)
				hooks__trace_msg(call, tids[i], 0, 0, spawn_index + i, 0, 0);
		report_spawn(tids, rc, call->t2, vclock__virtual(hooks__clock(), call->t2));
	}
	record_nothing(call);
	hooks__rr_after(call, rc, 0, 0);
}

/* The trailing piggyback of a message still queued at exit (checks.c counts them). */
static int exit_piggyback(int src, int tag, wire_piggyback *pb)
{
	int64_t arrived = 0;

	return fetch_piggyback(src, tag, pb, &arrived);
}

void hooks__pre_pvm_exit(hooks_call *call)
{
	/* What handlers took so far is recorded before the final flush. */
	hooks__mhf_settle(call);
	checks__exit(exit_piggyback);
	hooks__flush(1);
}

void hooks__post_pvm_exit(hooks_call *call, int rc)
{
	(void)call;
	(void)rc;
	hooks__set_state(HOOKS_DONE);
}

void hooks__pre_pvm_joingroup(hooks_call *call, char *group)
{
	/* The instance number depends on who joins first. */
	call->nondet = 1;
	hooks__rr_group_before(call, REPLAY_GRP_JOIN, group, 0);
}

void hooks__post_pvm_joingroup(hooks_call *call, int rc, char *group)
{
	record_nothing(call);
	hooks__rr_group_after(call, REPLAY_GRP_JOIN, group, 0, rc);
}

void hooks__pre_pvm_addmhf(hooks_call *call, int src, int tag, int ctx, int (*f)(int))
{
	(void)src;
	(void)tag;
	(void)ctx;
	hooks__mhf_add_begin(call, f);
}

void hooks__post_pvm_addmhf(hooks_call *call, int rc, int src, int tag, int ctx, int (*f)(int))
{
	(void)src;
	(void)tag;
	(void)ctx;
	(void)f;
	hooks__mhf_add_end(call, rc);
}

void hooks__pre_pvm_delmhf(hooks_call *call, int mhid)
{
	(void)call;
	(void)mhid;
}

void hooks__post_pvm_delmhf(hooks_call *call, int rc, int mhid)
{
	(void)call;
	if (rc >= 0)
		hooks__mhf_deleted(mhid);
}
