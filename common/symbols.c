/* Resolving call sites (module + offset) to file, line and function with elfutils libdw. */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pvmmon/errors.h"
#include "symbols.h"

/* One opened module: its dwfl session and where offset 0 lies in dwfl's addresses. */
typedef struct sym_module {
	char *path;
	Dwfl *dwfl;
	Dwfl_Module *mod;
	Dwarf_Addr base;
	int failed; /* opening failed: remembered so each call site does not retry */
	int fortran; /* -1 not yet known, 1: it needs libgfortran (fortran_symbol()) */
} sym_module;

struct pvmmon_symbols {
	sym_module *mods;
	size_t nmods;
};

static const Dwfl_Callbacks callbacks = {
    .find_elf = dwfl_build_id_find_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
    .section_address = dwfl_offline_section_address,
    .debuginfo_path = NULL,
};

int pvmmon_symbols_new(pvmmon_symbols **out)
{
	pvmmon_symbols *s = calloc(1, sizeof(*s));

	if (!s)
		return pvmmon_error_set(PVMMON_ENOMEM, "out of memory");
	*out = s;
	return 0;
}

void pvmmon_symbols_free(pvmmon_symbols *syms)
{
	if (!syms)
		return;
	for (size_t i = 0; i < syms->nmods; i++) {
		if (syms->mods[i].dwfl)
			dwfl_end(syms->mods[i].dwfl);
		free(syms->mods[i].path);
	}
	free(syms->mods);
	free(syms);
}

/*
 * dladdr() offsets are relative to the lowest loaded address. For a position-independent
 * module reported at 0 that is dwfl's own address space; a fixed-address executable
 * (ET_EXEC) is loaded at its first PT_LOAD address, which must be added back.
 */
static Dwarf_Addr load_base(Dwfl_Module *mod)
{
	GElf_Addr bias = 0;
	Elf *elf = dwfl_module_getelf(mod, &bias);
	GElf_Ehdr eh;
	size_t n, i;
	Dwarf_Addr lowest = (Dwarf_Addr)-1;

	if (!elf || !gelf_getehdr(elf, &eh))
		return bias;
	if (eh.e_type != ET_EXEC)
		return bias;
	if (elf_getphdrnum(elf, &n) != 0)
		return bias;
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD && ph.p_vaddr < lowest)
			lowest = ph.p_vaddr;
	}
	if (lowest == (Dwarf_Addr)-1)
		return bias;
	return (lowest & ~(Dwarf_Addr)0xfff) + bias;
}

static sym_module *open_module(pvmmon_symbols *syms, const char *path)
{
	sym_module *m;

	for (size_t i = 0; i < syms->nmods; i++)
		if (!strcmp(syms->mods[i].path, path))
			return &syms->mods[i];
	m = realloc(syms->mods, (syms->nmods + 1) * sizeof(*m));
	if (!m)
		return NULL;
	syms->mods = m;
	m = &syms->mods[syms->nmods];
	memset(m, 0, sizeof(*m));
	m->path = strdup(path);
	if (!m->path)
		return NULL;
	m->fortran = -1;
	syms->nmods++;
	m->failed = 1;
	if (access(path, R_OK) != 0)
		return m;
	m->dwfl = dwfl_begin(&callbacks);
	if (!m->dwfl)
		return m;
	m->mod = dwfl_report_offline(m->dwfl, path, path, -1);
	dwfl_report_end(m->dwfl, NULL, NULL);
	if (!m->mod)
		return m;
	m->base = load_base(m->mod);
	m->failed = 0;
	return m;
}

/*
 * The Fortran routine holding addr, by its source name, when addr is Fortran code:
 * gfortran names the main program MAIN__ and a subroutine work as work_ in the symbol
 * table, but the program's own names are master1 and work. NULL for other languages,
 * whose symbol names are their source names.
 */
static const char *fortran_routine(Dwfl_Module *mod, Dwarf_Addr addr)
{
	Dwarf_Addr bias = 0;
	Dwarf_Die *cu = dwfl_module_addrdie(mod, addr, &bias), *scopes = NULL;
	const char *name = NULL;
	int n, lang;

	if (!cu)
		return NULL;
	lang = dwarf_srclang(cu);
	if (lang != DW_LANG_Fortran77 && lang != DW_LANG_Fortran90 && lang != DW_LANG_Fortran95 &&
	    lang != DW_LANG_Fortran03 && lang != DW_LANG_Fortran08)
		return NULL;
	n = dwarf_getscopes(cu, addr - bias, &scopes);
	/* Innermost first: the last subprogram is the routine (a contained procedure's
	 * host would come later still, so take the first one found). */
	for (int i = 0; i < n && !name; i++)
		if (dwarf_tag(&scopes[i]) == DW_TAG_subprogram)
			name = dwarf_diename(&scopes[i]);
	free(scopes);
	return name;
}

/* Whether the module needs libgfortran (a DT_NEEDED entry naming it): gfortran's code. */
static int needs_gfortran(Dwfl_Module *mod)
{
	GElf_Addr bias = 0;
	Elf *elf = dwfl_module_getelf(mod, &bias);
	Elf_Scn *scn = NULL;

	while (elf && (scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr shdr;
		Elf_Data *data;
		GElf_Dyn dyn;

		if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_DYNAMIC ||
		    !(data = elf_getdata(scn, NULL)))
			continue;
		for (size_t i = 0; shdr.sh_entsize && i < shdr.sh_size / shdr.sh_entsize; i++) {
			const char *name;

			if (!gelf_getdyn(data, (int)i, &dyn) || dyn.d_tag != DT_NEEDED)
				continue;
			name = elf_strptr(elf, shdr.sh_link, dyn.d_un.d_val);
			if (name && !strncmp(name, "libgfortran.", 12))
				return 1;
		}
	}
	return 0;
}

/*
 * A Fortran routine's source name from its symbol where there is no debug information:
 * in a module that needs libgfortran, gfortran's work_ is the routine work (a symbol
 * with two trailing underscores, as MAIN__ or a C name ending in one, is left alone).
 * NULL when the symbol is not such a name; otherwise a copy without the underscore.
 */
static char *fortran_symbol(sym_module *m, const char *name)
{
	size_t n = name ? strlen(name) : 0;

	if (n < 2 || name[n - 1] != '_' || name[n - 2] == '_')
		return NULL;
	if (m->fortran < 0)
		m->fortran = needs_gfortran(m->mod);
	return m->fortran ? strndup(name, n - 1) : NULL;
}

int pvmmon_symbols_resolve(char **file, int *line, char **func, pvmmon_symbols *syms,
                           const char *module, uint64_t offset)
{
	sym_module *m;
	Dwarf_Addr addr;
	Dwfl_Line *dl;
	const char *name;
	int found = 0;

	*file = NULL;
	*func = NULL;
	*line = 0;
	if (!syms || !module || offset == 0)
		return pvmmon_error_set(PVMMON_EINVAL, "symbols: no module or offset");
	m = open_module(syms, module);
	if (!m)
		return pvmmon_error_set(PVMMON_ENOMEM, "out of memory");
	if (m->failed)
		return pvmmon_error_set(PVMMON_EIO, "%s: cannot open for symbols", module);
	/* A return address points after the call; the call itself is one byte earlier. */
	addr = m->base + offset - 1;
	dl = dwfl_module_getsrc(m->mod, addr);
	if (dl) {
		int l = 0;
		const char *src = dwfl_lineinfo(dl, NULL, &l, NULL, NULL, NULL);

		if (src && l > 0) {
			*file = strdup(src);
			*line = l;
			found = 1;
		}
	}
	name = fortran_routine(m->mod, addr);
	if (!name && (name = dwfl_module_addrname(m->mod, addr)) != NULL)
		*func = fortran_symbol(m, name);
	if (name) {
		if (!*func)
			*func = strdup(name);
		found = 1;
	}
	if (!found)
		return pvmmon_error_set(PVMMON_ENOTFOUND, "%s+0x%llx: no symbols or line information",
					module, (unsigned long long)offset);
	return 0;
}

int pvmmon_symbols_inlined(char **names, int max, pvmmon_symbols *syms, const char *module,
                           uint64_t offset)
{
	sym_module *m;
	Dwarf_Addr bias = 0, addr;
	Dwarf_Die *cu, *scopes = NULL;
	int n, k = 0;

	if (!syms || !module || offset == 0 || max <= 0)
		return 0;
	m = open_module(syms, module);
	if (!m || m->failed)
		return 0;
	addr = m->base + offset - 1;
	cu = dwfl_module_addrdie(m->mod, addr, &bias);
	if (!cu)
		return 0;
	n = dwarf_getscopes(cu, addr - bias, &scopes);
	/* Innermost first; an inlined subroutine's name is its abstract origin's. */
	for (int i = 0; i < n && k < max; i++) {
		Dwarf_Attribute a;
		const char *name;

		if (dwarf_tag(&scopes[i]) != DW_TAG_inlined_subroutine)
			continue;
		name = dwarf_formstring(dwarf_attr_integrate(&scopes[i], DW_AT_name, &a));
		if (name && (names[k] = strdup(name)) != NULL)
			k++;
	}
	free(scopes);
	return k;
}
