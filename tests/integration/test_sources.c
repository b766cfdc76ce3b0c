/*
 * Integration tests of record and replay of per-run sources (clocks, pids): apps/seeded
 * seeds rand() from gettimeofday and getpid and chooses its messages from it; free runs
 * differ, each replay prints its recording's hash, and a program that reads the clock
 * once more diverges with a report naming the call and its statement.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "harness.h"

#define RUN_TIMEOUT 120

/* Replays per test: 3 in CI; PVMMON_TEST_SOURCES_REPLAYS=20 for the reliability count
 * (doc/reliability.md). */
static int replays(void)
{
	const char *e = getenv("PVMMON_TEST_SOURCES_REPLAYS");

	return e && atoi(e) > 0 ? atoi(e) : 3;
}

/* The test's folder (harness_tmpdir() makes a new one at each call). */
static const char *dir;

/* Runs `pvmmon ARGS -- seeded` in the test's folder; its output (heap) and status. */
static char *seeded(int *status, const char *env, const char *args)
{
	cmd_result r;
	char *out;

	harness_sh(&r, RUN_TIMEOUT, "cd '%s' && %s %s/pvmmon %s -- %s/seeded -w 3 -k 8", dir, env,
	           harness_bin(), args, harness_bin());
	*status = r.status;
	out = strdup(r.out);
	if (r.status != 0)
		fprintf(stderr, "\npvmmon %s: %d\n%s%s\n", args, r.status, r.out, r.err);
	cmd_result_free(&r);
	return out;
}

/* Under the sanitizers (make check-asan) the program's clock reads come through the
 * sanitizer's interceptors, from the same library as the sanitizer's own reads inside
 * its allocator, which must pass straight through (pvmhooks/sources.c): nothing is
 * recorded, so the tests that replay reads run unsanitized only. Returns 1 when the
 * test is skipped. */
static int skip_sanitized(void)
{
#ifdef __SANITIZE_ADDRESS__
	fprintf(stderr, "\n  skipped under ASan/UBSan: clock reads are not recorded there ");
	return 1;
#else
	return 0;
#endif
}

static void test_seeded_replays(void)
{
	char *rec, *free1, *free2, *out;
	int st, same = 0, n = replays();

	if (skip_sanitized())
		return;
	dir = harness_tmpdir();
	rec = seeded(&st, "", "run -q -o rec.xml");
	CU_ASSERT_EQUAL_FATAL(st, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(rec, "seeded: workers=3 messages=8 hash="));
	/* Unrecorded runs take other courses: the pid alone differs from run to run. */
	free1 = seeded(&st, "", "run -q --no-record -o free.xml");
	CU_ASSERT_EQUAL(st, 0);
	free2 = seeded(&st, "", "run -q --no-record -o free.xml");
	CU_ASSERT_EQUAL(st, 0);
	CU_ASSERT(strcmp(free1, rec) != 0 && strcmp(free2, rec) != 0 && strcmp(free1, free2) != 0);
	for (int i = 0; i < n; i++) {
		/* Delays change the order messages come in: the replay forces it anyway. */
		out = seeded(&st, "PVMMON_TEST_JITTER=3000", "replay rec.xml -q -o rep.xml");
		same += st == 0 && !strcmp(out, rec);
		if (st != 0 || strcmp(out, rec))
			fprintf(stderr, "\n  replay %d: %s (recorded: %s)", i, out, rec);
		free(out);
	}
	CU_ASSERT_EQUAL(same, n);
	fprintf(stderr, "\n  seeded: %d of %d replays identical ", same, n);
	free(rec);
	free(free1);
	free(free2);
}

/* getrandom's bytes in the seeds too: recorded and given back. */
static void test_getrandom_replays(void)
{
	char *rec, *out;
	int st, same = 0, n = replays();

	if (skip_sanitized())
		return;
	dir = harness_tmpdir();
	rec = seeded(&st, "SEEDED_RANDOM=1", "run -q -o rec.xml");
	CU_ASSERT_EQUAL_FATAL(st, 0);
	for (int i = 0; i < n; i++) {
		out = seeded(&st, "SEEDED_RANDOM=1 PVMMON_TEST_JITTER=3000",
		             "replay rec.xml -q -o rep.xml");
		same += st == 0 && !strcmp(out, rec);
		free(out);
	}
	CU_ASSERT_EQUAL(same, n);
	fprintf(stderr, "\n  seeded with getrandom: %d of %d replays identical ", same, n);
	free(rec);
}

static void test_extra_read_diverges(void)
{
	cmd_result r;
	int st;

	if (skip_sanitized())
		return;
	dir = harness_tmpdir();
	free(seeded(&st, "", "run -q -o rec.xml"));
	CU_ASSERT_EQUAL_FATAL(st, 0);
	harness_sh(&r, RUN_TIMEOUT,
	           "cd '%s' && SEEDED_EXTRA_READ=1 %s/pvmmon replay rec.xml -q -o x.xml -- "
	           "%s/seeded -w 3 -k 8",
	           dir, harness_bin(), harness_bin());
	fprintf(stderr, "\n  %s", r.err);
	CU_ASSERT_EQUAL(r.status, 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "replay diverged: task 0 (t"));
	/* The call, its statement (seed() in seeded.c), what the record had left. */
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "seeded.c:"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "(gettimeofday)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "no more reads of clocks or process ids"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "a call of gettimeofday"));
	cmd_result_free(&r);
}

/* --stop-at a read: the master stops before its getpid (event 2, after the
 * gettimeofday of its seed), and, continued, the replay ends as recorded. */
static void test_stop_at_read(void)
{
	cmd_result r;

	if (skip_sanitized())
		return;
	dir = harness_tmpdir();
	/* Both loops poll a condition every 0.1 s, bounded: the stopped task's pid said
	 * (20 s), then the replay's end (30 s). */
	harness_sh(
	    &r, RUN_TIMEOUT,
	    "cd '%s' && P='%s/seeded -w 2 -k 4' && %s/pvmmon run -q -o rec.xml -- $P >rec.out "
	    "&& { %s/pvmmon replay rec.xml -q -o rep.xml --stop-at 0:2 -- $P >rep.out "
	    "2>rep.err & } && i=0; while ! grep -q 'pid [0-9]' rep.err 2>/dev/null && "
	    "[ $i -lt 200 ]; do sleep 0.1; i=$((i+1)); done; "
	    "pid=$(grep -o 'pid [0-9]*' rep.err | head -1 | cut -d' ' -f2); "
	    "grep State /proc/$pid/status; kill -CONT $pid; "
	    "i=0; while [ -e rep.xml.run ] || [ ! -s rep.out ]; do sleep 0.1; i=$((i+1)); "
	    "[ $i -gt 300 ] && break; done; cat rep.err; cmp rec.out rep.out && echo SAME",
	    dir, harness_bin(), harness_bin(), harness_bin());
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "State:\tT (stopped)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "is stopped before event 2 at apps/seeded.c:43"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "SAME"));
	if (!strstr(r.out, "SAME") || !strstr(r.out, "event 2 at apps/seeded.c:43"))
		fprintf(stderr, "\n%s\n%s\n", r.out, r.err);
	cmd_result_free(&r);
}

/* A program that calls getentropy and clock: pvmmon replay says it does not replay
 * them, before the program starts. */
static void test_unreplayed_noted(void)
{
	cmd_result r;

	dir = harness_tmpdir();
	harness_sh(&r, RUN_TIMEOUT,
	           "cd '%s' && printf '%%s\\n' '#include <pvm3.h>' '#include <stdio.h>' "
	           "'#include <unistd.h>' '#include <time.h>' "
	           "'int main(void) { unsigned v = 0; getentropy(&v, sizeof(v)); "
	           "printf(\"%%d\\n\", pvm_mytid() > 0 && clock() >= 0); pvm_exit(); "
	           "return (int)(v & 0); }' >rnd.c && gcc -o rnd rnd.c -lpvm3 && "
	           "%s/pvmmon run -q -o rnd.xml -- ./rnd && "
	           "%s/pvmmon replay rnd.xml -q -o rnd2.xml -- ./rnd",
	           dir, harness_bin(), harness_bin());
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "calls getentropy (random bytes), which a replay does "
	                                     "not replay"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "calls clock (CPU time)"));
	if (r.status != 0 || !strstr(r.err, "getentropy"))
		fprintf(stderr, "\n%s%s\n", r.out, r.err);
	cmd_result_free(&r);
}

#define TABLIX "/usr/bin/tablix2"
#define TABLIX_HINT "/usr/share/doc/tablix2/examples/hint.xml"
#define TABLIX_FILES "conv0.txt conv1.txt result0.xml result1.xml"

/*
 * tablix2 (Debian's PVM timetable solver: its master and kernels seed rand() from
 * gettimeofday) solving tablix2-doc's hint.xml with 2 kernels, well under a second:
 * unrecorded runs write other result files, and 5 of 5 replays write the recorded
 * ones byte for byte.
 */
static void test_tablix2_replays(void)
{
	cmd_result r;

	if (skip_sanitized())
		return;
	if (access(TABLIX, X_OK) != 0 || access(TABLIX_HINT, R_OK) != 0) {
		/* scripts/setup.sh installs both; a machine without them cannot run this. */
		fprintf(stderr,
		        "\n  tablix2 or tablix2-doc is not installed: run scripts/setup.sh ");
		CU_FAIL("tablix2 and tablix2-doc are needed (scripts/setup.sh)");
		return;
	}
	dir = harness_tmpdir();
	harness_sh(&r, RUN_TIMEOUT * 3,
	           "cd '%s' && cp " TABLIX_HINT " hint.xml && P=%s/pvmmon && "
	           "$P run -q -o rec.xml -- " TABLIX " -n 2 -o rec- hint.xml >/dev/null && "
	           "$P run -q --no-record -o f.xml -- " TABLIX " -n 2 -o free- hint.xml "
	           ">/dev/null && d=0; for f in " TABLIX_FILES "; do cmp -s rec-$f free-$f || "
	           "d=1; done; echo differ=$d; n=0; for i in 1 2 3 4 5; do PVMMON_TEST_JITTER=3000 "
	           "$P replay rec.xml -q -o rep.xml -- " TABLIX " -n 2 -o rep$i- hint.xml "
	           ">/dev/null || continue; s=1; for f in " TABLIX_FILES "; do cmp -s rec-$f "
	           "rep$i-$f || s=0; done; n=$((n+s)); done; echo identical=$n",
	           dir, harness_bin());
	CU_ASSERT_EQUAL(r.status, 0);
	/* An unrecorded run differs: its seed is another run's time of day. */
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "differ=1"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "identical=5"));
	fprintf(stderr, "\n  tablix2 hint.xml: %s", r.out);
	cmd_result_free(&r);
}

CU_TestInfo test_sources_tests[] = {
    {"clock- and pid-seeded program: runs differ, replays identical", test_seeded_replays},
    {"getrandom-seeded program: replays identical", test_getrandom_replays},
    {"one more clock read diverges with a report", test_extra_read_diverges},
    {"--stop-at a clock or pid read", test_stop_at_read},
    {"pvmmon replay names the sources it does not replay", test_unreplayed_noted},
    {"tablix2 replays to byte-identical result files 5 of 5", test_tablix2_replays},
    CU_TEST_INFO_NULL,
};
