/* Unit tests for pvmhooks/calls.c, the call wrappers' hooks, against a fake channel. */
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "../../../pvmhooks/calls.h"
#include "../../../pvmhooks/piggyback.h"
#include "../../../pvmhooks/records.h"
#include "fake_channel.h"

#define ME 0x40001
#define PEER 0x40002
#define MONITOR 0x40009

/* A call of op at real time now (its stamps as the wrapper would set them). */
static void start_call(hooks_call *call, hooks_op op, void *site)
{
	memset(call, 0, sizeof(*call));
	call->op = op;
	call->site = site;
	call->trace_first = -1;
	call->t0 = call->t1 = call->t2 = pvmmon_clock_now();
	call->v0 = vclock__virtual(hooks__clock(), call->t0);
}

/* Decodes the piggyback sent to `to` in fake.pbs[i]. */
static int sent_pb(int i, int to, wire_piggyback *pb)
{
	return wire__piggyback_decode(pb, fake.pbs[i].data, fake.pbs[i].len, to);
}

static void test_send_piggyback_sequence(void)
{
	hooks_call call;
	wire_piggyback pb;
	pvmmon_log_stmt *st;

	fake_begin(ME, MONITOR);
	fake.send_size = 64;
	hooks__records_reset();
	start_call(&call, HOOKS_OP_pvm_send, (void *)test_send_piggyback_sequence);
	hooks__post_pvm_send(&call, 0, PEER, 7);
	/* One piggyback, to the destination with the user's tag, sequence 0. */
	CU_ASSERT_EQUAL_FATAL(fake.npbs, 1);
	CU_ASSERT_EQUAL(fake.pbs[0].ntids, 1);
	CU_ASSERT_EQUAL(fake.pbs[0].tids[0], PEER);
	CU_ASSERT_EQUAL(fake.pbs[0].tag, 7);
	CU_ASSERT_EQUAL_FATAL(sent_pb(0, PEER, &pb), 0);
	CU_ASSERT_EQUAL(pb.sender_tid, ME);
	CU_ASSERT_EQUAL(pb.my_seq, 0);
	CU_ASSERT_EQUAL(pb.token, hooks__token());
	/* The next send to the same task carries 1; a failed send sends nothing. */
	start_call(&call, HOOKS_OP_pvm_send, (void *)test_send_piggyback_sequence);
	hooks__post_pvm_send(&call, 0, PEER, 7);
	start_call(&call, HOOKS_OP_pvm_send, (void *)test_send_piggyback_sequence);
	hooks__post_pvm_send(&call, -2, PEER, 7);
	CU_ASSERT_EQUAL_FATAL(fake.npbs, 2);
	CU_ASSERT_EQUAL_FATAL(sent_pb(1, PEER, &pb), 0);
	CU_ASSERT_EQUAL(pb.my_seq, 1);
	/* The statement counts its two sends, with the send buffer's size. */
	st = hooks__stmt((void *)test_send_piggyback_sequence, HOOKS_OP_pvm_send);
	CU_ASSERT_EQUAL(st->count, 2);
	CU_ASSERT_EQUAL(st->bytes, 2 * 64);
	CU_ASSERT_EQUAL(pb.bytes, 64);
	hooks__records_reset();
	fake_end();
}

static void test_mcast_one_piggyback(void)
{
	hooks_call call;
	wire_piggyback pb;
	int tids[3] = {PEER, PEER + 1, PEER + 2};

	fake_begin(ME, MONITOR);
	hooks__records_reset();
	start_call(&call, HOOKS_OP_pvm_mcast, (void *)test_mcast_one_piggyback);
	hooks__post_pvm_mcast(&call, 0, tids, 3, 9);
	CU_ASSERT_EQUAL_FATAL(fake.npbs, 1);
	CU_ASSERT_EQUAL(fake.pbs[0].ntids, 3);
	/* Each destination finds its own sequence number in it. */
	CU_ASSERT_EQUAL_FATAL(sent_pb(0, PEER + 2, &pb), 0);
	CU_ASSERT_EQUAL(pb.my_seq, 0);
	CU_ASSERT_EQUAL(pb.ndests, 3);
	hooks__records_reset();
	fake_end();
}

/* Queues the piggyback PEER sent with seq at virtual time vs and real time rs for a
 * message of bytes. */
static void queue_pb(int tag, uint32_t seq, int64_t vs, int64_t rs, uint32_t bytes)
{
	uint8_t enc[WIRE_PB_HEADER + 16];
	int32_t dest = ME;
	wire_piggyback pb;

	memset(&pb, 0, sizeof(pb));
	pb.sender_tid = PEER;
	pb.vt_send = vs;
	pb.rt_send = rs;
	pb.bytes = bytes;
	pb.token = hooks__token();
	pb.ndests = 1;
	pb.dest_tid = &dest;
	pb.seq = &seq;
	fake_piggyback(PEER, tag, enc, wire__piggyback_encode(&pb, enc));
}

/* The messages received from tid, as a wait report counts them. */
static uint32_t received_from(int tid)
{
	wire_wpeer *p = NULL;
	size_t n = hooks__pair_counts(&p);
	uint32_t got = 0;

	for (size_t i = 0; i < n; i++)
		if (p[i].tid == tid)
			got = p[i].recv;
	free(p);
	return got;
}

static void test_receive_pairs_piggyback(void)
{
	hooks_call call;
	pvmmon_log_stmt *st;
	uint64_t before = hooks__counts()->msgs_recv;
	int rtid = PEER, rtag = 5, rlen = 100;
	int64_t v_end;
	uint32_t got;

	fake_begin(ME, MONITOR);
	hooks__records_reset();
	got = received_from(PEER);
	start_call(&call, HOOKS_OP_pvm_precv, (void *)test_receive_pairs_piggyback);
	/* The receive began 10 ms ago and the sender sent 5 ms after it: the receive
	 * waited for the message. */
	call.t0 = call.t1 -= 10000000;
	call.v0 = vclock__virtual(hooks__clock(), call.t0);
	queue_pb(5, 0, call.v0 + 5000000, call.t0 + 5000000, 100);
	hooks__post_pvm_precv(&call, 0, -1, -1, NULL, 0, 0, &rtid, &rtag, &rlen);
	/* Paired: taken off the queue, the clock reset by the receive, the statement and
	 * the counters updated. */
	CU_ASSERT_EQUAL(fake.nqueue, 0);
	CU_ASSERT_EQUAL(call.clock_done, 1);
	CU_ASSERT_EQUAL(call.seq_delta, 0);
	CU_ASSERT_EQUAL(hooks__counts()->msgs_recv, before + 1);
	st = hooks__stmt((void *)test_receive_pairs_piggyback, HOOKS_OP_pvm_precv);
	CU_ASSERT_EQUAL(st->count, 1);
	CU_ASSERT(st->sync_ns >= 5000000);
	/* Virtual time after the receive is at least the message's virtual arrival. */
	v_end = vclock__virtual(hooks__clock(), pvmmon_clock_now());
	CU_ASSERT(v_end >= call.v0 + 5000000);
	/* The next message's sequence number is 1: a 2 is one too far. */
	start_call(&call, HOOKS_OP_pvm_precv, (void *)test_receive_pairs_piggyback);
	queue_pb(5, 2, call.v0, call.t0, 100);
	hooks__post_pvm_precv(&call, 0, -1, -1, NULL, 0, 0, &rtid, &rtag, &rlen);
	CU_ASSERT_EQUAL(call.seq_delta, 1);
	/* Two messages came, whatever their numbers (message 1 may still be queued): a
	 * wait report counts them, not the next number expected. */
	CU_ASSERT_EQUAL(received_from(PEER), got + 2);
	hooks__records_reset();
	fake_end();
}

static void test_recv_buffer(void)
{
	hooks_call call;
	pvmmon_log_stmt *st;

	fake_begin(ME, MONITOR);
	hooks__records_reset();
	/* pvm_recv returned buffer 3: a message of 20 bytes from PEER with tag 4. */
	fake.buf_id = 3;
	fake.buf_bytes = 20;
	fake.buf_tag = 4;
	fake.buf_src = PEER;
	start_call(&call, HOOKS_OP_pvm_recv, (void *)test_recv_buffer);
	/* The pair's first message since the earlier tests' two. */
	queue_pb(4, 3, call.v0, call.t0, 20);
	hooks__post_pvm_recv(&call, 3, -1, -1);
	CU_ASSERT_EQUAL(fake.nqueue, 0);
	CU_ASSERT_EQUAL(call.seq_delta, 0);
	st = hooks__stmt((void *)test_recv_buffer, HOOKS_OP_pvm_recv);
	CU_ASSERT_EQUAL(st->count, 1);
	CU_ASSERT_EQUAL(st->bytes, 20);
	CU_ASSERT_EQUAL(st->ncom, 1);
	CU_ASSERT_EQUAL(st->com[0].partner_tid, PEER);
	/* An nrecv that found nothing is counted, and takes no piggyback. */
	start_call(&call, HOOKS_OP_pvm_nrecv, (char *)test_recv_buffer + 1);
	queue_pb(4, 4, call.v0, call.t0, 20);
	hooks__post_pvm_nrecv(&call, 0, -1, -1);
	CU_ASSERT_EQUAL(fake.nqueue, 1);
	CU_ASSERT_EQUAL(hooks__stmt((char *)test_recv_buffer + 1, HOOKS_OP_pvm_nrecv)->count, 1);
	hooks__records_reset();
	fake_end();
}

static void test_receive_without_piggyback(void)
{
	hooks_call call;
	uint64_t before = hooks__counts()->unmonitored_recv;
	int rtid = PEER + 7, rtag = 5, rlen = 10;

	fake_begin(ME, MONITOR);
	hooks__records_reset();
	start_call(&call, HOOKS_OP_pvm_precv, (void *)test_receive_without_piggyback);
	hooks__post_pvm_precv(&call, 0, -1, -1, NULL, 0, 0, &rtid, &rtag, &rlen);
	/* An unmonitored sender's message: counted as such, the clock left to the wrapper. */
	CU_ASSERT_EQUAL(call.seq_delta, -1);
	CU_ASSERT_EQUAL(call.clock_done, 0);
	CU_ASSERT_EQUAL(hooks__counts()->unmonitored_recv, before + 1);
	hooks__records_reset();
	fake_end();
}

CU_TestInfo test_calls_tests[] = {
    {"a send sends one piggyback with the pair's sequence number", test_send_piggyback_sequence},
    {"a mcast sends one piggyback for all its destinations", test_mcast_one_piggyback},
    {"a receive pairs the queued piggyback and resets the clock", test_receive_pairs_piggyback},
    {"a receive's buffer names the message it pairs", test_recv_buffer},
    {"a receive without a piggyback counts as unmonitored", test_receive_without_piggyback},
    CU_TEST_INFO_NULL,
};
