/* Unit tests for common/wire_preserve.c and common/wire_control.c's snapshot: preserve
 * mode's requests, decisions and state requests. */
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "../../../common/wire.h"
#include "pvmmon/errors.h"

static void test_pwait_round_trip(void)
{
	wire_pcount sent[2] = {{0x40003, 7, 2400000}, {0x40004, 1, INT64_MIN}},
	            seen[1] = {{0x40003, 5, INT64_MIN}};
	wire_pcand cand[1] = {{0x40003, 5, 3000000, 2900000, 4}};
	wire_pwait w = {
	    3, WIRE_PW_TRECV, -1,   5,    2500000, 9000000, "/bin/prog", 0x1234, 2,     1,
	    1, sent,          seen, cand, 42000,   6,       3,           7000,   180000,
	    0, 0,             0,    0,    0,       0,       5};
	wire_pwait out;
	wire_buf b;

	wire__buf_init(&b);
	wire__pwait_encode(&b, &w);
	CU_ASSERT_EQUAL_FATAL(wire__pwait_decode(&out, b.data, b.len), 0);
	CU_ASSERT_EQUAL(out.req, 3);
	CU_ASSERT_EQUAL(out.kind, WIRE_PW_TRECV);
	CU_ASSERT_EQUAL(out.src, -1);
	CU_ASSERT_EQUAL(out.tag, 5);
	CU_ASSERT_EQUAL(out.vt, 2500000);
	CU_ASSERT_EQUAL(out.deadline, 9000000);
	CU_ASSERT_EQUAL(out.trans, 42000);
	CU_ASSERT_EQUAL(out.local, 6);
	CU_ASSERT_EQUAL(out.notices, 3);
	CU_ASSERT_EQUAL(out.timed, 5);
	CU_ASSERT_EQUAL(out.waited, 7000);
	CU_ASSERT_EQUAL(out.unc, 180000);
	CU_ASSERT_STRING_EQUAL(out.module, "/bin/prog");
	CU_ASSERT_EQUAL(out.offset, 0x1234);
	CU_ASSERT_EQUAL_FATAL(out.nsent, 2);
	CU_ASSERT_EQUAL(out.sent[1].tid, 0x40004);
	CU_ASSERT_EQUAL(out.sent[0].vs, 2400000);
	CU_ASSERT_EQUAL(out.sent[1].vs, INT64_MIN);
	CU_ASSERT_EQUAL(out.seen[0].vs, INT64_MIN);
	CU_ASSERT_EQUAL_FATAL(out.nseen, 1);
	CU_ASSERT_EQUAL(out.seen[0].n, 5);
	CU_ASSERT_EQUAL_FATAL(out.ncand, 1);
	CU_ASSERT_EQUAL(out.cand[0].va, 3000000);
	CU_ASSERT_EQUAL(out.cand[0].vs, 2900000);
	CU_ASSERT_EQUAL(out.cand[0].seq, 4);
	wire__pwait_clear(&out);
	/* A kind beyond the known ones is damage. */
	w.kind = WIRE_PW_TRECV + 1;
	wire__buf_reset(&b);
	wire__pwait_encode(&b, &w);
	CU_ASSERT_EQUAL(wire__pwait_decode(&out, b.data, b.len), PVMMON_EPARSE);
	CU_ASSERT_PTR_NULL(out.sent);
	/* So is a negative uncertainty. */
	w.kind = WIRE_PW_TRECV;
	w.unc = -1;
	wire__buf_reset(&b);
	wire__pwait_encode(&b, &w);
	CU_ASSERT_EQUAL(wire__pwait_decode(&out, b.data, b.len), PVMMON_EPARSE);
	w.unc = 180000;
	/* So is a negative transmission estimate. */
	w.kind = WIRE_PW_TRECV;
	w.trans = -1;
	wire__buf_reset(&b);
	wire__pwait_encode(&b, &w);
	CU_ASSERT_EQUAL(wire__pwait_decode(&out, b.data, b.len), PVMMON_EPARSE);
	w.trans = 42000;
	/* A running report that records a receive the task decided itself. */
	w.kind = WIRE_PW_RUNNING;
	w.decided = 1;
	w.taken_src = 0x40003;
	w.taken_tag = 5;
	w.window = 20;
	w.horizon = 3100000;
	w.reach = WIRE_PW_REACH_ALL | WIRE_PW_REACH_TEACH;
	wire__buf_reset(&b);
	wire__pwait_encode(&b, &w);
	CU_ASSERT_EQUAL_FATAL(wire__pwait_decode(&out, b.data, b.len), 0);
	CU_ASSERT_EQUAL(out.reach, WIRE_PW_REACH_ALL | WIRE_PW_REACH_TEACH);
	CU_ASSERT_EQUAL(out.decided, 1);
	CU_ASSERT_EQUAL(out.taken_src, 0x40003);
	CU_ASSERT_EQUAL(out.taken_tag, 5);
	CU_ASSERT_EQUAL(out.window, 20);
	CU_ASSERT_EQUAL(out.horizon, 3100000);
	wire__pwait_clear(&out);
	/* Reach bits beyond those defined are damage. */
	w.reach = 16;
	wire__buf_reset(&b);
	wire__pwait_encode(&b, &w);
	CU_ASSERT_EQUAL(wire__pwait_decode(&out, b.data, b.len), PVMMON_EPARSE);
	w.reach = 0;
	/* Only a running report records one. */
	w.kind = WIRE_PW_RECV;
	wire__buf_reset(&b);
	wire__pwait_encode(&b, &w);
	CU_ASSERT_EQUAL(wire__pwait_decode(&out, b.data, b.len), PVMMON_EPARSE);
	wire__buf_free(&b);
}

/* Decodes the block notice in b with its byte at from_end from the end set to v (then
 * put back): the decoder's verdict. */
static int pblock_with(wire_buf *b, size_t from_end, uint8_t v)
{
	wire_pblock k;
	uint8_t was = b->data[b->len - from_end];
	int rc;

	b->data[b->len - from_end] = v;
	rc = wire__pblock_decode(&k, b->data, b->len);
	b->data[b->len - from_end] = was;
	return rc;
}

static void test_pgrant_pask(void)
{
	wire_pgrant g;
	wire_buf b;

	wire__buf_init(&b);
	wire__pgrant_encode(
	    &b, &(wire_pgrant){.req = 9, .verdict = WIRE_PG_NONE, .src = -1, .tag = 77});
	CU_ASSERT_EQUAL_FATAL(wire__pgrant_decode(&g, b.data, b.len), 0);
	CU_ASSERT_EQUAL(g.req, 9);
	CU_ASSERT_EQUAL(g.verdict, WIRE_PG_NONE);
	CU_ASSERT_EQUAL(g.src, -1);
	CU_ASSERT_EQUAL(g.tag, 77);
	CU_ASSERT_EQUAL(g.table, 0);
	CU_ASSERT_EQUAL(g.nb, 0);
	b.data[8] = WIRE_PG_NONE + 1;
	CU_ASSERT_EQUAL(wire__pgrant_decode(&g, b.data, b.len), PVMMON_EPARSE);
	/* A TAKE with the other tasks' bounds. */
	{
		wire_pbound bs[2] = {{0x40003, WIRE_PB_DEP_SELF, INT64_MAX, 5000, 7, 1, 1, 0},
		                     {0x40004, WIRE_PB_DEP_NONE, 8000, 8000, 0, 0, 1, 0}};

		wire__buf_reset(&b);
		wire__pgrant_encode(&b, &(wire_pgrant){3, WIRE_PG_TAKE, 0x40003, 5, 1, 1, 250, 2, bs});
		CU_ASSERT_EQUAL_FATAL(wire__pgrant_decode(&g, b.data, b.len), 0);
		CU_ASSERT_EQUAL(g.table, 1);
		CU_ASSERT_EQUAL(g.know, 1);
		CU_ASSERT_EQUAL(g.b[1].knows, 1);
		CU_ASSERT_EQUAL(g.umax, 250);
		CU_ASSERT_EQUAL_FATAL(g.nb, 2);
		CU_ASSERT_EQUAL(g.b[0].tid, 0x40003);
		CU_ASSERT_EQUAL(g.b[0].dep, WIRE_PB_DEP_SELF);
		CU_ASSERT_EQUAL(g.b[0].bound, INT64_MAX);
		CU_ASSERT_EQUAL(g.b[0].vt, 5000);
		CU_ASSERT_EQUAL(g.b[0].seq, 7);
		CU_ASSERT_EQUAL(g.b[0].rank, 1);
		CU_ASSERT_EQUAL(g.b[1].rank, 0);
		CU_ASSERT_EQUAL(g.b[1].bound, 8000);
		wire__pgrant_clear(&g);
		/* So is a knows bit beyond those defined. */
		bs[1].knows = 4;
		wire__buf_reset(&b);
		wire__pgrant_encode(&b, &(wire_pgrant){3, WIRE_PG_TAKE, 0x40003, 5, 1, 1, 250, 2, bs});
		CU_ASSERT_EQUAL(wire__pgrant_decode(&g, b.data, b.len), PVMMON_EPARSE);
		bs[1].knows = 1;
		/* A dependency beyond the known ones is damage. */
		bs[1].dep = WIRE_PB_DEP_ANY + 1;
		wire__buf_reset(&b);
		wire__pgrant_encode(&b, &(wire_pgrant){3, WIRE_PG_TAKE, 0x40003, 5, 1, 1, 250, 2, bs});
		CU_ASSERT_EQUAL(wire__pgrant_decode(&g, b.data, b.len), PVMMON_EPARSE);
		CU_ASSERT_PTR_NULL(g.b);
	}
	/* The block notice. */
	{
		wire_pblock k;

		wire__buf_reset(&b);
		wire__pblock_encode(&b, &(wire_pblock){2600000, 4, 5, 1, 1, 0x123456789aULL, 0, 0, 0});
		CU_ASSERT_EQUAL_FATAL(wire__pblock_decode(&k, b.data, b.len), 0);
		CU_ASSERT_EQUAL(k.vt, 2600000);
		CU_ASSERT_EQUAL(k.seen, 4);
		CU_ASSERT_EQUAL(k.sent, 5);
		CU_ASSERT_EQUAL(k.quiet, 1);
		CU_ASSERT_EQUAL(k.exiting, 1);
		CU_ASSERT_EQUAL(k.sends, 0x123456789aULL);
		CU_ASSERT_EQUAL(k.any, 0);
		CU_ASSERT_EQUAL(k.away, 0);
		/* The exiting flag, before the send count and the three flags, out of range. */
		CU_ASSERT_EQUAL(pblock_with(&b, 12, 2), PVMMON_EPARSE);
		/* A receive from any source; exiting and any at once is damage, and so is a
		 * flag out of range, or waiting elsewhere with any. */
		wire__buf_reset(&b);
		wire__pblock_encode(&b, &(wire_pblock){2600000, 4, 5, 1, 0, 9, 1, 1, 0});
		CU_ASSERT_EQUAL_FATAL(wire__pblock_decode(&k, b.data, b.len), 0);
		CU_ASSERT_EQUAL(k.any, 1);
		CU_ASSERT_EQUAL(k.alone, 1);
		CU_ASSERT_EQUAL(k.exiting, 0);
		CU_ASSERT_EQUAL(pblock_with(&b, 12, 1), PVMMON_EPARSE);
		CU_ASSERT_EQUAL(pblock_with(&b, 3, 2), PVMMON_EPARSE);
		CU_ASSERT_EQUAL(pblock_with(&b, 2, 2), PVMMON_EPARSE);
		CU_ASSERT_EQUAL(pblock_with(&b, 1, 1), PVMMON_EPARSE);
		/* Waiting elsewhere: out of range, or with exiting, is damage. */
		wire__buf_reset(&b);
		wire__pblock_encode(&b, &(wire_pblock){2600000, 4, 5, 1, 0, 9, 0, 0, 1});
		CU_ASSERT_EQUAL_FATAL(wire__pblock_decode(&k, b.data, b.len), 0);
		CU_ASSERT_EQUAL(k.away, 1);
		CU_ASSERT_EQUAL(pblock_with(&b, 1, 2), PVMMON_EPARSE);
		CU_ASSERT_EQUAL(pblock_with(&b, 12, 1), PVMMON_EPARSE);
	}
	wire__buf_reset(&b);
	wire__pask_encode(&b);
	CU_ASSERT_EQUAL(b.len, WIRE_HEAD);
	CU_ASSERT_EQUAL(wire__pask_decode(b.data, b.len), 0);
	CU_ASSERT_EQUAL(wire__pask_decode(b.data, 0), PVMMON_EPARSE);
	wire__buf_free(&b);
}

static void test_snapshot_round_trip(void)
{
	static const char xml[] = "<pvmmon-log/>";
	wire_snapshot s;
	wire_buf b;

	wire__buf_init(&b);
	wire__snapshot_encode(&b, &(wire_snapshot){xml, sizeof(xml) - 1});
	CU_ASSERT_EQUAL_FATAL(wire__snapshot_decode(&s, b.data, b.len), 0);
	CU_ASSERT_EQUAL_FATAL(s.len, sizeof(xml) - 1);
	CU_ASSERT(!memcmp(s.xml, xml, s.len));
	b.data[0]++;
	CU_ASSERT_EQUAL(wire__snapshot_decode(&s, b.data, b.len), PVMMON_EVERSION);
	wire__buf_free(&b);
}

/* Wait reports (common/wire_hang.c) round trip; a report listing more queued messages
 * than any task sends is damage. */
static void test_wait_round_trip(void)
{
	wire_wpeer peers[2] = {{0x40003, 4, 3}, {0x40004, 0, 1}};
	wire_wqueued queued[1] = {{0x40003, 9, 0, 16}};
	wire_wait w = {2,       WIRE_WAIT_TRECV, 0x40003, 5, 0, 7,     "/bin/prog", 0x1234,
	               5000000, 4000000,         9000000, 2, 1, peers, queued,      40};
	wire_wait out;
	wire_waitend e;
	wire_buf b;

	wire__buf_init(&b);
	wire__wait_encode(&b, &w);
	CU_ASSERT_EQUAL_FATAL(wire__wait_decode(&out, b.data, b.len), 0);
	CU_ASSERT_EQUAL(out.seq, 2);
	CU_ASSERT_EQUAL(out.op, WIRE_WAIT_TRECV);
	CU_ASSERT_EQUAL(out.src, 0x40003);
	CU_ASSERT_EQUAL(out.tag, 5);
	CU_ASSERT_EQUAL(out.stmt, 7);
	CU_ASSERT_STRING_EQUAL(out.module, "/bin/prog");
	CU_ASSERT_EQUAL(out.offset, 0x1234);
	CU_ASSERT_EQUAL(out.rt_start, 5000000);
	CU_ASSERT_EQUAL(out.vt_start, 4000000);
	CU_ASSERT_EQUAL(out.deadline, 9000000);
	CU_ASSERT_EQUAL_FATAL(out.npeers, 2);
	CU_ASSERT_EQUAL(out.peers[0].sent, 4);
	CU_ASSERT_EQUAL(out.peers[0].recv, 3);
	CU_ASSERT_EQUAL(out.peers[1].tid, 0x40004);
	CU_ASSERT_EQUAL_FATAL(out.nqueued, 1);
	CU_ASSERT_EQUAL(out.queued[0].tag, 9);
	CU_ASSERT_EQUAL(out.queued[0].len, 16);
	CU_ASSERT_EQUAL(out.queued_total, 40);
	wire__wait_clear(&out);
	/* Fewer queued in all than listed is damage. */
	w.queued_total = 0;
	wire__buf_reset(&b);
	wire__wait_encode(&b, &w);
	CU_ASSERT_EQUAL(wire__wait_decode(&out, b.data, b.len), PVMMON_EPARSE);
	w.queued_total = 40;
	/* A replay's forced wait is the last kind of wait. */
	w.op = WIRE_WAIT_FORCED;
	wire__buf_reset(&b);
	wire__wait_encode(&b, &w);
	CU_ASSERT_EQUAL_FATAL(wire__wait_decode(&out, b.data, b.len), 0);
	CU_ASSERT_EQUAL(out.op, WIRE_WAIT_FORCED);
	wire__wait_clear(&out);
	w.op = WIRE_WAIT_FORCED + 1;
	wire__buf_reset(&b);
	wire__wait_encode(&b, &w);
	CU_ASSERT_EQUAL(wire__wait_decode(&out, b.data, b.len), PVMMON_EPARSE);
	CU_ASSERT_PTR_NULL(out.peers);
	wire__buf_reset(&b);
	wire__waitend_encode(&b, &(wire_waitend){2, 7000000});
	CU_ASSERT_EQUAL_FATAL(wire__waitend_decode(&e, b.data, b.len), 0);
	CU_ASSERT_EQUAL(e.seq, 2);
	CU_ASSERT_EQUAL(e.rt_end, 7000000);
	wire__buf_free(&b);
}

CU_TestInfo test_wire_preserve_tests[] = {
    {"wait report round trip and damage", test_wait_round_trip},
    {"preserve request round trip and damage", test_pwait_round_trip},
    {"decision and state request", test_pgrant_pask},
    {"snapshot round trip", test_snapshot_round_trip},
    CU_TEST_INFO_NULL,
};
