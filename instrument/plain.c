/* Deciding whether a procedure can have a plain copy (instrument/plain.h). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "plain.h"
#include "rewriter.h"

/* Attributes that mean the same on every copy and make none of them visible twice. */
static const char *const harmless_attrs[] = {
    "noinline", "noclone", "hot",  "cold", "unused", "pure",    "const",   "nonnull",
    "warn_unused_result",  "nothrow", "leaf", "returns_nonnull", "malloc", "noreturn",
    NULL,
};

/* Calls that make a copy behave otherwise: returns twice, or looks at its own frame. */
static const char *const unsafe_calls[] = {
    "setjmp",  "_setjmp", "sigsetjmp", "__sigsetjmp", "vfork", "__builtin_return_address",
    "__builtin_frame_address", NULL,
};

typedef struct scan {
	const char *name; /* the procedure's */
	const rewriter *rw; /* the main file's text and its attribute macros */
	const plain_omit *omit;
	CXCursor fn;
	int bad;
} scan;

static int in_list(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(s, *list))
			return 1;
	return 0;
}

/* Whether the attribute name at text[at..len) is harmless; its length in *n. */
static int harmless_word(const char *text, size_t len, size_t at, size_t *n)
{
	char word[64];
	const char *w = word;

	*n = 0;
	while (at + *n < len && *n + 1 < sizeof(word) &&
	       (text[at + *n] == '_' || (text[at + *n] >= 'a' && text[at + *n] <= 'z')))
		(*n)++;
	memcpy(word, text + at, *n);
	word[*n] = '\0';
	/* __noinline__ is noinline. */
	if (*n > 4 && !strncmp(word, "__", 2) && !strcmp(word + *n - 2, "__")) {
		word[*n - 2] = '\0';
		w = word + 2;
	}
	return in_list(w, harmless_attrs);
}

/* Past the blanks (and line continuations) of t from i, at most to end. */
static size_t skip_blanks(const char *t, size_t i, size_t end)
{
	while (i < end && strchr(" \t\\\r\n", t[i]))
		i++;
	return i;
}

/* The length of the identifier at t[at..end) (0: none there). */
static size_t ident_len(const char *t, size_t at, size_t end)
{
	size_t n = 0;

	while (at + n < end && (t[at + n] == '_' || isalnum((unsigned char)t[at + n])))
		n++;
	return n;
}

/* The attribute macro named text[at..at+n), or NULL. */
static attr_macro *find_macro(const rewriter *rw, const char *name, size_t n)
{
	for (size_t k = 0; k < rw->nattr_macros; k++)
		if (strlen(rw->attr_macros[k].name) == n &&
		    !memcmp(rw->attr_macros[k].name, name, n))
			return &rw->attr_macros[k];
	return NULL;
}

/* Whether t[i..to) is `__attribute__((a, b))` of harmless names only; *noinline when
 * one is noinline. */
static int only_harmless(const char *t, size_t i, size_t to, int *noinline)
{
	size_t n;

	*noinline = 0;
	i = skip_blanks(t, i, to);
	if (to - i < 17 || strncmp(t + i, "__attribute__", 13))
		return 0;
	i = skip_blanks(t, i + 13, to);
	if (i + 2 > to || t[i] != '(' || t[i + 1] != '(')
		return 0;
	for (i += 2;; i++) {
		i = skip_blanks(t, i, to);
		if (!harmless_word(t, to, i, &n) || !n)
			return 0;
		*noinline |= memmem(t + i, n, "noinline", 8) != NULL;
		i = skip_blanks(t, i + n, to);
		if (i >= to || t[i] != ',')
			return i + 2 == to && t[i] == ')' && t[i + 1] == ')';
	}
}

void plain__note_macro(rewriter *rw, CXCursor def)
{
	CXSourceRange r = clang_getCursorExtent(def);
	long from = rewriter__main_file_offset(clang_getRangeStart(r));
	long to = rewriter__main_file_offset(clang_getRangeEnd(r));
	size_t i;
	int ok, noinline;
	attr_macro *m, *grown;

	if (from < 0 || to <= from || (size_t)to > rw->len || clang_Cursor_isMacroFunctionLike(def))
		return;
	i = (size_t)from + ident_len(rw->text, (size_t)from, (size_t)to);
	ok = only_harmless(rw->text, i, (size_t)to, &noinline);
	/* A definition again replaces the last one (after an #undef). */
	if ((m = find_macro(rw, rw->text + from, i - (size_t)from))) {
		m->noinline = noinline;
		if (!ok) {
			free(m->name);
			*m = rw->attr_macros[--rw->nattr_macros];
		}
		return;
	}
	if (!ok)
		return;
	if (rw->nattr_macros % 16 == 0) {
		grown = realloc(rw->attr_macros, (rw->nattr_macros + 16) * sizeof(*grown));
		if (!grown)
			return; /* the macro's procedures stay whole */
		rw->attr_macros = grown;
	}
	m = &rw->attr_macros[rw->nattr_macros];
	m->noinline = noinline;
	if ((m->name = strndup(rw->text + from, i - (size_t)from)))
		rw->nattr_macros++;
}

int plain__says_noinline(const rewriter *rw, unsigned from, unsigned to)
{
	for (size_t i = from, n; i < to; i += n ? n : 1) {
		const attr_macro *m;

		n = ident_len(rw->text, i, to);
		if (n && (m = find_macro(rw, rw->text + i, n)) && m->noinline)
			return 1;
	}
	return 0;
}

/* Whether the attribute written at cursor a is harmless: one a macro writes when the
 * macro says nothing else (plain__note_macro). */
static int harmless(const scan *sc, CXCursor a)
{
	CXSourceLocation loc = clang_getRangeStart(clang_getCursorExtent(a));
	long at = rewriter__main_file_offset(loc);
	size_t n;

	if (at >= 0)
		return harmless_word(sc->rw->text, sc->rw->len, (size_t)at, &n);
	at = rewriter__expansion_offset(loc, clang_getCursorLocation(sc->fn));
	if (at < 0)
		return 0;
	n = ident_len(sc->rw->text, (size_t)at, sc->rw->len);
	return find_macro(sc->rw, sc->rw->text + at, n) != NULL;
}

/* Whether variable c's type is const, or an array of const elements (at any depth). */
static int is_constant(CXCursor c)
{
	CXType t = clang_getCursorType(c);

	while (t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray)
		t = clang_getArrayElementType(t);
	return clang_isConstQualifiedType(t);
}

static enum CXChildVisitResult scan_body(CXCursor c, CXCursor parent, CXClientData data)
{
	scan *sc = data;
	enum CXCursorKind k = clang_getCursorKind(c);
	CXString s;

	(void)parent;
	switch (k) {
	case CXCursor_VarDecl:
		/* Two copies would keep two; a constant's two are the same table (SQLite's
		 * byte-code engine, its hottest procedure, has some). */
		if (clang_Cursor_getStorageClass(c) == CX_SC_Static && !is_constant(c))
			sc->bad = 1;
		break;
	case CXCursor_AddrLabelExpr:
	case CXCursor_IndirectGotoStmt:
	case CXCursor_AsmStmt:
	case CXCursor_FunctionDecl:
		sc->bad = 1;
		break;
	case CXCursor_CallExpr:
		s = clang_getCursorSpelling(c);
		if (!strncmp(clang_getCString(s), "pvm_", 4) ||
		    in_list(clang_getCString(s), unsafe_calls))
			sc->bad = 1;
		clang_disposeString(s);
		break;
	case CXCursor_StringLiteral:
		/* __func__ and its kin are a string literal naming the procedure; so may be
		 * the user's own text, which costs only the split. */
		s = clang_getCursorSpelling(c);
		if (strstr(clang_getCString(s), sc->name))
			sc->bad = 1;
		clang_disposeString(s);
		break;
	default:
		break;
	}
	return sc->bad ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* Whether attribute a comes from the text the copies leave out (a macro saying
 * extern): the dispatcher and the instrumented copy keep it, the static copies need
 * none. Only a visibility may come from there, or from another declaration: it means
 * nothing on a static copy. */
static int in_omitted(const scan *sc, CXCursor a)
{
	long at = rewriter__expansion_offset(clang_getRangeStart(clang_getCursorExtent(a)),
	                                     clang_getCursorLocation(sc->fn));

	return sc->omit && at >= sc->omit->from && at < sc->omit->to;
}

/* Whether attribute a is another declaration's, which this definition inherits (a
 * header's `LUAI_FUNC int f(...)`: a visibility): not written in the definition. */
static int inherited(const scan *sc, CXCursor a)
{
	CXSourceRange r = clang_getCursorExtent(sc->fn);
	CXSourceLocation fl = clang_getCursorLocation(sc->fn);
	long at = rewriter__expansion_offset(clang_getRangeStart(clang_getCursorExtent(a)), fl);
	long from = rewriter__expansion_offset(clang_getRangeStart(r), fl);
	long to = rewriter__expansion_offset(clang_getRangeEnd(r), fl);

	return at < 0 || at < from || at >= to;
}

static enum CXChildVisitResult scan_decl(CXCursor c, CXCursor parent, CXClientData data)
{
	scan *sc = data;
	enum CXCursorKind k = clang_getCursorKind(c);

	(void)parent;
	if (k >= CXCursor_FirstAttr && k <= CXCursor_LastAttr && !harmless(sc, c) &&
	    !(k == CXCursor_VisibilityAttr && (in_omitted(sc, c) || inherited(sc, c))))
		sc->bad = 1;
	if (k == CXCursor_ParmDecl) {
		CXString s = clang_getCursorSpelling(c);

		if (!*clang_getCString(s))
			sc->bad = 1;
		clang_disposeString(s);
	}
	return sc->bad ? CXChildVisit_Break : CXChildVisit_Continue;
}

int plain__can_split(const rewriter *rw, CXCursor fn, CXCursor body, const plain_omit *omit)
{
	CXString name = clang_getCursorSpelling(fn);
	enum CX_StorageClass sto = clang_Cursor_getStorageClass(fn);
	scan sc = {clang_getCString(name), rw, omit, fn, 0};

	if (!strcmp(sc.name, "main") || clang_Cursor_isFunctionInlined(fn) ||
	    (sto != CX_SC_None && sto != CX_SC_Static &&
	     !(sto == CX_SC_Extern && omit && omit->extern_ok)) ||
	    clang_Cursor_isVariadic(fn) ||
	    !(clang_getCursorType(fn).kind == CXType_FunctionProto ||
	      (clang_getCursorType(fn).kind == CXType_FunctionNoProto &&
	       clang_Cursor_getNumArguments(fn) == 0)))
		sc.bad = 1;
	if (!sc.bad)
		clang_visitChildren(fn, scan_decl, &sc);
	if (!sc.bad)
		clang_visitChildren(body, scan_body, &sc);
	clang_disposeString(name);
	return !sc.bad;
}
