/*
 * Integration tests that a monitored program sees what it would see unmonitored: the
 * counts it can take of its virtual machine, in every mode, by preload and built with
 * pvmmon-cc; libpvmhooks's exports and a program that reuses pvmmon's internal names;
 * bytes counted alike at both ends of every send path and encoding.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "pvmmon/log.h"

#include "harness.h"

#define RUN_TIMEOUT 120

/* What apps/vmcount prints in a run of mode (pvmmon run's options; "" for the plain run,
 * which leaves its log in plain.xml; "replay", which replays that log). */
static void vmcount_in(cmd_result *r, const char *dir, const char *prog, const char *mode)
{
	if (!strcmp(mode, "replay"))
		harness_sh(r, RUN_TIMEOUT,
		           "cd '%s' && %s/pvmmon replay plain.xml -q -o rp.xml -- %s", dir,
		           harness_bin(), prog);
	else
		harness_sh(r, RUN_TIMEOUT, "cd '%s' && %s/pvmmon run %s -q -o %s -- %s", dir,
		           harness_bin(), mode, *mode ? "m.xml" : "plain.xml", prog);
}

static void counts_same_in_every_mode(const char *dir, const char *prog, const char *want)
{
	static const char *const modes[] = {"", "--mode=preserve", "--budget=5%", "replay"};

	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		cmd_result m;

		vmcount_in(&m, dir, prog, modes[i]);
		if (m.status != 0 || strcmp(m.out, want))
			fprintf(stderr, "\n  %s %s printed (status %d):\n%s%s", prog, modes[i],
			        m.status, m.out, m.err);
		CU_ASSERT_EQUAL(m.status, 0);
		CU_ASSERT_STRING_EQUAL(m.out, want);
		cmd_result_free(&m);
	}
}

static void test_counts_same_monitored(void)
{
	const char *dir = harness_tmpdir();
	char prog[4096];
	cmd_result raw, b;

	snprintf(prog, sizeof(prog), "%s/vmcount", harness_bin());
	harness_sh(&raw, RUN_TIMEOUT, "cd '%s' && %s/pvmmon run --raw -q -- %s", dir, harness_bin(),
	           prog);
	CU_ASSERT_EQUAL_FATAL(raw.status, 0);
	/* The program and its two workers, on the one host; no mailbox entry. */
	CU_ASSERT_STRING_EQUAL(raw.out, "tasks 3\nhosts 1 arches 1\nhost 0 tasks 3\n"
	                                "mailbox classes 0\ntids alive 3\n");
	counts_same_in_every_mode(dir, prog, raw.out);

	/* Built with pvmmon-cc: libpvmhooks linked in, probes in every procedure. */
	harness_sh(&b, RUN_TIMEOUT,
	           "cd '%s' && %s/pvmmon-cc -g -O2 -o vmcount %s/../apps/vmcount.c -lpvm3", dir,
	           harness_bin(), harness_build());
	CU_ASSERT_EQUAL_FATAL(b.status, 0);
	snprintf(prog, sizeof(prog), "%s/vmcount", dir);
	counts_same_in_every_mode(dir, prog, raw.out);
	cmd_result_free(&b);
	cmd_result_free(&raw);
}

static const pvmmon_log_task *task_of(const pvmmon_log *l, const char *lid)
{
	for (size_t i = 0; i < l->ntasks; i++)
		if (!strcmp(l->tasks[i].lid, lid))
			return &l->tasks[i];
	return NULL;
}

/* Task t's nth statement (from 0, in the order first executed) of op. */
static const pvmmon_log_stmt *stmt_at(const pvmmon_log_task *t, const char *op, int nth)
{
	int seen = 0;

	for (size_t i = 0; i < t->nstmts; i++)
		if (!strcmp(t->stmts[i].op, op) && seen++ == nth)
			return &t->stmts[i];
	return NULL;
}

static void test_bytes_every_send_path(void)
{
	const char *dir = harness_tmpdir();
	char log[4096];
	cmd_result m;
	pvmmon_log *l = NULL;
	const pvmmon_log_task *master, *w0, *w1;
	/* Master's sends in program order, and worker 0's receives of them. */
	static const struct {
		const char *send_op;
		int send_nth;
		const char *recv_op;
		int recv_nth;
		uint64_t bytes;
	} pairs[] = {
	    {"pvm_send", 0, "pvm_recv", 1, 1000},   /* PvmDataDefault */
	    {"pvm_send", 1, "pvm_recv", 2, 1000},   /* PvmDataRaw */
	    {"pvm_send", 2, "pvm_recv", 3, 1000},   /* PvmDataInPlace */
	    {"pvm_psend", 0, "pvm_precv", 0, 1200}, /* 300 PVM_INT */
	};

	snprintf(log, sizeof(log), "%s/s.xml", dir);
	harness_sh(&m, RUN_TIMEOUT, "cd '%s' && %s/pvmmon run -q -o '%s' -- %s/sendall", dir,
	           harness_bin(), log, harness_bin());
	CU_ASSERT_EQUAL_FATAL(m.status, 0);
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&l, log), 0);
	master = task_of(l, "0");
	w0 = task_of(l, "0.0");
	w1 = task_of(l, "0.1");
	CU_ASSERT_PTR_NOT_NULL_FATAL(master);
	CU_ASSERT_PTR_NOT_NULL_FATAL(w0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(w1);
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		const pvmmon_log_stmt *s = stmt_at(master, pairs[i].send_op, pairs[i].send_nth);
		const pvmmon_log_stmt *r = stmt_at(w0, pairs[i].recv_op, pairs[i].recv_nth);

		CU_ASSERT_PTR_NOT_NULL_FATAL(s);
		CU_ASSERT_PTR_NOT_NULL_FATAL(r);
		CU_ASSERT_EQUAL(s->bytes, pairs[i].bytes);
		CU_ASSERT_EQUAL(r->bytes, pairs[i].bytes);
	}
	/* The mcast: two ints and 100 bytes (108 in XDR) to each of two workers. */
	{
		const pvmmon_log_stmt *s = stmt_at(master, "pvm_mcast", 0);
		const pvmmon_log_stmt *r0 = stmt_at(w0, "pvm_recv", 0),
		                      *r1 = stmt_at(w1, "pvm_recv", 0);

		CU_ASSERT_PTR_NOT_NULL_FATAL(s);
		CU_ASSERT_PTR_NOT_NULL_FATAL(r0);
		CU_ASSERT_PTR_NOT_NULL_FATAL(r1);
		CU_ASSERT_EQUAL(s->bytes, 216);
		CU_ASSERT_EQUAL(r0->bytes, 108);
		CU_ASSERT_EQUAL(r1->bytes, 108);
	}
	CU_ASSERT_EQUAL(master->bytes_sent, w0->bytes_recv + w1->bytes_recv);
	CU_ASSERT_EQUAL(master->msgs_sent, w0->msgs_recv + w1->msgs_recv);
	/* What the workers printed (pvmmon run shows it on its standard error) is what
	 * libpvm3 delivered: the same sizes. */
	CU_ASSERT_PTR_NOT_NULL(strstr(m.err, "inplace 1000"));
	CU_ASSERT_PTR_NOT_NULL(strstr(m.err, "psend 1200"));
	pvmmon_log_free(l);
	cmd_result_free(&m);
}

/* libpvmhooks.so's exported symbols, sorted, one a line (heap), or NULL. ASan's
 * indicator of an exported variable (`__odr_asan.pvmmon_call_line`, make check-asan)
 * belongs to the variable, not to the list. */
static char *hooks_exports(void)
{
	cmd_result r;
	char *out;

	harness_sh(&r, 30,
	           "nm -D --defined-only '%s/lib/libpvmhooks.so' | awk '{print $3}' | "
	           "grep -v '^__odr_asan[.]' | LC_ALL=C sort",
	           harness_build());
	out = r.status == 0 ? strdup(r.out) : NULL;
	cmd_result_free(&r);
	return out;
}

static void test_exports_are_the_allowed_list(void)
{
	char path[4096], *got = hooks_exports(), *want;
	cmd_result r;

	snprintf(path, sizeof(path), "%s/../tests/fixtures/hooks-exports.txt", harness_build());
	harness_sh(&r, 30, "grep -v '^#' '%s' | LC_ALL=C sort", path);
	CU_ASSERT_EQUAL_FATAL(r.status, 0);
	want = r.out;
	CU_ASSERT_PTR_NOT_NULL_FATAL(got);
	if (strcmp(got, want))
		fprintf(stderr, "\n  libpvmhooks.so exports:\n%s  allowed:\n%s", got, want);
	CU_ASSERT_STRING_EQUAL(got, want);
	free(got);
	cmd_result_free(&r);
}

/*
 * The program for the name-clash test: a master and one worker (itself) exchanging a
 * message, plus, generated beside it, a definition of every global function of
 * libpvmhooks's own code and of the archives it links (pvmmon's internal names, such
 * as cp_init, vclock_init, replay_check, tidmap_find, wire_put_u32, hooks__mytid,
 * channel__use), each of which says it was called and aborts.
 */
static const char clash_main[] =
    "#include <stdio.h>\n#include <string.h>\n#include <pvm3.h>\n"
    "int main(int argc, char **argv)\n{\n"
    "\tint tid, n = 0;\n"
    "\tif (pvm_mytid() < 0)\n\t\treturn 1;\n"
    "\tif (argc > 1 && !strcmp(argv[1], \"worker\")) {\n"
    "\t\tpvm_recv(pvm_parent(), 1);\n\t\tpvm_upkint(&n, 1, 1);\n"
    "\t\tpvm_initsend(PvmDataDefault);\n\t\tn++;\n\t\tpvm_pkint(&n, 1, 1);\n"
    "\t\tpvm_send(pvm_parent(), 2);\n\t\tpvm_exit();\n\t\treturn 0;\n\t}\n"
    "\tif (pvm_spawn(argv[0], (char *[]){\"worker\", NULL}, 0, \"\", 1, &tid) != 1)\n"
    "\t\treturn 1;\n"
    "\tn = 41;\n\tpvm_initsend(PvmDataDefault);\n\tpvm_pkint(&n, 1, 1);\n"
    "\tpvm_send(tid, 1);\n\tpvm_recv(tid, 2);\n\tpvm_upkint(&n, 1, 1);\n"
    "\tprintf(\"answer %d\\n\", n);\n\tpvm_exit();\n\treturn 0;\n}\n";

static void clash_run(const char *dir, const char *prog)
{
	char log[4096];
	cmd_result m;
	pvmmon_log *l = NULL;

	snprintf(log, sizeof(log), "%s/%s.xml", dir, prog);
	harness_sh(&m, RUN_TIMEOUT, "cd '%s' && %s/pvmmon run -q -o '%s' -- ./%s", dir,
	           harness_bin(), log, prog);
	if (m.status != 0 || strstr(m.err, "clash"))
		fprintf(stderr, "\n  %s: status %d\n%s%s", prog, m.status, m.out, m.err);
	CU_ASSERT_EQUAL(m.status, 0);
	CU_ASSERT_STRING_EQUAL(m.out, "answer 42\n");
	CU_ASSERT_PTR_NULL(strstr(m.err, "clash"));
	CU_ASSERT_PTR_NULL(strstr(m.err, "unmonitored"));
	/* Both tasks registered and their message was paired. */
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&l, log), 0);
	CU_ASSERT_EQUAL(l->ntasks, 2);
	for (size_t i = 0; i < l->ntasks; i++) {
		CU_ASSERT_EQUAL(l->tasks[i].unmonitored_recv, 0);
		CU_ASSERT(l->tasks[i].msgs_sent + l->tasks[i].msgs_recv >= 1);
	}
	pvmmon_log_free(l);
	cmd_result_free(&m);
}

static void test_program_with_pvmmon_names(void)
{
	const char *dir = harness_tmpdir();
	char path[4096];
	cmd_result g, b;
	FILE *f;

	snprintf(path, sizeof(path), "%s/clash.c", dir);
	f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(clash_main, f);
	fclose(f);
	/* Every global function of pvmmon's in-task code but the exports, and the names
	 * libpvmhooks exported before it hid its internals. */
	harness_sh(
	    &g, 60,
	    "cd '%s' && { nm --defined-only %s/lib/libpvmhooks-core.a %s/lib/libpvmmon-common.a "
	    "%s/lib/libpvmmon-replay.a | awk '$2 == \"T\" {print $3}'; "
	    "printf "
	    "'cp_init\\ncp_start\\nvclock_init\\nreplay_check\\ntidmap_find\\nwire_put_u32\\n'; } "
	    "| "
	    "LC_ALL=C sort -u | grep -v -x -F -f %s/../tests/fixtures/hooks-exports.txt | "
	    "grep -v -x main > names && "
	    "awk '{printf \"void %%s(void) { fputs(\\\"clash: %%s\\\\n\\\", stderr); abort(); "
	    "}\\n\", $1, $1}' "
	    "names > clashdefs.c && sed -i '1i #include <stdio.h>\\n#include <stdlib.h>' "
	    "clashdefs.c && "
	    "wc -l < names && grep -c -x -E "
	    "'cp_init|vclock_init|replay_check|tidmap_find|wire_put_u32|"
	    "hooks__mytid|channel__use|sched__run|pvmio__send|vclock__init' names",
	    dir, harness_build(), harness_build(), harness_build(), harness_build());
	CU_ASSERT_EQUAL_FATAL(g.status, 0);
	/* Hundreds of names, the ones the issue named among them. */
	CU_ASSERT(atoi(g.out) > 100);
	CU_ASSERT_PTR_NOT_NULL(strstr(g.out, "\n10\n"));
	/* Preloaded, every definition exported (-rdynamic); and built with pvmmon-cc. */
	harness_sh(&b, 300,
	           "cd '%s' && cc -g -rdynamic -o clash-preload clash.c clashdefs.c -lpvm3 && "
	           "%s/pvmmon-cc -g -rdynamic -o clash-cc clash.c clashdefs.c -lpvm3",
	           dir, harness_bin());
	CU_ASSERT_EQUAL_FATAL(b.status, 0);
	clash_run(dir, "clash-preload");
	clash_run(dir, "clash-cc");
	cmd_result_free(&g);
	cmd_result_free(&b);
}

/*
 * A receive's wait slices keep their timeout with a timer instead of libpvm3's timed
 * selects (pvmhooks/slicetimer.c): a pvm_trecv that times out while large messages of
 * another tag arrive still times out, takes nothing, and leaves the program's view as
 * it was: the signal's disposition (the default, or the program's own handler, which is
 * never called), and no timer unless the slice could use one (tests/fixtures/src/
 * slicewait.c prints each fact).
 */
static void test_slice_timer_unseen(void)
{
	static const struct {
		const char *env, *arg, *timers;
	} runs[] = {
	    {"", "", "slice timers 1\n"},
	    {"", "own", "slice timers 0\n"},
	    {"PVMMON_SLICE_TIMER=0", "", "slice timers 0\n"},
	};
	const char *dir = harness_tmpdir();
	cmd_result b;

	harness_sh(&b, 120,
	           "cd '%s' && cc -O2 -o slicewait %s/../tests/fixtures/src/slicewait.c -lpvm3",
	           dir, harness_build());
	CU_ASSERT_EQUAL_FATAL(b.status, 0);
	cmd_result_free(&b);
	for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		char want[512];
		cmd_result m;

		snprintf(want, sizeof(want),
		         "trecv 0\ntimeout kept\nmessages intact\ndisposition kept\n"
		         "own handler calls 0\n%s",
		         runs[i].timers);
		harness_sh(&m, RUN_TIMEOUT,
		           "cd '%s' && %s %s/pvmmon run -q -o sw.xml -- ./slicewait %s", dir,
		           runs[i].env, harness_bin(), runs[i].arg);
		if (m.status != 0 || strcmp(m.out, want))
			fprintf(stderr, "\n  slicewait %s %s: status %d\n%s%s", runs[i].env,
			        runs[i].arg, m.status, m.out, m.err);
		CU_ASSERT_EQUAL(m.status, 0);
		CU_ASSERT_STRING_EQUAL(m.out, want);
		cmd_result_free(&m);
	}
}

CU_TestInfo test_transparency_tests[] = {
    {"pvm_tasks, pvm_config, mailbox, pvm_pstat counts: same as --raw in every mode",
     test_counts_same_monitored},
    {"bytes sent = bytes received for every encoding and send call", test_bytes_every_send_path},
    {"libpvmhooks exports exactly the allowed list", test_exports_are_the_allowed_list},
    {"a program defining pvmmon's internal names is monitored", test_program_with_pvmmon_names},
    {"a timed-out receive amid large messages: timeout, signal and handler as unmonitored",
     test_slice_timer_unseen},
    CU_TEST_INFO_NULL,
};
