/* Unit tests for pvmhooks/blame.c: the online wait analysis on hand-timed pipelines. */
#include <CUnit/CUnit.h>
#include <string.h>

#include "../../../pvmhooks/blame.h"

#define MS 1000000LL
#define PROG 77u
/* The statements of every stage (the same program): its receive and its send, at the
 * same sites in each. */
#define RECV 0u
#define SEND 1u
#define RECV_SITE 100u
#define SEND_SITE 200u

/* A send at v0 from b to dest: the call's summary into *pb, and the call's piece. */
static void do_send(blame_state *b, int dest, int64_t v0, wire_piggyback *pb, int32_t tid)
{
	memset(pb, 0, sizeof(*pb));
	pb->sender_tid = tid;
	blame__sign(b, SEND, SEND_SITE, v0, &dest, 1, pb);
	blame__call(b, SEND, SEND_SITE, v0, v0);
}

/* A receive from src that began at v0 and took the message at v; its propagated part. */
static int64_t do_recv(blame_state *b, int src, int64_t v0, int64_t v, const wire_piggyback *pb,
                       int *indirect)
{
	int64_t passed = blame__receive(b, src, RECV_SITE, v0, v - v0, pb, indirect);

	blame__call(b, RECV, RECV_SITE, v0, v);
	return passed;
}

static const blame_cause *find(const blame_state *b, int32_t tid, uint32_t stmt)
{
	const blame_cause *c;
	size_t n = blame__causes(b, &c);

	for (size_t i = 0; i < n; i++)
		if (c[i].tid == tid && c[i].stmt == stmt)
			return &c[i];
	return NULL;
}

/*
 * Three stages: stage 0 (tid 10) works 7 ms an item (1 ms like the others, 6 ms more),
 * stages 1 and 2 (tids 11, 12) 1 ms. The items are all there for stage 0. Stage 1
 * waits 6 ms an item after the first (7 ms): stage 0's computation before its send,
 * directly. Stage 2 waits as long, for stage 1, which waited: indirectly, charged to
 * the same computation of stage 0.
 */
static void test_pipeline(void)
{
	blame_state *s0, *s1, *s2;
	wire_piggyback p01, p12, p23;
	int64_t t0 = 0, t1 = 0, t2 = 0, w1 = 0, w2 = 0, passed2 = 0;
	int ind1 = 0, ind2 = 0, n_ind2 = 0;
	const blame_cause *c;
	const int rounds = 10;

	CU_ASSERT_EQUAL_FATAL(blame__new(&s0, 10, PROG), 0);
	CU_ASSERT_EQUAL_FATAL(blame__new(&s1, 11, PROG), 0);
	CU_ASSERT_EQUAL_FATAL(blame__new(&s2, 12, PROG), 0);
	for (int r = 0; r < rounds; r++) {
		int64_t a;

		/* Stage 0: its item is there; 7 ms of work; the send. */
		do_recv(s0, 1, t0, t0, NULL, &ind1);
		t0 += 7 * MS;
		do_send(s0, 11, t0, &p01, 10);
		/* Stage 1 takes it when it comes (at once, messages are free here). */
		a = t0 > t1 ? t0 : t1;
		w1 += a - t1;
		do_recv(s1, 10, t1, a, &p01, &ind1);
		CU_ASSERT_EQUAL(ind1, 0);
		t1 = a + 1 * MS;
		do_send(s1, 12, t1, &p12, 11);
		a = t1 > t2 ? t1 : t2;
		w2 += a - t2;
		passed2 += do_recv(s2, 11, t2, a, &p12, &ind2);
		n_ind2 += ind2;
		t2 = a + 1 * MS;
		do_send(s2, 13, t2, &p23, 12);
	}
	CU_ASSERT_EQUAL(w1, 7 * MS + (rounds - 1) * 6 * MS);
	/* Stage 1's waiting: stage 0's segment before its send, all of it directly (the
	 * first item's 1 ms of work too: stage 1 had done nothing yet). */
	c = find(s1, 10, SEND);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(c->short_ns, w1);
	CU_ASSERT_EQUAL(c->long_ns, 0);
	CU_ASSERT_EQUAL(c->waits, (uint64_t)rounds);
	/* Stage 2 waits 8 ms first (stage 1's wait and work), then 6 ms an item: stage 1's
	 * waiting, passed on to stage 0's segment; stage 1's work matches stage 2's own at
	 * the same site after the first. */
	CU_ASSERT_EQUAL(w2, 8 * MS + (rounds - 1) * 6 * MS);
	c = find(s2, 10, SEND);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(c->short_ns, 0);
	CU_ASSERT_EQUAL(c->long_ns, 7 * MS + (rounds - 1) * 6 * MS);
	CU_ASSERT_EQUAL(passed2, c->long_ns);
	CU_ASSERT_EQUAL(n_ind2, rounds);
	/* The first item's 1 ms of stage 1's work is stage 1's, directly. */
	c = find(s2, 11, SEND);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(c->short_ns, 1 * MS);
	blame__free(s0);
	blame__free(s1);
	blame__free(s2);
}

/* A sender of another program: no site of its is compared with the receiver's, so its
 * whole segment is excess; a sender without a summary is charged as a whole (its
 * computation, no statement); a message that came late without excess names the
 * send's segment. */
static void test_other_program_and_no_summary(void)
{
	blame_state *a, *b;
	wire_piggyback pb;
	int ind;
	const blame_cause *c;

	CU_ASSERT_EQUAL_FATAL(blame__new(&a, 20, PROG + 1), 0);
	CU_ASSERT_EQUAL_FATAL(blame__new(&b, 21, PROG), 0);
	/* b works 5 ms at the send's site before it waits, a 5 ms too. */
	blame__call(b, SEND, SEND_SITE, 5 * MS, 5 * MS);
	do_send(a, 21, 5 * MS, &pb, 20);
	do_recv(b, 20, 5 * MS, 8 * MS, &pb, &ind);
	c = find(b, 20, SEND);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(c->short_ns, 3 * MS);
	do_recv(b, 22, 8 * MS, 9 * MS, NULL, &ind);
	c = find(b, 22, UINT32_MAX);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(c->short_ns, 1 * MS);
	/* a sends again at once: no excess over b's 0 since then; the send's segment. */
	do_send(a, 21, 5 * MS, &pb, 20);
	do_recv(b, 20, 9 * MS, 10 * MS, &pb, &ind);
	c = find(b, 20, SEND);
	CU_ASSERT_EQUAL(c->short_ns, 4 * MS);
	CU_ASSERT_EQUAL(c->waits, 2);
	blame__free(a);
	blame__free(b);
}

/* The summary keeps the send's own segment first and at most WIRE_PB_BLAME_MAX entries,
 * and a piggyback carrying it survives the codec. */
static void test_summary_bounds_and_codec(void)
{
	blame_state *a;
	wire_piggyback pb, back;
	uint8_t buf[WIRE_PB_HEADER + 8 + WIRE_PB_BLAME_BYTES];
	int32_t dest = 5;
	uint32_t seq = 0;
	size_t len;

	CU_ASSERT_EQUAL_FATAL(blame__new(&a, 30, PROG), 0);
	/* Ten segments of growing length, then a send. */
	for (uint32_t k = 0; k < 10; k++)
		blame__call(a, 10 + k, 300 + k, (int64_t)(k + 1) * (k + 1) * MS,
		            (int64_t)(k + 1) * (k + 1) * MS);
	memset(&pb, 0, sizeof(pb));
	blame__sign(a, SEND, SEND_SITE, 101 * MS, &dest, 1, &pb);
	CU_ASSERT(pb.nblame >= 1 && pb.nblame <= WIRE_PB_BLAME_MAX);
	CU_ASSERT_EQUAL(pb.blame[0].stmt, SEND);
	CU_ASSERT_EQUAL(pb.blame[0].ns, 1 * MS);
	/* Then the two longest others: 19 (k 9: 100 - 81) and 17 ms (k 8). */
	CU_ASSERT_EQUAL(pb.blame[1].stmt, 19u);
	CU_ASSERT_EQUAL(pb.blame[1].ns, 19 * MS);
	CU_ASSERT_EQUAL(pb.blame[2].stmt, 18u);
	pb.ndests = 1;
	pb.dest_tid = &dest;
	pb.seq = &seq;
	pb.token = 9;
	len = wire__piggyback_encode(&pb, buf);
	CU_ASSERT_EQUAL(len, wire__piggyback_size(1, 0) + wire__piggyback_blame_size(&pb));
	CU_ASSERT_EQUAL_FATAL(wire__piggyback_decode(&back, buf, len, dest), 0);
	CU_ASSERT_EQUAL(back.nblame, pb.nblame);
	CU_ASSERT_EQUAL(back.blame_prog, PROG);
	CU_ASSERT_EQUAL(back.blame[1].ns, 19 * MS);
	CU_ASSERT_EQUAL(back.blame[1].site, 309u);
	/* Damage: an entry's kind, a count beyond the bound, a cut summary. */
	buf[wire__piggyback_size(1, 0) + 5] = 7;
	CU_ASSERT(wire__piggyback_decode(&back, buf, len, dest) < 0);
	CU_ASSERT_EQUAL(back.nblame, 0);
	buf[wire__piggyback_size(1, 0) + 5] = 0;
	buf[wire__piggyback_size(1, 0)] = WIRE_PB_BLAME_MAX + 1;
	CU_ASSERT(wire__piggyback_decode(&back, buf, len, dest) < 0);
	buf[wire__piggyback_size(1, 0)] = pb.nblame;
	CU_ASSERT(wire__piggyback_decode(&back, buf, len - 1, dest) < 0);
	CU_ASSERT_EQUAL(wire__piggyback_decode(&back, buf, len, dest), 0);
	blame__free(a);
}

CU_TestInfo test_blame_tests[] = {
    {"a pipeline's waits: direct for the next stage, propagated beyond", test_pipeline},
    {"another program's sites, a sender without a summary, no excess",
     test_other_program_and_no_summary},
    {"the summary's bounds and its codec", test_summary_bounds_and_codec},
    CU_TEST_INFO_NULL,
};
