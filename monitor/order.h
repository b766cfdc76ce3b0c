/*
 * Private to pvmmon-monitor: the decision rule of preserve mode (doc/architecture.md,
 * "Preserve mode"), pure arithmetic on a snapshot of the tasks' states so that unit
 * tests can drive it on constructed states without PVM.
 */
#ifndef PVMMON_MONITOR_ORDER_H
#define PVMMON_MONITOR_ORDER_H

#include <stddef.h>
#include <stdint.h>

/* No virtual time: a bound that is never reached. */
#define ORDER_NEVER INT64_MAX

typedef enum order_state {
	ORDER_RUNNING = 0, /* computing: its next send is at its last reported vt or later */
	ORDER_BLOCKED,     /* in a receive (or a request) that nothing has satisfied yet */
	ORDER_EXITED,      /* ended: it sends nothing more */
} order_state;

/* What the rule knows of one task. */
typedef struct order_task {
	order_state state;
	int64_t vt;       /* its last reported virtual time: a lower bound on its next send */
	int32_t wait_src; /* blocked: index of the only task it accepts from, -1 for any */
	/* Blocked: a message it may accept was sent to it and it had not seen it at its
	 * last report, so it is about to run again from vt. */
	int incoming;
	/* Blocked in a request: the virtual arrival of its earliest candidate (a message
	 * already queued for it), ORDER_NEVER when it has none. */
	int64_t cand_va;
	/* The uncertainty of its virtual time (its last report's, ns; 0 when exact): its
	 * messages' virtual arrivals are known to within that much (see order__decide). */
	int64_t unc;
	/* Blocked with an incoming message from the one task it accepts from: a lower bound
	 * on the virtual time that message reaches it (its sender's virtual time when it was
	 * sent + the least transmission), so on its next send; 0 when unknown. Without it a
	 * task woken by the requester's own reply would hold the requester's next decision
	 * until it has computed and reported again. */
	int64_t wake;
} order_task;

/* One message the requester could take. */
typedef struct order_cand {
	int32_t src;     /* index of its sender */
	int64_t va;      /* its virtual arrival: the sender's virtual send time + transmission */
	const char *key; /* the sender's logical id: ties are broken by it, then by seq */
	uint32_t seq;
} order_cand;

typedef enum order_verdict {
	ORDER_TAKE,  /* take candidate *best */
	ORDER_NONE,  /* the uninstrumented run finds nothing by the deadline (a miss, a timeout) */
	ORDER_WAIT,  /* not safe yet: wait for fresher reports or more candidates */
	ORDER_STUCK, /* a blocking receive that no task can ever satisfy: a deadlock */
} order_verdict;

/* Work arrays for n tasks, reused between decisions; zero it before first use. */
typedef struct order_scratch {
	size_t cap;
	uint8_t *low, *mark;
	int32_t *head, *next, *queue;
	/* Tests only: bounds without the wait-dependency rule (a blocked task's bound is
	 * its own virtual time), to show the deadlocks that rule prevents. */
	int naive;
	/* Tasks' wake bounds count (order_task.wake); otherwise a blocked task with an
	 * incoming message is about to run from its vt. */
	int use_wake;
	/* The least time a message takes to reach the requester in virtual time, ns (0:
	 * none known): a send at or after x - credit arrives at or after x, so order__decide
	 * waits only for tasks that can send before its horizon less this. Half the
	 * requester's least transmission (wire_pwait.trans), as the wake bounds take it: a
	 * new least sample may come with the very message in question. */
	int64_t credit;
	/* Whom each task may address (monitor/prknow.c), NULL when not known (anyone may
	 * address anyone: the rule as before). Row a, kn_words 64-bit words at kn + a *
	 * kn_words, has bit b set when task a may send to task b. With it, a task waiting on
	 * anyone is woken only by a task that may address it, and a receive from any source
	 * is held only by tasks that may address the requester (see order__decide). */
	const uint64_t *kn;
	size_t kn_words;
	/* Set by order__decide, for the record of the decision (the trace): the virtual
	 * time before which no other task may still send for it to be decided (the window's
	 * end, or the deadline), and the tie window (0: none). */
	int64_t horizon, window;
} order_scratch;

void order__scratch_free(order_scratch *s);

/*
 * Marks in s->low (n entries) every task other than req whose next send can come
 * before virtual time x: running tasks with vt < x; blocked tasks with vt < x that
 * are about to run (an incoming message that can reach them before x, by their wake
 * bound, or a candidate before x) or that wait on such a task. The requester counts as never
 * sending (whatever waits on it waits on something that cannot happen before the requester moves),
 * and so does a cycle of blocked tasks that reaches no running task: this replaces null messages.
 * O(n). Returns the number of tasks marked, or PVMMON_ENOMEM.
 */
long order__low(const order_task *t, size_t n, size_t req, int64_t x, order_scratch *s);

/*
 * The decision for requester req (a task in state ORDER_BLOCKED) that accepts
 * messages from src (a task index, or -1 for any), has the candidates c[0..nc) and a
 * deadline in virtual time (its receive's time for a nonblocking receive or probe, +
 * the timeout for pvm_trecv, ORDER_NEVER for a blocking receive). inflight: a message
 * it may accept is on its way and not yet among the candidates. On ORDER_TAKE, *best
 * is the candidate's index; on ORDER_WAIT, s->low names the tasks that hold the
 * decision back.
 * Ties: the earliest candidate e (order__cand_before) ties with every candidate whose
 * virtual arrival is within the two senders' uncertainties of e's (their intervals
 * va +- unc overlap) and that is due by the deadline; of a tie, the sender with the
 * least logical id, then the least sequence number, is taken (order__tie_before), so
 * that the choice depends on the program, not on the measurement's noise. The
 * decision waits until no task can send before e's arrival + e's uncertainty + the
 * largest uncertainty of a task that can still send (a blocked task only up to e's
 * arrival, as without ties, so that two requests whose windows overlap do not wait
 * for each other): every message a running task could still send that could tie with
 * e is then among the candidates. With no uncertainty this is the earliest
 * candidate, as before.
 * With s->kn, a receive from any source is held only by a task that may address the
 * requester and can send before the horizon less the credit, other than a candidate's
 * sender (PVM keeps each pair's order: that sender's next message comes after the one
 * queued, which is not earlier than the earliest candidate). A task taught the
 * requester's tid in a message meanwhile (a relay) is not waited for: the requester
 * says when such a message comes earlier than one it took (pvmhooks/prlocal.c).
 */
order_verdict order__decide(const order_task *t, size_t n, size_t req, int32_t src,
                            const order_cand *c, size_t nc, int64_t deadline, int inflight,
                            order_scratch *s, size_t *best);

/* What may let a task send before its bound (order__bounds). */
typedef enum order_dep {
	ORDER_DEP_NONE = 0, /* nothing: it computes, and its virtual time only grows */
	ORDER_DEP_REQ = 1,  /* the requester sending to it: it accepts from the requester alone */
	ORDER_DEP_ANY = 2,  /* the requester sending to anyone: it waits through others */
} order_dep;

/*
 * For requester req, every task's lower bound on its next send as long as req sends
 * nothing (bound[i], ORDER_NEVER when it cannot send before req does) and what may
 * lower it (dep[i]): a running task's sends never come before its vt; a blocked one's
 * not before what can wake it (its incoming message, its candidate or deadline, or any
 * task that can send, through the wait edges of order__low). req and exited tasks get
 * ORDER_NEVER. The requester keeps these bounds itself between decisions (see
 * pvmhooks/prlocal.c). Returns 0, or PVMMON_ENOMEM.
 */
int order__bounds(const order_task *t, size_t n, size_t req, order_scratch *s, int64_t *bound,
                  uint8_t *dep);

/* Whether candidate a comes before b: virtual arrival, then the sender's logical id,
 * then the sequence number, so that equal times are broken the same way in every run. */
int order__cand_before(const order_cand *a, const order_cand *b);

/* Of two candidates that tie, whether a is taken before b: the sender's logical id, then
 * the sequence number (no time). */
int order__tie_before(const order_cand *a, const order_cand *b);

#endif
