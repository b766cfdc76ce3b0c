/* Private to replay/: the stream format's head bytes and the helpers the encoder and
 * the decoder share. */
/*
 * A record lists the outcomes of one task's nondeterministic calls in call order. Most
 * programs see a handful of distinct outcomes again and again (the same few senders
 * and tags, the same miss of a polling pvm_nrecv), so the stream keeps three tables
 * that the encoder and the decoder grow in step as definitions go by: senders, tags,
 * and outcomes (op, kind, sender index and tag index, or spawn value). An entry is
 * then usually one byte naming an outcome, and a run of equal entries is one repeat
 * item. Nothing is aligned and nothing is framed, so chunks taken from the encoder at
 * any point concatenate into one stream.
 *
 * A stream is a sequence of items, each starting with a head byte h:
 *
 *   0x00-0xBF       outcome h, seq_delta 0                              (1 byte)
 *   0xC0-0xDE       the previous entry again, h - 0xBF times (1..31)     (1 byte)
 *   0xDF n          the previous entry again, n times (n >= 1)
 *   0xE0 i          outcome i, seq_delta 0 (for i >= 0xC0)
 *   0xE1 i d        outcome i with seq_delta d (d != 0, a MSG outcome)
 *   0xE2 def        defines the next outcome and delivers it, seq_delta 0
 *   0xE3 def d      defines the next outcome and delivers it with seq_delta d
 *   0xE4 op kind .. a literal entry that changes no table: MSG sender, tag, seq_delta;
 *                   SPAWN value; nothing for NONE and TIMEOUT; HANDLED and NOTIFY
 *                   sender, tag, seq_delta, value. The encoder writes one only when a
 *                   table is full (REPLAY_TABLE_MAX) or out of memory.
 *   0xE5 op kind s t v d
 *                   a HANDLED or NOTIFY entry: sender reference s and tag reference t
 *                   (as in def), value v and seq_delta d (0 for NOTIFY). These entries
 *                   carry a value that differs from one to the next (a position, a
 *                   named task), so they never become table outcomes.
 *   0xE6 src d      a SOURCE entry (log version 1.5): the program read source src (a
 *                   replay_source) and got the source's previous reading in this stream
 *                   (0 before the first) plus d, a zigzag 64-bit varint: successive clock
 *                   readings differ by little, so a read is 3 to 5 bytes; equal readings
 *                   in a row (a pid, time() within a second) are repeat items.
 *   0xE7 op g s t v a GROUP entry (log version 1.9): the group call op (a
 *                   replay_group_op) on group g answered v; s is a task (-1: none) and t
 *                   an instance, as the op says (replay.h). g is 0 and the name (a length
 *                   n, 1..REPLAY_GROUP_NAME_MAX, and n bytes), appended to the stream's
 *                   group table while it holds fewer than REPLAY_GROUP_MAX names, or the
 *                   index of a name in it plus 1; s, t and v are zigzag varints. The same
 *                   answer again in a row (pvm_gsize polled) is a repeat item.
 *   0xE8-0xFF       reserved: damage
 *
 * Streams written before HANDLED and NOTIFY existed never contain 0xE5 and decode
 * unchanged; a decoder of that time reports 0xE5 as damage rather than misreading it.
 * The same holds for 0xE6 and decoders written before SOURCE entries, and for 0xE7 and
 * those written before GROUP entries (whose streams record a join's instance as a
 * SPAWN outcome of PVMMON_EV_JOINGROUP, which later decoders still read).
 *
 * def is op (1 byte, a pvmmon_event_op), kind (1 byte, a replay_kind) and then, for
 * MSG, a sender reference and a tag reference, for SPAWN the value, for NONE and
 * TIMEOUT nothing. A reference r is 0 for a new table entry (its zigzag value follows
 * and it is appended to the table) or the index of an existing one plus 1.
 *
 * Numbers (n, i, r) are unsigned LEB128 varints of at most 5 bytes holding at most
 * 2^32 - 1; signed values (ids, tags, deltas, spawn values) are zigzag-mapped first.
 *
 * Costs: a Monte Carlo pi master receiving from 8 workers with 2 tags has 16 outcomes,
 * so 1 byte per receive after 16 definitions of 4 to 10 bytes each (the unit test
 * measures just under 1.0 byte/entry, repeats included); 10^5 pvm_nrecv misses in a
 * row are a 3-byte definition and a 4-byte repeat.
 */
#ifndef PVMMON_REPLAY_CODEC_H
#define PVMMON_REPLAY_CODEC_H

#include <stdint.h>

#include "replay.h"

enum {
	H_OUTCOME_MAX = 0xbf, /* last one-byte outcome reference */
	H_REPEAT_MIN = 0xc0,  /* one-byte repeats: 0xc0 = once ... 0xde = 31 times */
	H_REPEAT_N = 0xdf,
	H_OUTCOME = 0xe0,
	H_OUTCOME_DELTA = 0xe1,
	H_DEFINE = 0xe2,
	H_DEFINE_DELTA = 0xe3,
	H_LITERAL = 0xe4,
	H_EXTENDED = 0xe5,
	H_SOURCE = 0xe6,
	H_GROUP = 0xe7,
};
#define REPEAT_SHORT (H_REPEAT_N - H_REPEAT_MIN) /* 31: the longest one-byte repeat */

/* Whether a stream can hold an outcome of this kind for this call (encode.c). */
int replay__valid(unsigned op, int kind);

static inline uint32_t zigzag(int32_t v) { return ((uint32_t)v << 1) ^ (uint32_t)(v >> 31); }

static inline int32_t unzigzag(uint32_t u) { return (int32_t)((u >> 1) ^ (0u - (u & 1))); }

static inline uint64_t zigzag64(int64_t v) { return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63); }

static inline int64_t unzigzag64(uint64_t u) { return (int64_t)((u >> 1) ^ (0ull - (u & 1))); }

#endif
