/* The decision rule of preserve mode: which queued message a nondeterministic receive
 * may take, by virtual time, with blocked tasks' bounds through the wait-for graph. */
#include <stdlib.h>
#include <string.h>

#include "order.h"

void order__scratch_free(order_scratch *s)
{
	free(s->low);
	free(s->head);
	free(s->next);
	free(s->queue);
	s->low = NULL;
	s->head = s->next = s->queue = NULL;
	s->cap = 0;
}

static int reserve(order_scratch *s, size_t n)
{
	uint8_t *low;
	int32_t *head, *next, *queue;

	if (n <= s->cap)
		return 0;
	low = realloc(s->low, n);
	if (low)
		s->low = low;
	head = realloc(s->head, n * sizeof(*head));
	if (head)
		s->head = head;
	next = realloc(s->next, n * sizeof(*next));
	if (next)
		s->next = next;
	queue = realloc(s->queue, n * sizeof(*queue));
	if (queue)
		s->queue = queue;
	if (!low || !head || !next || !queue)
		return -1;
	s->cap = n;
	return 0;
}

/* A blocked task that could start running before x without anyone else moving. */
static int about_to_run(const order_task *b, int64_t x)
{
	return b->incoming || b->cand_va < x;
}

long order__low(const order_task *t, size_t n, size_t req, int64_t x, order_scratch *s)
{
	size_t i, qh = 0, qt = 0, nw = 0;
	long marked = 0;
	int32_t wild_first = -1; /* the wildcard waiters, chained through next[] */
	int wild_done = 0;

	if (reserve(s, n ? n : 1) < 0)
		return -1;
	memset(s->low, 0, n);
	for (i = 0; i < n; i++)
		s->head[i] = -1;
	/* Seeds: tasks whose own state says they can send before x. */
	for (i = 0; i < n; i++) {
		const order_task *q = &t[i];

		if (i == req || q->state == ORDER_EXITED || q->vt >= x)
			continue;
		if (q->state == ORDER_RUNNING || s->naive || about_to_run(q, x)) {
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

int order__cand_before(const order_cand *a, const order_cand *b)
{
	int k;

	if (a->va != b->va)
		return a->va < b->va;
	k = strcmp(a->key ? a->key : "", b->key ? b->key : "");
	if (k != 0)
		return k < 0;
	return a->seq < b->seq;
}

order_verdict order__decide(const order_task *t, size_t n, size_t req, int32_t src,
			   const order_cand *c, size_t nc, int64_t deadline, int inflight,
			   order_scratch *s, size_t *best)
{
	size_t i, b = 0;
	int64_t x = deadline;
	int held = 0;

	for (i = 1; i < nc; i++)
		if (order__cand_before(&c[i], &c[b]))
			b = i;
	if (nc && c[b].va < x)
		x = c[b].va;
	if (order__low(t, n, req, x, s) < 0)
		return ORDER_WAIT;
	if (src >= 0)
		held = (size_t)src < n && s->low[src];
	else
		for (i = 0; i < n && !held; i++)
			held = s->low[i];
	/* A message on its way may be earlier than every candidate: it must arrive first. */
	if (held || inflight)
		return ORDER_WAIT;
	if (nc && c[b].va <= deadline) {
		*best = b;
		return ORDER_TAKE;
	}
	return deadline == ORDER_NEVER ? ORDER_STUCK : ORDER_NONE;
}
