/*
 * Private to pvmmon: record and replay's messages: a task's record in chunks (RECORD),
 * the record a replayed task gets (REPLAYDATA), the tid of a logical id (LID, LIDTID),
 * the first divergence (DIVERGED) and a task stopped for a debugger (STOPPED). The
 * record's own bytes are common/replay.h's stream; these messages only carry them.
 */
#ifndef PVMMON_COMMON_WIRE_REPLAY_H
#define PVMMON_COMMON_WIRE_REPLAY_H

#include "wire_buf.h"

/* RECORD: the next bytes of a task's record stream. The bytes run to the message's
 * end, so an encoder may append them after encoding a chunk of len 0. */
typedef struct wire_rchunk {
	int32_t tid;         /* the sender: the monitor takes it only from that task */
	const uint8_t *data; /* after decode: points into the message */
	size_t len;
} wire_rchunk;

/* Bytes of a chunk before its data. */
#define WIRE_RCHUNK_HEAD (WIRE_HEAD + 4)
void wire__rchunk_encode(wire_buf *b, const wire_rchunk *c);
int wire__rchunk_decode(wire_rchunk *c, const uint8_t *data, size_t len);

/* REPLAYDATA: a replayed task's record, after its welcome. */
#define WIRE_LID_MAX 256
typedef struct wire_replaydata {
	uint8_t keep_going; /* --on-divergence=continue-recording */
	uint64_t stop_at;   /* --stop-at: the event to stop before (0: none) */
	uint32_t nsenders;
	char **senders;        /* the record's senders' logical ids (heap after decode) */
	const uint8_t *record; /* the record stream; after decode: into the message */
	size_t record_len;
} wire_replaydata;

void wire__replaydata_encode(wire_buf *b, const wire_replaydata *r);
int wire__replaydata_decode(wire_replaydata *r, const uint8_t *data, size_t len);
void wire__replaydata_clear(wire_replaydata *r);

/* LID: the tid in this run of a logical id? LIDTID answers once it registered. */
typedef struct wire_lid {
	char *lid; /* heap after decode, never NULL */
} wire_lid;

void wire__lid_encode(wire_buf *b, const wire_lid *l);
int wire__lid_decode(wire_lid *l, const uint8_t *data, size_t len);
void wire__lid_clear(wire_lid *l);

typedef struct wire_lidtid {
	int32_t tid;
} wire_lidtid;

void wire__lidtid_encode(wire_buf *b, const wire_lidtid *l);
int wire__lidtid_decode(wire_lidtid *l, const uint8_t *data, size_t len);

/* DIVERGED: the replay's first difference, at event index of the record. */
typedef struct wire_diverged {
	uint64_t index; /* events are counted from 1, as the user reads them */
	char *module;   /* the call site (NULL: unknown) */
	uint64_t offset;
	char *op;       /* the call, by its event op or name */
	char *expected; /* what the record says */
	char *observed; /* what the replay did */
} wire_diverged;

void wire__diverged_encode(wire_buf *b, const wire_diverged *d);
int wire__diverged_decode(wire_diverged *d, const uint8_t *data, size_t len);
void wire__diverged_clear(wire_diverged *d);

/* What a STOPPED message (task -> monitor, replay --stop-at) tells, its last byte. */
enum {
	WIRE_STOP_STOPPED = 0,   /* the task stops (SIGSTOP) before the event */
	WIRE_STOP_CONTINUED = 1, /* it was continued */
	WIRE_STOP_HOLDING = 2,   /* another task holds at a receive (WIRE_CTL_HOLD) */
};

/* STOPPED: a task stops for a debugger (--stop-at), was continued, or holds. */
typedef struct wire_stopped {
	uint64_t event; /* the recorded event it stops before */
	uint32_t pid;
	char *module; /* the call site (NULL: unknown) */
	uint64_t offset;
	uint8_t kind; /* WIRE_STOP_* */
} wire_stopped;

void wire__stopped_encode(wire_buf *b, const wire_stopped *s);
int wire__stopped_decode(wire_stopped *s, const uint8_t *data, size_t len);
void wire__stopped_clear(wire_stopped *s);

#endif
