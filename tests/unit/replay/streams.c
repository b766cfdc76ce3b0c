/* The replay unit tests' shared streams: a generator, chunked encoding, checks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "pvmmon/errors.h"
#include "pvmmon/log.h"
#include "streams.h"

static uint64_t rng_state;

void unit_rng_seed(uint64_t s) { rng_state = s * 2654435761u + 1; }

uint32_t unit_rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint32_t)(rng_state >> 11);
}

replay_entry unit_msg(uint8_t op, int32_t sender, int32_t tag, int32_t delta)
{
	replay_entry e = {op, REPLAY_MSG, sender, tag, delta, 0, 0, NULL};

	return e;
}

replay_entry unit_other(uint8_t op, replay_kind kind, int32_t value)
{
	replay_entry e = {op, kind, 0, 0, 0, value, 0, NULL};

	return e;
}

int unit_same_entry(const replay_entry *a, const replay_entry *b)
{
	return a->op == b->op && a->kind == b->kind && a->sender == b->sender && a->tag == b->tag &&
	       a->seq_delta == b->seq_delta && a->value == b->value && a->reading == b->reading &&
	       (a->group == b->group || (a->group && b->group && !strcmp(a->group, b->group)));
}

/* A random mix of every kind, with runs, many senders and an occasional delta. */
replay_entry *unit_random_stream(size_t n, uint32_t nsenders, uint32_t ntags)
{
	static const uint8_t msg_ops[] = {PVMMON_EV_RECV, PVMMON_EV_NRECV, PVMMON_EV_TRECV,
	                                  PVMMON_EV_PRECV, PVMMON_EV_PROBE};
	replay_entry *v = calloc(n, sizeof(*v));
	size_t i = 0;

	while (i < n) {
		uint32_t r = unit_rng() % 100;
		replay_entry e;
		size_t run = unit_rng() % 8 == 0 ? 1 + unit_rng() % 300 : 1;

		if (r < 70)
			e = unit_msg(
			    msg_ops[unit_rng() % 5],
			    (int32_t)(0x40000 + unit_rng() % nsenders) * (unit_rng() % 9 ? 1 : -1),
			    (int32_t)(unit_rng() % ntags) - 2,
			    unit_rng() % 10 == 0 ? (int32_t)(unit_rng() % 2000) - 1000 : 0);
		else if (r < 80)
			e = unit_other(unit_rng() % 2 ? PVMMON_EV_NRECV : PVMMON_EV_PROBE,
			               REPLAY_NONE, 0);
		else if (r < 85)
			e = unit_other(PVMMON_EV_TRECV, REPLAY_TIMEOUT, 0);
		else if (r < 90)
			e = unit_other(PVMMON_EV_SPAWN, REPLAY_SPAWN,
			               (int32_t)(unit_rng() % 40) - 8);
		else if (r < 95) {
			/* A handler delivery at a growing position, during any kind of call. */
			static const uint8_t in[] = {PVMMON_EV_SEND, PVMMON_EV_RECV,
			                             PVMMON_EV_OTHER, PVMMON_EV_JOINGROUP};
			e = unit_msg(in[unit_rng() % 4], (int32_t)(0x40000 + unit_rng() % nsenders),
			             (int32_t)(unit_rng() % ntags) - 2,
			             unit_rng() % 10 == 0 ? -1 : 0);
			e.kind = REPLAY_HANDLED;
			e.value = (int32_t)(i * 3 + unit_rng() % 3);
		} else if (r < 97) {
			/* A clock or pid read: clocks that move on, a pid that stays. */
			static const uint8_t src[] = {REPLAY_SRC_GETTIMEOFDAY, REPLAY_SRC_TIME,
			                              REPLAY_SRC_GETPID, REPLAY_SRC_CLOCK + 1};
			static int64_t t = 1700000000000000;
			e = unit_other(src[unit_rng() % 4], REPLAY_SOURCE, 0);
			t += unit_rng() % 5000;
			e.reading = e.op == REPLAY_SRC_GETPID ? 4242
			            : e.op == REPLAY_SRC_TIME ? t / 1000000
			                                      : t;
		} else {
			e = unit_msg(unit_rng() % 2 ? PVMMON_EV_RECV : PVMMON_EV_TRECV,
			             (int32_t)0x80000000, (int32_t)(unit_rng() % ntags), 0);
			e.kind = REPLAY_NOTIFY;
			e.value = (int32_t)(0x40000 + unit_rng() % nsenders);
		}
		for (; run > 0 && i < n; run--)
			v[i++] = e;
	}
	return v;
}

/* Encodes v taking chunks at random points, concatenated into *out. */
void unit_encode_chunked(const replay_entry *v, size_t n, wire_buf *out)
{
	replay_enc e;

	replay__enc_init(&e);
	wire__buf_init(out);
	for (size_t i = 0; i < n; i++) {
		CU_ASSERT_EQUAL_FATAL(replay__enc_add(&e, &v[i]), 0);
		if (unit_rng() % 997 == 0)
			CU_ASSERT_EQUAL(replay__enc_take(&e, out), 0);
	}
	CU_ASSERT_EQUAL(replay__enc_take(&e, out), 0);
	/* A take with nothing new adds nothing. */
	size_t len = out->len;
	CU_ASSERT_EQUAL(replay__enc_take(&e, out), 0);
	CU_ASSERT_EQUAL(out->len, len);
	replay__enc_free(&e);
}

/* Decodes data and checks it gives exactly v. */
void unit_expect_stream(const uint8_t *data, size_t len, const replay_entry *v, size_t n)
{
	replay_dec d;
	replay_entry got;
	size_t i = 0, bad = 0;
	int rc;

	replay__dec_init(&d, data, len);
	while ((rc = replay__dec_next(&d, &got)) == 1) {
		if (i >= n || !unit_same_entry(&got, &v[i]))
			bad++;
		i++;
	}
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_EQUAL(i, n);
	CU_ASSERT_EQUAL(bad, 0);
	replay__dec_free(&d);
}

/* A small stream with every item form: definitions, references, deltas, repeats. */
void unit_small_stream(replay_entry **v, size_t *n, wire_buf *b)
{
	unit_rng_seed(8);
	*n = 400;
	*v = unit_random_stream(*n, 5, 3);
	unit_encode_chunked(*v, *n, b);
}

/* Tids 0x40001.. to their index, others to 100. */
int32_t unit_tid_to_index(void *ctx, int32_t id)
{
	(void)ctx;
	return id >= 0x40001 && id < 0x40001 + 50 ? id - 0x40001 : 100;
}
