/*
 * Private to pvmmon: what tasks tell the monitor of their measurements: the piggyback
 * that trails every user message, record flushes (RECORDS), chunks of traced events
 * (TRACE) and critical-path samples (CPSAMPLE).
 */
#ifndef PVMMON_COMMON_WIRE_RECORDS_H
#define PVMMON_COMMON_WIRE_RECORDS_H

#include "pvmmon/log.h"
#include "wire_buf.h"

/* The trailing piggyback record that follows every user message. */
#define WIRE_PB_MAGIC 0x504du /* "PM" */
#define WIRE_PB_MAX_DESTS 65536
#define WIRE_PB_HEADER 64
/* The pack signature a piggyback carries (pvmhooks/checks.c): at most this many runs of
 * packs, 9 bytes each after a count byte and the send's statement. */
#define WIRE_PB_SIG_MAX 16
#define WIRE_PB_SIG_BYTES (5 + 9 * WIRE_PB_SIG_MAX)

/* One run of the sender's pack calls into the message: count items of one PVM type
 * (PVM_INT, PVM_STR, ...) packed by consecutive calls of one statement, at offset site
 * of the sender's main program (UINT32_MAX: elsewhere). */
typedef struct wire_pksig {
	uint8_t type;
	uint32_t count;
	uint32_t site;
} wire_pksig;

/* The online wait analysis's summary of what made the sender late (pvmhooks/blame.c;
 * flag 16 in the header): the largest parts of its time since it last exchanged a
 * message with the receiver: its own computation before a statement (inherited 0: the
 * segment of the sender tid before its statement stmt, site the statement's place in
 * its program, which the receiver's own segments are compared with), or waiting of its
 * own charged to a root cause (inherited 1: the segment of task tid before stmt). */
#define WIRE_PB_BLAME_MAX 6
#define WIRE_PB_BLAME_ENTRY 21
#define WIRE_PB_BLAME_BYTES (5 + WIRE_PB_BLAME_ENTRY * WIRE_PB_BLAME_MAX)
typedef struct wire_pbblame {
	uint8_t inherited;
	int32_t tid;
	uint32_t stmt, site;
	int64_t ns;
} wire_pbblame;

typedef struct wire_piggyback {
	uint32_t sender_index; /* the monitor's number for the sending task */
	int32_t sender_tid;
	int64_t vt_send; /* sender's virtual time at the send, ns */
	int64_t rt_send; /* sender's real clock at the send, ns */
	int64_t delay;   /* sender's accumulated intrusion at the send, ns */
	uint32_t bytes;  /* size of the user message */
	uint32_t ncp;    /* bytes of the critical-path tuple that follows the
	                  * destinations (0: none) */
	uint64_t token;  /* the run's token: a receiver ignores a piggyback without
	                  * its own run's (a foreign or stale sender's) */
	/* Preserve mode: since its previous send to this destination (or its start), the
	 * sender has sent nothing to any other task and spawned nothing; 0 for a mcast. */
	uint8_t quiet;
	/* Preserve mode: the sender decides its receives itself and asks to be told when
	 * the receiver blocks in a receive from it alone (wire_pblock). */
	uint8_t notify;
	/* Preserve mode: the sender may wait for the receiver's news (it woke it before and
	 * had to): tell it when this message is seen and the receiver waits elsewhere
	 * (wire_pblock.away; wire 20). Only with notify, only for a send to one task. */
	uint8_t watch;
	/* Preserve mode: the sender's sends so far on its host's board, this one included
	 * (pvmhooks/board.c; UINT64_MAX: none). */
	uint64_t sends;
	wire_cp cp; /* the sender's tuple (encode: written when cp.on) */
	/*
	 * Per-pair sequence numbers: one destination for a send, one per destination for
	 * a mcast. Encoding reads ndests pairs from dest_tid/seq; decoding leaves the
	 * arrays NULL and finds the entry of the receiving task (my_seq, -1 if absent).
	 */
	uint32_t ndests;
	const int32_t *dest_tid;
	const uint32_t *seq;
	int64_t my_seq;
	/* The message's pack signature (flag 4 in the header): sig_on says it was carried,
	 * nsig runs of it are, and sig_more that more runs were packed than it holds. A
	 * receiver checks its unpacks against it (pvmhooks/checks.c). */
	uint8_t sig_on, nsig, sig_more;
	uint32_t send_site; /* the send's statement in the sender's main program (as site) */
	wire_pksig sig[WIRE_PB_SIG_MAX];
	/* The online wait analysis's summary (nblame 0: none): the sender's program (a hash
	 * of its name: sites compare only within one program) and the entries. */
	uint8_t nblame;
	uint32_t blame_prog;
	wire_pbblame blame[WIRE_PB_BLAME_MAX];
} wire_piggyback;

/* Size of the encoding of a piggyback with ndests destinations and ncp bytes of
 * critical-path tuple. */
size_t wire__piggyback_size(uint32_t ndests, uint32_t ncp);
/* The bytes the signature of pb adds (0 when it carries none). */
size_t wire__piggyback_sig_size(const wire_piggyback *pb);
/* The bytes the wait summary of pb adds (0 when it carries none). */
size_t wire__piggyback_blame_size(const wire_piggyback *pb);
/* WIRE_PB_CP_MAX (wire_buf.h): what a stack buffer must add for the largest tuple. */
/* Encodes pb into out (at least wire__piggyback_size(pb->ndests, wire__cp_size(&pb->cp))
 * bytes when pb->cp.on, else (pb->ndests, 0), plus wire__piggyback_sig_size(pb));
 * returns size. */
size_t wire__piggyback_encode(const wire_piggyback *pb, uint8_t *out);
/* Decodes len bytes into *pb for receiver my_tid; PVMMON_EPARSE or PVMMON_EVERSION
 * when damaged. */
int wire__piggyback_decode(wire_piggyback *pb, const uint8_t *data, size_t len, int32_t my_tid);

/* The most buckets a time histogram may have (common/histo.h). */
#define WIRE_HIST_MAX_BUCKETS 65536

/* The online wait analysis's table in a flush (log 1.14): the most entries a task may
 * send (the hooks keep no more), and the bytes of one. */
#define WIRE_BLAMES_MAX 65536
#define WIRE_BLAME_SIZE 32

/*
 * A flush of one task's records: the task's fields and its statement, proc and loop
 * records, as the log model holds them (file/line/function are resolved later by the
 * monitor and travel as NULL), and its time histograms (times on the task's own
 * axis: ns from its start), then, only when the task has them, its call-path samples
 * and its online wait analysis's table (blames). final is 1 for the flush at exit.
 */
void wire__records_encode(wire_buf *b, const pvmmon_log_task *t, int final);
/* Decodes into *t (zeroed first; caller releases it with wire__task_clear()); a delta
 * is refused. */
int wire__records_decode(pvmmon_log_task *t, int *final, const uint8_t *data, size_t len);

/*
 * A flush whose proc and loop records are a delta: only those that changed since the
 * task's last flush, each with its index among the task's records (ascending), and the
 * task's counts; the monitor keeps the others from earlier flushes. SQLite's 2,200
 * records were some 300 KB of every flush, of which a few hundred change between two.
 * Encoding, pidx and lidx index t->procs and t->loops (the task's whole arrays);
 * decoding, t->procs and t->loops hold the records carried and pidx[k] and lidx[k] say
 * which each is, of nprocs and nloops.
 */
typedef struct wire_records_delta {
	int delta;               /* decoding: whether the flush was one */
	uint32_t nprocs, nloops; /* decoding: the task's counts */
	size_t npidx, nlidx;     /* the records carried */
	uint32_t *pidx, *lidx;
} wire_records_delta;

/* d NULL: whole records, as wire__records_encode. */
void wire__records_encode_delta(wire_buf *b, const pvmmon_log_task *t, int final,
                                const wire_records_delta *d);
/* Decodes a flush, whole or delta, into *t and *d (both zeroed first; the caller
 * releases them with wire__task_clear() and wire__records_delta_clear()). */
int wire__records_decode_delta(pvmmon_log_task *t, int *final, wire_records_delta *d,
                               const uint8_t *data, size_t len);
void wire__records_delta_clear(wire_records_delta *d);
/*
 * A chunk of one task's traced events (times are the task's raw clock readings). The
 * encoding is fixed-size per event, so a chunk's size is known before it is filled.
 */
#define WIRE_TRACE_EVENT_SIZE 98
#define WIRE_TRACE_HEADER 12
void wire__trace_encode(wire_buf *b, int32_t tid, const pvmmon_log_event *ev, size_t n);
/* Decodes into *ev (a heap array the caller frees) and *n; the sender's tid in *tid. */
int wire__trace_decode(int32_t *tid, pvmmon_log_event **ev, size_t *n, const uint8_t *data,
                       size_t len);

/* Frees what a pvmmon_log_task owns, leaving it zeroed: the log model's
 * pvmmon_log_task_clear(), named here for the decoders' callers. */
void wire__task_clear(pvmmon_log_task *t);

/* CPSAMPLE: a task's critical-path tuple, sent when it changes and at the end. */
typedef struct wire_cpsample {
	int32_t tid;
	uint8_t final; /* the task's last one (its final records say so too) */
	int64_t vt;    /* the sample's virtual time */
	wire_cp cp;
} wire_cpsample;

void wire__cpsample_encode(wire_buf *b, const wire_cpsample *s);
int wire__cpsample_decode(wire_cpsample *s, const uint8_t *data, size_t len);

#endif
