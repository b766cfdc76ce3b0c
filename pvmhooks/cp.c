/* Online critical-path profiling: the per-task tuple and its updates (seed 003). */
#include <string.h>

#include "cp.h"

void cp__init(cp_state *s, uint32_t n, int exclusive, uint32_t gen)
{
	memset(s, 0, sizeof(*s));
	s->t.n = n > WIRE_CP_MAX ? WIRE_CP_MAX : n;
	s->t.gen = gen;
	s->exclusive = exclusive;
}

/* Whether tuple c was collected for s's selection. */
static int same_selection(const cp_state *s, const wire_cp *c)
{
	return c && c->on && c->n == s->t.n && c->gen == s->t.gen;
}

/* Whether time now counts for procedure k's share. */
static int counts(const cp_state *s, uint32_t k)
{
	if (s->exclusive)
		return s->nstack > 0 && s->stack[s->nstack - 1] == (int)k;
	return s->depth[k] > 0;
}

static void add(cp_state *s, int64_t d)
{
	uint32_t k;

	s->t.longest += d;
	for (k = 0; k < s->t.n; k++) {
		s->t.zlong[k] += d;
		if (counts(s, k)) {
			s->t.share[k] += d;
			s->t.zshare[k] += d;
		}
	}
}

void cp__start(cp_state *s, int64_t v, const wire_cp *from, int64_t arc, const int *open,
	      int nopen)
{
	uint32_t n = s->t.n, gen = s->t.gen, k;
	int i;

	memset(&s->t, 0, sizeof(s->t));
	s->t.n = n;
	s->t.gen = gen;
	s->t.on = 1;
	s->stopped = 0;
	if (same_selection(s, from)) {
		s->t.longest = from->longest;
		for (k = 0; k < n; k++) {
			s->t.share[k] = from->share[k];
			s->t.zlong[k] = from->zlong[k];
			s->t.zshare[k] = from->zshare[k];
		}
		/* The arc from the parent (or the message) is no procedure's time. */
		if (arc > 0) {
			s->t.longest += arc;
			for (k = 0; k < n; k++)
				s->t.zlong[k] += arc;
		}
	}
	if (!open) {
		s->last = v;
		return;
	}
	memset(s->depth, 0, sizeof(s->depth));
	s->nstack = 0;
	for (i = 0; i < nopen; i++) {
		if (open[i] >= 0 && (uint32_t)open[i] < n)
			s->depth[open[i]]++;
		if (s->nstack < CP_STACK_MAX)
			s->stack[s->nstack++] = open[i];
	}
	s->last = v;
}

void cp__stop(cp_state *s)
{
	s->t.on = 0;
	s->stopped = 1;
}

void cp__advance(cp_state *s, int64_t v)
{
	if (!s->t.on)
		return;
	if (v > s->last) {
		add(s, v - s->last);
		s->last = v;
	}
}

void cp__enter(cp_state *s, int k, int64_t v)
{
	cp__advance(s, v);
	if (k >= 0 && (uint32_t)k < s->t.n)
		s->depth[k]++;
	if (s->nstack < CP_STACK_MAX)
		s->stack[s->nstack++] = k;
}

void cp__exit(cp_state *s, int k, int64_t v)
{
	cp__advance(s, v);
	if (k >= 0 && (uint32_t)k < s->t.n && s->depth[k] > 0)
		s->depth[k]--;
	if (s->nstack > 0)
		s->nstack--;
}

void cp__receive(cp_state *s, int64_t v0, int64_t sync, int64_t trans, const wire_cp *remote)
{
	int has = same_selection(s, remote);
	uint32_t k;

	if (!s->t.on) {
		/* Case 3 starts collection here; case 1 leaves it off, and so does a tuple
		 * sent before a stop that reaches the task after it. The procedures open now
		 * were recorded by enter/exit all along. */
		if (!has || s->stopped)
			return;
		s->t.on = 1;
		s->t.longest = 0;
		memset(s->t.share, 0, sizeof(s->t.share));
		memset(s->t.zlong, 0, sizeof(s->t.zlong));
		memset(s->t.zshare, 0, sizeof(s->t.zshare));
		s->last = v0;
	}
	cp__advance(s, v0);
	if (has) {
		int64_t r = remote->longest + trans;

		if (r > s->t.longest) {
			s->t.longest = r;
			memcpy(s->t.share, remote->share, sizeof(s->t.share[0]) * s->t.n);
		}
		/* Zeroing (Figure 5): per procedure, the path that is longest once that
		 * procedure's own share is taken out. */
		for (k = 0; k < s->t.n; k++) {
			int64_t rz = remote->zlong[k] + trans;

			if (rz - remote->zshare[k] > s->t.zlong[k] - s->t.zshare[k]) {
				s->t.zlong[k] = rz;
				s->t.zshare[k] = remote->zshare[k];
			}
		}
	}
	/* The wait for the message is not work on any path. */
	if (sync > 0)
		s->last = v0 + sync;
}
