/* Private to the instrument unit tests: a small C source parsed with libclang from
 * memory, with the rewriter state (instrument/rewriter.h) that the modules under test
 * fill, and its procedures found by name. */
#ifndef PVMMON_TESTS_UNIT_INSTRUMENT_SNIPPET_H
#define PVMMON_TESTS_UNIT_INSTRUMENT_SNIPPET_H

#include <clang-c/Index.h>

#include "../../../instrument/rewriter.h"

/* The name the source goes by (its diagnostics, __FILE__, the line markers). */
#define SNIPPET_FILE "snippet.c"

typedef struct snippet {
	CXIndex index;
	CXTranslationUnit tu;
	rewrite_stats stats;
	rewriter rw; /* src SNIPPET_FILE, text the source */
} snippet;

/* Parses source (C, no errors allowed) into s. */
void snippet_parse(snippet *s, const char *source);

/* The definition of procedure name (asserted to exist), its body into *body and the
 * offset of the body's opening brace into *open. */
CXCursor snippet_function(const snippet *s, const char *name, CXCursor *body, long *open);

/* The source with the insertions that belong in the definition's own text (as
 * split__in_main says) made in it, as instrument__rewrite writes it; sorts the
 * insertions. The caller frees the result. */
char *snippet_apply(snippet *s);

/* Frees what s holds. */
void snippet_free(snippet *s);

#endif
