/* Unit tests for replay/stream.c: senders remapped, huge repeats counted, base64 and the hash. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "pvmmon/errors.h"
#include "pvmmon/log.h"
#include "streams.h"

static void test_remap(void)
{
	replay_entry *v;
	wire_buf b, out;
	uint64_t count = 0;
	size_t n, senders_ok = 0, nmsg = 0;

	unit_rng_seed(10);
	n = 5000;
	v = unit_random_stream(n, 40, 4);
	unit_encode_chunked(v, n, &b);
	CU_ASSERT_EQUAL_FATAL(replay__remap(b.data, b.len, unit_tid_to_index, NULL, &out, &count),
	                      0);
	CU_ASSERT_EQUAL(count, n);
	for (size_t i = 0; i < n; i++)
		if (v[i].kind == REPLAY_MSG || v[i].kind == REPLAY_HANDLED ||
		    v[i].kind == REPLAY_NOTIFY) {
			v[i].sender = unit_tid_to_index(NULL, v[i].sender);
			/* A notify's named task is mapped like a sender. */
			if (v[i].kind == REPLAY_NOTIFY)
				v[i].value = unit_tid_to_index(NULL, v[i].value);
			nmsg++;
			senders_ok +=
			    v[i].sender <= 100 && (v[i].kind != REPLAY_NOTIFY || v[i].value <= 100);
		}
	CU_ASSERT_EQUAL(senders_ok, nmsg);
	unit_expect_stream(out.data, out.len, v, n);
	CU_ASSERT_EQUAL(replay__check(out.data, out.len, 101, &count), 0);
	CU_ASSERT_EQUAL(count, n);
	CU_ASSERT_EQUAL(replay__check(out.data, out.len, 100, &count), PVMMON_EPARSE);
	wire__buf_free(&out);
	/* A damaged stream is refused and leaves no output behind. */
	b.data[b.len - 1] = 0xff;
	CU_ASSERT_EQUAL(replay__remap(b.data, b.len, unit_tid_to_index, NULL, &out, &count),
	                PVMMON_EPARSE);
	CU_ASSERT_EQUAL(count, 0);
	wire__buf_free(&out);
	wire__buf_free(&b);
	free(v);
}

/*
 * Regression (found by tests/fuzz/fuzz_replay): each 6-byte counted repeat stands for
 * 2^32 - 1 entries, and replay__check and replay__remap walked them one by one, so a
 * record of a few hundred bytes kept `pvmmon validate` or the monitor busy for hours.
 * Both now take a repeat whole.
 */
static void test_huge_repeats(void)
{
	/* A pvm_nrecv miss, then 100 repeats of it, 2^32 - 1 times each. */
	static const uint8_t head[] = {0xe2, PVMMON_EV_NRECV, REPLAY_NONE};
	static const uint8_t rep[] = {0xdf, 0xff, 0xff, 0xff, 0xff, 0x0f};
	const uint64_t want = 1 + 100 * (uint64_t)UINT32_MAX;
	uint8_t data[sizeof(head) + 100 * sizeof(rep)];
	wire_buf out;
	uint64_t n = 0;

	memcpy(data, head, sizeof(head));
	for (size_t i = 0; i < 100; i++)
		memcpy(data + sizeof(head) + i * sizeof(rep), rep, sizeof(rep));
	CU_ASSERT_EQUAL(replay__check(data, sizeof(data), 0, &n), 0);
	CU_ASSERT_EQUAL(n, want);
	n = 0;
	CU_ASSERT_EQUAL_FATAL(replay__remap(data, sizeof(data), unit_tid_to_index, NULL, &out, &n),
	                      0);
	CU_ASSERT_EQUAL(n, want);
	/* The rewritten stream holds the same entries, in about as few bytes. */
	CU_ASSERT(out.len <= sizeof(data) + 16);
	n = 0;
	CU_ASSERT_EQUAL(replay__check(out.data, out.len, 0, &n), 0);
	CU_ASSERT_EQUAL(n, want);
	wire__buf_free(&out);
}

static void test_base64(void)
{
	static const char *const vectors[][2] = {{"", ""},
	                                         {"f", "Zg=="},
	                                         {"fo", "Zm8="},
	                                         {"foo", "Zm9v"},
	                                         {"foob", "Zm9vYg=="},
	                                         {"fooba", "Zm9vYmE="},
	                                         {"foobar", "Zm9vYmFy"}};
	static const char *const bad[] = {
	    "Zm9", "Zm=v", "Z===", "====", "Zm9v!A==", "=m9v", "Zg==Zg==", "Zm 9", "Zg=A"};
	uint8_t data[300], *out;
	size_t len;

	for (size_t i = 0; i < sizeof(vectors) / sizeof(vectors[0]); i++) {
		char *s = replay__b64_encode((const uint8_t *)vectors[i][0], strlen(vectors[i][0]));

		CU_ASSERT_STRING_EQUAL(s, vectors[i][1]);
		free(s);
		CU_ASSERT_EQUAL_FATAL(replay__b64_decode(vectors[i][1], &out, &len), 0);
		CU_ASSERT_PTR_NOT_NULL(out);
		CU_ASSERT(len == strlen(vectors[i][0]) && !memcmp(out, vectors[i][0], len));
		free(out);
	}
	unit_rng_seed(11);
	for (size_t n = 0; n < sizeof(data); n++) {
		char *s;

		for (size_t k = 0; k < n; k++)
			data[k] = (uint8_t)unit_rng();
		s = replay__b64_encode(data, n);
		CU_ASSERT_EQUAL_FATAL(replay__b64_decode(s, &out, &len), 0);
		CU_ASSERT(len == n && !memcmp(out, data, n));
		free(out);
		free(s);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CU_ASSERT_EQUAL(replay__b64_decode(bad[i], &out, &len), PVMMON_EPARSE);
		CU_ASSERT_PTR_NULL(out);
	}
}

static void test_hash(void)
{
	uint8_t data[64];

	/* FNV-1a 64 reference values. */
	CU_ASSERT_EQUAL(replay__hash(NULL, 0), 0xcbf29ce484222325ULL);
	CU_ASSERT_EQUAL(replay__hash((const uint8_t *)"a", 1), 0xaf63dc4c8601ec8cULL);
	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(i * 7);
	uint64_t h = replay__hash(data, sizeof(data));
	for (size_t i = 0; i < sizeof(data); i++) {
		data[i] ^= 0x10;
		CU_ASSERT_NOT_EQUAL(replay__hash(data, sizeof(data)), h);
		data[i] ^= 0x10;
	}
	CU_ASSERT_EQUAL(replay__hash(data, sizeof(data)), h);
}

CU_TestInfo test_stream_tests[] = {
    {"remap senders", test_remap},
    {"huge repeats are counted, not walked", test_huge_repeats},
    {"base64 round trip and bad input", test_base64},
    {"hash", test_hash},
    CU_TEST_INFO_NULL,
};
