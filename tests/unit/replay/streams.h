/* Private to the replay unit tests: deterministic streams and the checks they share. */
#ifndef PVMMON_TESTS_UNIT_REPLAY_STREAMS_H
#define PVMMON_TESTS_UNIT_REPLAY_STREAMS_H

#include <stddef.h>
#include <stdint.h>

#include "../../../replay/replay.h"

/* A small deterministic generator, so that every run tests the same streams. */
void unit_rng_seed(uint64_t s);
uint32_t unit_rng(void);
replay_entry unit_msg(uint8_t op, int32_t sender, int32_t tag, int32_t delta);
replay_entry unit_other(uint8_t op, replay_kind kind, int32_t value);
int unit_same_entry(const replay_entry *a, const replay_entry *b);
/* A random mix of every kind, with runs, many senders and an occasional delta (the
 * caller frees it). */
replay_entry *unit_random_stream(size_t n, uint32_t nsenders, uint32_t ntags);
/* Encodes v taking chunks at random points, concatenated into *out. */
void unit_encode_chunked(const replay_entry *v, size_t n, wire_buf *out);
/* Decodes data and checks it gives exactly v. */
void unit_expect_stream(const uint8_t *data, size_t len, const replay_entry *v, size_t n);
/* A small stream with every item form: definitions, references, deltas, repeats. */
void unit_small_stream(replay_entry **v, size_t *n, wire_buf *b);
/* Tids 0x40001.. to their index, others to 100 (a remap's map). */
int32_t unit_tid_to_index(void *ctx, int32_t id);

#endif
