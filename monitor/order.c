/* The decision rule of preserve mode: which queued message a nondeterministic receive
 * may take, by virtual time, with blocked tasks' bounds through the wait-for graph. */
#include <stdlib.h>
#include <string.h>

#include "order.h"
#include "pvmmon/errors.h"

void order__scratch_free(order_scratch *s)
{
	free(s->low);
	free(s->done);
	free(s->head);
	free(s->next);
	free(s->heap);
	free(s->early);
	free(s->heap_key);
	s->low = s->done = NULL;
	s->head = s->next = s->heap = NULL;
	s->early = s->heap_key = NULL;
	s->cap = 0;
}

/* *p grown to n elements of size sz; 0, or -1 (*p unchanged). */
static int grow(void *p, size_t n, size_t sz)
{
	void *q = realloc(*(void **)p, n * sz);

	if (!q)
		return -1;
	*(void **)p = q;
	return 0;
}

/* Room for n tasks in the scratch arrays; 0, or PVMMON_ENOMEM. A task enters the
 * heap once as a seed and at most twice more by its wait (its source's and anyone's),
 * so 3n entries suffice. */
static int reserve(order_scratch *s, size_t n)
{
	if (n <= s->cap)
		return 0;
	if (grow(&s->low, n, 1) < 0 || grow(&s->done, n, 1) < 0 ||
	    grow(&s->head, n, sizeof(*s->head)) < 0 || grow(&s->next, n, sizeof(*s->next)) < 0 ||
	    grow(&s->early, n, sizeof(*s->early)) < 0 ||
	    grow(&s->heap, 3 * n, sizeof(*s->heap)) < 0 ||
	    grow(&s->heap_key, 3 * n, sizeof(*s->heap_key)) < 0)
		return pvmmon_error_set(PVMMON_ENOMEM, "order: out of memory for %zu tasks", n);
	s->cap = n;
	return 0;
}

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

/* A binary min-heap of (time, task) in the scratch, entries possibly stale. */
static void heap_push(order_scratch *s, size_t *len, int64_t key, int32_t i)
{
	size_t k = (*len)++;

	while (k > 0 && s->heap_key[(k - 1) / 2] > key) {
		s->heap_key[k] = s->heap_key[(k - 1) / 2];
		s->heap[k] = s->heap[(k - 1) / 2];
		k = (k - 1) / 2;
	}
	s->heap_key[k] = key;
	s->heap[k] = i;
}

static int32_t heap_pop(order_scratch *s, size_t *len, int64_t *key)
{
	int32_t top = s->heap[0], last = s->heap[--*len];
	int64_t lk = s->heap_key[*len];
	size_t k = 0, c;

	*key = s->heap_key[0];
	while ((c = 2 * k + 1) < *len) {
		if (c + 1 < *len && s->heap_key[c + 1] < s->heap_key[c])
			c++;
		if (s->heap_key[c] >= lk)
			break;
		s->heap_key[k] = s->heap_key[c];
		s->heap[k] = s->heap[c];
		k = c;
	}
	s->heap_key[k] = lk;
	s->heap[k] = last;
	return top;
}

/* A blocked task's earliest send by its own state: its incoming message (by its wake
 * bound) or its candidate before xb (see order__decide's window for ties). */
static int64_t blocked_seed(const order_task *q, int64_t xb, int use_wake)
{
	int64_t e = ORDER_NEVER;

	if (q->incoming)
		e = use_wake ? max64(q->vt, q->wake) : q->vt;
	if (q->cand_va < xb && max64(q->vt, q->cand_va) < e)
		e = max64(q->vt, q->cand_va);
	return e;
}

/* Task w, woken by a send at e, sends no earlier than this. */
static int64_t woken_at(const order_task *w, int64_t e)
{
	int64_t c = w->credit > 0 ? w->credit : 0;

	return max64(w->vt, e > ORDER_NEVER - c ? ORDER_NEVER : e + c);
}

/* Relaxes waiter w by a send at e. */
static void relax(const order_task *t, order_scratch *s, size_t *len, int32_t w, int64_t e)
{
	int64_t a = woken_at(&t[w], e);

	if (!s->done[w] && a < s->early[w]) {
		s->early[w] = a;
		heap_push(s, len, a, w);
	}
}

/* order__low, where a blocked task's candidate counts only before xb (<= x): see
 * order__decide's window for ties. */
static long low_at(const order_task *t, size_t n, size_t req, int64_t x, int64_t xb,
                   order_scratch *s)
{
	size_t i, len = 0;
	long marked = 0;
	int32_t wild_first = -1; /* the wildcard waiters, chained through next[] */
	int wild_done = 0, rc;

	rc = reserve(s, n ? n : 1);
	if (rc < 0)
		return rc;
	memset(s->low, 0, n);
	memset(s->done, 0, n);
	for (i = 0; i < n; i++)
		s->head[i] = -1;
	for (i = 0; i < n; i++) {
		const order_task *q = &t[i];

		s->early[i] = ORDER_NEVER;
		if (i == req || q->state == ORDER_EXITED)
			continue;
		if (q->state == ORDER_RUNNING || s->naive) {
			s->early[i] = q->vt;
		} else {
			s->early[i] = blocked_seed(q, xb, s->use_wake);
			/* The waiting edges: waiters of one task in a list per task, waiters of
			 * anyone in one list; every list uses next[], since a task waits in one
			 * receive at a time. */
			if (q->wait_src < 0) {
				s->next[i] = wild_first;
				wild_first = (int32_t)i;
			} else if ((size_t)q->wait_src < n && (size_t)q->wait_src != req) {
				s->next[i] = s->head[q->wait_src];
				s->head[q->wait_src] = (int32_t)i;
			}
		}
		if (s->early[i] < ORDER_NEVER)
			heap_push(s, &len, s->early[i], (int32_t)i);
	}
	while (len) {
		int64_t e;
		int32_t j = heap_pop(s, &len, &e), w;

		if (s->done[j] || e != s->early[j])
			continue;
		s->done[j] = 1;
		for (w = s->head[j]; w >= 0; w = s->next[w])
			relax(t, s, &len, w, e);
		/* A task waiting on anyone is woken no earlier than the earliest send of any
		 * other task: the first one taken here, unless that is itself. */
		if (!wild_done) {
			wild_done = 1;
			for (w = wild_first; w >= 0; w = s->next[w])
				if (w != j)
					relax(t, s, &len, w, e);
		}
	}
	for (i = 0; i < n; i++)
		if (i != req && s->early[i] < x) {
			s->low[i] = 1;
			marked++;
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
	if (low_at(t, n, req, sub_credit(x, s->credit), sub_credit(xb, s->credit), s) < 0)
		return ORDER_WAIT;
	/* A sender with a message queued here sends nothing that overtakes it (PVM keeps
	 * each pair's order), and that message is a candidate already: only what it makes
	 * others send can come before x, and those others are low by their own earliest
	 * sends, one transmission later (s->early). */
	for (i = 0; i < nc; i++)
		if (c[i].src >= 0 && (size_t)c[i].src < n)
			s->done[c[i].src] = 2;
	if (src >= 0)
		held = (size_t)src < n && s->low[src] && s->done[src] != 2;
	else
		for (i = 0; i < n && !held; i++)
			held = s->low[i] && s->done[i] != 2;
	/* A message on its way may be earlier than every candidate: it must arrive first. */
	if (held || inflight)
		return ORDER_WAIT;
	if (nc && c[b].va <= deadline) {
		*best = b;
		return ORDER_TAKE;
	}
	return deadline == ORDER_NEVER ? ORDER_STUCK : ORDER_NONE;
}

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
