/* Private to monitor/preserve.c and monitor/prdecide.c: preserve mode's state (struct
 * mon_pr in run->pr) and the decision rule's entry points prdecide.c gives preserve.c
 * (preserve.c handles the tasks' reports and waits; prdecide.c calls nothing of it). */
#ifndef PVMMON_MONITOR_PRESERVE_IMPL_H
#define PVMMON_MONITOR_PRESERVE_IMPL_H

#include "monitor.h"
#include "order.h"
#include "prtrace.h"

/* What the monitor knows of one task (same index as the task table). */
typedef struct pr_task {
	int kind;         /* wire_pw_kind of its last report, -1 before any */
	uint32_t req;     /* its pending request, 0 when none */
	int32_t src, tag; /* what it waits for */
	int64_t vt, deadline;
	char *module; /* the call site it waits at */
	uint64_t offset;
	wire_pcand *cand;
	uint32_t ncand;
	int asked; /* a PASK is on its way and unanswered */
	/* Real time its last report repeated the running virtual time it had (a task
	 * waiting out a timeout, see pvmhooks/preserve.c wait_deadline), 0 otherwise:
	 * asked again at once, it would answer the same at the rate of round trips. */
	int64_t t_still;
	int64_t t_ran;      /* real time of its last running report */
	int64_t t_req;      /* real time its pending request arrived */
	uint32_t msgs;      /* control messages spent on its pending request */
	int64_t t_block;    /* real time its current wait began, 0 when it does not wait */
	uint32_t wseq;      /* its waits so far (hang.c's wait numbers) */
	uint32_t block;     /* the task's number of its current blocked receive */
	wire_pcand *queued; /* blocked: what its source has queued that it does not take */
	uint32_t nqueued;
	int told;                /* hang.c has its current wait */
	int64_t trans;           /* its least transmission time (its last report's) */
	uint32_t local, notices; /* its receives decided itself, its block notices, so far */
	uint32_t timed;          /* its own decisions whose wait ended on a timer, so far */
	int64_t unc;             /* its virtual time's uncertainty at its last report */
	/* The request whose decision was recorded last (traced runs): a request repeated
	 * after its grant went (new candidates on the way) is granted again, and recorded
	 * once. */
	uint32_t logged_req;
	uint8_t reach; /* wire_pw_reach bits of its reports so far */
} pr_task;

/* Message counts of one ordered pair of tasks, in an open-addressing table. */
typedef struct pr_pair {
	uint64_t key; /* src tid << 32 | dst tid; 0 for an empty slot */
	uint32_t sent, seen;
	/* While sent > seen: a lower bound on the virtual send time of the first message
	 * not seen (its sender's virtual time before the report that counted it). */
	int64_t lo;
} pr_pair;

struct mon_pr {
	pr_task *t;
	size_t cap;
	pr_pair *pairs;
	size_t npairs, cap_pairs;
	/* dst tid -> pairs towards it with messages not yet seen: same table, keyed with
	 * the top bit set. */
	order_task *ot;
	order_cand *oc;
	int32_t *extra_tid; /* spawned tasks not registered yet, after the registered ones */
	size_t cap_ot, cap_oc, nextra;
	order_scratch s;
	/* Statistics for the log. */
	uint64_t decisions, asks, msgs_in, msgs_out, max_msgs_per_receive;
	uint64_t local, notices; /* the tasks' own decisions and block notices */
	uint64_t timed;          /* the tasks' own decisions whose wait ended on a timer */
	int64_t eval_ns_sum, eval_ns_max, wait_ns_sum;
	uint64_t evals;
	prtrace tr;      /* the decisions' record, in a traced run */
	size_t waiting;  /* requests left waiting by the last evaluation */
	int64_t wait_ns; /* how long a wait lasts before hang.c is told */
	/* The knowledge rule (prknow.c): who may address whom, rebuilt when kn_gen (new
	 * pairs, new reach bits), the task count or the spawns change; off for the rest of
	 * the run once a task teaches tids or surprises (kn_why says which). */
	uint64_t *kn;
	size_t kn_n, kn_nt, kn_spawns;
	uint64_t kn_gen, kn_built;
	int kn_off;
	const char *kn_why;
};

/* prdecide.c: sets the count of pair src -> dst (sent: the sender's, else the
 * receiver's seen count; lo: see prdecide.c). */
void preserve__pair_set(struct mon_pr *p, int32_t src, int32_t dst, int sent, uint32_t n,
                        int64_t lo);
/* No task the rule sees has the tid. */
#define PR_INDEX_NONE (-1)
/* prdecide.c: the index of tid among the tasks the rule sees (registered, then spawned
 * but not registered), PR_INDEX_NONE when it is none of them. */
int32_t preserve__index_of(mon_run *run, int32_t tid);
/* The rule's view of every task (registered, then spawned but not registered). */
void preserve__build(mon_run *run);
/* Decides the pending request of task i, if it can be decided now. */
void preserve__decide(mon_run *run, size_t i);

/* prknow.c: task i's report said reach (wire_pw_reach bits). */
void preserve__know_report(mon_run *run, size_t i, uint8_t reach);
/* prknow.c: sets the rule's scratch to who may address whom among the n tasks of the
 * rule's view (preserve__build's), or to none when the rule is off. */
void preserve__know(mon_run *run, size_t n);
/* prknow.c: whether task a may address task b by the rule's view (1 when it is off). */
int preserve__know_addresses(const mon_run *run, size_t a, size_t b);

#endif
