/*
 * Private to pvmmon: resolving a call site (module path + offset) to source file, line
 * and function with elfutils libdw. Used when the monitor writes the log.
 */
#ifndef PVMMON_COMMON_SYMBOLS_H
#define PVMMON_COMMON_SYMBOLS_H

#include <stdint.h>

typedef struct pvmmon_symbols pvmmon_symbols;

/* A resolver with a per-module cache; *out belongs to the caller. */
int pvmmon_symbols_new(pvmmon_symbols **out);
void pvmmon_symbols_free(pvmmon_symbols *syms);

/*
 * Resolves offset (relative to the module's load base, as dladdr gives: address minus
 * dli_fbase) of a return address in module. The line reported is that of the call
 * instruction (offset - 1). *file and *func are heap strings owned by the caller, set to
 * NULL when unknown; *line is 0 when unknown. Returns 0 when at least the function or
 * the line was found, PVMMON_ENOTFOUND when the module has no usable symbols or debug
 * information, PVMMON_EIO when the module cannot be opened.
 */
int pvmmon_symbols_resolve(char **file, int *line, char **func, pvmmon_symbols *syms,
                           const char *module, uint64_t offset);

/*
 * The functions inlined at offset of module (offset as for pvmmon_symbols_resolve),
 * innermost first, by their source names, from the debug information's inlined
 * subroutines: at most max of them into names[] (heap strings the caller frees). Returns
 * how many (0 when none, or without debug information).
 */
int pvmmon_symbols_inlined(char **names, int max, pvmmon_symbols *syms, const char *module,
                           uint64_t offset);

#endif
