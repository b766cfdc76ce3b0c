/* C sources parsed from memory for the instrument unit tests (snippet.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "snippet.h"

void snippet_parse(snippet *s, const char *source)
{
	static const char *const args[] = {"-std=gnu11"};
	struct CXUnsavedFile file;
	unsigned n;

	memset(s, 0, sizeof(*s));
	s->rw.src = SNIPPET_FILE;
	s->rw.text = strdup(source);
	s->rw.len = strlen(source);
	s->rw.stats = &s->stats;
	CU_ASSERT_PTR_NOT_NULL_FATAL(s->rw.text);
	/* libclang reads the text from the rewriter's copy, which lives as long as the
	 * translation unit. */
	file.Filename = SNIPPET_FILE;
	file.Contents = s->rw.text;
	file.Length = (unsigned long)s->rw.len;
	s->index = clang_createIndex(0, 0);
	s->tu = clang_parseTranslationUnit(s->index, SNIPPET_FILE, args, 1, &file, 1,
	                                   CXTranslationUnit_None);
	CU_ASSERT_PTR_NOT_NULL_FATAL(s->tu);
	n = clang_getNumDiagnostics(s->tu);
	for (unsigned i = 0; i < n; i++) {
		CXDiagnostic d = clang_getDiagnostic(s->tu, i);
		int error = clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error;

		if (error) {
			CXString t = clang_formatDiagnostic(d, 0);

			fprintf(stderr, "\nsnippet: %s\n", clang_getCString(t));
			clang_disposeString(t);
		}
		clang_disposeDiagnostic(d);
		CU_ASSERT_FATAL(!error);
	}
}

typedef struct lookup {
	const char *name;
	CXCursor found;
} lookup;

static enum CXChildVisitResult find_def(CXCursor c, CXCursor parent, CXClientData data)
{
	lookup *l = data;
	CXString s;

	(void)parent;
	if (clang_getCursorKind(c) != CXCursor_FunctionDecl || !clang_isCursorDefinition(c))
		return CXChildVisit_Continue;
	s = clang_getCursorSpelling(c);
	if (!strcmp(clang_getCString(s), l->name))
		l->found = c;
	clang_disposeString(s);
	return CXChildVisit_Continue;
}

static enum CXChildVisitResult find_body(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	if (clang_getCursorKind(c) == CXCursor_CompoundStmt)
		*(CXCursor *)data = c;
	return CXChildVisit_Continue;
}

CXCursor snippet_function(const snippet *s, const char *name, CXCursor *body, long *open)
{
	lookup l = {name, clang_getNullCursor()};

	clang_visitChildren(clang_getTranslationUnitCursor(s->tu), find_def, &l);
	if (clang_Cursor_isNull(l.found))
		fprintf(stderr, "\nsnippet: no definition of %s\n", name);
	CU_ASSERT_FATAL(!clang_Cursor_isNull(l.found));
	*body = clang_getNullCursor();
	clang_visitChildren(l.found, find_body, body);
	CU_ASSERT_FATAL(!clang_Cursor_isNull(*body));
	*open = rewriter__main_file_offset(clang_getRangeStart(clang_getCursorExtent(*body)));
	CU_ASSERT_FATAL(*open >= 0 && s->rw.text[*open] == '{');
	return l.found;
}

static int by_offset(const void *a, const void *b)
{
	const insertion *x = a, *y = b;

	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

char *snippet_apply(snippet *s)
{
	char *out = NULL;
	size_t len = 0, at = 0;
	FILE *f = open_memstream(&out, &len);

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	qsort(s->rw.ins, s->rw.nins, sizeof(*s->rw.ins), by_offset);
	for (size_t k = 0; k < s->rw.nins; k++) {
		const insertion *in = &s->rw.ins[k];

		if (!split__in_main(in))
			continue;
		fwrite(s->rw.text + at, 1, in->offset - at, f);
		fputs(in->text, f);
		at = in->offset + in->skip;
	}
	fwrite(s->rw.text + at, 1, s->rw.len - at, f);
	fclose(f);
	return out;
}

void snippet_free(snippet *s)
{
	for (size_t k = 0; k < s->rw.nins; k++)
		free(s->rw.ins[k].text);
	for (size_t k = 0; k < s->rw.nents; k++)
		free(s->rw.ents[k].name);
	for (size_t k = 0; k < s->rw.nsplits; k++)
		free(s->rw.splits[k].name);
	free(s->rw.ins);
	free(s->rw.ents);
	free(s->rw.splits);
	free(s->rw.loops);
	free(s->rw.text);
	if (s->tu)
		clang_disposeTranslationUnit(s->tu);
	if (s->index)
		clang_disposeIndex(s->index);
}
