/* Building a task's call graph from its proc records, mutual recursion collapsed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pvmmon/callgraph.h"
#include "pvmmon/errors.h"

/* The procedures named in the records, and the call relation between them. */
typedef struct builder {
	char **names;   /* borrowed from the log */
	size_t nnames, cap;
	size_t *adj;    /* adjacency pairs: adj[2k] calls adj[2k+1] */
	size_t nadj, adjcap;
	/* Tarjan's strongly connected components. */
	size_t *index, *low, *stack, *comp;
	char *on_stack;
	size_t next_index, depth, ncomps;
} builder;

#define NONE ((size_t)-1)

static size_t name_index(builder *b, const char *name, int add)
{
	for (size_t i = 0; i < b->nnames; i++)
		if (!strcmp(b->names[i], name))
			return i;
	if (!add)
		return NONE;
	if (b->nnames == b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 32;
		char **n = realloc(b->names, cap * sizeof(*n));

		if (!n)
			return NONE;
		b->names = n;
		b->cap = cap;
	}
	b->names[b->nnames] = (char *)name;
	return b->nnames++;
}

/* Appends the arc from -> to; 0, or PVMMON_ENOMEM (reported by the caller). */
static int add_arc(builder *b, size_t from, size_t to)
{
	if (b->nadj == b->adjcap) {
		size_t cap = b->adjcap ? b->adjcap * 2 : 64;
		size_t *a = realloc(b->adj, 2 * cap * sizeof(*a));

		if (!a)
			return PVMMON_ENOMEM;
		b->adj = a;
		b->adjcap = cap;
	}
	b->adj[2 * b->nadj] = from;
	b->adj[2 * b->nadj + 1] = to;
	b->nadj++;
	return 0;
}

/*
 * Tarjan's algorithm, recursive: its depth is bounded by the number of distinct
 * procedures of one program, which is small. Components come out callees first; comp[]
 * gets their numbers.
 */
static void strongconnect(builder *b, size_t v)
{
	b->index[v] = b->low[v] = b->next_index++;
	b->stack[b->depth++] = v;
	b->on_stack[v] = 1;
	for (size_t k = 0; k < b->nadj; k++) {
		size_t w;

		if (b->adj[2 * k] != v)
			continue;
		w = b->adj[2 * k + 1];
		if (b->index[w] == NONE) {
			strongconnect(b, w);
			if (b->low[w] < b->low[v])
				b->low[v] = b->low[w];
		} else if (b->on_stack[w] && b->index[w] < b->low[v]) {
			b->low[v] = b->index[w];
		}
	}
	if (b->low[v] == b->index[v]) {
		size_t w;

		do {
			w = b->stack[--b->depth];
			b->on_stack[w] = 0;
			b->comp[w] = b->ncomps;
		} while (w != v);
		b->ncomps++;
	}
}

/* The strongly connected components (mutual recursion); 0, or PVMMON_ENOMEM. */
static int find_components(builder *b)
{
	size_t n = b->nnames ? b->nnames : 1;

	b->index = malloc(n * sizeof(size_t));
	b->low = malloc(n * sizeof(size_t));
	b->stack = malloc(n * sizeof(size_t));
	b->comp = malloc(n * sizeof(size_t));
	b->on_stack = calloc(n, 1);
	if (!b->index || !b->low || !b->stack || !b->comp || !b->on_stack)
		return PVMMON_ENOMEM;
	for (size_t i = 0; i < b->nnames; i++)
		b->index[i] = NONE;
	for (size_t i = 0; i < b->nnames; i++)
		if (b->index[i] == NONE)
			strongconnect(b, i);
	return 0;
}

static void builder_free(builder *b)
{
	free(b->names);
	free(b->adj);
	free(b->index);
	free(b->low);
	free(b->stack);
	free(b->comp);
	free(b->on_stack);
}

/* The edge from -> to made at caller's call_line, added if new; NULL when out of memory. */
static pvmmon_cg_edge *edge_for(pvmmon_callgraph *cg, size_t *cap, size_t from, size_t to,
				const char *caller, int32_t call_line)
{
	pvmmon_cg_edge *e;

	for (size_t i = 0; i < cg->nedges; i++) {
		e = &cg->edges[i];
		if (e->from == from && e->to == to && e->call_line == call_line &&
		    (caller ? e->caller && !strcmp(e->caller, caller) : !e->caller))
			return e;
	}
	if (cg->nedges == *cap) {
		size_t c = *cap ? *cap * 2 : 32;
		pvmmon_cg_edge *grown = realloc(cg->edges, c * sizeof(*grown));

		if (!grown)
			return NULL;
		cg->edges = grown;
		*cap = c;
	}
	e = &cg->edges[cg->nedges];
	memset(e, 0, sizeof(*e));
	e->from = from;
	e->to = to;
	e->call_line = call_line;
	if (caller && !(e->caller = strdup(caller)))
		return NULL;
	cg->nedges++;
	return e;
}

/*
 * The member through which a group is entered from outside: the one with the most calls
 * from outside the group (a root's calls count), the first seen on a tie. Calls rather
 * than time, because a recursive entry's inclusive time is the same however it is
 * reached; the tie rule makes the choice the same for the same log.
 */
static size_t entry_member(const pvmmon_cg_node *n, builder *b, const pvmmon_log_task *task,
			   size_t comp)
{
	size_t best = 0;
	uint64_t best_calls = 0;

	for (size_t j = 0; j < n->nmembers; j++) {
		uint64_t calls = 0;

		for (size_t i = 0; i < task->nprocs; i++) {
			const pvmmon_log_proc *p = &task->procs[i];

			if (p->counted || strcmp(p->name ? p->name : "?", n->members[j]))
				continue;
			if (!p->caller || b->comp[name_index(b, p->caller, 0)] != comp)
				calls += p->count;
		}
		if (calls > best_calls) {
			best = j;
			best_calls = calls;
		}
	}
	return best;
}

/*
 * A node's name: the procedure; two members joined by '+', the entry first ("a+b" reads
 * best); from three on, the entry and how many more ("eval and 23 more, mutually
 * recursive"), the whole list being in members[].
 */
static char *node_name(const pvmmon_cg_node *n)
{
	char *name = NULL;

	if (n->nmembers == 1)
		return strdup(n->members[0]);
	if (n->nmembers == 2) {
		if (asprintf(&name, "%s+%s", n->members[0], n->members[1]) < 0)
			return NULL;
		return name;
	}
	if (asprintf(&name, "%s and %zu more, mutually recursive", n->members[0],
		     n->nmembers - 1) < 0)
		return NULL;
	return name;
}

/* Gives each component a node: its members, the entry first then in first-seen order,
 * and its name; 0, or PVMMON_ENOMEM. */
static int make_nodes(pvmmon_callgraph *cg, builder *b, const pvmmon_log_task *task,
		      size_t *node_of_comp)
{
	cg->nodes = calloc(b->ncomps ? b->ncomps : 1, sizeof(*cg->nodes));
	if (!cg->nodes)
		return PVMMON_ENOMEM;
	for (size_t c = 0; c < b->ncomps; c++)
		node_of_comp[c] = NONE;
	for (size_t i = 0; i < b->nnames; i++) {
		size_t c = b->comp[i];
		pvmmon_cg_node *n;
		char **m;

		if (node_of_comp[c] == NONE)
			node_of_comp[c] = cg->nnodes++;
		n = &cg->nodes[node_of_comp[c]];
		m = realloc(n->members, (n->nmembers + 1) * sizeof(*m));
		if (!m)
			return PVMMON_ENOMEM;
		n->members = m;
		if (!(m[n->nmembers] = strdup(b->names[i])))
			return PVMMON_ENOMEM;
		n->nmembers++;
	}
	for (size_t c = 0; c < b->ncomps; c++) {
		pvmmon_cg_node *n = &cg->nodes[node_of_comp[c]];
		size_t entry = n->nmembers > 1 ? entry_member(n, b, task, c) : 0;
		char *first = n->members[entry];

		/* The entry to the front, the others keeping their order. */
		memmove(n->members + 1, n->members, entry * sizeof(*n->members));
		n->members[0] = first;
		if (!(n->name = node_name(n)))
			return PVMMON_ENOMEM;
		n->recursive = n->nmembers > 1;
		for (size_t i = 0; i < task->nprocs; i++)
			if (!strcmp(task->procs[i].name ? task->procs[i].name : "?", n->members[0])) {
				n->line = task->procs[i].line;
				if (task->procs[i].file && !(n->file = strdup(task->procs[i].file)))
					return PVMMON_ENOMEM;
				break;
			}
	}
	return 0;
}

/* Sums the records into nodes and call-site edges; 0, or PVMMON_ENOMEM. */
static int add_records(pvmmon_callgraph *cg, builder *b, const pvmmon_log_task *task,
		       const size_t *node_of_comp)
{
	size_t cap = 0;

	for (size_t i = 0; i < task->nprocs; i++) {
		const pvmmon_log_proc *p = &task->procs[i];
		size_t to = node_of_comp[b->comp[name_index(b, p->name ? p->name : "?", 0)]];
		size_t from = PVMMON_CG_ROOT;
		pvmmon_cg_node *n = &cg->nodes[to];
		pvmmon_cg_edge *e;

		n->excl_ns += p->excl_ns;
		if (p->counted) {
			n->counted = 1;
			n->calls += p->count;
			continue;
		}
		if (p->caller)
			from = node_of_comp[b->comp[name_index(b, p->caller, 0)]];
		if (from == to) {
			/* A call from inside the node: its time is the outer activation's. */
			n->recursive = 1;
			n->inner_calls += p->count;
			continue;
		}
		n->calls += p->count;
		n->incl_ns += p->incl_ns;
		if (from != PVMMON_CG_ROOT)
			cg->nodes[from].callees_ns += p->incl_ns;
		e = edge_for(cg, &cap, from, to, p->caller, p->call_line);
		if (!e)
			return PVMMON_ENOMEM;
		e->calls += p->count;
		e->incl_ns += p->incl_ns;
	}
	return 0;
}

static int cmp_edge(const void *a, const void *b)
{
	const pvmmon_cg_edge *x = a, *y = b;

	if (x->to != y->to)
		return x->to < y->to ? -1 : 1;
	if (x->incl_ns != y->incl_ns)
		return x->incl_ns > y->incl_ns ? -1 : 1;
	return (x->call_line > y->call_line) - (x->call_line < y->call_line);
}

int pvmmon_callgraph_build(pvmmon_callgraph **out, const pvmmon_log_task *task)
{
	builder b = {0};
	pvmmon_callgraph *cg = NULL;
	size_t *node_of_comp = NULL;
	int rc = 0;

	if (!out || !task)
		return pvmmon_error_set(PVMMON_EINVAL, "callgraph: no task or no output");
	*out = NULL;
	cg = calloc(1, sizeof(*cg));
	if (!cg)
		goto nomem;
	for (size_t i = 0; i < task->nprocs; i++) {
		const pvmmon_log_proc *p = &task->procs[i];
		size_t to = name_index(&b, p->name ? p->name : "?", 1);

		if (to == NONE)
			goto nomem;
		if (p->caller && !p->counted) {
			size_t from = name_index(&b, p->caller, 1);

			if (from == NONE || add_arc(&b, from, to) < 0)
				goto nomem;
		}
	}
	if (find_components(&b) < 0)
		goto nomem;
	node_of_comp = malloc((b.ncomps ? b.ncomps : 1) * sizeof(*node_of_comp));
	if (!node_of_comp || make_nodes(cg, &b, task, node_of_comp) < 0 ||
	    add_records(cg, &b, task, node_of_comp) < 0)
		goto nomem;
	if (cg->nedges)
		qsort(cg->edges, cg->nedges, sizeof(*cg->edges), cmp_edge);
	*out = cg;
	cg = NULL;
	goto out;
nomem:
	rc = pvmmon_error_set(PVMMON_ENOMEM, "callgraph: out of memory");
out:
	free(node_of_comp);
	builder_free(&b);
	pvmmon_callgraph_free(cg);
	return rc;
}

size_t pvmmon_callgraph_find(const pvmmon_callgraph *cg, const char *name)
{
	for (size_t i = 0; cg && name && i < cg->nnodes; i++)
		for (size_t j = 0; j < cg->nodes[i].nmembers; j++)
			if (!strcmp(cg->nodes[i].members[j], name))
				return i;
	return PVMMON_CG_ROOT;
}

void pvmmon_callgraph_free(pvmmon_callgraph *cg)
{
	if (!cg)
		return;
	for (size_t i = 0; i < cg->nnodes; i++) {
		for (size_t j = 0; j < cg->nodes[i].nmembers; j++)
			free(cg->nodes[i].members[j]);
		free(cg->nodes[i].members);
		free(cg->nodes[i].name);
		free(cg->nodes[i].file);
	}
	for (size_t i = 0; i < cg->nedges; i++)
		free(cg->edges[i].caller);
	free(cg->nodes);
	free(cg->edges);
	free(cg);
}
