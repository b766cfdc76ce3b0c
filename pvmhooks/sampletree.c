/* The bounded calling-context tree of call-path samples (pvmhooks/sampletree.h). */
#include <stdlib.h>
#include <string.h>

#include "pvmmon/errors.h"
#include "sampletree.h"

int sampletree__init(stree *t, uint32_t cap)
{
	memset(t, 0, sizeof(*t));
	if (cap < 2)
		cap = 2;
	t->nodes = calloc(cap, sizeof(*t->nodes));
	if (!t->nodes)
		return PVMMON_ENOMEM;
	t->cap = cap;
	t->used = 1;
	return 0;
}

void sampletree__free(stree *t)
{
	free(t->nodes);
	memset(t, 0, sizeof(*t));
}

/* The node of pc under parent, appended when there is none and room; 0 when full. */
static uint32_t child_of(stree *t, uint32_t parent, uintptr_t pc)
{
	stree_node *p = &t->nodes[parent], *n;
	uint32_t i;

	for (i = p->child; i; i = t->nodes[i].sibling)
		if (t->nodes[i].pc == pc)
			return i;
	if (t->used >= t->cap)
		return 0;
	i = t->used;
	n = &t->nodes[i];
	memset(n, 0, sizeof(*n));
	n->pc = pc;
	n->parent = parent;
	n->sibling = p->child;
	/* Whole before it is linked and counted: an interrupted reader sees it or not. */
	__atomic_store_n(&p->child, i, __ATOMIC_RELEASE);
	__atomic_store_n(&t->used, i + 1, __ATOMIC_RELEASE);
	return i;
}

void sampletree__add(stree *t, const uintptr_t *pcs, int n, int state, uint64_t weight)
{
	uint32_t at = 0, next;

	if (!t->nodes || state < 0 || state >= PVMMON_SAMPLE_NSTATES)
		return;
	t->total += weight;
	for (int k = n - 1; k >= 0; k--) {
		next = child_of(t, at, pcs[k]);
		if (!next) {
			t->truncated += weight;
			break;
		}
		at = next;
	}
	t->nodes[at].self[state] += weight;
}

/* The module's index in s, added when new; -1 when memory is short. */
static int64_t module_index(pvmmon_log_samples *s, const char *path)
{
	char **m;

	for (size_t i = 0; i < s->nmodules; i++)
		if (!strcmp(s->modules[i], path))
			return (int64_t)i;
	m = realloc(s->modules, (s->nmodules + 1) * sizeof(*m));
	if (!m)
		return -1;
	s->modules = m;
	if (!(m[s->nmodules] = strdup(path)))
		return -1;
	return (int64_t)s->nmodules++;
}

pvmmon_log_samples *sampletree__export(const stree *t, uint32_t hz, stree_where where)
{
	uint32_t used = __atomic_load_n(&t->used, __ATOMIC_ACQUIRE);
	pvmmon_log_samples *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->hz = hz;
	s->total = t->total;
	s->truncated = t->truncated;
	s->cost_ns = t->cost_ns;
	if (used > 1 && !(s->nodes = calloc(used - 1, sizeof(*s->nodes))))
		goto fail;
	for (uint32_t i = 1; i < used; i++) {
		const stree_node *n = &t->nodes[i];
		pvmmon_log_snode *o = &s->nodes[i - 1];
		const char *module = NULL;
		uint64_t offset = 0;
		int64_t m;

		if (!where || where(n->pc, &module, &offset) != 0 || !module) {
			module = "?";
			offset = n->pc;
		}
		if ((m = module_index(s, module)) < 0)
			goto fail;
		o->parent = (int32_t)n->parent - 1;
		o->module = (uint32_t)m;
		o->offset = offset;
		memcpy(o->self, n->self, sizeof(o->self));
		s->nnodes++;
	}
	return s;
fail:
	pvmmon_log_samples_free(s);
	return NULL;
}
