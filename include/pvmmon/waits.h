/*
 * Why tasks wait, from a traced run (pvmmon run --trace), in virtual time: each
 * receive's waiting classified (late sender, late sender with messages taken in the
 * wrong order), charged to the computation that caused it (Böhme et al.'s delay
 * analysis: the sender's excess time over the receiver's since their previous
 * synchronisation, by procedure where the trace has procedure entries (--cp) and by
 * the segment between two PVM statements otherwise; a part of the excess that the
 * sender itself spent waiting passes the cost on to that wait's causes: long-term
 * cost, and the wait is indirect), the run's efficiency (load balance, communication
 * efficiency split into serialisation and transfer by a replay of the activity graph
 * with messages at no cost), and the run's predicted length with one cause made
 * faster (a curve over 0..100%), on the measured network or one of latency L and
 * bandwidth B. Without a trace, the online analysis's tables the tasks fill themselves
 * (log 1.14) give the causes by segment (pvmmon_waits_online).
 *
 * Ownership: pvmmon_waits_compute() returns a result the caller frees with
 * pvmmon_waits_free(); it names tasks, events and statements by their index or id in
 * the log and holds no pointer into it.
 */
#ifndef PVMMON_WAITS_H
#define PVMMON_WAITS_H

#include "pvmmon/common.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pvmmon/log.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a wait is. */
typedef enum pvmmon_wait_kind {
	PVMMON_WAIT_LATE_SENDER = 1, /* the message was sent after the receive began */
	PVMMON_WAIT_WRONG_ORDER,     /* the same, while a message sent earlier, which the
	                              * task took later, was already there */
	PVMMON_WAIT_BARRIER,         /* at pvm_barrier, for the member that arrived last */
	PVMMON_WAIT_COLLECTIVE,      /* a late sender inside a group collective (pvm_bcast,
	                              * pvm_reduce, pvm_gather, pvm_scatter): the receive
	                              * or its send is part of one */
	PVMMON_WAIT_POLL,            /* a run of polls or timed receives that found nothing
	                              * (pvm_nrecv, pvm_probe, pvm_trecv), then the receive
	                              * that took the message: waiting from the first
	                              * miss to that receive, charged like a late sender */
	PVMMON_WAIT_ENDED,           /* a receive, poll or probe that found nothing while the
	                              * task it asked for, or every other task when it asked
	                              * for any, had ended: nobody's computation caused it,
	                              * so it has no cause */
} pvmmon_wait_kind;

/* A computation that made tasks wait: a task's procedure (proc >= 0, an index in
 * log->cp.procs), or its computation before statement stmt (proc -1). For a
 * prediction, proc PVMMON_WAIT_ALL_COMPUTATION names all of the task's computation. */
#define PVMMON_WAIT_ALL_COMPUTATION (-2)

typedef struct pvmmon_wait_cause {
	size_t task;      /* index in log->tasks */
	int32_t proc;     /* the procedure, -1 for a segment */
	uint32_t stmt;    /* the segment's next statement (proc -1); UINT32_MAX: the task's
	                   * computation after its last call */
	int64_t short_ns; /* waiting it caused directly */
	int64_t long_ns;  /* waiting it caused through waits of others (propagated) */
} pvmmon_wait_cause;

/* One receive that waited, or one member's wait at a barrier. */
typedef struct pvmmon_wait_state {
	size_t task, event;   /* the receive (at a barrier: the group server's answer that
	                       * released it): indices in log->tasks and its events */
	size_t from;          /* the sender's index in log->tasks; at a barrier the
	                       * latecomer's, the member that arrived last */
	pvmmon_wait_kind kind;
	int64_t wait_ns;      /* its synchronisation delay */
	int indirect;         /* most of the sender's excess was waiting of its own */
	size_t first;         /* a poll's or an ended wait's first call that found nothing
	                       * (event is then the receive that took the message, or
	                       * for an ended wait the last call); event otherwise */
} pvmmon_wait_state;

typedef struct pvmmon_waits {
	size_t nstates;
	pvmmon_wait_state *states; /* in the order of their end in virtual time */
	size_t ncauses;
	pvmmon_wait_cause *causes; /* largest (short + long) first */
	int64_t total_wait_ns;     /* the sum of every receive's synchronisation delay,
	                            * every wait at a barrier, every polling wait and every
	                            * wait for an ended task */
	int64_t late_sender_ns, wrong_order_ns;
	int64_t barrier_ns, collective_ns; /* waiting at barriers, and inside collectives */
	int64_t poll_ns, ended_ns; /* polling, and for tasks that had ended (no cause) */
	/* Efficiency (POP): useful = a task's computation (its time outside PVM calls). */
	int64_t runtime_ns;       /* first start to last end */
	int64_t ideal_ns;         /* the same with every message at no cost */
	int64_t useful_max_ns, useful_avg_ns;
	double load_balance;      /* useful_avg / useful_max */
	double comm_efficiency;   /* useful_max / runtime */
	double serialisation;     /* useful_max / ideal */
	double transfer;          /* ideal / runtime */
	double parallel_efficiency; /* useful_avg / runtime */
} pvmmon_waits;

/*
 * Analyses log's trace into *out. PVMMON_EINVAL (with the reason) when the log has no
 * trace or its trace was cut.
 */
PVMMON_EXTERN int pvmmon_waits_compute(pvmmon_waits **out, const pvmmon_log *log);

/*
 * The run's length predicted by replaying its activity graph with cause c's
 * computation pct percent faster (0..100) into *out_ns.
 */
PVMMON_EXTERN int pvmmon_waits_predict(int64_t *out_ns, const pvmmon_log *log,
                                       const pvmmon_wait_cause *c, int pct);

/* The same replay's waiting, every receive's summed, into *out_wait_ns: what the
 * waits would be with cause c pct percent faster (0: the run's own, as replayed). */
PVMMON_EXTERN int pvmmon_waits_predict_wait(int64_t *out_wait_ns, const pvmmon_log *log,
                                            const pvmmon_wait_cause *c, int pct);

/*
 * pvmmon_waits_predict on a network of one's choosing: every message arc of the
 * activity graph costs lat_ns + its bytes / bytes_per_ns instead of its measured
 * transmission (bytes_per_ns 0: unlimited bandwidth; lat_ns 0 and bytes_per_ns 0: the
 * ideal network, pvmmon_waits's ideal_ns with pct 0). lat_ns < 0: the measured
 * network, as pvmmon_waits_predict. c NULL: no computation faster.
 */
PVMMON_EXTERN int pvmmon_waits_predict_net(int64_t *out_ns, const pvmmon_log *log,
                                           const pvmmon_wait_cause *c, int pct,
                                           int64_t lat_ns, double bytes_per_ns);

/* The points of a curve: p = 0, 10, ..., 100 percent faster. */
#define PVMMON_WAITS_CURVE 11

/* The curve: out_ns[k] is pvmmon_waits_predict_net's answer for pct = 10 k (k = 0 is
 * the run replayed on that network), from one model of the log. */
PVMMON_EXTERN int pvmmon_waits_curve(int64_t out_ns[PVMMON_WAITS_CURVE], const pvmmon_log *log,
                                     const pvmmon_wait_cause *c, int64_t lat_ns,
                                     double bytes_per_ns);

/*
 * Parses a --network value: "ideal" (lat 0, unlimited bandwidth) or "L,B" with L the
 * latency in microseconds (>= 0) and B the bandwidth in MB/s (10^6 bytes, > 0) into
 * *lat_ns and *bytes_per_ns. PVMMON_EINVAL naming option (e.g. "--network") and what is
 * wrong.
 */
PVMMON_EXTERN int pvmmon_waits_parse_network(const char *option, const char *spec,
                                             int64_t *lat_ns, double *bytes_per_ns);

/* Writes the curve table of the given causes (largest first) on that network (lat_ns < 0:
 * as measured) to out: one line a cause, the run's length at p = 10..100%. */
PVMMON_EXTERN int pvmmon_waits_curve_table(const pvmmon_log *log, const pvmmon_wait_cause *causes,
                                           size_t ncauses, int64_t lat_ns, double bytes_per_ns,
                                           FILE *out);

/* Writes the "Why tasks wait" section of the text report: from the trace, or for a log
 * without a usable one (none, cut, or without events) from the online analysis's tables
 * (pvmmon_waits_online_report); nothing when the log has neither. */
PVMMON_EXTERN int pvmmon_waits_report(const pvmmon_log *log, FILE *out);

/* A cause's name ("0.0 slow_part", "0.0 before slowstage.c:54") into buf. */
PVMMON_EXTERN void pvmmon_waits_cause_name(char *buf, size_t len, const pvmmon_log *log,
                                           const pvmmon_wait_cause *c);

/* Writes the Graphviz source of who delays whom: a node per task with the waiting its
 * computation caused (direct and propagated) and the waiting it suffered, an arrow from
 * each sender to each task that waited for its messages, as thick as that waiting (the
 * 40 largest). PVMMON_EINVAL when the log has no trace or its trace was cut. */
PVMMON_EXTERN int pvmmon_waits_dot(const pvmmon_log *log, FILE *out);

/* Load balance of one computation over the tasks that run it (POP's load balance,
 * mean over max, per computation): a task's whole computation (proc
 * PVMMON_WAIT_ALL_COMPUTATION: min, avg and max are the task's useful time, and
 * load_balance its share of the run's largest), a procedure (proc >= 0: the time with
 * it the innermost selected procedure), or the computation before a call site (proc -1:
 * the statements of every task at the same file and line, task and stmt naming one of
 * them; stmt UINT32_MAX: the computation after a task's last call). Useful time only:
 * the time outside PVM calls, as the efficiency's. */
typedef struct pvmmon_wait_balance {
	int32_t proc;
	size_t task;   /* a task's row: the task; a call site: the first task at it */
	uint32_t stmt; /* a call site: that task's statement */
	size_t ntasks; /* the tasks with time in it */
	int64_t min_ns, avg_ns, max_ns; /* over those tasks */
	double load_balance;            /* avg / max (1 without time) */
} pvmmon_wait_balance;

/*
 * The load balance of log's traced run into *out (n of them; the caller frees *out):
 * the tasks first, in the log's order, then the procedures and call sites, largest
 * max_ns first. PVMMON_EINVAL when the log has no trace or its trace was cut.
 */
PVMMON_EXTERN int pvmmon_waits_balance(pvmmon_wait_balance **out, size_t *n,
                                       const pvmmon_log *log);

/* A balance row's name into buf: the task's logical id, the procedure's name, or the
 * call site ("before slowstage.c:54 in main", "to the end"). */
PVMMON_EXTERN void pvmmon_waits_balance_name(char *buf, size_t len, const pvmmon_log *log,
                                             const pvmmon_wait_balance *b);

/* Frees w; NULL is allowed. */
PVMMON_EXTERN void pvmmon_waits_free(pvmmon_waits *w);

/*
 * Why tasks wait without a trace (log 1.14): the online wait analysis's tables, which
 * the tasks fill themselves (pvmmon_log_task.blames), by segment only (the computation
 * before a statement: no procedures, no wrong order, no barrier kinds). One computation
 * summed over the tasks that charged it: the segment of task tid before its statement
 * stmt, the waiting it caused directly (short_ns) and through other tasks' waits
 * (long_ns), the waits it had a share in and the tasks that charged it.
 */
typedef struct pvmmon_wait_blame {
	int32_t tid;
	uint32_t stmt;
	int64_t short_ns, long_ns;
	uint64_t waits;
	size_t receivers;
} pvmmon_wait_blame;

/* The computations of every task's table summed into *out (n of them; the caller frees
 * *out), largest (short + long) first; NULL and 0 when no task has a table. */
PVMMON_EXTERN int pvmmon_waits_online(pvmmon_wait_blame **out, size_t *n, const pvmmon_log *log);

/* The computation of task tid before its statement stmt named as
 * pvmmon_waits_cause_name() names a segment ("0.0 before slowstage.c:54 in main"), or
 * "t40003 before statement 2" for a task the log does not have. */
PVMMON_EXTERN void pvmmon_waits_online_name(char *buf, size_t len, const pvmmon_log *log,
                                            int32_t tid, uint32_t stmt);

/* Writes the section "Why tasks wait (online, without a trace, by segment)" of the text
 * report from the tasks' tables: the waiting in all, the computations that caused it
 * (largest first) and the tasks that waited. Nothing when no task has a table;
 * pvmmon_waits_report() writes it for a log without a usable trace. */
PVMMON_EXTERN int pvmmon_waits_online_report(const pvmmon_log *log, FILE *out);

#ifdef __cplusplus
}
#endif

#endif
