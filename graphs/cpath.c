/* The offline critical path of a traced run: the program activity graph, built whole, and its longest path. */
#include <stdlib.h>
#include <string.h>

#include "pvmmon/cpath.h"
#include "pvmmon/errors.h"
#include "figures.h"

#define NONE SIZE_MAX

/*
 * A node of the program activity graph. Every node has at most two in-arcs: the local
 * arc from the previous node of its task (work: prev, lw) and one arc from another
 * task (a message into a receive, or the spawn into a child's start: xpred, xw). It
 * has at most two out-arcs likewise (next, xsucc): a send is one event per
 * destination and a spawn one per child.
 */
typedef struct gnode {
	size_t task, event;
	pvmmon_cpath_kind kind;
	int64_t vt, resume;
	size_t prev, next; /* local neighbours, NONE at a task's ends */
	int64_t lw;        /* the local arc's weight into this node */
	size_t xpred, xsucc;
	int64_t xw;        /* the remote in-arc's weight */
	pvmmon_cpath_via xvia;
} gnode;

typedef struct graph {
	const pvmmon_log *log;
	size_t n, cap;
	gnode *nodes;
	size_t np;
	/* counts[i * np + k]: the local arc into node i is procedure k's time. */
	unsigned char *counts;
	size_t *start; /* each task's start node, NONE for a task that did not collect */
	unsigned char *born; /* the task's path starts at its own start: a spawn arc can
			      * lead there */
	size_t *order; /* the nodes in topological order */
} graph;

/*
 * The part of a task's trace that belongs to the selection's collection: the events
 * from..to-1, between its start of collection (start_ev, PVMMON_CPATH_NO_EVENT when that
 * is the task's start) and its stop (stop_ev, PVMMON_CPATH_NO_EVENT when it collected to
 * its end).
 */
typedef struct window {
	size_t from, to;
	size_t start_ev, stop_ev;
	int64_t start_vt, end_vt;
	int born;
} window;

/* Appends a node to task ti's chain; the local arc into it weighs vt minus the
 * previous node's resume time, never less than nothing. Returns its index or NONE. */
static size_t add_node(graph *g, size_t ti, size_t ev, pvmmon_cpath_kind kind, int64_t vt,
		       int64_t resume, size_t prev, const unsigned char *state)
{
	gnode *nd;

	if (g->n == g->cap) {
		size_t cap = g->cap ? 2 * g->cap : 64;
		gnode *a = realloc(g->nodes, cap * sizeof(*a));
		unsigned char *c = realloc(g->counts, cap * (g->np ? g->np : 1));

		if (a)
			g->nodes = a;
		if (c)
			g->counts = c;
		if (!a || !c)
			return NONE;
		g->cap = cap;
	}
	nd = &g->nodes[g->n];
	*nd = (gnode){ti, ev, kind, vt, resume, prev, NONE, 0, NONE, NONE, 0, PVMMON_CPATH_VIA_NONE};
	if (prev != NONE) {
		int64_t w = vt - g->nodes[prev].resume;

		nd->lw = w > 0 ? w : 0;
		g->nodes[prev].next = g->n;
	}
	if (g->np)
		memcpy(&g->counts[g->n * g->np], state, g->np);
	return g->n++;
}

/*
 * Which procedures' time the task's next local arc is, after an entry or exit of
 * procedure k: inclusive, every procedure with an open activation; exclusive, only the
 * innermost open one (a stack of selected indices, -1 for procedures not selected).
 */
typedef struct proc_state {
	int exclusive;
	size_t np;
	int *depth;
	int *stack;
	size_t nstack, capstack;
	unsigned char *counts;
} proc_state;

static int proc_change(proc_state *s, int enter, int k)
{
	int known = k >= 0 && (size_t)k < s->np;

	if (!s->exclusive) {
		if (known && enter)
			s->depth[k]++;
		else if (known && s->depth[k] > 0)
			s->depth[k]--;
		for (size_t j = 0; j < s->np; j++)
			s->counts[j] = s->depth[j] > 0;
		return 0;
	}
	if (enter) {
		if (s->nstack == s->capstack) {
			size_t cap = s->capstack ? 2 * s->capstack : 16;
			int *a = realloc(s->stack, cap * sizeof(*a));

			if (!a)
				return PVMMON_ENOMEM;
			s->stack = a;
			s->capstack = cap;
		}
		s->stack[s->nstack++] = k;
	} else if (s->nstack > 0) {
		s->nstack--;
	}
	memset(s->counts, 0, s->np);
	if (s->nstack > 0 && s->stack[s->nstack - 1] >= 0 &&
	    (size_t)s->stack[s->nstack - 1] < s->np)
		s->counts[s->stack[s->nstack - 1]] = 1;
	return 0;
}

/*
 * Finds task ti's window of collection for the log's selection. Returns 0 when the task
 * never collected it: it then has no part in the graph, as its samples have none in the
 * online result. whole: the trace records no starts of collection at all (a whole-run
 * selection traced without them), so every task collected from its start to its end.
 */
static int find_window(const pvmmon_log *log, size_t ti, int whole, window *w)
{
	const pvmmon_log_task *t = &log->tasks[ti];
	int32_t gen = (int32_t)log->cp.generation;
	size_t s;

	*w = (window){0, t->nevents, NONE, NONE, t->start_ns, t->start_ns + t->virtual_ns, 1};
	if (whole)
		return 1;
	for (s = 0; s < t->nevents; s++)
		if (t->events[s].op == PVMMON_EV_CPSTART && t->events[s].tag == gen)
			break;
	if (s == t->nevents)
		return 0;
	/* Events of earlier selections, before this start, do not count; the procedures
	 * open at the start are entered again after it. */
	w->from = s + 1;
	/* Collection started at registration (the trace's first event): a spawned task's
	 * path then continues its parent's. That start is at the task's start, or later
	 * when the task could not replay what it did before registering; the spawn arc
	 * reaches it there. Later, it started at a command or inside a receive and starts
	 * from nothing. */
	w->born = s == 0;
	w->start_vt = t->events[s].vt0;
	if (!w->born || w->start_vt != t->start_ns)
		w->start_ev = s;
	/* No selection comes after the log's, so the first stop after its start is its
	 * stop, whatever generation the event carries (logs do not record a stop's). */
	for (size_t p = w->from; p < t->nevents; p++)
		if (t->events[p].op == PVMMON_EV_CPSTOP) {
			/* The task's last sample is taken at its stop; nothing after counts. */
			w->to = p;
			w->stop_ev = p;
			w->end_vt = t->events[p].vt0;
			break;
		}
	return 1;
}

/* Adds task ti's chain of nodes: start, its events in window w that are nodes, end. */
static int add_task(graph *g, size_t ti, const window *w, proc_state *ps)
{
	const pvmmon_log_task *t = &g->log->tasks[ti];
	size_t prev;

	memset(ps->depth, 0, ps->np * sizeof(*ps->depth));
	memset(ps->counts, 0, ps->np);
	ps->nstack = 0;
	prev = add_node(g, ti, w->start_ev, PVMMON_CPATH_START, w->start_vt, w->start_vt, NONE,
			ps->counts);
	if (prev == NONE)
		return PVMMON_ENOMEM;
	g->start[ti] = prev;
	g->born[ti] = (unsigned char)w->born;
	for (size_t j = w->from; j < w->to; j++) {
		const pvmmon_log_event *e = &t->events[j];
		pvmmon_cpath_kind kind;
		int64_t vt = e->vt0, resume = e->vt0;

		if (e->op == PVMMON_EV_ENTER || e->op == PVMMON_EV_EXIT) {
			kind = e->op == PVMMON_EV_ENTER ? PVMMON_CPATH_ENTER : PVMMON_CPATH_EXIT;
		} else if (e->peer != 0 && e->seq >= 0 && pvmmon_event_op_sends(e->op)) {
			kind = PVMMON_CPATH_SEND;
		} else if (e->peer != 0 && e->seq >= 0 && pvmmon_event_op_receives(e->op)) {
			kind = PVMMON_CPATH_RECV;
			resume = e->vt0 + (e->sync > 0 ? e->sync : 0);
		} else if (e->peer != 0 && e->op == PVMMON_EV_SPAWN) {
			/* The children's paths start at the end of the real spawn call. */
			kind = PVMMON_CPATH_SPAWN;
			vt = resume = e->vt0 + (e->rt[2] - e->rt[0]);
		} else {
			continue;
		}
		/* The arc into this node is measured with the procedures open before it. */
		prev = add_node(g, ti, j, kind, vt, resume, prev, ps->counts);
		if (prev == NONE)
			return PVMMON_ENOMEM;
		if ((kind == PVMMON_CPATH_ENTER || kind == PVMMON_CPATH_EXIT) &&
		    proc_change(ps, kind == PVMMON_CPATH_ENTER, (int)e->tag) < 0)
			return PVMMON_ENOMEM;
	}
	if (add_node(g, ti, w->stop_ev, PVMMON_CPATH_END, w->end_vt, w->end_vt, prev, ps->counts) ==
	    NONE)
		return PVMMON_ENOMEM;
	return 0;
}

/* The message arcs: each send to the receive with the same receiver, sender and
 * sequence number; it weighs the receive's estimate of the transmission time. */
static int link_messages(graph *g, size_t *narcs)
{
	size_t nrecv = 0, k = 0;
	graphs_recv_key *keys;

	for (size_t i = 0; i < g->n; i++)
		nrecv += g->nodes[i].kind == PVMMON_CPATH_RECV;
	keys = calloc(nrecv ? nrecv : 1, sizeof(*keys));
	if (!keys)
		return PVMMON_ENOMEM;
	for (size_t i = 0; i < g->n; i++) {
		const gnode *nd = &g->nodes[i];

		if (nd->kind == PVMMON_CPATH_RECV) {
			const pvmmon_log_event *e = &g->log->tasks[nd->task].events[nd->event];

			keys[k++] = (graphs_recv_key){g->log->tasks[nd->task].tid, e->peer, e->seq, i,
						      0};
		}
	}
	graphs__sort_receives(keys, nrecv);
	for (size_t i = 0; i < g->n; i++) {
		gnode *nd = &g->nodes[i];
		const pvmmon_log_event *e;
		size_t lo;

		if (nd->kind != PVMMON_CPATH_SEND)
			continue;
		e = &g->log->tasks[nd->task].events[nd->event];
		lo = graphs__find_receive(keys, nrecv, e->peer, g->log->tasks[nd->task].tid, e->seq);
		/* The first receive with this key not yet taken by another send. */
		for (; lo < nrecv && keys[lo].to == e->peer &&
		       keys[lo].from == g->log->tasks[nd->task].tid && keys[lo].seq == e->seq;
		     lo++) {
			gnode *r = &g->nodes[keys[lo].a];

			if (r->xpred != NONE)
				continue;
			r->xpred = i;
			r->xw = g->log->tasks[r->task].events[r->event].trans;
			r->xvia = PVMMON_CPATH_VIA_MESSAGE;
			nd->xsucc = keys[lo].a;
			(*narcs)++;
			break;
		}
	}
	free(keys);
	return 0;
}

/* The spawn arcs: from the parent's spawn node to the child's start, weighing the real
 * time from the end of the spawn call to the child's start. */
static void link_spawns(graph *g, size_t *narcs)
{
	const pvmmon_log *log = g->log;

	for (size_t i = 0; i < g->n; i++) {
		gnode *nd = &g->nodes[i];
		const pvmmon_log_event *e;
		int32_t parent = log->tasks[nd->task].tid;

		if (nd->kind != PVMMON_CPATH_SPAWN)
			continue;
		e = &log->tasks[nd->task].events[nd->event];
		for (size_t c = 0; c < log->ntasks; c++) {
			gnode *s;
			int64_t w;

			/* A child that started collecting after its registration begins a path
			 * of its own. */
			if (log->tasks[c].tid != e->peer || log->tasks[c].parent_tid != parent ||
			    g->start[c] == NONE || !g->born[c])
				continue;
			s = &g->nodes[g->start[c]];
			if (s->xpred != NONE)
				continue;
			/* The child's start node is its start, or where it began collecting at
			 * its registration: the arc spans the real time up to it. */
			w = s->vt - e->rt[2];
			s->xpred = i;
			s->xw = w > 0 ? w : 0;
			s->xvia = PVMMON_CPATH_VIA_SPAWN;
			nd->xsucc = g->start[c];
			(*narcs)++;
			break;
		}
	}
}

/* Orders the nodes so that every arc goes forward (Kahn's algorithm). */
static int sort_graph(graph *g)
{
	unsigned char *indeg = calloc(g->n ? g->n : 1, 1);
	size_t head = 0, tail = 0;
	int rc = 0;

	g->order = malloc((g->n ? g->n : 1) * sizeof(*g->order));
	if (!indeg || !g->order) {
		rc = pvmmon_error_set(PVMMON_ENOMEM, "cpath: out of memory");
		goto out;
	}
	for (size_t i = 0; i < g->n; i++) {
		indeg[i] = (g->nodes[i].prev != NONE) + (g->nodes[i].xpred != NONE);
		if (!indeg[i])
			g->order[tail++] = i;
	}
	while (head < tail) {
		const gnode *nd = &g->nodes[g->order[head++]];

		if (nd->next != NONE && --indeg[nd->next] == 0)
			g->order[tail++] = nd->next;
		if (nd->xsucc != NONE && --indeg[nd->xsucc] == 0)
			g->order[tail++] = nd->xsucc;
	}
	if (tail != g->n)
		rc = pvmmon_error_set(PVMMON_EINVAL,
				      "cpath: the trace's messages and spawns form a cycle; the "
				      "log is damaged");
out:
	free(indeg);
	return rc;
}

/*
 * The longest path to every node into L (and, when via is not NULL, which in-arc gave
 * it). With zero >= 0 procedure zero's time weighs nothing. A remote arc wins only
 * when strictly longer than the local one, as in the online merge.
 */
static void longest(const graph *g, long zero, int64_t *L, pvmmon_cpath_via *via)
{
	for (size_t o = 0; o < g->n; o++) {
		size_t i = g->order[o];
		const gnode *nd = &g->nodes[i];
		int have = 0;
		int64_t best = 0;
		pvmmon_cpath_via how = PVMMON_CPATH_VIA_NONE;

		if (nd->prev != NONE) {
			int64_t w = nd->lw;

			if (zero >= 0 && g->counts[i * g->np + (size_t)zero])
				w = 0;
			best = L[nd->prev] + w;
			how = PVMMON_CPATH_VIA_LOCAL;
			have = 1;
		}
		if (nd->xpred != NONE && (!have || L[nd->xpred] + nd->xw > best)) {
			best = L[nd->xpred] + nd->xw;
			how = nd->xvia;
		}
		L[i] = best;
		if (via)
			via[i] = how;
	}
}

/* The largest L over the tasks' end nodes (the first task on ties), as a node index. */
static size_t best_end(const graph *g, const int64_t *L)
{
	size_t best = NONE;

	for (size_t i = 0; i < g->n; i++)
		if (g->nodes[i].kind == PVMMON_CPATH_END && (best == NONE || L[i] > L[best]))
			best = i;
	return best;
}

/* Walks back from the end node along the chosen arcs: the path and each procedure's
 * share (local arcs only; messages and spawns are no procedure's time). */
static int walk_back(const graph *g, const int64_t *L, const pvmmon_cpath_via *via, size_t end,
		     pvmmon_cpath *cp)
{
	size_t n = 0, i;

	for (i = end; i != NONE; n++)
		i = via[i] == PVMMON_CPATH_VIA_LOCAL ? g->nodes[i].prev
		    : via[i] == PVMMON_CPATH_VIA_NONE ? NONE
						      : g->nodes[i].xpred;
	cp->path = calloc(n ? n : 1, sizeof(*cp->path));
	if (!cp->path)
		return pvmmon_error_set(PVMMON_ENOMEM, "cpath: out of memory");
	cp->npath = n;
	for (i = end; i != NONE;) {
		const gnode *nd = &g->nodes[i];

		cp->path[--n] = (pvmmon_cpath_node){nd->task, nd->event, nd->vt, nd->resume,
						    nd->kind, via[i], L[i]};
		if (via[i] == PVMMON_CPATH_VIA_LOCAL) {
			for (size_t k = 0; k < g->np; k++)
				if (g->counts[i * g->np + k])
					cp->share_ns[k] += nd->lw;
			i = nd->prev;
		} else {
			i = via[i] == PVMMON_CPATH_VIA_NONE ? NONE : nd->xpred;
		}
	}
	return 0;
}

int pvmmon_cpath_compute(pvmmon_cpath **out, const pvmmon_log *log)
{
	graph g = {0};
	proc_state ps = {0};
	pvmmon_cpath *cp = NULL;
	int64_t *L = NULL;
	pvmmon_cpath_via *via = NULL;
	size_t end, narcs = 0;
	int rc = 0, whole = 1;

	if (out)
		*out = NULL;
	if (!log || !out)
		return pvmmon_error_set(PVMMON_EINVAL, "cpath: no log or no result");
	if (!log->trace.enabled)
		return pvmmon_error_set(PVMMON_EINVAL,
					"cpath: the run was not traced (pvmmon run --trace)");
	if (log->trace.dropped > 0)
		return pvmmon_error_set(PVMMON_EINVAL,
					"cpath: the trace is incomplete (%llu events dropped); "
					"record it with a larger --trace limit",
					(unsigned long long)log->trace.dropped);
	if (!log->cp.enabled || log->cp.nprocs == 0)
		return pvmmon_error_set(PVMMON_EINVAL,
					"cpath: the run selected no procedures (pvmmon run --cp=P,...)");
	/* A trace that records no task's start of collection can only be compared with a
	 * selection made at the run's start and kept to its end. */
	for (size_t ti = 0; ti < log->ntasks && whole; ti++)
		for (size_t j = 0; j < log->tasks[ti].nevents && whole; j++)
			whole = log->tasks[ti].events[j].op != PVMMON_EV_CPSTART;
	if (whole && (log->cp.from_ns > 0 || log->cp.to_ns >= 0 || log->cp.generation > 1))
		return pvmmon_error_set(PVMMON_EINVAL,
					"cpath: the profile covers an interval of the run only "
					"(pvmmon cp start|stop), but the trace does not show where "
					"the tasks started collecting");
	g.log = log;
	g.np = log->cp.nprocs;
	ps.exclusive = log->cp.exclusive;
	ps.np = g.np;
	ps.depth = calloc(g.np, sizeof(*ps.depth));
	ps.counts = calloc(g.np, 1);
	g.start = calloc(log->ntasks ? log->ntasks : 1, sizeof(*g.start));
	g.born = calloc(log->ntasks ? log->ntasks : 1, 1);
	cp = calloc(1, sizeof(*cp));
	if (cp) {
		cp->share_ns = calloc(g.np, sizeof(*cp->share_ns));
		cp->zero_ns = calloc(g.np, sizeof(*cp->zero_ns));
	}
	if (!ps.depth || !ps.counts || !g.start || !g.born || !cp || !cp->share_ns ||
	    !cp->zero_ns) {
		rc = pvmmon_error_set(PVMMON_ENOMEM, "cpath: out of memory");
		goto out;
	}
	for (size_t ti = 0; ti < log->ntasks; ti++) {
		window w;

		g.start[ti] = NONE;
		if (!find_window(log, ti, whole, &w))
			continue;
		rc = add_task(&g, ti, &w, &ps);
		if (rc < 0) {
			rc = pvmmon_error_set(rc, "cpath: out of memory");
			goto out;
		}
	}
	for (size_t i = 0; i < g.n; i++)
		narcs += g.nodes[i].prev != NONE;
	rc = link_messages(&g, &narcs);
	if (rc < 0) {
		rc = pvmmon_error_set(rc, "cpath: out of memory");
		goto out;
	}
	link_spawns(&g, &narcs);
	rc = sort_graph(&g);
	if (rc < 0)
		goto out;
	L = calloc(g.n ? g.n : 1, sizeof(*L));
	via = calloc(g.n ? g.n : 1, sizeof(*via));
	if (!L || !via) {
		rc = pvmmon_error_set(PVMMON_ENOMEM, "cpath: out of memory");
		goto out;
	}
	longest(&g, -1, L, via);
	end = best_end(&g, L);
	if (end == NONE) {
		rc = pvmmon_error_set(PVMMON_EINVAL,
				      log->ntasks ? "cpath: no task collected the selection's "
						    "critical path"
						  : "cpath: the log has no tasks");
		goto out;
	}
	cp->length_ns = L[end];
	cp->end_task = g.nodes[end].task;
	cp->end_tid = log->tasks[cp->end_task].tid;
	cp->exclusive = log->cp.exclusive;
	cp->nprocs = g.np;
	cp->nnodes = g.n;
	cp->narcs = narcs;
	rc = walk_back(&g, L, via, end, cp);
	if (rc < 0)
		goto out;
	/* Zeroing: the same graph with one procedure's time weighing nothing. */
	for (size_t k = 0; k < g.np; k++) {
		longest(&g, (long)k, L, NULL);
		cp->zero_ns[k] = cp->length_ns - L[best_end(&g, L)];
	}
	*out = cp;
	cp = NULL;
out:
	pvmmon_cpath_free(cp);
	free(L);
	free(via);
	free(g.nodes);
	free(g.counts);
	free(g.start);
	free(g.born);
	free(g.order);
	free(ps.depth);
	free(ps.stack);
	free(ps.counts);
	return rc;
}

void pvmmon_cpath_free(pvmmon_cpath *cp)
{
	if (!cp)
		return;
	free(cp->share_ns);
	free(cp->zero_ns);
	free(cp->path);
	free(cp);
}
