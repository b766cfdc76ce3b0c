/*
 * Where a wrapped call's statement is (callsite.h): past PVM's Fortran binding to the
 * Fortran caller's line, and inside a group operation, the group call's own site.
 *
 * The Fortran binding (libfpvm3) is a static archive on Debian, so its routines are
 * functions of the program itself, with no dynamic symbols: they are recognised by
 * the names in the program's symbol table (pvmf*_), read once per module. A call
 * through them is the only case that unwinds (libgcc's unwinder, from the binding's
 * unwind tables, stopping at the binding's caller), and once per binding address and
 * caller: later calls read the caller from the stack slot the unwind found. Every
 * other site is its wrapper's return address, as before.
 */
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <unwind.h>

#include "callsite.h"
#include "ptrmap.h"

/* Frames looked at above the wrapper: the binding is one or two deep. */
#define MAX_FRAMES 32

enum { SITE_USER = 1, SITE_BINDING = 2, SITE_CALLER = 3 };

/* The binding's routines in one loaded module: [lo, hi) address ranges. */
typedef struct binding_module {
	const void *base;
	uintptr_t *lo, *hi;
	size_t n;
} binding_module;

static ptrmap kinds; /* code address -> SITE_USER, SITE_BINDING or SITE_CALLER */
/* A return address in the binding -> where its caller's return address lies on the
 * stack, from callsite__user's CFA (see past_binding). */
static ptrmap slots;
static binding_module *mods;
static size_t nmods;

static int group_depth;
static void *group_site;

/* A routine of the binding: gfortran names pvmfsend as pvmfsend_ (or pvmfsend__ with
 * -fsecond-underscore). */
static int binding_name(const char *name)
{
	size_t len = name ? strlen(name) : 0;

	return len > 5 && !strncmp(name, "pvmf", 4) && name[len - 1] == '_';
}

/* Adds symbol value..value+size, loaded at base with the lowest segment at low. */
static void add_range(binding_module *m, uintptr_t base, uint64_t low, const Elf64_Sym *s)
{
	uintptr_t *lo = realloc(m->lo, (m->n + 1) * sizeof(*lo));
	uintptr_t *hi = lo ? realloc(m->hi, (m->n + 1) * sizeof(*hi)) : NULL;

	if (lo)
		m->lo = lo;
	if (!hi)
		return;
	m->hi = hi;
	m->lo[m->n] = base + (uintptr_t)(s->st_value - low);
	m->hi[m->n] = m->lo[m->n] + (uintptr_t)s->st_size;
	m->n++;
}

/*
 * Reads the binding's routines from the symbol table of the ELF file image (size
 * bytes) loaded at base. Only bounds-checked reads: a file that is not what it seems
 * gives no ranges.
 */
static void scan_image(binding_module *m, const unsigned char *img, size_t size, uintptr_t base)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img;
	const Elf64_Shdr *sh;
	uint64_t low = UINT64_MAX;

	if (size < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_shentsize != sizeof(*sh) ||
	    eh->e_shoff > size || (size - eh->e_shoff) / sizeof(*sh) < eh->e_shnum ||
	    eh->e_phoff > size || (size - eh->e_phoff) / sizeof(Elf64_Phdr) < eh->e_phnum)
		return;
	for (int i = 0; i < eh->e_phnum; i++) {
		const Elf64_Phdr *ph = (const Elf64_Phdr *)(img + eh->e_phoff) + i;

		if (ph->p_type == PT_LOAD && ph->p_vaddr < low)
			low = ph->p_vaddr;
	}
	if (low == UINT64_MAX)
		return;
	low &= ~(uint64_t)0xfff; /* dladdr's base is the first segment's page */
	sh = (const Elf64_Shdr *)(img + eh->e_shoff);
	for (int i = 0; i < eh->e_shnum; i++) {
		const Elf64_Shdr *st = &sh[i], *str;

		if (st->sh_type != SHT_SYMTAB || st->sh_link >= eh->e_shnum)
			continue;
		str = &sh[st->sh_link];
		if (st->sh_offset > size || st->sh_size > size - st->sh_offset ||
		    str->sh_offset > size || str->sh_size > size - str->sh_offset ||
		    !str->sh_size || img[str->sh_offset + str->sh_size - 1] != '\0')
			continue; /* names must end inside the string table */
		for (size_t k = 0; k < st->sh_size / sizeof(Elf64_Sym); k++) {
			const Elf64_Sym *s = (const Elf64_Sym *)(img + st->sh_offset) + k;

			if (ELF64_ST_TYPE(s->st_info) != STT_FUNC || !s->st_size ||
			    s->st_name >= str->sh_size)
				continue;
			if (binding_name((const char *)img + str->sh_offset + s->st_name))
				add_range(m, base, low, s);
		}
	}
}

/* The binding's routines in the module loaded at base from path (the main program's
 * dladdr name may be relative or empty: /proc/self/exe is the file then). */
static binding_module *module_of(const void *base, const char *path)
{
	binding_module *m;
	struct stat sb;
	void *img;
	int fd;

	for (size_t i = 0; i < nmods; i++)
		if (mods[i].base == base)
			return &mods[i];
	m = realloc(mods, (nmods + 1) * sizeof(*m));
	if (!m)
		return NULL;
	mods = m;
	m = &mods[nmods++];
	memset(m, 0, sizeof(*m));
	m->base = base;
	if (!path || path[0] != '/')
		path = "/proc/self/exe";
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return m;
	if (fstat(fd, &sb) == 0 && sb.st_size > 0) {
		img = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (img != MAP_FAILED) {
			scan_image(m, img, (size_t)sb.st_size, (uintptr_t)base);
			munmap(img, (size_t)sb.st_size);
		}
	}
	close(fd);
	return m;
}

int callsite__in_binding(const void *pc)
{
	Dl_info info;
	const char *file;
	binding_module *m;

	if (!dladdr(pc, &info) || !info.dli_fbase)
		return 0;
	file = info.dli_fname ? strrchr(info.dli_fname, '/') : NULL;
	file = file ? file + 1 : info.dli_fname;
	if ((file && !strncmp(file, "libfpvm3", 8)) || binding_name(info.dli_sname))
		return 1;
	m = module_of(info.dli_fbase, info.dli_fname);
	for (size_t i = 0; m && i < m->n; i++)
		if ((uintptr_t)pc >= m->lo[i] && (uintptr_t)pc < m->hi[i])
			return 1;
	return 0;
}

/* The kind of code address pc, classified at its first sight. SITE_CALLER is a
 * program's address where it called the binding, seen by an unwind. */
static size_t kind_of(const void *pc)
{
	size_t *k = ptrmap__find(&kinds, pc);

	if (k)
		return *k;
	k = ptrmap__put(&kinds, pc, callsite__in_binding(pc) ? SITE_BINDING : SITE_USER);
	return k ? *k : SITE_USER;
}

/* The walk up the stack from past_binding: the wrapper's return address, whether it
 * has been passed, the answer, the CFA of the frame that called the answer's, and
 * frames left. */
typedef struct walk {
	void *ret;
	int past;
	void *found;
	uintptr_t cfa;
	int left;
} walk;

static _Unwind_Reason_Code walk_frame(struct _Unwind_Context *ctx, void *arg)
{
	walk *w = arg;
	void *pc = (void *)_Unwind_GetIP(ctx);

	if (--w->left < 0 || !pc)
		return _URC_END_OF_STACK;
	if (!w->past && pc != w->ret)
		return _URC_NO_REASON;
	if (w->past && kind_of(pc) != SITE_BINDING) {
		/* The first frame above the binding: stop here, not at main. Its context's
		 * CFA is that of the binding frame below it (where pc was pushed). */
		w->found = pc;
		w->cfa = _Unwind_GetCFA(ctx);
		return _URC_END_OF_STACK;
	}
	/* ret's frame, or a binding routine's above it. */
	w->past = 1;
	return _URC_NO_REASON;
}

/*
 * The first return address above ret's frame that is not the binding's, by unwinding
 * from here (my_cfa: callsite__user's frame). On x86-64 it lies just below the last
 * binding frame's CFA; where that slot lies from callsite__user's frame is the same
 * for every call from ret (the wrapper, hooks__begin and the binding routines have
 * frames of fixed size), so it is kept for ret and the caller is marked as found.
 */
static void *past_binding(void *ret, uintptr_t my_cfa)
{
	walk w = {ret, 0, NULL, 0, MAX_FRAMES};
	size_t *k;

	_Unwind_Backtrace(walk_frame, &w);
	if (!w.found)
		return ret;
#if defined(__x86_64__)
	if (w.cfa > my_cfa && *(void **)(w.cfa - 8) == w.found &&
	    (k = ptrmap__find(&slots, ret)) == NULL)
		ptrmap__put(&slots, ret, w.cfa - 8 - my_cfa);
#endif
	if ((k = ptrmap__find(&kinds, w.found)) != NULL)
		*k = SITE_CALLER;
	else
		ptrmap__put(&kinds, w.found, SITE_CALLER);
	return w.found;
}

__attribute__((noinline)) void *callsite__user(void *ret)
{
	uintptr_t my_cfa;
	size_t kind = kind_of(ret), *slot;

	if (__builtin_expect(kind != SITE_BINDING, 1))
		return ret;
	my_cfa = (uintptr_t)__builtin_dwarf_cfa();
	/*
	 * The fast way: the word at ret's slot, taken when it is a caller of the binding
	 * an unwind found before. A stale word of another call (were a binding routine's
	 * frame of variable size) would have to be such a caller too, and the slot lies
	 * in this thread's stack, above this frame: reading it is safe.
	 */
	slot = ptrmap__find(&slots, ret);
	if (slot) {
		void *cand = *(void **)(my_cfa + *slot);
		size_t *k = ptrmap__find(&kinds, cand);

		if (k && *k == SITE_CALLER)
			return cand;
	}
	return past_binding(ret, my_cfa);
}

void callsite__group_enter(void *site)
{
	if (group_depth++ == 0)
		group_site = site;
}

void callsite__group_leave(void)
{
	if (group_depth > 0 && --group_depth == 0)
		group_site = NULL;
}

int callsite__grouped(void) { return group_depth > 0; }

void *callsite__group_site(void) { return group_site; }
