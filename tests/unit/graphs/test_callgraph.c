/*
 * Unit tests for graphs/callgraph.c: call sites, direct and mutual recursion, and how a
 * group of mutually recursive procedures is named.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "pvmmon/callgraph.h"
#include "pvmmon/log.h"

/* One proc record as the library writes it. */
typedef struct rec {
	const char *name, *caller;
	int call_line;
	uint64_t count;
	int64_t incl, excl;
} rec;

/*
 * main calls fact (recursive), the even/odd pair (mutually recursive) and work at two
 * lines; burn is called from inside the pair; leaf is counted. Times are consistent as
 * the library's probe stack makes them: a record made while its procedure is already
 * active adds no inclusive time.
 */
static const rec sample[] = {
    {"main", NULL, 0, 1, 1000, 300},
    {"fact", "main", 10, 1, 100, 40},
    {"fact", "fact", 20, 4, 0, 60},
    {"is_even", "main", 11, 1, 200, 20},
    {"is_odd", "is_even", 30, 3, 180, 30},
    {"is_even", "is_odd", 40, 3, 0, 20},
    {"burn", "is_odd", 41, 3, 130, 130},
    {"work", "main", 12, 2, 250, 250},
    {"work", "main", 13, 1, 150, 150},
};

static pvmmon_log_task *make_task(void)
{
	pvmmon_log_task *t = calloc(1, sizeof(*t));
	size_t n = sizeof(sample) / sizeof(sample[0]);

	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	t->nprocs = n + 1;
	t->procs = calloc(n + 1, sizeof(*t->procs));
	for (size_t i = 0; i < n; i++) {
		pvmmon_log_proc *p = &t->procs[i];

		p->name = (char *)sample[i].name;
		p->file = (char *)"x.c";
		p->line = (int32_t)(100 + i);
		p->caller = (char *)sample[i].caller;
		p->call_line = sample[i].call_line;
		p->count = sample[i].count;
		p->incl_ns = sample[i].incl;
		p->excl_ns = sample[i].excl;
	}
	t->procs[n].name = (char *)"leaf";
	t->procs[n].count = 77;
	t->procs[n].counted = 1;
	return t;
}

static void free_task(pvmmon_log_task *t)
{
	free(t->procs);
	free(t);
}

static const pvmmon_cg_node *node(const pvmmon_callgraph *cg, const char *name)
{
	size_t i = pvmmon_callgraph_find(cg, name);

	CU_ASSERT_NOT_EQUAL_FATAL(i, PVMMON_CG_ROOT);
	return &cg->nodes[i];
}

static void test_mutual_recursion_collapsed(void)
{
	pvmmon_log_task *t = make_task();
	pvmmon_callgraph *cg = NULL;
	const pvmmon_cg_node *pair;

	CU_ASSERT_EQUAL_FATAL(pvmmon_callgraph_build(&cg, t), 0);
	pair = node(cg, "is_odd");
	CU_ASSERT_PTR_EQUAL(pair, node(cg, "is_even"));
	CU_ASSERT_STRING_EQUAL(pair->name, "is_even+is_odd");
	CU_ASSERT_EQUAL(pair->nmembers, 2);
	CU_ASSERT(pair->recursive);
	/* One call from outside (main), six between the members. */
	CU_ASSERT_EQUAL(pair->calls, 1);
	CU_ASSERT_EQUAL(pair->inner_calls, 6);
	/* Inclusive is the outer activation's only; exclusive is every member's. */
	CU_ASSERT_EQUAL(pair->incl_ns, 200);
	CU_ASSERT_EQUAL(pair->excl_ns, 70);
	CU_ASSERT_EQUAL(pair->callees_ns, 130);
	CU_ASSERT_EQUAL(pair->incl_ns, pair->excl_ns + pair->callees_ns);
	/* Its only caller is the external call site. */
	for (size_t e = 0; e < cg->nedges; e++)
		if (cg->edges[e].to == (size_t)(pair - cg->nodes)) {
			CU_ASSERT_STRING_EQUAL(cg->edges[e].caller, "main");
			CU_ASSERT_EQUAL(cg->edges[e].call_line, 11);
		}
	pvmmon_callgraph_free(cg);
	free_task(t);
}

static void test_direct_recursion_and_call_sites(void)
{
	pvmmon_log_task *t = make_task();
	pvmmon_callgraph *cg = NULL;
	const pvmmon_cg_node *fact, *work, *mainp, *leaf;
	size_t nwork = 0;

	CU_ASSERT_EQUAL_FATAL(pvmmon_callgraph_build(&cg, t), 0);
	/* main, fact, the pair, burn, work, leaf. */
	CU_ASSERT_EQUAL(cg->nnodes, 6);
	fact = node(cg, "fact");
	CU_ASSERT(fact->recursive);
	CU_ASSERT_EQUAL(fact->calls, 1);
	CU_ASSERT_EQUAL(fact->inner_calls, 4);
	CU_ASSERT_EQUAL(fact->incl_ns, 100);
	CU_ASSERT_EQUAL(fact->excl_ns, 100);
	work = node(cg, "work");
	CU_ASSERT(!work->recursive);
	CU_ASSERT_EQUAL(work->calls, 3);
	CU_ASSERT_EQUAL(work->incl_ns, 400);
	/* Two call sites of work, the costlier first. */
	for (size_t e = 0; e < cg->nedges; e++)
		if (cg->edges[e].to == (size_t)(work - cg->nodes)) {
			CU_ASSERT_EQUAL(cg->edges[e].call_line, nwork == 0 ? 12 : 13);
			CU_ASSERT_EQUAL(cg->edges[e].incl_ns, nwork == 0 ? 250 : 150);
			nwork++;
		}
	CU_ASSERT_EQUAL(nwork, 2);
	/* main: inclusive = exclusive + callees (fact, the pair, work). */
	mainp = node(cg, "main");
	CU_ASSERT_EQUAL(mainp->callees_ns, 100 + 200 + 400);
	CU_ASSERT_EQUAL(mainp->incl_ns, mainp->excl_ns + mainp->callees_ns);
	leaf = node(cg, "leaf");
	CU_ASSERT(leaf->counted);
	CU_ASSERT_EQUAL(leaf->calls, 77);
	CU_ASSERT_EQUAL(pvmmon_callgraph_find(cg, "nothing"), PVMMON_CG_ROOT);
	pvmmon_callgraph_free(cg);
	free_task(t);
}

/*
 * An interpreter's 24 mutually recursive procedures (tests/fixtures/report-mutual24.xml):
 * one node named by its entry, eval (three calls from main), though apply (one call) is
 * seen first; every member listed, the entry first.
 */
static void test_24_mutually_recursive(void)
{
	static const char *const forms[] = {"quote", "if",    "let",  "lambda", "define", "set",
					    "begin", "cond",  "and",  "or",     "while",  "call",
					    "args",  "body",  "case", "do",     "when",   "unless",
					    "delay", "force", "macro", "prim"};
	pvmmon_log *log = NULL;
	pvmmon_callgraph *cg = NULL;
	const pvmmon_cg_node *g;

	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&log, "tests/fixtures/report-mutual24.xml"), 0);
	CU_ASSERT_EQUAL_FATAL(pvmmon_callgraph_build(&cg, &log->tasks[0]), 0);
	/* main, the group, prim_add. */
	CU_ASSERT_EQUAL(cg->nnodes, 3);
	g = node(cg, "eval");
	CU_ASSERT_STRING_EQUAL(g->name, "eval and 23 more, mutually recursive");
	CU_ASSERT_EQUAL_FATAL(g->nmembers, 24);
	CU_ASSERT_STRING_EQUAL(g->members[0], "eval");
	CU_ASSERT_STRING_EQUAL(g->members[1], "apply");
	for (size_t i = 0; i < 22; i++) {
		char name[32];

		snprintf(name, sizeof(name), "ev_%s", forms[i]);
		CU_ASSERT_STRING_EQUAL(g->members[2 + i], name);
		CU_ASSERT_PTR_EQUAL(node(cg, name), g);
	}
	/* Where the entry is defined; four calls from outside, two sites. */
	CU_ASSERT_EQUAL(g->line, 20);
	CU_ASSERT_EQUAL(g->calls, 4);
	CU_ASSERT_EQUAL(g->inner_calls, 22 * 2 * 2 + 5 + 5);
	CU_ASSERT_EQUAL(g->incl_ns, 80000);
	CU_ASSERT_EQUAL(g->incl_ns, g->excl_ns + g->callees_ns);
	CU_ASSERT_STRING_EQUAL(node(cg, "prim_add")->name, "prim_add");
	pvmmon_callgraph_free(cg);
	pvmmon_log_free(log);
}

/* The entry on a tie (one call from outside each): the member seen first; with two
 * members the name joins both, the entry first. */
static void test_entry_ties_and_pairs(void)
{
	static const rec three[] = {
	    {"main", NULL, 0, 1, 100, 10},  {"b", "main", 5, 1, 40, 10},
	    {"a", "main", 6, 1, 50, 10},     {"c", "a", 7, 2, 0, 10},
	    {"b", "c", 8, 2, 0, 10},         {"a", "b", 9, 3, 0, 10},
	};
	static const rec two[] = {
	    {"main", NULL, 0, 1, 100, 10}, {"odd", "even", 5, 3, 0, 10},
	    {"even", "odd", 6, 3, 0, 10},  {"even", "main", 7, 2, 80, 10},
	    {"odd", "main", 8, 1, 10, 10},
	};
	pvmmon_log_proc procs[6] = {0};
	pvmmon_log_task t = {0};
	pvmmon_callgraph *cg = NULL;
	const pvmmon_cg_node *g;

	t.procs = procs;
	t.nprocs = 6;
	for (size_t i = 0; i < 6; i++) {
		procs[i].name = (char *)three[i].name;
		procs[i].caller = (char *)three[i].caller;
		procs[i].call_line = three[i].call_line;
		procs[i].count = three[i].count;
		procs[i].incl_ns = three[i].incl;
		procs[i].excl_ns = three[i].excl;
	}
	CU_ASSERT_EQUAL_FATAL(pvmmon_callgraph_build(&cg, &t), 0);
	g = node(cg, "a");
	CU_ASSERT_STRING_EQUAL(g->name, "b and 2 more, mutually recursive");
	CU_ASSERT_EQUAL_FATAL(g->nmembers, 3);
	CU_ASSERT_STRING_EQUAL(g->members[1], "a");
	CU_ASSERT_STRING_EQUAL(g->members[2], "c");
	pvmmon_callgraph_free(cg);

	/* odd is seen first, even has more calls from outside. */
	t.nprocs = 5;
	for (size_t i = 0; i < 5; i++) {
		procs[i].name = (char *)two[i].name;
		procs[i].caller = (char *)two[i].caller;
		procs[i].count = two[i].count;
	}
	CU_ASSERT_EQUAL_FATAL(pvmmon_callgraph_build(&cg, &t), 0);
	CU_ASSERT_STRING_EQUAL(node(cg, "odd")->name, "even+odd");
	CU_ASSERT_EQUAL(node(cg, "odd")->calls, 3);
	pvmmon_callgraph_free(cg);
}

static void test_empty_task(void)
{
	pvmmon_log_task t = {0};
	pvmmon_callgraph *cg = NULL;

	CU_ASSERT_EQUAL_FATAL(pvmmon_callgraph_build(&cg, &t), 0);
	CU_ASSERT_EQUAL(cg->nnodes, 0);
	CU_ASSERT_EQUAL(cg->nedges, 0);
	pvmmon_callgraph_free(cg);
	CU_ASSERT(pvmmon_callgraph_build(NULL, &t) < 0);
}

CU_TestInfo test_callgraph_tests[] = {
    {"mutual recursion collapsed into one node", test_mutual_recursion_collapsed},
    {"direct recursion and per-call-site edges", test_direct_recursion_and_call_sites},
    {"24 mutually recursive procedures named by entry and count", test_24_mutually_recursive},
    {"a group's entry on a tie; a pair joined, entry first", test_entry_ties_and_pairs},
    {"an empty task; bad arguments", test_empty_task},
    CU_TEST_INFO_NULL,
};
