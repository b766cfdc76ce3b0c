/*
 * Integration tests of monitored runs: real pvmd, real PVM tasks, `pvmmon run` on a
 * private VM per test, logs read back with the log reader and validated.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "../../common/clock.h"
#include "harness.h"
#include "pvmmon/errors.h"
#include "pvmmon/log.h"

#define RUN_TIMEOUT 120

/* Runs PROGRAM ARGS monitored into dir/name.xml; returns the loaded log or NULL. */
static pvmmon_log *monitored(const char *dir, const char *name, const char *prog_args,
                             cmd_result *r)
{
	char path[4096];
	pvmmon_log *log = NULL;

	snprintf(path, sizeof(path), "%s/%s.xml", dir, name);
	harness_sh(r, RUN_TIMEOUT, "cd '%s' && %s/pvmmon run -q -o '%s' -- %s", dir, harness_bin(),
	           path, prog_args);
	if (r->status != 0)
		fprintf(stderr, "\npvmmon run %s: status %d\nstdout: %s\nstderr: %s\n", prog_args,
		        r->status, r->out, r->err);
	if (pvmmon_log_read(&log, path) < 0) {
		fprintf(stderr, "\n%s\n", pvmmon_error_last());
		return NULL;
	}
	/* The apps use PVM correctly: the usage checks find nothing. */
	CU_ASSERT(harness_no_findings(log, prog_args));
	CU_ASSERT_PTR_NULL(strstr(r->err, "pvmmon: usage:"));
	return log;
}

static void raw(const char *dir, const char *prog_args, cmd_result *r)
{
	harness_sh(r, RUN_TIMEOUT, "cd '%s' && %s/pvmmon run --raw -q -- %s", dir, harness_bin(),
	           prog_args);
}

static const pvmmon_log_task *task_by_lid(const pvmmon_log *log, const char *lid)
{
	for (size_t i = 0; i < log->ntasks; i++)
		if (!strcmp(log->tasks[i].lid, lid))
			return &log->tasks[i];
	return NULL;
}

/* The statement of task t made by op at a line of a file whose name ends in file. */
static const pvmmon_log_stmt *stmt_in(const pvmmon_log_task *t, const char *op, const char *file)
{
	for (size_t i = 0; i < t->nstmts; i++) {
		const pvmmon_log_stmt *s = &t->stmts[i];
		size_t fl = s->file ? strlen(s->file) : 0, l = strlen(file);

		if (!strcmp(s->op, op) && fl >= l && !strcmp(s->file + fl - l, file) && s->line > 0)
			return s;
	}
	return NULL;
}

static void test_matmul_same_output_and_log(void)
{
	const char *dir = harness_tmpdir();
	char args[512];
	cmd_result m, r;
	pvmmon_log *log;
	const pvmmon_log_task *root;
	const pvmmon_log_stmt *recv;
	uint64_t worker_sent = 0;
	size_t i;

	snprintf(args, sizeof(args), "%s/matmul -n 120 -w 3 -i 2", harness_bin());
	raw(dir, args, &r);
	log = monitored(dir, "matmul", args, &m);
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_EQUAL(m.status, 0);
	/* Monitoring never changes what the program computes. */
	CU_ASSERT_STRING_EQUAL(m.out, r.out);
	CU_ASSERT_PTR_NOT_NULL(strstr(m.out, "checksum"));
	CU_ASSERT_PTR_NOT_NULL_FATAL(log);
	CU_ASSERT_EQUAL(log->ntasks, 4);
	root = task_by_lid(log, "0");
	CU_ASSERT_PTR_NOT_NULL_FATAL(root);
	for (i = 0; i < 3; i++) {
		char lid[16];
		const pvmmon_log_task *w;

		snprintf(lid, sizeof(lid), "0.%zu", i);
		w = task_by_lid(log, lid);
		CU_ASSERT_PTR_NOT_NULL_FATAL(w);
		CU_ASSERT_EQUAL(w->status, PVMMON_TASK_EXITED);
		CU_ASSERT_EQUAL(w->parent_tid, root->tid);
		/* Every message a worker got came from a monitored sender with its
		 * piggyback paired. */
		CU_ASSERT_EQUAL(w->unmonitored_recv, 0);
		CU_ASSERT(w->msgs_recv > 0);
		worker_sent += w->msgs_sent;
	}
	CU_ASSERT_EQUAL(root->status, PVMMON_TASK_EXITED);
	CU_ASSERT_EQUAL(root->msgs_recv, worker_sent);
	CU_ASSERT_EQUAL(root->unmonitored_recv, 0);
	/* Statements are named by file:line from debug information. */
	CU_ASSERT_PTR_NOT_NULL(stmt_in(root, "pvm_mcast", "matmul.c"));
	CU_ASSERT_PTR_NOT_NULL(stmt_in(root, "pvm_send", "matmul.c"));
	recv = stmt_in(root, "pvm_recv", "matmul.c");
	CU_ASSERT_PTR_NOT_NULL_FATAL(recv);
	CU_ASSERT(recv->count > 0);
	CU_ASSERT(recv->trans_ns > 0);
	CU_ASSERT(recv->ncom == 3);
	CU_ASSERT(recv->com[0].partner_lid != NULL);
	/* The master waits for results: that wait is synchronisation delay. */
	CU_ASSERT(recv->sync_ns > 0);
	CU_ASSERT(root->virtual_ns > 0 && root->virtual_ns <= log->wall_ns);
	pvmmon_log_free(log);
	cmd_result_free(&m);
	cmd_result_free(&r);
}

static void test_mcpi_wildcards_psend_precv(void)
{
	const char *dir = harness_tmpdir();
	char args[512];
	cmd_result m, r;
	pvmmon_log *log;
	const pvmmon_log_task *root;
	const pvmmon_log_stmt *s;

	snprintf(args, sizeof(args), "%s/mcpi -w 3 -c 48 -s 5000", harness_bin());
	raw(dir, args, &r);
	log = monitored(dir, "mcpi", args, &m);
	CU_ASSERT_EQUAL(m.status, 0);
	CU_ASSERT_STRING_EQUAL(m.out, r.out);
	CU_ASSERT_PTR_NOT_NULL_FATAL(log);
	CU_ASSERT_EQUAL(log->ntasks, 4);
	root = task_by_lid(log, "0");
	CU_ASSERT_PTR_NOT_NULL_FATAL(root);
	CU_ASSERT_EQUAL(root->unmonitored_recv, 0);
	s = stmt_in(root, "pvm_recv", "mcpi.c");
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	/* The wildcard receive took results from every worker. */
	CU_ASSERT_EQUAL(s->ncom, 3);
	for (size_t i = 0; i < log->ntasks; i++) {
		CU_ASSERT_EQUAL(log->tasks[i].unmonitored_recv, 0);
		CU_ASSERT_EQUAL(log->tasks[i].status, PVMMON_TASK_EXITED);
	}
	CU_ASSERT(stmt_in(root, "pvm_precv", "mcpi.c") || stmt_in(root, "pvm_psend", "mcpi.c"));
	pvmmon_log_free(log);
	cmd_result_free(&m);
	cmd_result_free(&r);
}

/* What spawned tasks print (PVM sends it to the pvmd log of the private VM) is shown
 * after the run, monitored or raw, once per line and without pvmd's own prefix; -q
 * leaves out pvmmon's heading only. */
static void test_spawned_task_output_shown(void)
{
	const char *dir = harness_tmpdir();
	char args[512];
	cmd_result m, r;
	pvmmon_log *log;

	snprintf(args, sizeof(args), "%s/mcpi -w 3 -c 30 -s 1000 -v", harness_bin());
	raw(dir, args, &r);
	log = monitored(dir, "mcpi-v", args, &m);
	CU_ASSERT_EQUAL(m.status, 0);
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NULL(strstr(r.err, "pvmmon: output of spawned tasks"));
	CU_ASSERT_PTR_NULL(strstr(m.err, "pvmmon: output of spawned tasks"));
	CU_ASSERT_EQUAL(harness_count(r.err, "] mcpi-worker t"), 3);
	CU_ASSERT_EQUAL(harness_count(m.err, "] mcpi-worker t"), 3);
	/* pvmd's own lines (its tid has the top bit set) stay out. */
	CU_ASSERT_PTR_NULL(strstr(m.err, "[t8"));
	pvmmon_log_free(log);
	cmd_result_free(&r);
	/* Without -q pvmmon says where the lines come from. */
	harness_sh(&r, 120, "cd '%s' && %s/pvmmon run --raw -- %s", dir, harness_bin(), args);
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "pvmmon: output of spawned tasks:\n[t"));
	CU_ASSERT_EQUAL(harness_count(r.err, "] mcpi-worker t"), 3);
	cmd_result_free(&m);
	cmd_result_free(&r);
}

static void test_pingpong_receive_variants(void)
{
	const char *modes[] = {"", "--nrecv", "--trecv", "--direct"};
	const char *dir = harness_tmpdir();

	for (size_t k = 0; k < sizeof(modes) / sizeof(modes[0]); k++) {
		char args[512], name[32];
		cmd_result m;
		pvmmon_log *log;

		snprintf(args, sizeof(args), "%s/pingpong -n 200 -w 10 --sizes 8,4096,100000 %s",
		         harness_bin(), modes[k]);
		snprintf(name, sizeof(name), "pp%zu", k);
		log = monitored(dir, name, args, &m);
		CU_ASSERT_EQUAL(m.status, 0);
		CU_ASSERT_EQUAL(harness_count(m.out, " ok"), 3);
		CU_ASSERT_PTR_NOT_NULL(log);
		if (log) {
			CU_ASSERT_EQUAL(log->ntasks, 2);
			for (size_t i = 0; i < log->ntasks; i++) {
				CU_ASSERT_EQUAL(log->tasks[i].unmonitored_recv, 0);
				CU_ASSERT(log->tasks[i].msgs_recv >= 3 * 210);
			}
		}
		pvmmon_log_free(log);
		cmd_result_free(&m);
	}
}

static void test_pairing_survives_tags_probe_and_user_buffers(void)
{
	const char *dir = harness_tmpdir();
	char args[512];
	cmd_result m, r;
	pvmmon_log *log;

	snprintf(args, sizeof(args), "%s/pbcheck 3 40", harness_bin());
	raw(dir, args, &r);
	log = monitored(dir, "pbcheck", args, &m);
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_EQUAL(m.status, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(m.out, "pbcheck: ok"));
	CU_ASSERT_STRING_EQUAL(m.out, r.out);
	CU_ASSERT_PTR_NOT_NULL_FATAL(log);
	CU_ASSERT_EQUAL(log->ntasks, 4);
	for (size_t i = 0; i < log->ntasks; i++) {
		/* Every message, whatever its tag or receive call, found its piggyback. */
		CU_ASSERT_EQUAL(log->tasks[i].unmonitored_recv, 0);
		CU_ASSERT_EQUAL(log->tasks[i].status, PVMMON_TASK_EXITED);
	}
	CU_ASSERT_EQUAL(task_by_lid(log, "0")->msgs_recv, 3 * 2 * 40);
	pvmmon_log_free(log);
	cmd_result_free(&m);
	cmd_result_free(&r);
}

static void test_group_calls_keep_working(void)
{
	const char *dir = harness_tmpdir();
	char args[512];
	cmd_result m, r;
	pvmmon_log *log;
	uint64_t from_members = 0;

	snprintf(args, sizeof(args), "%s/groups 4", harness_bin());
	raw(dir, args, &r);
	log = monitored(dir, "groups", args, &m);
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_EQUAL(m.status, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(m.out, "sum 100 ok"));
	CU_ASSERT_STRING_EQUAL(m.out, r.out);
	CU_ASSERT_PTR_NOT_NULL_FATAL(log);
	/* The group server is not monitored; the four members are. */
	CU_ASSERT_EQUAL(log->ntasks, 4);
	for (size_t i = 0; i < log->ntasks; i++) {
		const pvmmon_log_task *t = &log->tasks[i];

		CU_ASSERT_EQUAL(t->status, PVMMON_TASK_EXITED);
		/* Replies of the group server come without a piggyback; everything between
		 * members (reduce, broadcast, answers) is paired. */
		CU_ASSERT(t->msgs_recv > t->unmonitored_recv);
		from_members += t->msgs_recv - t->unmonitored_recv;
	}
	CU_ASSERT(from_members >= 3 + 3 + 3);
	pvmmon_log_free(log);
	cmd_result_free(&m);
	cmd_result_free(&r);
}

/* The characters of file path that are not digits, -1 when it cannot be read. */
/* The characters of the log at path (only those that are not digits, when digits is
 * 0), the online wait tables left out: they are bounded by the program's sites, not
 * its length (see blames_bounded), but a longer run meets a rare cause or two more. */
static long log_chars(const char *path, int digits)
{
	char *text = harness_slurp(path, NULL);
	long n = 0;

	if (!text)
		return -1;
	for (const char *c = text; *c; c++) {
		if (!strncmp(c, "<blame ", 7) && strstr(c, "/>")) {
			c = strstr(c, "/>") + 1;
			continue;
		}
		n += digits || !isdigit((unsigned char)*c);
	}
	free(text);
	return n;
}

/* Each task's online wait table holds at most one entry per statement of any task,
 * and one per task for a sender that said nothing of its time. */
static int blames_bounded(const pvmmon_log *l)
{
	size_t bound = l->ntasks;

	for (size_t i = 0; i < l->ntasks; i++)
		bound += l->tasks[i].nstmts;
	for (size_t i = 0; i < l->ntasks; i++)
		if (l->tasks[i].nblames > bound)
			return 0;
	return 1;
}

/* Without the replay record (which holds one byte or so per nondeterministic event, by
 * design) and the time histograms (bounded, but whose values fill between half and all
 * of their buckets and gain digits as the buckets widen: the histo suite tests them),
 * the log's size does not depend on the run's length; the online wait tables are
 * bounded by the statements. */
static void test_log_size_independent_of_iterations(void)
{
	const char *dir = harness_tmpdir();
	char a1[512], a10[512], p1[4096], p10[4096];
	cmd_result m1, m10;
	pvmmon_log *l1, *l10;
	long s1, s10;

	snprintf(a1, sizeof(a1), "%s/matmul -n 60 -w 3 -i 5", harness_bin());
	snprintf(a10, sizeof(a10), "%s/matmul -n 60 -w 3 -i 50", harness_bin());
	snprintf(p1, sizeof(p1), "%s/i1.xml", dir);
	snprintf(p10, sizeof(p10), "%s/i10.xml", dir);
	/* Call-path samples (on by default for this plain build) are bounded by their
	 * tree's size, not by the run's length, but a longer run reaches more of the tree's
	 * paths: they are left out, the records are what this test is about. */
	harness_sh(&m1, RUN_TIMEOUT,
	           "cd '%s' && %s/pvmmon run -q --no-record --no-histograms --no-sample -o '%s' "
	           "-- %s",
	           dir, harness_bin(), p1, a1);
	harness_sh(&m10, RUN_TIMEOUT,
	           "cd '%s' && %s/pvmmon run -q --no-record --no-histograms --no-sample -o '%s' "
	           "-- %s",
	           dir, harness_bin(), p10, a10);
	l1 = l10 = NULL;
	CU_ASSERT_EQUAL(pvmmon_log_read(&l1, p1), 0);
	CU_ASSERT_EQUAL(pvmmon_log_read(&l10, p10), 0);
	s1 = log_chars(p1, 1);
	s10 = log_chars(p10, 1);
	CU_ASSERT(s1 > 0 && s10 > 0);
	fprintf(stderr,
	        "\n  log size without its wait tables: %ld bytes at 5 iterations, %ld at 50 ", s1,
	        s10);
	CU_ASSERT(labs(s10 - s1) * 100 <= s1 * 3);
	/* Without the numbers' digits (counts and times grow a digit or two with the run),
	 * the two logs are the same but for a few attributes written when not zero. */
	s1 = log_chars(p1, 0);
	s10 = log_chars(p10, 0);
	fprintf(stderr, "(%ld and %ld without digits) ", s1, s10);
	CU_ASSERT(s1 > 0 && labs(s10 - s1) * 100 <= s1);
	CU_ASSERT_PTR_NOT_NULL(l1);
	CU_ASSERT_PTR_NOT_NULL(l10);
	if (l1 && l10) {
		CU_ASSERT(task_by_lid(l10, "0")->msgs_recv == 10 * task_by_lid(l1, "0")->msgs_recv);
		CU_ASSERT(blames_bounded(l1) && blames_bounded(l10));
	}
	pvmmon_log_free(l1);
	pvmmon_log_free(l10);
	cmd_result_free(&m1);
	cmd_result_free(&m10);
}

/* Sorts the lines of s in place (for programs that print in arrival order). */
static int cmp_lines(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static char *sorted_lines(const char *s)
{
	char *copy = strdup(s), *save = NULL, *line, *out;
	char *lines[1024];
	size_t n = 0, len = 0, i;

	for (line = strtok_r(copy, "\n", &save); line && n < 1024;
	     line = strtok_r(NULL, "\n", &save))
		lines[n++] = line;
	qsort(lines, n, sizeof(*lines), cmp_lines);
	for (i = 0; i < n; i++)
		len += strlen(lines[i]) + 1;
	out = calloc(len + 1, 1);
	for (i = 0; i < n; i++) {
		strcat(out, lines[i]);
		strcat(out, "\n");
	}
	free(copy);
	return out;
}

static void test_unmodified_pvm_example(void)
{
	const char *dir = harness_tmpdir();
	cmd_result m, r;
	pvmmon_log *log;
	char *so, *sr;
	int named = 0;

	if (access("/usr/bin/master1", X_OK) != 0) {
		CU_FAIL("pvm-examples is not installed (scripts/setup.sh installs it)");
		return;
	}
	raw(dir, "master1", &r);
	log = monitored(dir, "master1", "master1", &m);
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_EQUAL(m.status, 0);
	/* master1 prints results in arrival order, which PVM does not fix. */
	so = sorted_lines(m.out);
	sr = sorted_lines(r.out);
	CU_ASSERT_STRING_EQUAL(so, sr);
	free(so);
	free(sr);
	CU_ASSERT_PTR_NOT_NULL_FATAL(log);
	CU_ASSERT(log->ntasks >= 2);
	for (size_t i = 0; i < log->ntasks; i++) {
		const pvmmon_log_task *t = &log->tasks[i];

		CU_ASSERT_EQUAL(t->unmonitored_recv, 0);
		for (size_t j = 0; j < t->nstmts; j++) {
			const pvmmon_log_stmt *s = &t->stmts[j];

			/* Without debug information a statement is its module and offset. */
			CU_ASSERT_PTR_NOT_NULL(s->module);
			CU_ASSERT(s->offset > 0);
			if (s->file || s->function)
				named++;
		}
	}
	fprintf(stderr, "\n  master1: %d statements resolved by symbols ", named);
	pvmmon_log_free(log);
	cmd_result_free(&m);
	cmd_result_free(&r);
}

/* A task that dies mid-run, by SIGKILL or by a fault (SIGSEGV): the run ends, the log
 * marks it crashed with the records it flushed, and the others' records are whole. */
static void check_crash(const char *how)
{
	const char *dir = harness_tmpdir();
	char args[512];
	cmd_result m;
	pvmmon_log *log;
	int crashed = 0, exited = 0;

	snprintf(args, sizeof(args), "%s/crash -w 2 -k 1 -d 1500 -s %s", harness_bin(), how);
	log = monitored(dir, "crash", args, &m);
	CU_ASSERT_EQUAL(m.status, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(m.out, "killed"));
	CU_ASSERT_PTR_NOT_NULL_FATAL(log);
	for (size_t i = 0; i < log->ntasks; i++) {
		const pvmmon_log_task *t = &log->tasks[i];

		if (t->status == PVMMON_TASK_CRASHED) {
			crashed++;
			/* It flushed before it died: its records are kept. */
			CU_ASSERT(t->flushes >= 1);
			CU_ASSERT(t->nstmts > 0);
			CU_ASSERT(t->msgs_recv > 0);
			/* Every flush counted in the bytes the monitor took: each holds at
			 * least the task's own fields (109 bytes on the wire). */
			CU_ASSERT(t->records_bytes >= t->flushes * 109);
		} else if (t->status == PVMMON_TASK_EXITED) {
			exited++;
		}
	}
	CU_ASSERT_EQUAL(crashed, 1);
	CU_ASSERT_EQUAL(exited, 2);
	pvmmon_log_free(log);
	cmd_result_free(&m);
}

static void test_killed_task_is_marked_crashed(void) { check_crash("kill"); }

static void test_faulting_task_is_marked_crashed(void) { check_crash("segv"); }

/* A matcher the program installed with pvm_recvf (race -m recvf accepts any message
 * with the workers' tags, in any context) never decides pvmmon's own receives: no
 * piggyback is taken for a control message, so no receive counts as unmonitored and
 * the task does not think the monitor gone. */
/*
 * A program started from a terminal reads it as it would unmonitored: pvmmon run starts
 * it in a process group of its own, which must then be the terminal's foreground group
 * (a background group stops on SIGTTIN at its first read). script(1) gives the run a
 * terminal; the line typed is already in the terminal's buffer when the program reads.
 */
static void test_program_reads_the_terminal(void)
{
	const char *dir = harness_tmpdir();
	const char *modes[] = {"--raw", "-o t.xml"};
	char prog[4096];
	FILE *f;

	snprintf(prog, sizeof(prog), "%s/readtty.sh", dir);
	f = fopen(prog, "w");
	CU_ASSERT_FATAL(f != NULL);
	fputs("#!/bin/sh\nread x\necho \"got:$x\"\n", f);
	fclose(f);
	chmod(prog, 0755);
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		cmd_result r;

		harness_sh(
		    &r, RUN_TIMEOUT,
		    "cd '%s' && printf 'hello\\n' | script -qec \"%s/pvmmon run -q %s -- %s\" "
		    "/dev/null",
		    dir, harness_bin(), modes[i], prog);
		if (r.status != 0 || !strstr(r.out, "got:hello"))
			fprintf(stderr, "\n%s: status %d\nstdout: %s\nstderr: %s\n", modes[i],
			        r.status, r.out, r.err);
		CU_ASSERT_EQUAL(r.status, 0);
		CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "got:hello"));
		cmd_result_free(&r);
	}
}

static void test_program_matcher_keeps_pairing(void)
{
	const char *dir = harness_tmpdir();
	char path[512];
	cmd_result r;
	pvmmon_log *log = NULL;

	for (int i = 0; i < 3; i++) {
		harness_sh(&r, RUN_TIMEOUT,
		           "cd '%s' && %s/pvmmon run -q -o rf.xml -- %s/race -m recvf", dir,
		           harness_bin(), harness_bin());
		CU_ASSERT_EQUAL(r.status, 0);
		CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "race: mode=recvf order="));
		CU_ASSERT_PTR_NULL(strstr(r.err, "monitor has gone"));
		cmd_result_free(&r);
		snprintf(path, sizeof(path), "%s/rf.xml", dir);
		CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&log, path), 0);
		for (size_t t = 0; t < log->ntasks; t++)
			CU_ASSERT_EQUAL(log->tasks[t].unmonitored_recv, 0);
		pvmmon_log_free(log);
	}
}

/* Whether this machine's tasks may read the TSC: the decision tasks make, from the
 * same files (the checks at start then pass on any machine whose kernel uses it). */
static int machine_allows_tsc(void)
{
	char *cur =
	    harness_slurp("/sys/devices/system/clocksource/clocksource0/current_clocksource", NULL);
	char *avail = harness_slurp(
	    "/sys/devices/system/clocksource/clocksource0/available_clocksource", NULL);
	char *cpuinfo = harness_slurp("/proc/cpuinfo", NULL);
	const char *why;
	int r = pvmmon__clock_decide(NULL, cur, avail, cpuinfo, &why);

	fprintf(stderr, "\n(this machine: %s clock; %s) ", r ? "tsc" : "monotonic", why);
	free(cur);
	free(avail);
	free(cpuinfo);
	return r;
}

/* Every task of one mcpi run says it read clock, and its times are sane. */
static void check_clock_run(const char *dir, const char *env, const char *clock)
{
	char args[512];
	cmd_result m;
	pvmmon_log *log;

	snprintf(args, sizeof(args), "%s/mcpi -w 2 -c 24 -s 5000", harness_bin());
	if (env)
		setenv("PVMMON_CLOCK", env, 1);
	log = monitored(dir, env ? "clock-forced" : "clock", args, &m);
	unsetenv("PVMMON_CLOCK");
	CU_ASSERT_EQUAL(m.status, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(log);
	CU_ASSERT_EQUAL(log->ntasks, 3);
	for (size_t i = 0; i < log->ntasks; i++) {
		const pvmmon_log_task *t = &log->tasks[i];

		CU_ASSERT_PTR_NOT_NULL_FATAL(t->clock);
		CU_ASSERT_STRING_EQUAL(t->clock, clock);
		CU_ASSERT_EQUAL(t->status, PVMMON_TASK_EXITED);
		/* Sane times on either clock: virtual time positive, within the real time
		 * (rt = vt + I, I >= 0) and within the run. */
		CU_ASSERT(t->virtual_ns > 0);
		CU_ASSERT(t->raw_ns >= t->virtual_ns);
		CU_ASSERT(t->end_ns > t->start_ns);
		CU_ASSERT(t->virtual_ns <= log->wall_ns);
		for (size_t j = 0; j < t->nstmts; j++)
			for (size_t k = 0; k < t->stmts[j].ncom; k++) {
				CU_ASSERT(t->stmts[j].com[k].trans_ns >= 0);
				CU_ASSERT(t->stmts[j].com[k].sync_ns >= 0);
			}
	}
	pvmmon_log_free(log);
	cmd_result_free(&m);
}

/* The log says which clock each task read: the TSC where this machine's kernel and CPU
 * allow it, CLOCK_MONOTONIC when PVMMON_CLOCK=monotonic forces it (spawned tasks
 * too: pvmmon run exports it); both runs pass with sane times. */
static void test_log_says_the_clock(void)
{
	const char *dir = harness_tmpdir();

	check_clock_run(dir, NULL, machine_allows_tsc() ? "tsc" : "monotonic");
	check_clock_run(dir, "monotonic", "monotonic");
}

CU_TestInfo test_run_tests[] = {
    {"the log says which clock tasks read (tsc, or monotonic when forced)",
     test_log_says_the_clock},
    {"what spawned tasks print is shown after the run", test_spawned_task_output_shown},
    {"a program's own matcher (pvm_recvf) does not break pairing",
     test_program_matcher_keeps_pairing},
    {"a program started from a terminal reads it", test_program_reads_the_terminal},
    {"matmul: same output, complete log", test_matmul_same_output_and_log},
    {"mcpi: wildcards, psend/precv", test_mcpi_wildcards_psend_precv},
    {"pingpong: recv, nrecv, trecv, direct route", test_pingpong_receive_variants},
    {"pairing: interleaved tags, probe, user buffers kept",
     test_pairing_survives_tags_probe_and_user_buffers},
    {"group calls (libgpvm3, pvmgs) keep working", test_group_calls_keep_working},
    {"log size independent of iterations", test_log_size_independent_of_iterations},
    {"unmodified pvm-examples master1 via preload", test_unmodified_pvm_example},
    {"a task that faults (SIGSEGV) mid-run is marked crashed",
     test_faulting_task_is_marked_crashed},
    {"a task killed mid-run is marked crashed", test_killed_task_is_marked_crashed},
    CU_TEST_INFO_NULL,
};
