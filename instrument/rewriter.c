/* The state of one rewrite and its primitives, which the procedure walk (rewrite.c), the
 * splitting (split.c) and the counting (counted.c) share: insertions into the source,
 * the user's own text found in it, the spans of loops. */
#include <clang-c/Index.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rewriter.h"

insertion *rewriter__add_owned(rewriter *rw, unsigned offset, char *text)
{
	insertion *in;

	if (!text) {
		rw->failed = 1;
		return NULL;
	}
	if (rw->nins == rw->cap) {
		size_t cap = rw->cap ? rw->cap * 2 : 64;
		insertion *grown = realloc(rw->ins, cap * sizeof(*grown));

		if (!grown) {
			free(text);
			rw->failed = 1;
			return NULL;
		}
		rw->ins = grown;
		rw->cap = cap;
	}
	in = &rw->ins[rw->nins];
	memset(in, 0, sizeof(*in));
	in->offset = offset;
	in->seq = (unsigned)rw->nins;
	in->text = text;
	rw->nins++;
	return in;
}

insertion *rewriter__add(rewriter *rw, unsigned offset, const char *fmt, ...)
{
	char *t = NULL;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&t, fmt, ap) < 0)
		t = NULL;
	va_end(ap);
	return rewriter__add_owned(rw, offset, t);
}

long rewriter__main_file_offset(CXSourceLocation loc)
{
	CXFile ef, sf;
	unsigned el, ec, eo, sl, sc, so;

	if (!clang_Location_isFromMainFile(loc))
		return REWRITER_NOT_LITERAL;
	clang_getExpansionLocation(loc, &ef, &el, &ec, &eo);
	clang_getSpellingLocation(loc, &sf, &sl, &sc, &so);
	if (!clang_File_isEqual(ef, sf) || eo != so)
		return REWRITER_NOT_LITERAL;
	return (long)eo;
}

long rewriter__expansion_offset(CXSourceLocation loc, CXSourceLocation main)
{
	CXFile f, mf;
	unsigned line, col, off;

	/* libclang says a location inside a macro's expansion is not from the main file
	 * even when the macro is used there: the files are compared instead. */
	clang_getExpansionLocation(main, &mf, &line, &col, &off);
	clang_getExpansionLocation(loc, &f, &line, &col, &off);
	if (!f || !mf || !clang_File_isEqual(f, mf) || rewriter__main_file_offset(main) < 0)
		return REWRITER_NOT_LITERAL;
	return (long)off;
}

size_t rewriter__skip_space(const rewriter *rw, size_t i)
{
	while (i < rw->len) {
		char ch = rw->text[i];

		if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f' ||
		    ch == '\v') {
			i++;
		} else if (ch == '/' && i + 1 < rw->len && rw->text[i + 1] == '*') {
			char *end = strstr(rw->text + i + 2, "*/");

			if (!end)
				return rw->len;
			i = (size_t)(end - rw->text) + 2;
		} else if (ch == '/' && i + 1 < rw->len && rw->text[i + 1] == '/') {
			while (i < rw->len && rw->text[i] != '\n')
				i++;
		} else {
			break;
		}
	}
	return i;
}

int rewriter__loop_span(const rewriter *rw, CXCursor loop, unsigned *start, unsigned *end,
                        char *name, size_t n, unsigned *line)
{
	CXSourceRange r = clang_getCursorExtent(loop);
	long s0 = rewriter__main_file_offset(clang_getRangeStart(r));
	long e0 = rewriter__main_file_offset(clang_getRangeEnd(r));
	const char *kind;
	unsigned col = 0;
	size_t after;

	if (s0 < 0 || e0 < s0 || (size_t)e0 > rw->len)
		return 0;
	switch (clang_getCursorKind(loop)) {
	case CXCursor_ForStmt:
		kind = "for";
		break;
	case CXCursor_WhileStmt:
		kind = "while";
		break;
	default:
		kind = "do";
		break;
	}
	/* A statement's extent stops before its closing semicolon (`while (c) x++;`,
	 * `do ... while (c);`); the block must take it in. */
	after = rewriter__skip_space(rw, (size_t)e0);
	if (after < rw->len && rw->text[after] == ';')
		e0 = (long)after + 1;
	clang_getExpansionLocation(clang_getRangeStart(r), NULL, line, &col, NULL);
	snprintf(name, n, "%s@%u:%u", kind, *line, col);
	*start = (unsigned)s0;
	*end = (unsigned)e0;
	return 1;
}

int rewriter__is_loop(CXCursor c)
{
	enum CXCursorKind k = clang_getCursorKind(c);

	return k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt;
}

void rewriter__write_escaped_path(FILE *out, const char *path)
{
	for (const char *p = path; *p; p++) {
		if (*p == '"' || *p == '\\')
			fputc('\\', out);
		fputc(*p, out);
	}
}
