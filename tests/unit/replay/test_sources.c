/* Unit tests for the replay record's SOURCE items (clock and pid reads): round trips,
 * their size, extreme readings, remapping, and damage. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "../../../replay/codec.h"
#include "pvmmon/errors.h"
#include "pvmmon/log.h"
#include "streams.h"

static replay_entry src(unsigned op, int64_t reading)
{
	replay_entry e = unit_other((uint8_t)op, REPLAY_SOURCE, 0);

	e.reading = reading;
	return e;
}

/* gettimeofday every 80-120 us, a pid read between, messages around: each clock read
 * costs a head byte, the source and a delta of 2 bytes. */
static void test_round_trip_and_size(void)
{
	enum { N = 3000 };
	replay_entry *v = calloc(N, sizeof(*v));
	int64_t t = 1763990000123456; /* microseconds in 2025 */
	wire_buf b;
	size_t clocks = 0;

	unit_rng_seed(7);
	for (size_t i = 0; i < N; i++) {
		uint32_t r = unit_rng() % 10;

		if (r < 6) {
			t += 80 + unit_rng() % 40;
			v[i] = src(REPLAY_SRC_GETTIMEOFDAY, t);
			clocks++;
		} else if (r < 8) {
			v[i] = src(REPLAY_SRC_GETPID, 31337);
		} else {
			v[i] = unit_msg(PVMMON_EV_RECV, 0x40001 + (int32_t)(unit_rng() % 4), 7, 0);
		}
	}
	unit_encode_chunked(v, N, &b);
	unit_expect_stream(b.data, b.len, v, N);
	/* Each entry at most 4 bytes (the first read is the whole time: 10 bytes). */
	CU_ASSERT(b.len < N * 4 + 16);
	CU_ASSERT(clocks > N / 2);
	wire__buf_free(&b);
	free(v);
}

/* Readings at the ends of the range, and jumps between them, come back exactly. */
static void test_extremes(void)
{
	replay_entry v[] = {
	    src(REPLAY_SRC_CLOCK + 0, INT64_MAX),
	    src(REPLAY_SRC_CLOCK + 0, INT64_MIN),
	    src(REPLAY_SRC_CLOCK + 0, 0),
	    src(REPLAY_SRC_TIME, -1),
	    src(REPLAY_SRC_TIME, -1),
	    src(REPLAY_SRC_TIME, -1),
	    src(REPLAY_SRC_GETPPID, 1),
	    src(REPLAY_SRC_CLOCK + 15, INT64_MIN + 1),
	    src(REPLAY_SRC_CLOCK + 0, INT64_MAX),
	};
	size_t n = sizeof(v) / sizeof(v[0]);
	wire_buf b;

	unit_encode_chunked(v, n, &b);
	unit_expect_stream(b.data, b.len, v, n);
	wire__buf_free(&b);
}

/* A remap (the monitor's) keeps every reading: sources name no task. */
static void test_remap_keeps_readings(void)
{
	replay_entry v[] = {
	    src(REPLAY_SRC_GETPID, 123),
	    unit_msg(PVMMON_EV_RECV, 0x40001, 3, 0),
	    src(REPLAY_SRC_GETTIMEOFDAY, 1000),
	    src(REPLAY_SRC_GETTIMEOFDAY, 1200),
	};
	replay_entry want[4];
	wire_buf b, out;
	uint64_t n = 0;

	memcpy(want, v, sizeof(v));
	want[1].sender = unit_tid_to_index(NULL, 0x40001);
	unit_encode_chunked(v, 4, &b);
	CU_ASSERT_EQUAL_FATAL(replay__remap(b.data, b.len, unit_tid_to_index, NULL, &out, &n), 0);
	CU_ASSERT_EQUAL(n, 4);
	unit_expect_stream(out.data, out.len, want, 4);
	CU_ASSERT_EQUAL(replay__check(out.data, out.len, 1, &n), 0);
	wire__buf_free(&b);
	wire__buf_free(&out);
}

static int decode_all(const uint8_t *data, size_t len)
{
	replay_dec d;
	replay_entry e;
	int rc;

	replay__dec_init(&d, data, len);
	while ((rc = replay__dec_next(&d, &e)) == 1)
		;
	replay__dec_free(&d);
	return rc;
}

/* Unknown sources, truncated and overlong deltas, and a source defined as a table
 * outcome or a literal are damage. */
static void test_damage(void)
{
	static const uint8_t bad[][12] = {
	    {0xe6, 0x00, 0x02}, /* source 0 */
	    {0xe6, 0x07, 0x02}, /* source 7: none */
	    {0xe6, 0x20, 0x02}, /* past the clocks */
	    {0xe6, 0x01},       /* no delta */
	    {0xe6, 0x01, 0x80}, /* a truncated delta */
	    {0xe6, 0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	     0x02},                            /* > 64 bits */
	    {0xe2, 0x01, REPLAY_SOURCE, 0x00}, /* defined */
	    {0xe4, 0x01, REPLAY_SOURCE, 0x00}, /* literal */
	};
	static const size_t len[] = {3, 3, 3, 2, 3, 12, 4, 4};

	for (size_t i = 0; i < sizeof(len) / sizeof(len[0]); i++)
		CU_ASSERT_EQUAL(decode_all(bad[i], len[i]), PVMMON_EPARSE);
	/* The longest delta that fits: 10 bytes, the last holding bit 63. */
	static const uint8_t ok[] = {0xe6, 0x01, 0xff, 0xff, 0xff, 0xff,
	                             0xff, 0xff, 0xff, 0xff, 0xff, 0x01};
	CU_ASSERT_EQUAL(decode_all(ok, sizeof(ok)), 0);
}

static void test_names(void)
{
	CU_ASSERT_STRING_EQUAL(replay__source_name(REPLAY_SRC_GETTIMEOFDAY), "gettimeofday");
	CU_ASSERT_STRING_EQUAL(replay__source_name(REPLAY_SRC_CLOCK + 0),
	                       "clock_gettime(CLOCK_REALTIME)");
	CU_ASSERT_STRING_EQUAL(replay__source_name(REPLAY_SRC_CLOCK + 1),
	                       "clock_gettime(CLOCK_MONOTONIC)");
	CU_ASSERT_STRING_EQUAL(replay__source_name(0), "?");
	CU_ASSERT_STRING_EQUAL(replay__source_name(REPLAY_SRC_END), "?");
	CU_ASSERT(replay__valid(REPLAY_SRC_GETPPID, REPLAY_SOURCE));
	CU_ASSERT(!replay__valid(PVMMON_EV_RECV + 40, REPLAY_SOURCE));
}

CU_TestInfo test_sources_tests[] = {
    {"round trip and size", test_round_trip_and_size},
    {"extreme readings", test_extremes},
    {"remap keeps readings", test_remap_keeps_readings},
    {"damage", test_damage},
    {"names", test_names},
    CU_TEST_INFO_NULL,
};
