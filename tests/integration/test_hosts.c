/*
 * Integration tests of monitored runs on a virtual machine of three hosts made of
 * namespaces on this machine (hosts.c): results equal to unmonitored runs, logs that
 * list the hosts and tasks on more than one of them, and replay of a three-host run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <CUnit/CUnit.h>

#include "pvmmon/log.h"
#include "harness.h"
#include "hosts.h"

#define RUN_TIMEOUT 180
#define EXTRA_HOSTS 2
#define REPLAYS 5
#define FREE_RUNS 5

static test_hosts *hosts;

/*
 * Runs `pvmmon ARGS` in the hosts' shared folder with PVM_RSH set; PVMMON_TEST_JITTER
 * (random send delays) when jitter is set.
 */
static void pvmmon(cmd_result *r, int jitter, const char *args)
{
	harness_sh(r, RUN_TIMEOUT, "cd '%s' && PVM_RSH='%s' %s %s/pvmmon %s",
		   test_hosts_dir(hosts), test_hosts_rsh(hosts),
		   jitter ? "PVMMON_TEST_JITTER=3000" : "", harness_bin(), args);
	if (r->status != 0)
		fprintf(stderr, "\npvmmon %s: status %d\n%s%s\n", args, r->status, r->out, r->err);
}

/* The number of distinct hosts the log's tasks ran on (and checks the host list). */
static int hosts_used(const char *log_name)
{
	char path[4200];
	pvmmon_log *log = NULL;
	const char *seen[16];
	int nseen = 0;

	snprintf(path, sizeof(path), "%s/%s", test_hosts_dir(hosts), log_name);
	if (pvmmon_log_read(&log, path) < 0) {
		CU_FAIL("the log cannot be read");
		return 0;
	}
	CU_ASSERT_EQUAL(log->nhosts, 1 + EXTRA_HOSTS);
	for (size_t i = 0; i < log->nhosts; i++) {
		int listed = 0;

		for (int k = 0; k <= EXTRA_HOSTS; k++)
			listed |= log->hosts[i].name &&
				  !strcmp(log->hosts[i].name, test_hosts_address(hosts, k));
		CU_ASSERT(listed);
	}
	for (size_t i = 0; i < log->ntasks; i++) {
		const char *h = log->tasks[i].host;
		int k;

		CU_ASSERT_PTR_NOT_NULL(h);
		if (!h)
			continue;
		for (k = 0; k < nseen && strcmp(seen[k], h); k++)
			;
		if (k == nseen && nseen < 16)
			seen[nseen++] = h;
	}
	fprintf(stderr, "\n  %s: %zu hosts, %zu tasks on %d of them ", log_name, log->nhosts,
		log->ntasks, nseen);
	pvmmon_log_free(log);
	return nseen;
}

/* Runs PROGRAM ARGS raw and monitored on the three hosts; the outputs must be equal,
 * the log valid, list three hosts and show tasks on more than one. */
static double seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void same_as_raw(const char *name, const char *args)
{
	cmd_result raw, mon, val;
	char cmd[1024];
	double t0, t1, t2;

	snprintf(cmd, sizeof(cmd), "run --raw -q --hostfile '%s' -- %s/%s %s",
		 test_hosts_hostfile(hosts), harness_bin(), name, args);
	t0 = seconds();
	pvmmon(&raw, 0, cmd);
	snprintf(cmd, sizeof(cmd), "run -q --hostfile '%s' -o %s.xml -- %s/%s %s",
		 test_hosts_hostfile(hosts), name, harness_bin(), name, args);
	t1 = seconds();
	pvmmon(&mon, 0, cmd);
	t2 = seconds();
	/* Whole commands: starting the three-host VM, the run, halting. */
	fprintf(stderr, "\n  %s: raw %.2f s, monitored %.2f s (VM start to halt)", name, t1 - t0,
		t2 - t1);
	CU_ASSERT_EQUAL(raw.status, 0);
	CU_ASSERT_EQUAL(mon.status, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(raw.out, name));
	CU_ASSERT_STRING_EQUAL(mon.out, raw.out);
	/* Every host joined: pvmmon says so when one did not. */
	CU_ASSERT_PTR_NULL(strstr(mon.err, "joined"));
	fprintf(stderr, "\n  %s", mon.out);
	snprintf(cmd, sizeof(cmd), "validate %s.xml", name);
	pvmmon(&val, 0, cmd);
	CU_ASSERT_EQUAL(val.status, 0);
	if (mon.status == 0) {
		char log[64];

		snprintf(log, sizeof(log), "%s.xml", name);
		CU_ASSERT(hosts_used(log) > 1);
	}
	cmd_result_free(&raw);
	cmd_result_free(&mon);
	cmd_result_free(&val);
}

static void test_matmul(void)
{
	same_as_raw("matmul", "-n 120 -w 6");
}

static void test_mcpi(void)
{
	same_as_raw("mcpi", "-w 6 -c 48 -s 20000");
}

/* Group calls (libgpvm3, the group server pvmgs found on the spawn path of whichever
 * host PVM starts it on) across hosts. */
static void test_groups(void)
{
	same_as_raw("groups", "6");
}

/* A three-host run of race with wildcard receives and random send delays is recorded
 * and replayed: every replay prints what the recorded run printed, while runs that are
 * not replays vary (or the replays would prove nothing). */
static void test_replay(void)
{
	cmd_result rec, rep;
	char cmd[1024];
	int same = 0, distinct = 0;

	snprintf(cmd, sizeof(cmd), "run -q --hostfile '%s' -o rec.xml -- %s/race -w 6 -m recv",
		 test_hosts_hostfile(hosts), harness_bin());
	pvmmon(&rec, 1, cmd);
	CU_ASSERT_EQUAL_FATAL(rec.status, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(rec.out, "race: mode="));
	CU_ASSERT(hosts_used("rec.xml") > 1);
	for (int i = 0; i < FREE_RUNS; i++) {
		snprintf(cmd, sizeof(cmd),
			 "run -q --no-record --hostfile '%s' -o free.xml -- %s/race -w 6 -m recv",
			 test_hosts_hostfile(hosts), harness_bin());
		pvmmon(&rep, 1, cmd);
		distinct += rep.status == 0 && strcmp(rep.out, rec.out) != 0;
		cmd_result_free(&rep);
	}
	CU_ASSERT(distinct > 0);
	for (int i = 0; i < REPLAYS; i++) {
		snprintf(cmd, sizeof(cmd),
			 "replay rec.xml -q --hostfile '%s' -o rep.xml -- %s/race -w 6 -m recv",
			 test_hosts_hostfile(hosts), harness_bin());
		pvmmon(&rep, 1, cmd);
		same += rep.status == 0 && !strcmp(rep.out, rec.out);
		if (rep.status != 0 || strcmp(rep.out, rec.out))
			fprintf(stderr, "\n  replay %d: %s (recorded: %s)", i, rep.out, rec.out);
		cmd_result_free(&rep);
	}
	CU_ASSERT_EQUAL(same, REPLAYS);
	fprintf(stderr, "\n  %d of %d free runs differed; %d of %d replays identical ", distinct,
		FREE_RUNS, same, REPLAYS);
	cmd_result_free(&rec);
}

/* A host that cannot be started (the rsh stand-in knows no such host) is reported,
 * and the run goes on with the hosts that joined. */
static void test_missing_host(void)
{
	cmd_result r;
	char hostfile[4200], cmd[5000], *text, *extra;
	FILE *f;

	snprintf(hostfile, sizeof(hostfile), "%s/hostfile.missing", test_hosts_dir(hosts));
	text = harness_slurp(test_hosts_hostfile(hosts), NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	/* An address on the hosts' subnet that no host has: the first host's with its last
	 * number replaced (which may be shorter than "250", so the text is made anew). */
	{
		const char *a = test_hosts_address(hosts, 0);

		if (asprintf(&extra, "%.*s.250", (int)(strrchr(a, '.') - a), a) < 0)
			extra = NULL;
		CU_ASSERT_PTR_NOT_NULL_FATAL(extra);
	}
	f = fopen(hostfile, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fprintf(f, "%s%s\n", text, extra);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "run -q --hostfile '%s' -o missing.xml -- %s/matmul -n 60 -w 4",
		 hostfile, harness_bin());
	pvmmon(&r, 0, cmd);
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "matmul: n=60"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "only 3 of the 4 hosts"));
	fprintf(stderr, "\n  %s", r.err);
	cmd_result_free(&r);
	free(text);
	free(extra);
}

/* The remote pvmds were started through the rsh stand-in, two a run. */
static void test_rsh_used(void)
{
	CU_ASSERT(test_hosts_rsh_calls(hosts) >= EXTRA_HOSTS);
}

CU_TestInfo test_hosts_tests[] = {
    {"matmul on three hosts gives the unmonitored result", test_matmul},
    {"Monte Carlo pi on three hosts gives the unmonitored result", test_mcpi},
    {"group calls across three hosts give the unmonitored result", test_groups},
    {"a three-host run replays to the same output", test_replay},
    {"a host that does not join is reported and the run goes on", test_missing_host},
    {"remote pvmds are started through PVM_RSH", test_rsh_used},
    CU_TEST_INFO_NULL,
};

/*
 * Makes the hosts once for the suite. Where the kernel refuses (no CAP_SYS_ADMIN or
 * CAP_NET_ADMIN, as in an unprivileged container), the tests are made inactive, which
 * CUnit's summary shows, and the reason goes to stderr: a skip, not a failure.
 */
int test_hosts_init(void)
{
	char why[512];
	CU_pSuite suite = CU_get_suite("hosts");

	hosts = test_hosts_create(EXTRA_HOSTS, why, sizeof(why));
	if (hosts)
		return 0;
	fprintf(stderr, "\nhosts: SKIPPED, cannot make namespace hosts on this machine: %s\n", why);
	for (CU_TestInfo *t = test_hosts_tests; suite && t->pName; t++)
		CU_set_test_active(CU_get_test(suite, t->pName), CU_FALSE);
	return 0;
}

int test_hosts_cleanup(void)
{
	test_hosts_destroy(hosts);
	hosts = NULL;
	return 0;
}
