/*
 * Private to libpvmhooks: the in-task runtime's state and the functions its files share.
 * One task is one process and PVM is not thread-safe, so the state is one global; only
 * the re-entry guard is per thread.
 */
#ifndef PVMMON_HOOKS_H
#define PVMMON_HOOKS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/time.h>

#include "pvmmon/log.h"
#include "pvmmon/probe.h"
#include "../common/clock.h"
#include "../common/clockmodel.h"
#include "../common/wire.h"
#include "cp.h"
#include "tidmap.h"
#include "vclock.h"

/* The wrapped calls, in wrappers.def order. */
#define HOOKS_OPS(X)                                                                            \
	X(pvm_mytid) X(pvm_send) X(pvm_psend) X(pvm_mcast) X(pvm_recv) X(pvm_nrecv) X(pvm_trecv) \
	    X(pvm_precv) X(pvm_probe) X(pvm_spawn) X(pvm_exit) X(pvm_joingroup) X(pvm_addmhf)    \
		X(pvm_delmhf)

typedef enum hooks_op {
#define HOOKS_OP_ENUM(name) HOOKS_OP_##name,
	HOOKS_OPS(HOOKS_OP_ENUM)
#undef HOOKS_OP_ENUM
	    HOOKS_OP_COUNT
} hooks_op;

/* Names of the ops, for records. */
extern const char *const hooks__op_names[HOOKS_OP_COUNT];

/* What one wrapped call carries from its entry to its end. */
typedef struct hooks_call {
	hooks_op op;
	void *site;  /* return address in the caller: the communication statement */
	int64_t t0;  /* real time at wrapper entry */
	int64_t t1;  /* real time just before the real PVM call */
	int64_t t2;  /* real time just after it */
	int64_t v0;  /* virtual time at wrapper entry */
	int clock_done; /* set by receive hooks that reset the intrusion themselves */
	int trace_first; /* index of the call's first traced event, -1 while it has none */
	/* Stand-ins for pvm_precv's outputs when the user passes NULL: the hooks need the
	 * source and tag to pair the piggyback (see wrappers.def). */
	int out_tid, out_tag, out_len;
	/* Record and replay (rr.c): the call's outcome can differ between runs; in a
	 * replay, the pre hook may have done the call's work already (skip: the wrapper
	 * returns skip_rc without the real call) or may narrow its source and tag (ovr). */
	int nondet;
	int skip, skip_rc;
	int ovr, ovr_tid, ovr_tag;
	int64_t seq_delta; /* a delivered message's sequence number minus the expected one,
			    * -1 when the sender sent no piggyback */
	/* Preserve mode (preserve.c): real time the call began waiting for the monitor or
	 * a message (0: it did not), the time it was held by the monitor, whether the
	 * monitor's choice differed from the queue's, and a timeout's virtual time. */
	int64_t t_wait;
	int64_t pr_held;
	int pr_reordered;
	int64_t pr_timeout_vt;
} hooks_call;

typedef enum hooks_state_kind {
	HOOKS_UNINIT = 0, /* nothing done yet */
	HOOKS_ACTIVE,     /* registered with a monitor */
	HOOKS_PASSIVE,    /* no monitoring in this process: every wrapper passes through */
	HOOKS_DONE,       /* after pvm_exit */
} hooks_state_kind;

/* Counters a task keeps about itself. */
typedef struct hooks_counts {
	uint64_t msgs_sent, msgs_recv, bytes_sent, bytes_recv, unmonitored_recv;
	uint64_t pb_bad;     /* piggybacks that failed to decode or had a wrong sequence */
	uint64_t flushes;
} hooks_counts;

typedef struct hooks_state {
	hooks_state_kind state;
	int mytid;
	int ctx;         /* the monitor's private context */
	int monitor_tid;
	uint64_t token;  /* the run's token (mailbox): piggybacks carry it */
	uint32_t index;  /* the monitor's number for this task */
	int64_t flush_period_ns;
	int64_t last_flush;
	int64_t last_poll;   /* real time the monitor's commands were last looked for */
	vclock clock;
	hooks_counts counts;
	tidmap send_seq;   /* destination tid -> next sequence number */
	tidmap recv_seq;   /* source tid -> next expected sequence number */
	tidmap monitored;  /* tid -> 1 monitored, 0 not (answers from the monitor) */
	uint32_t spawn_index; /* children spawned so far, for logical ids */
	int64_t records_start; /* real time of initialisation: the task's time origin */
	wire_buf out;      /* reused encoding buffer */
	int monitor_lost;  /* the monitor has gone: nothing more is sent to it */
	int cp_selected;   /* procedures are selected for critical-path profiling */
	cp_state cp;       /* this task's critical-path tuple */
	char *lid;         /* its logical id, from the welcome (heap) */
	int64_t test_delay_ns; /* PVMMON_TEST_PROBE_DELAY for this task (tests only) */
	/* The monitor's clock minus this host's, as a line over time (the host's model,
	 * which every task of the host shares; 0 on the monitor's host), its uncertainty,
	 * whether this task keeps the host's estimate up to date, and when it last did. */
	clockmodel clock_model;
	int64_t clock_uncertainty;
	int clock_keeper;
	int clock_remote; /* on another host than the monitor's: models may change */
	int64_t last_clock_sync;
	/* Wrapped calls begun so far (nested ones, made by message handlers, included)
	 * and the op of the last one: where a message handler's delivery happened. */
	uint64_t ncalls;
	hooks_op cur_op;
} hooks_state;

extern hooks_state hooks__st;

/* Times that cross hosts (piggybacks) travel on the monitor's clock: a sender adds
 * its host's offset, the receiver takes its own off. On one host the two cancel. */
static inline int64_t hooks__to_common(int64_t t)
{
	return clockmodel_to_common(&hooks__st.clock_model, t);
}
static inline int64_t hooks__from_common(int64_t t)
{
	return clockmodel_from_common(&hooks__st.clock_model, t);
}

/* Grows *arr (of *cap items of size, the new ones zeroed, doubling) to hold n items;
 * 0, or -1 when memory is short (*arr is then unchanged). */
int hooks__ensure(void **arr, size_t *cap, size_t n, size_t size);

/* Takes the monitor's CLOCKSET: the host's clock model from now on. */
void hooks__clock_set(const uint8_t *data, size_t len);
extern __thread int hooks__guard;

/* Looks up the next definition of a PVM function (libpvm3's), aborting with a clear
 * message if there is none: without it no wrapper can work. */
void *hooks__real(const char *name);

/* Registers this task with the monitor on first use (outside any wrapper); returns 1
 * when the task is monitored. For PVM calls that enroll a task without being wrapped. */
int hooks__activate(void);

/*
 * Starts a wrapped call: returns 0 when the call must simply pass through (monitoring
 * is off in this process), else sets the guard, initialises on first use and fills
 * call's entry stamps.
 */
int hooks__begin(hooks_call *call, hooks_op op, void *site);

/* Ends a wrapped call: accounts the wrapper's own time as intrusion (unless a receive
 * hook already reset the clock), flushes records when the period is over, clears the
 * guard. */
void hooks__end(hooks_call *call);

/* Initialisation: finds or starts the monitor and registers; sets state. */
void hooks__init(void);

/* Looks for commands from the monitor and carries them out (real time now). */
void hooks__poll(int64_t now);
/* Waits (a bounded time) for the monitor's next command and carries it out at virtual
 * time v. */
void hooks__await_control(int64_t v);

/* Whether tid is a monitored task (asks the monitor once per tid, then cached). */
int hooks__is_monitored(int tid);

/* The monitor has gone (pvmd told): warn once, go on unmonitored. */
void hooks__monitor_gone(void);
/* Whether the program installed its own matcher with pvm_recvf(). */
int hooks__user_matcher(void);

/* Sends a control message (data of len bytes with tag) to the monitor; 0 when sent. */
int hooks__send_control(int tag, const void *data, size_t len);
/* Receives the monitor's next message with tag within timeout_ms into *data (heap,
 * the caller frees) and *len; 0 when one came. */
int hooks__recv_control(int tag, int timeout_ms, uint8_t **data, size_t *len);

/* The trace's and the record's name for a wrapped call (0 for calls that have none). */
pvmmon_event_op hooks__event_op(hooks_op op);

/*
 * libpvm3's own message matcher around pvmmon's own receives (piggybacks, commands,
 * forced receives of a replay): a matcher the program installed with pvm_recvf() must
 * not decide those. Returns the matcher to put back with hooks__matcher_restore().
 */
typedef int (*hooks_matcher)(int, int, int);
hooks_matcher hooks__matcher_default(void);
void hooks__matcher_restore(hooks_matcher m);

/* A random delay before a send when PVMMON_TEST_JITTER asks for one (tests only). */
void hooks__jitter(void);
/* PVMMON_TEST_PROBE_DELAY=US:LID,LID,... (tests only): every probe of the tasks with
 * those logical ids busy-waits US microseconds, as seed 000's experiments slowed
 * chosen processes; read once the task knows its logical id. */
void hooks__test_delay_init(void);

/* Tells the monitor of spawned children, with this task's critical-path tuple at the
 * spawn (real time rt) for them to start from. */
void hooks__report_spawn(const int *tids, int n, int64_t rt);

/* Critical-path glue (critpath.c). The selection: comma-separated procedure names, or
 * groups of names joined by '+' that count as one (NULL or empty: none), the share
 * mode and the selection's generation; any earlier selection is dropped. */
void hooks__cp_configure(const char *names, int exclusive, uint32_t gen);
/* The selection index of procedure name, -1 when it is not selected. */
int hooks__cp_index(const char *name);
/* Carries out a monitor command about critical-path collection at virtual time v. */
void hooks__cp_control(const wire_ctl *c, int64_t v);
/* Starts the task's collection at virtual time v from a parent's tuple extended by arc
 * (or from none). at_start: v is the process's start, and the procedure entries and
 * exits before registration are replayed from there. */
void hooks__cp_begin(int64_t v, const wire_cp *from, int64_t arc, int at_start);
/* A procedure entry (enter 1) or exit at virtual time v; k its selection index. */
void hooks__cp_proc(int enter, int k, int64_t v);
/* Sends the tuple, accounted up to virtual time v, to the monitor. */
void hooks__cp_sample(int64_t v, int final);

/* Sends the records to the monitor (final at exit). */
void hooks__flush(int final);

/* Around a real pvm_spawn of file: make children inherit the preload and the PVMMON_
 * settings through PVM_EXPORT (or, for PVM's group server and pvmmon's monitor, make
 * sure they do not), then restore the environment. */
void hooks__spawn_env_begin(const char *file);
void hooks__spawn_env_end(void);

/* The real PVM functions the runtime itself uses (never the wrappers). */
typedef struct hooks_real {
	int (*send)(int, int);
	int (*mcast)(int *, int, int);
	int (*recv)(int, int);
	int (*nrecv)(int, int);
	int (*trecv)(int, int, struct timeval *);
	int (*spawn)(char *, char **, int, char *, int, int *);
	int (*exit)(void);
	int (*mytid)(void);
	int (*probe)(int, int);
} hooks_real;

extern hooks_real hooks__pvm;

/* Records (records.c). */
void hooks__records_init(void);
/* The statement record of a call site, created on first use (NULL if out of memory). */
pvmmon_log_stmt *hooks__stmt(void *site, hooks_op op);
/* The com record of stmt for partner tid, created on first use. */
pvmmon_log_com *hooks__com(pvmmon_log_stmt *stmt, int tid);
/* The task's records as a log task (borrowed: valid until the next record change). */
pvmmon_log_task *hooks__records_task(void);

/* Piggyback (calls.c): sends the trailing record after a user send or mcast. */
void hooks__send_piggyback(hooks_call *call, const int *tids, int n, int tag, int bytes);
/* Takes the trailing piggyback of a message of `bytes` from src with tag that a message
 * handler took (counting the message as received); returns its sequence number minus
 * the expected one, -1 when the sender sent none. */
int64_t hooks__absorb_piggyback(int src, int tag, int bytes);

#endif
