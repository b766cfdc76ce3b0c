/*
 * The in-memory model of one run's XML log, and the functions that write, read and
 * validate the log file. The monitor fills a model and writes it; `pvmmon validate`
 * and `pvmmon report` read it back.
 *
 * Ownership: a pvmmon_log and everything it points to is owned by whoever created it
 * (pvmmon_log_new() or pvmmon_log_read()) and is released with pvmmon_log_free().
 * All strings are heap copies (NULL allowed where noted) and all arrays are heap
 * arrays with their counts beside them.
 *
 * Times are int64 nanoseconds. "Virtual" times follow the virtual clock of
 * doc/architecture.md: real time minus monitoring intrusion.
 */
#ifndef PVMMON_LOG_H
#define PVMMON_LOG_H

#include "pvmmon/common.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The log format version this build writes and reads. */
#define PVMMON_LOG_VERSION_MAJOR 1
#define PVMMON_LOG_VERSION_MINOR 14

/* The partner-lid of a com record with the group server (pvmgs), which is no task of
 * the program: its traffic is that of the group calls (pvm_barrier and the like). */
#define PVMMON_LOG_GROUP_SERVER "group server"

/* One com record (seed 000 Figure 10): a communication statement and one partner. */
typedef struct pvmmon_log_com {
	int32_t partner_tid;  /* the other task's tid (destination or source) */
	char *partner_lid;    /* its logical id; PVMMON_LOG_GROUP_SERVER for libgpvm3's group
	                       * server; NULL for another unmonitored partner */
	uint64_t count;       /* messages */
	uint64_t bytes;       /* user payload bytes */
	int64_t trans_ns;     /* accumulated transmission time (receives only) */
	int64_t sync_ns;      /* accumulated synchronisation delay (receives only) */
} pvmmon_log_com;

/* One event record: a communication statement, identified by its call site. */
typedef struct pvmmon_log_stmt {
	uint32_t id;       /* statement id, unique within the task */
	char *op;          /* the PVM call: "pvm_send", "pvm_recv", ... */
	char *module;      /* the binary or library holding the call site, or NULL */
	uint64_t offset;   /* the call site's offset in module */
	char *file;        /* resolved source file, or NULL when there is no debug info */
	int32_t line;      /* resolved line, 0 when unknown */
	char *function;    /* enclosing function, or NULL */
	uint64_t count;    /* executions */
	int64_t time_ns;   /* virtual time spent in the statement (incl. sync delay) */
	int64_t sync_ns;   /* synchronisation delay, summed over partners */
	int64_t trans_ns;  /* transmission time, summed over partners */
	uint64_t bytes;    /* payload bytes */
	uint64_t unmonitored; /* messages received from senders without a piggyback */
	/* Preserve mode: receives whose message (or miss) the monitor chose differently
	 * from what the queue would have given, and the real time the task was held
	 * waiting for the monitor's decision (not the program's own waiting). */
	uint64_t reordered;
	int64_t held_ns;
	size_t ncom;
	pvmmon_log_com *com;
	int disabled;      /* its records were switched off (dynamic instrumentation): the
			    * counts and times are frozen; messages still carry piggybacks */
	/* Since 1.14, receives (online wait analysis): how many of the statement's waits
	 * were indirect (most of the sender's lateness was its own waiting), and the part
	 * of sync_ns that was propagated so. */
	uint64_t indirect;
	int64_t indirect_ns;
} pvmmon_log_stmt;

/* A proc record: one procedure as called from one call site (seed 000 "activate line"). */
typedef struct pvmmon_log_proc {
	char *name;
	char *file;       /* NULL if unknown */
	int32_t line;
	char *caller;     /* the enclosing procedure on the probe stack, NULL for a root */
	int32_t call_line; /* the line of the call in the caller's file, 0 when unknown */
	uint64_t count;
	int64_t incl_ns;  /* inclusive virtual time (parallel compensation) */
	int64_t excl_ns;  /* exclusive virtual time */
	/* The same in real time (no compensation) and in the task's local time (its own
	 * monitoring removed, seed 002 section 2); 0 in logs that predate them (see
	 * pvmmon_log_task.has_raw). */
	int64_t raw_incl_ns, raw_excl_ns;
	int64_t local_incl_ns, local_excl_ns;
	int counted;      /* a leaf counted instead of timed: no caller, no times */
	int disabled;     /* its probes were switched off when the record was sent: the
			   * counts and times are frozen at the switch */
	/* Since 1.4: the procedure was throttled (demoted to counting only: its times are
	 * frozen at the demotion, its calls since counted in a record with counted set),
	 * at throttled_at_ns after the task's start (0: before it registered), its time a
	 * call then and the probe pair's cost; throttle_pair_ns is 0 when not throttled. */
	int64_t throttled_at_ns, throttle_call_ns, throttle_pair_ns;
} pvmmon_log_proc;

/* A loop record. */
typedef struct pvmmon_log_loop {
	char *name;
	char *file;
	int32_t line;
	char *proc;       /* enclosing procedure, NULL if none */
	uint64_t count;   /* times the loop was entered */
	int64_t time_ns;  /* virtual time inside the loop */
	int disabled;     /* switched off when the record was sent (frozen) */
	int64_t raw_ns;   /* real time inside the loop */
	int64_t local_ns; /* local time inside the loop */
	/* Since 1.4: throttled as procedures are (its count stays exact, its times are
	 * frozen); throttle_pair_ns is 0 when not throttled. */
	int64_t throttled_at_ns, throttle_call_ns, throttle_pair_ns;
} pvmmon_log_loop;

/* The kinds of static table entries (seed 000 Figure 9), as pvmmon-cc emits them. */
typedef enum pvmmon_static_kind {
	PVMMON_STATIC_PROC = 1, /* a procedure definition */
	PVMMON_STATIC_LOOP,     /* a loop */
	PVMMON_STATIC_COM,      /* a communication statement: a pvm_* call */
	PVMMON_STATIC_CALL,     /* a procedure call statement */
} pvmmon_static_kind;

/* One static table entry: where it is in the source and what encloses it. */
typedef struct pvmmon_log_static {
	pvmmon_static_kind kind;
	char *name;     /* procedure, loop (kind@line:column), pvm_* call or callee
			 * ("indirect" for a call through a pointer) */
	char *file;     /* source file */
	int32_t line;
	int32_t parent; /* index of the enclosing procedure or loop in the same task's
			 * table, -1 for a procedure at file level */
} pvmmon_log_static;

/*
 * The PVM calls an event of the optional trace (`pvmmon run --trace`) can be. The
 * numbers travel in trace flushes; pvmmon_event_op_name() gives the call's name.
 */
typedef enum pvmmon_event_op {
	PVMMON_EV_SEND = 1,
	PVMMON_EV_PSEND,
	PVMMON_EV_MCAST,
	PVMMON_EV_RECV,
	PVMMON_EV_NRECV,
	PVMMON_EV_TRECV,
	PVMMON_EV_PRECV,
	PVMMON_EV_PROBE,
	PVMMON_EV_SPAWN,
	PVMMON_EV_OTHER, /* any other wrapped call */
	PVMMON_EV_ENTER, /* entry to a procedure (critical-path profiling) */
	PVMMON_EV_EXIT,  /* exit from it */
	PVMMON_EV_CPSTART, /* the task started critical-path collection (tag: selection) */
	PVMMON_EV_CPSTOP,  /* the task stopped it */
	PVMMON_EV_JOINGROUP, /* pvm_joingroup (libgpvm3) */
} pvmmon_event_op;
#define PVMMON_EV_LAST PVMMON_EV_JOINGROUP

/*
 * One traced wrapped PVM call of a task: when it ran, in real and virtual time, and
 * the message it sent or delivered. A mcast is one event per destination, a spawn one
 * per child (peer: the child, seq: its spawn index). With critical-path profiling the
 * trace also has the entries and exits of procedures (all of them for exclusive
 * shares, else the selected ones): tag is then the procedure's index in the run's
 * selection (-1: not selected) and every time is the probe's. In a log, real and
 * virtual times are relative to the run's start; on the wire they are the task's raw
 * clock readings.
 */
typedef struct pvmmon_log_event {
	pvmmon_event_op op;
	int32_t peer;  /* destination (sends) or source (receives) tid; 0 when no message */
	int32_t tag;   /* the message's tag (when peer != 0) */
	uint32_t bytes;
	int64_t seq;   /* per-pair sequence number from the piggyback; -1 when the message
			* had none (an unmonitored sender) */
	uint32_t stmt; /* id of the call's statement record in the same task */
	int64_t rt[4]; /* real: wrapper entry, real call start, real call end, wrapper end */
	int64_t vt0, vt1; /* virtual time at the call's start and end */
	int64_t sync;  /* receives: synchronisation delay (virtual waiting) */
	int64_t trans; /* receives: the message's estimated transmission time */
	/* Since 1.12: a receive, poll or probe whose outcome can differ between runs (nd,
	 * one replay record entry each, in call order), with the source and tag it asked
	 * for (a tid or -1, a tag or -1): what pvmmon explore needs to know which other
	 * messages it could have taken. want_peer and want_tag are 0 when nd is 0. */
	int nd;
	int32_t want_peer, want_tag;
} pvmmon_log_event;

/* A message a preserve-mode receive could take: its sender, tag, per-pair sequence
 * number and virtual arrival (ns from the run start). */
typedef struct pvmmon_log_pcand {
	char *from; /* the sender's logical id */
	int32_t tag;
	uint32_t seq;
	int64_t va_ns;
} pvmmon_log_pcand;

/*
 * Why a preserve-mode receive took what it took (version 1.10, traced runs): the
 * candidates and their virtual arrivals, the tie window, and the horizon, the virtual
 * time before which no other task could still send when it was decided (by the monitor,
 * or by the task itself from its bounds table: the least bound then).
 */
typedef struct pvmmon_log_decision {
	char *task;        /* the receiving task's logical id */
	char *by;          /* "monitor" or "task" */
	char *kind;        /* "recv", "nrecv", "probe" or "trecv" */
	int64_t at_ns;     /* real time it was decided, from the run start */
	int64_t vt_ns;     /* the receive's virtual start */
	int64_t deadline_ns; /* its virtual deadline; -1 for none (a blocking receive) */
	char *taken;       /* the taken message's sender's logical id, NULL for none */
	int32_t taken_tag;
	int64_t window_ns; /* the tie window */
	int64_t horizon_ns; /* -1: no other task could send at all */
	size_t ncands;
	pvmmon_log_pcand *cands;
} pvmmon_log_decision;

/* What the run's event trace holds, and whether it is whole. */
typedef struct pvmmon_log_trace {
	int enabled;          /* the run was asked to trace */
	uint64_t limit_bytes; /* the size the user allowed for the trace */
	uint64_t kept;        /* events in the log */
	uint64_t dropped;     /* events left out to stay within the limit */
	/* Real time (from the run start) up to which every task's events are in the log;
	 * the whole run when nothing was dropped. */
	int64_t complete_until_ns;
	/* Preserve mode's decisions (version 1.10), up to the trace's event limit. */
	size_t ndecisions;
	pvmmon_log_decision *decisions;
	uint64_t decisions_dropped;
} pvmmon_log_trace;

/* A selected procedure's place on the run's critical path (seed 003). */
typedef struct pvmmon_log_cp_proc {
	char *name;
	int64_t share_ns; /* its time on the critical path (virtual ns) */
	int64_t zero_ns;  /* critical-path zeroing: how much shorter the longest path gets
			   * if this procedure took no time */
} pvmmon_log_cp_proc;

/* Online critical-path profiling results (`pvmmon run --cp=...`). */
typedef struct pvmmon_log_cp {
	int enabled;
	int exclusive;     /* shares are the procedures' own time, not their callees' */
	int64_t length_ns; /* the longest path's length (virtual ns) */
	int32_t end_tid;   /* the task where it ends */
	uint64_t samples;  /* tuples the monitor combined */
	uint32_t generation; /* selections made in the run so far (pvmmon cp start) */
	int collecting;    /* still collecting when the log was written */
	/* The interval the results cover, real ns from the run start: from 0 for a
	 * selection made at the start; to_ns -1 for the run's end. */
	int64_t from_ns, to_ns;
	/* The top-m search (seed 003 Appendix B), when one ran: m, phases run, and the
	 * procedures found holding at least 1/m of the path (comma-separated; NULL while
	 * the search goes on). Its procs are those of its last phase. */
	uint32_t top_m, phases;
	char *found;
	size_t nprocs;
	pvmmon_log_cp_proc *procs;
} pvmmon_log_cp;

/*
 * Time histograms (seed 001 section 2.2; log version 1.6): the values of one metric
 * over one focus for successive, equal intervals (buckets) of the run's time. A
 * histogram has a fixed number of buckets; when the run outlasts them, the width
 * doubles and the earlier values are re-bucketed (two into one), so a log's size does
 * not grow with the run's length.
 */
typedef enum pvmmon_hist_metric {
	PVMMON_HIST_COMPUTE = 1, /* virtual ns computing: outside PVM calls and monitoring */
	PVMMON_HIST_WAIT,        /* virtual ns waiting in a receive (synchronisation delay) */
	PVMMON_HIST_PVM,         /* virtual ns inside PVM calls, not waiting */
	PVMMON_HIST_OVERHEAD,    /* real ns spent in monitoring code (intrusion) */
	PVMMON_HIST_MSGS_SENT,   /* messages sent */
	PVMMON_HIST_BYTES_SENT,  /* payload bytes sent */
	PVMMON_HIST_MSGS_RECV,   /* messages received */
	PVMMON_HIST_BYTES_RECV,  /* payload bytes received */
	PVMMON_HIST_CALLS,       /* executions of the focus (statement, procedure, loop) */
	PVMMON_HIST_TIME,        /* virtual ns in the focus (statement; procedure inclusive;
				  * loop) */
	PVMMON_HIST_CP,          /* virtual ns of the focus on the critical path */
} pvmmon_hist_metric;
#define PVMMON_HIST_LAST PVMMON_HIST_CP

typedef enum pvmmon_hist_focus {
	PVMMON_FOCUS_PROGRAM = 1, /* the whole program (merged by the monitor) */
	PVMMON_FOCUS_HOST,        /* one host's tasks (merged by the monitor) */
	PVMMON_FOCUS_TASK,        /* one task */
	PVMMON_FOCUS_PROC,        /* one procedure of a task */
	PVMMON_FOCUS_LOOP,        /* one loop of a task */
	PVMMON_FOCUS_STMT,        /* one communication statement of a task */
} pvmmon_hist_focus;
#define PVMMON_FOCUS_LAST PVMMON_FOCUS_STMT

/* Which time the buckets divide: virtual (monitoring removed) or real. */
typedef enum pvmmon_hist_axis {
	PVMMON_AXIS_VIRTUAL = 0,
	PVMMON_AXIS_REAL,
} pvmmon_hist_axis;

typedef struct pvmmon_log_hist {
	pvmmon_hist_metric metric;
	pvmmon_hist_focus focus;
	pvmmon_hist_axis axis;
	/* The focus within its owner: the host's name (host), the procedure's or loop's
	 * name (proc, loop); NULL for program, task and statement foci. */
	char *name;
	uint32_t stmt;     /* PVMMON_FOCUS_STMT: the statement's id in the owning task */
	/* Bucket i covers [start_ns + i * width_ns, start_ns + (i + 1) * width_ns) on the
	 * axis, in ns from the run's start (the run's common time axis: per-host clock
	 * offsets removed). */
	int64_t start_ns;
	int64_t width_ns;  /* the width at the end: the initial width times 2^doublings */
	uint32_t doublings;
	/* When it collected, on its axis: from 0 and to -1 for the whole run; a histogram
	 * asked for while the program ran starts at the request, one switched off ends. */
	int64_t from_ns, to_ns;
	/* Who asked for it: NULL for the default ones, "run" (`pvmmon run --histogram`),
	 * "ctl" (`pvmmon ctl histogram`). */
	char *requested;
	size_t nbuckets;   /* buckets that follow (at most the run's bucket count) */
	int64_t *values;   /* per bucket: ns for time metrics, a count for the others */
} pvmmon_log_hist;

/* The run's histogram settings (log version 1.6); enabled is 0 in older logs. */
typedef struct pvmmon_log_histcfg {
	int enabled;
	uint32_t buckets;         /* the fixed bucket count (default 128) */
	int64_t initial_width_ns; /* the first width (default 10 ms) */
	uint32_t hottest;         /* statements and procedures given default histograms per
				   * task (the hottest by time) */
} pvmmon_log_histcfg;

/* How a task ended. */
typedef enum pvmmon_task_status {
	PVMMON_TASK_RUNNING = 0, /* still running when the log was written */
	PVMMON_TASK_EXITED,      /* called pvm_exit (or returned from main) normally */
	PVMMON_TASK_CRASHED,     /* vanished without saying goodbye (SIGKILL, a lost host) */
	/* Since 1.3: */
	PVMMON_TASK_KILLED,      /* a signal ended it, and it said which (signal) */
	PVMMON_TASK_STOPPED,     /* running when the user (or pvmmon) stopped the run */
	/* Since 1.9: */
	PVMMON_TASK_NOEXIT,      /* its process ended (exit, a return from main) without
	                          * pvm_exit: PVM may have lost its last message */
} pvmmon_task_status;

/*
 * What monitoring costs a task (seed 004): the costs calibrated at its start on its
 * host, the time it actually spent in monitoring code (observed), and the cost that
 * the calibration predicts for what it counted (predicted). known is 0 in older logs.
 */
typedef struct pvmmon_log_cost {
	int known;
	int64_t proc_pair_ns; /* a procedure's entry and exit probes */
	int64_t loop_pair_ns; /* a loop's entry and exit probes */
	int64_t wrapper_ns;   /* a wrapped PVM call's own bookkeeping */
	int64_t pb_send_ns;   /* sending a piggyback */
	int64_t pb_recv_ns;   /* receiving one */
	uint64_t wrapped_calls; /* wrapped PVM calls made */
	int64_t observed_ns;  /* time spent in monitoring code */
	int64_t predicted_ns; /* calibrated costs times the counts of enabled sites */
	/* An instrumented call in place (a procedure with a loop, called from an
	 * instrumented loop) with its probes on and off, picoseconds more than the same
	 * call plain; 0 when not measured (site_off_ps under a budget only, a second into
	 * the run). */
	int64_t site_on_ps;
	int64_t site_off_ps;
	int64_t static_ns;    /* the monitor's estimate of what switched-off sites cost */
	/* Since 1.7: the loop calibration taken again during the run (every second of
	 * it, PVMMON_RECHECK_MS): how many times, and the least and most pair cost it
	 * found; a least well under loop_pair_ns replaced a start calibration the
	 * machine had disturbed as a whole. */
	uint32_t rechecks;
	int64_t recheck_min_ns;
	int64_t recheck_max_ns;
	/* Since 1.8: the task whose calibration (the pair, wrapper, piggyback and in-place
	 * costs above) this task took instead of measuring its own: the first of its host
	 * to calibrate (0: it calibrated itself). */
	int32_t calibrated_by;
} pvmmon_log_cost;

/* Since 1.13: what a call-path sample found the task doing (pvmmon run --sample). */
typedef enum pvmmon_sample_state {
	PVMMON_SAMPLE_COMPUTE = 0, /* the program's own code */
	PVMMON_SAMPLE_PVM = 1,     /* inside a PVM call */
	PVMMON_SAMPLE_MONITOR = 2, /* pvmmon's own code: not charged to the program */
	PVMMON_SAMPLE_NSTATES = 3
} pvmmon_sample_state;

/* One node of a task's calling-context tree of samples: a frame (a code address as
 * module + offset; a return address, or the interrupted instruction plus one for a
 * leaf, so that offset - 1 is always inside the instruction of that frame) under its
 * caller's node. self[] counts the samples whose innermost frame it was, by state. */
typedef struct pvmmon_log_snode {
	int32_t parent;   /* index of the caller's node (lower than this one's), -1: none */
	uint32_t module;  /* index into the samples' modules */
	uint64_t offset;
	uint64_t self[PVMMON_SAMPLE_NSTATES];
} pvmmon_log_snode;

/* A task's call-path samples: the CPU-time rate, the samples taken, how many of them
 * found the tree full (counted at the deepest frame that had a node), the time the
 * signal handler took in all (ns: the sampling's own cost) and the tree. */
typedef struct pvmmon_log_samples {
	uint32_t hz;
	uint64_t total, truncated;
	int64_t cost_ns;
	size_t nmodules;
	char **modules; /* paths of the binaries and libraries the frames are in */
	size_t nnodes;
	pvmmon_log_snode *nodes;
} pvmmon_log_samples;

/* The name of a sample state ("compute", "pvm", "monitor"), or NULL. */
PVMMON_EXTERN const char *pvmmon_sample_state_name(int s);
/* Frees what samples owns and samples itself (NULL is allowed). */
PVMMON_EXTERN void pvmmon_log_samples_free(pvmmon_log_samples *s);

/* Since 1.14: online wait analysis (no trace needed, pvmhooks): a computation that made
 * this task wait, and how much of this task's waiting it caused: the segment of task tid
 * before its statement stmt (the statement's id in that task's stmts). */
typedef struct pvmmon_log_blame {
	int32_t tid;      /* the task whose computation it is (may be this task's own) */
	uint32_t stmt;    /* that task's statement ending the segment */
	int64_t short_ns; /* this task's waiting it caused directly */
	int64_t long_ns;  /* this task's waiting it caused through waits of other tasks */
	uint64_t waits;   /* how many of this task's waits it had a share in */
} pvmmon_log_blame;

typedef struct pvmmon_log_task {
	int32_t tid;
	char *lid;            /* logical id: "0", "0.2", ... */
	int32_t parent_tid;   /* 0 if none */
	/* Since 1.9: the tid of the same process's earlier incarnation: it called pvm_exit
	 * and enrolled again (a new tid); 0 for none. */
	int32_t earlier_tid;
	char *host;
	int32_t pid;
	char *program;
	pvmmon_task_status status;
	/* Since 1.3: the signal that ended it (0: none known), its last statement's id
	 * plus one (0: unknown), and how it ended in words ("killed by SIGSEGV at
	 * worker.c:31", "running when the run was stopped"; NULL: nothing to add). */
	int32_t signal;
	uint32_t last_stmt;
	char *ended;
	int64_t start_ns;     /* real time of registration, relative to the run start */
	int64_t end_ns;       /* real time of exit or of the last flush */
	int64_t virtual_ns;   /* the task's virtual time at its last flush */
	int64_t intrusion_ns; /* accumulated monitoring intrusion at its last flush */
	/* The task's real and local times at its last flush (the local clock removes only
	 * the task's own monitoring); has_raw says the task and its records carry raw and
	 * local times at all (logs before version 1.2 do not). */
	int64_t raw_ns, local_ns;
	int has_raw;
	/* Since 1.4: the virtual time's uncertainty (ns: how far the true unmonitored time
	 * may be from virtual_ns) and the charges the clock could not remove because they
	 * exceeded the real time that passed (ns; clamped, never a negative interval). */
	int64_t uncertainty_ns, clamped_ns;
	uint64_t flushes;     /* how many record flushes reached the monitor */
	uint64_t msgs_sent, msgs_recv, bytes_sent, bytes_recv;
	uint64_t unmonitored_recv; /* messages received without a piggyback */
	uint64_t bad_piggybacks;   /* piggybacks damaged, of another version, or without
				    * the run's token: counted and ignored */
	/* Since 1.11: the bytes of the task's record flushes the monitor took (the
	 * monitoring traffic its records cost; 0: unknown, or it never flushed). */
	uint64_t records_bytes;
	pvmmon_log_cost cost;
	size_t nstmts;
	pvmmon_log_stmt *stmts;
	size_t nprocs;
	pvmmon_log_proc *procs;
	size_t nloops;
	pvmmon_log_loop *loops;
	/* The static tables of the task's program (empty unless built with pvmmon-cc). */
	size_t nstatics;
	pvmmon_log_static *statics;
	/* The task's traced events in time order (empty unless the run was traced). */
	size_t nevents;
	pvmmon_log_event *events;
	/* The task's replay record (record/replay), empty when the run kept none: the
	 * encoded outcomes (replay/ stream, senders as indices into senders[]),
	 * how many, and the senders' logical ids ("0.1", or "t40000" style for senders
	 * that were not monitored tasks). */
	uint8_t *record;
	size_t record_len;
	uint64_t record_entries;
	char **record_senders;
	size_t record_nsenders;
	/* Since 1.3: where the task waited in a receive, and for what, when the log was
	 * written or when it ended ("at f.c:42 for tag 2 from 0.1"); NULL when it was not
	 * waiting (or reported no wait). */
	char *waiting;
	/* Since 1.6: the task's time histograms (task, procedure, loop and statement
	 * foci), and the clock its probes read ("tsc", "monotonic"; NULL: not said). */
	size_t nhists;
	pvmmon_log_hist *hists;
	char *clock;
	/* Since 1.13: the task's call-path samples (pvmmon run --sample); NULL: none. */
	pvmmon_log_samples *samples;
	/* Since 1.14: the online wait analysis's table (pvmhooks, no trace needed): the
	 * computations that made this task wait, one entry per (tid, stmt); empty when
	 * the task did not charge its waits. */
	size_t nblames;
	pvmmon_log_blame *blames;
} pvmmon_log_task;

typedef struct pvmmon_log_host {
	char *name;
	char *arch;
	int32_t dtid; /* the host's pvmd tid */
	/* The host's real clock offset from the monitor's (monitor minus host, ns) and the
	 * estimate's uncertainty (half the least round trip's delay); clock_known is 0 in
	 * logs without them (older logs, or a host where no task ran). */
	int clock_known;
	int64_t clock_offset_ns;
	int64_t clock_uncertainty_ns;
	/* The offset above is for clock_at_ns (run time, the latest estimate); it changes
	 * by clock_drift_ppb parts per billion of elapsed time (the fitted drift), and
	 * clock_estimates estimates were made (the first and the keeper's periodic ones).
	 * All 0 in logs without them. */
	int64_t clock_at_ns;
	int64_t clock_drift_ppb;
	uint32_t clock_estimates;
} pvmmon_log_host;

typedef struct pvmmon_log_setting {
	char *key;
	char *value;
} pvmmon_log_setting;

/*
 * One switch of dynamic instrumentation: at time_ns (real, from the run's start) the
 * probe sites named by resource (common/resource.h syntax) were switched on or off,
 * by the user (`pvmmon ctl`) or by the budget, which says why.
 */
typedef struct pvmmon_log_switch {
	int64_t time_ns;
	int on;
	char *resource;
	char *by;     /* "user" or "budget" */
	char *reason; /* NULL, or the budget's reason ("predicted 12.1% > 5%") */
} pvmmon_log_switch;

/*
 * A hang the monitor diagnosed while the run lasted (log version 1.3): its kind
 * ("deadlock", "ended": a wait for a task that has ended, "mismatch": the awaited
 * partner's message queued with another tag or context, "quiescent": every task waits
 * and nothing can come), the diagnosis as said on stderr, and the time from the last
 * block of the tasks involved to the diagnosis.
 */
typedef struct pvmmon_log_hang {
	char *kind;
	char *text;
	int64_t delay_ns;
} pvmmon_log_hang;

/*
 * A PVM usage error the checks found (log version 1.9; `pvmmon run --check`): its kind
 * ("unpack": an unpack against what was packed, "queued": messages never received
 * before the task's exit, "unfreed": buffers made and never freed, "ignored": an error
 * result the program went on past), the task that found it first, the finding as said
 * on stderr, and how many times it happened (over all tasks).
 */
typedef struct pvmmon_log_finding {
	char *kind;
	char *task;
	char *text;
	uint64_t count;
} pvmmon_log_finding;

/*
 * Which overhead compensation a log's procedure and loop times show (seed 002):
 * parallel is the virtual clock (as logged in incl-ns, excl-ns, time-ns), local takes
 * out each task's own monitoring only, none is real time.
 */
typedef enum pvmmon_comp {
	PVMMON_COMP_PARALLEL = 0,
	PVMMON_COMP_LOCAL,
	PVMMON_COMP_NONE,
} pvmmon_comp;

typedef struct pvmmon_log {
	int version_major, version_minor;
	char *tool_version;
	char *program;      /* the program as given to `pvmmon run` (or the first task's) */
	size_t nargs;
	char **args;
	char *mode;         /* "observe" for now */
	char *started;      /* ISO 8601 UTC start time */
	int64_t wall_ns;    /* real duration of the run */
	int32_t exit_code;  /* the root process's exit status, -1 if unknown */
	size_t nsettings;
	pvmmon_log_setting *settings;
	size_t nhosts;
	pvmmon_log_host *hosts;
	size_t ntasks;
	pvmmon_log_task *tasks;
	pvmmon_log_trace trace;
	pvmmon_log_cp cp;
	int replayable;     /* the run kept a replay record of every task (a task without
			     * one had no nondeterministic outcomes) */
	double budget_pct;  /* the cost budget (`pvmmon run --budget`), 0 for none */
	size_t nswitches;
	pvmmon_log_switch *switches; /* in time order */
	size_t nhangs;
	pvmmon_log_hang *hangs; /* in the order they were said */
	size_t nfindings;
	pvmmon_log_finding *findings; /* since 1.9, in the order they were said */
	/* Since 1.6: the histogram settings and the monitor's merged histograms (program
	 * and host foci). */
	pvmmon_log_histcfg hist;
	size_t nhists;
	pvmmon_log_hist *hists;
	/* What the procs' incl_ns and excl_ns and the loops' time_ns hold: parallel as
	 * read, another after pvmmon_log_use_times(). Never written to the file. */
	pvmmon_comp comp;
} pvmmon_log;

/* Allocates an empty log (version fields set) into *out; the caller frees it. */
PVMMON_EXTERN int pvmmon_log_new(pvmmon_log **out);

/* Frees log and everything it owns; NULL is allowed. */
PVMMON_EXTERN void pvmmon_log_free(pvmmon_log *log);

/*
 * Writes log to path atomically: a temporary file in the same folder, fsync, rename.
 * A symlink at path is never followed. On failure the previous file at path is intact.
 */
PVMMON_EXTERN int pvmmon_log_write(const pvmmon_log *log, const char *path);

/*
 * Parses path, validates it against the log schema and loads it into *out (caller
 * frees). On failure returns a negative code and pvmmon_error_last() is one line that
 * names the file and what is wrong.
 */
PVMMON_EXTERN int pvmmon_log_read(pvmmon_log **out, const char *path);

/* The XML of log in *out (heap, NUL-terminated, caller frees) and its length. */
PVMMON_EXTERN int pvmmon_log_format(char **out, size_t *len, const pvmmon_log *log);

/* As pvmmon_log_read(), from len bytes of XML at data; name stands for the file in
 * error messages. */
PVMMON_EXTERN int pvmmon_log_parse(pvmmon_log **out, const char *data, size_t len,
                                   const char *name);

/* Validates path against the schema (same messages as pvmmon_log_read()). */
PVMMON_EXTERN int pvmmon_log_validate(const char *path);

/* The RelaxNG schema text built into the library, NUL-terminated. */
PVMMON_EXTERN const char *pvmmon_log_schema(void);

PVMMON_EXTERN const char *pvmmon_task_status_name(pvmmon_task_status s);
/* A signal's name ("SIGSEGV"; a number in words for one without a name) in a static
 * buffer for unnamed ones, and back (0 for NULL or an unknown name). */
PVMMON_EXTERN const char *pvmmon_signal_name(int sig);
PVMMON_EXTERN int pvmmon_signal_number(const char *name);

/* "parallel", "local", "none"; NULL outside the enum. */
PVMMON_EXTERN const char *pvmmon_comp_name(pvmmon_comp c);

/* The compensation named by name into *out; 0, or PVMMON_EINVAL for another name. */
PVMMON_EXTERN int pvmmon_comp_parse(const char *name, pvmmon_comp *out);

/*
 * Makes the procs' incl_ns/excl_ns and loops' time_ns of log hold the times of
 * compensation c (raw for none, local for local) and sets log->comp, so that every
 * report shows them. Returns 0; PVMMON_ENOTFOUND (log unchanged, still parallel) when
 * a task with procedure or loop records lacks raw and local times (a log before 1.2);
 * PVMMON_ESTATE when log's times were already changed.
 */
PVMMON_EXTERN int pvmmon_log_use_times(pvmmon_log *log, pvmmon_comp c);

/* Task t's whole time on the clock of log->comp: virtual, local or real (virtual when
 * the task has no other). */
PVMMON_EXTERN int64_t pvmmon_log_task_time(const pvmmon_log *log, const pvmmon_log_task *t);

/*
 * Where statement s of task t is in the source when the log has no file and line for it
 * (a pvmmon-cc build without -g): the index of the communication entry of t's static
 * table that it is, or -1 (s has its own place, or none can be said for sure). The
 * candidates are the entries of the same PVM call in the same procedure (a symbol's
 * compiler parts, "main.cold", count as the procedure): one candidate and one such
 * statement are each other; as many such statements as candidates, all in one part of
 * the function, are paired in order, address order with source order. Never when a
 * procedure it calls has calls of the routine too: the compiler may have inlined one.
 * *ncand (may be NULL) gets the number of candidates, those included.
 */
PVMMON_EXTERN long pvmmon_log_stmt_static(const pvmmon_log_task *t, const pvmmon_log_stmt *s,
                                          size_t *ncand);

/*
 * The entries of t's static table that statement s (without file and line of its own)
 * could be, into out (at most max of them, in table order): the calls of its PVM routine
 * in its procedure, and in the procedures that procedure calls, directly or not (the
 * compiler may have inlined them). Returns their number; *exact gets the one s is, as
 * pvmmon_log_stmt_static() says, or -1.
 */
PVMMON_EXTERN size_t pvmmon_log_stmt_candidates(const pvmmon_log_task *t, const pvmmon_log_stmt *s,
                                                size_t *out, size_t max, long *exact);

/* "proc", "loop", "com", "call"; NULL for anything else. */
PVMMON_EXTERN const char *pvmmon_static_kind_name(pvmmon_static_kind k);

/* The kind named by name, or 0 when name is none of them. */
PVMMON_EXTERN pvmmon_static_kind pvmmon_static_kind_parse(const char *name);

/* "pvm_send", "pvm_recv", ..., "other", "enter", "exit"; NULL outside the enum. */
PVMMON_EXTERN const char *pvmmon_event_op_name(pvmmon_event_op op);

/* The op named by name, or 0 when name is none of them. */
PVMMON_EXTERN pvmmon_event_op pvmmon_event_op_parse(const char *name);

/* "compute", "wait", "pvm", "overhead", "msgs-sent", "bytes-sent", "msgs-recv",
 * "bytes-recv", "calls", "time", "cp"; NULL outside the enum. */
PVMMON_EXTERN const char *pvmmon_hist_metric_name(pvmmon_hist_metric m);
PVMMON_EXTERN pvmmon_hist_metric pvmmon_hist_metric_parse(const char *name); /* 0: none */

/* "program", "host", "task", "proc", "loop", "stmt"; NULL outside the enum. */
PVMMON_EXTERN const char *pvmmon_hist_focus_name(pvmmon_hist_focus f);
PVMMON_EXTERN pvmmon_hist_focus pvmmon_hist_focus_parse(const char *name); /* 0: none */

/* Whether metric m's values are nanoseconds (else counts or bytes). */
PVMMON_EXTERN int pvmmon_hist_metric_is_time(pvmmon_hist_metric m);

/* Frees what t owns (not t itself) and zeroes it: what the log reader and the records
 * decoder allocated for it. */
PVMMON_EXTERN void pvmmon_log_task_clear(pvmmon_log_task *t);

/* Frees what h owns (not h itself) and zeroes it. */
PVMMON_EXTERN void pvmmon_log_hist_clear(pvmmon_log_hist *h);

/* Whether op sends a message (send, psend, mcast). */
PVMMON_EXTERN int pvmmon_event_op_sends(pvmmon_event_op op);

/* Whether op may deliver a message (recv, nrecv, trecv, precv; not probe). */
PVMMON_EXTERN int pvmmon_event_op_receives(pvmmon_event_op op);

#ifdef __cplusplus
}
#endif
#endif
