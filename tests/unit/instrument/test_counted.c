/* Unit tests for instrument/counted.c: which procedures pvmmon-cc counts instead of
 * timing (leaves, and small straight-line procedures calling only counted ones), on
 * definitions parsed with libclang and a table of procedures split before them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "snippet.h"

static const char source[] =
    "int ext(int);\n"
    "static int leaf(int a) { return a * 2 + 1; }\n"
    "static int one(void) { return 1; }\n"
    "static void nothing(void) { }\n"
    "static int loops(int n) { int s = 0; for (int i = 0; i < n; i++) s += i; return s; }\n"
    "static int waits(int n) { while (n > 3) n--; return n; }\n"
    "static int jumps(int a) { if (a) goto out; a = 2; out: return a; }\n"
    "static int calls_ext(int a) { return ext(a); }\n"
    "static int calls_leaf(int a) { return leaf(a) + leaf(a + 1); }\n"
    "static int calls_leaf_once(int a) { return leaf(a); }\n"
    "static int calls_both(int a) { return leaf(a) + ext(a); }\n"
    "static int via_pointer(int (*p)(int)) { return p(1); }\n";

/* Appends a procedure split before this point to s's table. */
static void add_split(snippet *s, const char *name, int counted, long weight)
{
	split *sp = realloc(s->rw.splits, (s->rw.nsplits + 1) * sizeof(*sp));

	CU_ASSERT_PTR_NOT_NULL_FATAL(sp);
	s->rw.splits = sp;
	sp = &s->rw.splits[s->rw.nsplits++];
	memset(sp, 0, sizeof(*sp));
	sp->name = strdup(name);
	sp->counted = counted;
	sp->weight = weight;
}

/* How procedure name is classified, its weight and whether it calls counted ones. */
static counted_kind classify(const snippet *s, const char *name, long *weight, int *calls)
{
	CXCursor body;
	long open;

	snippet_function(s, name, &body, &open);
	*weight = -1;
	*calls = -1;
	return counted__classify(&s->rw, body, weight, calls);
}

/* Leaves: no call, no loop, no goto; weighed by their statements and expressions. */
static void test_leaves(void)
{
	snippet s;
	long w;
	int calls;

	snippet_parse(&s, source);
	CU_ASSERT_EQUAL(classify(&s, "leaf", &w, &calls), COUNTED_LEAF);
	CU_ASSERT(w > 2);
	CU_ASSERT_EQUAL(calls, 0);
	/* `return 1;`: a statement and an expression. */
	CU_ASSERT_EQUAL(classify(&s, "one", &w, &calls), COUNTED_LEAF);
	CU_ASSERT_EQUAL(w, 2);
	CU_ASSERT_EQUAL(classify(&s, "nothing", &w, &calls), COUNTED_LEAF);
	CU_ASSERT_EQUAL(w, 0);
	snippet_free(&s);
}

/* Loops and gotos are never counted; nor a call to anything but a counted procedure
 * split before (an unknown one, one through a pointer). */
static void test_not_counted(void)
{
	static const char *const names[] = {"loops",      "waits",       "jumps",     "calls_ext",
	                                    "calls_both", "via_pointer", "calls_leaf"};
	snippet s;
	long w;
	int calls;

	snippet_parse(&s, source);
	/* calls_leaf too while leaf is not in the table. */
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		counted_kind k = classify(&s, names[i], &w, &calls);

		if (k != COUNTED_NOT)
			fprintf(stderr, "\n%s: kind %d\n", names[i], (int)k);
		CU_ASSERT_EQUAL(k, COUNTED_NOT);
		CU_ASSERT_EQUAL(calls, 0);
	}
	/* leaf split but not counted: calling it is a call like any other. */
	add_split(&s, "leaf", 0, 5);
	CU_ASSERT_EQUAL(classify(&s, "calls_leaf", &w, &calls), COUNTED_NOT);
	CU_ASSERT_EQUAL(calls, 0);
	snippet_free(&s);
}

/* Calling only counted procedures: small, its weight its own and its callees', up to
 * COUNTED_MAX_WEIGHT. */
static void test_small(void)
{
	snippet s;
	long w0, w;
	int calls;

	snippet_parse(&s, source);
	add_split(&s, "ext_helper", 1, 1000); /* another name: not found by calls_leaf */
	add_split(&s, "leaf", 1, 0);
	CU_ASSERT_EQUAL(classify(&s, "calls_leaf", &w0, &calls), COUNTED_SMALL);
	CU_ASSERT_EQUAL(calls, 1);
	/* Each call adds its callee's weight. */
	s.rw.splits[1].weight = 10;
	CU_ASSERT_EQUAL(classify(&s, "calls_leaf", &w, &calls), COUNTED_SMALL);
	CU_ASSERT_EQUAL(w, w0 + 20);
	/* Mixed with another call: not counted, though it calls a counted one. */
	CU_ASSERT_EQUAL(classify(&s, "calls_both", &w, &calls), COUNTED_NOT);
	CU_ASSERT_EQUAL(calls, 1);
	/* The limit: at it, small; past it, timed. */
	s.rw.splits[1].weight = 0;
	CU_ASSERT_EQUAL(classify(&s, "calls_leaf_once", &w0, &calls), COUNTED_SMALL);
	s.rw.splits[1].weight = COUNTED_MAX_WEIGHT - w0;
	CU_ASSERT_EQUAL(classify(&s, "calls_leaf_once", &w, &calls), COUNTED_SMALL);
	CU_ASSERT_EQUAL(w, COUNTED_MAX_WEIGHT);
	s.rw.splits[1].weight = COUNTED_MAX_WEIGHT - w0 + 1;
	CU_ASSERT_EQUAL(classify(&s, "calls_leaf_once", &w, &calls), COUNTED_NOT);
	CU_ASSERT_EQUAL(w, COUNTED_MAX_WEIGHT + 1);
	CU_ASSERT_EQUAL(calls, 1);
	snippet_free(&s);
}

CU_TestInfo test_counted_tests[] = {
    {"leaves, weighed", test_leaves},
    {"loops, gotos, other calls: timed", test_not_counted},
    {"small procedures calling counted ones, the weight limit", test_small},
    CU_TEST_INFO_NULL,
};
