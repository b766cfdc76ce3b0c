/*
 * The code modules of the process for call-path samples (pvmhooks/samplemods.h): the
 * load segments of every module, from dl_iterate_phdr, so that a flush finds each
 * sampled address's module without dladdr.
 *
 * Why not dladdr: it also looks for the nearest symbol, going through a module's whole
 * dynamic symbol table, some 20 us an address in libc; a flush resolves every node of
 * the tree (up to 8192), which took 167 ms with dladdr and takes well under a
 * millisecond with the table (bench/sampleflush). Symbols are found after the run
 * (common/symbols.c). The sampler builds the table again at each flush
 * (samplemods__clear), so that modules loaded since (dlopen) are found.
 */
#include <elf.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>

#include "samplemods.h"

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

void samplemods__clear(void)
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

int samplemods__where(uintptr_t pc, const char **module, uint64_t *offset)
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
