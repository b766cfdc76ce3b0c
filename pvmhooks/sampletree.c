/*
 * The bounded calling-context tree of call-path samples (pvmhooks/sampletree.h), and
 * where its addresses are: the load segments of every module of the process, from
 * dl_iterate_phdr, so that an export finds each sampled address's module without
 * dladdr.
 *
 * Why not dladdr: it also looks for the nearest symbol, going through a module's whole
 * dynamic symbol table, some 20 us an address in libc; an export resolves every node
 * of the tree (up to 8192), which took 167 ms with dladdr and takes well under a
 * millisecond with the table (bench/sampleflush). Symbols are found after the run
 * (common/symbols.c). The sampler builds the table again at each flush
 * (sampletree__modules_clear), so that modules loaded since (dlopen) are found.
 */
#include <elf.h>
#include <link.h>
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

/* Where sampled addresses are: the process's executable load segments. */

typedef struct mod_seg {
	uintptr_t lo, hi; /* a load segment's addresses */
	uintptr_t base;   /* its module's base (the first segment's page) */
	size_t path;      /* its module's path: an index into the paths */
} mod_seg;

static struct {
	mod_seg *segs;
	size_t nsegs, cap;
	char **paths;
	size_t npaths;
	int built;
} mods;

static int add_seg(uintptr_t lo, uintptr_t hi, uintptr_t base, size_t path)
{
	if (mods.nsegs == mods.cap) {
		size_t cap = mods.cap ? mods.cap * 2 : 64;
		mod_seg *s = realloc(mods.segs, cap * sizeof(*s));

		if (!s)
			return -1;
		mods.segs = s;
		mods.cap = cap;
	}
	mods.segs[mods.nsegs++] = (mod_seg){lo, hi, base, path};
	return 0;
}

/* The main program's name is empty: its path is /proc/self/exe's target. */
static char *path_of(const char *name)
{
	return name && name[0] ? strdup(name) : realpath("/proc/self/exe", NULL);
}

static int one_module(struct dl_phdr_info *info, size_t size, void *arg)
{
	uintptr_t base = UINTPTR_MAX;
	char **paths, *path;

	(void)size;
	(void)arg;
	for (int i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_LOAD &&
		    info->dlpi_addr + info->dlpi_phdr[i].p_vaddr < base)
			base = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;
	if (base == UINTPTR_MAX || !(path = path_of(info->dlpi_name)))
		return 0;
	paths = realloc(mods.paths, (mods.npaths + 1) * sizeof(*paths));
	if (!paths) {
		free(path);
		return 0;
	}
	mods.paths = paths;
	mods.paths[mods.npaths] = path;
	/* As dladdr's dli_fbase: the page the first segment starts in. */
	base &= ~(uintptr_t)0xfff;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *p = &info->dlpi_phdr[i];

		if (p->p_type == PT_LOAD && (p->p_flags & PF_X))
			add_seg(info->dlpi_addr + p->p_vaddr, info->dlpi_addr + p->p_vaddr + p->p_memsz,
			        base, mods.npaths);
	}
	mods.npaths++;
	return 0;
}

void sampletree__modules_clear(void)
{
	for (size_t i = 0; i < mods.npaths; i++)
		free(mods.paths[i]);
	free(mods.paths);
	free(mods.segs);
	memset(&mods, 0, sizeof(mods));
}

static const mod_seg *find(uintptr_t a)
{
	for (size_t i = 0; i < mods.nsegs; i++)
		if (a >= mods.segs[i].lo && a < mods.segs[i].hi)
			return &mods.segs[i];
	return NULL;
}

int sampletree__where(uintptr_t pc, const char **module, uint64_t *offset)
{
	const mod_seg *s;

	if (!mods.built) {
		dl_iterate_phdr(one_module, NULL);
		mods.built = 1;
	}
	s = find(pc - 1);
	if (!s)
		return -1;
	*module = mods.paths[s->path];
	*offset = (uint64_t)(pc - s->base);
	return 0;
}
