/* Unit tests for instrument/split.c: a procedure split into its sites' array, a
 * dispatcher, the instrumented copy in its place and the plain copies after it, on
 * definitions parsed with libclang; the text each step makes, compared whole. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "../graphs/golden.h"
#include "snippet.h"

/* Splits procedure name of s (its line, counter slot and whether it calls counted
 * procedures as given); returns what split__procedure returned. */
static int split_one(snippet *s, const char *name, int slot, int calls_counted)
{
	CXCursor body;
	long open;
	CXCursor fn = snippet_function(s, name, &body, &open);
	unsigned line;

	clang_getExpansionLocation(clang_getCursorLocation(fn), NULL, &line, NULL, NULL);
	return split__procedure(&s->rw, fn, body, open, name, line, slot, calls_counted);
}

typedef struct calls {
	snippet *s;
	const char *callee;
} calls;

static enum CXChildVisitResult rename_calls(CXCursor c, CXCursor parent, CXClientData data)
{
	calls *w = data;
	CXCursor callee;
	CXString n;

	(void)parent;
	/* Uses of the names, as pvmmon-cc's walk notes them after the calls. */
	if (clang_getCursorKind(c) == CXCursor_DeclRefExpr)
		split__note_ref(&w->s->rw, c);
	if (clang_getCursorKind(c) != CXCursor_CallExpr)
		return CXChildVisit_Recurse;
	callee = clang_getCursorReferenced(c);
	n = clang_getCursorSpelling(callee);
	if (!strcmp(clang_getCString(n), w->callee))
		split__rename_call(&w->s->rw, c, w->callee);
	clang_disposeString(n);
	return CXChildVisit_Recurse;
}

/* Renames the calls of callee in procedure name as pvmmon-cc's walk does. */
static void rename_in(snippet *s, const char *name, const char *callee)
{
	CXCursor body;
	long open;
	calls w = {s, callee};

	snippet_function(s, name, &body, &open);
	clang_visitChildren(body, rename_calls, &w);
}

/* The text with the plain copies written after each split procedure, as pvmmon-cc
 * writes it (insertions sorted first). The caller frees it. */
static char *with_copies(snippet *s)
{
	free(snippet_apply(s)); /* sorts */
	split__write_plain_copies(&s->rw);
	CU_ASSERT_FALSE(s->rw.failed);
	return snippet_apply(s);
}

/* Asserts that text holds part, printing text when not. */
static void check_has(const char *text, const char *part)
{
	if (!strstr(text, part))
		fprintf(stderr, "\nexpected\n%s\nin\n%s\n", part, text);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, part));
}

static const char source[] = "int ext(int);\n"
                             "static int solve(int n)\n"
                             "{\n"
                             "\tint s = 0;\n"
                             "\tfor (int i = 0; i < n; i++)\n"
                             "\t\ts += ext(i);\n"
                             "\twhile (s > 100) s -= 7;\n"
                             "\treturn s;\n"
                             "}\n"
                             "void run(int n) { solve(n); (solve)(n); }\n";

/*
 * solve (static, two loops) and run (extern, void, calling solve by name and through
 * parentheses) split: the sites' array, the copies' prototypes and the dispatcher
 * before each definition, on its first line; the definition renamed to the
 * instrumented copy with its scope; then the plain copies after it, between line
 * markers, the call by name renamed in run's unwatched copy only.
 * (tests/fixtures/golden/split-procedures.txt holds the whole text.)
 */
static void test_procedure(void)
{
	snippet s;
	char *text;

	snippet_parse(&s, source);
	CU_ASSERT_EQUAL_FATAL(split_one(&s, "solve", -1, 0), 1);
	CU_ASSERT_EQUAL_FATAL(split_one(&s, "run", -1, 0), 1);
	CU_ASSERT_EQUAL(s.stats.split, 2);
	CU_ASSERT_EQUAL(s.rw.nsplits, 2);
	/* The loops' sites live in solve's array, after its own. */
	CU_ASSERT_EQUAL_FATAL(s.rw.nloops, 2);
	CU_ASSERT_EQUAL(s.rw.loops[0].split_id, 0);
	CU_ASSERT_EQUAL(s.rw.loops[0].index, 1);
	CU_ASSERT_EQUAL(s.rw.loops[1].index, 2);
	CU_ASSERT_PTR_EQUAL(split__find(&s.rw, "run"), &s.rw.splits[1]);
	CU_ASSERT_PTR_NULL(split__find(&s.rw, "ext"));
	rename_in(&s, "run", "solve");
	text = snippet_apply(&s);
	/* Lines stay where they were: the additions go on the definitions' first lines. */
	{
		size_t lines = 0;

		for (const char *p = text; *p; p++)
			lines += *p == '\n';
		CU_ASSERT_EQUAL(lines, 10);
	}
	check_has(text, "static pvmmon_probe_site pvmmon_sites0_[] = {{\"solve\", __FILE__, 2, "
	                "PVMMON_PROBE_PROC, 1, -1, 0, 2, 0}, {\"for@5:2\", __FILE__, 5, "
	                "PVMMON_PROBE_LOOP, 1, -1, 0, 0, 0}, {\"while@7:2\", __FILE__, 7, "
	                "PVMMON_PROBE_LOOP, 1, -1, 0, 0, 0}}; ");
	/* A procedure with a value returns its copy's; a void one chains with else. */
	check_has(text, "static int solve(int n) { if (pvmmon_unwatched_) return "
	                "solve__pvmmon_plain(n); if (pvmmon_sites0_[0].enabled | "
	                "pvmmon_sites0_[1].enabled | pvmmon_sites0_[2].enabled) return "
	                "solve__pvmmon_on(n); { ++pvmmon_sites0_[0].off; return "
	                "solve__pvmmon_off(n); } } __attribute__((noinline)) static int "
	                "solve__pvmmon_on(int n)\n{ PVMMON__PROC_SCOPE_AT(pvmmon_sites0_[0]);\n");
	/* run's copies are static, its dispatcher keeps its linkage. */
	check_has(text, "__attribute__((noinline)) static void run__pvmmon_on(int n); static "
	                "void run__pvmmon_off(int n); static void run__pvmmon_plain(int n); void "
	                "run(int n) { if (pvmmon_unwatched_) run__pvmmon_plain(n); else if "
	                "(pvmmon_sites1_[0].enabled) run__pvmmon_on(n); else { "
	                "++pvmmon_sites1_[0].off; run__pvmmon_off(n); } } ");
	check_has(text, "{ PVMMON__PROC_SCOPE_AT(pvmmon_sites1_[0]); solve(n); (solve)(n); }\n");
	free(text);
	text = with_copies(&s);
	check_has(text, "}\n# 2 \"snippet.c\" 3\nstatic int solve__pvmmon_off(int n)\n{\n");
	check_has(text, "}\n# 9 \"snippet.c\"\n\n# 2 \"snippet.c\" 3\nstatic int "
	                "solve__pvmmon_plain(int n)\n{\n");
	check_has(text, "# 10 \"snippet.c\" 3\nstatic void run__pvmmon_off(int n) { solve(n); "
	                "(solve)(n); }\n# 10 \"snippet.c\"\n");
	check_has(text, "# 10 \"snippet.c\" 3\nstatic void run__pvmmon_plain(int n) { "
	                "solve__pvmmon_plain(n); (solve)(n); }\n# 10 \"snippet.c\"\n");
	unit_check_golden(text, "tests/fixtures/golden/split-procedures.txt");
	free(text);
	snippet_free(&s);
}

static const char source2[] =
    "int ext(int);\n"
    "__attribute__((noinline)) static int tiny(int a) { return a + 1; }\n"
    "static int small(int a) { return a * 3; }\n"
    "static int caller(int a) { return small(a) + ext(a); }\n"
    "__attribute__((noreturn)) static void die(int c) { ext(c); for (;;) ; }\n"
    "static int leafy(int a) { return a - 1; }\n"
    "int user(int a) { return leafy(a); }\n";

/*
 * The other kinds: tiny (noinline) and small counted (slots 3 and 4), caller calling
 * counted small, die (noreturn), leafy a leaf (counted, only a plain and a counting
 * copy), user calling it; with -pedantic the copies' markers are #line directives,
 * and the file's name is escaped in them. (tests/fixtures/golden/split-kinds.txt
 * holds the whole text.)
 */
static void test_kinds(void)
{
	snippet s;
	char *text;
	CXCursor body;
	long open;
	CXCursor fn;

	snippet_parse(&s, source2);
	CU_ASSERT_EQUAL_FATAL(split_one(&s, "tiny", 3, 0), 1);
	CU_ASSERT_EQUAL_FATAL(split_one(&s, "small", 4, 0), 1);
	CU_ASSERT_EQUAL_FATAL(split_one(&s, "caller", -1, 1), 1);
	CU_ASSERT_EQUAL_FATAL(split_one(&s, "die", -1, 0), 1);
	fn = snippet_function(&s, "leafy", &body, &open);
	CU_ASSERT_EQUAL_FATAL(split__leaf(&s.rw, fn, body, open, "leafy", 0), 1);
	CU_ASSERT_EQUAL_FATAL(split_one(&s, "user", -1, 0), 1);
	/* The leaf has no sites: not one of the procedures split. */
	CU_ASSERT_EQUAL(s.stats.split, 5);
	CU_ASSERT_EQUAL(s.rw.nsplits, 6);
	CU_ASSERT(split__find(&s.rw, "leafy")->leaf && split__find(&s.rw, "leafy")->counted);
	CU_ASSERT(split__find(&s.rw, "tiny")->noinline && !split__find(&s.rw, "small")->noinline);
	CU_ASSERT(split__find(&s.rw, "die")->noreturn && split__find(&s.rw, "die")->is_void);
	CU_ASSERT(split__find(&s.rw, "caller")->calls_counted);
	rename_in(&s, "caller", "small");
	rename_in(&s, "user", "leafy");
	s.rw.pedantic = 1;
	s.rw.src = "dir \"q\"\\snippet.c";
	text = with_copies(&s);
	/* A counted procedure's dispatcher takes its counting copy while the run counts;
	 * the count is made in that copy only; kept out of line when the program asks. */
	check_has(text, "static int tiny(int a) { if (pvmmon_unwatched_) return "
	                "tiny__pvmmon_off  (a); if (pvmmon_counting_) return tiny__pvmmon_cnt(a); "
	                "if (pvmmon_sites0_[0].enabled) return tiny__pvmmon_on(a); ");
	check_has(text, "{ PVMMON__PROC_SCOPE_AT(pvmmon_sites0_[0]); return a + 1; }\n");
	check_has(text, "\n__attribute__((noinline)) static int tiny__pvmmon_cnt(int a) { "
	                "PVMMON_PROC_COUNT(pvmmon_counts_[3]); return a + 1; }\n");
	check_has(text, "\n__attribute__((always_inline)) __inline__ static int "
	                "small__pvmmon_cnt(int a) { PVMMON_PROC_COUNT(pvmmon_counts_[4]); return "
	                "a * 3; }\n");
	/* Calling counted procedures: counting twins of the instrumented and the off copy,
	 * which call the counting copies; the unwatched copy calls the plain ones. */
	check_has(text, "if (pvmmon_sites2_[0].enabled) { if (pvmmon_counting_) return "
	                "caller__pvmmon_on_cnt(a); return caller__pvmmon_on(a); } { "
	                "++pvmmon_sites2_[0].off; { if (pvmmon_counting_) return "
	                "caller__pvmmon_off_cnt(a); return caller__pvmmon_off(a); } } } ");
	check_has(text, "\nstatic int caller__pvmmon_off(int a) { return small(a) + ext(a); }\n");
	check_has(text, "\n__attribute__((noinline)) static int caller__pvmmon_on_cnt(int a) { "
	                "PVMMON__PROC_SCOPE_AT(pvmmon_sites2_[0]); return small__pvmmon_cnt(a) + "
	                "ext(a); }\n");
	check_has(text, "\nstatic int caller__pvmmon_off_cnt(int a) { return small__pvmmon_cnt(a) "
	                "+ ext(a); }\n");
	check_has(text, "\nstatic int caller__pvmmon_plain(int a) { return small__pvmmon_plain(a) "
	                "+ ext(a); }\n");
	/* noreturn: jumps without return, chained with else; its copies say noreturn. */
	check_has(text, "__attribute__((noreturn)) static void die(int c) { if (pvmmon_unwatched_) "
	                "die__pvmmon_off  (c); else if (pvmmon_sites3_[0].enabled | "
	                "pvmmon_sites3_[1].enabled) die__pvmmon_on(c); else { "
	                "++pvmmon_sites3_[0].off; die__pvmmon_off(c); } } ");
	/* The leaf: prototypes only in front of it, its definition left as it is. */
	check_has(text,
	          "\n__attribute__((unused)) static int leafy__pvmmon_plain(int a); "
	          "__attribute__((unused)) __attribute__((always_inline)) __inline__ static "
	          "int leafy__pvmmon_cnt(int a); static int leafy(int a) { return a - 1; }\n");
	check_has(text, "\n#line 7 \"dir \\\"q\\\"\\\\snippet.c\"\nstatic int "
	                "user__pvmmon_plain(int a) { return leafy__pvmmon_plain(a); }\n#line 7 "
	                "\"dir \\\"q\\\"\\\\snippet.c\"\n");
	CU_ASSERT_PTR_NULL(strstr(text, "\n# "));
	unit_check_golden(text, "tests/fixtures/golden/split-kinds.txt");
	free(text);
	snippet_free(&s);
}

static const char source3[] =
    "int main(void) { return 0; }\n"
    "int old_style(a) int a; { return a; }\n"
    "static int // why\n"
    "commented(int a) { return a; }\n"
    "static int\n"
    "#if 1\n"
    "directive(int a) { return a; }\n"
    "#endif\n"
    "#define HIDDEN __attribute__((visibility(\"hidden\"))) extern\n"
    "HIDDEN int hid(int a) { return a + 2; }\n"
    "extern int ext_def(int a) { return a - 2; }\n"
    "#define EXTINT extern int\n"
    "EXTINT typed(int a) { return a; }\n"
    "#define PRIVATE static\n"
    "PRIVATE int /* why */ block(int a) /* why */ { return a; }\n"
    "static int calls(int a) { return block (a) + (block)(a) + (*&block)(a); }\n";

/* What stays whole: nothing inserted, nothing recorded (typed: its macro says extern
 * and the type, which the copies could not leave out). A declarator with a comment
 * between its parameters and its body is fine, and so is one that begins with a macro
 * (block's PRIVATE, as SQLite's SQLITE_PRIVATE): its copies repeat the macro. An
 * extern definition's copies, static, leave its extern out, written (ext_def) or in
 * the macro it begins with (hid's HIDDEN, as Lua's LUAI_FUNC); the dispatcher and the
 * instrumented copy keep it. */
static void test_refusals(void)
{
	static const char *const whole[] = {"main", "old_style", "commented", "directive", "typed"};
	snippet s;

	snippet_parse(&s, source3);
	for (size_t i = 0; i < sizeof(whole) / sizeof(whole[0]); i++) {
		if (split_one(&s, whole[i], -1, 0) != 0)
			fprintf(stderr, "\n%s was split\n", whole[i]);
		CU_ASSERT_EQUAL(s.rw.nins, 0);
	}
	CU_ASSERT_EQUAL(s.rw.nsplits, 0);
	CU_ASSERT_EQUAL(s.stats.split, 0);
	CU_ASSERT_FALSE(s.rw.failed);
	CU_ASSERT_EQUAL(split_one(&s, "block", -1, 0), 1);
	CU_ASSERT_EQUAL(split_one(&s, "hid", -1, 0), 1);
	CU_ASSERT_EQUAL(split_one(&s, "ext_def", -1, 0), 1);
	/* Only the call by name is renamed, and only where block was split before. */
	CU_ASSERT_EQUAL(split_one(&s, "calls", -1, 0), 1);
	{
		size_t before = s.rw.nins;
		char *text;

		rename_in(&s, "calls", "block");
		CU_ASSERT_EQUAL(s.rw.nins, before + 1);
		text = with_copies(&s);
		check_has(text,
		          "static int calls__pvmmon_plain(int a) { return block__pvmmon_plain "
		          "(a) + (block)(a) + (*&block)(a); }\n");
		check_has(text,
		          "PRIVATE int /* why */ block__pvmmon_plain(int a) /* why */ { return "
		          "a; }");
		check_has(text,
		          "PRIVATE int /* why */ block(int a) /* why */ { if (pvmmon_unwatched_) "
		          "return block__pvmmon_plain(a);");
		check_has(text,
		          "static        int hid__pvmmon_plain(int a); HIDDEN int hid(int a) { "
		          "if (pvmmon_unwatched_) return hid__pvmmon_plain(a);");
		check_has(text, "} } __attribute__((noinline)) HIDDEN int hid__pvmmon_on(int a) {");
		check_has(text, "\nstatic        int hid__pvmmon_plain(int a) { return a + 2; }\n");
		check_has(text, "static        int ext_def__pvmmon_off(int a); static        int "
		                "ext_def__pvmmon_plain(int a); extern int ext_def(int a) {");
		check_has(text,
		          "\nstatic        int ext_def__pvmmon_plain(int a) { return a - 2; }\n");
		free(text);
	}
	snippet_free(&s);
}

/* Which insertions go in the definition's own text (the instrumented copy): not those
 * made only for the unwatched copy or the counting ones. */
static void test_in_main(void)
{
	insertion in;

	memset(&in, 0, sizeof(in));
	CU_ASSERT(split__in_main(&in));
	in.plain = 1;
	CU_ASSERT(split__in_main(&in));
	in.plain = 0;
	in.bare = 1;
	CU_ASSERT_FALSE(split__in_main(&in));
	in.bare = 0;
	in.cnt = 1;
	CU_ASSERT_FALSE(split__in_main(&in));
}

CU_TestInfo test_split_tests[] = {
    {"a procedure split: sites, dispatcher, copies", test_procedure},
    {"counted, calling counted, noreturn, leaf; -pedantic", test_kinds},
    {"what is not split; calls renamed by name only", test_refusals},
    {"which insertions the instrumented copy takes", test_in_main},
    CU_TEST_INFO_NULL,
};
