/*
 * Splitting a procedure in three (instrument/plain.h): its sites' array, the dispatcher
 * under its own name, the instrumented copy in its definition's place and the plain
 * copy written after it, for pvmmon-cc's rewrite (rewrite.c).
 */
#include <clang-c/Index.h>
#include <ctype.h>
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
	if (!rewriter__is_loop(c) ||
	    !rewriter__loop_span(rw, c, &start, &end, name, sizeof(name), &line))
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

/* Whether a copy's declarator leaves out the character at i of sp's (an extern the
 * copies, which are static, cannot say). */
static int omitted(const split *sp, unsigned i)
{
	return i < sp->omit_to ||
	       (sp->extern_at >= 0 && i >= sp->extern_at && i < (unsigned)sp->extern_at + 6);
}

/* The declarator of split procedure sp (its text up to the body) with suffix after its
 * name, for a copy (copy: blanks for what copies leave out, new lines kept) or the
 * dispatcher; on one line when it is repeated in front of the procedure, where a new
 * line would move the user's lines. */
static void put_declarator(FILE *out, const rewriter *rw, const split *sp, const char *suffix,
                           int one_line, int copy)
{
	unsigned i, to = put_declarator_end(rw, sp);

	for (i = sp->start; i < to; i++) {
		char ch = rw->text[i];

		if (i == sp->name_at) {
			fwrite(rw->text + i, 1, sp->name_len, out);
			fputs(suffix, out);
			i += sp->name_len - 1;
		} else if (strchr("\r\n", ch)) {
			fputc(one_line ? ' ' : ch, out);
		} else {
			fputc(copy && omitted(sp, i) ? ' ' : ch, out);
		}
	}
}

/* The copies of a split procedure (instrument/rewriter.h): instrumented, calling
 * dispatchers, plain; a counted procedure's counting copy; the instrumented copy and
 * the one calling dispatchers with their calls of counted procedures counting. */
enum copy { COPY_ON, COPY_OFF, COPY_PLAIN, COPY_CNT, COPY_ON_CNT, COPY_OFF_CNT };

static const char *const copy_suffix[] = {"__pvmmon_on",  "__pvmmon_off",    "__pvmmon_plain",
                                          "__pvmmon_cnt", "__pvmmon_on_cnt", "__pvmmon_off_cnt"};

/* Whether insertion in belongs in copy which (COPY_ON: the definition's own text). */
static int in_copy(const insertion *in, enum copy which)
{
	switch (which) {
	case COPY_ON:
		return !in->bare && !in->cnt;
	case COPY_OFF:
		return in->plain;
	case COPY_PLAIN:
		return in->bare;
	case COPY_CNT:
		return in->cnt;
	case COPY_ON_CNT:
		return !in->bare;
	case COPY_OFF_CNT:
		return in->plain || in->cnt;
	}
	return 0;
}

/* What a copy of sp adds in front of its declarator: static when sp is not; the
 * instrumented copy is never inlined into the dispatcher (which would bring back the
 * frame its scopes need); the plain copies may be, as the procedure itself would be,
 * and a leaf's may go unused. */
static void put_copy_specifiers(FILE *out, const split *sp, enum copy which)
{
	if (which == COPY_ON || which == COPY_ON_CNT)
		fputs("__attribute__((noinline)) ", out);
	if ((which == COPY_PLAIN || which == COPY_CNT) && sp->leaf)
		fputs("__attribute__((unused)) ", out);
	/* A counting copy is a few dozen instructions calling only other counting copies
	 * (never itself): inlined into its callers' loops, as the program's own small
	 * procedures would be, where gcc's size limits would keep a copy called from
	 * several places out of line. */
	if (which == COPY_CNT && !sp->noinline)
		fputs("__attribute__((always_inline)) ", out);
	if (sp->add_static)
		fputs("static ", out);
	/* A procedure the program keeps out of line stays so (gcc refuses an inline
	 * function that says noinline, and the program asked for the call). */
	if (which == COPY_CNT && !sp->noinline)
		fputs("__inline__ ", out);
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

/* Whether the declarator text t (n bytes) has the word noreturn, __noreturn__ or
 * _Noreturn (an attribute or the specifier, which the copies repeat), not as part of
 * a longer name. */
static int says_noreturn(const char *t, size_t n)
{
	static const char *const words[] = {"noreturn", "__noreturn__", "_Noreturn", NULL};

	for (size_t i = 0; i < n; i++) {
		if (i > 0 && (isalnum((unsigned char)t[i - 1]) || t[i - 1] == '_'))
			continue;
		for (const char *const *w = words; *w; w++) {
			size_t l = strlen(*w);

			if (i + l <= n && !memcmp(t + i, *w, l) &&
			    (i + l == n || !(isalnum((unsigned char)t[i + l]) || t[i + l] == '_')))
				return 1;
		}
	}
	return 0;
}

static int is_ident(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* Where the word w is in text[from..to), as a word; -1 when not. */
static long find_word(const char *text, long from, long to, const char *w)
{
	long n = (long)strlen(w);

	for (long i = from; i + n <= to; i++)
		if (!memcmp(text + i, w, (size_t)n) && (i == from || !is_ident(text[i - 1])) &&
		    (i + n == to || !is_ident(text[i + n])))
			return i;
	return -1;
}

/*
 * What the copies of extern definition fn (starting at start, its name at name_at)
 * leave out, since they are static: a written `extern` (*extern_at), or a macro the
 * definition begins with that says it (Lua's LUAI_FUNC, `__attribute__((visibility(
 * "hidden"))) extern`: omit's range), when the rest still names a type before the
 * name. The dispatcher and the instrumented copy, in the definition's place, keep it
 * (a static prototype and then an extern definition is one static procedure). omit
 * says nothing (extern_ok 0) for a definition that is not extern, or when the extern
 * cannot be found.
 */
static void extern_omission(const rewriter *rw, CXCursor fn, long start, int from_macro,
                            long name_at, plain_omit *omit, long *extern_at)
{
	long i = start;

	omit->from = omit->to = start;
	omit->extern_ok = 0;
	*extern_at = -1;
	if (clang_Cursor_getStorageClass(fn) != CX_SC_Extern)
		return;
	if ((*extern_at = find_word(rw->text, start, name_at, "extern")) >= 0) {
		omit->extern_ok = 1;
		return;
	}
	if (!from_macro)
		return;
	while (i < name_at && is_ident(rw->text[i]))
		i++;
	omit->to = i;
	for (; i < name_at; i++)
		if (is_ident(rw->text[i]))
			omit->extern_ok = 1;
}

/* A new split record for definition fn when it can have copies (instrument/plain.h;
 * its declarator must also be repeatable on one line); NULL when not, or out of
 * memory (then rw->failed is set). */
static split *new_split(rewriter *rw, CXCursor fn, CXCursor body, long open, const char *name)
{
	CXSourceLocation at = clang_getRangeStart(clang_getCursorExtent(fn));
	long start = rewriter__main_file_offset(at);
	long name_at = rewriter__main_file_offset(clang_getCursorLocation(fn));
	long end = rewriter__main_file_offset(clang_getRangeEnd(clang_getCursorExtent(body)));
	size_t nlen = strlen(name), i;
	int from_macro = start < 0;
	plain_omit omit;
	long extern_at;
	split *sp;

	/* A definition that begins with a macro (SQLite's `SQLITE_PRIVATE`, which says
	 * static, on 995 of its procedures) starts where the macro is written: the copies'
	 * declarators repeat its name, and the compiler expands it again. What it expands
	 * to is checked as the rest is: a storage class other than static, inline or an
	 * attribute (plain__can_split) leaves the procedure whole. */
	if (start < 0)
		start = rewriter__expansion_offset(at, clang_getCursorLocation(fn));
	if (start < 0 || name_at <= start || name_at >= open || end <= open ||
	    (size_t)end > rw->len || rw->text[end - 1] != '}' ||
	    memcmp(rw->text + name_at, name, nlen) != 0)
		return NULL;
	/* The declarator is repeated on one line: a directive or a line comment in it
	 * would take the rest of that line along. */
	for (i = (size_t)start; i < (size_t)open; i++)
		if (rw->text[i] == '#' || (rw->text[i] == '/' && rw->text[i + 1] == '/'))
			return NULL;
	/* It must end with its parameter list: an old-style definition declares its
	 * parameters after it, which a prototype cannot repeat. */
	if (!ends_with_paren(rw, (size_t)start, (size_t)open))
		return NULL;
	extern_omission(rw, fn, start, from_macro, name_at, &omit, &extern_at);
	if (!plain__can_split(rw, fn, body, &omit))
		return NULL;
	if (rw->nsplits % 32 == 0) {
		split *grown = realloc(rw->splits, (rw->nsplits + 32) * sizeof(*grown));

		if (!grown) {
			rw->failed = 1;
			return NULL;
		}
		rw->splits = grown;
	}
	sp = &rw->splits[rw->nsplits];
	memset(sp, 0, sizeof(*sp));
	if (!(sp->name = strdup(name))) {
		rw->failed = 1;
		return NULL;
	}
	sp->start = (unsigned)start;
	sp->omit_to = (unsigned)omit.to;
	sp->extern_at = extern_at;
	sp->noinline = memmem(rw->text + start, (size_t)(open - start), "noinline", 8) != NULL ||
	               plain__says_noinline(rw, (unsigned)start, (unsigned)open);
	sp->noreturn = says_noreturn(rw->text + start, (size_t)(open - start));
	sp->name_at = (unsigned)name_at;
	sp->name_len = (unsigned)nlen;
	sp->open = (unsigned)open;
	sp->end = (unsigned)end;
	clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(fn)), NULL, &sp->line,
	                           NULL, NULL);
	clang_getExpansionLocation(clang_getRangeEnd(clang_getCursorExtent(body)), NULL,
	                           &sp->end_line, NULL, NULL);
	sp->id = (int)rw->stats->split; /* the procedures' only: leaves have no sites */
	sp->add_static = clang_Cursor_getStorageClass(fn) != CX_SC_Static;
	sp->is_void = clang_getResultType(clang_getCursorType(fn)).kind == CXType_Void;
	return sp;
}

/* The prototype of sp's copy which, on one line, followed by a blank. */
static void put_prototype(FILE *f, const rewriter *rw, const split *sp, enum copy which)
{
	put_copy_specifiers(f, sp, which);
	put_declarator(f, rw, sp, copy_suffix[which], 1, 1);
	fputs("; ", f);
}

/* The dispatcher's jump to a copy: a call with the arguments, returning its value; a
 * procedure without one (void or noreturn) only calls, its jumps chained with else:
 * a return statement in a noreturn procedure is what gcc warns about. */
static void put_jump(FILE *f, const split *sp, enum copy which, const char *args)
{
	if (sp->is_void || sp->noreturn)
		fprintf(f, "%s%s(%s);", sp->name, copy_suffix[which], args);
	else
		fprintf(f, "return %s%s(%s);", sp->name, copy_suffix[which], args);
}

/* Between two jumps: else, where a jump does not return. */
static void put_else(FILE *f, const split *sp)
{
	fputs(sp->is_void || sp->noreturn ? " else " : " ", f);
}

/* The dispatcher's jump to the instrumented or the plain copy calling dispatchers
 * (which), or to its counting twin while the run counts small procedures. */
static void put_jump_counting(FILE *f, const split *sp, enum copy which, const char *args)
{
	if (!sp->calls_counted) {
		put_jump(f, sp, which, args);
		return;
	}
	fputs("{ if (pvmmon_counting_) ", f);
	put_jump(f, sp, which == COPY_ON ? COPY_ON_CNT : COPY_OFF_CNT, args);
	put_else(f, sp);
	put_jump(f, sp, which, args);
	fputs(" }", f);
}

static split *find(const rewriter *rw, const char *name)
{
	for (size_t i = 0; i < rw->nsplits; i++)
		if (!strcmp(rw->splits[i].name, name))
			return &rw->splits[i];
	return NULL;
}

const split *split__find(const rewriter *rw, const char *name) { return find(rw, name); }

/* Name's bit in rw->used_early (FNV-1a). */
static unsigned long name_bit(const char *name, size_t *word)
{
	unsigned h = 2166136261u;

	for (; *name; name++)
		h = (h ^ (unsigned char)*name) * 16777619u;
	h %= REWRITER_USED_WORDS * 8 * sizeof(unsigned long);
	*word = h / (8 * sizeof(unsigned long));
	return 1ul << (h % (8 * sizeof(unsigned long)));
}

/* Whether name was used (split__note_ref) before a procedure of that name was split. */
static int used_early(const rewriter *rw, const char *name)
{
	size_t word;
	unsigned long bit = name_bit(name, &word);

	return (rw->used_early[word] & bit) != 0;
}

int split__procedure(rewriter *rw, CXCursor fn, CXCursor body, long open, const char *name,
                     unsigned line, int count_slot, int calls_counted)
{
	char *init = NULL, *args = NULL, *head = NULL;
	size_t init_len = 0, args_len = 0, head_len = 0, i;
	loop_walk w = {rw, (int)rw->stats->split, 1, NULL};
	long jump_at = 0;
	FILE *f;
	split *sp;
	insertion *in;
	int ok = 0;

	if (!(sp = new_split(rw, fn, body, open, name)))
		return 0;
	sp->counted = count_slot >= 0;
	sp->count_slot = count_slot;
	sp->calls_counted = calls_counted && !sp->counted;
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
	put_prototype(f, rw, sp, COPY_ON);
	put_prototype(f, rw, sp, COPY_OFF);
	put_prototype(f, rw, sp, COPY_PLAIN);
	if (sp->counted)
		put_prototype(f, rw, sp, COPY_CNT);
	if (sp->calls_counted) {
		put_prototype(f, rw, sp, COPY_ON_CNT);
		put_prototype(f, rw, sp, COPY_OFF_CNT);
	}
	/* The dispatcher: in a process nobody monitors, the plain copy that calls plain
	 * copies (pvmmon_probe_unwatched); a small procedure's counting copy while the run
	 * counts them; else the instrumented copy while any of the sites is on, and the
	 * plain copy that calls dispatchers while all are off, its calls counted (a
	 * throttled procedure keeps an exact count). */
	put_declarator(f, rw, sp, "", 1, 0);
	fputs(" { if (pvmmon_unwatched_) ", f);
	jump_at = ftell(f);
	put_jump(f, sp, COPY_PLAIN, args);
	if (sp->counted) {
		put_else(f, sp);
		fputs("if (pvmmon_counting_) ", f);
		put_jump(f, sp, COPY_CNT, args);
	}
	put_else(f, sp);
	fputs("if (", f);
	for (i = 0; i < (size_t)w.n; i++)
		fprintf(f, "%spvmmon_sites%d_[%zu].enabled", i ? " | " : "", sp->id, i);
	fputs(") ", f);
	put_jump_counting(f, sp, COPY_ON, args);
	put_else(f, sp);
	fprintf(f, "{ ++pvmmon_sites%d_[0].off; ", sp->id);
	put_jump_counting(f, sp, COPY_OFF, args);
	fputs(" } } ", f);
	/* The instrumented copy is the definition itself: an extern one keeps its extern,
	 * and the static prototype above makes it static. */
	if (sp->extern_at >= 0 || sp->omit_to > sp->start)
		fputs("__attribute__((noinline)) ", f);
	else
		put_copy_specifiers(f, sp, COPY_ON);
	fclose(f);
	/* Where the unwatched jump names the plain copy, for split__write_plain_copies. */
	sp->unwatched_jump = strstr(head + jump_at, copy_suffix[COPY_PLAIN]);
	sp->entered = sp->add_static || used_early(rw, name);
	ok = 1;
out:
	free(init);
	free(args);
	if (!ok) {
		free(head);
		free(sp->name);
		rw->failed = 1;
		return 0;
	}
	rewriter__add_owned(rw, sp->start, head);
	if ((in = rewriter__add(rw, sp->name_at, "%s__pvmmon_on", name)))
		in->skip = sp->name_len;
	rewriter__add(rw, (unsigned)open + 1, " PVMMON__PROC_SCOPE_AT(pvmmon_sites%d_[0]);",
	              sp->id);
	if (sp->counted &&
	    (in = rewriter__add(rw, (unsigned)open + 1, " PVMMON_PROC_COUNT(pvmmon_counts_[%d]);",
	                        count_slot)))
		in->cnt = 1;
	rw->nsplits++;
	rw->stats->split++;
	return 1;
}

int split__leaf(rewriter *rw, CXCursor fn, CXCursor body, long open, const char *name,
                int count_slot)
{
	char *head = NULL;
	size_t head_len = 0;
	FILE *f;
	split *sp;
	insertion *in;

	if (!(sp = new_split(rw, fn, body, open, name)))
		return 0;
	sp->leaf = 1;
	sp->counted = 1;
	sp->count_slot = count_slot;
	if ((in = rewriter__add(rw, (unsigned)open + 1, " PVMMON_PROC_COUNT(pvmmon_counts_[%d]);",
	                        count_slot)))
		in->cnt = 1;
	if (!(f = open_memstream(&head, &head_len))) {
		free(sp->name);
		rw->failed = 1;
		return 0;
	}
	put_prototype(f, rw, sp, COPY_PLAIN);
	put_prototype(f, rw, sp, COPY_CNT);
	fclose(f);
	rewriter__add_owned(rw, sp->start, head);
	rw->nsplits++;
	return 1;
}

void split__note_ref(rewriter *rw, CXCursor ref)
{
	CXCursor fn = clang_getCursorReferenced(ref);
	CXString s;
	split *sp;
	size_t word;

	if (clang_getCursorKind(fn) != CXCursor_FunctionDecl ||
	    clang_Location_isInSystemHeader(clang_getCursorLocation(fn)))
		return;
	/* A call by name that the caller's plain copy makes to the callee's plain copy. */
	if (rw->renamed_at >= 0 &&
	    rewriter__main_file_offset(clang_getCursorLocation(ref)) == rw->renamed_at)
		return;
	s = clang_getCursorSpelling(fn);
	if ((sp = find(rw, clang_getCString(s))))
		sp->entered = 1;
	else
		rw->used_early[word] |= name_bit(clang_getCString(s), &word);
	clang_disposeString(s);
}

int split__in_main(const insertion *in) { return in_copy(in, COPY_ON); }

/* Whether offset at lies in the body of the procedure split last (whose walk this is):
 * only a split procedure has a plain copy to rename a call in. */
static int in_last_split(const rewriter *rw, unsigned at)
{
	return rw->nsplits && at > rw->splits[rw->nsplits - 1].open &&
	       at < rw->splits[rw->nsplits - 1].end;
}

/* Whether type spelling t can be written as is before a name or in a parameter list:
 * words, blanks and stars only (no function pointer, array or other declarator). */
static int plain_spelling(const char *t)
{
	if (!*t)
		return 0;
	for (; *t; t++)
		if (!is_ident(*t) && !strchr(" *", *t))
			return 0;
	return 1;
}

/*
 * The prototype of callee fn's plain copy, as its declaration at the call gives its
 * type: written before the caller's plain copy, after the caller, where the types of
 * a file-scope declaration the call saw are all declared. NULL when a type is more
 * than words and stars (the call then keeps the dispatcher), or when fn's declaration
 * there is not at file scope.
 */
static char *forward_prototype(CXCursor fn, const char *callee)
{
	CXType t = clang_getCursorType(fn);
	int n = clang_getNumArgTypes(t), ok;
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	CXString r;

	if (t.kind != CXType_FunctionProto || clang_isFunctionTypeVariadic(t) || n < 0 ||
	    clang_getCursorKind(clang_getCursorSemanticParent(fn)) != CXCursor_TranslationUnit ||
	    !(f = open_memstream(&text, &len)))
		return NULL;
	r = clang_getTypeSpelling(clang_getResultType(t));
	ok = plain_spelling(clang_getCString(r));
	fprintf(f, "__attribute__((unused)) static %s %s__pvmmon_plain(", clang_getCString(r),
	        callee);
	clang_disposeString(r);
	for (int i = 0; i < n && ok; i++) {
		CXString a = clang_getTypeSpelling(clang_getArgType(t, (unsigned)i));

		ok = plain_spelling(clang_getCString(a));
		fprintf(f, "%s%s", i ? ", " : "", clang_getCString(a));
		clang_disposeString(a);
	}
	fputs(n ? "); " : "void); ", f);
	fclose(f);
	if (!ok) {
		free(text);
		return NULL;
	}
	return text;
}

/* Keeps the call of callee fn at at (len bytes of name), not split yet, for
 * split__resolve_forward. */
static void note_forward(rewriter *rw, unsigned at, unsigned len, CXCursor fn, const char *callee)
{
	split *caller = rw->nsplits ? &rw->splits[rw->nsplits - 1] : NULL;
	fwdcall *grown;
	char *proto;

	if (!in_last_split(rw, at) || caller->leaf || !(proto = forward_prototype(fn, callee)))
		return;
	if (rw->nfwd % 64 == 0) {
		grown = realloc(rw->fwd, (rw->nfwd + 64) * sizeof(*grown));
		if (!grown) {
			rw->failed = 1;
			return;
		}
		rw->fwd = grown;
	}
	rw->fwd[rw->nfwd].proto = proto;
	if (!(rw->fwd[rw->nfwd].callee = strdup(callee))) {
		free(proto);
		rw->failed = 1;
		return;
	}
	rw->fwd[rw->nfwd].at = at;
	rw->fwd[rw->nfwd].len = len;
	rw->fwd[rw->nfwd].split = 0;
	if (caller->fwd_to == 0)
		caller->fwd_from = rw->nfwd;
	caller->fwd_to = ++rw->nfwd;
	/* The call goes to the plain copy if there is one: not an entry by the dispatcher. */
	rw->renamed_at = at;
}

void split__resolve_forward(rewriter *rw)
{
	for (size_t i = 0; i < rw->nfwd && !rw->failed; i++) {
		fwdcall *fc = &rw->fwd[i];
		const split *sp = split__find(rw, fc->callee);
		insertion *in;

		if (!sp)
			continue;
		fc->split = (int)(sp - rw->splits) + 1;
		if ((in = rewriter__add(rw, fc->at, "%s__pvmmon_plain", fc->callee))) {
			in->skip = fc->len;
			in->bare = 1;
		}
	}
}

/* The prototypes of the plain copies that sp's plain copy calls before their
 * definitions, each once; noreturn when the callee's declarator says so (a type has no
 * word for it), so that the caller's copy knows what the caller knew. */
static void put_forward_prototypes(FILE *f, const rewriter *rw, const split *sp)
{
	for (size_t i = sp->fwd_from; i < sp->fwd_to; i++) {
		size_t k = i;

		if (!rw->fwd[i].split)
			continue;
		for (k = sp->fwd_from; k < i && rw->fwd[k].split != rw->fwd[i].split; k++)
			;
		if (k < i)
			continue;
		if (rw->splits[rw->fwd[i].split - 1].noreturn)
			fputs("__attribute__((noreturn)) ", f);
		fputs(rw->fwd[i].proto, f);
	}
}

void split__rename_call(rewriter *rw, CXCursor call, const char *callee)
{
	long at = rewriter__main_file_offset(clang_getRangeStart(clang_getCursorExtent(call)));
	size_t n = strlen(callee), after;
	const split *sp;
	insertion *in;

	if (at < 0 || (size_t)at + n >= rw->len || memcmp(rw->text + at, callee, n) != 0)
		return;
	/* Only a call by the procedure's name: `f (x)`, not `(f)(x)` or `(*p)(x)`. */
	after = rewriter__skip_space(rw, (size_t)at + n);
	if (after >= rw->len || rw->text[after] != '(')
		return;
	if (!(sp = split__find(rw, callee))) {
		note_forward(rw, (unsigned)at, (unsigned)n, clang_getCursorReferenced(call),
		             callee);
		return;
	}
	if ((in = rewriter__add(rw, (unsigned)at, "%s__pvmmon_plain", callee))) {
		in->skip = (unsigned)n;
		in->bare = 1;
		/* Only a plain copy makes the renamed call: one in the procedure split last,
		 * whose body this is (a procedure left whole has none). */
		if (in_last_split(rw, (unsigned)at))
			rw->renamed_at = at;
	}
	/* rewriter__add grows the insertions, never the splits: sp stays valid. */
	if (sp->counted && (in = rewriter__add(rw, (unsigned)at, "%s__pvmmon_cnt", callee))) {
		in->skip = (unsigned)n;
		in->cnt = 1;
	}
}

/*
 * Appends copy which of sp (the insertions in_copy gives it: COPY_OFF with the call
 * lines, COPY_PLAIN with the calls renamed to plain copies, ...) to f, between line
 * directives that give it the procedure's own lines and give the rest of the file its
 * lines back. The compiler warns about the procedure's text once, in the instrumented
 * copy, the definition's own: the other copies are marked as a system header's lines
 * (GCC's line marker `# N "file" 3`, which clang reads too), where it says nothing,
 * unless the build asks for pedantic warnings, of which such a marker is one.
 */
static void write_copy(FILE *f, const rewriter *rw, const split *sp, enum copy which, size_t n)
{
	unsigned at = sp->open;
	size_t k;

	fprintf(f, rw->pedantic ? "\n#line %u \"" : "\n# %u \"", sp->line);
	rewriter__write_escaped_path(f, rw->src);
	fputs(rw->pedantic ? "\"\n" : "\" 3\n", f);
	if (which == COPY_PLAIN)
		put_forward_prototypes(f, rw, sp);
	put_copy_specifiers(f, sp, which);
	put_declarator(f, rw, sp, copy_suffix[which], 0, 1);
	/* The declarator's trailing blanks were dropped: the body starts a line later
	 * when they held a new line, which #line has not counted. */
	fwrite(rw->text + put_declarator_end(rw, sp), 1, sp->open - put_declarator_end(rw, sp), f);
	for (k = 0; k < n; k++) {
		const insertion *in = &rw->ins[k];

		if (in->offset < sp->open || in->offset >= sp->end || in->offset < at ||
		    !in_copy(in, which))
			continue;
		fwrite(rw->text + at, 1, in->offset - at, f);
		fputs(in->text, f);
		at = in->offset + in->skip;
	}
	fwrite(rw->text + at, 1, sp->end - at, f);
	/* A line marker without flags, where #line would keep the system header's mark. */
	fprintf(f, rw->pedantic ? "\n#line %u \"" : "\n# %u \"", sp->end_line);
	rewriter__write_escaped_path(f, rw->src);
	fputs("\"\n", f);
}

void split__write_plain_copies(rewriter *rw)
{
	size_t i, n = rw->nins;

	for (i = 0; i < rw->nsplits && !rw->failed; i++) {
		const split *sp = &rw->splits[i];
		char *t = NULL;
		size_t tlen = 0;
		FILE *f = open_memstream(&t, &tlen);

		if (!f) {
			rw->failed = 1;
			return;
		}
		/* Same length: the blanks stand before the jump's argument list. */
		if (!sp->leaf && !sp->entered && sp->unwatched_jump)
			memcpy(sp->unwatched_jump, "__pvmmon_off  ",
			       strlen(copy_suffix[COPY_PLAIN]));
		if (!sp->leaf)
			write_copy(f, rw, sp, COPY_OFF, n);
		if (sp->calls_counted) {
			write_copy(f, rw, sp, COPY_ON_CNT, n);
			write_copy(f, rw, sp, COPY_OFF_CNT, n);
		}
		write_copy(f, rw, sp, COPY_PLAIN, n);
		if (sp->counted)
			write_copy(f, rw, sp, COPY_CNT, n);
		fclose(f);
		rewriter__add_owned(rw, sp->end, t);
	}
}
