/*
 * Integration tests of pvmmon-cc on code we did not write: PVM's own C examples (Debian
 * pvm-examples), built unchanged with their own Makefile and CC=pvmmon-cc, run under
 * `pvmmon run` against a plain gcc build; and every program of apps/ built with it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "pvmmon/log.h"
#include "harness.h"

#define EXAMPLES_TAR "/usr/share/doc/pvm-examples/examples.tar.gz"

/* Every C program of the examples' Makefile.aimk (targets c-all): CPROGS, CTXPROGS,
 * MBPROGS and MHFPROGS. */
static const char *const c_programs[] = {
    "hello",    "hello_other", "gexample", "master1",  "slave1",   "spmd",    "timing",
    "timing_slave", "gmbi",    "dbwtest",  "ibwtest",  "pbwtest",  "rbwtest", "inherita",
    "inheritb", "inherit1",    "inherit2", "inherit3", "task0",    "task1",   "task_end",
    "rme",      "lmbi",        "mhf_server", "mhf_tickle", NULL,
};

/*
 * The examples that run to the end on their own on one host. master1 takes its
 * workers' results in arrival order, which no build fixes, so its lines are compared
 * sorted. (timing and the bandwidth tests print measured times; gexample and
 * mhf_server wait for input or a second program; inherit1-3, slave1, task1 and the
 * others are spawned by these or need a second program started by hand.)
 */
static const struct {
	const char *name;
	int sort;
} runnable[] = {
    {"hello", 0}, {"master1", 1}, {"spmd", 0}, {"inherita", 0}, {"inheritb", 0}, {"gmbi", 0},
};

/*
 * The monitor is one more task of the virtual machine, so a monitored run's tids (and
 * the context numbers pvmd derives from them) come one later than a plain run's. A
 * program that prints them is compared with each distinct tid (a "t4" and four hex
 * digits, or the same number in decimal, 260000 to 329999) replaced by its order of
 * first appearance.
 */
#define NORMALIZE                                                                         \
	"perl -pe 's/\\bt(4[0-9a-f]{4})\\b/\"T\".($h{$1}\\/\\/=++$nh)/ge; "              \
	"s/\\b(2[6-9][0-9]{4}|3[0-2][0-9]{4})\\b/\"N\".($d{$1}\\/\\/=++$nd)/ge'"

/* Unpacks the examples and builds them with cc into dir/name/bin. */
static int build_examples(const char *dir, const char *name, const char *cc, cmd_result *r)
{
	return harness_sh(r, 600,
			  "cd '%s' && mkdir -p %s && cd %s && tar xzf " EXAMPLES_TAR " && "
			  "mkdir -p build && cd build && "
			  "make -k -f ../examples/Makefile.aimk SDIR=../examples PVMDIR=/usr/lib/pvm3 "
			  "BDIR=\"$PWD/bin\" XDIR=\"$PWD/bin\" PVM_ARCH=LINUX64 CC='%s' c-all",
			  dir, name, name, cc);
}

static void test_pvm_examples_build_and_run_unchanged(void)
{
	const char *dir = harness_tmpdir();
	char cc[4096], path[4096];
	cmd_result plain, mon;

	CU_ASSERT_EQUAL_FATAL(access(EXAMPLES_TAR, R_OK), 0);
	snprintf(cc, sizeof(cc), "%s/pvmmon-cc", harness_bin());
	build_examples(dir, "plain", "gcc", &plain);
	build_examples(dir, "cc", cc, &mon);
	CU_ASSERT_EQUAL(plain.status, 0);
	if (mon.status != 0)
		fprintf(stderr, "\n%s\n", mon.err);
	CU_ASSERT_EQUAL(mon.status, 0);
	for (const char *const *p = c_programs; *p; p++) {
		snprintf(path, sizeof(path), "%s/cc/build/bin/%s", dir, *p);
		if (access(path, X_OK) != 0)
			fprintf(stderr, "\n  %s was not built by pvmmon-cc ", *p);
		CU_ASSERT(access(path, X_OK) == 0);
	}
	cmd_result_free(&plain);
	cmd_result_free(&mon);

	for (size_t i = 0; i < sizeof(runnable) / sizeof(runnable[0]); i++) {
		const char *prog = runnable[i].name;
		const char *post = runnable[i].sort ? " | sort" : "";
		char log[4096];
		cmd_result a, b;
		pvmmon_log *l = NULL;

		harness_sh(&a, 120, "cd '%s/plain/build' && %s/pvmmon run --raw -q -- ./bin/%s | " NORMALIZE "%s",
			   dir, harness_bin(), prog, post);
		snprintf(log, sizeof(log), "%s/%s.xml", dir, prog);
		harness_sh(&b, 120, "cd '%s/cc/build' && %s/pvmmon run -q -o '%s' -- ./bin/%s | " NORMALIZE "%s",
			   dir, harness_bin(), log, prog, post);
		if (strcmp(a.out, b.out) != 0)
			fprintf(stderr, "\n  %s: plain:\n%s  monitored:\n%s", prog, a.out, b.out);
		CU_ASSERT_STRING_EQUAL(b.out, a.out);
		if (!a.out[0])
			fprintf(stderr, "\n  %s printed nothing: %s", prog, a.err);
		CU_ASSERT(a.out[0] != '\0');
		/* A valid log with the program's static tables and its main procedure. */
		CU_ASSERT_EQUAL(pvmmon_log_read(&l, log), 0);
		CU_ASSERT(harness_no_findings(l, prog));
		if (l) {
			int statics = 0, has_main = 0;

			for (size_t t = 0; t < l->ntasks; t++) {
				statics += l->tasks[t].nstatics > 0;
				for (size_t k = 0; k < l->tasks[t].nprocs; k++)
					has_main |= !strcmp(l->tasks[t].procs[k].name, "main");
			}
			if (!statics || !has_main)
				fprintf(stderr, "\n  %s: log without static tables or main ", prog);
			CU_ASSERT(statics > 0);
			CU_ASSERT(has_main);
		}
		pvmmon_log_free(l);
		cmd_result_free(&a);
		cmd_result_free(&b);
	}
}

/*
 * Builds the examples' Fortran programs (gfortran) and gexample (gcc), both with -g
 * as the examples' Makefile has it, plainly into dir/f/build/bin: pvmmon run monitors
 * them by preload. The Fortran sources include '../include/fpvm3.h' relative to their
 * own folder, where Debian has no such file: a link to pvm-dev's stands in.
 */
static int build_fortran_and_groups(const char *dir, cmd_result *r)
{
	return harness_sh(
	    r, 600,
	    "cd '%s' && mkdir -p f && cd f && tar xzf " EXAMPLES_TAR " && "
	    "mkdir -p include build && ln -sf /usr/include/fpvm3.h include/ && cd build && "
	    "make -f ../examples/Makefile.aimk SDIR=../examples PVMDIR=/usr/lib/pvm3 "
	    "BDIR=\"$PWD/bin\" XDIR=\"$PWD/bin\" PVM_ARCH=LINUX64 FC=gfortran CC=gcc "
	    "fmaster1 fslave1 fspmd fgexample gexample",
	    dir);
}

/* Whether s ends with suffix. */
static int ends_with(const char *s, const char *suffix)
{
	size_t a = s ? strlen(s) : 0, b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

/*
 * Checks that every statement of the log at path is named by a line of a source file
 * ending in suffix, in the program's own routine: none by PVM's Fortran binding
 * (pvmf*) nor inside libgpvm3. Returns the number of statements.
 */
static size_t check_own_lines(const char *path, const char *suffix, pvmmon_log **out)
{
	pvmmon_log *l = NULL;
	size_t n = 0;

	*out = NULL;
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&l, path), 0);
	CU_ASSERT(harness_no_findings(l, path));
	for (size_t t = 0; t < l->ntasks; t++)
		for (size_t k = 0; k < l->tasks[t].nstmts; k++) {
			const pvmmon_log_stmt *s = &l->tasks[t].stmts[k];
			int own = ends_with(s->file, suffix) && s->line > 0 && s->function &&
			          strncmp(s->function, "pvmf", 4) != 0 &&
			          !strstr(s->module ? s->module : "", "libgpvm3");

			if (!own)
				fprintf(stderr, "\n  %s: %s at %s:%d in %s (%s+0x%llx) ", path,
				        s->op, s->file ? s->file : "?", s->line,
				        s->function ? s->function : "?",
				        s->module ? s->module : "?", (unsigned long long)s->offset);
			CU_ASSERT(own);
			n++;
		}
	*out = l;
	return n;
}

/* Whether some task of l has a statement of op at file:line (line 0: any line). */
static int has_stmt(const pvmmon_log *l, const char *op, const char *file, int line)
{
	for (size_t t = 0; t < l->ntasks; t++)
		for (size_t k = 0; k < l->tasks[t].nstmts; k++) {
			const pvmmon_log_stmt *s = &l->tasks[t].stmts[k];

			if (s->op && !strcmp(s->op, op) && ends_with(s->file, file) &&
			    (!line || s->line == line) && s->count > 0)
				return 1;
		}
	return 0;
}

/* Whether some statement of l is in the routine named name. */
static int has_routine(const pvmmon_log *l, const char *name)
{
	for (size_t t = 0; t < l->ntasks; t++)
		for (size_t k = 0; k < l->tasks[t].nstmts; k++)
			if (l->tasks[t].stmts[k].function &&
			    !strcmp(l->tasks[t].stmts[k].function, name))
				return 1;
	return 0;
}

/* Whether a statement of l talks with the group server, and none counts an
 * unmonitored sender. */
static int group_server_named(const pvmmon_log *l)
{
	int named = 0;

	for (size_t t = 0; t < l->ntasks; t++)
		for (size_t k = 0; k < l->tasks[t].nstmts; k++) {
			const pvmmon_log_stmt *s = &l->tasks[t].stmts[k];

			if (s->unmonitored)
				return 0;
			for (size_t c = 0; c < s->ncom; c++)
				named |= s->com[c].partner_lid &&
				         !strcmp(s->com[c].partner_lid, PVMMON_LOG_GROUP_SERVER);
		}
	return named;
}

/* Runs bin/prog of the build in dir plainly and monitored (log at log) with the same
 * input; the two outputs must match. */
static void same_output(const char *dir, const char *prog, const char *input, int sort,
                        const char *log)
{
	const char *post = sort ? " | sort" : "";
	cmd_result a, b;

	harness_sh(&a, 120,
	           "cd '%s' && printf '%s' | %s/pvmmon run --raw -q -- ./bin/%s | " NORMALIZE "%s",
	           dir, input, harness_bin(), prog, post);
	harness_sh(&b, 120,
	           "cd '%s' && printf '%s' | %s/pvmmon run -q -o '%s' -- ./bin/%s | " NORMALIZE
	           "%s",
	           dir, input, harness_bin(), log, prog, post);
	if (strcmp(a.out, b.out) != 0)
		fprintf(stderr, "\n  %s: plain:\n%s  monitored:\n%s", prog, a.out, b.out);
	CU_ASSERT(a.out[0] != '\0');
	CU_ASSERT_STRING_EQUAL(b.out, a.out);
	cmd_result_free(&a);
	cmd_result_free(&b);
}

static void test_fortran_and_group_statements(void)
{
	const char *dir = harness_tmpdir();
	char bdir[4096], log[4096];
	cmd_result r;
	pvmmon_log *l = NULL;

	CU_ASSERT_EQUAL_FATAL(access(EXAMPLES_TAR, R_OK), 0);
	build_fortran_and_groups(dir, &r);
	if (r.status != 0)
		fprintf(stderr, "\n%s\n", r.err);
	CU_ASSERT_EQUAL_FATAL(r.status, 0);
	cmd_result_free(&r);
	snprintf(bdir, sizeof(bdir), "%s/f/build", dir);

	/* master1/slave1: the master takes results in arrival order (compared sorted);
	 * every statement at a line of master1.f or slave1.f, in master1 or work. */
	snprintf(log, sizeof(log), "%s/fmaster1.xml", dir);
	same_output(bdir, "fmaster1", "", 1, log);
	CU_ASSERT(check_own_lines(log, ".f", &l) >= 6);
	if (l) {
		CU_ASSERT(has_stmt(l, "pvm_recv", "master1.f", 0));
		CU_ASSERT(has_stmt(l, "pvm_mcast", "master1.f", 62));
		CU_ASSERT(has_stmt(l, "pvm_send", "slave1.f", 0));
		CU_ASSERT(has_stmt(l, "pvm_recv", "slave1.f", 0));
		/* Routines by their Fortran names (gfortran's symbols are MAIN__, work_). */
		CU_ASSERT(has_routine(l, "master1"));
		CU_ASSERT(has_routine(l, "work"));
	}
	pvmmon_log_free(l);

	snprintf(log, sizeof(log), "%s/fspmd.xml", dir);
	same_output(bdir, "fspmd", "", 0, log);
	CU_ASSERT(check_own_lines(log, "spmd.f", &l) >= 2);
	pvmmon_log_free(l);

	/* gexample, given the matrix dimension and the number of tasks on stdin: its
	 * group calls are statements at its lines, the group server named as such. */
	snprintf(log, sizeof(log), "%s/gexample.xml", dir);
	same_output(bdir, "gexample", "8\\n4\\n", 0, log);
	CU_ASSERT(check_own_lines(log, "gexample.c", &l) >= 4);
	if (l) {
		CU_ASSERT(has_stmt(l, "pvm_reduce", "gexample.c", 196));
		CU_ASSERT(has_stmt(l, "pvm_reduce", "gexample.c", 200));
		CU_ASSERT(has_stmt(l, "pvm_barrier", "gexample.c", 216));
		CU_ASSERT(has_stmt(l, "pvm_joingroup", "gexample.c", 86));
		CU_ASSERT(group_server_named(l));
	}
	pvmmon_log_free(l);

	/* Its Fortran version also broadcasts, through the binding. */
	snprintf(log, sizeof(log), "%s/fgexample.xml", dir);
	same_output(bdir, "fgexample", "", 0, log);
	CU_ASSERT(check_own_lines(log, "gexample.f", &l) >= 4);
	if (l) {
		CU_ASSERT(has_stmt(l, "pvm_bcast", "gexample.f", 106));
		CU_ASSERT(has_stmt(l, "pvm_reduce", "gexample.f", 0));
		CU_ASSERT(has_stmt(l, "pvm_barrier", "gexample.f", 171));
		CU_ASSERT(group_server_named(l));
	}
	pvmmon_log_free(l);
}

static void test_every_app_builds_with_pvmmon_cc(void)
{
	const char *dir = harness_tmpdir();
	cmd_result r;

	/* As apps/module.mk links them: groups also needs libgpvm3. */
	harness_sh(&r, 300,
		   "cd '%s' && for f in %s/../apps/*.c; do n=$(basename $f .c); "
		   "extra=; [ $n = groups ] && extra=-lgpvm3; "
		   "%s/pvmmon-cc -g -O2 -Wall -Werror -o $n $f $extra -lpvm3 || exit 1; done && "
		   "echo $(ls | wc -l) $(ls %s/../apps/*.c | wc -l)",
		   dir, harness_build(), harness_bin(), harness_build());
	CU_ASSERT_EQUAL(r.status, 0);
	/* One program for each source of apps/ (matmul, mcpi, pingpong, crash, pbcheck,
	 * groups, pipeline, ring, issort and their workers): at least the 16 there are. */
	{
		int built = 0, sources = 0;

		CU_ASSERT_EQUAL(sscanf(r.out, "%d %d", &built, &sources), 2);
		CU_ASSERT_EQUAL(built, sources);
		CU_ASSERT(sources >= 16);
	}
	cmd_result_free(&r);
}

CU_TestInfo test_examples_tests[] = {
    {"PVM's C examples: CC=pvmmon-cc builds all, same output, valid logs",
     test_pvm_examples_build_and_run_unchanged},
    {"every app builds with pvmmon-cc", test_every_app_builds_with_pvmmon_cc},
    {"PVM's Fortran and group examples: same output, statements at their own lines",
     test_fortran_and_group_statements},
    CU_TEST_INFO_NULL,
};
