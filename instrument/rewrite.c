/* Inserting procedure and loop probes into a C source with libclang's cursor walk. */
#include <clang-c/Index.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pvmmon/errors.h"
#include "plain.h"
#include "rewrite.h"

/* Static table kinds, as pvmmon_static_kind in pvmmon/log.h. */
enum { ENTRY_PROC = 1, ENTRY_LOOP = 2, ENTRY_COM = 3, ENTRY_CALL = 4 };

/* One piece of text to insert at a byte offset of the original source. */
typedef struct insertion {
	unsigned offset;
	unsigned seq; /* keeps insertions at the same offset in the order they were made */
	unsigned skip; /* source bytes the text replaces (a renamed procedure's name) */
	int plain;     /* also made in a procedure's plain copy (a call's line) */
	char *text;
} insertion;

/* A procedure split in three (instrument/plain.h): its name becomes a dispatcher that
 * jumps to NAME__pvmmon_on, the instrumented body, while one of its probe sites is on,
 * and to NAME__pvmmon_off, a plain copy, while all are off. Its sites are declared
 * before it, in one array pvmmon_sitesID_ (the procedure's, then its loops'). */
typedef struct split {
	unsigned start;    /* where its definition starts */
	unsigned name_at;  /* its name */
	unsigned name_len;
	unsigned open;     /* its body's opening brace */
	unsigned end;      /* just past the body's closing brace */
	unsigned line;     /* line of start */
	unsigned end_line; /* line of the closing brace */
	int id;
	int add_static;    /* its copies need the static its definition lacks */
	int is_void;
} split;

/* A loop whose site lives in its procedure's array. */
typedef struct loopsite {
	unsigned offset; /* where the loop starts */
	int split_id;
	int index;
} loopsite;

/* One static table entry with the source span used to find its enclosing entry. */
typedef struct sentry {
	int kind; /* pvmmon_static_kind */
	char *name;
	unsigned line;
	unsigned start, end;
	int parent;
	int count_slot; /* counter index of a counted (leaf) procedure, else -1 */
} sentry;

typedef struct rewriter {
	const char *src;
	char *text; /* the original source */
	size_t len;
	insertion *ins;
	size_t nins, cap;
	sentry *ents;
	size_t nents, ecap;
	int ncounted; /* leaf procedures counted instead of timed */
	split *splits;
	size_t nsplits;
	loopsite *loops;
	size_t nloops;
	rewrite_stats *stats;
	int failed;
} rewriter;

static void add_entry(rewriter *rw, int kind, const char *name, unsigned line, unsigned start,
		      unsigned end)
{
	if (rw->nents == rw->ecap) {
		size_t cap = rw->ecap ? rw->ecap * 2 : 64;
		sentry *grown = realloc(rw->ents, cap * sizeof(*grown));

		if (!grown) {
			rw->failed = 1;
			return;
		}
		rw->ents = grown;
		rw->ecap = cap;
	}
	rw->ents[rw->nents].kind = kind;
	rw->ents[rw->nents].name = strdup(name);
	rw->ents[rw->nents].line = line;
	rw->ents[rw->nents].start = start;
	rw->ents[rw->nents].end = end;
	rw->ents[rw->nents].parent = -1;
	rw->ents[rw->nents].count_slot = -1;
	if (!rw->ents[rw->nents].name)
		rw->failed = 1;
	rw->nents++;
}

/* Appends an insertion that takes text (NULL: out of memory); NULL on failure. */
static insertion *add_owned(rewriter *rw, unsigned offset, char *text)
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

/* Appends an insertion of the formatted text; NULL on failure. */
static insertion *add(rewriter *rw, unsigned offset, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static insertion *add(rewriter *rw, unsigned offset, const char *fmt, ...)
{
	char *t = NULL;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&t, fmt, ap) < 0)
		t = NULL;
	va_end(ap);
	return add_owned(rw, offset, t);
}

/*
 * The file offset of loc when it is written literally in the main file; -1 when it
 * comes from a macro expansion or another file (such code is not the user's to
 * instrument here).
 */
static long main_file_offset(CXSourceLocation loc)
{
	CXFile ef, sf;
	unsigned el, ec, eo, sl, sc, so;

	if (!clang_Location_isFromMainFile(loc))
		return -1;
	clang_getExpansionLocation(loc, &ef, &el, &ec, &eo);
	clang_getSpellingLocation(loc, &sf, &sl, &sc, &so);
	if (!clang_File_isEqual(ef, sf) || eo != so)
		return -1;
	return (long)eo;
}

static unsigned line_of(CXCursor c)
{
	unsigned line = 0;

	clang_getExpansionLocation(clang_getCursorLocation(c), NULL, &line, NULL, NULL);
	return line;
}

/* Skips blanks and comments from offset; returns where the next token starts. */
static size_t skip_space(const rewriter *rw, size_t i)
{
	while (i < rw->len) {
		char ch = rw->text[i];

		if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f' || ch == '\v') {
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

static enum CXChildVisitResult find_body(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	if (clang_getCursorKind(c) == CXCursor_CompoundStmt)
		*(CXCursor *)data = c;
	return CXChildVisit_Continue;
}

/* Sets *data when the statement contains a call or a loop: then it is no leaf. */
static enum CXChildVisitResult find_work(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	switch (clang_getCursorKind(c)) {
	case CXCursor_CallExpr:
	case CXCursor_ForStmt:
	case CXCursor_WhileStmt:
	case CXCursor_DoStmt:
	case CXCursor_GotoStmt:
		*(int *)data = 1;
		return CXChildVisit_Break;
	default:
		return CXChildVisit_Recurse;
	}
}

/*
 * Where loop starts and ends in the file (its closing semicolon included), its label
 * and line; 0 when it is not written literally in the file (a macro's loop is not the
 * user's text to instrument).
 */
static int loop_span(const rewriter *rw, CXCursor loop, unsigned *start, unsigned *end,
		     char *name, size_t n, unsigned *line)
{
	CXSourceRange r = clang_getCursorExtent(loop);
	long s0 = main_file_offset(clang_getRangeStart(r));
	long e0 = main_file_offset(clang_getRangeEnd(r));
	const char *kind;
	unsigned col = 0;
	size_t after;

	if (s0 < 0 || e0 < s0 || (size_t)e0 > rw->len)
		return 0;
	switch (clang_getCursorKind(loop)) {
	case CXCursor_ForStmt: kind = "for"; break;
	case CXCursor_WhileStmt: kind = "while"; break;
	default: kind = "do"; break;
	}
	/* A statement's extent stops before its closing semicolon (`while (c) x++;`,
	 * `do ... while (c);`); the block must take it in. */
	after = skip_space(rw, (size_t)e0);
	if (after < rw->len && rw->text[after] == ';')
		e0 = (long)after + 1;
	clang_getExpansionLocation(clang_getRangeStart(r), NULL, line, &col, NULL);
	snprintf(name, n, "%s@%u:%u", kind, *line, col);
	*start = (unsigned)s0;
	*end = (unsigned)e0;
	return 1;
}

static int is_loop(CXCursor c)
{
	enum CXCursorKind k = clang_getCursorKind(c);

	return k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt;
}

/* What collecting a split procedure's loops needs. */
typedef struct loop_walk {
	rewriter *rw;
	int split_id;
	int n;      /* sites so far, the procedure's own included */
	FILE *init; /* the sites' initializers */
} loop_walk;

static enum CXChildVisitResult collect_loop(CXCursor c, CXCursor parent, CXClientData data)
{
	loop_walk *w = data;
	rewriter *rw = w->rw;
	unsigned start, end, line;
	char name[32];

	(void)parent;
	if (!is_loop(c) || !loop_span(rw, c, &start, &end, name, sizeof(name), &line))
		return CXChildVisit_Recurse;
	if (rw->nloops % 64 == 0) {
		loopsite *grown = realloc(rw->loops, (rw->nloops + 64) * sizeof(*grown));

		if (!grown) {
			rw->failed = 1;
			return CXChildVisit_Break;
		}
		rw->loops = grown;
	}
	rw->loops[rw->nloops].offset = start;
	rw->loops[rw->nloops].split_id = w->split_id;
	rw->loops[rw->nloops].index = w->n++;
	rw->nloops++;
	fprintf(w->init, ", {\"%s\", __FILE__, %u, PVMMON_PROBE_LOOP, 1, -1, 0, 0}", name, line);
	return CXChildVisit_Recurse;
}

static enum CXChildVisitResult collect_param(CXCursor c, CXCursor parent, CXClientData data)
{
	FILE *args = data;
	CXString s;

	(void)parent;
	if (clang_getCursorKind(c) != CXCursor_ParmDecl)
		return CXChildVisit_Continue;
	s = clang_getCursorSpelling(c);
	fprintf(args, "%s%s", ftell(args) > 0 ? ", " : "", clang_getCString(s));
	clang_disposeString(s);
	return CXChildVisit_Continue;
}

/* Where the declarator's text ends, blanks before the body left out. */
static unsigned put_declarator_end(const rewriter *rw, const split *sp)
{
	unsigned to = sp->open;

	while (to > sp->start && strchr(" \t\r\n", rw->text[to - 1]))
		to--;
	return to;
}

/* The declarator of split procedure sp (its text up to the body) with suffix after its
 * name; on one line when it is repeated in front of the procedure, where a new line
 * would move the user's lines. */
static void put_declarator(FILE *out, const rewriter *rw, const split *sp, const char *suffix,
			   int one_line)
{
	unsigned i, to = put_declarator_end(rw, sp);

	for (i = sp->start; i < to; i++) {
		if (i == sp->name_at) {
			fwrite(rw->text + i, 1, sp->name_len, out);
			fputs(suffix, out);
			i += sp->name_len - 1;
		} else {
			fputc(one_line && strchr("\r\n", rw->text[i]) ? ' ' : rw->text[i], out);
		}
	}
}

/* What each copy of sp adds in front of its declarator: it is never inlined into the
 * dispatcher (which would bring back the frame), and static when sp is not. */
static void put_copy_specifiers(FILE *out, const split *sp)
{
	fprintf(out, "__attribute__((noinline)) %s", sp->add_static ? "static " : "");
}

/* Whether the last token of text[from..to), comments and blanks aside, is ')'. */
static int ends_with_paren(const rewriter *rw, size_t from, size_t to)
{
	while (to > from) {
		char ch = rw->text[to - 1];

		if (strchr(" \t\r\n\f\v", ch)) {
			to--;
		} else if (ch == '/' && to - 1 > from && rw->text[to - 2] == '*') {
			/* A comment: back to its opening. */
			to -= 2;
			while (to > from + 1 && !(rw->text[to - 2] == '/' && rw->text[to - 1] == '*'))
				to--;
			if (to <= from + 1)
				return 0;
			to -= 2;
		} else {
			return ch == ')';
		}
	}
	return 0;
}

/*
 * Splits procedure fn (instrument/plain.h) when it can be: a switched-off procedure
 * then costs its callers a load or two, a branch and a jump, where its scopes' tests
 * and the frame they need cost a small procedure a few percent of its time. Inserts
 * the sites' array, the copies' prototypes and the dispatcher before its definition,
 * renames the definition to the instrumented copy and opens its scope; the plain copy
 * is written after it when the insertions are done (write_plain_copies). Returns 1 when
 * it did.
 */
static int split_function(rewriter *rw, CXCursor fn, CXCursor body, long open, const char *name,
			  unsigned line)
{
	long start = main_file_offset(clang_getRangeStart(clang_getCursorExtent(fn)));
	long name_at = main_file_offset(clang_getCursorLocation(fn));
	long end = main_file_offset(clang_getRangeEnd(clang_getCursorExtent(body)));
	size_t nlen = strlen(name), i;
	char *init = NULL, *args = NULL, *head = NULL;
	size_t init_len = 0, args_len = 0, head_len = 0;
	loop_walk w = {rw, (int)rw->nsplits, 1, NULL};
	FILE *f;
	split *sp;
	insertion *in;
	int ok = 0;

	if (start < 0 || name_at <= start || name_at >= open || end <= open ||
	    (size_t)end > rw->len || rw->text[end - 1] != '}' ||
	    memcmp(rw->text + name_at, name, nlen) != 0)
		return 0;
	/* The declarator is repeated on one line: a directive or a line comment in it
	 * would take the rest of that line along. */
	for (i = (size_t)start; i < (size_t)open; i++)
		if (rw->text[i] == '#' || (rw->text[i] == '/' && rw->text[i + 1] == '/'))
			return 0;
	/* It must end with its parameter list: an old-style definition declares its
	 * parameters after it, which a prototype cannot repeat. */
	if (!ends_with_paren(rw, (size_t)start, (size_t)open))
		return 0;
	if (!plain__can_split(fn, body, rw->text, rw->len))
		return 0;
	if (rw->nsplits % 32 == 0) {
		split *grown = realloc(rw->splits, (rw->nsplits + 32) * sizeof(*grown));

		if (!grown) {
			rw->failed = 1;
			return 0;
		}
		rw->splits = grown;
	}
	sp = &rw->splits[rw->nsplits];
	sp->start = (unsigned)start;
	sp->name_at = (unsigned)name_at;
	sp->name_len = (unsigned)nlen;
	sp->open = (unsigned)open;
	sp->end = (unsigned)end;
	sp->line = 0;
	clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(fn)), NULL, &sp->line,
				   NULL, NULL);
	clang_getExpansionLocation(clang_getRangeEnd(clang_getCursorExtent(body)), NULL,
				   &sp->end_line, NULL, NULL);
	sp->id = (int)rw->nsplits;
	sp->add_static = clang_Cursor_getStorageClass(fn) != CX_SC_Static;
	sp->is_void = clang_getResultType(clang_getCursorType(fn)).kind == CXType_Void;

	/* The loops' sites, the parameters to pass on, then the text before the definition. */
	if (!(w.init = open_memstream(&init, &init_len)))
		goto out;
	clang_visitChildren(body, collect_loop, &w);
	fclose(w.init);
	if (!(f = open_memstream(&args, &args_len)))
		goto out;
	clang_visitChildren(fn, collect_param, f);
	fclose(f);
	if (!(f = open_memstream(&head, &head_len)))
		goto out;
	fprintf(f, "static pvmmon_probe_site pvmmon_sites%d_[] = {{\"%s\", __FILE__, %u, "
		   "PVMMON_PROBE_PROC, 1, -1, 0, %d}%s}; ", sp->id, name, line, w.n - 1,
		init ? init : "");
	for (i = 0; i < 2; i++) {
		put_copy_specifiers(f, sp);
		put_declarator(f, rw, sp, i ? "__pvmmon_off" : "__pvmmon_on", 1);
		fputs("; ", f);
	}
	/* The dispatcher: the instrumented copy while any of the sites is on. */
	put_declarator(f, rw, sp, "", 1);
	fputs(" { if (", f);
	for (i = 0; i < (size_t)w.n; i++)
		fprintf(f, "%spvmmon_sites%d_[%zu].enabled", i ? " | " : "", sp->id, i);
	if (sp->is_void)
		fprintf(f, ") { %s__pvmmon_on(%s); return; } %s__pvmmon_off(%s); } ", name, args,
			name, args);
	else
		fprintf(f, ") return %s__pvmmon_on(%s); return %s__pvmmon_off(%s); } ", name, args,
			name, args);
	put_copy_specifiers(f, sp);
	fclose(f);
	ok = 1;
out:
	free(init);
	free(args);
	if (!ok) {
		free(head);
		rw->failed = 1;
		return 0;
	}
	add_owned(rw, (unsigned)start, head);
	if ((in = add(rw, (unsigned)name_at, "%s__pvmmon_on", name)))
		in->skip = (unsigned)nlen;
	add(rw, (unsigned)open + 1, " PVMMON__PROC_SCOPE_AT(pvmmon_sites%d_[0]);", sp->id);
	rw->nsplits++;
	rw->stats->split++;
	return 1;
}

static void instrument_function(rewriter *rw, CXCursor fn)
{
	CXCursor body = clang_getNullCursor();
	CXString name;
	long open;
	int leaf;

	if (!clang_isCursorDefinition(fn))
		return;
	/* A static variable may not appear in an inline function with external linkage. */
	if (clang_Cursor_isFunctionInlined(fn) && clang_Cursor_getStorageClass(fn) != CX_SC_Static)
		return;
	clang_visitChildren(fn, find_body, &body);
	if (clang_Cursor_isNull(body))
		return;
	open = main_file_offset(clang_getRangeStart(clang_getCursorExtent(body)));
	if (open < 0 || (size_t)open >= rw->len || rw->text[open] != '{')
		return;
	name = clang_getCursorSpelling(fn);
	{
		int busy = 0;

		clang_visitChildren(body, find_work, &busy);
		leaf = !busy;
	}
	if (leaf) {
		add(rw, (unsigned)open + 1, " PVMMON_PROC_COUNT(pvmmon_counts_[%d]);", rw->ncounted);
	} else if (!split_function(rw, fn, body, open, clang_getCString(name), line_of(fn))) {
		add(rw, (unsigned)open + 1, " PVMMON_PROC_SCOPE(\"%s\", %u);",
		    clang_getCString(name), line_of(fn));
	}
	{
		CXSourceRange r = clang_getCursorExtent(fn);
		long s0 = main_file_offset(clang_getRangeStart(r));
		long e0 = main_file_offset(clang_getRangeEnd(clang_getCursorExtent(body)));

		add_entry(rw, ENTRY_PROC, clang_getCString(name), line_of(fn),
			  (unsigned)(s0 >= 0 ? s0 : open), (unsigned)(e0 >= 0 ? e0 : open));
		if (leaf && rw->nents)
			rw->ents[rw->nents - 1].count_slot = rw->ncounted++;
	}
	clang_disposeString(name);
	if (leaf)
		rw->stats->counted++;
	else
		rw->stats->procs++;
}

static void instrument_loop(rewriter *rw, CXCursor loop)
{
	unsigned start, end, line;
	char name[32];
	size_t i;

	if (!loop_span(rw, loop, &start, &end, name, sizeof(name), &line))
		return;
	/* The loop becomes a block whose cleanup variable sees every way out of it; a
	 * split procedure's loop has its site in the procedure's array. */
	for (i = 0; i < rw->nloops && rw->loops[i].offset != start; i++)
		;
	if (i < rw->nloops)
		add(rw, start, "{ PVMMON__LOOP_SCOPE_AT(pvmmon_sites%d_[%d]); ", rw->loops[i].split_id,
		    rw->loops[i].index);
	else
		add(rw, start, "{ PVMMON_LOOP_SCOPE(\"%s\", %u); ", name, line);
	add(rw, end, "}");
	add_entry(rw, ENTRY_LOOP, name, line, start, end);
	rw->stats->loops++;
}

/* The PVM calls that are communication statements (seed 000: send, receive, probe),
 * with the group calls built on them. */
static int is_comm(const char *name)
{
	static const char *const comm[] = {"pvm_send",   "pvm_psend",  "pvm_mcast", "pvm_recv",
					   "pvm_nrecv",  "pvm_trecv",  "pvm_precv", "pvm_probe",
					   "pvm_bcast",  "pvm_barrier", "pvm_reduce", "pvm_gather",
					   "pvm_scatter", NULL};

	for (const char *const *p = comm; *p; p++)
		if (!strcmp(name, *p))
			return 1;
	return 0;
}

/*
 * Makes a call statement tell the callee's entry probe its line: `f(x)` becomes
 * `(pvmmon_call_line = N, f(x))`, one store. Only a call written literally in the file
 * is rewritten (not one inside a macro's expansion or arguments, whose text is not
 * the call's); its callee then gets a record without a call line.
 */
static void mark_call_line(rewriter *rw, CXCursor call, unsigned line)
{
	CXSourceRange r = clang_getCursorExtent(call);
	long start = main_file_offset(clang_getRangeStart(r));
	long end = main_file_offset(clang_getRangeEnd(r));

	if (start < 0 || end <= start || (size_t)end > rw->len || rw->text[end - 1] != ')')
		return;
	insertion *in;

	/* The plain copy of a split procedure passes the line on too. */
	if ((in = add(rw, (unsigned)start, "(pvmmon_call_line = %u, ", line)))
		in->plain = 1;
	if ((in = add(rw, (unsigned)end, ")")))
		in->plain = 1;
	rw->stats->calls++;
}

/*
 * A call in the user's source (a macro's expansion counts at the macro's use) becomes a
 * communication statement when it calls PVM's send/receive/probe functions, and a call
 * statement when it calls a procedure not declared in a system header, or anything
 * through a pointer ("indirect").
 */
static void record_call(rewriter *rw, CXCursor call)
{
	CXSourceLocation loc = clang_getCursorLocation(call);
	CXCursor callee = clang_getCursorReferenced(call);
	unsigned line = 0, off = 0, end = 0;
	CXString name;
	const char *n;

	if (!clang_Location_isFromMainFile(loc))
		return;
	clang_getExpansionLocation(loc, NULL, &line, NULL, &off);
	clang_getExpansionLocation(clang_getRangeEnd(clang_getCursorExtent(call)), NULL, NULL,
				   NULL, &end);
	if (end < off)
		end = off;
	if (clang_Cursor_isNull(callee) || clang_getCursorKind(callee) != CXCursor_FunctionDecl) {
		add_entry(rw, ENTRY_CALL, "indirect", line, off, end);
		mark_call_line(rw, call, line);
		return;
	}
	name = clang_getCursorSpelling(callee);
	n = clang_getCString(name);
	if (is_comm(n)) {
		add_entry(rw, ENTRY_COM, n, line, off, end);
	} else if (strncmp(n, "pvm_", 4) != 0 &&
		   !clang_Location_isInSystemHeader(clang_getCursorLocation(callee))) {
		add_entry(rw, ENTRY_CALL, n, line, off, end);
		mark_call_line(rw, call, line);
	}
	clang_disposeString(name);
}

static enum CXChildVisitResult visit(CXCursor c, CXCursor parent, CXClientData data)
{
	rewriter *rw = data;

	(void)parent;
	switch (clang_getCursorKind(c)) {
	case CXCursor_FunctionDecl:
		if (main_file_offset(clang_getCursorLocation(c)) >= 0)
			instrument_function(rw, c);
		break;
	case CXCursor_ForStmt:
	case CXCursor_WhileStmt:
	case CXCursor_DoStmt:
		instrument_loop(rw, c);
		break;
	case CXCursor_CallExpr:
		record_call(rw, c);
		break;
	default:
		break;
	}
	return CXChildVisit_Recurse;
}

static int cmp_ins(const void *a, const void *b)
{
	const insertion *x = a, *y = b;

	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
		buf = malloc((size_t)n + 1);
		if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
			free(buf);
			buf = NULL;
		}
		if (buf) {
			buf[n] = '\0';
			*len = (size_t)n;
		}
	}
	fclose(f);
	return buf;
}

static void write_escaped_path(FILE *out, const char *path)
{
	for (const char *p = path; *p; p++) {
		if (*p == '"' || *p == '\\')
			fputc('\\', out);
		fputc(*p, out);
	}
}

/* Source order, and for entries starting at the same place the wider one first. */
static int cmp_entry(const void *a, const void *b)
{
	const sentry *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->end != y->end)
		return x->end > y->end ? -1 : 1;
	return x->kind < y->kind ? -1 : x->kind > y->kind;
}

/*
 * Appends the static table and the constructor that registers it. Each entry's parent
 * is the innermost procedure or loop whose span holds it; sorting by position makes
 * every parent come before its children.
 */
static void write_table(rewriter *rw, FILE *out)
{
	size_t i;

	if (!rw->nents)
		return;
	qsort(rw->ents, rw->nents, sizeof(*rw->ents), cmp_entry);
	for (i = 0; i < rw->nents; i++)
		for (size_t j = i; j-- > 0;)
			if ((rw->ents[j].kind == ENTRY_PROC || rw->ents[j].kind == ENTRY_LOOP) &&
			    rw->ents[j].start <= rw->ents[i].start && rw->ents[i].end <= rw->ents[j].end) {
				rw->ents[i].parent = (int)j;
				break;
			}
	if (rw->len && rw->text[rw->len - 1] != '\n')
		fputc('\n', out);
	fputs("static const pvmmon_static_entry pvmmon_static_table_[] = {\n", out);
	for (i = 0; i < rw->nents; i++) {
		fprintf(out, "\t{%d, \"%s\", %u, %d, ", rw->ents[i].kind, rw->ents[i].name,
			rw->ents[i].line, rw->ents[i].parent);
		if (rw->ents[i].count_slot >= 0)
			fprintf(out, "&pvmmon_counts_[%d]},\n", rw->ents[i].count_slot);
		else
			fputs("0},\n", out);
	}
	fputs("};\n__attribute__((constructor)) static void pvmmon_static_register_(void)\n{\n"
	      "\tpvmmon_static_register(\"", out);
	write_escaped_path(out, rw->src);
	fprintf(out, "\", pvmmon_static_table_, %zu);\n}\n", rw->nents);
}

/*
 * Writes each split procedure's plain copy just after its definition: its body as the
 * user wrote it, with only the call lines added, between #line directives that give it
 * the procedure's own lines and give the rest of the file its lines back. Needs the
 * insertions sorted; adds to them.
 */
static void write_plain_copies(rewriter *rw)
{
	size_t i, k, n = rw->nins;

	for (i = 0; i < rw->nsplits && !rw->failed; i++) {
		const split *sp = &rw->splits[i];
		char *t = NULL;
		size_t tlen = 0;
		unsigned at = sp->open;
		FILE *f = open_memstream(&t, &tlen);

		if (!f) {
			rw->failed = 1;
			return;
		}
		fprintf(f, "\n#line %u \"", sp->line);
		write_escaped_path(f, rw->src);
		fputs("\"\n", f);
		put_copy_specifiers(f, sp);
		put_declarator(f, rw, sp, "__pvmmon_off", 0);
		/* The declarator's trailing blanks were dropped: the body starts a line
		 * later when they held a new line, which #line has not counted. */
		fwrite(rw->text + put_declarator_end(rw, sp), 1,
		       sp->open - put_declarator_end(rw, sp), f);
		for (k = 0; k < n; k++) {
			const insertion *in = &rw->ins[k];

			if (in->offset < sp->open || in->offset >= sp->end || !in->plain)
				continue;
			fwrite(rw->text + at, 1, in->offset - at, f);
			fputs(in->text, f);
			at = in->offset;
		}
		fwrite(rw->text + at, 1, sp->end - at, f);
		fprintf(f, "\n#line %u \"", sp->end_line);
		write_escaped_path(f, rw->src);
		fputs("\"\n", f);
		fclose(f);
		add_owned(rw, sp->end, t);
	}
}

int instrument__rewrite(const char *src, const char *const *args, int nargs, FILE *out,
			rewrite_stats *stats)
{
	rewriter rw = {0};
	rewrite_stats none;
	CXIndex index = NULL;
	CXTranslationUnit tu = NULL;
	unsigned i, ndiag;
	size_t at = 0, k;
	int rc = 0;

	if (!stats)
		stats = &none;
	memset(stats, 0, sizeof(*stats));
	rw.src = src;
	rw.stats = stats;
	rw.text = slurp(src, &rw.len);
	if (!rw.text)
		return pvmmon_error_set(PVMMON_EIO, "%s: cannot read: %s", src, strerror(errno));
	index = clang_createIndex(0, 0);
	tu = clang_parseTranslationUnit(index, src, args, nargs, NULL, 0, CXTranslationUnit_None);
	if (!tu) {
		rc = pvmmon_error_set(PVMMON_EPARSE, "%s: libclang could not parse it", src);
		goto out;
	}
	ndiag = clang_getNumDiagnostics(tu);
	for (i = 0; i < ndiag; i++) {
		CXDiagnostic d = clang_getDiagnostic(tu, i);
		enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);

		clang_disposeDiagnostic(d);
		if (sev >= CXDiagnostic_Error) {
			rc = pvmmon_error_set(PVMMON_EPARSE, "%s: has errors", src);
			goto out;
		}
	}
	clang_visitChildren(clang_getTranslationUnitCursor(tu), visit, &rw);
	if (rw.failed) {
		rc = pvmmon_error_set(PVMMON_ENOMEM, "%s: out of memory instrumenting", src);
		goto out;
	}
	qsort(rw.ins, rw.nins, sizeof(*rw.ins), cmp_ins);
	/* The probe header first, then the user's text from its line 1 on. */
	fputs("#include \"pvmmon/probe.h\"\n", out);
	/* The counters of leaf procedures, before the #line directive that makes the next
	 * line the user's line 1. */
	if (rw.ncounted)
		fprintf(out, "static unsigned long pvmmon_counts_[%d];\n", rw.ncounted);
	fputs("#line 1 \"", out);
	write_escaped_path(out, src);
	fputs("\"\n", out);
	write_plain_copies(&rw);
	if (rw.failed) {
		rc = pvmmon_error_set(PVMMON_ENOMEM, "%s: out of memory instrumenting", src);
		goto out;
	}
	qsort(rw.ins, rw.nins, sizeof(*rw.ins), cmp_ins);
	for (k = 0; k < rw.nins; k++) {
		fwrite(rw.text + at, 1, rw.ins[k].offset - at, out);
		fputs(rw.ins[k].text, out);
		at = rw.ins[k].offset + rw.ins[k].skip;
	}
	fwrite(rw.text + at, 1, rw.len - at, out);
	write_table(&rw, out);
	if (ferror(out))
		rc = pvmmon_error_set(PVMMON_EIO, "%s: cannot write the instrumented source", src);
out:
	for (k = 0; k < rw.nins; k++)
		free(rw.ins[k].text);
	for (k = 0; k < rw.nents; k++)
		free(rw.ents[k].name);
	free(rw.ents);
	free(rw.ins);
	free(rw.splits);
	free(rw.loops);
	free(rw.text);
	if (tu)
		clang_disposeTranslationUnit(tu);
	if (index)
		clang_disposeIndex(index);
	return rc;
}
