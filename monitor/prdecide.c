/*
 * The monitor's decisions on preserve mode's requests (monitor/preserve_impl.h): the
 * pair table of message counts, the rule's view of the tasks, order.c's verdict, the
 * grant with its table of bounds, and the questions to the tasks that hold one back.
 */
#include <stdlib.h>
#include <string.h>

#include "../common/clock.h"
#include "preserve_impl.h"
#include "pvmmon/errors.h"
#include "tasks.h"

/* A decision that must wait asks the tasks holding it back for fresher reports at
 * once: tasks that decide their receives themselves tell the monitor nothing until
 * asked, so waiting for news gained nothing but the wait. A task that answered that it
 * runs is asked again only once its virtual time may have reached the decision's
 * (real time passes at least as fast), and at most this long after its answer. */
#define ASK_RUNNING_MAX_NS 2000000LL

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
	p->kn_gen++; /* a new pair: its destination may know its source (prknow.c) */
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
 * message it counts beyond the earlier reports' was sent after that), or the send time
 * of the first of them where the report tells it (wire_pcount.vs), if later. */
void preserve__pair_set(struct mon_pr *p, int32_t src, int32_t dst, int sent, uint32_t n,
                        int64_t lo)
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

/* Task k's wire_pbound.knows for requester i among the n tasks: whether k may address
 * i, and whether no task but i may address k. */
static uint8_t knows_bits(mon_run *run, size_t n, size_t k, size_t i)
{
	uint8_t bits = preserve__know_addresses(run, k, i) ? WIRE_PB_KNOWS_REQ : 0;
	size_t a;

	if (!run->pr->s.kn)
		return bits;
	for (a = 0; a < n + run->pr->nextra; a++)
		if (a != i && a != k && preserve__know_addresses(run, a, k))
			break;
	return a == n + run->pr->nextra ? bits | WIRE_PB_KNOWS_LONE : bits;
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
		g->b[g->nb++] = (wire_pbound){mt->rec.tid, dep[k], bound[k], p->ot[k].vt,
		                              e ? e->sent : 0, 0, knows_bits(run, n, k, i),
		                              p->t[k].trans > 0 ? p->t[k].trans : 0};
	}
	/* The spread of the senders' uncertainties, as the monitor's tie window (order.c). */
	g->umax = g->nb && g->umax > umin ? g->umax - umin : 0;
	g->know = p->s.kn != NULL;
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

int32_t preserve__index_of(mon_run *run, int32_t tid)
{
	struct mon_pr *p = run->pr;
	mon_task *t = tasks__find(run, tid);

	if (t)
		return (int32_t)t->index;
	for (size_t k = 0; k < p->nextra; k++)
		if (p->extra_tid[k] == tid)
			return (int32_t)(tasks__count(run) + k);
	return PR_INDEX_NONE;
}

void preserve__build(mon_run *run)
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
			p->ot[i].wait_src = preserve__index_of(run, p->t[i].src);
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
	preserve__know(run, tasks__count(run) + p->nextra);
}

void preserve__decide(mon_run *run, size_t i)
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
		int32_t s = preserve__index_of(run, t->cand[k].src);

		if (s < 0 || (size_t)s >= tasks__count(run))
			continue;
		p->oc[nc].src = s;
		p->oc[nc].va = t->cand[k].va;
		p->oc[nc].key = tasks__at(run, (size_t)s)->rec.lid;
		p->oc[nc].seq = t->cand[k].seq;
		nc++;
	}
	src = t->src == -1 ? -1 : preserve__index_of(run, t->src);
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
	p->s.credit = t->trans > 0 ? t->trans / 2 : 0;
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
