/* Unit tests for replay/encode.c: streams round-trip, their size, tables that fill up, refused
 * entries. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "pvmmon/errors.h"
#include "pvmmon/log.h"
#include "streams.h"

static void round_trip(uint64_t seed, size_t n, uint32_t nsenders, uint32_t ntags)
{
	replay_entry *v;
	wire_buf b;

	unit_rng_seed(seed);
	v = unit_random_stream(n, nsenders, ntags);
	unit_encode_chunked(v, n, &b);
	CU_ASSERT_FALSE(b.failed);
	unit_expect_stream(b.data, b.len, v, n);
	wire__buf_free(&b);
	free(v);
}

/* Size in bytes of the whole encoding of v. */
static size_t encoded_size(const replay_entry *v, size_t n)
{
	replay_enc e;
	wire_buf b;
	size_t len;

	replay__enc_init(&e);
	wire__buf_init(&b);
	for (size_t i = 0; i < n; i++)
		replay__enc_add(&e, &v[i]);
	replay__enc_take(&e, &b);
	unit_expect_stream(b.data, b.len, v, n);
	len = b.len;
	wire__buf_free(&b);
	replay__enc_free(&e);
	return len;
}

/*
 * Handler deliveries and notify messages: their own item (0xE5), exact round trips of
 * positions, deltas and named tasks; an item of the earlier format still decodes the
 * same (records written before these kinds existed stay readable); a notify with a
 * delta, and a table definition of either kind, are damage.
 */
static void test_handled_and_notify(void)
{
	replay_entry v[] = {
	    {PVMMON_EV_RECV, REPLAY_MSG, 0x40001, 5, 0, 0, 0, NULL},
	    {PVMMON_EV_SEND, REPLAY_HANDLED, 0x40001, 7, 0, 12, 0, NULL},
	    {PVMMON_EV_SEND, REPLAY_HANDLED, 0x40001, 7, 0, 12, 0, NULL},
	    {PVMMON_EV_OTHER, REPLAY_HANDLED, 0x40002, 7, -1, 30, 0, NULL},
	    {PVMMON_EV_RECV, REPLAY_NOTIFY, (int32_t)0x80000000, 5, 0, 0x40002, 0, NULL},
	    {PVMMON_EV_RECV, REPLAY_MSG, 0x40001, 5, 0, 0, 0, NULL},
	};
	/* The earlier format: define recv from 0x40001 with tag 5, then outcome 0 again. */
	static const uint8_t old[] = {0xe2, PVMMON_EV_RECV, REPLAY_MSG, 0x00, 0x82,
	                              0x80, 0x20,           0x00,       0x0a, 0x00};
	static const uint8_t notify_delta[] = {0xe5, PVMMON_EV_RECV, REPLAY_NOTIFY, 0, 2, 0, 10, 4,
	                                       2};
	static const uint8_t defined[] = {0xe2, PVMMON_EV_RECV, REPLAY_HANDLED, 0, 2, 0, 10};
	size_t n = sizeof(v) / sizeof(v[0]);
	replay_entry e;
	replay_dec d;
	wire_buf b, out;
	uint64_t count;

	unit_encode_chunked(v, n, &b);
	CU_ASSERT_FALSE(b.failed);
	unit_expect_stream(b.data, b.len, v, n);
	CU_ASSERT_EQUAL_FATAL(replay__remap(b.data, b.len, unit_tid_to_index, NULL, &out, &count),
	                      0);
	CU_ASSERT_EQUAL(count, n);
	replay__dec_init(&d, out.data, out.len);
	for (size_t i = 0; i < n; i++) {
		CU_ASSERT_EQUAL(replay__dec_next(&d, &e), 1);
		CU_ASSERT_EQUAL(e.kind, v[i].kind);
		CU_ASSERT_EQUAL(e.sender, unit_tid_to_index(NULL, v[i].sender));
		CU_ASSERT_EQUAL(e.value, v[i].kind == REPLAY_NOTIFY
		                             ? unit_tid_to_index(NULL, v[i].value)
		                             : v[i].value);
	}
	replay__dec_free(&d);
	wire__buf_free(&out);
	wire__buf_free(&b);
	replay__dec_init(&d, old, sizeof(old));
	CU_ASSERT_EQUAL(replay__dec_next(&d, &e), 1);
	CU_ASSERT(e.kind == REPLAY_MSG && e.sender == 0x40001 && e.tag == 5 && e.seq_delta == 0);
	CU_ASSERT_EQUAL(replay__dec_next(&d, &e), 1);
	CU_ASSERT(e.kind == REPLAY_MSG && e.sender == 0x40001 && e.tag == 5);
	CU_ASSERT_EQUAL(replay__dec_next(&d, &e), 0);
	replay__dec_free(&d);
	replay__dec_init(&d, notify_delta, sizeof(notify_delta));
	CU_ASSERT_EQUAL(replay__dec_next(&d, &e), PVMMON_EPARSE);
	replay__dec_free(&d);
	replay__dec_init(&d, defined, sizeof(defined));
	CU_ASSERT_EQUAL(replay__dec_next(&d, &e), PVMMON_EPARSE);
	replay__dec_free(&d);
}

static void test_round_trips(void)
{
	round_trip(1, 20000, 8, 3);
	/* Enough senders and tags that outcome indices pass the one-byte range. */
	round_trip(2, 30000, 300, 20);
	round_trip(3, 1, 1, 1);
	round_trip(4, 0, 1, 1);
}

/* More distinct tags than a table holds: the encoder falls back to literals. */
static void test_table_overflow(void)
{
	size_t n = REPLAY_TABLE_MAX + 5000;
	replay_entry *v = calloc(n, sizeof(*v));
	wire_buf b;

	for (size_t i = 0; i < n; i++)
		v[i] = unit_msg(PVMMON_EV_RECV, 0x40001 + (int32_t)(i % 3), (int32_t)i, 0);
	unit_rng_seed(5);
	unit_encode_chunked(v, n, &b);
	unit_expect_stream(b.data, b.len, v, n);
	wire__buf_free(&b);
	free(v);
}

/*
 * A Monte Carlo pi master: 10^5 wildcard receives from 8 workers chosen pseudo-randomly
 * with 2 tags (a result and a request for work), all in sequence. ReMPI needs 32 bytes
 * per event raw; the target here is 2.
 */
static void test_size_mc_pi(void)
{
	size_t n = 100000, len;
	replay_entry *v = calloc(n, sizeof(*v));

	unit_rng_seed(6);
	for (size_t i = 0; i < n; i++)
		v[i] = unit_msg(PVMMON_EV_RECV, 0x40002 + (int32_t)(unit_rng() % 8),
		                1 + (int32_t)(unit_rng() % 2), 0);
	len = encoded_size(v, n);
	printf("\n    MC-pi: %zu entries in %zu bytes, %.3f bytes/entry ", n, len, (double)len / n);
	CU_ASSERT(len <= 2 * n);
	free(v);
}

/* A polling loop: 10^5 pvm_nrecv misses cost a few bytes. */
static void test_size_polling(void)
{
	size_t n = 100000, len;
	replay_entry *v = calloc(n + 1, sizeof(*v));

	for (size_t i = 0; i < n; i++)
		v[i] = unit_other(PVMMON_EV_NRECV, REPLAY_NONE, 0);
	len = encoded_size(v, n);
	printf("\n    polling: %zu misses in %zu bytes ", n, len);
	CU_ASSERT(len <= 16);
	/* The loop ends with the message it waited for. */
	v[n] = unit_msg(PVMMON_EV_NRECV, 0x40005, 7, 0);
	CU_ASSERT(encoded_size(v, n + 1) <= 16 + 12);
	free(v);
}

static void test_spawn_values(void)
{
	int32_t values[] = {4, 4, 0, -2, -14, 1, INT32_MAX, INT32_MIN, 4, 32};
	size_t n = sizeof(values) / sizeof(values[0]);
	replay_entry v[sizeof(values) / sizeof(values[0])];
	wire_buf b;

	for (size_t i = 0; i < n; i++)
		v[i] = unit_other(PVMMON_EV_SPAWN, REPLAY_SPAWN, values[i]);
	unit_rng_seed(7);
	unit_encode_chunked(v, n, &b);
	unit_expect_stream(b.data, b.len, v, n);
	wire__buf_free(&b);
}

/* Fields a kind does not use are dropped; impossible entries are refused. */
static void test_normalise_and_refuse(void)
{
	replay_entry in[2] = {{PVMMON_EV_TRECV, REPLAY_TIMEOUT, 9, 9, 9, 9, 0, NULL},
	                      {PVMMON_EV_RECV, REPLAY_MSG, 5, 6, 0, 77, 0, NULL}};
	replay_entry want[2] = {{PVMMON_EV_TRECV, REPLAY_TIMEOUT, 0, 0, 0, 0, 0, NULL},
	                        {PVMMON_EV_RECV, REPLAY_MSG, 5, 6, 0, 0, 0, NULL}};
	replay_entry bad[] = {unit_other(PVMMON_EV_SEND, REPLAY_MSG, 0),
	                      unit_other(PVMMON_EV_RECV, REPLAY_NONE, 0),
	                      unit_other(PVMMON_EV_RECV, REPLAY_SPAWN, 1),
	                      unit_other(PVMMON_EV_SPAWN, REPLAY_MSG, 0),
	                      unit_other(PVMMON_EV_NRECV, REPLAY_TIMEOUT, 0),
	                      unit_other(PVMMON_EV_ENTER, REPLAY_HANDLED, 0),
	                      unit_other(PVMMON_EV_PRECV, REPLAY_NOTIFY, 0),
	                      unit_other(PVMMON_EV_PROBE, REPLAY_NOTIFY, 0),
	                      unit_other(PVMMON_EV_NRECV, (replay_kind)9, 0)};
	replay_enc e;
	wire_buf b;

	replay__enc_init(&e);
	wire__buf_init(&b);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CU_ASSERT_EQUAL(replay__enc_add(&e, &bad[i]), PVMMON_EINVAL);
	CU_ASSERT_EQUAL(replay__enc_add(&e, &in[0]), 0);
	CU_ASSERT_EQUAL(replay__enc_add(&e, &in[1]), 0);
	CU_ASSERT_EQUAL(replay__enc_take(&e, &b), 0);
	unit_expect_stream(b.data, b.len, want, 2);
	wire__buf_free(&b);
	replay__enc_free(&e);
}

CU_TestInfo test_encode_tests[] = {
    {"handler deliveries and notify messages; earlier streams still read", test_handled_and_notify},
    {"random streams round-trip across chunks", test_round_trips},
    {"full tables fall back to literals", test_table_overflow},
    {"MC-pi master: at most 2 bytes per receive", test_size_mc_pi},
    {"10^5 nrecv misses: at most 16 bytes", test_size_polling},
    {"spawn values", test_spawn_values},
    {"unused fields dropped, impossible entries refused", test_normalise_and_refuse},
    CU_TEST_INFO_NULL,
};
