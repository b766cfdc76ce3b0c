/*
 * Integration tests of the hosts suite (test_hosts.c) for runs that fail across hosts:
 * a worker dying of SIGSEGV on another host, a deadlock cycle whose tasks run on
 * different hosts and a wait for a worker killed on another host are diagnosed as on
 * one host, and the log keeps every task's records.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "harness.h"
#include "hosts.h"
#include "pvmmon/log.h"
#include "test_hosts_fail.h"

#define RUN_TIMEOUT HOSTS_RUN_TIMEOUT

/* Runs `pvmmon ARGS` in the hosts' shared folder with PVM_RSH set; says what it printed
 * when it fails. */
static void pvmmon(cmd_result *r, const char *args)
{
	test_hosts *hosts = test_hosts_current();

	harness_sh(r, RUN_TIMEOUT, "cd '%s' && PVM_RSH='%s' %s/pvmmon %s", test_hosts_dir(hosts),
	           test_hosts_rsh(hosts), harness_bin(), args);
	if (r->status != 0)
		fprintf(stderr, "\npvmmon %s: status %d\n%s%s\n", args, r->status, r->out, r->err);
}

/* A worker on another host makes 10^4 sends and dies of SIGSEGV: the log has all of
 * them, its host, the signal and its last statement, as on the monitor's host
 * (test_fatal.c). */
void test_fatal_on_other_host(void)
{
	test_hosts *hosts = test_hosts_current();
	cmd_result r;
	char cmd[1024];
	pvmmon_log *log = NULL;
	const pvmmon_log_task *w = NULL, *m = NULL;

#ifdef __SANITIZE_ADDRESS__
	/* Under ASan/UBSan the sanitizers take the fault first (test_fatal.c says why). */
	fprintf(stderr, "\n  skipped under ASan/UBSan: the sanitizers take a real fault first ");
	return;
#endif
	snprintf(cmd, sizeof(cmd), "run -q --hostfile '%s' -o fatal.xml -- %s/dies -n 10000 -H %s",
	         test_hosts_hostfile(hosts), harness_bin(), test_hosts_address(hosts, 1));
	pvmmon(&r, cmd);
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "dies: received 10000"));
	snprintf(cmd, sizeof(cmd), "%s/fatal.xml", test_hosts_dir(hosts));
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&log, cmd), 0);
	for (size_t i = 0; i < log->ntasks; i++) {
		if (!strcmp(log->tasks[i].program, "dies-worker"))
			w = &log->tasks[i];
		else if (!strcmp(log->tasks[i].program, "dies"))
			m = &log->tasks[i];
	}
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_STRING_NOT_EQUAL(w->host, m->host);
	CU_ASSERT_EQUAL(w->status, PVMMON_TASK_KILLED);
	CU_ASSERT_EQUAL(w->signal, 11);
	CU_ASSERT_EQUAL(w->msgs_sent, 10000);
	CU_ASSERT_PTR_NOT_NULL(w->ended ? strstr(w->ended, "killed by SIGSEGV at ") : NULL);
	fprintf(stderr, "\n  on %s: %s ", w->host, w->ended ? w->ended : "(no words)");
	pvmmon_log_free(log);
	cmd_result_free(&r);
}

/* The task of log with logical id lid, or NULL. */
static const pvmmon_log_task *task_lid(const pvmmon_log *log, const char *lid)
{
	for (size_t i = 0; i < log->ntasks; i++)
		if (log->tasks[i].lid && !strcmp(log->tasks[i].lid, lid))
			return &log->tasks[i];
	return NULL;
}

/*
 * A deadlock cycle whose two tasks run on different hosts (apps/hang cycle2: PVM places
 * the workers one a host in turn): said as on one host, with each task and statement,
 * within 1 s of the last block (test_hangs.c says why 1 s holds on a busy machine; the
 * wait reports cross one more pvmd here, a few ms); the run stopped; the log keeps
 * every task's records, where each waited and the diagnosis, and its wait-for graph
 * draws the cycle with each task's host.
 */
void test_cycle_across_hosts(void)
{
	test_hosts *hosts = test_hosts_current();
	cmd_result r;
	char cmd[1024], *dot;
	const char *said;
	pvmmon_log *log = NULL;
	const pvmmon_log_task *a, *b;

	/* Not through pvmmon(), which takes any status but 0 for a failure: this run ends
	 * with the hang's. */
	harness_sh(&r, RUN_TIMEOUT,
	           "cd '%s' && PVM_RSH='%s' %s/pvmmon run -q --on-hang=abort --hostfile '%s' -o "
	           "cycle.xml -- %s/hang cycle2",
	           test_hosts_dir(hosts), test_hosts_rsh(hosts), harness_bin(),
	           test_hosts_hostfile(hosts), harness_bin());
	CU_ASSERT_EQUAL(r.status, 4);
	said = strstr(r.err, "pvmmon: deadlock: task 0.0 waits at hang.c:");
	CU_ASSERT_PTR_NOT_NULL(said);
	CU_ASSERT_PTR_NOT_NULL(said ? strstr(said, " for tag 2 from 0.1; task 0.1 waits at hang.c:")
	                            : NULL);
	CU_ASSERT_PTR_NOT_NULL(said ? strstr(said, " for tag 1 from 0.0 (said ") : NULL);
	said = said ? strstr(said, "(said ") : NULL;
	CU_ASSERT(said && atol(said + 6) >= 0 && atol(said + 6) <= 1000);
	CU_ASSERT_EQUAL(harness_count(r.err, "pvmmon: deadlock:"), 1);
	if (r.status != 4 || !said)
		fprintf(stderr, "\n%s\n", r.err);
	cmd_result_free(&r);
	snprintf(cmd, sizeof(cmd), "%s/cycle.xml", test_hosts_dir(hosts));
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&log, cmd), 0);
	a = task_lid(log, "0.0");
	b = task_lid(log, "0.1");
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a->host);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b->host);
	CU_ASSERT_STRING_NOT_EQUAL(a->host, b->host);
	fprintf(stderr, "\n  0.0 on %s, 0.1 on %s ", a->host, b->host);
	for (int k = 0; k < 2; k++) {
		const pvmmon_log_task *t = k ? b : a;
		uint64_t recv = 0;

		/* Its records: the receive of the workers' tids that came, and the receive it
		 * waits in. */
		for (size_t j = 0; j < t->nstmts; j++)
			if (t->stmts[j].op && !strcmp(t->stmts[j].op, "pvm_recv"))
				recv += t->stmts[j].count;
		CU_ASSERT(t->nstmts >= 2);
		CU_ASSERT_EQUAL(recv, 1);
		CU_ASSERT_EQUAL(t->status, PVMMON_TASK_STOPPED);
		CU_ASSERT_PTR_NOT_NULL(t->waiting ? strstr(t->waiting, k ? "from 0.0" : "from 0.1")
		                                  : NULL);
	}
	CU_ASSERT(log->nhangs >= 1);
	CU_ASSERT(log->nhangs >= 1 && log->hangs[0].kind &&
	          !strcmp(log->hangs[0].kind, "deadlock"));
	pvmmon_log_free(log);
	/* The wait-for graph: the two arrows of the cycle, each task with its host. */
	snprintf(cmd, sizeof(cmd), "report cycle.xml -o rep --dot");
	pvmmon(&r, cmd);
	CU_ASSERT_EQUAL(r.status, 0);
	cmd_result_free(&r);
	snprintf(cmd, sizeof(cmd), "%s/rep/waits.dot", test_hosts_dir(hosts));
	dot = harness_slurp(cmd, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(dot);
	CU_ASSERT_EQUAL(harness_count(dot, "penwidth=2.5"), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(dot, test_hosts_address(hosts, 1)));
	free(dot);
}

/*
 * The master waits for a worker on another host that dies of SIGSEGV first (apps/hang
 * crash): the wait for an ended task is said as on one host, naming the signal, within
 * 1 s of the last block; the log keeps the worker's records, host, signal and words.
 */
void test_wait_for_crash_on_other_host(void)
{
	test_hosts *hosts = test_hosts_current();
	cmd_result r;
	char path[4200];
	const char *said;
	pvmmon_log *log = NULL;
	const pvmmon_log_task *m, *w;
	uint64_t recv = 0;

#ifdef __SANITIZE_ADDRESS__
	fprintf(stderr, "\n  skipped under ASan/UBSan: the sanitizers take a real fault first ");
	return;
#endif
	harness_sh(&r, RUN_TIMEOUT,
	           "cd '%s' && PVM_RSH='%s' %s/pvmmon run -q --on-hang=abort --hostfile '%s' -o "
	           "crash.xml -- %s/hang crash",
	           test_hosts_dir(hosts), test_hosts_rsh(hosts), harness_bin(),
	           test_hosts_hostfile(hosts), harness_bin());
	CU_ASSERT_EQUAL(r.status, 4);
	said = strstr(r.err, "pvmmon: wait for an ended task: task 0 waits at hang.c:");
	CU_ASSERT_PTR_NOT_NULL(said);
	CU_ASSERT_PTR_NOT_NULL(
	    said ? strstr(said, " for tag 2 from 0.0, which has ended (killed by SIGSEGV)") : NULL);
	said = said ? strstr(said, "(said ") : NULL;
	CU_ASSERT(said && atol(said + 6) >= 0 && atol(said + 6) <= 1000);
	if (r.status != 4 || !said)
		fprintf(stderr, "\n%s\n", r.err);
	cmd_result_free(&r);
	snprintf(path, sizeof(path), "%s/crash.xml", test_hosts_dir(hosts));
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&log, path), 0);
	m = task_lid(log, "0");
	w = task_lid(log, "0.0");
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m->host);
	CU_ASSERT_PTR_NOT_NULL_FATAL(w->host);
	CU_ASSERT_STRING_NOT_EQUAL(m->host, w->host);
	CU_ASSERT_EQUAL(w->status, PVMMON_TASK_KILLED);
	CU_ASSERT_EQUAL(w->signal, 11);
	CU_ASSERT_PTR_NOT_NULL(w->ended ? strstr(w->ended, "killed by SIGSEGV at ") : NULL);
	for (size_t j = 0; j < w->nstmts; j++)
		if (w->stmts[j].op && !strcmp(w->stmts[j].op, "pvm_recv"))
			recv += w->stmts[j].count;
	CU_ASSERT_EQUAL(recv, 1);
	CU_ASSERT_PTR_NOT_NULL(m->waiting ? strstr(m->waiting, "for tag 2 from 0.0") : NULL);
	CU_ASSERT(log->nhangs >= 1 && log->hangs[0].kind && !strcmp(log->hangs[0].kind, "ended"));
	fprintf(stderr, "\n  master on %s, worker on %s: %s ", m->host, w->host,
	        w->ended ? w->ended : "(no words)");
	pvmmon_log_free(log);
}
