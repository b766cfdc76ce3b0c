/*
 * Integration tests of task life cycles (apps/lifecycle): a task whose process ends
 * without pvm_exit keeps its records, is logged "exited without pvm_exit" with a
 * warning naming its last send, and the hang that follows (its partner waits for a
 * message that never comes) is said, so that --on-hang=abort ends the run; a task that
 * enrols again after pvm_exit is logged as a task of its own too. Each run has its own
 * private VM, which pvmmon run halts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "harness.h"

#define RUN_TIMEOUT 60

/* The line of apps/FILE that carries the comment marker. */
static int line_in(const char *file, const char *marker)
{
	char path[4096], *src, *p;
	int line = 1;

	snprintf(path, sizeof(path), "%s/../apps/%s", harness_build(), file);
	src = harness_slurp(path, NULL);
	if (!src)
		return -1;
	p = strstr(src, marker);
	for (char *q = src; p && q < p; q++)
		line += *q == '\n';
	free(src);
	return p ? line : -1;
}

static int line_of(const char *marker) { return line_in("lifecycle.c", marker); }

/* Runs `lifecycle MODE` with opts in a new folder into *r; the log (heap) returned,
 * after checking that it validates against the schema; the folder in *dirp (NULL: not
 * wanted). */
static char *run_life(cmd_result *r, const char *opts, const char *mode, const char **dirp)
{
	const char *dir = harness_tmpdir();
	char path[4200];

	if (dirp)
		*dirp = dir;
	cmd_result v;

	harness_sh(r, RUN_TIMEOUT, "cd '%s' && %s/pvmmon run -q %s -o l.xml -- %s/lifecycle %s",
	           dir, harness_bin(), opts, harness_bin(), mode);
	harness_sh(&v, RUN_TIMEOUT, "%s/pvmmon validate '%s/l.xml'", harness_bin(), dir);
	CU_ASSERT_EQUAL(v.status, 0);
	cmd_result_free(&v);
	snprintf(path, sizeof(path), "%s/l.xml", dir);
	return harness_slurp(path, NULL);
}

/* The <task ...> start tag of the task with logical id lid in log (heap), or NULL. */
static char *task_tag(const char *log, const char *lid)
{
	char want[64];
	const char *p, *e;

	snprintf(want, sizeof(want), "<task tid=");
	for (p = log ? strstr(log, want) : NULL; p; p = strstr(p + 1, want)) {
		char l[48];

		e = strchr(p, '>');
		snprintf(l, sizeof(l), " lid=\"%s\"", lid);
		if (e && strstr(p, l) && strstr(p, l) < e)
			return strndup(p, (size_t)(e - p + 1));
	}
	return NULL;
}

/* The worker sends one result and returns from main; the master waits for a second
 * message: the worker's records are kept, it is said to have exited without pvm_exit
 * (with its last send), and the master's hang is said, ending the run. */
static void test_noexit_hang(void)
{
	cmd_result r;
	char want[512], *log = run_life(&r, "--on-hang=abort", "noexit", NULL), *w;

	CU_ASSERT_EQUAL(r.status, 4);
	snprintf(want, sizeof(want),
	         "exited without pvm_exit: its last send, at lifecycle.c:%d, may have been lost",
	         line_of("LIFE-SEND"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "pvmmon: task 0.0 (t"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, want));
	CU_ASSERT_EQUAL(harness_count(r.err, "exited without pvm_exit: its last send"), 1);
	snprintf(want, sizeof(want),
	         "pvmmon: wait for an ended task: task 0 waits at lifecycle.c:%d for tag 2 from "
	         "0.0, which has ended (it exited without pvm_exit)",
	         line_of("LIFE-MASTER-WAIT"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, want));
	if (!strstr(r.err, want))
		fprintf(stderr, "\n%s\n", r.err);
	w = task_tag(log, "0.0");
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	CU_ASSERT_PTR_NOT_NULL(strstr(w, "status=\"exited-without-pvm-exit\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(w, "msgs-sent=\"1\""));
	CU_ASSERT_PTR_NULL(strstr(w, "flushes=\"0\""));
	snprintf(want, sizeof(want),
	         "ended=\"exited without pvm_exit: its last send, at lifecycle.c:%d, may have "
	         "been lost\"",
	         line_of("LIFE-SEND"));
	CU_ASSERT_PTR_NOT_NULL(strstr(w, want));
	CU_ASSERT_PTR_NOT_NULL(strstr(log, "<hang kind=\"ended\""));
	free(w);
	free(log);
	cmd_result_free(&r);
}

/* The worker sends twice and returns from main: PVM may lose the second message. The
 * records are kept either way; a loss is said as a hang that names it (exit status 4),
 * else the master gets both and the run ends normally. */
static void test_noexit_lost(void)
{
	cmd_result r, rep;
	const char *dir;
	char *log = run_life(&r, "--on-hang=abort", "lost", &dir), *w = task_tag(log, "0.0");

	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	CU_ASSERT_PTR_NOT_NULL(strstr(w, "status=\"exited-without-pvm-exit\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(w, "msgs-sent=\"2\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "exited without pvm_exit: its last send"));
	if (r.status == 4) {
		CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "probably lost because its sender exited "
		                                     "without pvm_exit"));
	} else {
		CU_ASSERT(r.status == 0 && strstr(r.out, "lifecycle: lost: got 2"));
	}
	/* The text report says it too. */
	harness_sh(&rep, RUN_TIMEOUT, "%s/pvmmon report '%s/l.xml'", harness_bin(), dir);
	CU_ASSERT_PTR_NOT_NULL(strstr(rep.out, "1 exited without pvm_exit"));
	if (!strstr(rep.out, "1 exited without pvm_exit"))
		fprintf(stderr, "\n%s%s\n", rep.out, rep.err);
	cmd_result_free(&rep);
	free(w);
	free(log);
	cmd_result_free(&r);
}

/* The worker sends, calls pvm_exit, enrols again (a new tid) and sends again: both
 * incarnations are in the log with their own sends, the second noted as the first's
 * process enrolled again; the master's two messages both came from monitored tasks. */
static void test_reenrol(void)
{
	cmd_result r;
	char want[128], *log = run_life(&r, "", "reenrol", NULL), *w1 = task_tag(log, "0.0"),
	                *w2 = task_tag(log, "1"), *m = task_tag(log, "0");
	const char *tid;

	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "lifecycle: reenrol: first t"));
	CU_ASSERT_PTR_NOT_NULL_FATAL(w1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(w2);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_PTR_NOT_NULL(strstr(w1, "status=\"exited\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(w2, "status=\"exited\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(w1, "msgs-sent=\"1\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(w2, "msgs-sent=\"1\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(m, "msgs-recv=\"2\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(m, "unmonitored-recv=\"0\""));
	CU_ASSERT_PTR_NULL(strstr(m, "bad-piggybacks=\"1"));
	/* The second is the first's process: the same pid, the first's tid noted. */
	tid = strstr(w1, " tid=\"") ? strstr(w1, " tid=\"") : strstr(w1, "tid=\"");
	snprintf(want, sizeof(want), "earlier-tid=\"%d\"", atoi(strchr(tid, '"') + 1));
	CU_ASSERT_PTR_NOT_NULL(strstr(w2, want));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "enrolled again after pvm_exit as t"));
	free(w1);
	free(w2);
	free(m);
	free(log);
	cmd_result_free(&r);
}

/*
 * The same in Fortran (apps/lifef.f, built here with gfortran as the examples suite
 * builds PVM's Fortran examples): the worker leaves with pvmfexit, enrols again with
 * pvmfmytid, sends from its new tid and ends without pvmfexit; the master waits for a
 * message from the new tid that never comes. Both incarnations are logged, the second
 * "exited without pvm_exit" with its last send's Fortran line, and the hang is said.
 */
static void test_fortran(void)
{
	cmd_result r, b;
	const char *dir = harness_tmpdir();
	char want[512], path[4200], *log, *w1, *w2;

	if (harness_gfortran(dir, "lifef", "-g", "") != 0)
		return;
	harness_sh(&r, RUN_TIMEOUT, "cd '%s' && %s/pvmmon run -q --on-hang=abort -o l.xml -- ./lifef",
	           dir, harness_bin());
	CU_ASSERT_EQUAL(r.status, 4);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "enrolled again after pvm_exit as t"));
	snprintf(want, sizeof(want),
	         "pvmmon: task 1 (t%%x) exited without pvm_exit: its last send, at lifef.f:%d",
	         line_in("lifef.f", "LIFEF-SEND") + 1);
	/* The tid varies: the words after it are checked. */
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, strstr(want, ") exited")));
	snprintf(want, sizeof(want),
	         "pvmmon: wait for an ended task: task 0 waits at lifef.f:%d for tag 3 from 1, "
	         "which has ended (it exited without pvm_exit)",
	         line_in("lifef.f", "LIFEF-MASTER-WAIT") + 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, want));
	if (!strstr(r.err, want))
		fprintf(stderr, "\n%s\n", r.err);
	snprintf(path, sizeof(path), "%s/l.xml", dir);
	log = harness_slurp(path, NULL);
	w1 = task_tag(log, "0.0");
	w2 = task_tag(log, "1");
	CU_ASSERT_PTR_NOT_NULL_FATAL(w1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(w2);
	CU_ASSERT_PTR_NOT_NULL(strstr(w1, "status=\"exited\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(w1, "msgs-sent=\"1\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(w2, "status=\"exited-without-pvm-exit\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(w2, "msgs-sent=\"1\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(w2, "earlier-tid=\""));
	harness_sh(&b, RUN_TIMEOUT, "%s/pvmmon validate '%s'", harness_bin(), path);
	CU_ASSERT_EQUAL(b.status, 0);
	cmd_result_free(&b);
	free(w1);
	free(w2);
	free(log);
	cmd_result_free(&r);
}

CU_TestInfo test_life_tests[] = {
    {"Fortran: pvmfexit then pvmfmytid, and an end without pvmfexit", test_fortran},
    {"a task that calls pvm_exit and enrols again: both incarnations logged", test_reenrol},
    {"a task that returns from main without pvm_exit: records kept, its hang said",
     test_noexit_hang},
    {"a message PVM may lose with such a task: kept records, a loss said as a hang",
     test_noexit_lost},
    CU_TEST_INFO_NULL,
};
