/* Inserting procedure and loop probes into a C source with libclang's cursor walk, and
 * writing the result: the source with its insertions and the static table. */
#include <clang-c/Index.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plain.h"
#include "pvmmon/errors.h"
#include "rewrite.h"
#include "rewriter.h"

/* Static table kinds, as pvmmon_static_kind in pvmmon/log.h. */
enum { ENTRY_PROC = 1, ENTRY_LOOP = 2, ENTRY_COM = 3, ENTRY_CALL = 4 };

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

static unsigned line_of(CXCursor c)
{
	unsigned line = 0;

	clang_getExpansionLocation(clang_getCursorLocation(c), NULL, &line, NULL, NULL);
	return line;
}

static enum CXChildVisitResult find_body(CXCursor c, CXCursor parent, CXClientData data)
{
	(void)parent;
	if (clang_getCursorKind(c) == CXCursor_CompoundStmt)
		*(CXCursor *)data = c;
	return CXChildVisit_Continue;
}

static void instrument_function(rewriter *rw, CXCursor fn)
{
	CXCursor body = clang_getNullCursor();
	CXString name;
	counted_kind kind;
	long open, weight = 0;
	int calls_counted = 0, counted = 0;

	if (!clang_isCursorDefinition(fn))
		return;
	/* A static variable may not appear in an inline function with external linkage. */
	if (clang_Cursor_isFunctionInlined(fn) && clang_Cursor_getStorageClass(fn) != CX_SC_Static)
		return;
	clang_visitChildren(fn, find_body, &body);
	if (clang_Cursor_isNull(body))
		return;
	open = rewriter__main_file_offset(clang_getRangeStart(clang_getCursorExtent(body)));
	if (open < 0 || (size_t)open >= rw->len || rw->text[open] != '{')
		return;
	name = clang_getCursorSpelling(fn);
	kind = counted__classify(rw, body, &weight, &calls_counted);
	if (kind == COUNTED_LEAF) {
		/* Counted only where somebody may read the count. */
		rewriter__add(rw, (unsigned)open + 1,
		              " if (!pvmmon_unwatched_) PVMMON_PROC_COUNT(pvmmon_counts_[%d]);",
		              rw->ncounted);
		if (split__leaf(rw, fn, body, open, clang_getCString(name), rw->ncounted))
			rw->splits[rw->nsplits - 1].weight = weight;
		counted = 1;
	} else if (kind == COUNTED_SMALL &&
	           split__procedure(rw, fn, body, open, clang_getCString(name), line_of(fn),
	                            rw->ncounted, 0)) {
		rw->splits[rw->nsplits - 1].weight = weight;
		counted = 1;
	} else if (!split__procedure(rw, fn, body, open, clang_getCString(name), line_of(fn), -1,
	                             calls_counted)) {
		rewriter__add(rw, (unsigned)open + 1, " PVMMON_PROC_SCOPE(\"%s\", %u);",
		              clang_getCString(name), line_of(fn));
	}
	{
		CXSourceRange r = clang_getCursorExtent(fn);
		long s0 = rewriter__main_file_offset(clang_getRangeStart(r));
		long e0 =
		    rewriter__main_file_offset(clang_getRangeEnd(clang_getCursorExtent(body)));

		add_entry(rw, ENTRY_PROC, clang_getCString(name), line_of(fn),
		          (unsigned)(s0 >= 0 ? s0 : open), (unsigned)(e0 >= 0 ? e0 : open));
		if (counted && rw->nents)
			rw->ents[rw->nents - 1].count_slot = rw->ncounted++;
	}
	clang_disposeString(name);
	if (kind == COUNTED_LEAF)
		rw->stats->counted++;
	else
		rw->stats->procs++;
}

static void instrument_loop(rewriter *rw, CXCursor loop)
{
	unsigned start, end, line;
	char name[32];
	size_t i;

	if (!rewriter__loop_span(rw, loop, &start, &end, name, sizeof(name), &line))
		return;
	/* The loop becomes a block whose cleanup variable sees every way out of it; a
	 * split procedure's loop has its site in the procedure's array. */
	for (i = 0; i < rw->nloops && rw->loops[i].offset != start; i++)
		;
	if (i < rw->nloops)
		rewriter__add(rw, start, "{ PVMMON__LOOP_SCOPE_AT(pvmmon_sites%d_[%d]); ",
		              rw->loops[i].split_id, rw->loops[i].index);
	else
		rewriter__add(rw, start, "{ PVMMON_LOOP_SCOPE(\"%s\", %u); ", name, line);
	rewriter__add(rw, end, "}");
	add_entry(rw, ENTRY_LOOP, name, line, start, end);
	rw->stats->loops++;
}

/*
 * The PVM calls that are communication statements (seed 000: send, receive, probe),
 * with the group calls built on them, and the other calls whose call sites libpvmhooks
 * records as statements (spawn, the group membership calls): every op a statement
 * record can have (pvmhooks/hooks.h), so that each is named by its line without -g.
 */
static int is_comm(const char *name)
{
	static const char *const comm[] = {
	    "pvm_send",    "pvm_psend",  "pvm_mcast",   "pvm_recv",  "pvm_nrecv",
	    "pvm_trecv",   "pvm_precv",  "pvm_probe",   "pvm_bcast", "pvm_barrier",
	    "pvm_reduce",  "pvm_gather", "pvm_scatter", "pvm_spawn", "pvm_joingroup",
	    "pvm_lvgroup", "pvm_gettid", "pvm_getinst", "pvm_gsize", "pvm_freezegroup",
	    NULL};

	for (const char *const *p = comm; *p; p++)
		if (!strcmp(name, *p))
			return 1;
	return 0;
}

/*
 * Makes a call statement tell the callee's entry probe its line: `f(x)` becomes
 * `(pvmmon_call_at_(N), f(x))`, one store made by an inline function (pvmmon/probe.h:
 * calls in one expression then store one after the other, never unsequenced). Only a call written
 * literally in the file is rewritten (not one inside a macro's expansion or arguments, whose text
 * is not the call's); its callee then gets a record without a call line.
 */
static void mark_call_line(rewriter *rw, CXCursor call, unsigned line)
{
	CXSourceRange r = clang_getCursorExtent(call);
	long start = rewriter__main_file_offset(clang_getRangeStart(r));
	long end = rewriter__main_file_offset(clang_getRangeEnd(r));

	if (start < 0 || end <= start || (size_t)end > rw->len || rw->text[end - 1] != ')')
		return;
	insertion *in;

	/* The plain copy of a split procedure passes the line on too. */
	if ((in = rewriter__add(rw, (unsigned)start, "(pvmmon_call_at_(%u), ", line)))
		in->plain = 1;
	if ((in = rewriter__add(rw, (unsigned)end, ")")))
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
	clang_getExpansionLocation(clang_getRangeEnd(clang_getCursorExtent(call)), NULL, NULL, NULL,
	                           &end);
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
		split__rename_call(rw, call, n);
	}
	clang_disposeString(name);
}

static enum CXChildVisitResult visit(CXCursor c, CXCursor parent, CXClientData data)
{
	rewriter *rw = data;

	(void)parent;
	switch (clang_getCursorKind(c)) {
	case CXCursor_FunctionDecl:
		if (rewriter__main_file_offset(clang_getCursorLocation(c)) >= 0)
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
	case CXCursor_DeclRefExpr:
		split__note_ref(rw, c);
		break;
	case CXCursor_MacroDefinition:
		plain__note_macro(rw, c);
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
			    rw->ents[j].start <= rw->ents[i].start &&
			    rw->ents[i].end <= rw->ents[j].end) {
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
	fputs("};\n__attribute__((constructor)) static void pvmmon_static_register_(void)\n{\n",
	      out);
	if (rw->ncounted || rw->nsplits)
		fputs("\tpvmmon_unwatched_ = pvmmon_probe_unwatched();\n", out);
	if (rw->nsplits)
		fputs("\tpvmmon_counting_ = pvmmon_probe_counting();\n", out);
	fputs("\tpvmmon_static_register(\"", out);
	rewriter__write_escaped_path(out, rw->src);
	fprintf(out, "\", pvmmon_static_table_, %zu);\n}\n", rw->nents);
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

	rw.renamed_at = -1;
	if (!stats)
		stats = &none;
	memset(stats, 0, sizeof(*stats));
	rw.src = src;
	rw.stats = stats;
	for (int a = 0; a < nargs; a++)
		rw.pedantic |= !strcmp(args[a], "-pedantic") || !strcmp(args[a], "-Wpedantic") ||
		               !strcmp(args[a], "-pedantic-errors");
	rw.text = slurp(src, &rw.len);
	if (!rw.text)
		return pvmmon_error_set(PVMMON_EIO, "%s: cannot read: %s", src, strerror(errno));
	index = clang_createIndex(0, 0);
	tu = clang_parseTranslationUnit(index, src, args, nargs, NULL, 0,
	                                CXTranslationUnit_DetailedPreprocessingRecord);
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
	split__resolve_forward(&rw);
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
	/* Set before main when nobody monitors the process (pvmmon_probe_unwatched): the
	 * dispatchers then take the plain copies. Static and set only by the constructor,
	 * so the compiler knows no call changes it. */
	if (rw.ncounted || rw.nsplits)
		fputs("static int pvmmon_unwatched_;\n", out);
	/* Set before main unless the run times every probe (pvmmon_probe_counting): the
	 * dispatchers then take the counting copies (instrument/rewriter.h). */
	if (rw.nsplits)
		fputs("static int pvmmon_counting_;\n", out);
	fputs("#line 1 \"", out);
	rewriter__write_escaped_path(out, src);
	fputs("\"\n", out);
	split__write_plain_copies(&rw);
	if (rw.failed) {
		rc = pvmmon_error_set(PVMMON_ENOMEM, "%s: out of memory instrumenting", src);
		goto out;
	}
	qsort(rw.ins, rw.nins, sizeof(*rw.ins), cmp_ins);
	for (k = 0; k < rw.nins; k++) {
		if (!split__in_main(&rw.ins[k])) /* the copies' own */
			continue;
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
	for (k = 0; k < rw.nsplits; k++)
		free(rw.splits[k].name);
	free(rw.splits);
	free(rw.loops);
	for (k = 0; k < rw.nfwd; k++) {
		free(rw.fwd[k].callee);
		free(rw.fwd[k].proto);
	}
	free(rw.fwd);
	for (k = 0; k < rw.nattr_macros; k++)
		free(rw.attr_macros[k].name);
	free(rw.attr_macros);
	free(rw.text);
	if (tu)
		clang_disposeTranslationUnit(tu);
	if (index)
		clang_disposeIndex(index);
	return rc;
}
