/*
 * The monitor's side of preserve mode: the tasks' states and message counts, the
 * decisions on nondeterministic receives (order.c's rule), questions to the tasks
 * that hold a decision back, and the tasks' waits, which hang.c judges as it judges
 * plain mode's wait reports (one diagnosis for every mode).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/clock.h"
#include "clocks.h"
#include "hang.h"
#include "order.h"
#include "preserve.h"
#include "prtrace.h"
#include "pvmmon/errors.h"
#include "tasks.h"

/* A decision that must wait asks the tasks holding it back for fresher reports at
 * once: tasks that decide their receives themselves tell the monitor nothing until
 * asked, so waiting for news gained nothing but the wait. A task that answered that it
 * runs is asked again only once its virtual time may have reached the decision's
 * (real time passes at least as fast), and at most this long after its answer. */
#define ASK_RUNNING_MAX_NS 2000000LL

/* A wait is handed to hang.c once it has lasted this long, as a task in plain mode
 * reports its wait after the threshold (PVMMON_WAIT_MS): short waits cost nothing. */
#define WAIT_DEFAULT_NS 100000000LL

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
	int asked;          /* a PASK is on its way and unanswered */
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
	int64_t unc;             /* its virtual time's uncertainty at its last report */
	/* The request whose decision was recorded last (traced runs): a request repeated
	 * after its grant went (new candidates on the way) is granted again, and recorded
	 * once. */
	uint32_t logged_req;
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
	int64_t eval_ns_sum, eval_ns_max, wait_ns_sum;
	uint64_t evals;
	prtrace tr;      /* the decisions' record, in a traced run */
	size_t waiting;  /* requests left waiting by the last evaluation */
	int64_t wait_ns; /* how long a wait lasts before hang.c is told */
};

static uint64_t hash64(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	return k;
}

static pr_pair *pair_get(struct mon_pr *p, uint64_t key, int create)
{
	size_t i;

	if (create && (p->npairs + 1) * 2 > p->cap_pairs) {
		size_t nc = p->cap_pairs ? p->cap_pairs * 2 : 256;
		pr_pair *n = calloc(nc, sizeof(*n));

		if (!n)
			return NULL;
		for (i = 0; i < p->cap_pairs; i++) {
			if (!p->pairs[i].key)
				continue;
			size_t j = hash64(p->pairs[i].key) & (nc - 1);

			while (n[j].key)
				j = (j + 1) & (nc - 1);
			n[j] = p->pairs[i];
		}
		free(p->pairs);
		p->pairs = n;
		p->cap_pairs = nc;
	}
	if (!p->cap_pairs)
		return NULL;
	for (i = hash64(key) & (p->cap_pairs - 1); p->pairs[i].key;
	     i = (i + 1) & (p->cap_pairs - 1))
		if (p->pairs[i].key == key)
			return &p->pairs[i];
	if (!create)
		return NULL;
	p->pairs[i].key = key;
	p->npairs++;
	return &p->pairs[i];
}

static uint64_t pair_key(int32_t src, int32_t dst)
{
	return (uint64_t)(uint32_t)src << 32 | (uint32_t)dst;
}

/* Pairs towards dst with unseen messages are counted under this key. */
static uint64_t pend_key(int32_t dst) { return 1ULL << 63 | (uint32_t)dst; }

static int pending(struct mon_pr *p, int32_t src, int32_t dst)
{
	pr_pair *e = pair_get(p, pair_key(src, dst), 0);

	return e && e->sent > e->seen;
}

static int pending_in(struct mon_pr *p, int32_t dst)
{
	pr_pair *e = pair_get(p, pend_key(dst), 0);

	return e && e->sent > 0;
}

/* The lower bound on the virtual send time of the first message from src that dst
 * has not seen (see pr_pair), 0 when none is pending. */
static int64_t pending_lo(struct mon_pr *p, int32_t src, int32_t dst)
{
	pr_pair *e = pair_get(p, pair_key(src, dst), 0);

	return e && e->sent > e->seen ? e->lo : 0;
}

/* Sets a pair's count and keeps the per-destination count of pending pairs. lo: for a
 * sent count, the sender's virtual time before the report that carries it (every
 * message it counts beyond the earlier reports' was sent after that). */
static void pair_set(struct mon_pr *p, int32_t src, int32_t dst, int sent, uint32_t n, int64_t lo)
{
	pr_pair *e = pair_get(p, pair_key(src, dst), 1), *d;
	int before, after;

	if (!e)
		return;
	before = e->sent > e->seen;
	if (sent && n > e->sent)
		e->sent = n;
	else if (!sent && n > e->seen)
		e->seen = n;
	after = e->sent > e->seen;
	/* Becoming pending, every message seen so far was counted by an earlier report:
	 * the first unseen one was sent after them. */
	if (!before && after)
		e->lo = sent ? lo : 0;
	if (before == after)
		return;
	d = pair_get(p, pend_key(dst), 1);
	if (d)
		d->sent = after ? d->sent + 1 : d->sent - 1;
}

static int reserve(mon_run *run)
{
	struct mon_pr *p = run->pr;
	size_t n = tasks__count(run) + tasks__spawn_count(run) + 1;

	if (n > p->cap) {
		pr_task *t = realloc(p->t, n * sizeof(*t));

		if (!t)
			return -1;
		for (size_t i = p->cap; i < n; i++) {
			memset(&t[i], 0, sizeof(t[i]));
			t[i].kind = -1;
		}
		p->t = t;
		p->cap = n;
	}
	if (n > p->cap_ot) {
		order_task *ot = realloc(p->ot, n * sizeof(*ot));
		int32_t *x = realloc(p->extra_tid, n * sizeof(*x));

		if (ot)
			p->ot = ot;
		if (x)
			p->extra_tid = x;
		if (!ot || !x)
			return -1;
		p->cap_ot = n;
	}
	return 0;
}

int preserve__init(mon_run *run)
{
	run->pr = calloc(1, sizeof(*run->pr));
	if (!run->pr)
		return PVMMON_ENOMEM;
	/* Tests only: decide without the wait-dependency rule, to show the deadlocks the
	 * rule prevents (seed 000, Figure 4). */
	run->pr->s.naive = getenv("PVMMON_TEST_NO_WAITDEP") != NULL;
	{
		const char *e = getenv("PVMMON_WAIT_MS");

		run->pr->wait_ns = e && *e && atoll(e) > 0 ? atoll(e) * 1000000LL : WAIT_DEFAULT_NS;
	}
	return 0;
}

static void send_to(mon_run *run, int tid, int tag, const wire_buf *b)
{
	if (tasks__send(run, tid, tag, b) == 0)
		run->pr->msgs_out++;
}

static void ask(mon_run *run, size_t i)
{
	struct mon_pr *p = run->pr;
	wire_buf b;

	if (p->t[i].asked || i >= tasks__count(run))
		return;
	if (p->t[i].t_still && pvmmon_clock_now() - p->t[i].t_still < ASK_RUNNING_MAX_NS)
		return;
	wire__buf_init(&b);
	wire__pask_encode(&b);
	send_to(run, tasks__at(run, i)->rec.tid, WIRE_TAG_PASK, &b);
	wire__buf_free(&b);
	p->t[i].asked = 1;
	p->asks++;
}

typedef struct rank_item {
	const char *lid;
	uint32_t i;
} rank_item;

static int rank_cmp(const void *a, const void *b)
{
	const rank_item *x = a, *y = b;

	return strcmp(x->lid ? x->lid : "", y->lid ? y->lid : "");
}

/* Each bound's place in the tie order (order__tie_before: logical ids), so that a task
 * breaks a tie itself as the monitor would. */
static int rank_table(mon_run *run, wire_pgrant *g)
{
	rank_item *it = calloc(g->nb ? g->nb : 1, sizeof(*it));

	if (!it)
		return PVMMON_ENOMEM;
	for (uint32_t k = 0; k < g->nb; k++) {
		const mon_task *mt = tasks__find(run, g->b[k].tid);

		it[k] = (rank_item){mt ? mt->rec.lid : NULL, k};
	}
	qsort(it, g->nb, sizeof(*it), rank_cmp);
	for (uint32_t k = 0; k < g->nb; k++)
		g->b[it[k].i].rank = k;
	free(it);
	return 0;
}

/*
 * The bounds every grant of a request carries (wire_pgrant's table): every other
 * task's lower bound on its next send as long as task i sends nothing, and what may
 * lower it, so that task i can decide its next receives itself (blocking ones from
 * any source, and polls). None in the test mode
 * without the wait-dependency rule, or while a spawned task has not registered (it
 * could send from any time).
 */
static void fill_table(mon_run *run, size_t i, wire_pgrant *g)
{
	struct mon_pr *p = run->pr;
	size_t n = tasks__count(run), k;
	int32_t tid = tasks__at(run, i)->rec.tid;
	int64_t *bound, umin = INT64_MAX;
	uint8_t *dep;

	if (p->s.naive || p->nextra || p->t[i].kind < WIRE_PW_RECV)
		return;
	bound = calloc(n, sizeof(*bound));
	dep = calloc(n, 1);
	g->b = calloc(n, sizeof(*g->b));
	if (!bound || !dep || !g->b || order__bounds(p->ot, n, i, &p->s, bound, dep) < 0)
		goto out;
	for (k = 0; k < n; k++) {
		const mon_task *mt = tasks__at(run, k);
		pr_pair *e;

		if (k == i || p->ot[k].state == ORDER_EXITED)
			continue;
		umin = p->ot[k].unc < umin ? p->ot[k].unc : umin;
		if (p->ot[k].unc > g->umax)
			g->umax = p->ot[k].unc;
		e = pair_get(p, pair_key(mt->rec.tid, tid), 0);
		g->b[g->nb++] =
		    (wire_pbound){mt->rec.tid, dep[k], bound[k], p->ot[k].vt, e ? e->sent : 0, 0};
	}
	/* The spread of the senders' uncertainties, as the monitor's tie window (order.c). */
	g->umax = g->nb && g->umax > umin ? g->umax - umin : 0;
	if (rank_table(run, g) < 0)
		goto out;
	g->table = 1;
out:
	if (!g->table)
		wire__pgrant_clear(g);
	free(bound);
	free(dep);
}

static void grant(mon_run *run, size_t i, int verdict, int32_t src, int32_t tag)
{
	struct mon_pr *p = run->pr;
	pr_task *t = &p->t[i];
	wire_pgrant g = {.req = t->req, .verdict = (uint8_t)verdict, .src = src, .tag = tag};
	wire_buf b;

	fill_table(run, i, &g);
	wire__buf_init(&b);
	wire__pgrant_encode(&b, &g);
	wire__pgrant_clear(&g);
	send_to(run, tasks__at(run, i)->rec.tid, WIRE_TAG_PGRANT, &b);
	wire__buf_free(&b);
	t->msgs++;
	if (t->msgs > p->max_msgs_per_receive)
		p->max_msgs_per_receive = t->msgs;
	p->decisions++;
	p->wait_ns_sum += pvmmon_clock_now() - t->t_req;
	t->req = 0;
	t->msgs = 0;
	t->ncand = 0;
	t->kind = WIRE_PW_RUNNING;
	t->t_block = 0;
}

/* The index of tid among the tasks the rule sees, -1 when it is none of them. */
static int32_t index_of(mon_run *run, int32_t tid)
{
	struct mon_pr *p = run->pr;
	mon_task *t = tasks__find(run, tid);

	if (t)
		return (int32_t)t->index;
	for (size_t k = 0; k < p->nextra; k++)
		if (p->extra_tid[k] == tid)
			return (int32_t)(tasks__count(run) + k);
	return -1;
}

/* The rule's view of every task (registered, then spawned but not registered). */
static void build(mon_run *run)
{
	struct mon_pr *p = run->pr;
	size_t i;

	p->nextra = 0;
	for (i = 0; i < tasks__spawn_count(run); i++) {
		int32_t child = tasks__spawn_at(run, i)->child;

		if (!tasks__find(run, child))
			p->extra_tid[p->nextra++] = child;
	}
	for (i = 0; i < tasks__count(run); i++) {
		mon_task *mt = tasks__at(run, i);
		pr_task *t = &p->t[i];
		order_task *o = &p->ot[i];

		o->incoming = 0;
		o->wake = 0;
		o->cand_va = ORDER_NEVER;
		o->wait_src = -1;
		o->vt = t->vt;
		/* Its latest report's or flush's, whichever is later: it only grows, so the
		 * larger is the later and the safer side. */
		o->unc = mt->rec.uncertainty_ns > t->unc ? mt->rec.uncertainty_ns : t->unc;
		if (o->unc < 0)
			o->unc = 0;
		if (mt->gone || mt->final) {
			o->state = ORDER_EXITED;
			continue;
		}
		if (t->kind <= WIRE_PW_RUNNING) {
			/* Before its first report a task may send at any time. */
			o->state = ORDER_RUNNING;
			if (t->kind < 0)
				o->vt = 0;
			continue;
		}
		o->state = ORDER_BLOCKED;
		o->incoming =
		    t->src == -1 ? pending_in(p, mt->rec.tid) : pending(p, t->src, mt->rec.tid);
		/* Woken by the message on its way from its one source: not before that
		 * message's send + half its least transmission (half: a new least sample may
		 * come with that very message). */
		o->wake = o->incoming && t->src != -1
		              ? pending_lo(p, t->src, mt->rec.tid) + t->trans / 2
		              : 0;
		for (uint32_t k = 0; k < t->ncand; k++)
			if (t->cand[k].va < o->cand_va)
				o->cand_va = t->cand[k].va;
		/* A nonblocking request goes on by its deadline whatever happens. */
		if (t->req && t->deadline < o->cand_va)
			o->cand_va = t->deadline;
	}
	/* wait_src needs the extra tasks' indices too. */
	for (i = 0; i < tasks__count(run); i++)
		if (p->ot[i].state == ORDER_BLOCKED && p->t[i].src != -1)
			p->ot[i].wait_src = index_of(run, p->t[i].src);
	for (i = 0; i < p->nextra; i++) {
		order_task *o = &p->ot[tasks__count(run) + i];

		o->state = ORDER_RUNNING;
		o->vt = 0;
		o->wait_src = -1;
		o->incoming = 0;
		o->wake = 0;
		o->cand_va = ORDER_NEVER;
		o->unc = 0;
	}
}

/* Decides the pending request of task i, if it can be decided now. */
static void decide(mon_run *run, size_t i)
{
	struct mon_pr *p = run->pr;
	pr_task *t = &p->t[i];
	size_t n = tasks__count(run) + p->nextra, nc = 0, best = 0, k;
	int32_t tid = tasks__at(run, i)->rec.tid, src;
	int inflight;
	order_verdict v;
	int64_t t0 = pvmmon_clock_now(), d;

	if (t->ncand > p->cap_oc) {
		order_cand *oc = realloc(p->oc, t->ncand * sizeof(*oc));

		if (!oc)
			return;
		p->oc = oc;
		p->cap_oc = t->ncand;
	}
	for (k = 0; k < t->ncand; k++) {
		int32_t s = index_of(run, t->cand[k].src);

		if (s < 0 || (size_t)s >= tasks__count(run))
			continue;
		p->oc[nc].src = s;
		p->oc[nc].va = t->cand[k].va;
		p->oc[nc].key = tasks__at(run, (size_t)s)->rec.lid;
		p->oc[nc].seq = t->cand[k].seq;
		nc++;
	}
	src = t->src == -1 ? -1 : index_of(run, t->src);
	inflight = t->src == -1 ? pending_in(p, tid) : pending(p, t->src, tid);
	if (t->src != -1 && src < 0) {
		/* It waits on a task that is no task of the run: only that task can answer. */
		return;
	}
	/* Wake bounds for blocking receives only: a polling receive decided "none" as soon
	 * as no task can send before its virtual time polls at the rate of round trips to
	 * the monitor, its virtual time growing by a loop's iteration each time; held until
	 * the woken task reports, it polls as often as before. */
	p->s.use_wake = t->kind == WIRE_PW_RECV;
	v = order__decide(p->ot, n, i, src, p->oc, nc, t->deadline, inflight, &p->s, &best);
	d = pvmmon_clock_now() - t0;
	p->evals++;
	p->eval_ns_sum += d;
	if (d > p->eval_ns_max)
		p->eval_ns_max = d;
	switch (v) {
	case ORDER_TAKE: {
		const order_cand *c = &p->oc[best];
		int32_t ctag = 0;

		for (k = 0; k < t->ncand; k++)
			if (t->cand[k].src == tasks__at(run, (size_t)c->src)->rec.tid)
				ctag = t->cand[k].tag;
		if (t->req != t->logged_req)
			prtrace__add(run, &p->tr, tid, 0, t->kind, t->vt, t->deadline,
			             tasks__at(run, (size_t)c->src)->rec.tid, ctag, p->s.window,
			             p->s.horizon, t->cand, t->ncand);
		t->logged_req = t->req;
		grant(run, i, WIRE_PG_TAKE, tasks__at(run, (size_t)c->src)->rec.tid, ctag);
		t->vt = c->va > t->vt ? c->va : t->vt;
		break;
	}
	case ORDER_NONE:
		if (t->req != t->logged_req)
			prtrace__add(run, &p->tr, tid, 0, t->kind, t->vt, t->deadline, 0, 0,
			             p->s.window, p->s.horizon, t->cand, t->ncand);
		t->logged_req = t->req;
		if (t->deadline != ORDER_NEVER && t->deadline > t->vt)
			t->vt = t->deadline;
		grant(run, i, WIRE_PG_NONE, -1, -1);
		break;
	case ORDER_WAIT: {
		/* The earliest time the decision looks at: a running task's virtual time
		 * grows no faster than real time, so one that said it runs cannot pass it
		 * before that much real time has gone by since; asking it sooner would learn
		 * only a little more virtual time, at the rate of round trips (a task that
		 * said it runs tells its next block at once: it knows the monitor waits). */
		int64_t xlo = t->deadline, gap;

		for (k = 0; k < nc; k++)
			xlo = p->oc[k].va < xlo ? p->oc[k].va : xlo;
		/* Ask the tasks that hold it back for fresher reports; with no candidate and
		 * no deadline, only more messages can help, and they wake the request. */
		p->waiting++;
		if (nc || t->deadline != ORDER_NEVER)
			for (k = 0; k < tasks__count(run); k++) {
				if (!p->s.low[k] || p->t[k].asked ||
				    (p->ot[k].state != ORDER_RUNNING && !p->ot[k].incoming))
					continue;
				gap = xlo - p->ot[k].vt;
				gap = gap < 0 ? 0 : gap > ASK_RUNNING_MAX_NS ? ASK_RUNNING_MAX_NS : gap;
				if (p->ot[k].state == ORDER_RUNNING && t0 - p->t[k].t_ran < gap)
					continue;
				ask(run, k);
				t->msgs += 2;
			}
		return;
	}
	case ORDER_STUCK:
		return;
	}
	p->ot[i].state = ORDER_RUNNING;
	p->ot[i].vt = t->vt;
}

/* What task i's wait is, as hang.c sees waits: a blocking receive (from one source, or
 * a request with no candidate yet) or a pvm_trecv with a timeout. A request with a
 * candidate waits for the monitor's decision, not for a message: no wait. */
static int wait_op(const pr_task *t)
{
	if (t->kind == WIRE_PW_BLOCKED || (t->kind == WIRE_PW_RECV && !t->ncand))
		return WIRE_WAIT_RECV;
	if (t->kind == WIRE_PW_TRECV && !t->ncand)
		return WIRE_WAIT_TRECV;
	return -1;
}

/* Task i's wait for hang.c: what it waits for, where, and its counts with every
 * partner (sent from the pair table; received = seen, the piggybacks it has taken off
 * its queue, so a message queued and not taken counts as received, which is what
 * hang.c's rule asks of a message that cannot match). */
static void tell(mon_run *run, size_t i, int op)
{
	struct mon_pr *p = run->pr;
	pr_task *t = &p->t[i];
	int32_t tid = tasks__at(run, i)->rec.tid;
	wire_wait w;
	size_t n = 0;

	memset(&w, 0, sizeof(w));
	w.seq = t->wseq;
	w.op = (uint8_t)op;
	w.src = t->src;
	w.tag = t->tag;
	w.module = t->module ? strdup(t->module) : NULL;
	w.offset = t->offset;
	w.rt_start = t->t_block;
	w.peers = calloc(p->npairs ? p->npairs : 1, sizeof(*w.peers));
	/* Without its counts the wait would look as if nothing were on its way: withdrawn
	 * rather than told. */
	if (!w.peers) {
		wire__wait_clear(&w);
		hang__unset(run, tid);
		t->told = 0;
		return;
	}
	for (size_t k = 0; k < p->cap_pairs; k++) {
		const pr_pair *e = &p->pairs[k];
		int32_t a = (int32_t)(uint32_t)(e->key >> 32), b = (int32_t)(uint32_t)e->key;
		int32_t other = a == tid ? b : a;
		size_t j;

		if (!e->key || (e->key >> 63) || (a != tid && b != tid) || n >= p->npairs)
			continue;
		for (j = 0; j < n && w.peers[j].tid != other; j++)
			;
		if (j == n) {
			w.peers[n].tid = other;
			n++;
		}
		if (a == tid)
			w.peers[j].sent = e->sent;
		if (b == tid)
			w.peers[j].recv = e->seen;
	}
	w.npeers = (uint32_t)n;
	/* Seen counts what is queued too; hang.c counts queued messages on their own. */
	if (t->kind == WIRE_PW_BLOCKED && t->nqueued) {
		w.queued = calloc(t->nqueued, sizeof(*w.queued));
		for (uint32_t q = 0; w.queued && q < t->nqueued; q++) {
			w.queued[w.nqueued].src = t->queued[q].src;
			w.queued[w.nqueued++].tag = t->queued[q].tag;
			for (size_t j = 0; j < n; j++)
				if (w.peers[j].tid == t->queued[q].src && w.peers[j].recv)
					w.peers[j].recv--;
		}
	}
	hang__set(run, tid, &w);
	wire__wait_clear(&w);
	t->told = 1;
}

/* Keeps hang.c's view of task i's wait current: told once the wait has lasted the
 * threshold, again when its counts or candidates change, withdrawn when it ends. */
static void follow(mon_run *run, size_t i, int64_t now, int changed)
{
	pr_task *t = &run->pr->t[i];
	int op = wait_op(t);

	if (op < 0 || !t->t_block) {
		if (t->told)
			hang__unset(run, tasks__at(run, i)->rec.tid);
		t->told = 0;
		return;
	}
	if ((!t->told || changed) && now - t->t_block >= run->pr->wait_ns)
		tell(run, i, op);
}

void preserve__evaluate(mon_run *run)
{
	struct mon_pr *p = run->pr;
	int64_t now;

	if (!p || reserve(run) < 0)
		return;
	build(run);
	p->waiting = 0;
	for (size_t i = 0; i < tasks__count(run); i++)
		if (p->t[i].req && p->ot[i].state == ORDER_BLOCKED)
			decide(run, i);
	now = pvmmon_clock_now();
	for (size_t i = 0; i < tasks__count(run); i++)
		if (p->t[i].t_block || p->t[i].told)
			follow(run, i, now, 0);
}

void preserve__message(mon_run *run, int src, const uint8_t *data, size_t len)
{
	struct mon_pr *p = run->pr;
	mon_task *mt = tasks__find(run, src);
	wire_pwait w;
	pr_task *t;
	uint32_t k;
	int was, fresh;
	int64_t waited;

	if (!p || !mt || reserve(run) < 0 || wire__pwait_decode(&w, data, len) != 0) {
		run->bad_messages++;
		return;
	}
	p->msgs_in++;
	t = &p->t[mt->index];
	waited = (w.kind == WIRE_PW_BLOCKED || w.kind == WIRE_PW_RECV) && w.waited < p->wait_ns * 10
	             ? w.waited
	             : 0;
	/* Virtual times of tasks on different hosts compare on the monitor's clock. */
	w.vt = clocks__to_monitor(run, mt, w.vt);
	if (w.deadline != INT64_MAX)
		w.deadline = clocks__to_monitor(run, mt, w.deadline);
	for (k = 0; k < w.ncand; k++) {
		w.cand[k].va = clocks__to_monitor(run, mt, w.cand[k].va);
		w.cand[k].vs = clocks__to_monitor(run, mt, w.cand[k].vs);
	}
	for (k = 0; k < w.nsent; k++)
		pair_set(p, src, w.sent[k].tid, 1, w.sent[k].n, t->kind < 0 ? 0 : t->vt);
	for (k = 0; k < w.nseen; k++)
		pair_set(p, w.seen[k].tid, src, 0, w.seen[k].n, 0);
	t->trans = w.trans;
	t->unc = w.unc;
	/* Cumulative in the task: what is new since its last report. */
	if (w.local > t->local) {
		p->local += w.local - t->local;
		t->local = w.local;
	}
	if (w.notices > t->notices) {
		p->notices += w.notices - t->notices;
		t->notices = w.notices;
	}
	t->t_still = w.kind == WIRE_PW_RUNNING && t->kind == WIRE_PW_RUNNING && w.vt == t->vt
	                 ? pvmmon_clock_now()
	                 : 0;
	t->asked = 0;
	t->vt = w.vt;
	was = t->t_block ? t->kind : -1;
	/* A new wait: a request or a blocked receive of its own number (a question's
	 * answer, or a report of what arrived meanwhile, repeats the wait it is in). */
	fresh = w.kind == WIRE_PW_BLOCKED
	            ? was != WIRE_PW_BLOCKED || w.req != t->block
	            : w.kind != WIRE_PW_RUNNING && (was < 0 || w.req != t->req);
	if (w.kind == WIRE_PW_BLOCKED)
		t->block = w.req;
	t->kind = w.kind;
	if (w.kind == WIRE_PW_RUNNING) {
		t->t_ran = pvmmon_clock_now();
		/* Also how a task withdraws a request it no longer waits on. */
		t->req = 0;
		t->ncand = 0;
	} else {
		t->src = w.src;
		t->tag = w.tag;
		t->deadline = w.deadline;
		if (w.module && (!t->module || strcmp(t->module, w.module) != 0)) {
			free(t->module);
			t->module = w.module;
			w.module = NULL;
		}
		t->offset = w.offset;
		if (w.kind == WIRE_PW_BLOCKED) {
			t->req = 0;
			t->ncand = 0;
			free(t->queued);
			t->queued = w.cand;
			t->nqueued = w.ncand;
			w.cand = NULL;
		} else {
			if (w.req != t->req) {
				t->req = w.req;
				t->t_req = pvmmon_clock_now();
				t->msgs = 0;
			}
			t->msgs++;
			free(t->cand);
			t->cand = w.cand;
			t->ncand = w.ncand;
			w.cand = NULL;
			/* A candidate's send time is no bound for its sender: what it sent to
			 * other tasks since its last report is not counted yet, and those tasks
			 * may wake earlier than the candidate (so the bound stays the report's). */
		}
	}
	/* A receive the task decided itself, told for the record (traced runs). */
	if (w.decided)
		prtrace__add(run, &p->tr, src, 1, WIRE_PW_RECV, w.vt, INT64_MAX, w.taken_src,
		             w.taken_tag, w.window,
		             w.horizon == INT64_MAX ? w.horizon : clocks__to_monitor(run, mt, w.horizon),
		             w.cand, w.ncand);
	wire__pwait_clear(&w);
	if (wait_op(t) < 0)
		t->t_block = 0;
	else if (fresh || !t->t_block) {
		/* A report sent late (the task told its source first) says how long it waited. */
		t->t_block = pvmmon_clock_now() - waited;
		t->wseq++;
	}
	follow(run, mt->index, pvmmon_clock_now(), 1);
	preserve__evaluate(run);
}

void preserve__settings(mon_run *run, void (*add)(void *, const char *, const char *), void *ctx)
{
	struct mon_pr *p = run->pr;
	char num[64];

	if (!p)
		return;
	add(ctx, "mode", "preserve");
	/* Decisions: the monitor's and the tasks' own (with no control message). Control
	 * messages: to and from the monitor, and the tasks' block notices to each other. */
	snprintf(num, sizeof(num), "%" PRIu64, p->decisions + p->local);
	add(ctx, "preserve-decisions", num);
	snprintf(num, sizeof(num), "%" PRIu64, p->local);
	add(ctx, "preserve-decisions-local", num);
	snprintf(num, sizeof(num), "%" PRIu64, p->msgs_in + p->msgs_out + p->notices);
	add(ctx, "preserve-control-messages", num);
	snprintf(num, sizeof(num), "%" PRIu64, p->notices);
	add(ctx, "preserve-block-notices", num);
	snprintf(num, sizeof(num), "%.2f",
	         p->decisions + p->local ? (double)(p->msgs_in + p->msgs_out + p->notices) /
	                                       (double)(p->decisions + p->local)
	                                 : 0.0);
	add(ctx, "preserve-control-messages-per-decision", num);
	snprintf(num, sizeof(num), "%" PRIu64, p->max_msgs_per_receive);
	add(ctx, "preserve-control-messages-max", num);
	snprintf(num, sizeof(num), "%" PRIu64, p->asks);
	add(ctx, "preserve-asks", num);
	snprintf(num, sizeof(num), "%" PRId64, p->evals ? p->eval_ns_sum / (int64_t)p->evals : 0);
	add(ctx, "preserve-evaluation-ns-mean", num);
	snprintf(num, sizeof(num), "%" PRId64, p->eval_ns_max);
	add(ctx, "preserve-evaluation-ns-max", num);
	snprintf(num, sizeof(num), "%" PRId64,
	         p->decisions ? p->wait_ns_sum / (int64_t)p->decisions : 0);
	add(ctx, "preserve-decision-wait-ns-mean", num);
}

int preserve__busy(const mon_run *run) { return run->pr && run->pr->waiting; }

void preserve__free(mon_run *run)
{
	struct mon_pr *p = run->pr;

	if (!p)
		return;
	for (size_t i = 0; i < p->cap; i++) {
		free(p->t[i].module);
		free(p->t[i].cand);
		free(p->t[i].queued);
	}
	free(p->t);
	free(p->pairs);
	free(p->ot);
	free(p->oc);
	free(p->extra_tid);
	order__scratch_free(&p->s);
	prtrace__free(&p->tr);
	free(p);
	run->pr = NULL;
}

void preserve__trace(mon_run *run, pvmmon_log *log)
{
	if (run->pr)
		prtrace__to_log(&run->pr->tr, log);
}
