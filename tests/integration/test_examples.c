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
    CU_TEST_INFO_NULL,
};
