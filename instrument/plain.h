/*
 * Private to pvmmon-cc: whether a procedure can be given a plain copy, the code its
 * calls jump to while all its probe sites are switched off (instrument/plain.c).
 */
#ifndef PVMMON_INSTRUMENT_PLAIN_H
#define PVMMON_INSTRUMENT_PLAIN_H

#include <clang-c/Index.h>
#include <stddef.h>

#include "rewriter.h"

/* What a split leaves out of its copies' declarators (split.c), or NULL: the text
 * from..to (file offsets; a leading macro that says extern, whose visibility attribute
 * is then allowed), and extern_ok when the copies drop the extern (written or in that
 * macro), so that an extern definition can be split. */
typedef struct plain_omit {
	long from, to;
	int extern_ok;
} plain_omit;

/*
 * 1 when the definition fn with body body (a compound statement) can be split into a
 * dispatcher, an instrumented and a plain copy without changing what the program
 * computes or what pvmmon records, else 0. rw holds the main file's bytes.
 * Not split: main (called once), inline definitions, extern ones
 * unless omit says their copies leave the extern out, variadic ones, old
 * style ones with parameters when libclang gives them no prototype (`f()` with none is
 * split; libclang 14 gives `f(a) int a; {...}` the prototype its declarations make, and
 * split.c refuses it by its declarator, which a prototype cannot repeat), unnamed
 * parameters, attributes other than the harmless ones (a copy would repeat a
 * constructor or a section), and bodies with static locals other than constants (two
 * copies would keep two), __func__ (it would name the copy), PVM calls (a statement
 * is keyed by its return address: two copies would make two records), labels as
 * values, asm, nested functions, setjmp or frame builtins.
 */
int plain__can_split(const rewriter *rw, CXCursor fn, CXCursor body, const plain_omit *omit);

/* Notes macro definition def when it says only harmless attributes (SQLite's
 * `#define SQLITE_NOINLINE __attribute__((noinline))`): a procedure whose declarator
 * uses it can still be split. A definition after an #undef replaces the last. */
void plain__note_macro(rewriter *rw, CXCursor def);

/* Whether the main file's text from..to uses an attribute macro that says noinline. */
int plain__says_noinline(const rewriter *rw, unsigned from, unsigned to);

#endif
