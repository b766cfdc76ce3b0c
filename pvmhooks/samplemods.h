/*
 * Private to pvmhooks: where a sampled code address is (samplemods.c): its module's
 * path and its offset from the module's base, from a table of the process's modules.
 */
#ifndef PVMMON_HOOKS_SAMPLEMODS_H
#define PVMMON_HOOKS_SAMPLEMODS_H

#include <stdint.h>

/* The module of the instruction before pc (a return address, or the interrupted
 * instruction plus one) and pc's offset from its base, as dladdr's dli_fbase: 0, or -1
 * when no module of the process has it. The path is borrowed until
 * samplemods__clear. */
int samplemods__where(uintptr_t pc, const char **module, uint64_t *offset);
/* Forgets the table (it is built again at the next look-up: once a flush). */
void samplemods__clear(void);

#endif
