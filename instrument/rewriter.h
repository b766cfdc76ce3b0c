/*
 * Private to instrument/: the state of one rewrite and its primitives (rewriter.c),
 * shared by rewrite.c (the cursor walk and the output), split.c (procedures split into
 * an instrumented and a plain copy) and counted.c (procedures counted, not timed).
 */
#ifndef PVMMON_INSTRUMENT_REWRITER_H
#define PVMMON_INSTRUMENT_REWRITER_H

#include <clang-c/Index.h>
#include <stdio.h>

#include "rewrite_stats.h"

/* One piece of text to insert at a byte offset of the original source. */
typedef struct insertion {
	unsigned offset;
	unsigned seq;  /* keeps insertions at the same offset in the order they were made */
	unsigned skip; /* source bytes the text replaces (a renamed procedure's name) */
	int plain;     /* also made in a procedure's plain copy (a call's line) */
	int bare;      /* made only in its unwatched copy (a call renamed to a plain copy) */
	int cnt;       /* made only in its counting copies (a count, a call renamed to a
	                * counted procedure's NAME__pvmmon_cnt) */
	char *text;
} insertion;

/* A procedure split in four (instrument/plain.h): its name becomes a dispatcher that
 * jumps to NAME__pvmmon_plain, the body as written calling other plain copies, in a
 * process nobody monitors; else to NAME__pvmmon_on, the instrumented body, while one
 * of its probe sites is on, and to NAME__pvmmon_off, the body calling dispatchers,
 * while all are off. Its sites are declared before it, in one array pvmmon_sitesID_
 * (the procedure's, then its loops'). A leaf (counted, not timed) keeps its name and
 * gets only NAME__pvmmon_plain. */
typedef struct split {
	unsigned start;   /* where its definition starts */
	unsigned omit_to; /* the copies leave out start..omit_to: a macro saying extern */
	long extern_at;   /* a written `extern` the copies leave out, or -1 (either one
	                   * says the definition is extern) */
	unsigned name_at; /* its name */
	unsigned name_len;
	unsigned open;     /* its body's opening brace */
	unsigned end;      /* just past the body's closing brace */
	unsigned line;     /* line of start */
	unsigned end_line; /* line of the closing brace */
	int id;
	int add_static; /* its copies need the static its definition lacks */
	int is_void;
	int leaf;          /* only a plain copy */
	int noinline;      /* its declarator says noinline, which its copies repeat */
	int noreturn;      /* its declarator says noreturn: its dispatcher never returns */
	int counted;       /* a leaf or a small procedure: has NAME__pvmmon_cnt */
	int count_slot;    /* its counter in pvmmon_counts_ when counted */
	int calls_counted; /* calls counted procedures: has __pvmmon_on_cnt/__pvmmon_off_cnt */
	long weight;       /* its statements and expressions, its counted callees' included */
	int entered;       /* its name is used other than by a call its callers' plain copies
	                    * rename (split__note_ref): its dispatcher's unwatched jump must
	                    * go to its plain copy */
	char *unwatched_jump; /* the dispatcher's "__pvmmon_plain" in its owned text */
	size_t fwd_from, fwd_to; /* its calls of procedures defined later: rw->fwd[from..to) */
	char *name;
} split;

/*
 * Counted procedures. A leaf (no call, no loop) is always counted, not timed. A small
 * procedure (no loop, no goto, calling only counted procedures defined before it, at
 * most COUNTED_MAX_WEIGHT statements and expressions in all, its callees' included) is
 * straight-line code of a few dozen instructions: a probe pair would cost more than a
 * call, which the run's throttling would find after 1024 calls. pvmmon-cc counts it
 * from the start instead, unless the run keeps every probe timed (--no-throttle): its
 * NAME__pvmmon_cnt copy counts the call and runs the body calling its callees' counting
 * copies, and its callers' counting copies (NAME__pvmmon_on_cnt, NAME__pvmmon_off_cnt)
 * call it, so that a loop over such calls compiles as the program's own loop does.
 */
typedef enum counted_kind { COUNTED_NOT, COUNTED_LEAF, COUNTED_SMALL } counted_kind;
#define COUNTED_MAX_WEIGHT 160

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

/* The words of rewriter.used_early: 131,072 bits, a few collisions in a file of
 * thousands of procedures. */
#define REWRITER_USED_WORDS 2048

/* A call, in a split procedure's body, of a procedure not split before it (defined
 * later, elsewhere or never): renamed to the callee's plain copy in the caller's when
 * the callee turns out split (split__resolve_forward). */
typedef struct fwdcall {
	unsigned at, len; /* the callee's name at the call */
	char *callee;
	char *proto; /* its plain copy's prototype, from the callee's type at the call */
	int split;   /* the callee's index in rw->splits plus 1, once resolved; else 0 */
} fwdcall;

/* An object-like macro that says only harmless attributes (plain__note_macro). */
typedef struct attr_macro {
	char *name;
	int noinline; /* one of them is noinline */
} attr_macro;

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
	int pedantic; /* the compile asks for pedantic warnings (split.c, write_copy) */
	attr_macro *attr_macros; /* macros saying only harmless attributes (plain.c) */
	size_t nattr_macros;
	long renamed_at; /* where split__rename_call last renamed a callee's name */
	fwdcall *fwd;    /* calls of procedures not split before their callers */
	size_t nfwd;
	/* Names of procedures used before any was split under them, hashed (split.c): a
	 * collision only keeps a dispatcher's jump to the plain copy. */
	unsigned long used_early[REWRITER_USED_WORDS];
	int failed;
} rewriter;

/* The procedure split before this point called name, or NULL. */
const split *split__find(const rewriter *rw, const char *name);

/* Whether insertion in belongs in the definition's own text (the instrumented copy),
 * not only in one of the copies written after it. */
int split__in_main(const insertion *in);

/* Whether the definition with body body is counted (above), its weight and whether it
 * calls a counted procedure by name. */
counted_kind counted__classify(const rewriter *rw, CXCursor body, long *weight, int *calls_counted);

/* Appends an insertion that takes text (NULL: out of memory); NULL on failure (then
 * rw->failed is set). */
insertion *rewriter__add_owned(rewriter *rw, unsigned offset, char *text);

/* Appends an insertion of the formatted text; NULL on failure. */
insertion *rewriter__add(rewriter *rw, unsigned offset, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Not a place written literally in the main file (rewriter__main_file_offset). */
#define REWRITER_NOT_LITERAL (-1L)

/*
 * The file offset of loc when it is written literally in the main file;
 * REWRITER_NOT_LITERAL when it comes from a macro expansion or another file (such code
 * is not the user's to instrument here).
 */
long rewriter__main_file_offset(CXSourceLocation loc);
/* The file offset where the macro whose expansion holds loc is written (or loc's own
 * when written literally), when that is in the file of main, a place written literally
 * in the main file; REWRITER_NOT_LITERAL otherwise. */
long rewriter__expansion_offset(CXSourceLocation loc, CXSourceLocation main);

/* Skips blanks and comments from offset; returns where the next token starts. */
size_t rewriter__skip_space(const rewriter *rw, size_t i);

/*
 * Where loop starts and ends in the file (its closing semicolon included), its label
 * and line; 0 when it is not written literally in the file (a macro's loop is not the
 * user's text to instrument).
 */
int rewriter__loop_span(const rewriter *rw, CXCursor loop, unsigned *start, unsigned *end,
                        char *name, size_t n, unsigned *line);

/* Whether c is a for, while or do loop. */
int rewriter__is_loop(CXCursor c);

/* Writes path as the inside of a C string literal. */
void rewriter__write_escaped_path(FILE *out, const char *path);

/*
 * Splits procedure fn (instrument/plain.h) when it can be: a switched-off procedure
 * then costs its callers a load or two, a branch and a jump, where its scopes' tests
 * and the frame they need cost a small procedure a few percent of its time. Inserts
 * the sites' array, the copies' prototypes and the dispatcher before its definition,
 * renames the definition to the instrumented copy and opens its scope; the plain copy
 * is written after it when the insertions are done (split__write_plain_copies).
 * Returns 1 when it did, 0 when fn stays whole.
 */
int split__procedure(rewriter *rw, CXCursor fn, CXCursor body, long open, const char *name,
                     unsigned line, int count_slot, int calls_counted);

/*
 * Gives leaf procedure fn (counted, not timed) a plain copy when it can have one,
 * which the plain copies of the procedures after it call: in a process nobody
 * monitors, its calls are then not counted either. Returns 1 when it did.
 */
int split__leaf(rewriter *rw, CXCursor fn, CXCursor body, long open, const char *name,
                int count_slot);

/*
 * Makes call, to procedure callee, call callee's plain copy in the plain copies of
 * the procedure it is in, when callee was split before this point (it has a plain
 * copy declared) and the call names it directly.
 */
void split__rename_call(rewriter *rw, CXCursor call, const char *callee);

/*
 * Renames the calls of procedures defined after their callers (or split after them) in
 * the callers' plain copies, once the walk is done and every split is known: the
 * plain copy of a caller then declares the callees' plain copies first (in its
 * system-header lines), so that a gcc build's cross-calls keep being inlined.
 */
void split__resolve_forward(rewriter *rw);

/*
 * Notes a use of a procedure's name, ref (a DeclRefExpr): unless it is a call
 * split__rename_call has just renamed in its caller's plain copy, the procedure can be
 * entered through its dispatcher in a process nobody monitors (an address taken, a
 * call from a procedure left whole or in a macro's text, a call before the callee's
 * definition that keeps the dispatcher).
 */
void split__note_ref(rewriter *rw, CXCursor ref);

/*
 * Writes each split procedure's plain copies just after its definition: its body as
 * the user wrote it, with only the call lines added (NAME__pvmmon_off), and with only
 * the renamed calls (NAME__pvmmon_plain), each between #line directives that give it
 * the procedure's own lines and give the rest of the file its lines back. Needs the
 * insertions sorted; adds to them. A procedure that is static and never entered
 * (split__note_ref) has its dispatcher's unwatched jump go to NAME__pvmmon_off, a jump
 * no unmonitored run takes: its plain copy's only callers are then its callers' plain
 * copies, and gcc inlines a procedure called once as it would in a gcc build.
 */
void split__write_plain_copies(rewriter *rw);

#endif
