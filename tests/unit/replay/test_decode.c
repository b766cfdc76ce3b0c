/* Unit tests for replay/decode.c: damaged streams (truncated, flipped bytes) fail cleanly with the
 * offset. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "pvmmon/errors.h"
#include "pvmmon/log.h"
#include "streams.h"

/* Decodes at most limit entries of data; the count in *count, the final code back. */
static int decode_prefix(const uint8_t *data, size_t len, const replay_entry *v, size_t n,
                         size_t limit, size_t *count, int *prefix_ok)
{
	replay_dec d;
	replay_entry got;
	int rc;

	*count = 0;
	*prefix_ok = 1;
	replay__dec_init(&d, data, len);
	while (*count < limit && (rc = replay__dec_next(&d, &got)) == 1) {
		if (v && (*count >= n || !unit_same_entry(&got, &v[*count])))
			*prefix_ok = 0;
		(*count)++;
	}
	replay__dec_free(&d);
	return *count >= limit ? 1 : rc;
}

static void test_truncation(void)
{
	replay_entry *v;
	wire_buf b;
	size_t n, bad = 0;

	unit_small_stream(&v, &n, &b);
	for (size_t cut = 0; cut < b.len; cut++) {
		/* An exact-size copy, so that a read past the end is caught under ASan. */
		uint8_t *p = malloc(cut ? cut : 1);
		size_t count;
		int ok, rc;

		memcpy(p, b.data, cut);
		rc = decode_prefix(p, cut, v, n, n + 1, &count, &ok);
		if (!((rc == 0 || rc == PVMMON_EPARSE) && ok && count <= n))
			bad++;
		if (rc == PVMMON_EPARSE && !strstr(pvmmon_error_last(), "at byte"))
			bad++;
		free(p);
	}
	CU_ASSERT_EQUAL(bad, 0);
	free(v);
	wire__buf_free(&b);
}

static void test_byte_flips(void)
{
	replay_entry *v;
	wire_buf b;
	size_t n, parse_errors = 0, other_errors = 0;

	unit_small_stream(&v, &n, &b);
	unit_rng_seed(9);
	for (int round = 0; round < 3000; round++) {
		uint8_t *p = malloc(b.len);
		size_t count;
		int ok, rc;

		memcpy(p, b.data, b.len);
		for (int k = 1 + (int)(unit_rng() % 3); k > 0; k--)
			p[unit_rng() % b.len] ^= (uint8_t)(1 + unit_rng() % 255);
		/* A flipped repeat count can ask for billions of entries: stop early. */
		rc = decode_prefix(p, b.len, NULL, 0, 100 * n, &count, &ok);
		parse_errors += rc == PVMMON_EPARSE;
		other_errors += rc < 0 && rc != PVMMON_EPARSE;
		free(p);
	}
	CU_ASSERT(parse_errors > 0);
	CU_ASSERT_EQUAL(other_errors, 0);
	free(v);
	wire__buf_free(&b);
}

/* Specific damage gives EPARSE naming the offset, and the error sticks. */
static void test_damage_messages(void)
{
	static const uint8_t unknown[] = {0xe2, PVMMON_EV_TRECV, REPLAY_TIMEOUT, 0xf0};
	static const uint8_t repeat_first[] = {0xc3};
	static const uint8_t undefined[] = {0x00};
	static const uint8_t long_varint[] = {0xdf, 0xff, 0xff, 0xff, 0xff, 0x7f};
	static const uint8_t bad_sender[] = {0xe2, PVMMON_EV_RECV, REPLAY_MSG, 0x05, 0x00, 0x02, 0};
	static const uint8_t delta_none[] = {0xe3, PVMMON_EV_NRECV, REPLAY_NONE, 0x02};
	replay_dec d;
	replay_entry e;

	replay__dec_init(&d, unknown, sizeof(unknown));
	CU_ASSERT_EQUAL(replay__dec_next(&d, &e), 1);
	CU_ASSERT_EQUAL(e.kind, REPLAY_TIMEOUT);
	CU_ASSERT_EQUAL(replay__dec_next(&d, &e), PVMMON_EPARSE);
	CU_ASSERT_PTR_NOT_NULL(strstr(pvmmon_error_last(), "byte 3"));
	CU_ASSERT_EQUAL(replay__dec_next(&d, &e), PVMMON_EPARSE);
	replay__dec_free(&d);
	replay__dec_init(&d, repeat_first, sizeof(repeat_first));
	CU_ASSERT_EQUAL(replay__dec_next(&d, &e), PVMMON_EPARSE);
	replay__dec_free(&d);
	replay__dec_init(&d, undefined, sizeof(undefined));
	CU_ASSERT_EQUAL(replay__dec_next(&d, &e), PVMMON_EPARSE);
	CU_ASSERT_PTR_NOT_NULL(strstr(pvmmon_error_last(), "byte 0"));
	replay__dec_free(&d);
	replay__dec_init(&d, long_varint, sizeof(long_varint));
	CU_ASSERT_EQUAL(replay__dec_next(&d, &e), PVMMON_EPARSE);
	replay__dec_free(&d);
	replay__dec_init(&d, bad_sender, sizeof(bad_sender));
	CU_ASSERT_EQUAL(replay__dec_next(&d, &e), PVMMON_EPARSE);
	CU_ASSERT_PTR_NOT_NULL(strstr(pvmmon_error_last(), "undefined sender"));
	replay__dec_free(&d);
	replay__dec_init(&d, delta_none, sizeof(delta_none));
	CU_ASSERT_EQUAL(replay__dec_next(&d, &e), PVMMON_EPARSE);
	replay__dec_free(&d);
	replay__dec_init(&d, NULL, 0);
	CU_ASSERT_EQUAL(replay__dec_next(&d, &e), 0);
	replay__dec_free(&d);
}

CU_TestInfo test_decode_tests[] = {
    {"truncation at every byte: EPARSE or a prefix", test_truncation},
    {"random byte flips never crash", test_byte_flips},
    {"damage messages name the offset", test_damage_messages},
    CU_TEST_INFO_NULL,
};
