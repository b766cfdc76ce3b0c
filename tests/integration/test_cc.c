/*
 * Integration tests of pvmmon-cc: apps built with it run monitored with the same output
 * and give procedure and loop records, and statements named by source without -g;
 * invalid C gets the compiler's own diagnostics.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "harness.h"
#include "pvmmon/callgraph.h"
#include "pvmmon/errors.h"
#include "pvmmon/log.h"

static const pvmmon_log_proc *proc_of(const pvmmon_log_task *t, const char *name,
                                      const char *caller)
{
	for (size_t i = 0; i < t->nprocs; i++) {
		const pvmmon_log_proc *p = &t->procs[i];

		if (!strcmp(p->name, name) &&
		    (caller ? p->caller && !strcmp(p->caller, caller) : p->caller == NULL))
			return p;
	}
	return NULL;
}

static void test_matmul_built_with_pvmmon_cc(void)
{
	const char *dir = harness_tmpdir();
	char log[4096];
	cmd_result b, m, r;
	pvmmon_log *l = NULL;
	const pvmmon_log_task *root = NULL;
	const pvmmon_log_proc *mainp, *iter;

	/* The repository's apps/ sources, built the way a user's Makefile would. */
	harness_sh(&b, 120,
	           "cd '%s' && %s/pvmmon-cc -g -O2 -o matmul %s/../apps/matmul.c -lpvm3 && "
	           "%s/pvmmon-cc -g -O2 -c %s/../apps/matmul-worker.c && "
	           "%s/pvmmon-cc -o matmul-worker matmul-worker.o -lpvm3",
	           dir, harness_bin(), harness_build(), harness_bin(), harness_build(),
	           harness_bin());
	CU_ASSERT_EQUAL_FATAL(b.status, 0);
	harness_sh(&r, 120, "cd '%s' && %s/pvmmon run --raw -q -- %s/matmul -n 90 -w 3 -i 3", dir,
	           harness_bin(), dir);
	snprintf(log, sizeof(log), "%s/cc.xml", dir);
	harness_sh(&m, 120, "cd '%s' && %s/pvmmon run -q -o '%s' -- %s/matmul -n 90 -w 3 -i 3", dir,
	           harness_bin(), log, dir);
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_EQUAL(m.status, 0);
	CU_ASSERT_STRING_EQUAL(m.out, r.out);
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&l, log), 0);
	for (size_t i = 0; i < l->ntasks; i++)
		if (!strcmp(l->tasks[i].lid, "0"))
			root = &l->tasks[i];
	CU_ASSERT_PTR_NOT_NULL_FATAL(root);
	mainp = proc_of(root, "main", NULL);
	iter = proc_of(root, "one_iteration", "main");
	CU_ASSERT_PTR_NOT_NULL_FATAL(mainp);
	CU_ASSERT_PTR_NOT_NULL_FATAL(iter);
	/* Exact call counts, and main's time is its own plus its callees'. */
	CU_ASSERT_EQUAL(mainp->count, 1);
	CU_ASSERT_EQUAL(iter->count, 3);
	{
		int64_t callees = 0;

		for (size_t i = 0; i < root->nprocs; i++)
			if (root->procs[i].caller && !strcmp(root->procs[i].caller, "main"))
				callees += root->procs[i].incl_ns;
		CU_ASSERT(llabs(mainp->incl_ns - (mainp->excl_ns + callees)) * 100 <=
		          mainp->incl_ns);
	}
	CU_ASSERT(iter->incl_ns > 0 && iter->incl_ns <= mainp->incl_ns);
	/* Loops are named by kind and position and know their procedure. */
	{
		int in_iter = 0;

		for (size_t i = 0; i < root->nloops; i++)
			if (root->loops[i].proc && !strcmp(root->loops[i].proc, "one_iteration")) {
				in_iter++;
				CU_ASSERT_EQUAL(root->loops[i].count, 3);
				CU_ASSERT_PTR_NOT_NULL(strstr(root->loops[i].name, "for@"));
			}
		CU_ASSERT_EQUAL(in_iter, 2);
	}
	/* The static table agrees with apps/matmul.c as written: entries, lines, nesting. */
	{
		static const struct {
			pvmmon_static_kind kind;
			const char *name;
			int line;
			const char *parent; /* name of the enclosing entry, NULL at file level */
		} want[] = {
		    {PVMMON_STATIC_PROC, "one_iteration", 33, NULL},
		    {PVMMON_STATIC_LOOP, "for@37:2", 37, "one_iteration"},
		    {PVMMON_STATIC_COM, "pvm_send", 44, "for@37:2"},
		    {PVMMON_STATIC_LOOP, "for@47:2", 47, "one_iteration"},
		    {PVMMON_STATIC_COM, "pvm_recv", 51, "for@47:2"},
		    {PVMMON_STATIC_PROC, "main", 62, NULL},
		    {PVMMON_STATIC_COM, "pvm_mcast", 116, "main"},
		    {PVMMON_STATIC_LOOP, "for@120:2", 120, "main"},
		    {PVMMON_STATIC_CALL, "one_iteration", 121, "for@120:2"},
		    {PVMMON_STATIC_COM, "pvm_mcast", 126, "main"},
		};

		for (size_t k = 0; k < sizeof(want) / sizeof(want[0]); k++) {
			int hit = 0;

			for (size_t i = 0; i < root->nstatics; i++) {
				const pvmmon_log_static *e = &root->statics[i];
				const char *pn =
				    e->parent >= 0 ? root->statics[e->parent].name : NULL;

				if (e->kind == want[k].kind && !strcmp(e->name, want[k].name) &&
				    e->line == want[k].line &&
				    (want[k].parent ? pn && !strcmp(pn, want[k].parent) : !pn))
					hit = 1;
			}
			if (!hit)
				fprintf(stderr, "\n  missing static entry %s line %d ",
				        want[k].name, want[k].line);
			CU_ASSERT(hit);
		}
	}
	pvmmon_log_free(l);
	cmd_result_free(&b);
	cmd_result_free(&m);
	cmd_result_free(&r);
}

/* Sums over a task's proc records: count, inclusive, exclusive of procedure name (under
 * any caller, or under caller when given). */
static void sums(const pvmmon_log_task *t, const char *name, const char *caller, uint64_t *count,
                 int64_t *incl, int64_t *excl)
{
	*count = 0;
	*incl = *excl = 0;
	for (size_t i = 0; i < t->nprocs; i++) {
		const pvmmon_log_proc *p = &t->procs[i];

		if (strcmp(p->name, name) || (caller && (!p->caller || strcmp(p->caller, caller))))
			continue;
		*count += p->count;
		*incl += p->incl_ns;
		*excl += p->excl_ns;
	}
}

/*
 * Checks inclusive = exclusive + callees' inclusive, within 1%, for every node of the
 * task's call graph (mutually recursive procedures collapsed into one node as in seed
 * 000 Figure 11); returns how many nodes were checked.
 */
static size_t check_times_add_up(const pvmmon_log_task *t)
{
	pvmmon_callgraph *cg = NULL;
	size_t checked = 0;

	CU_ASSERT_EQUAL_FATAL(pvmmon_callgraph_build(&cg, t), 0);
	for (size_t i = 0; i < cg->nnodes; i++) {
		const pvmmon_cg_node *n = &cg->nodes[i];

		if (n->counted)
			continue;
		if (llabs(n->incl_ns - (n->excl_ns + n->callees_ns)) * 100 > n->incl_ns)
			fprintf(stderr, "\n  %s: inclusive %lld, exclusive %lld + callees %lld ",
			        n->name, (long long)n->incl_ns, (long long)n->excl_ns,
			        (long long)n->callees_ns);
		CU_ASSERT(n->incl_ns > 0);
		CU_ASSERT(llabs(n->incl_ns - (n->excl_ns + n->callees_ns)) * 100 <= n->incl_ns);
		checked++;
	}
	/* The even/odd pair is one recursive node, called once from main at line 93. */
	{
		size_t k = pvmmon_callgraph_find(cg, "is_odd");

		CU_ASSERT_NOT_EQUAL_FATAL(k, PVMMON_CG_ROOT);
		CU_ASSERT_STRING_EQUAL(cg->nodes[k].name, "is_even+is_odd");
		CU_ASSERT_EQUAL(cg->nodes[k].calls, 1);
		CU_ASSERT_EQUAL(cg->nodes[k].inner_calls, 6);
	}
	pvmmon_callgraph_free(cg);
	return checked;
}

/* The proc record of name called from caller at call_line, or NULL. */
static const pvmmon_log_proc *at_line(const pvmmon_log_task *t, const char *name,
                                      const char *caller, int call_line)
{
	for (size_t i = 0; i < t->nprocs; i++) {
		const pvmmon_log_proc *p = &t->procs[i];

		if (!strcmp(p->name, name) && p->caller && !strcmp(p->caller, caller) &&
		    p->call_line == call_line)
			return p;
	}
	return NULL;
}

static void test_recursion_counts_and_times(void)
{
	const char *dir = harness_tmpdir();
	char log[4096];
	cmd_result b, m;
	pvmmon_log *l = NULL;
	const pvmmon_log_task *t;
	uint64_t c;
	int64_t x, y;

	harness_sh(
	    &b, 120,
	    "cd '%s' && %s/pvmmon-cc -O1 -g -o proctest %s/../tests/fixtures/src/proctest.c -lpvm3",
	    dir, harness_bin(), harness_build());
	CU_ASSERT_EQUAL_FATAL(b.status, 0);
	snprintf(log, sizeof(log), "%s/p.xml", dir);
	harness_sh(&m, 120, "cd '%s' && %s/pvmmon run -q -o '%s' -- ./proctest", dir, harness_bin(),
	           log);
	CU_ASSERT_EQUAL(m.status, 0);
	CU_ASSERT_STRING_EQUAL(m.out, "proctest: total 149\n");
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&l, log), 0);
	CU_ASSERT_EQUAL_FATAL(l->ntasks, 1);
	t = &l->tasks[0];
	/* Exact call counts: a directly recursive call has its own record. */
	sums(t, "fact", "main", &c, &x, &y);
	CU_ASSERT_EQUAL(c, 1);
	sums(t, "fact", "fact", &c, &x, &y);
	CU_ASSERT_EQUAL(c, 4);
	/* The recursive record adds no inclusive time: it is the outer call's already. */
	CU_ASSERT_EQUAL(x, 0);
	sums(t, "is_even", NULL, &c, &x, &y);
	CU_ASSERT_EQUAL(c, 4);
	sums(t, "is_odd", NULL, &c, &x, &y);
	CU_ASSERT_EQUAL(c, 3);
	sums(t, "search", "main", &c, &x, &y);
	CU_ASSERT_EQUAL(c, 2);
	sums(t, "apply", "main", &c, &x, &y);
	CU_ASSERT_EQUAL(c, 6);
	/* Called through a function pointer from apply. */
	sums(t, "classify", "apply", &c, &x, &y);
	CU_ASSERT_EQUAL(c, 6);
	/* burn: 5 from fact, 4 + 3 from the even/odd pair, 2 + 6 + 6 more elsewhere, and
	 * 76 in search (the goto and the breaks leave its loops early). */
	sums(t, "burn", NULL, &c, &x, &y);
	CU_ASSERT_EQUAL(c, 5 + 4 + 3 + 76 + 6 + 8);
	/* Times add up for every node: main, fact, the pair, search, apply, classify,
	 * burn. */
	CU_ASSERT_EQUAL(check_times_add_up(t), 7);
	/* A record per call site: search(23) at line 94 stops early through its goto,
	 * search(99) at line 95 runs all its loops; classify is called through the
	 * pointer at line 81 and calls burn at lines 65 and 70. */
	{
		const pvmmon_log_proc *s94 = at_line(t, "search", "main", 94);
		const pvmmon_log_proc *s95 = at_line(t, "search", "main", 95);
		const pvmmon_log_proc *c81 = at_line(t, "classify", "apply", 81);
		const pvmmon_log_proc *b65 = at_line(t, "burn", "classify", 65);
		const pvmmon_log_proc *b70 = at_line(t, "burn", "classify", 70);

		CU_ASSERT_PTR_NOT_NULL_FATAL(s94);
		CU_ASSERT_PTR_NOT_NULL_FATAL(s95);
		CU_ASSERT_EQUAL(s94->count, 1);
		CU_ASSERT_EQUAL(s95->count, 1);
		CU_ASSERT(s95->incl_ns > s94->incl_ns);
		CU_ASSERT_PTR_NOT_NULL_FATAL(c81);
		CU_ASSERT_EQUAL(c81->count, 6);
		CU_ASSERT_PTR_NOT_NULL_FATAL(b65);
		CU_ASSERT_PTR_NOT_NULL_FATAL(b70);
		CU_ASSERT_EQUAL(b65->count, 6);
		CU_ASSERT_EQUAL(b70->count, 2);
	}
	pvmmon_log_free(l);
	cmd_result_free(&b);
	cmd_result_free(&m);
}

static void test_invalid_c_gets_compiler_diagnostics(void)
{
	const char *dir = harness_tmpdir();
	cmd_result r;
	char obj[4096];

	harness_sh(&r, 60,
	           "cd '%s' && printf 'int f(void)\\n{\\n\\treturn nope;\\n}\\n' > bad.c && "
	           "%s/pvmmon-cc -c bad.c -o bad.o",
	           dir, harness_bin());
	CU_ASSERT_NOT_EQUAL(r.status, 0);
	/* gcc's own message at the user's file and line. */
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "bad.c:3:"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "nope"));
	snprintf(obj, sizeof(obj), "%s/bad.o", dir);
	CU_ASSERT(access(obj, F_OK) != 0);
	cmd_result_free(&r);
}

static void test_make_with_cc_and_errors_at_user_lines(void)
{
	const char *dir = harness_tmpdir();
	cmd_result r;

	/* A tiny Makefile project: CC=pvmmon-cc works unchanged, warnings point at the
	 * user's lines, and a plain (non-PVM) program still runs. */
	harness_sh(&r, 120,
	           "cd '%s' && printf '#include \"sq.h\"\\nint sq(int x)\\n{\\n\\tint unused;\\n"
	           "\\treturn x * x;\\n}\\n' > sq.c && printf 'int sq(int x);\\n' > sq.h && "
	           "printf '#include <stdio.h>\\n#include \"sq.h\"\\nint main(void)\\n{\\n"
	           "\\tint s = 0;\\n\\tfor (int i = 0; i < 4; i++)\\n\\t\\ts += sq(i);\\n"
	           "\\tprintf(\"%%%%d\\\\n\", s);\\n\\treturn 0;\\n}\\n' > main.c && "
	           "printf 'prog: main.o sq.o\\n\\t$(CC) -o $@ main.o sq.o\\n' > Makefile && "
	           "make -s CC=%s/pvmmon-cc CFLAGS=-Wall && ./prog",
	           dir, harness_bin());
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_STRING_EQUAL(r.out, "14\n");
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "sq.c:4:"));
	cmd_result_free(&r);
	/* Dependency files (-MMD -MP) name the user's sources, not pvmmon-cc's temporary
	 * copies: a header change rebuilds, and make finds every prerequisite. The one
	 * fixed wait (1 s before touching the header) makes its time later than the
	 * object's on a file system that keeps whole seconds; a longer wait changes
	 * nothing. */
	harness_sh(
	    &r, 120,
	    "cd '%s' && rm -f *.o prog && printf -- '-include $(wildcard *.d)\n' >> Makefile && "
	    "make -s CC=%s/pvmmon-cc 'CFLAGS=-MMD -MP' && grep -h '^sq.o:' sq.d && "
	    "sleep 1 && touch sq.h && make CC=%s/pvmmon-cc 'CFLAGS=-MMD -MP' && ./prog",
	    dir, harness_bin(), harness_bin());
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "sq.o: sq.c "));
	CU_ASSERT_PTR_NULL(strstr(r.out, "pvmmon-cc."));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "-c -o sq.o sq.c"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "14\n"));
	cmd_result_free(&r);
}

/*
 * A build without -g (no line information for libdw): its communication statements are
 * named by the static table's file:line in the text report, the HTML report, the
 * export and `pvmmon top --once` on the running program, never as module+offset; the
 * two pvm_send calls of main are told apart (the one in the loop ran more often).
 */
static void test_no_debug_info_statements_by_source(void)
{
	const char *dir = harness_tmpdir();
	cmd_result r;
	const char *top;

	harness_sh(
	    &r, 180,
	    "cd '%s' && %s/pvmmon-cc -O2 -o twospeed %s/../tests/fixtures/src/twospeed.c -lpvm3 "
	    "&& { %s/pvmmon run -q -o t.xml -- ./twospeed 1 stop >t.out 2>&1 & } && "
	    "i=0; while [ ! -e t.xml.run ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done; "
	    "i=0; until %s/pvmmon top --once t.xml > top.txt 2>&1 && grep -q 'twospeed.c:52' "
	    "top.txt || [ $i -ge 100 ]; do sleep 0.1; i=$((i+1)); done; touch stop; "
	    "i=0; while [ -e t.xml.run ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done; "
	    "echo ==TOP; cat top.txt; echo ==REPORT; %s/pvmmon report t.xml; "
	    "%s/pvmmon report t.xml -o rep >/dev/null && %s/pvmmon export t.xml --csv csv && "
	    "echo ==HTML && grep -c '+0x' rep/index.html; echo ==CSV; cat csv/statements.csv",
	    dir, harness_bin(), harness_build(), harness_bin(), harness_bin(), harness_bin(),
	    harness_bin(), harness_bin());
	top = strstr(r.out, "==TOP");
	CU_ASSERT_PTR_NOT_NULL_FATAL(top);
	/* Without -g the log has no file for the statements: the names come from its
	 * static tables. */
	CU_ASSERT_PTR_NULL(strstr(r.out, "+0x"));
	CU_ASSERT_PTR_NOT_NULL(strstr(top, "twospeed.c:52 in main"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "==REPORT"));
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(strstr(r.out, "==REPORT") ? strstr(r.out, "==REPORT") : "",
	           "twospeed.c:44 in main                    pvm_send          1 "));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "twospeed.c:51 in main"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "==HTML\n0\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "twospeed.c:45 in main,pvm_recv,"));
	/* The module+offset is still in the export, beside the name. */
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, ",pvm_send,"));
	if (strstr(r.out, "+0x") || !strstr(r.out, "==HTML\n0\n"))
		fprintf(stderr, "\n%s\n%s\n", r.out, r.err);
	cmd_result_free(&r);
}

/*
 * The monitor's own sentences name statements like the reports: a hung pvmmon-cc build
 * without -g has each task's wait, in the log's end state and so in the report, at the
 * static table's lines it can be, not at module+offset. (A diagnosis said before a
 * task's first flush still names module+offset: the table comes with the records.)
 */
static void test_no_debug_info_waits_by_source(void)
{
	const char *dir = harness_tmpdir();
	cmd_result r;

	harness_sh(
	    &r, 180,
	    "cd '%s' && %s/pvmmon-cc -O2 -o hang %s/../apps/hang.c -lpvm3 && "
	    "PATH=\"$PWD:$PATH\" %s/pvmmon run -q --on-hang=abort -o h.xml -- ./hang cycle2; "
	    "%s/pvmmon report --text h.xml | grep 'waiting at'",
	    dir, harness_bin(), harness_build(), harness_bin(), harness_bin());
	/* The master and both workers, in the hang section and the task table. */
	CU_ASSERT(harness_count(r.out, "waiting at hang.c:") >= 6);
	CU_ASSERT_PTR_NULL(strstr(r.out, "+0x"));
	if (harness_count(r.out, "waiting at hang.c:") < 6 || strstr(r.out, "+0x"))
		fprintf(stderr, "\n%s\n%s\n", r.out, r.err);
	cmd_result_free(&r);
}

/* The statement of op at a line of a file ending in file (line 0: any line) in any
 * task of l, or NULL. */
static const pvmmon_log_stmt *stmt_at(const pvmmon_log *l, const char *op, const char *file,
                                      int line)
{
	for (size_t t = 0; t < l->ntasks; t++)
		for (size_t k = 0; k < l->tasks[t].nstmts; k++) {
			const pvmmon_log_stmt *s = &l->tasks[t].stmts[k];
			size_t n = s->file ? strlen(s->file) : 0, m = strlen(file);

			if (s->op && !strcmp(s->op, op) && n >= m &&
			    !strcmp(s->file + n - m, file) && (!line || s->line == line))
				return s;
		}
	return NULL;
}

/*
 * A program whose every PVM call libpvmhooks defines (apps/joinonly.c: join, leave,
 * exit), built with pvmmon-cc the way its gcc build is linked: the linker's
 * --as-needed (Debian's default) would drop libgpvm3 and its first group call would
 * abort; pvmmon-cc keeps PVM's libraries, in each form they can be given. It runs
 * monitored with the output of a plain run, its group calls statements at its lines.
 */
static void test_group_calls_only(void)
{
	const char *dir = harness_tmpdir();
	char log[4096];
	cmd_result b, r, m;
	pvmmon_log *l = NULL;

	harness_sh(
	    &b, 120,
	    "cd '%s' && %s/pvmmon-cc -g -O2 -o joinonly %s/../apps/joinonly.c -lpvm3 -lgpvm3 && "
	    "readelf -d joinonly | grep NEEDED && "
	    "%s/pvmmon-cc -O2 -o j2 %s/../apps/joinonly.c -l gpvm3 "
	    "\"$(gcc -print-file-name=libpvm3.so)\" && readelf -d j2 | grep NEEDED",
	    dir, harness_bin(), harness_build(), harness_bin(), harness_build());
	CU_ASSERT_EQUAL_FATAL(b.status, 0);
	/* Both builds keep both libraries, after libpvmhooks. */
	CU_ASSERT_EQUAL(harness_count(b.out, "[libgpvm3.so.3]"), 2);
	CU_ASSERT_EQUAL(harness_count(b.out, "[libpvm3.so.3]"), 2);
	CU_ASSERT(strstr(b.out, "libpvmhooks") &&
	          strstr(b.out, "libpvmhooks") < strstr(b.out, "libgpvm3"));
	harness_sh(&r, 120, "cd '%s' && %s/pvmmon run --raw -q -- %s/bin/joinonly 3", dir,
	           harness_bin(), harness_build());
	snprintf(log, sizeof(log), "%s/j.xml", dir);
	harness_sh(&m, 120, "cd '%s' && %s/pvmmon run -q -o '%s' -- ./joinonly 3", dir,
	           harness_bin(), log);
	if (m.status != 0)
		fprintf(stderr, "\n%s\n", m.err);
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_EQUAL(m.status, 0);
	CU_ASSERT_EQUAL(harness_count(m.out, "joinonly: round"), 3);
	CU_ASSERT_STRING_EQUAL(m.out, r.out);
	CU_ASSERT_PTR_NULL(strstr(m.err, "not among its libraries"));
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&l, log), 0);
	{
		const pvmmon_log_stmt *join = stmt_at(l, "pvm_joingroup", "joinonly.c", 20);
		const pvmmon_log_stmt *leave = stmt_at(l, "pvm_lvgroup", "joinonly.c", 23);

		CU_ASSERT_PTR_NOT_NULL(join);
		CU_ASSERT_PTR_NOT_NULL(leave);
		if (join && leave) {
			CU_ASSERT_EQUAL(join->count, 3);
			CU_ASSERT_EQUAL(leave->count, 3);
		}
	}
	pvmmon_log_free(l);
	cmd_result_free(&b);
	cmd_result_free(&r);
	cmd_result_free(&m);
}

/*
 * The same on code we did not write: PVM's group example joinleave (Debian
 * pvm-examples, gexamples.tar.gz), which calls only pvm_mytid, pvm_perror and the
 * group membership calls, built with its own Makefile and CC=pvmmon-cc, runs monitored
 * as it runs plainly: 201 joins and leaves, each a statement at its line.
 */
#define GEXAMPLES_TAR "/usr/share/doc/pvm-examples/gexamples.tar.gz"

static void test_pvm_joinleave_example(void)
{
	const char *dir = harness_tmpdir();
	char log[4096];
	cmd_result b, r, m;
	pvmmon_log *l = NULL;

	CU_ASSERT_EQUAL_FATAL(access(GEXAMPLES_TAR, R_OK), 0);
	harness_sh(&b, 300,
	           "cd '%s' && tar xzf " GEXAMPLES_TAR " && for v in plain cc; do "
	           "mkdir -p $v/bin && (cd $v && cc=gcc && [ $v = cc ] && cc=%s/pvmmon-cc; "
	           "make -f ../gexamples/Makefile.aimk SDIR=../gexamples PVMDIR=/usr/lib/pvm3 "
	           "PVM_ARCH=LINUX64 XDIR=\"$PWD/bin\" CC=$cc joinleave) || exit 1; done",
	           dir, harness_bin());
	if (b.status != 0)
		fprintf(stderr, "\n%s\n", b.err);
	CU_ASSERT_EQUAL_FATAL(b.status, 0);
	harness_sh(&r, 120, "cd '%s/plain' && %s/pvmmon run --raw -q -- ./joinleave 200", dir,
	           harness_bin());
	snprintf(log, sizeof(log), "%s/jl.xml", dir);
	harness_sh(&m, 120, "cd '%s/cc' && %s/pvmmon run -q -o '%s' -- ./joinleave 200", dir,
	           harness_bin(), log);
	if (m.status != 0)
		fprintf(stderr, "\n%s\n", m.err);
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_EQUAL(m.status, 0);
	CU_ASSERT_STRING_EQUAL(r.out, "Joined 100 times\nJoined 200 times\n");
	CU_ASSERT_STRING_EQUAL(m.out, r.out);
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&l, log), 0);
	{
		const pvmmon_log_stmt *join = stmt_at(l, "pvm_joingroup", "joinleave.c", 62);
		const pvmmon_log_stmt *leave = stmt_at(l, "pvm_lvgroup", "joinleave.c", 66);

		CU_ASSERT_PTR_NOT_NULL(join);
		CU_ASSERT_PTR_NOT_NULL(leave);
		if (join && leave) {
			CU_ASSERT_EQUAL(join->count, 201);
			CU_ASSERT_EQUAL(leave->count, 201);
		}
	}
	pvmmon_log_free(l);
	cmd_result_free(&b);
	cmd_result_free(&r);
	cmd_result_free(&m);
}

/*
 * A spawning program built without -g (apps/ring.c, -O2): its pvm_spawn is named by
 * the static table's file:line like its sends and receives, in the log's report.
 */
static void test_no_debug_info_spawn_by_source(void)
{
	const char *dir = harness_tmpdir();
	cmd_result r;

	harness_sh(&r, 180,
	           "cd '%s' && %s/pvmmon-cc -O2 -o ring %s/../apps/ring.c -lpvm3 && "
	           "%s/pvmmon-cc -O2 -o ring-node %s/../apps/ring-node.c -lpvm3 && "
	           "PATH=\"$PWD:$PATH\" %s/pvmmon run -q -o r.xml -- ./ring -n 3 -r 2 -u 1 && "
	           "echo ==REPORT && %s/pvmmon report --text r.xml",
	           dir, harness_bin(), harness_build(), harness_bin(), harness_build(),
	           harness_bin(), harness_bin());
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "ring: tasks=3 rounds=2"));
	/* apps/ring.c:88 is the pvm_spawn call. */
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "ring.c:88 in main"));
	CU_ASSERT_PTR_NULL(strstr(r.out, "+0x"));
	if (!strstr(r.out, "ring.c:88 in main") || strstr(r.out, "+0x"))
		fprintf(stderr, "\n%s\n%s\n", r.out, r.err);
	cmd_result_free(&r);
}

/*
 * pvmmon-cc adds no warning: every apps/ source and the fixtures compiled with gcc and
 * with pvmmon-cc under -Wall -Wextra and the project's flags give the same number of
 * warnings (0 for the apps; 2 for onewarn.c, whose warnings are in procedures that
 * pvmmon-cc copies); nested.c (calls inside calls, two calls in one expression, a
 * noreturn procedure with two exits, nested loops) compiles with -Werror both ways
 * and computes the same.
 */
static void test_no_warnings_added(void)
{
	const char *dir = harness_tmpdir();
	cmd_result r;
	const char *flags = "-std=gnu11 -D_GNU_SOURCE -O2 -Wall -Wextra";
	int gcc_n = -1, cc_n = -1, gcc_one = -1, cc_one = -1, files = 0;

	harness_sh(&r, 600,
	           "cd '%s' && n=0 && for cc in gcc %s/pvmmon-cc; do w=0; f=0; "
	           "for s in %s/../apps/*.c %s/../tests/fixtures/src/nested.c; do "
	           "c=$($cc %s -c $s -o x.o 2>&1 | grep -c 'warning:'); w=$((w+c)); f=$((f+1)); "
	           "done; o=$($cc %s -c %s/../tests/fixtures/src/onewarn.c -o x.o 2>&1 | "
	           "grep -c 'warning:'); echo \"$w $o $f\"; done",
	           dir, harness_bin(), harness_build(), harness_build(), flags, flags,
	           harness_build());
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_EQUAL(sscanf(r.out, "%d %d %d\n%d %d", &gcc_n, &gcc_one, &files, &cc_n, &cc_one),
	                5);
	CU_ASSERT_EQUAL(gcc_n, 0);
	CU_ASSERT_EQUAL(cc_n, gcc_n);
	CU_ASSERT_EQUAL(gcc_one, 2);
	CU_ASSERT_EQUAL(cc_one, gcc_one);
	CU_ASSERT(files >= 30);
	if (cc_n != gcc_n || cc_one != gcc_one)
		fprintf(stderr, "\n%s\n", r.out);
	cmd_result_free(&r);
	harness_sh(&r, 300,
	           "cd '%s' && gcc %s -Werror -o n-gcc %s/../tests/fixtures/src/nested.c && "
	           "%s/pvmmon-cc %s -Werror -o n-cc %s/../tests/fixtures/src/nested.c && "
	           "./n-gcc && ./n-cc && { ./n-gcc x 2>/dev/null; echo $?; } && "
	           "{ ./n-cc x 2>/dev/null; echo $?; } && { ./n-cc x y 2>&1; echo $?; }",
	           dir, flags, harness_build(), harness_bin(), flags, harness_build());
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_STRING_EQUAL(r.out, "nested: 6 84 980\nnested: 6 84 980\n3\n3\n"
	                              "nested: too many arguments\n3\n");
	if (r.status != 0)
		fprintf(stderr, "\n%s\n", r.err);
	cmd_result_free(&r);
}

CU_TestInfo test_cc_tests[] = {
    {"matmul built with pvmmon-cc: same output, proc and loop records",
     test_matmul_built_with_pvmmon_cc},
    {"recursion, goto, breaks, pointers: exact counts, times add up",
     test_recursion_counts_and_times},
    {"invalid C gets the compiler's diagnostics, no output",
     test_invalid_c_gets_compiler_diagnostics},
    {"CC=pvmmon-cc make; warnings at the user's lines", test_make_with_cc_and_errors_at_user_lines},
    {"without -g, statements are named by source in every report and top",
     test_no_debug_info_statements_by_source},
    {"without -g, the monitor names a hung task's wait by source",
     test_no_debug_info_waits_by_source},
    {"a program calling only group calls, built with pvmmon-cc, keeps libgpvm3",
     test_group_calls_only},
    {"PVM's joinleave example built with pvmmon-cc runs monitored", test_pvm_joinleave_example},
    {"without -g, pvm_spawn is named by source", test_no_debug_info_spawn_by_source},
    {"pvmmon-cc adds no warnings; nested calls and noreturn under -Werror", test_no_warnings_added},
    CU_TEST_INFO_NULL,
};
