/*
 * The per-call hooks around each wrapped PVM call: the trailing piggyback sent after
 * sends and taken at receives (piggyback.c), the virtual clock, and the statement
 * records.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pvm3.h>

#include "blame.h"
#include "board.h"
#include "calls.h"
#include "checks.h"
#include "clocksync.h"
#include "critpath.h"
#include "mhf.h"
#include "piggyback.h"
#include "preserve.h"
#include "pvmmon/errors.h"
#include "reach.h"
#include "records.h"
#include "rr.h"
#include "sched.h"
#include "spawnenv.h"
#include "trace.h"
#include "waits.h"
#include "../replay/replay.h"

/* Children spawned so far, for logical ids. */
static uint32_t spawn_index;

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

	hooks__count_sent(n, bytes);
	hooks__note_send(call->site);
	recstmt__add_send(st, call->inner, call->t2 - call->t1, tids, n, bytes);
}

/*
 * A message of the group server's, received by call inside a group call of statement
 * st. The server sends no piggyback, so the receive's real wait stands for its sync
 * delay: what a barrier waits for is the other members, whose arrival the server
 * answers.
 */
static void group_server_message(hooks_call *call, pvmmon_log_stmt *st, int src, int bytes)
{
	int64_t wait = call->t2 - call->t1;

	if (recstmt__add_server(st, src, bytes, wait))
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
	int have_pb;
	int64_t arrived = 0;

	hooks__count_recv(bytes);
	have_pb = piggyback__fetch(src, tag, &pb, &arrived);
	if (call->op == HOOKS_OP_pvm_precv)
		checks__precv(call, call->chk_type, call->chk_len, have_pb ? &pb : NULL, tag);
	else
		checks__received(call->chk_buf, have_pb ? &pb : NULL, src, tag, bytes, call->inner);

	st = hooks__stmt(call->site, call->op);
	recstmt__add_recv(st, call->inner, bytes);
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
		recstmt__add_unmonitored(st, call->t2 - call->t1);
		return;
	}
	call->seq_delta = piggyback__sequence(src, &pb);
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
	hooks__blame_receive(call, st, src, r.sync, &pb);
	if (hooks__trace_on())
		hooks__trace_msg(call, src, tag, (uint32_t)bytes, pb.my_seq, r.sync, r.trans);
	recstmt__add_delivery(st, call->inner, r.vt - r.v0, src, bytes, r.sync, r.trans);
}

/* Records a receive-like call that delivered nothing (nrecv miss, trecv timeout,
 * probe): its count and its real duration, which the program spends too. */
static void record_nothing(hooks_call *call)
{
	pvmmon_log_stmt *st = call->inner ? NULL : hooks__stmt(call->site, call->op);

	recstmt__add_call(st, call->t2 - call->t1);
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
	if (hooks__reach_on())
		hooks__reach_data(type, buf, len, 1, 0, NULL);
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
	call->want_tid = tid;
	call->want_tag = tag;
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

/* A spawn's arguments and the variables PVM_EXPORT passes on may hand the children
 * tids this task knows: it teaches. */
static void reach_spawn_args(char **argv)
{
	const char *ex = getenv("PVM_EXPORT");

	for (int i = 0; argv && argv[i]; i++)
		hooks__reach_str(argv[i], 0, NULL);
	while (ex && *ex) {
		char name[128];
		size_t k = strcspn(ex, ":");

		if (k && k < sizeof(name)) {
			memcpy(name, ex, k);
			name[k] = 0;
			hooks__reach_str(getenv(name), 0, NULL);
		}
		ex += k + (ex[k] == ':');
	}
}

void hooks__pre_pvm_spawn(hooks_call *call, char *file, char **argv, int flag, char *where,
                          int ntask, int *tids)
{
	(void)call;
	(void)flag;
	(void)where;
	(void)ntask;
	(void)tids;
	call->nondet = 1;
	if (hooks__reach_on())
		reach_spawn_args(argv);
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
	for (int i = 0; hooks__reach_on() && tids && i < rc; i++)
		hooks__reach_learn(tids[i]);
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

	return piggyback__fetch(src, tag, pb, &arrived);
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
