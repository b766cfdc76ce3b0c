/* Unit tests for common/wire_replay.c: record chunks, replay data, logical id lookups,
 * divergences and stop reports. */
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "../../../common/wire.h"
#include "pvmmon/errors.h"

static void test_rchunk_round_trip(void)
{
	static const uint8_t bytes[5] = {1, 2, 3, 0, 255};
	wire_rchunk c;
	wire_buf b;

	wire__buf_init(&b);
	wire__rchunk_encode(&b, &(wire_rchunk){0x40001, bytes, sizeof(bytes)});
	CU_ASSERT_EQUAL(b.len, WIRE_RCHUNK_HEAD + sizeof(bytes));
	CU_ASSERT_EQUAL_FATAL(wire__rchunk_decode(&c, b.data, b.len), 0);
	CU_ASSERT_EQUAL(c.tid, 0x40001);
	CU_ASSERT_EQUAL_FATAL(c.len, sizeof(bytes));
	CU_ASSERT(!memcmp(c.data, bytes, sizeof(bytes)));
	/* The stream's bytes can follow a header encoded alone. */
	wire__buf_reset(&b);
	wire__rchunk_encode(&b, &(wire_rchunk){0x40001, NULL, 0});
	wire__buf_append(&b, bytes, sizeof(bytes));
	CU_ASSERT_EQUAL_FATAL(wire__rchunk_decode(&c, b.data, b.len), 0);
	CU_ASSERT_EQUAL(c.len, sizeof(bytes));
	wire__buf_free(&b);
}

static void test_replaydata_round_trip(void)
{
	static char *senders[2] = {"0", "t80000000"};
	static const uint8_t record[3] = {9, 8, 7};
	wire_replaydata r = {1, 17, 2, senders, record, sizeof(record)}, out;
	wire_buf b;

	wire__buf_init(&b);
	wire__replaydata_encode(&b, &r);
	CU_ASSERT_EQUAL_FATAL(wire__replaydata_decode(&out, b.data, b.len), 0);
	CU_ASSERT_EQUAL(out.keep_going, 1);
	CU_ASSERT_EQUAL(out.stop_at, 17);
	CU_ASSERT_EQUAL_FATAL(out.nsenders, 2);
	CU_ASSERT_STRING_EQUAL(out.senders[0], "0");
	CU_ASSERT_STRING_EQUAL(out.senders[1], "t80000000");
	CU_ASSERT_EQUAL_FATAL(out.record_len, sizeof(record));
	CU_ASSERT(!memcmp(out.record, record, sizeof(record)));
	wire__replaydata_clear(&out);
	CU_ASSERT_PTR_NULL(out.senders);
	/* A sender without a name is damage: tasks read its first byte. */
	senders[1] = NULL;
	wire__buf_reset(&b);
	wire__replaydata_encode(&b, &r);
	senders[1] = "t80000000";
	CU_ASSERT_EQUAL(wire__replaydata_decode(&out, b.data, b.len), PVMMON_EPARSE);
	CU_ASSERT_PTR_NULL(out.senders);
	wire__buf_free(&b);
}

static void test_lid_round_trip(void)
{
	wire_lid l;
	wire_lidtid t;
	wire_buf b;

	wire__buf_init(&b);
	wire__lid_encode(&b, &(wire_lid){"0.1.2"});
	CU_ASSERT_EQUAL_FATAL(wire__lid_decode(&l, b.data, b.len), 0);
	CU_ASSERT_STRING_EQUAL(l.lid, "0.1.2");
	wire__lid_clear(&l);
	wire__buf_reset(&b);
	wire__lid_encode(&b, &(wire_lid){NULL});
	CU_ASSERT_EQUAL(wire__lid_decode(&l, b.data, b.len), PVMMON_EPARSE);
	wire__buf_reset(&b);
	wire__lidtid_encode(&b, &(wire_lidtid){0x40005});
	CU_ASSERT_EQUAL(wire__lidtid_decode(&t, b.data, b.len), 0);
	CU_ASSERT_EQUAL(t.tid, 0x40005);
	CU_ASSERT_EQUAL(wire__lidtid_decode(&t, b.data, b.len - 1), PVMMON_EPARSE);
	CU_ASSERT_EQUAL(t.tid, 0);
	wire__buf_free(&b);
}

static void test_diverged_stopped_round_trip(void)
{
	wire_diverged d = {17, NULL, 0, "pvm_recv", "expected this", "observed that"}, dout;
	wire_stopped s = {17, 4242, "/bin/app", 0x1234, WIRE_STOP_CONTINUED}, sout;
	wire_buf b;

	wire__buf_init(&b);
	wire__diverged_encode(&b, &d);
	CU_ASSERT_EQUAL_FATAL(wire__diverged_decode(&dout, b.data, b.len), 0);
	CU_ASSERT_EQUAL(dout.index, 17);
	CU_ASSERT_PTR_NULL(dout.module);
	CU_ASSERT_STRING_EQUAL(dout.op, "pvm_recv");
	CU_ASSERT_STRING_EQUAL(dout.expected, "expected this");
	CU_ASSERT_STRING_EQUAL(dout.observed, "observed that");
	wire__diverged_clear(&dout);
	wire__buf_reset(&b);
	wire__stopped_encode(&b, &s);
	CU_ASSERT_EQUAL_FATAL(wire__stopped_decode(&sout, b.data, b.len), 0);
	CU_ASSERT_EQUAL(sout.event, 17);
	CU_ASSERT_EQUAL(sout.pid, 4242);
	CU_ASSERT_STRING_EQUAL(sout.module, "/bin/app");
	CU_ASSERT_EQUAL(sout.offset, 0x1234);
	CU_ASSERT_EQUAL(sout.kind, WIRE_STOP_CONTINUED);
	wire__stopped_clear(&sout);
	/* What a stop report tells is one of three. */
	b.data[b.len - 1] = WIRE_STOP_HOLDING + 1;
	CU_ASSERT_EQUAL(wire__stopped_decode(&sout, b.data, b.len), PVMMON_EPARSE);
	CU_ASSERT_PTR_NULL(sout.module);
	wire__buf_free(&b);
}

CU_TestInfo test_wire_replay_tests[] = {
    {"record chunk round trip", test_rchunk_round_trip},
    {"replay data round trip and damage", test_replaydata_round_trip},
    {"logical id query and answer", test_lid_round_trip},
    {"divergence and stop report round trip", test_diverged_stopped_round_trip},
    CU_TEST_INFO_NULL,
};
