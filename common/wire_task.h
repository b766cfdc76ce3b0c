/*
 * Private to pvmmon: a task's life with the monitor: how it finds the monitor (the
 * mailbox entry), registers (REGISTER, WELCOME), reports its children (SPAWNED), asks
 * whether a tid is monitored (QUERY, ANSWER, also the round trips of the clock
 * estimate), agrees on its host's clock offset (CLOCK, CLOCKSET), shares its
 * calibration with its host's later tasks (CALIB) and, dying of a fatal signal, says
 * how it ended (FATAL).
 */
#ifndef PVMMON_COMMON_WIRE_TASK_H
#define PVMMON_COMMON_WIRE_TASK_H

#include "wire_buf.h"

/* The monitor's mailbox entry: how tasks find it. */
#define WIRE_MAILBOX_NAME "pvmmon"
#define WIRE_LOCK_NAME "pvmmon.lock"

typedef struct wire_mailbox {
	int32_t monitor_tid;
	int32_t ctx;           /* the private context of piggybacks and control messages */
	uint32_t flush_ms;     /* how often tasks flush their records */
	uint64_t trace_events; /* 0: no trace; else the most events one task may send */
	uint64_t token;        /* the run's token: registrations must carry it */
} wire_mailbox;

void wire__mailbox_encode(wire_buf *b, const wire_mailbox *m);
int wire__mailbox_decode(wire_mailbox *m, const uint8_t *data, size_t len);

/* Registration of a task with the monitor. */
typedef struct wire_register {
	int32_t tid, parent_tid, pid, dtid;
	char *program; /* heap, owned by the struct after decode */
	uint64_t rt_start;
	uint64_t token; /* the run's token, from the mailbox entry */
	/* The tid this process had before: it called pvm_exit and enrolled again (0: it
	 * is its first). */
	int32_t earlier_tid;
	char *exe;      /* the main program's path (heap after decode, may be NULL): where
	                 * the monitor resolves this task's statements findings name */
} wire_register;

void wire__register_encode(wire_buf *b, const wire_register *r);
int wire__register_decode(wire_register *r, const uint8_t *data, size_t len);
void wire__register_clear(wire_register *r);

/*
 * CALIB: a task's calibration of what monitoring costs it (pvmhooks/calibrate.c), sent
 * once measured. The monitor keeps the first one of each host and hands it to the
 * host's later tasks in their WELCOME, so that they need not measure it again (a few
 * milliseconds of CPU per task, all at once when a program spawns hundreds). tid 0:
 * none.
 */
typedef struct wire_calib {
	int32_t tid;   /* the task that measured it */
	uint8_t clock; /* the probe clock it was measured on: 1 monotonic, 2 tsc */
	int64_t proc_pair_ns, loop_pair_ns, wrapper_ns, pb_send_ns, pb_recv_ns;
	int64_t site_on_ps, site_off_ps; /* 0: not measured */
} wire_calib;

void wire__calib_encode(wire_buf *b, const wire_calib *c);
int wire__calib_decode(wire_calib *c, const uint8_t *data, size_t len);

/* WELCOME: the monitor's answer to a registration, what the task needs to start. */
typedef struct wire_welcome {
	uint32_t index;     /* the monitor's number for the task */
	char *lid;          /* its logical id (heap after decode) */
	int64_t spawn_rt;   /* its parent's spawn time on the monitor's clock (0: none) */
	wire_cp from;       /* where its critical path starts: its parent's at the spawn */
	uint32_t cp_gen;    /* the run's critical-path selection as it is now */
	uint8_t collecting; /* 1: the selection is being collected */
	uint8_t exclusive;
	char *procs;      /* the selected procedures (heap after decode, may be NULL) */
	uint8_t rr;       /* 0: neither, 1: record, 2: replay (REPLAYDATA follows) */
	uint8_t preserve; /* 1: preserve mode */
	char *rules;      /* the rules of dynamic instrumentation so far (heap) */
	uint32_t budget;  /* the budget in hundredths of a percent (0: none) */
	/* Time histograms (pvmhooks/histos.c): the bucket count (0: none kept), the
	 * initial width (ns), how many statements and procedures get default ones, and the
	 * extra ones asked for: `pvmmon run --histogram` (hist_run) and `pvmmon ctl
	 * histogram` (hist_ctl), each METRIC:FOCUS[,METRIC:FOCUS...] (heap after decode,
	 * may be NULL). */
	uint32_t hist_buckets;
	int64_t hist_width;
	uint32_t hist_hottest;
	uint8_t hist_defaults; /* 1: the default histograms (0: --no-histograms) */
	char *hist_run;
	char *hist_ctl;
	/* Since wire 14: the calibration of the task's host, when one of its tasks made
	 * one (cal.tid 0: none yet). */
	wire_calib cal;
	/* Since wire 19: call-path sampling as `pvmmon ctl sample` last set it (sample_ctl
	 * 1; sample_hz its rate, 0: off), which a task takes over its environment's
	 * (sample_ctl 0: no such command yet). */
	uint8_t sample_ctl;
	uint32_t sample_hz;
} wire_welcome;

void wire__welcome_encode(wire_buf *b, const wire_welcome *w);
int wire__welcome_decode(wire_welcome *w, const uint8_t *data, size_t len);
void wire__welcome_clear(wire_welcome *w);

/* SPAWNED: the children of one pvm_spawn, numbered from base on. */
#define WIRE_SPAWNED_MAX 65536
typedef struct wire_spawned {
	uint32_t base; /* the first child's spawn number */
	uint32_t n;
	int32_t *tids; /* n children (heap after decode) */
	int64_t rt;    /* the parent's clock at the spawn */
	wire_cp cp;    /* the parent's critical-path tuple at the spawn */
} wire_spawned;

void wire__spawned_encode(wire_buf *b, const wire_spawned *s);
int wire__spawned_decode(wire_spawned *s, const uint8_t *data, size_t len);
void wire__spawned_clear(wire_spawned *s);

/* QUERY: is tid monitored? A task asks it of itself for its clock's round trips. */
typedef struct wire_query {
	int32_t tid;
} wire_query;

void wire__query_encode(wire_buf *b, const wire_query *q);
int wire__query_decode(wire_query *q, const uint8_t *data, size_t len);

/* ANSWER: the monitor's, with its clock when it took the question and when it
 * answered (the asker's clock offset sample). */
typedef struct wire_answer {
	int32_t tid;
	uint8_t monitored;
	int64_t m_recv, m_send;
} wire_answer;

void wire__answer_encode(wire_buf *b, const wire_answer *a);
int wire__answer_decode(wire_answer *a, const uint8_t *data, size_t len);

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

void wire__clock_encode(wire_buf *b, const wire_clock *c);
int wire__clock_decode(wire_clock *c, const uint8_t *data, size_t len);
void wire__clockset_encode(wire_buf *b, const wire_clockset *c);
int wire__clockset_decode(wire_clockset *c, const uint8_t *data, size_t len);

/* Where a fatal signal found the task (wire_fatal.where). */
enum {
	WIRE_FATAL_PROGRAM = 0, /* in the program's own code */
	WIRE_FATAL_PVM = 1,     /* inside a wrapped PVM call (libpvm3's code) */
	WIRE_FATAL_HOOKS = 2,   /* inside pvmmon's own code: its records may be mid-change */
};

/* FATAL: the task dies of signal sig (it is re-raised after this message). stmt is its
 * last wrapped call's statement id plus one (0: it made none); records says whether a
 * final flush of its records went just before. sig 0: the process exits (exit, a
 * return from main) without having called pvm_exit; stmt is then its last send's
 * statement (PVM may lose that message). */
typedef struct wire_fatal {
	int32_t sig;
	uint32_t stmt;
	uint8_t where;   /* WIRE_FATAL_* */
	uint8_t records; /* 1: the records were flushed before this message */
} wire_fatal;

void wire__fatal_encode(wire_buf *b, const wire_fatal *f);
int wire__fatal_decode(wire_fatal *f, const uint8_t *data, size_t len);

#endif
