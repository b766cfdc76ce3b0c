/*
 * Which procedures pvmmon-cc counts instead of timing: leaves and procedures whose
 * whole call tree is small straight-line code (instrument/rewriter.h, counted__classify).
 */
#include <clang-c/Index.h>

#include "rewriter.h"

/* What a walk over a body found. */
typedef struct walk {
	const rewriter *rw;
	int busy;          /* a loop, a goto or a call */
	int other_call;    /* a call to anything but a counted procedure split before */
	int counted_calls; /* calls to counted procedures */
	long weight;       /* statements and expressions, the counted callees' included */
} walk;

/* The counted procedure split before this point that call calls by name, or NULL. */
static const split *counted_callee(const rewriter *rw, CXCursor call)
{
	CXCursor callee = clang_getCursorReferenced(call);
	const split *sp = NULL;
	CXString name;

	if (clang_Cursor_isNull(callee) || clang_getCursorKind(callee) != CXCursor_FunctionDecl)
		return NULL;
	name = clang_getCursorSpelling(callee);
	sp = split__find(rw, clang_getCString(name));
	clang_disposeString(name);
	return sp && sp->counted ? sp : NULL;
}

static enum CXChildVisitResult visit(CXCursor c, CXCursor parent, CXClientData data)
{
	walk *w = data;
	const split *sp;

	(void)parent;
	if (clang_isStatement(clang_getCursorKind(c)) || clang_isExpression(clang_getCursorKind(c)))
		w->weight++;
	switch (clang_getCursorKind(c)) {
	case CXCursor_ForStmt:
	case CXCursor_WhileStmt:
	case CXCursor_DoStmt:
	case CXCursor_GotoStmt:
	case CXCursor_IndirectGotoStmt:
		w->busy = 1;
		w->other_call = 1; /* not straight-line: never counted */
		return CXChildVisit_Recurse;
	case CXCursor_CallExpr:
		w->busy = 1;
		if ((sp = counted_callee(w->rw, c))) {
			w->counted_calls++;
			w->weight += sp->weight;
		} else {
			w->other_call = 1;
		}
		return CXChildVisit_Recurse;
	default:
		return CXChildVisit_Recurse;
	}
}

counted_kind counted__classify(const rewriter *rw, CXCursor body, long *weight,
                               int *calls_counted)
{
	walk w = {rw, 0, 0, 0, 0};

	clang_visitChildren(body, visit, &w);
	*weight = w.weight;
	*calls_counted = w.counted_calls > 0;
	if (!w.busy)
		return COUNTED_LEAF;
	if (!w.other_call && w.weight <= COUNTED_MAX_WEIGHT)
		return COUNTED_SMALL;
	return COUNTED_NOT;
}
