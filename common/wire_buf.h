/*
 * Private to pvmmon: the framing every message between tasks, the monitor and pvmmon
 * commands shares: the tags (generated from common/wire_tags.def), the version header,
 * the byte buffer and cursor the codecs write and read, and the critical-path tuple
 * several messages carry. Everything is little-endian with explicit widths, so a
 * message means the same on every host, and every decoder checks bounds so that a
 * damaged message is rejected, never trusted.
 */
#ifndef PVMMON_COMMON_WIRE_BUF_H
#define PVMMON_COMMON_WIRE_BUF_H

#include <stddef.h>
#include <stdint.h>

/*
 * Version of the encodings. Every message starts with it as a u32 (the piggyback, which
 * trails user messages, in its own header): a task and a monitor of different builds
 * refuse each other's messages instead of misreading them. 7: every message has it. 8: a
 * wait report counts every message queued from its source. 9: records carry the
 * virtual time's uncertainty and what was clamped, sites their throttling. 10: records
 * carry time histograms; preserve mode's reports carry the task's transmission floor and
 * its own decisions, grants the other tasks' bounds, piggybacks preserve mode's flags,
 * and PBLOCK is new. 11: records say which clock the task read (TSC or CLOCK_MONOTONIC). 12: the
 * cost record carries the calibration's re-checks, preserve mode's reports the task's uncertainty.
 * 13: block notices carry the sender's send count on its host's board. 14: CALIB is new,
 * welcomes carry the host's calibration and cost records the task it came from. 15: a
 * registration names the process's earlier tid (it enrolled again after pvm_exit), and
 * FATAL's signal 0 is an exit without pvm_exit;
 * FINDING is new, registrations carry the main program's path, piggybacks may carry
 * the message's pack signature. 16: a preserve report may record a
 * receive the task decided itself (traced runs); block notices say whether
 * the receive takes messages from any source and whether the sender has exchanged
 * messages with any other task. 17: a preserve report's sent counts carry the virtual
 * send time of each partner's first message since the previous report. 18: trace
 * events say what nondeterministic receives asked for. 19: a preserve report says whom
 * the task may address (wire_pwait.reach), grants who may address the requester; the
 * welcome carries the sampling rate, and `pvmmon ctl sample` is a control command.
 * 20: a block notice may say its sender waits elsewhere (wire_pblock.away), which a
 * task asks for with PWATCH. 21: statement records carry the online wait analysis's
 * indirect waits and propagated delay, and a flush may end with its table (blames).
 * 22: a flush may carry only the proc and loop records that changed (a delta, with
 * their indices), and carries the static tables once.
 */
#define WIRE_VERSION 22
/* Bytes of the header every tagged message starts with. */
#define WIRE_HEAD 4

/* Message tags in the private context between tasks and the monitor. They sit far
 * above the tags programs use, and the monitor never sends user messages, so a
 * piggyback (same tag as its user message, from the user task) cannot be confused
 * with a control message (from or to the monitor). */
enum {
#define WIRE_TAG(name, value, from, to, codec, family) WIRE_TAG_##name = value,
#include "wire_tags.def"
#undef WIRE_TAG
};

/* Each kind's dense index, for tables indexed by kind (wire__tag_kind). */
typedef enum wire_kind {
	WIRE_KIND_NONE = -1, /* a tag that is none of pvmmon's */
#define WIRE_TAG(name, value, from, to, codec, family) WIRE_KIND_##name,
#include "wire_tags.def"
#undef WIRE_TAG
	WIRE_NKINDS
} wire_kind;

/* Who sends a kind, and who receives it. */
typedef enum wire_party {
	WIRE_PARTY_NONE = -1, /* a tag that is none of pvmmon's */
	WIRE_PARTY_TASK,
	WIRE_PARTY_MONITOR,
	WIRE_PARTY_CLI,
	WIRE_PARTY_PVMD,
} wire_party;

/* The kind of a tag, or WIRE_KIND_NONE for a tag that is none of pvmmon's. */
int wire__tag_kind(int tag);
/* The tag of a kind (0 for an index out of range). */
int wire__kind_tag(int kind);
/* "REGISTER", ..., or "an unknown tag". */
const char *wire__tag_name(int tag);
/* The sender of a tag's messages (a wire_party); WIRE_PARTY_NONE for an unknown tag. */
int wire__tag_from(int tag);
/*
 * Decodes a message of tag and frees what the decoding made: 0 when it is well formed,
 * else a negative PVMMON_E* code (PVMMON_EINVAL for an unknown tag; 0 for pvmd's
 * messages, which pvmd packs). The table from tag to decoder, for tests and fuzzing.
 */
int wire__tag_check(int tag, const uint8_t *data, size_t len);

/* A growable output buffer. */
typedef struct wire_buf {
	uint8_t *data;
	size_t len, cap;
	int failed; /* set when an allocation failed; later puts do nothing */
} wire_buf;

/* A bounds-checked input cursor over bytes it does not own. */
typedef struct wire_in {
	const uint8_t *p;
	size_t left;
	int failed; /* set on the first read past the end */
} wire_in;

void wire__buf_init(wire_buf *b);
void wire__buf_reset(wire_buf *b);
void wire__buf_free(wire_buf *b);
void wire__put_u8(wire_buf *b, uint8_t v);
void wire__put_u32(wire_buf *b, uint32_t v);
void wire__put_u64(wire_buf *b, uint64_t v);
void wire__buf_append(wire_buf *b, const void *data, size_t n);
/* Strings travel as u32 length (0xffffffff for NULL) and bytes. */
void wire__put_str(wire_buf *b, const char *s);

void wire__in_init(wire_in *in, const void *data, size_t len);
uint8_t wire__get_u8(wire_in *in);
uint32_t wire__get_u32(wire_in *in);
uint64_t wire__get_u64(wire_in *in);
/* Returns a heap copy (caller frees) or NULL for a NULL string or on error (then
 * in->failed is set, except for a genuine NULL). Strings longer than max fail. */
char *wire__get_str(wire_in *in, size_t max);

/* The header of every tagged message (WIRE_VERSION). */
void wire__head_put(wire_buf *b);
/* Reads the header: 0, PVMMON_EPARSE when too short, PVMMON_EVERSION when another
 * build's; what names the message in the error. */
int wire__head_get(wire_in *in, const char *what);

/*
 * A task's critical-path tuple (seed 003 Figures 3 and 5) for n selected procedures,
 * in virtual ns: the longest path ending at the task's last event and each procedure's
 * share of it, and for critical-path zeroing, per procedure k, the path whose length
 * minus k's share is longest (zlong[k]) with k's share of that path (zshare[k]).
 */
#define WIRE_CP_MAX 32
typedef struct wire_cp {
	int on;       /* the sender collects critical-path data; the rest is valid */
	uint32_t gen; /* the selection it was collected for */
	uint32_t n;   /* selected procedures */
	int64_t longest;
	int64_t share[WIRE_CP_MAX];
	int64_t zlong[WIRE_CP_MAX];
	int64_t zshare[WIRE_CP_MAX];
} wire_cp;

/* The largest tuple's encoding. */
#define WIRE_PB_CP_MAX (1 + 4 + 4 + 8 + 24 * WIRE_CP_MAX)
/* Bytes of the encoding of a tuple with n procedures (1 when it is off). */
size_t wire__cp_size(const wire_cp *cp);
void wire__cp_put(wire_buf *b, const wire_cp *cp);
/* Reads a tuple; on damage in->failed is set and *cp is off. */
void wire__cp_get(wire_in *in, wire_cp *cp);

/*
 * For the codecs (common/wire_*.c) only: the bounds every decoder applies and the
 * helpers the family files share.
 */

/* Strings and item counts above these sizes are damage, not data. */
#define WIRE_MAX_STR 4096
#define WIRE_MAX_ITEMS (1u << 20)

static inline void wire__store32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static inline void wire__store64(uint8_t *p, uint64_t v)
{
	wire__store32(p, (uint32_t)v);
	wire__store32(p + 4, (uint32_t)(v >> 32));
}

static inline uint32_t wire__load32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t wire__load64(const uint8_t *p)
{
	return (uint64_t)wire__load32(p) | (uint64_t)wire__load32(p + 4) << 32;
}

static inline void wire__put_i64(wire_buf *b, int64_t v) { wire__put_u64(b, (uint64_t)v); }

static inline int64_t wire__get_i64(wire_in *in) { return (int64_t)wire__get_u64(in); }

/* A u8 that must be 0 or 1 (a flag): anything else marks the input damaged. */
static inline uint8_t wire__get_flag(wire_in *in)
{
	uint8_t v = wire__get_u8(in);

	if (v > 1)
		in->failed = 1;
	return v;
}

/* Reads an item count and allocates that many zeroed items of size bytes, each of
 * which takes at least min encoded bytes; NULL with failed set on damage. A count of 0
 * gives NULL without failure. */
void *wire__get_array(wire_in *in, size_t *n, size_t size, size_t min);

/* The tuple's bytes into p (wire__cp_size(cp) of them); returns the end. */
uint8_t *wire__cp_store(uint8_t *p, const wire_cp *cp);
/* Reads a tuple from len bytes at p; the bytes used, or 0 when damaged. */
size_t wire__cp_load(const uint8_t *p, size_t len, wire_cp *cp);

/* The end of a decoding: PVMMON_EPARSE (what is damaged) unless the input was read
 * exactly to its end without failure. */
int wire__done(const wire_in *in, const char *what);

#endif
