/*
 * Private to libpvmhooks: the wrapped calls, the task's core state (behind functions;
 * task.c owns it) and the call's entry and exit, which every feature shares. One
 * task is one process and PVM is not thread-safe; only the re-entry guard is per
 * thread.
 */
#ifndef PVMMON_HOOKS_H
#define PVMMON_HOOKS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/time.h>

#include "../common/clock.h"
#include "../common/wire.h"
#include "channel.h"
#include "pvmmon/log.h"
#include "pvmmon/probe.h"
#include "tidmap.h"
#include "vclock.h"

/* Internal to the library that links it (the archives are linked statically): its
 * names bind locally, with no GOT load or PLT call. */
#pragma GCC visibility push(hidden)

/* The wrapped calls, in wrappers.def order. */
#define HOOKS_OPS(X)                                                                               \
	X(pvm_mytid)                                                                               \
	X(pvm_send)                                                                                \
	X(pvm_psend) X(pvm_mcast) X(pvm_recv) X(pvm_nrecv) X(pvm_trecv) X(pvm_precv) X(pvm_probe)  \
	    X(pvm_spawn) X(pvm_exit) X(pvm_joingroup) X(pvm_addmhf) X(pvm_delmhf) X(pvm_lvgroup)   \
	        X(pvm_barrier) X(pvm_bcast) X(pvm_reduce) X(pvm_gather) X(pvm_scatter)             \
	            X(pvm_gettid) X(pvm_getinst) X(pvm_gsize) X(pvm_freezegroup)

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
	void *site; /* the communication statement: the program's call site (callsite.h) */
	/* Made inside a group operation of libgpvm3: the message it sends or receives
	 * counts under the group call's statement (site), which counts the call itself. */
	int inner;
	int64_t t0;      /* real time at wrapper entry */
	int64_t t1;      /* real time just before the real PVM call */
	int64_t t2;      /* real time just after it */
	int64_t v0;      /* virtual time at wrapper entry */
	int clock_done;  /* set by receive hooks that reset the intrusion themselves */
	int trace_first; /* index of the call's first traced event, -1 while it has none */
	/* Stand-ins for pvm_precv's outputs when the user passes NULL: the hooks need the
	 * source and tag to pair the piggyback (see wrappers.def). */
	int out_tid, out_tag, out_len;
	/* Record and replay (rr.c): the call's outcome can differ between runs; in a
	 * replay, the pre hook may have done the call's work already (skip: the wrapper
	 * returns skip_rc without the real call) or may narrow its source and tag (ovr). */
	int nondet;
	int want_tid, want_tag; /* a nondeterministic receive's source and tag asked for */
	int skip, skip_rc;
	/* A pre hook that did the real call itself (waits.c) gives its stamps here: the
	 * wrapper then takes them as t1 and t2 (0: it stamps its own). */
	int64_t skip_t1, skip_t2;
	int ovr, ovr_tid, ovr_tag;
	int64_t sync;      /* the synchronisation delay of the messages it received (virtual ns,
	                    * the time histograms' wait) */
	int64_t seq_delta; /* a delivered message's sequence number minus the expected one,
	                    * -1 when the sender sent no piggyback */
	/* Preserve mode (preserve.c): real time the call began waiting for the monitor or
	 * a message (0: it did not), the time it was held by the monitor, whether the
	 * monitor's choice differed from the queue's, and a timeout's virtual time. */
	int64_t t_wait;
	int64_t pr_held;
	int pr_reordered;
	int64_t pr_timeout_vt;
	/* The checks (checks.c): the receive buffer a receive freed and the one it made
	 * current; pvm_precv's data type and count. */
	int chk_old, chk_buf, chk_type, chk_len;
} hooks_call;

typedef enum hooks_state_kind {
	HOOKS_UNINIT = 0, /* nothing done yet */
	HOOKS_ACTIVE,     /* registered with a monitor */
	HOOKS_PASSIVE,    /* no monitoring in this process: every wrapper passes through */
	HOOKS_DONE,       /* after pvm_exit */
} hooks_state_kind;

/* A procedure entry or exit seen before the task registered (records.c keeps them:
 * critical-path collection starts at the process's start, so it replays them). */
typedef struct hooks_pre_event {
	pvmmon_probe_site *site;
	int enter;
	int64_t v;
} hooks_pre_event;

/* Counters a task keeps about itself. */
typedef struct hooks_counts {
	uint64_t msgs_sent, msgs_recv, bytes_sent, bytes_recv, unmonitored_recv;
	uint64_t pb_bad; /* piggybacks that failed to decode or had a wrong sequence */
	uint64_t flushes;
} hooks_counts;

/*
 * The task's core state (task.c owns it): its identity, as the monitor's welcome
 * gave it, its lifecycle state, its virtual clock and its counters. Features read it
 * through these functions; each feature's own state is static in the feature's file.
 */
/* The state and the clock are read inline (every probe reads both, several times: a
 * call each cost a probe pair tens of instructions): the state through a pointer
 * task.c sets to its own field, the clock task.c's own object, which the probes then
 * address directly instead of loading its address first. */
extern const hooks_state_kind *const hooks__state_at;
extern vclock hooks__vclock;
static inline hooks_state_kind hooks__state(void) { return *hooks__state_at; }
/* Moves the task to state (HOOKS_DONE after pvm_exit; tests set others). */
void hooks__set_state(hooks_state_kind state);
int hooks__mytid(void);
uint32_t hooks__index(void);  /* the monitor's number for this task */
uint64_t hooks__token(void);  /* the run's token (mailbox): piggybacks carry it */
const char *hooks__lid(void); /* its logical id, from the welcome (NULL before) */
int64_t hooks__start(void);   /* real time of initialisation: the task's time origin */
/* The task's virtual clock: changed only through vclock.h's functions. */
static inline vclock *hooks__clock(void) { return &hooks__vclock; }
/* Takes the task's tid and the run's token (from the mailbox). */
void hooks__set_task(int mytid, uint64_t token);
/* A 32-bit hash of a string (FNV-1a), for the features' tables keyed by names. */
static inline uint32_t hooks__str_hash(const char *s)
{
	uint32_t h = 2166136261u;

	for (; s && *s; s++)
		h = (h ^ (uint8_t)*s) * 16777619u;
	return h;
}
/* Takes the task's number and logical id (heap; owned from now on) from the welcome. */
void hooks__set_identity(uint32_t index, char *lid);

/* The counters: a piggyback (or a monitor's message) that failed to decode or had a
 * wrong sequence number; messages sent and received; a flush. */
void hooks__count_bad(void);
void hooks__count_sent(int n, int bytes);
void hooks__count_recv(int bytes);
void hooks__count_unmonitored(void);
void hooks__count_flush(void);
const hooks_counts *hooks__counts(void);

/* Wrapped calls begun so far (nested ones, made by message handlers, included) and
 * the op of the last one: where a message handler's delivery happened. */
uint64_t hooks__ncalls(void);
hooks_op hooks__cur_op(void);
void hooks__set_cur_op(hooks_op op);
/* A wrapped call of op begins at site; the site of the last one begun (NULL: none). */
void hooks__count_call(hooks_op op, void *site);
void *hooks__cur_site(void);
/* A send's statement (its site): the last one is named when the task exits without
 * pvm_exit (PVM may lose that message). */
void hooks__note_send(void *site);
void *hooks__send_site(void);
/* The process's pid, from the kernel: pvmmon's own reads never go through the
 * program's recorded getpid (sources.c). */
int hooks__pid(void);
/* Whether this process is the one that registered (not a child after fork, which
 * inherits the state and the exit handler). */
int hooks__registered_here(void);
/* The process's tid before it called pvm_exit and enrolled again (0: none); REGISTER
 * names it. */
void hooks__set_earlier_tid(int tid);
int hooks__earlier_tid(void);
/* The task's time origin (real time), set at registration. */
void hooks__set_start(int64_t t);

/* Grows *arr (of *cap items of size, the new ones zeroed, doubling) to hold n items;
 * 0, or PVMMON_ENOMEM when memory is short (*arr is then unchanged). */
int hooks__ensure(void **arr, size_t *cap, size_t n, size_t size);

/* The thread-local flags below use the initial-exec model: one %fs-relative access
 * where the default (a shared library's global-dynamic) calls __tls_get_addr, a good
 * share of a probe's cost. The library is loaded at start (preloaded, or linked by
 * pvmmon-cc), where static TLS is there for it; glibc keeps spare static TLS for a
 * library opened later, and two ints fit. */
#define HOOKS_TLS __thread __attribute__((tls_model("initial-exec")))
/* Set while pvmmon's own code runs in this thread: the wrappers then pass straight
 * through (libpvm3 calls its own entry points through the PLT). The one global the
 * wrappers read inline. */
extern HOOKS_TLS int hooks__guard;
/* Set while a wrapped call runs the real PVM call (under the guard): a fatal signal
 * that comes then found pvmmon's records whole (fatal.c). */
extern HOOKS_TLS int hooks__in_pvm;

/* Registers this task with the monitor on first use (outside any wrapper); returns 1
 * when the task is monitored. For PVM calls that enroll a task without being wrapped. */
int hooks__activate(void);

/*
 * A probe's entry in a task that has not registered. The first decides whether anybody
 * monitors it: with PVMMON_PASSIVE (--raw), or run directly (no pvmmon environment and
 * not spawned by a pvmd, which would set PVMEPID), it becomes passive: its probe sites
 * switch off at their first entry. Under `pvmmon run` (PVMMON_NO_AUTOSTART in the
 * environment) a task that has computed 10 ms without a PVM call enrols at its next
 * probe, so that a program that never calls PVM is monitored all the same. A task
 * spawned by a pvmd (the console) registers at its first PVM call, as before.
 */
void hooks__probe_enrol(void);

/*
 * Whether nobody will ever monitor this process: it is passive, or hooks__probe_enrol's
 * decision (taken here if not yet) makes it so. pvmmon-cc's files ask from their
 * constructors, before main, and then run their procedures' plain copies
 * (pvmmon_probe_unwatched, pvmmon/probe.h).
 */
int hooks__probe_unwatched(void);

/*
 * The runtime's part the layers below it call (sources.c, hide.c, mboxinfo.c and the
 * probes): runtime.c, above every feature, gives task.c its three functions when the
 * library is loaded (hooks__set_runtime), so that nothing below the runtime calls up
 * into it. Until then (another library's constructor, before this one's) the task is
 * not activated, a probe does not enrol and nobody is said to be unwatched.
 */
typedef struct hooks_runtime_ops {
	int (*activate)(void);
	void (*probe_enrol)(void);
	int (*probe_unwatched)(void);
} hooks_runtime_ops;
void hooks__set_runtime(const hooks_runtime_ops *ops);

/* Something the probes' common case depends on changed (the task's state, the critical
 * path's switch): the probes (probes.c) refresh what they read, through the function
 * they gave (hooks__watch_probes, from their constructor). */
void hooks__watch_probes(void (*refresh)(void));
void hooks__refresh_probes(void);

/*
 * Starts a wrapped call: returns 0 when the call must simply pass through (monitoring
 * is off in this process), else sets the guard, initialises on first use and fills
 * call's entry stamps.
 */
int hooks__begin(hooks_call *call, hooks_op op, void *site);

/* Ends a wrapped call: accounts the wrapper's own time as intrusion (unless a receive
 * hook already reset the clock), runs the scheduler's periodic work, clears the
 * guard. */
void hooks__end(hooks_call *call);

/* Initialisation: finds or starts the monitor and registers; sets state. */
int hooks__init(void);

/* The trace's and the record's name for a wrapped call (0 for calls that have none). */
pvmmon_event_op hooks__event_op(hooks_op op);

/* A random delay before a send when PVMMON_TEST_JITTER asks for one (tests only). */
void hooks__jitter(void);

/* Starts the task's counters anew (a task that enrols again). */
void hooks__counts_restart(void);

#pragma GCC visibility pop

#endif
