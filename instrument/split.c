/*
 * Splitting a procedure in three (instrument/plain.h): its sites' array, the dispatcher
 * under its own name, the instrumented copy in its definition's place and the plain
 * copy written after it, for pvmmon-cc's rewrite (rewrite.c).
 */
#include <clang-c/Index.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plain.h"
#include "rewriter.h"

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
	if (!rewrite__is_loop(c) ||
	    !rewrite__loop_span(rw, c, &start, &end, name, sizeof(name), &line))
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
	fprintf(w->init, ", {\"%s\", __FILE__, %u, PVMMON_PROBE_LOOP, 1, -1, 0, 0, 0}", name, line);
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
			while (to > from + 1 &&
			       !(rw->text[to - 2] == '/' && rw->text[to - 1] == '*'))
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

int split__procedure(rewriter *rw, CXCursor fn, CXCursor body, long open, const char *name,
                     unsigned line)
{
	long start = rewrite__main_file_offset(clang_getRangeStart(clang_getCursorExtent(fn)));
	long name_at = rewrite__main_file_offset(clang_getCursorLocation(fn));
	long end = rewrite__main_file_offset(clang_getRangeEnd(clang_getCursorExtent(body)));
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
	fprintf(f,
	        "static pvmmon_probe_site pvmmon_sites%d_[] = {{\"%s\", __FILE__, %u, "
	        "PVMMON_PROBE_PROC, 1, -1, 0, %d, 0}%s}; ",
	        sp->id, name, line, w.n - 1, init ? init : "");
	for (i = 0; i < 2; i++) {
		put_copy_specifiers(f, sp);
		put_declarator(f, rw, sp, i ? "__pvmmon_off" : "__pvmmon_on", 1);
		fputs("; ", f);
	}
	/* The dispatcher: the instrumented copy while any of the sites is on; the plain
	 * copy's calls are counted (a throttled procedure keeps an exact count). */
	put_declarator(f, rw, sp, "", 1);
	fputs(" { if (", f);
	for (i = 0; i < (size_t)w.n; i++)
		fprintf(f, "%spvmmon_sites%d_[%zu].enabled", i ? " | " : "", sp->id, i);
	if (sp->is_void)
		fprintf(f, ") { %s__pvmmon_on(%s); return; } ++pvmmon_sites%d_[0].off; %s__pvmmon_off(%s); } ",
		        name, args, sp->id, name, args);
	else
		fprintf(f, ") return %s__pvmmon_on(%s); ++pvmmon_sites%d_[0].off; return %s__pvmmon_off(%s); } ",
		        name, args, sp->id, name, args);
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
	rewrite__add_owned(rw, (unsigned)start, head);
	if ((in = rewrite__add(rw, (unsigned)name_at, "%s__pvmmon_on", name)))
		in->skip = (unsigned)nlen;
	rewrite__add(rw, (unsigned)open + 1, " PVMMON__PROC_SCOPE_AT(pvmmon_sites%d_[0]);", sp->id);
	rw->nsplits++;
	rw->stats->split++;
	return 1;
}

void split__write_plain_copies(rewriter *rw)
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
		rewrite__write_escaped_path(f, rw->src);
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
		rewrite__write_escaped_path(f, rw->src);
		fputs("\"\n", f);
		fclose(f);
		rewrite__add_owned(rw, sp->end, t);
	}
}
