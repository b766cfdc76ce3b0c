/* The decision rule of preserve mode: which queued message a nondeterministic receive
 * may take, by virtual time, with blocked tasks' bounds through the wait-for graph. */
#include <stdlib.h>
#include <string.h>

#include "order.h"
#include "pvmmon/errors.h"

void order__scratch_free(order_scratch *s)
{
	free(s->low);
	free(s->mark);
	free(s->head);
	free(s->next);
	free(s->queue);
	s->low = s->mark = NULL;
	s->head = s->next = s->queue = NULL;
	s->cap = 0;
}

/* Room for n tasks in the scratch arrays; 0, or PVMMON_ENOMEM. */
static int reserve(order_scratch *s, size_t n)
{
	uint8_t *low, *mark;
	int32_t *head, *next, *queue;

	if (n <= s->cap)
		return 0;
	low = realloc(s->low, n);
	if (low)
		s->low = low;
	mark = realloc(s->mark, n);
	if (mark)
		s->mark = mark;
	head = realloc(s->head, n * sizeof(*head));
	if (head)
		s->head = head;
	next = realloc(s->next, n * sizeof(*next));
	if (next)
		s->next = next;
	queue = realloc(s->queue, n * sizeof(*queue));
	if (queue)
		s->queue = queue;
	if (!low || !mark || !head || !next || !queue)
		return pvmmon_error_set(PVMMON_ENOMEM, "order: out of memory for %zu tasks", n);
	s->cap = n;
	return 0;
}

/* Whether task a may send to task b (always, without the knowledge of s->kn). */
static int knows(const order_scratch *s, size_t a, size_t b)
{
	return !s->kn || (s->kn[a * s->kn_words + b / 64] >> (b % 64) & 1);
}

/* A blocked task that could start running before x (xb for its candidates, see
 * order__decide's window for ties) without anyone else moving. */
static int about_to_run(const order_task *b, int64_t x, int64_t xb, int use_wake)
{
	return (b->incoming && (!use_wake || b->wake < x)) || b->cand_va < xb;
}

/* order__low, where a blocked task is about to run only with a candidate before xb
 * (<= x): see order__decide's window for ties. */
static long low_at(const order_task *t, size_t n, size_t req, int64_t x, int64_t xb,
                   order_scratch *s)
{
	size_t i, qh = 0, qt = 0, nw = 0;
	long marked = 0;
	int32_t wild_first = -1; /* the wildcard waiters, chained through next[] */
	int wild_done = 0, rc;

	rc = reserve(s, n ? n : 1);
	if (rc < 0)
		return rc;
	memset(s->low, 0, n);
	for (i = 0; i < n; i++)
		s->head[i] = -1;
	/* Seeds: tasks whose own state says they can send before x. */
	for (i = 0; i < n; i++) {
		const order_task *q = &t[i];

		if (i == req || q->state == ORDER_EXITED || q->vt >= x)
			continue;
		if (q->state == ORDER_RUNNING || s->naive || about_to_run(q, x, xb, s->use_wake)) {
			s->low[i] = 1;
			s->queue[qt++] = (int32_t)i;
			marked++;
		}
	}
	/* The waiting edges of the other blocked tasks with vt < x: waiters of one task in
	 * a list per task, waiters of anyone in one list. Every list uses next[], since a
	 * task waits in one receive at a time. */
	for (i = 0; i < n; i++) {
		const order_task *q = &t[i];

		if (i == req || s->low[i] || q->state != ORDER_BLOCKED || q->vt >= x)
			continue;
		if (q->wait_src < 0) {
			s->next[i] = wild_first;
			wild_first = (int32_t)i;
			nw++;
		} else if ((size_t)q->wait_src < n && (size_t)q->wait_src != req) {
			s->next[i] = s->head[q->wait_src];
			s->head[q->wait_src] = (int32_t)i;
		}
	}
	while (qh < qt) {
		int32_t src = s->queue[qh++], w;

		for (w = s->head[src]; w >= 0; w = s->next[w]) {
			if (!s->low[w]) {
				s->low[w] = 1;
				s->queue[qt++] = w;
				marked++;
			}
		}
		/* With whom-may-address-whom, a task waiting on anyone is low once a low task
		 * may address it. */
		if (s->kn && nw) {
			for (w = wild_first; w >= 0; w = s->next[w]) {
				if (!s->low[w] && w != src && knows(s, (size_t)src, (size_t)w)) {
					s->low[w] = 1;
					s->queue[qt++] = w;
					marked++;
				}
			}
			continue;
		}
		/* A task waiting on anyone is low as soon as any other task is; the first low
		 * task was never one of them (they were not low when listed). */
		if (!wild_done && nw) {
			wild_done = 1;
			for (w = wild_first; w >= 0; w = s->next[w]) {
				if (!s->low[w] && w != src) {
					s->low[w] = 1;
					s->queue[qt++] = w;
					marked++;
				}
			}
		}
	}
	return marked;
}

long order__low(const order_task *t, size_t n, size_t req, int64_t x, order_scratch *s)
{
	return low_at(t, n, req, x, x, s);
}

int order__tie_before(const order_cand *a, const order_cand *b)
{
	int k = strcmp(a->key ? a->key : "", b->key ? b->key : "");

	if (k != 0)
		return k < 0;
	return a->seq < b->seq;
}

int order__cand_before(const order_cand *a, const order_cand *b)
{
	if (a->va != b->va)
		return a->va < b->va;
	return order__tie_before(a, b);
}

/* a + b, saturating at ORDER_NEVER (both non-negative or a ORDER_NEVER). */
static int64_t add_sat(int64_t a, int64_t b)
{
	return b > 0 && a > ORDER_NEVER - b ? ORDER_NEVER : a + b;
}

/* x less credit, ORDER_NEVER staying ORDER_NEVER (credit non-negative). */
static int64_t sub_credit(int64_t x, int64_t credit)
{
	return x == ORDER_NEVER || credit <= 0 ? x : x - credit;
}

/* The uncertainty of sender src's times, 0 for an index out of range. */
static int64_t unc_of(const order_task *t, size_t n, int32_t src)
{
	return src >= 0 && (size_t)src < n && t[src].unc > 0 ? t[src].unc : 0;
}

/*
 * The tie of the earliest candidate c[e]: the candidate taken (*best) and the virtual
 * time before which no task may still send (the end of the window in which a message
 * could tie with c[e]). Why the least logical id: within the uncertainty either order
 * is consistent with what was measured, and the point estimates flip from run to run
 * with the noise; the logical id is the program's own (its spawn order), so a tie is
 * decided the same way in every run.
 * The window is the spread of the tasks' uncertainties, not their largest: what makes
 * a task's uncertainty grow (its probes' charge against their measured cost, the
 * calibrations' disagreement) is the same on every task of a run, so the part all
 * tasks share moves their times together and cannot reorder their messages; a task
 * probed more than the others keeps its difference. Without this, every task of a
 * long run had a window of milliseconds and every decision became a tie.
 */
static int64_t tie(const order_task *t, size_t n, size_t req, const order_cand *c, size_t nc,
                   size_t e, int64_t deadline, size_t *best, int64_t *window)
{
	int64_t umin = ORDER_NEVER, umax = 0, u, end;
	size_t i, b = e;

	/* Over the tasks that may still send and the candidates' senders. */
	for (i = 0; i < n + nc; i++) {
		if (i < n ? i == req || t[i].state == ORDER_EXITED : c[i - n].src < 0)
			continue;
		u = unc_of(t, n, i < n ? (int32_t)i : c[i - n].src);
		umax = u > umax ? u : umax;
		umin = u < umin ? u : umin;
	}
	u = umax > umin ? umax - umin : 0;
	*window = u;
	end = add_sat(c[e].va, u);
	for (i = 0; i < nc; i++)
		if (i != b && c[i].va <= deadline && c[i].va <= end &&
		    order__tie_before(&c[i], &c[b]))
			b = i;
	*best = b;
	/* A message arriving after end joins no tie with c[e] and is not earlier: what it
	 * would take is taken without it. So the window closes at end, or just past it
	 * with an uncertainty (a send at end itself might arrive at end). */
	return add_sat(end, u > 0);
}

/*
 * A receive from any source with whom-may-address-whom known (order__decide): *held,
 * and s->low left naming the tasks that hold it (the monitor asks them): a task that
 * may address the requester and can send before x less the credit, other than a
 * candidate's sender (PVM keeps each pair's order: its next message comes after the
 * one queued). Returns 0, or PVMMON_ENOMEM.
 */
static int held_knowing(const order_task *t, size_t n, size_t req, const order_cand *c,
                        size_t nc, int64_t x, int64_t xb, order_scratch *s, int *held)
{
	size_t i;
	int rc = reserve(s, n ? n : 1);

	if (rc < 0)
		return rc;
	memset(s->mark, 0, n);
	for (i = 0; i < nc; i++)
		if (c[i].src >= 0 && (size_t)c[i].src < n)
			s->mark[c[i].src] = 1;
	if (low_at(t, n, req, sub_credit(x, s->credit), sub_credit(xb, s->credit), s) < 0)
		return PVMMON_ENOMEM;
	*held = 0;
	for (i = 0; i < n; i++) {
		s->low[i] = s->low[i] && !s->mark[i] && knows(s, i, req);
		*held |= s->low[i];
	}
	return 0;
}

order_verdict order__decide(const order_task *t, size_t n, size_t req, int32_t src,
                            const order_cand *c, size_t nc, int64_t deadline, int inflight,
                            order_scratch *s, size_t *best)
{
	size_t i, e = 0, b = 0;
	int64_t x = deadline, xb;
	int held = 0;

	for (i = 1; i < nc; i++)
		if (order__cand_before(&c[i], &c[e]))
			e = i;
	b = e;
	s->window = 0;
	if (nc && c[e].va <= deadline) {
		int64_t w = tie(t, n, req, c, nc, e, deadline, &b, &s->window);

		x = w < deadline ? w : deadline;
	} else if (nc && c[e].va < x) {
		x = c[e].va;
	}
	s->horizon = x;
	/* Blocked tasks are waited for only up to the earliest candidate, as without ties:
	 * two requests whose windows overlap would otherwise wait for each other. */
	xb = nc && c[e].va < x ? c[e].va : x;
	/* What is sent at or after x - credit arrives at or after x (s->credit): a manager
	 * whose next send comes a few microseconds after the one a worker weighs, or a
	 * worker whose message would go through another first, cannot overtake it. */
	if (src < 0 && s->kn) {
		if (held_knowing(t, n, req, c, nc, x, xb, s, &held) < 0)
			return ORDER_WAIT;
	} else if (low_at(t, n, req, sub_credit(x, s->credit), sub_credit(xb, s->credit), s) < 0) {
		return ORDER_WAIT;
	} else if (src >= 0) {
		held = (size_t)src < n && s->low[src];
	} else {
		for (i = 0; i < n && !held; i++)
			held = s->low[i];
	}
	/* A message on its way may be earlier than every candidate: it must arrive first. */
	if (held || inflight)
		return ORDER_WAIT;
	if (nc && c[b].va <= deadline) {
		*best = b;
		return ORDER_TAKE;
	}
	return deadline == ORDER_NEVER ? ORDER_STUCK : ORDER_NONE;
}

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

/* When blocked task q could run again by its own state (ORDER_NEVER: only when others
 * send to it); a running one's vt. */
static int64_t seed_time(const order_task *q, int naive, int use_wake)
{
	int64_t a = ORDER_NEVER;

	if (q->state == ORDER_RUNNING || naive)
		return q->vt;
	if (q->incoming)
		a = q->vt; /* order__bounds sets use_wake */
	if (q->incoming && use_wake)
		a = max64(q->vt, q->wake);
	if (q->cand_va < ORDER_NEVER && max64(q->vt, q->cand_va) < a)
		a = max64(q->vt, q->cand_va);
	return a;
}

int order__bounds(const order_task *t, size_t n, size_t req, order_scratch *s, int64_t *bound,
                  uint8_t *dep)
{
	int64_t hmin = ORDER_NEVER;
	long marked;
	size_t i;

	marked = low_at(t, n, req, ORDER_NEVER, ORDER_NEVER, s);
	if (marked < 0)
		return (int)marked;
	/* Every task that can send at all sends first no earlier than the least seed:
	 * the others only send after one of those has. */
	for (i = 0; i < n; i++)
		if (i != req && t[i].state != ORDER_EXITED &&
		    seed_time(&t[i], s->naive, s->use_wake) < hmin)
			hmin = seed_time(&t[i], s->naive, s->use_wake);
	for (i = 0; i < n; i++) {
		const order_task *q = &t[i];

		bound[i] = ORDER_NEVER;
		dep[i] = ORDER_DEP_NONE;
		if (i == req || q->state == ORDER_EXITED)
			continue;
		bound[i] = seed_time(q, s->naive, s->use_wake);
		if (q->state == ORDER_RUNNING || s->naive)
			continue;
		dep[i] =
		    q->wait_src >= 0 && (size_t)q->wait_src == req ? ORDER_DEP_REQ : ORDER_DEP_ANY;
		/* Woken by others: not before the first of them can send. */
		if (dep[i] == ORDER_DEP_ANY && s->low[i] && max64(q->vt, hmin) < bound[i])
			bound[i] = max64(q->vt, hmin);
	}
	return 0;
}
