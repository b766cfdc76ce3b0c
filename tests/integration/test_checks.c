/*
 * Integration tests of the PVM usage checks (pvmmon run --check): apps/upkcheck
 * misuses PVM in one way per mode, on a real pvmd; each finding must be said on stderr
 * naming the statements, and kept in the log; a correct program gets none.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "harness.h"
#include "pvmmon/errors.h"
#include "pvmmon/log.h"

#define RUN_TIMEOUT 120

/* The folder of the last run_mode's log (MODE.xml). */
static const char *last_dir;

/* Runs upkcheck MODE monitored with extra options; *log gets its log (NULL if none). */
static void run_mode(const char *mode, const char *opts, cmd_result *r, pvmmon_log **log)
{
	const char *dir = last_dir = harness_tmpdir();
	char path[4096];

	*log = NULL;
	snprintf(path, sizeof(path), "%s/%s.xml", dir, mode);
	harness_sh(r, RUN_TIMEOUT, "cd '%s' && %s/pvmmon run -q %s -o '%s' -- %s/upkcheck %s", dir,
	           harness_bin(), opts, path, harness_bin(), mode);
	CU_ASSERT_EQUAL(r->status, 0);
	if (r->status != 0)
		fprintf(stderr, "\nupkcheck %s: status %d\nstdout: %s\nstderr: %s\n", mode,
		        r->status, r->out, r->err);
	if (pvmmon_log_read(log, path) < 0)
		fprintf(stderr, "\n%s\n", pvmmon_error_last());
	CU_ASSERT_PTR_NOT_NULL(*log);
}

/* Whether the run printed text: a spawned task's output comes through pvmd and pvmmon
 * run, on either stream. */
static int printed(const cmd_result *r, const char *text)
{
	return (r->out && strstr(r->out, text)) || (r->err && strstr(r->err, text));
}

/* The log's finding of kind, NULL when none. */
static const pvmmon_log_finding *finding(const pvmmon_log *log, const char *kind)
{
	for (size_t i = 0; log && i < log->nfindings; i++)
		if (!strcmp(log->findings[i].kind, kind))
			return &log->findings[i];
	return NULL;
}

/* The line number of the first line of apps/upkcheck.c that holds text (0: none). */
static int line_of(const char *text)
{
	char *src = harness_slurp("apps/upkcheck.c", NULL), *p, *at;
	int line = 1;

	if (!src)
		return 0;
	at = strstr(src, text);
	for (p = src; at && p < at; p++)
		line += *p == '\n';
	free(src);
	return at ? line : 0;
}

/* A string unpacked from a message packed as 1 int: said once with both statements
 * and the tag; the program still gets PVM's own error (End of buffer). */
static void test_unpack_mismatch(void)
{
	cmd_result r;
	pvmmon_log *log;
	const pvmmon_log_finding *f;
	char want[256];

	run_mode("mismatch", "", &r, &log);
	snprintf(want, sizeof(want),
	         "unpacked a string at apps/upkcheck.c:%d from a message packed as 1 int at "
	         "apps/upkcheck.c:%d by task 0 (tag 1)",
	         line_of("rc = pvm_upkstr(s);"), line_of("pvm_pkint(&one, 1, 1);\n\t\tpvm_send"));
	CU_ASSERT_EQUAL(harness_count(r.err, "pvmmon: usage: "), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, want));
	if (!strstr(r.err, want))
		fprintf(stderr, "\nwanted: %s\nstderr: %s\n", want, r.err);
	/* PvmNoData (-5): what pvm_upkstr returns unmonitored too. */
	CU_ASSERT(printed(&r, "upkstr rc=-5"));
	f = finding(log, "unpack");
	CU_ASSERT_PTR_NOT_NULL(f);
	if (f) {
		CU_ASSERT_EQUAL(f->count, 1);
		CU_ASSERT_STRING_EQUAL(f->task, "0.0");
		CU_ASSERT_PTR_NOT_NULL(strstr(f->text, want));
	}
	CU_ASSERT_EQUAL(log ? log->nfindings : 0, 1);
	pvmmon_log_free(log);
	cmd_result_free(&r);
	/* Both reports show it, with its count. */
	harness_sh(&r, 60,
	           "cd '%s' && %s/pvmmon report mismatch.xml --text && %s/pvmmon report "
	           "mismatch.xml -o rep >/dev/null && cat rep/index.html",
	           last_dir, harness_bin(), harness_bin());
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "PVM usage errors: 1\n  unpack: task 0.0 unpacked a string"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "<h2 id=usage>PVM usage errors</h2>"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "(tag 1) <span class=note>(1 time)</span>"));
	cmd_result_free(&r);
}

/* Every pack sequence unpacked as packed (in smaller unpacks, merged packs, bytes,
 * strings, doubles, unsigned for int, psend/precv): nothing said. */
static void test_unpack_match(void)
{
	cmd_result r;
	pvmmon_log *log;

	run_mode("match", "", &r, &log);
	CU_ASSERT(printed(&r, "match ok"));
	CU_ASSERT_PTR_NULL(strstr(r.err, "pvmmon: usage"));
	if (strstr(r.err, "pvmmon: usage"))
		fprintf(stderr, "\nstderr: %s\n", r.err);
	CU_ASSERT_EQUAL(log ? log->nfindings : 1, 0);
	pvmmon_log_free(log);
	cmd_result_free(&r);
}

/* Two messages the parent never receives: counted at its exit, with sender, tag and
 * sending statement. */
static void test_queued_at_exit(void)
{
	cmd_result r;
	pvmmon_log *log;
	const pvmmon_log_finding *f;
	char want[256];

	run_mode("queued", "", &r, &log);
	snprintf(want, sizeof(want),
	         "task 0 exited with 2 messages never received from task 0.0 (tag 5), sent at "
	         "apps/upkcheck.c:%d",
	         line_of("pvm_send(parent, TAG_EXTRA);"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, want));
	if (!strstr(r.err, want))
		fprintf(stderr, "\nwanted: %s\nstderr: %s\n", want, r.err);
	f = finding(log, "queued");
	CU_ASSERT_PTR_NOT_NULL(f);
	if (f)
		CU_ASSERT_EQUAL(f->count, 2);
	CU_ASSERT_EQUAL(log ? log->nfindings : 0, 1);
	pvmmon_log_free(log);
	cmd_result_free(&r);
}

/* Three pvm_mkbuf buffers, one freed: two counted at the statement. */
static void test_unfreed_buffers(void)
{
	cmd_result r;
	pvmmon_log *log;
	const pvmmon_log_finding *f;
	char want[256];

	run_mode("unfreed", "", &r, &log);
	snprintf(want, sizeof(want),
	         "task 0 exited with 2 buffers made at apps/upkcheck.c:%d (pvm_mkbuf) never freed",
	         line_of("b[i] = pvm_mkbuf(PvmDataDefault);"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, want));
	if (!strstr(r.err, want))
		fprintf(stderr, "\nwanted: %s\nstderr: %s\n", want, r.err);
	f = finding(log, "unfreed");
	CU_ASSERT_PTR_NOT_NULL(f);
	if (f)
		CU_ASSERT_EQUAL(f->count, 2);
	CU_ASSERT_EQUAL(log ? log->nfindings : 0, 1);
	pvmmon_log_free(log);
	cmd_result_free(&r);
}

/* An unpack past the end returns an error and the program unpacks on: the error is
 * said at the failing statement (and the unpack past the end as such). */
static void test_ignored_error(void)
{
	cmd_result r;
	pvmmon_log *log;
	const pvmmon_log_finding *f;
	char want[256];

	run_mode("ignored", "", &r, &log);
	snprintf(want, sizeof(want), "task 0.0 went on past an error result -5 of pvm_upkint at "
	         "apps/upkcheck.c:%d",
	         line_of("rc = pvm_upkint(&x, 1, 1);"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, want));
	if (!strstr(r.err, want))
		fprintf(stderr, "\nwanted: %s\nstderr: %s\n", want, r.err);
	CU_ASSERT(printed(&r, "upkint rc=-5"));
	f = finding(log, "ignored");
	CU_ASSERT_PTR_NOT_NULL(f);
	CU_ASSERT_PTR_NOT_NULL(finding(log, "unpack"));
	CU_ASSERT_EQUAL(log ? log->nfindings : 0, 2);
	pvmmon_log_free(log);
	cmd_result_free(&r);
}

/* --check=none says nothing and logs nothing; --check=queued only that one. */
static void test_check_option(void)
{
	cmd_result r;
	pvmmon_log *log;

	run_mode("mismatch", "--check=none", &r, &log);
	CU_ASSERT_PTR_NULL(strstr(r.err, "pvmmon: usage"));
	CU_ASSERT(printed(&r, "upkstr rc=-5"));
	CU_ASSERT_EQUAL(log ? log->nfindings : 1, 0);
	pvmmon_log_free(log);
	cmd_result_free(&r);
	run_mode("ignored", "--check=queued", &r, &log);
	CU_ASSERT_PTR_NULL(strstr(r.err, "pvmmon: usage"));
	CU_ASSERT_EQUAL(log ? log->nfindings : 1, 0);
	pvmmon_log_free(log);
	cmd_result_free(&r);
	harness_sh(&r, 30, "%s/pvmmon run --check=unpack,bogus -- true", harness_bin());
	CU_ASSERT_NOT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "--check wants"));
	cmd_result_free(&r);
}

CU_TestInfo test_checks_tests[] = {
    {"unpack against what was packed: both statements and the tag", test_unpack_mismatch},
    {"unpacks as packed: nothing said", test_unpack_match},
    {"messages queued at exit: counted with sender, tag, statement", test_queued_at_exit},
    {"pvm_mkbuf buffers never freed: counted", test_unfreed_buffers},
    {"an error result gone past: said at its statement", test_ignored_error},
    {"--check=none and a list", test_check_option},
    CU_TEST_INFO_NULL,
};
