/*
 * Private to pvmmon-cc: whether a procedure can be given a plain copy, the code its
 * calls jump to while all its probe sites are switched off (instrument/plain.c).
 */
#ifndef PVMMON_INSTRUMENT_PLAIN_H
#define PVMMON_INSTRUMENT_PLAIN_H

#include <clang-c/Index.h>
#include <stddef.h>

/*
 * 1 when the definition fn with body body (a compound statement) can be split into a
 * dispatcher, an instrumented and a plain copy without changing what the program
 * computes or what pvmmon records, else 0. text and len are the main file's bytes.
 * Not split: main (called once), inline or extern definitions, variadic ones, old
 * style ones with parameters when libclang gives them no prototype (`f()` with none is
 * split; libclang 14 gives `f(a) int a; {...}` the prototype its declarations make, and
 * split.c refuses it by its declarator, which a prototype cannot repeat), unnamed
 * parameters, attributes other than the harmless ones (a copy would repeat a
 * constructor or a section), and bodies with static locals (two copies would keep two),
 * __func__ (it would name the copy), PVM calls (a statement is keyed by its return
 * address: two copies would make two records), labels as values, asm, nested
 * functions, setjmp or frame builtins.
 */
int plain__can_split(CXCursor fn, CXCursor body, const char *text, size_t len);

#endif
