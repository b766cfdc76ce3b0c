/* Unit tests for common/replay.c: the replay record's stream, its size, damage, base64. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "pvmmon/errors.h"
#include "pvmmon/log.h"
#include "../../../common/replay.h"

/* A small deterministic generator, so that every run tests the same streams. */
static uint64_t rng_state;

static void rng_seed(uint64_t s)
{
	rng_state = s * 2654435761u + 1;
}

static uint32_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint32_t)(rng_state >> 11);
}

static replay_entry msg(uint8_t op, int32_t sender, int32_t tag, int32_t delta)
{
	replay_entry e = {op, REPLAY_MSG, sender, tag, delta, 0};

	return e;
}

static replay_entry other(uint8_t op, replay_kind kind, int32_t value)
{
	replay_entry e = {op, kind, 0, 0, 0, value};

	return e;
}

static int same_entry(const replay_entry *a, const replay_entry *b)
{
	return a->op == b->op && a->kind == b->kind && a->sender == b->sender &&
	       a->tag == b->tag && a->seq_delta == b->seq_delta && a->value == b->value;
}

/* A random mix of every kind, with runs, many senders and an occasional delta. */
static replay_entry *random_stream(size_t n, uint32_t nsenders, uint32_t ntags)
{
	static const uint8_t msg_ops[] = {PVMMON_EV_RECV, PVMMON_EV_NRECV, PVMMON_EV_TRECV,
					  PVMMON_EV_PRECV, PVMMON_EV_PROBE};
	replay_entry *v = calloc(n, sizeof(*v));
	size_t i = 0;

	while (i < n) {
		uint32_t r = rng() % 100;
		replay_entry e;
		size_t run = rng() % 8 == 0 ? 1 + rng() % 300 : 1;

		if (r < 70)
			e = msg(msg_ops[rng() % 5], (int32_t)(0x40000 + rng() % nsenders) * (rng() % 9 ? 1 : -1),
				(int32_t)(rng() % ntags) - 2,
				rng() % 10 == 0 ? (int32_t)(rng() % 2000) - 1000 : 0);
		else if (r < 80)
			e = other(rng() % 2 ? PVMMON_EV_NRECV : PVMMON_EV_PROBE, REPLAY_NONE, 0);
		else if (r < 85)
			e = other(PVMMON_EV_TRECV, REPLAY_TIMEOUT, 0);
		else if (r < 90)
			e = other(PVMMON_EV_SPAWN, REPLAY_SPAWN, (int32_t)(rng() % 40) - 8);
		else if (r < 95) {
			/* A handler delivery at a growing position, during any kind of call. */
			static const uint8_t in[] = {PVMMON_EV_SEND, PVMMON_EV_RECV, PVMMON_EV_OTHER,
						     PVMMON_EV_JOINGROUP};
			e = msg(in[rng() % 4], (int32_t)(0x40000 + rng() % nsenders),
				(int32_t)(rng() % ntags) - 2, rng() % 10 == 0 ? -1 : 0);
			e.kind = REPLAY_HANDLED;
			e.value = (int32_t)(i * 3 + rng() % 3);
		} else {
			e = msg(rng() % 2 ? PVMMON_EV_RECV : PVMMON_EV_TRECV, (int32_t)0x80000000,
				(int32_t)(rng() % ntags), 0);
			e.kind = REPLAY_NOTIFY;
			e.value = (int32_t)(0x40000 + rng() % nsenders);
		}
		for (; run > 0 && i < n; run--)
			v[i++] = e;
	}
	return v;
}

/* Encodes v taking chunks at random points, concatenated into *out. */
static void encode_chunked(const replay_entry *v, size_t n, wire_buf *out)
{
	replay_enc e;

	replay_enc_init(&e);
	wire_buf_init(out);
	for (size_t i = 0; i < n; i++) {
		CU_ASSERT_EQUAL_FATAL(replay_enc_add(&e, &v[i]), 0);
		if (rng() % 997 == 0)
			CU_ASSERT_EQUAL(replay_enc_take(&e, out), 0);
	}
	CU_ASSERT_EQUAL(replay_enc_take(&e, out), 0);
	/* A take with nothing new adds nothing. */
	size_t len = out->len;
	CU_ASSERT_EQUAL(replay_enc_take(&e, out), 0);
	CU_ASSERT_EQUAL(out->len, len);
	replay_enc_free(&e);
}

/* Decodes data and checks it gives exactly v. */
static void expect_stream(const uint8_t *data, size_t len, const replay_entry *v, size_t n)
{
	replay_dec d;
	replay_entry got;
	size_t i = 0, bad = 0;
	int rc;

	replay_dec_init(&d, data, len);
	while ((rc = replay_dec_next(&d, &got)) == 1) {
		if (i >= n || !same_entry(&got, &v[i]))
			bad++;
		i++;
	}
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_EQUAL(i, n);
	CU_ASSERT_EQUAL(bad, 0);
	replay_dec_free(&d);
}

static void round_trip(uint64_t seed, size_t n, uint32_t nsenders, uint32_t ntags)
{
	replay_entry *v;
	wire_buf b;

	rng_seed(seed);
	v = random_stream(n, nsenders, ntags);
	encode_chunked(v, n, &b);
	CU_ASSERT_FALSE(b.failed);
	expect_stream(b.data, b.len, v, n);
	wire_buf_free(&b);
	free(v);
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
		v[i] = msg(PVMMON_EV_RECV, 0x40001 + (int32_t)(i % 3), (int32_t)i, 0);
	rng_seed(5);
	encode_chunked(v, n, &b);
	expect_stream(b.data, b.len, v, n);
	wire_buf_free(&b);
	free(v);
}

/* Size in bytes of the whole encoding of v. */
static size_t encoded_size(const replay_entry *v, size_t n)
{
	replay_enc e;
	wire_buf b;
	size_t len;

	replay_enc_init(&e);
	wire_buf_init(&b);
	for (size_t i = 0; i < n; i++)
		replay_enc_add(&e, &v[i]);
	replay_enc_take(&e, &b);
	expect_stream(b.data, b.len, v, n);
	len = b.len;
	wire_buf_free(&b);
	replay_enc_free(&e);
	return len;
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

	rng_seed(6);
	for (size_t i = 0; i < n; i++)
		v[i] = msg(PVMMON_EV_RECV, 0x40002 + (int32_t)(rng() % 8), 1 + (int32_t)(rng() % 2), 0);
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
		v[i] = other(PVMMON_EV_NRECV, REPLAY_NONE, 0);
	len = encoded_size(v, n);
	printf("\n    polling: %zu misses in %zu bytes ", n, len);
	CU_ASSERT(len <= 16);
	/* The loop ends with the message it waited for. */
	v[n] = msg(PVMMON_EV_NRECV, 0x40005, 7, 0);
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
		v[i] = other(PVMMON_EV_SPAWN, REPLAY_SPAWN, values[i]);
	rng_seed(7);
	encode_chunked(v, n, &b);
	expect_stream(b.data, b.len, v, n);
	wire_buf_free(&b);
}

/* Fields a kind does not use are dropped; impossible entries are refused. */
static void test_normalise_and_refuse(void)
{
	replay_entry in[2] = {{PVMMON_EV_TRECV, REPLAY_TIMEOUT, 9, 9, 9, 9},
			      {PVMMON_EV_RECV, REPLAY_MSG, 5, 6, 0, 77}};
	replay_entry want[2] = {{PVMMON_EV_TRECV, REPLAY_TIMEOUT, 0, 0, 0, 0},
				{PVMMON_EV_RECV, REPLAY_MSG, 5, 6, 0, 0}};
	replay_entry bad[] = {other(PVMMON_EV_SEND, REPLAY_MSG, 0),
			      other(PVMMON_EV_RECV, REPLAY_NONE, 0),
			      other(PVMMON_EV_RECV, REPLAY_SPAWN, 1),
			      other(PVMMON_EV_SPAWN, REPLAY_MSG, 0),
			      other(PVMMON_EV_NRECV, REPLAY_TIMEOUT, 0),
			      other(PVMMON_EV_ENTER, REPLAY_HANDLED, 0),
			      other(PVMMON_EV_PRECV, REPLAY_NOTIFY, 0),
			      other(PVMMON_EV_PROBE, REPLAY_NOTIFY, 0),
			      other(PVMMON_EV_NRECV, (replay_kind)9, 0)};
	replay_enc e;
	wire_buf b;

	replay_enc_init(&e);
	wire_buf_init(&b);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CU_ASSERT_EQUAL(replay_enc_add(&e, &bad[i]), PVMMON_EINVAL);
	CU_ASSERT_EQUAL(replay_enc_add(&e, &in[0]), 0);
	CU_ASSERT_EQUAL(replay_enc_add(&e, &in[1]), 0);
	CU_ASSERT_EQUAL(replay_enc_take(&e, &b), 0);
	expect_stream(b.data, b.len, want, 2);
	wire_buf_free(&b);
	replay_enc_free(&e);
}

/* A small stream with every item form: definitions, references, deltas, repeats. */
static void small_stream(replay_entry **v, size_t *n, wire_buf *b)
{
	rng_seed(8);
	*n = 400;
	*v = random_stream(*n, 5, 3);
	encode_chunked(*v, *n, b);
}

/* Decodes at most limit entries of data; the count in *count, the final code back. */
static int decode_prefix(const uint8_t *data, size_t len, const replay_entry *v, size_t n,
			 size_t limit, size_t *count, int *prefix_ok)
{
	replay_dec d;
	replay_entry got;
	int rc;

	*count = 0;
	*prefix_ok = 1;
	replay_dec_init(&d, data, len);
	while (*count < limit && (rc = replay_dec_next(&d, &got)) == 1) {
		if (v && (*count >= n || !same_entry(&got, &v[*count])))
			*prefix_ok = 0;
		(*count)++;
	}
	replay_dec_free(&d);
	return *count >= limit ? 1 : rc;
}

static void test_truncation(void)
{
	replay_entry *v;
	wire_buf b;
	size_t n, bad = 0;

	small_stream(&v, &n, &b);
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
	wire_buf_free(&b);
}

static void test_byte_flips(void)
{
	replay_entry *v;
	wire_buf b;
	size_t n, parse_errors = 0, other_errors = 0;

	small_stream(&v, &n, &b);
	rng_seed(9);
	for (int round = 0; round < 3000; round++) {
		uint8_t *p = malloc(b.len);
		size_t count;
		int ok, rc;

		memcpy(p, b.data, b.len);
		for (int k = 1 + (int)(rng() % 3); k > 0; k--)
			p[rng() % b.len] ^= (uint8_t)(1 + rng() % 255);
		/* A flipped repeat count can ask for billions of entries: stop early. */
		rc = decode_prefix(p, b.len, NULL, 0, 100 * n, &count, &ok);
		parse_errors += rc == PVMMON_EPARSE;
		other_errors += rc < 0 && rc != PVMMON_EPARSE;
		free(p);
	}
	CU_ASSERT(parse_errors > 0);
	CU_ASSERT_EQUAL(other_errors, 0);
	free(v);
	wire_buf_free(&b);
}

/* Specific damage gives EPARSE naming the offset, and the error sticks. */
static void test_damage_messages(void)
{
	static const uint8_t unknown[] = {0xe2, PVMMON_EV_TRECV, REPLAY_TIMEOUT, 0xf0};
	static const uint8_t repeat_first[] = {0xc3};
	static const uint8_t undefined[] = {0x00};
	static const uint8_t long_varint[] = {0xdf, 0xff, 0xff, 0xff, 0xff, 0x7f};
	static const uint8_t bad_sender[] = {0xe2, PVMMON_EV_RECV, REPLAY_MSG, 0x05, 0x00, 0x02};
	static const uint8_t delta_none[] = {0xe3, PVMMON_EV_NRECV, REPLAY_NONE, 0x02};
	replay_dec d;
	replay_entry e;

	replay_dec_init(&d, unknown, sizeof(unknown));
	CU_ASSERT_EQUAL(replay_dec_next(&d, &e), 1);
	CU_ASSERT_EQUAL(e.kind, REPLAY_TIMEOUT);
	CU_ASSERT_EQUAL(replay_dec_next(&d, &e), PVMMON_EPARSE);
	CU_ASSERT_PTR_NOT_NULL(strstr(pvmmon_error_last(), "byte 3"));
	CU_ASSERT_EQUAL(replay_dec_next(&d, &e), PVMMON_EPARSE);
	replay_dec_free(&d);
	replay_dec_init(&d, repeat_first, sizeof(repeat_first));
	CU_ASSERT_EQUAL(replay_dec_next(&d, &e), PVMMON_EPARSE);
	replay_dec_free(&d);
	replay_dec_init(&d, undefined, sizeof(undefined));
	CU_ASSERT_EQUAL(replay_dec_next(&d, &e), PVMMON_EPARSE);
	CU_ASSERT_PTR_NOT_NULL(strstr(pvmmon_error_last(), "byte 0"));
	replay_dec_free(&d);
	replay_dec_init(&d, long_varint, sizeof(long_varint));
	CU_ASSERT_EQUAL(replay_dec_next(&d, &e), PVMMON_EPARSE);
	replay_dec_free(&d);
	replay_dec_init(&d, bad_sender, sizeof(bad_sender));
	CU_ASSERT_EQUAL(replay_dec_next(&d, &e), PVMMON_EPARSE);
	CU_ASSERT_PTR_NOT_NULL(strstr(pvmmon_error_last(), "undefined sender"));
	replay_dec_free(&d);
	replay_dec_init(&d, delta_none, sizeof(delta_none));
	CU_ASSERT_EQUAL(replay_dec_next(&d, &e), PVMMON_EPARSE);
	replay_dec_free(&d);
	replay_dec_init(&d, NULL, 0);
	CU_ASSERT_EQUAL(replay_dec_next(&d, &e), 0);
	replay_dec_free(&d);
}

/* Tids 0x40001.. to their index, others to 100. */
static int32_t tid_to_index(void *ctx, int32_t id)
{
	(void)ctx;
	return id >= 0x40001 && id < 0x40001 + 50 ? id - 0x40001 : 100;
}

static void test_remap(void)
{
	replay_entry *v;
	wire_buf b, out;
	uint64_t count = 0;
	size_t n, senders_ok = 0, nmsg = 0;

	rng_seed(10);
	n = 5000;
	v = random_stream(n, 40, 4);
	encode_chunked(v, n, &b);
	CU_ASSERT_EQUAL_FATAL(replay_remap(b.data, b.len, tid_to_index, NULL, &out, &count), 0);
	CU_ASSERT_EQUAL(count, n);
	for (size_t i = 0; i < n; i++)
		if (v[i].kind == REPLAY_MSG || v[i].kind == REPLAY_HANDLED || v[i].kind == REPLAY_NOTIFY) {
			v[i].sender = tid_to_index(NULL, v[i].sender);
			/* A notify's named task is mapped like a sender. */
			if (v[i].kind == REPLAY_NOTIFY)
				v[i].value = tid_to_index(NULL, v[i].value);
			nmsg++;
			senders_ok += v[i].sender <= 100 && (v[i].kind != REPLAY_NOTIFY || v[i].value <= 100);
		}
	CU_ASSERT_EQUAL(senders_ok, nmsg);
	expect_stream(out.data, out.len, v, n);
	CU_ASSERT_EQUAL(replay_check(out.data, out.len, 101, &count), 0);
	CU_ASSERT_EQUAL(count, n);
	CU_ASSERT_EQUAL(replay_check(out.data, out.len, 100, &count), PVMMON_EPARSE);
	wire_buf_free(&out);
	/* A damaged stream is refused and leaves no output behind. */
	b.data[b.len - 1] = 0xff;
	CU_ASSERT_EQUAL(replay_remap(b.data, b.len, tid_to_index, NULL, &out, &count), PVMMON_EPARSE);
	CU_ASSERT_EQUAL(count, 0);
	wire_buf_free(&out);
	wire_buf_free(&b);
	free(v);
}

/*
 * Regression (found by tests/fuzz/fuzz_replay): each 6-byte counted repeat stands for
 * 2^32 - 1 entries, and replay_check and replay_remap walked them one by one, so a
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
	CU_ASSERT_EQUAL(replay_check(data, sizeof(data), 0, &n), 0);
	CU_ASSERT_EQUAL(n, want);
	n = 0;
	CU_ASSERT_EQUAL_FATAL(replay_remap(data, sizeof(data), tid_to_index, NULL, &out, &n), 0);
	CU_ASSERT_EQUAL(n, want);
	/* The rewritten stream holds the same entries, in about as few bytes. */
	CU_ASSERT(out.len <= sizeof(data) + 16);
	n = 0;
	CU_ASSERT_EQUAL(replay_check(out.data, out.len, 0, &n), 0);
	CU_ASSERT_EQUAL(n, want);
	wire_buf_free(&out);
}

static void test_base64(void)
{
	static const char *const vectors[][2] = {{"", ""},         {"f", "Zg=="},
						 {"fo", "Zm8="},     {"foo", "Zm9v"},
						 {"foob", "Zm9vYg=="}, {"fooba", "Zm9vYmE="},
						 {"foobar", "Zm9vYmFy"}};
	static const char *const bad[] = {"Zm9", "Zm=v", "Z===", "====", "Zm9v!A==", "=m9v",
					  "Zg==Zg==", "Zm 9", "Zg=A"};
	uint8_t data[300], *out;
	size_t len;

	for (size_t i = 0; i < sizeof(vectors) / sizeof(vectors[0]); i++) {
		char *s = replay_b64_encode((const uint8_t *)vectors[i][0], strlen(vectors[i][0]));

		CU_ASSERT_STRING_EQUAL(s, vectors[i][1]);
		free(s);
		CU_ASSERT_EQUAL_FATAL(replay_b64_decode(vectors[i][1], &out, &len), 0);
		CU_ASSERT_PTR_NOT_NULL(out);
		CU_ASSERT(len == strlen(vectors[i][0]) && !memcmp(out, vectors[i][0], len));
		free(out);
	}
	rng_seed(11);
	for (size_t n = 0; n < sizeof(data); n++) {
		char *s;

		for (size_t k = 0; k < n; k++)
			data[k] = (uint8_t)rng();
		s = replay_b64_encode(data, n);
		CU_ASSERT_EQUAL_FATAL(replay_b64_decode(s, &out, &len), 0);
		CU_ASSERT(len == n && !memcmp(out, data, n));
		free(out);
		free(s);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CU_ASSERT_EQUAL(replay_b64_decode(bad[i], &out, &len), PVMMON_EPARSE);
		CU_ASSERT_PTR_NULL(out);
	}
}

static void test_hash(void)
{
	uint8_t data[64];

	/* FNV-1a 64 reference values. */
	CU_ASSERT_EQUAL(replay_hash(NULL, 0), 0xcbf29ce484222325ULL);
	CU_ASSERT_EQUAL(replay_hash((const uint8_t *)"a", 1), 0xaf63dc4c8601ec8cULL);
	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(i * 7);
	uint64_t h = replay_hash(data, sizeof(data));
	for (size_t i = 0; i < sizeof(data); i++) {
		data[i] ^= 0x10;
		CU_ASSERT_NOT_EQUAL(replay_hash(data, sizeof(data)), h);
		data[i] ^= 0x10;
	}
	CU_ASSERT_EQUAL(replay_hash(data, sizeof(data)), h);
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
	    {PVMMON_EV_RECV, REPLAY_MSG, 0x40001, 5, 0, 0},
	    {PVMMON_EV_SEND, REPLAY_HANDLED, 0x40001, 7, 0, 12},
	    {PVMMON_EV_SEND, REPLAY_HANDLED, 0x40001, 7, 0, 12},
	    {PVMMON_EV_OTHER, REPLAY_HANDLED, 0x40002, 7, -1, 30},
	    {PVMMON_EV_RECV, REPLAY_NOTIFY, (int32_t)0x80000000, 5, 0, 0x40002},
	    {PVMMON_EV_RECV, REPLAY_MSG, 0x40001, 5, 0, 0},
	};
	/* The earlier format: define recv from 0x40001 with tag 5, then outcome 0 again. */
	static const uint8_t old[] = {0xe2, PVMMON_EV_RECV, REPLAY_MSG, 0x00, 0x82, 0x80, 0x20,
				      0x00, 0x0a, 0x00};
	static const uint8_t notify_delta[] = {0xe5, PVMMON_EV_RECV, REPLAY_NOTIFY, 0, 2, 0, 10, 4, 2};
	static const uint8_t defined[] = {0xe2, PVMMON_EV_RECV, REPLAY_HANDLED, 0, 2, 0, 10};
	size_t n = sizeof(v) / sizeof(v[0]);
	replay_entry e;
	replay_dec d;
	wire_buf b, out;
	uint64_t count;

	encode_chunked(v, n, &b);
	CU_ASSERT_FALSE(b.failed);
	expect_stream(b.data, b.len, v, n);
	CU_ASSERT_EQUAL_FATAL(replay_remap(b.data, b.len, tid_to_index, NULL, &out, &count), 0);
	CU_ASSERT_EQUAL(count, n);
	replay_dec_init(&d, out.data, out.len);
	for (size_t i = 0; i < n; i++) {
		CU_ASSERT_EQUAL(replay_dec_next(&d, &e), 1);
		CU_ASSERT_EQUAL(e.kind, v[i].kind);
		CU_ASSERT_EQUAL(e.sender, tid_to_index(NULL, v[i].sender));
		CU_ASSERT_EQUAL(e.value, v[i].kind == REPLAY_NOTIFY ? tid_to_index(NULL, v[i].value)
								     : v[i].value);
	}
	replay_dec_free(&d);
	wire_buf_free(&out);
	wire_buf_free(&b);
	replay_dec_init(&d, old, sizeof(old));
	CU_ASSERT_EQUAL(replay_dec_next(&d, &e), 1);
	CU_ASSERT(e.kind == REPLAY_MSG && e.sender == 0x40001 && e.tag == 5 && e.seq_delta == 0);
	CU_ASSERT_EQUAL(replay_dec_next(&d, &e), 1);
	CU_ASSERT(e.kind == REPLAY_MSG && e.sender == 0x40001 && e.tag == 5);
	CU_ASSERT_EQUAL(replay_dec_next(&d, &e), 0);
	replay_dec_free(&d);
	replay_dec_init(&d, notify_delta, sizeof(notify_delta));
	CU_ASSERT_EQUAL(replay_dec_next(&d, &e), PVMMON_EPARSE);
	replay_dec_free(&d);
	replay_dec_init(&d, defined, sizeof(defined));
	CU_ASSERT_EQUAL(replay_dec_next(&d, &e), PVMMON_EPARSE);
	replay_dec_free(&d);
}

CU_TestInfo test_replay_tests[] = {
    {"handler deliveries and notify messages; earlier streams still read", test_handled_and_notify},
    {"random streams round-trip across chunks", test_round_trips},
    {"full tables fall back to literals", test_table_overflow},
    {"MC-pi master: at most 2 bytes per receive", test_size_mc_pi},
    {"10^5 nrecv misses: at most 16 bytes", test_size_polling},
    {"spawn values", test_spawn_values},
    {"unused fields dropped, impossible entries refused", test_normalise_and_refuse},
    {"truncation at every byte: EPARSE or a prefix", test_truncation},
    {"random byte flips never crash", test_byte_flips},
    {"damage messages name the offset", test_damage_messages},
    {"remap senders", test_remap},
    {"huge repeats are counted, not walked", test_huge_repeats},
    {"base64 round trip and bad input", test_base64},
    {"hash", test_hash},
    CU_TEST_INFO_NULL,
};
