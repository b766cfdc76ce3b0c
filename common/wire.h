/*
 * Private to pvmmon: the byte encodings that cross PVM between tasks and the monitor:
 * the trailing piggyback record, registration, and record flushes. Everything is
 * little-endian with explicit widths, so a record means the same on every host, and
 * every decoder checks bounds so that a damaged message is rejected, never trusted.
 */
#ifndef PVMMON_COMMON_WIRE_H
#define PVMMON_COMMON_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "pvmmon/log.h"

/* Version of the piggyback and control encodings; a mismatch is counted, not used. */
#define WIRE_VERSION 6

/* Message tags in the private context between tasks and the monitor. They sit far
 * above the tags programs use, and the monitor never sends user messages, so a
 * piggyback (same tag as its user message, from the user task) cannot be confused
 * with a control message (from or to the monitor). */
enum {
	WIRE_TAG_REGISTER = 0x7e5a0001, /* task -> monitor */
	WIRE_TAG_WELCOME = 0x7e5a0002,  /* monitor -> task, answers REGISTER */
	WIRE_TAG_SPAWNED = 0x7e5a0003,  /* task -> monitor: children of a pvm_spawn */
	WIRE_TAG_QUERY = 0x7e5a0004,    /* task -> monitor: is tid X monitored? */
	WIRE_TAG_ANSWER = 0x7e5a0005,   /* monitor -> task */
	WIRE_TAG_RECORDS = 0x7e5a0006,  /* task -> monitor: a flush of its records */
	WIRE_TAG_TASKEXIT = 0x7e5a0007, /* pvmd -> monitor: pvm_notify of a task's exit */
	WIRE_TAG_TRACE = 0x7e5a0008,    /* task -> monitor: a chunk of traced events */
	WIRE_TAG_CPSAMPLE = 0x7e5a0009, /* task -> monitor: its critical-path tuple */
	WIRE_TAG_CTL = 0x7e5a000a,      /* monitor -> task: a command (wire_ctl) */
	WIRE_TAG_STATUS = 0x7e5a000b,   /* pvmmon command -> monitor: a request (wire_ctl) */
	WIRE_TAG_SNAPSHOT = 0x7e5a000c, /* monitor -> pvmmon command: the answer */
	WIRE_TAG_RECORD = 0x7e5a000d,   /* task -> monitor: a chunk of its replay record */
	WIRE_TAG_REPLAYDATA = 0x7e5a000e, /* monitor -> task: its record, to replay */
	WIRE_TAG_LID = 0x7e5a000f,      /* task -> monitor: the tid of a logical id? */
	WIRE_TAG_LIDTID = 0x7e5a0010,   /* monitor -> task: the answer, once it registered */
	WIRE_TAG_DIVERGED = 0x7e5a0011, /* task -> monitor: the replay's first difference */
	WIRE_TAG_STOPPED = 0x7e5a0012,  /* task -> monitor: stopped for a debugger (--stop-at) */
	WIRE_TAG_MONLOST = 0x7e5a0013,  /* pvmd -> task: pvm_notify of the monitor's exit */
	WIRE_TAG_PWAIT = 0x7e5a0014,    /* task -> monitor: preserve mode's request or report */
	WIRE_TAG_PGRANT = 0x7e5a0015,   /* monitor -> task: the decision on a request */
	WIRE_TAG_PASK = 0x7e5a0016,     /* monitor -> task: report your state */
	WIRE_TAG_CLOCK = 0x7e5a0017,    /* task -> monitor: its clock offset estimate */
	WIRE_TAG_CLOCKSET = 0x7e5a0018, /* monitor -> task: the offset its host uses */
};

/* Commands from the monitor to tasks, and requests of pvmmon commands to the monitor. */
typedef enum wire_ctl_cmd {
	WIRE_CTL_CP_START = 1, /* start critical-path collection with a selection */
	WIRE_CTL_CP_STOP = 2,  /* stop it (and send a last sample) */
	WIRE_CTL_SNAPSHOT = 3, /* (request) the run so far, as log XML */
	WIRE_CTL_ENABLE = 4,   /* switch on the probe sites of the resource in procs */
	WIRE_CTL_DISABLE = 5,  /* switch them off */
	WIRE_CTL_STMT = 6,     /* switch the records of statement `gen` on (exclusive 1)
				* or off (0): the monitor resolves statements to lines */
	WIRE_CTL_HOLD = 7,     /* replay: hold at the next receive (a task is stopped for a
				* debugger, --stop-at) */
	WIRE_CTL_RELEASE = 8,  /* go on (the stopped task was continued) */
} wire_ctl_cmd;

/* What a STOPPED message (task -> monitor, replay --stop-at) tells, its last byte. */
enum {
	WIRE_STOP_STOPPED = 0,   /* the task stops (SIGSTOP) before the event */
	WIRE_STOP_CONTINUED = 1, /* it was continued */
	WIRE_STOP_HOLDING = 2,   /* another task holds at a receive (WIRE_CTL_HOLD) */
};

typedef struct wire_ctl {
	wire_ctl_cmd cmd;
	uint32_t gen;   /* CP_START: the selection's generation (tuples of another one are
			 * not merged) */
	int exclusive;  /* CP_START */
	char *procs;    /* CP_START: comma-separated selection (heap after decode);
			 * ENABLE, DISABLE: the resource (common/resource.h) */
	uint64_t token; /* requests of pvmmon commands: the run's token (from LOG.run) */
} wire_ctl;

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

void wire_buf_init(wire_buf *b);
void wire_buf_reset(wire_buf *b);
void wire_buf_free(wire_buf *b);
void wire_put_u8(wire_buf *b, uint8_t v);
void wire_put_u32(wire_buf *b, uint32_t v);
void wire_put_u64(wire_buf *b, uint64_t v);
/* Strings travel as u32 length (0xffffffff for NULL) and bytes. */
void wire_put_str(wire_buf *b, const char *s);

void wire_in_init(wire_in *in, const void *data, size_t len);
uint8_t wire_get_u8(wire_in *in);
uint32_t wire_get_u32(wire_in *in);
uint64_t wire_get_u64(wire_in *in);
/* Returns a heap copy (caller frees) or NULL for a NULL string or on error (then
 * in->failed is set, except for a genuine NULL). Strings longer than max fail. */
char *wire_get_str(wire_in *in, size_t max);

/* Bytes of the encoding of a tuple with n procedures (1 when it is off). */
size_t wire_cp_size(const wire_cp *cp);
void wire_cp_put(wire_buf *b, const wire_cp *cp);
/* Reads a tuple; on damage in->failed is set and *cp is off. */
void wire_cp_get(wire_in *in, wire_cp *cp);

/* The trailing piggyback record that follows every user message. */
#define WIRE_PB_MAGIC 0x504du /* "PM" */
#define WIRE_PB_MAX_DESTS 65536
#define WIRE_PB_HEADER 56

typedef struct wire_piggyback {
	uint32_t sender_index; /* the monitor's number for the sending task */
	int32_t sender_tid;
	int64_t vt_send;       /* sender's virtual time at the send, ns */
	int64_t rt_send;       /* sender's real clock at the send, ns */
	int64_t delay;         /* sender's accumulated intrusion at the send, ns */
	uint32_t bytes;        /* size of the user message */
	uint32_t ncp;          /* bytes of the critical-path tuple that follows the
				* destinations (0: none) */
	uint64_t token;        /* the run's token: a receiver ignores a piggyback without
				* its own run's (a foreign or stale sender's) */
	wire_cp cp;            /* the sender's tuple (encode: written when cp.on) */
	/*
	 * Per-pair sequence numbers: one destination for a send, one per destination for
	 * a mcast. Encoding reads ndests pairs from dest_tid/seq; decoding leaves the
	 * arrays NULL and finds the entry of the receiving task (my_seq, -1 if absent).
	 */
	uint32_t ndests;
	const int32_t *dest_tid;
	const uint32_t *seq;
	int64_t my_seq;
} wire_piggyback;

/* Size of the encoding of a piggyback with ndests destinations and ncp bytes of
 * critical-path tuple. */
size_t wire_piggyback_size(uint32_t ndests, uint32_t ncp);
/* The largest piggyback tuple: what a stack buffer must add for it. */
#define WIRE_PB_CP_MAX (1 + 4 + 4 + 8 + 24 * WIRE_CP_MAX)
/* Encodes pb into out (at least wire_piggyback_size(pb->ndests, wire_cp_size(&pb->cp))
 * bytes when pb->cp.on, else (pb->ndests, 0)); returns size. */
size_t wire_piggyback_encode(const wire_piggyback *pb, uint8_t *out);
/* Decodes len bytes into *pb for receiver my_tid; PVMMON_EPARSE or PVMMON_EVERSION
 * when damaged. */
int wire_piggyback_decode(wire_piggyback *pb, const uint8_t *data, size_t len, int32_t my_tid);

/* Registration of a task with the monitor. */
typedef struct wire_register {
	int32_t tid, parent_tid, pid, dtid;
	char *program; /* heap, owned by the struct after decode */
	uint64_t rt_start;
	uint64_t token; /* the run's token, from the mailbox entry */
} wire_register;

void wire_register_encode(wire_buf *b, const wire_register *r);
int wire_register_decode(wire_register *r, const uint8_t *data, size_t len);

/*
 * A flush of one task's records: the task's fields and its statement, proc and loop
 * records, as the log model holds them (file/line/function are resolved later by the
 * monitor and travel as NULL). final is 1 for the flush at exit.
 */
void wire_records_encode(wire_buf *b, const pvmmon_log_task *t, int final);
/* Decodes into *t (zeroed first; caller releases it with wire_task_clear()). */
int wire_records_decode(pvmmon_log_task *t, int *final, const uint8_t *data, size_t len);
/*
 * A chunk of one task's traced events (times are the task's raw clock readings). The
 * encoding is fixed-size per event, so a chunk's size is known before it is filled.
 */
#define WIRE_TRACE_EVENT_SIZE 89
#define WIRE_TRACE_HEADER 12
void wire_trace_encode(wire_buf *b, int32_t tid, const pvmmon_log_event *ev, size_t n);
/* Decodes into *ev (a heap array the caller frees) and *n; the sender's tid in *tid. */
int wire_trace_decode(int32_t *tid, pvmmon_log_event **ev, size_t *n, const uint8_t *data,
		      size_t len);

/* Frees what a pvmmon_log_task owns, leaving it zeroed. */
void wire_task_clear(pvmmon_log_task *t);


/* The monitor's mailbox entry: how tasks find it. */
#define WIRE_MAILBOX_NAME "pvmmon"
#define WIRE_LOCK_NAME "pvmmon.lock"

typedef struct wire_mailbox {
	int32_t monitor_tid;
	int32_t ctx;         /* the private context of piggybacks and control messages */
	uint32_t flush_ms;   /* how often tasks flush their records */
	uint64_t trace_events; /* 0: no trace; else the most events one task may send */
	uint64_t token;      /* the run's token: registrations must carry it */
} wire_mailbox;

/*
 * Preserve mode (doc/architecture.md, "Preserve mode"). A task's request before a
 * nondeterministic receive, its report when it blocks in a receive, and its answer to
 * the monitor's PASK share one message: what it waits for (if anything), its virtual
 * time, the counts of messages it has sent to and seen from each partner that changed
 * since its last report, and the candidates: per sender, the first queued message
 * that matches the pattern.
 */
typedef enum wire_pw_kind {
	WIRE_PW_RUNNING = 0, /* a state report: the task computes */
	WIRE_PW_BLOCKED = 1, /* a deterministic receive found nothing queued */
	WIRE_PW_RECV = 2,    /* a blocking receive from any source: request */
	WIRE_PW_NRECV = 3,   /* pvm_nrecv: request (found or not, and which) */
	WIRE_PW_PROBE = 4,   /* pvm_probe: request */
	WIRE_PW_TRECV = 5,   /* pvm_trecv with a timeout: request */
} wire_pw_kind;

typedef struct wire_pcount {
	int32_t tid;
	uint32_t n; /* messages sent to tid, or seen from tid, so far */
} wire_pcount;

typedef struct wire_pcand {
	int32_t src, tag;
	int64_t va;   /* virtual arrival: sender's virtual send time + transmission estimate */
	int64_t vs;   /* the sender's virtual send time: it is at least that far now */
	uint32_t seq; /* the sender's sequence number for this pair */
} wire_pcand;

typedef struct wire_pwait {
	uint32_t req;      /* the task's request number (from 1), 0 in a report */
	uint8_t kind;      /* wire_pw_kind */
	int32_t src, tag;  /* the receive's patterns, -1 for any */
	int64_t vt;        /* virtual time: the receive's start, or now when running */
	int64_t deadline;  /* virtual time it gives up (INT64_MAX: never) */
	char *module;      /* the call site, for deadlock reports (NULL in reports) */
	uint64_t offset;
	uint32_t nsent, nseen, ncand;
	wire_pcount *sent, *seen;
	wire_pcand *cand;
} wire_pwait;

typedef enum wire_pg_verdict {
	WIRE_PG_TAKE = 0, /* receive the first message from src with tag */
	WIRE_PG_NONE = 1, /* find nothing (a miss, or the timeout) */
} wire_pg_verdict;

void wire_pwait_encode(wire_buf *b, const wire_pwait *w);
/* Decodes into *w; its arrays and module are the caller's (wire_pwait_clear). */
int wire_pwait_decode(wire_pwait *w, const uint8_t *data, size_t len);
void wire_pwait_clear(wire_pwait *w);

void wire_ctl_encode(wire_buf *b, const wire_ctl *c);
/* Decodes into *c (its procs is the caller's to free). */
int wire_ctl_decode(wire_ctl *c, const uint8_t *data, size_t len);

void wire_mailbox_encode(wire_buf *b, const wire_mailbox *m);
int wire_mailbox_decode(wire_mailbox *m, const uint8_t *data, size_t len);

/* A task's estimate of its clock's offset from the monitor's (CLOCK), from samples
 * round trips (vclock_offset_estimate); the monitor decides its host's offset. */
typedef struct wire_clock {
	int32_t tid;         /* the sender: the monitor takes it only from that task */
	int64_t offset;      /* monitor time minus task time, ns */
	int64_t uncertainty; /* the true offset lies within this of offset, ns (>= 0) */
	int64_t rtt;         /* the least round trip seen, ns (>= 0) */
	int64_t at;          /* the task's time in the middle of the best round trip */
	uint32_t samples;
} wire_clock;

/* The monitor's answer (CLOCKSET), also sent unasked when the host's estimate changes:
 * the host's clock model (common/clockmodel.h) every task of the host uses from now on. */
typedef struct wire_clockset {
	int64_t offset;
	int64_t uncertainty; /* >= 0 */
	int64_t tref;        /* host time the offset is for */
	int64_t rate_ppt;    /* drift, parts per trillion (|rate| at most 10^9, 0.1%) */
	uint8_t keeper;      /* 1: this task re-estimates the host's offset periodically */
} wire_clockset;

void wire_clock_encode(wire_buf *b, const wire_clock *c);
int wire_clock_decode(wire_clock *c, const uint8_t *data, size_t len);
void wire_clockset_encode(wire_buf *b, const wire_clockset *c);
int wire_clockset_decode(wire_clockset *c, const uint8_t *data, size_t len);

#endif
