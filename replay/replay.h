/*
 * Private to pvmmon: the compact streaming encoding of a task's replay record, the
 * outcomes of its nondeterministic PVM calls in call order (record and replay). The
 * encoding itself is described in replay/codec.h.
 */
#ifndef PVMMON_REPLAY_REPLAY_H
#define PVMMON_REPLAY_REPLAY_H

#include <stddef.h>
#include <stdint.h>

#include "../common/wire.h"

/* The most distinct senders, tags and outcomes a stream's tables may hold; a stream
 * that defines more is damaged (the encoder falls back to literal entries instead). */
#define REPLAY_TABLE_MAX 65536

typedef enum replay_kind {
	REPLAY_MSG = 1, /* the call delivered (or, for pvm_probe, found) a message */
	REPLAY_NONE,    /* pvm_nrecv / pvm_probe found nothing */
	REPLAY_TIMEOUT, /* pvm_trecv timed out */
	REPLAY_SPAWN,   /* pvm_spawn started `value` children */
	REPLAY_HANDLED, /* a pvm_addmhf handler took a message (sender, tag, seq_delta) when
	                 * the task had begun `value` wrapped calls; op is the call it was in */
	REPLAY_NOTIFY,  /* the call delivered a pvmd notify message (from sender, with tag)
	                 * whose first integer, a tid, is `value` (an id like sender) */
	REPLAY_SOURCE,  /* the program read a per-run value through the C library (a clock,
	                 * its pid): op is a replay_source, the value is `reading` */
	REPLAY_GROUP,   /* a group call's answer (libgpvm3): op is a replay_group_op, the
	                 * group is `group`, the answer `value`, a task in it `sender` */
} replay_kind;

/*
 * The group calls a REPLAY_GROUP entry names in its op, with what it holds. value is
 * the call's result (an instance, a size, or a negative PVM error code); sender is a
 * task id like a message's sender (-1: none), tag the instance asked about.
 */
typedef enum replay_group_op {
	REPLAY_GRP_JOIN = 1, /* pvm_joingroup: value the instance it gave */
	REPLAY_GRP_LEAVE,    /* pvm_lvgroup: value its result */
	REPLAY_GRP_GETTID,   /* pvm_gettid(group, tag): sender the task (or -1, value the
	                      * error) */
	REPLAY_GRP_GETINST,  /* pvm_getinst(group, sender): value the instance */
	REPLAY_GRP_GSIZE,    /* pvm_gsize: value the size */
	REPLAY_GRP_END,
} replay_group_op;

/* A stream's most distinct group names, and the longest one, in bytes; a stream with
 * more or longer is damaged (the encoder refuses such an entry). */
#define REPLAY_GROUP_MAX 4096
#define REPLAY_GROUP_NAME_MAX 1024

/* The call a group entry's op names ("pvm_gettid"), "?" for none. */
const char *replay__group_call(unsigned op);

/* The per-run sources a REPLAY_SOURCE entry names in its op, with the unit of its
 * reading. clock_gettime is REPLAY_SRC_CLOCK + the clock id (nanoseconds). */
typedef enum replay_source {
	REPLAY_SRC_GETTIMEOFDAY = 1, /* microseconds since the epoch */
	REPLAY_SRC_TIME,             /* seconds since the epoch */
	REPLAY_SRC_GETPID,
	REPLAY_SRC_GETPPID,
	REPLAY_SRC_GETRANDOM,    /* the count of bytes getrandom gave; its bytes follow */
	REPLAY_SRC_RANDOM_BYTES, /* 8 of those bytes (fewer at the end), little-endian */
	REPLAY_SRC_CLOCK = 16,   /* + clockid_t 0..15: nanoseconds of that clock */
	REPLAY_SRC_END = 32,
} replay_source;

/* The C library call a source is read by, for reports ("clock_gettime(CLOCK_REALTIME)");
 * "?" for no source. */
const char *replay__source_name(unsigned op);

/*
 * One recorded outcome. Fields a kind does not use (sender, tag and seq_delta outside
 * REPLAY_MSG and REPLAY_HANDLED, sender and tag outside REPLAY_NOTIFY too, value outside
 * REPLAY_SPAWN, REPLAY_HANDLED and REPLAY_NOTIFY) are not encoded and decode as 0.
 */
typedef struct replay_entry {
	uint8_t op; /* the call, as a pvmmon_event_op value: PVMMON_EV_RECV, NRECV,
	             * TRECV, PRECV, PROBE (MSG, NONE, TIMEOUT) or SPAWN (SPAWN) */
	replay_kind kind;
	int32_t sender;    /* REPLAY_MSG: who sent it, an id chosen by the caller (a tid when
	                    * a task records; an index into the log's sender table in a log) */
	int32_t tag;       /* REPLAY_MSG: its tag */
	int32_t seq_delta; /* REPLAY_MSG: its per-pair sequence number minus the one expected
	                    * next from that sender; 0 in the common case */
	int32_t value;     /* REPLAY_SPAWN: children started (negative: a PVM error code);
	                    * REPLAY_HANDLED: the position (wrapped calls begun); REPLAY_NOTIFY:
	                    * the task the notify names, an id like sender */
	int64_t reading;   /* REPLAY_SOURCE: what the call returned (its unit is the source's) */
	const char *group; /* REPLAY_GROUP: the group's name; a decoded entry's points into
	                    * the decoder's table (valid until replay__dec_free) */
} replay_entry;

/* Maps 64-bit keys to table indices (open addressing); private to replay/encode.c. */
typedef struct replay_map {
	uint64_t *keys;
	uint32_t *vals; /* index + 1; 0 marks an empty slot */
	size_t cap, used;
} replay_map;

/* The streaming encoder. Its tables and its last entry persist across chunks. */
typedef struct replay_enc {
	wire_buf out;        /* bytes encoded since the last replay__enc_take() */
	replay_map senders;  /* sender id -> index in the stream's sender table */
	replay_map tags;     /* tag -> index in the stream's tag table */
	replay_map outcomes; /* (op, kind, sender index, tag index | value) -> index */
	uint32_t nsenders, ntags, noutcomes;
	replay_entry prev; /* the last entry added (valid when have_prev) */
	int have_prev;
	uint32_t pending;             /* repeats of prev not yet written */
	int failed;                   /* an allocation failed: the stream is lost */
	int64_t last[REPLAY_SRC_END]; /* each source's last reading: the next is a delta */
	char **groups;                /* the group names defined so far, in order */
	uint32_t ngroups;
	char *scratch; /* the last group entry's name when the table had no room for it */
} replay_enc;

void replay__enc_init(replay_enc *e);
void replay__enc_free(replay_enc *e);
/* Appends an entry; PVMMON_EINVAL for an entry no stream can hold (bad op or kind, a
 * group entry without a name or with one longer than REPLAY_GROUP_NAME_MAX),
 * PVMMON_ENOMEM when an allocation failed (the encoder is then unusable). */
int replay__enc_add(replay_enc *e, const replay_entry *ent);
/* Adds n more repeats of the entry added last (PVMMON_EINVAL when there is none), as
 * n calls of replay__enc_add() with it would, without walking them one by one. */
int replay__enc_repeat(replay_enc *e, uint64_t n);
/*
 * Moves the bytes encoded so far (a chunk) out to b (appended), keeping the state, so
 * that chunks concatenated in order decode as one stream; flushes a pending repeat
 * first. PVMMON_ENOMEM (and b->failed set) when the encoder or b ran out of memory.
 */
int replay__enc_take(replay_enc *e, wire_buf *b);

/* A decoder over a whole stream it does not own. */
typedef struct replay_dec {
	const uint8_t *data;
	size_t len, pos;
	replay_entry *outcomes; /* the stream's tables as defined so far */
	int32_t *senders, *tags;
	uint32_t noutcomes, nsenders, ntags;
	uint32_t cap_outcomes, cap_senders, cap_tags;
	replay_entry prev;
	int have_prev;
	uint64_t pending;             /* repeats of prev still to deliver */
	int failed;                   /* the error code once the stream was found damaged */
	int64_t last[REPLAY_SRC_END]; /* each source's last reading */
	char **groups;                /* the group names defined so far */
	uint32_t ngroups;
	char *scratch; /* the last group item's name when the table had no room for it */
} replay_dec;

void replay__dec_init(replay_dec *d, const uint8_t *data, size_t len);
/*
 * The next entry into *out: 1, 0 at the end, or PVMMON_EPARSE (with a message naming
 * the byte offset) when the stream is damaged, and PVMMON_ENOMEM; an error is sticky.
 * Never reads out of bounds; the tables grow only with definitions actually read.
 */
int replay__dec_next(replay_dec *d, replay_entry *out);
void replay__dec_free(replay_dec *d);

/*
 * Rewrites a stream, mapping each sender id (and each notify's named task, and each
 * task a group entry names) through
 * map(ctx, id) (e.g. tid -> index into a table of logical ids); the new stream goes into *out
 * (initialised here, the caller frees it, also on failure) and the entry count into *nentries.
 */
int replay__remap(const uint8_t *data, size_t len, int32_t (*map)(void *ctx, int32_t id), void *ctx,
                  wire_buf *out, uint64_t *nentries);

/*
 * Decodes a whole stream to count its entries into *nentries; PVMMON_EPARSE when it is
 * damaged or a message's sender (or a notify's named task) is not an index below
 * nsenders (a log's sender table).
 */
int replay__check(const uint8_t *data, size_t len, size_t nsenders, uint64_t *nentries);

/* Base64 (RFC 4648 with padding, no line breaks), for the XML log; NULL when out of
 * memory. The caller frees the result. */
char *replay__b64_encode(const uint8_t *data, size_t len);
/* Decodes text into *out (heap, caller frees; non-NULL even when empty) and *len;
 * PVMMON_EPARSE on a bad character, padding or length. */
int replay__b64_decode(const char *text, uint8_t **out, size_t *len);

/* A 64-bit FNV-1a hash of the stream, to detect a damaged or swapped record. */
uint64_t replay__hash(const uint8_t *data, size_t len);

#endif
