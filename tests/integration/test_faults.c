/*
 * Integration tests of faults around a monitored run: the monitor killed while the
 * program runs (the program finishes with its own output, the tasks warn, the last
 * checkpoint is a valid log), pvmmon run interrupted (the private VM and its tasks
 * are gone, nothing is left behind), the pvmd killed, a foreign task, the modes of what
 * a run keeps on disk, and the log's folder unwritable or its disk full (the older log
 * kept, no temporary file left).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "pvmmon/log.h"
#include "harness.h"

#define RUN_TIMEOUT 120

/* Starts `pvmmon run OPTS -- ring -r ROUNDS` in dir in the background and waits for its
 * run file (which names the monitor's pid); the shell snippet for the callers. */
#define START_RING(opts, rounds)                                                          \
	"cd '%s' && { %s/pvmmon run -q " opts " -o ring.xml -- %s/ring -r " rounds           \
	" >ring.out 2>ring.err & } && i=0; while [ ! -e ring.xml.run ] && [ $i -lt 100 ]; " \
	"do sleep 0.1; i=$((i+1)); done; "

static void test_monitor_killed(void)
{
	const char *dir = harness_tmpdir();
	char path[4200];
	cmd_result r, raw;
	pvmmon_log *log = NULL;

	harness_sh(&raw, RUN_TIMEOUT, "cd '%s' && %s/pvmmon run -q --raw -- %s/ring -r 40", dir,
		   harness_bin(), harness_bin());
	CU_ASSERT_EQUAL_FATAL(raw.status, 0);
	/* The monitor's pid comes from the run file: the test ends only what it started
	 * (through pvmmon run), never anything by name. */
	harness_sh(&r, RUN_TIMEOUT,
		   START_RING("", "40") "sleep 1.5; mp=$(sed -n 's/^monitor_pid=//p' ring.xml.run); "
					 "kill -9 $mp; i=0; while [ -e ring.xml.run ] && [ $i -lt 300 ]; "
					 "do sleep 0.1; i=$((i+1)); done; cat ring.out; cat ring.err >&2",
		   dir, harness_bin(), harness_bin());
	/* The program's own output, unchanged. */
	CU_ASSERT_STRING_EQUAL(r.out, raw.out);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "the monitor ended during the run"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "the monitor has gone; ring goes on unmonitored"));
	if (strcmp(r.out, raw.out))
		fprintf(stderr, "\n%s\n%s\n", r.out, r.err);
	/* The checkpoint written before the kill is a valid log of the run so far. */
	snprintf(path, sizeof(path), "%s/ring.xml", dir);
	CU_ASSERT_EQUAL(pvmmon_log_read(&log, path), 0);
	if (log) {
		CU_ASSERT(log->ntasks >= 1);
		pvmmon_log_free(log);
	}
	cmd_result_free(&r);
	cmd_result_free(&raw);
}

/* SIGINT or SIGTERM to pvmmon run: it stops the program, halts its private VM (the
 * pvmd and its folder are gone) and exits; a new run works at once. */
static void test_run_interrupted(void)
{
	const char *dir = harness_tmpdir();
	cmd_result r;

	for (int sig = 0; sig < 2; sig++) {
		harness_sh(&r, RUN_TIMEOUT,
			   START_RING("", "200") "sleep 1; pid=$(sed -n 's/^pid=//p' ring.xml.run); "
						  "tmp=$(sed -n 's/^pvm_tmp=//p' ring.xml.run); "
						  "kill -%s $pid; i=0; while kill -0 $pid 2>/dev/null && "
						  "[ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done; "
						  "kill -0 $pid 2>/dev/null && echo STILL-RUNNING; "
						  "[ -e \"$tmp\" ] && echo VM-LEFT; [ -e ring.xml.run ] && "
						  "echo RUNFILE-LEFT; %s/pvmmon run -q -- %s/ring -r 2",
			   dir, harness_bin(), harness_bin(), sig ? "TERM" : "INT", harness_bin(),
			   harness_bin());
		CU_ASSERT_EQUAL(r.status, 0);
		CU_ASSERT_PTR_NULL(strstr(r.out, "STILL-RUNNING"));
		CU_ASSERT_PTR_NULL(strstr(r.out, "VM-LEFT"));
		CU_ASSERT_PTR_NULL(strstr(r.out, "RUNFILE-LEFT"));
		CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "ring: tasks=4 rounds=2"));
		if (r.status)
			fprintf(stderr, "\n%s\n%s\n", r.out, r.err);
		cmd_result_free(&r);
	}
}

/* SIGTERM to pvmmon run while spawned tasks are stuck (fig4 -d: a real deadlock, never
 * ending by itself): pvmmon does not wait the linger for them; it ends within 5 s (the
 * integration harness gives 10 before SIGKILL, which would leave the pvmd behind),
 * with the log of what was there and the VM halted. */
static void test_run_interrupted_with_stuck_tasks(void)
{
	const char *dir = harness_tmpdir();
	char path[4200];
	cmd_result r;
	pvmmon_log *log = NULL;

	harness_sh(&r, RUN_TIMEOUT,
		   "cd '%s' && { %s/pvmmon run -q -o stuck.xml -- %s/fig4 -d >stuck.out 2>stuck.err "
		   "& } && i=0; while [ ! -e stuck.xml.run ] && [ $i -lt 100 ]; do sleep 0.1; "
		   "i=$((i+1)); done; sleep 1; pid=$(sed -n 's/^pid=//p' stuck.xml.run); "
		   "tmp=$(sed -n 's/^pvm_tmp=//p' stuck.xml.run); t0=$(date +%%s%%N); "
		   "kill -TERM $pid; i=0; while kill -0 $pid 2>/dev/null && [ $i -lt 300 ]; "
		   "do sleep 0.05; i=$((i+1)); done; echo ended-after-ms=$(( ($(date +%%s%%N) - "
		   "t0) / 1000000 )); [ -e \"$tmp\" ] && echo VM-LEFT; cat stuck.err >&2",
		   dir, harness_bin(), harness_bin());
	CU_ASSERT_EQUAL(r.status, 0);
	{
		const char *e = strstr(r.out, "ended-after-ms=");
		int ms = e ? atoi(e + 15) : -1;

		fprintf(stderr, "\n  pvmmon run ended %d ms after SIGTERM", ms);
		CU_ASSERT(ms >= 0 && ms < 5000);
	}
	CU_ASSERT_PTR_NULL(strstr(r.out, "VM-LEFT"));
	snprintf(path, sizeof(path), "%s/stuck.xml", dir);
	CU_ASSERT_EQUAL(pvmmon_log_read(&log, path), 0);
	if (log) {
		CU_ASSERT(log->ntasks >= 2);
		pvmmon_log_free(log);
	}
	cmd_result_free(&r);
}

/* The forgers link the build's libpvmmon-common.a, which in a sanitized build (make
 * check-asan, which builds this test the same way) needs the sanitizers' runtimes. */
#ifdef __SANITIZE_ADDRESS__
#define FORGE_SANITIZE "-fsanitize=address,undefined "
#else
#define FORGE_SANITIZE ""
#endif

/* A task that is not part of the run (in the same VM, same user) sends the monitor
 * forged control messages: each is refused, said on stderr and counted in the log, and
 * the run goes on as if nothing came. */
static void test_foreign_task_refused(void)
{
	const char *dir = harness_tmpdir();
	char path[4200];
	cmd_result r;
	pvmmon_log *log = NULL;
	const char *refused = NULL;

	harness_sh(&r, RUN_TIMEOUT,
		   "cd '%s' && gcc -O1 " FORGE_SANITIZE "-I%s/../include -o forge "
		   "%s/../tests/fixtures/src/forge.c %s/lib/libpvmmon-common.a -lpvm3",
		   dir, harness_build(), harness_build(), harness_build());
	CU_ASSERT_EQUAL_FATAL(r.status, 0);
	cmd_result_free(&r);
	harness_sh(&r, RUN_TIMEOUT,
		   START_RING("", "40") "sleep 0.5; PVM_TMP=$(sed -n 's/^pvm_tmp=//p' ring.xml.run) "
					 "./forge; i=0; while [ -e ring.xml.run ] && [ $i -lt 300 ]; "
					 "do sleep 0.1; i=$((i+1)); done; cat ring.out; cat ring.err >&2",
		   dir, harness_bin(), harness_bin());
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "forge: sent 3 forged messages"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "ring: tasks=4 rounds=40"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "refused a control message (STATUS) from t"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "wrong token"));
	if (!strstr(r.err, "refused"))
		fprintf(stderr, "\n%s\n%s\n", r.out, r.err);
	cmd_result_free(&r);
	snprintf(path, sizeof(path), "%s/ring.xml", dir);
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&log, path), 0);
	for (size_t i = 0; i < log->nsettings; i++)
		if (!strcmp(log->settings[i].key, "refused-control-messages"))
			refused = log->settings[i].value;
	CU_ASSERT_PTR_NOT_NULL(refused);
	CU_ASSERT(refused && atoi(refused) == 3);
	/* The forged start of critical-path collection was not carried out, and the
	 * forger is no task of the run. */
	CU_ASSERT_EQUAL(log->cp.enabled, 0);
	CU_ASSERT_EQUAL(log->ntasks, 4);
	pvmmon_log_free(log);
}

/* A foreign task's forged piggyback (right format, wrong token) is counted and ignored:
 * its message counts as from an unmonitored sender, and the forged times are not used. */
static void test_forged_piggyback_ignored(void)
{
	const char *dir = harness_tmpdir();
	char path[4200];
	cmd_result r;
	pvmmon_log *log = NULL;

	harness_sh(&r, RUN_TIMEOUT,
		   "cd '%s' && gcc -O1 " FORGE_SANITIZE "-I%s/../include -o pbforge "
		   "%s/../tests/fixtures/src/pbforge.c "
		   "%s/lib/libpvmmon-common.a -lpvm3 && %s/pvmmon run -q -o pb.xml -- ./pbforge",
		   dir, harness_build(), harness_build(), harness_build(), harness_bin());
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "pbforge: got 42"));
	if (r.status)
		fprintf(stderr, "\n%s\n%s\n", r.out, r.err);
	cmd_result_free(&r);
	snprintf(path, sizeof(path), "%s/pb.xml", dir);
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&log, path), 0);
	/* The forger ran passive: the run has one task. */
	CU_ASSERT_EQUAL_FATAL(log->ntasks, 1);
	CU_ASSERT_EQUAL(log->tasks[0].bad_piggybacks, 1);
	CU_ASSERT_EQUAL(log->tasks[0].unmonitored_recv, 1);
	pvmmon_log_free(log);
}

/* The pvmd killed under a run: pvmmon run ends, says so, leaves no process of the run
 * and no VM folder behind, and the next run works at once. */
static void test_pvmd_killed(void)
{
	const char *dir = harness_tmpdir();
	cmd_result r;

	harness_sh(&r, RUN_TIMEOUT,
		   START_RING("", "100") "sleep 1; pp=$(sed -n 's/^pvmd_pid=//p' ring.xml.run); "
					  "tmp=$(sed -n 's/^pvm_tmp=//p' ring.xml.run); "
					  "pid=$(sed -n 's/^pid=//p' ring.xml.run); kill -9 $pp; "
					  "i=0; while kill -0 $pid 2>/dev/null && [ $i -lt 600 ]; do "
					  "sleep 0.1; i=$((i+1)); done; kill -0 $pid 2>/dev/null && "
					  "echo STILL-RUNNING; [ -e \"$tmp\" ] && echo VM-LEFT; "
					  "echo HOSTS=$(grep -c '<host ' ring.xml); "
					  "grep -q '<task ' ring.xml && echo TASKS-LOGGED; "
					  "cat ring.err >&2; %s/pvmmon run -q -- %s/ring -r 2",
		   dir, harness_bin(), harness_bin(), harness_bin(), harness_bin());
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NULL(strstr(r.out, "STILL-RUNNING"));
	CU_ASSERT_PTR_NULL(strstr(r.out, "VM-LEFT"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "pvmd died during the run"));
	/* The monitor said so, and its log still names the host the pvmd listed and the
	 * tasks it knew (not "0 hosts"). */
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "pvmmon: the pvmd has gone"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "HOSTS=1\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "TASKS-LOGGED"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "ring: tasks=4 rounds=2"));
	if (r.status || !strstr(r.err, "pvmd died"))
		fprintf(stderr, "\n%s\n%s\n", r.out, r.err);
	cmd_result_free(&r);
}

/* What a run keeps on disk while it lasts is the user's alone: the private VM's folder
 * and its PVM_TMP are 0700 (other users cannot reach its pvmd's socket files), and the
 * run file, which holds the run's token, is 0600. */
static void test_private_files(void)
{
	const char *dir = harness_tmpdir();
	cmd_result r;

	harness_sh(&r, RUN_TIMEOUT,
		   START_RING("", "40") "tmp=$(sed -n 's/^pvm_tmp=//p' ring.xml.run); "
					 "stat -c 'mode %%a' \"$tmp\" \"$(dirname \"$tmp\")\" "
					 "ring.xml.run; i=0; while [ -e ring.xml.run ] && [ $i -lt 300 ]; "
					 "do sleep 0.1; i=$((i+1)); done; cat ring.out",
		   dir, harness_bin(), harness_bin());
	CU_ASSERT_EQUAL(harness_count(r.out, "mode 700\n"), 2);
	CU_ASSERT_EQUAL(harness_count(r.out, "mode 600\n"), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "ring: tasks=4 rounds=40"));
	if (harness_count(r.out, "mode ") != 3)
		fprintf(stderr, "\n%s\n%s\n", r.out, r.err);
	cmd_result_free(&r);
}

/*
 * How these tests get a private mount namespace, where what they mount is seen by the
 * commands they run and by nothing else on the machine, and goes away with them even
 * if a test fails half-way: `unshare -m` as root, `unshare -r -m` (a user namespace in
 * which the user is root) otherwise. NULL when neither works here, after saying so.
 */
static const char *private_mounts(void)
{
	static const char *const cands[] = {"unshare -m --propagation private",
					    "unshare -r -m --propagation private"};
	static int tried;
	static const char *found;
	const char *dir;
	cmd_result r;

	if (tried++)
		return found;
	dir = harness_tmpdir();
	for (size_t i = 0; i < sizeof(cands) / sizeof(cands[0]) && !found; i++) {
		harness_sh(&r, 30, "%s sh -c 'mount -t tmpfs -o size=64k pvmmon-test \"$0\" && "
				   "umount \"$0\"' '%s'",
			   cands[i], dir);
		if (r.status == 0)
			found = cands[i];
		cmd_result_free(&r);
	}
	if (!found)
		fprintf(stderr, "\n(faults: no private mount namespace here, not even as a user "
				"namespace)\n");
	return found;
}

/* Whether the file at a holds exactly the bytes of the file at b. */
static int same_bytes(const char *a, const char *b)
{
	size_t la = 0, lb = 0;
	char *da = harness_slurp(a, &la), *db = harness_slurp(b, &lb);
	int same = da && db && la == lb && memcmp(da, db, la) == 0;

	free(da);
	free(db);
	return same;
}

/*
 * The log's folder cannot be written: pvmmon run refuses before it starts anything
 * (no VM, no program), names the log and the reason, exits with 125 (pvmmon failed,
 * as documented), and the older log at the path is untouched. Root ignores permission
 * bits, so the folder is made unwritable with a read-only bind mount of itself in a
 * private mount namespace, which stops root too; where no namespace can be had, a
 * user who is not root gets a 0500 folder instead.
 */
static void test_log_folder_unwritable(void)
{
	const char *dir = harness_tmpdir();
	const char *ns = private_mounts();
	char path[4200], old[4200];
	cmd_result r;

	if (!ns && geteuid() == 0) {
		CU_FAIL("no way here to make a folder unwritable for root (no mount namespace)");
		return;
	}
	/* The program is a script that leaves a mark when it starts. */
	harness_sh(&r, RUN_TIMEOUT,
		   "cd '%s' && mkdir logs && cp '%s/../tests/fixtures/valid-1.0.xml' logs/x.xml && "
		   "printf '#!/bin/sh\\ntouch \"%s/started\"\\nexec %s/ring -r 2\\n' >prog && "
		   "chmod 755 prog%s",
		   dir, harness_build(), dir, harness_bin(), ns ? "" : " && chmod 0500 logs");
	CU_ASSERT_EQUAL_FATAL(r.status, 0);
	cmd_result_free(&r);
	if (ns)
		harness_sh(&r, RUN_TIMEOUT,
			   "cd '%s' && %s sh -c 'mount --bind logs logs && "
			   "mount -o remount,bind,ro logs || exit 1; touch logs/probe 2>/dev/null && "
			   "echo WRITABLE; \"$0\"/pvmmon run -q -o logs/x.xml -- ./prog; "
			   "echo status=$?; umount logs' '%s'",
			   dir, ns, harness_bin());
	else
		harness_sh(&r, RUN_TIMEOUT,
			   "cd '%s' && { touch logs/probe 2>/dev/null && echo WRITABLE; "
			   "%s/pvmmon run -q -o logs/x.xml -- ./prog; echo status=$?; "
			   "chmod 0700 logs; }",
			   dir, harness_bin());
	/* The folder really was unwritable for this user. */
	CU_ASSERT_PTR_NULL(strstr(r.out, "WRITABLE"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "status=125\n"));
	/* Nothing ran: no program output, no mark. */
	CU_ASSERT_PTR_NULL(strstr(r.out, "ring:"));
	snprintf(path, sizeof(path), "%s/started", dir);
	CU_ASSERT_EQUAL(access(path, F_OK), -1);
	/* One line naming the log and the reason. */
	snprintf(path, sizeof(path), "'%s/logs/x.xml'", dir);
	CU_ASSERT_EQUAL(harness_count(r.err, "\n"), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, path));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, ns ? "Read-only file system" : "Permission denied"));
	if (!strstr(r.out, "status=125"))
		fprintf(stderr, "\n%s\n%s\n", r.out, r.err);
	cmd_result_free(&r);
	/* The older log, byte for byte, and nothing beside it. */
	snprintf(path, sizeof(path), "%s/logs/x.xml", dir);
	snprintf(old, sizeof(old), "%s/../tests/fixtures/valid-1.0.xml", harness_build());
	CU_ASSERT(same_bytes(path, old));
	harness_sh(&r, RUN_TIMEOUT, "ls -A '%s/logs'", dir);
	CU_ASSERT_STRING_EQUAL(r.out, "x.xml\n");
	cmd_result_free(&r);
}

/* What one disk-full run left, read back by the test. */
static char *read_in(const char *dir, const char *name)
{
	char path[4200], *s;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	s = harness_slurp(path, NULL);
	return s ? s : strdup("");
}

/*
 * pvmmon run whose log cannot be written for want of space. With ns (a private mount
 * namespace), the log's folder is a 256 KiB tmpfs holding the older log, then filled
 * to the last page before the run: every checkpoint and the final write fail with
 * ENOSPC. Without, the run has a file size limit (RLIMIT_FSIZE) of 512 bytes, below
 * any log (its fixed header alone is longer) and above the VM's own small files:
 * every log write fails with EFBIG, as the monitor ignores SIGXFSZ. Either way
 * pvmmon run exits with 125 saying why and naming the log, the older log is still
 * there byte for byte, no temporary file is left beside it, and the program's output
 * is what it is in a run that can write its log.
 */
static void disk_full_run(const char *ns)
{
	const char *dir = harness_tmpdir();
	char path[4200], old[4200];
	char *status, *out, *err, *listing, *first;
	cmd_result r;
	pvmmon_log *log = NULL;

	/* A run that writes its log: the older log, and the program's normal output. */
	harness_sh(&r, RUN_TIMEOUT,
		   "cd '%s' && %s/pvmmon run -q -o old.xml -- %s/ring -r 40 >first.out && mkdir logs",
		   dir, harness_bin(), harness_bin());
	CU_ASSERT_EQUAL_FATAL(r.status, 0);
	cmd_result_free(&r);
	if (ns)
		harness_sh(&r, RUN_TIMEOUT,
			   "cd '%s' && %s sh -c 'mount -t tmpfs -o size=256k pvmmon-test logs || "
			   "exit 1; cp old.xml logs/x.xml; dd if=/dev/zero of=logs/fill bs=4k "
			   "2>/dev/null; printf x 2>/dev/null >logs/probe && echo NOT-FULL; "
			   "rm -f logs/probe; \"$0\"/pvmmon run -q -o logs/x.xml -- \"$0\"/ring -r 40 "
			   ">ring.out 2>ring.err; echo $? >status; cp logs/x.xml after.xml; "
			   "ls -A logs >listing; umount logs' '%s'",
			   dir, ns, harness_bin());
	else
		/* The limit is the command's only: its output goes through pipes, which
		 * have none, to files written by cat, which is not limited. */
		harness_sh(&r, RUN_TIMEOUT,
			   "cd '%s' && cp old.xml logs/x.xml && ( (prlimit --fsize=512:512 "
			   "%s/pvmmon run -q -o logs/x.xml -- %s/ring -r 40; echo $? >status) | "
			   "cat >ring.out ) 2>&1 | cat >ring.err; cp logs/x.xml after.xml; "
			   "ls -A logs >listing",
			   dir, harness_bin(), harness_bin());
	CU_ASSERT_PTR_NULL(strstr(r.out, "NOT-FULL"));
	cmd_result_free(&r);
	status = read_in(dir, "status");
	out = read_in(dir, "ring.out");
	err = read_in(dir, "ring.err");
	listing = read_in(dir, "listing");
	first = read_in(dir, "first.out");
	CU_ASSERT_STRING_EQUAL(status, "125\n");
	/* The program's own results, unchanged. */
	CU_ASSERT_PTR_NOT_NULL(strstr(first, "ring: tasks=4 rounds=40"));
	CU_ASSERT_STRING_EQUAL(out, first);
	/* Why, naming the log: the checkpoints (said once), then the final write. */
	snprintf(path, sizeof(path), "%s/logs/x.xml: cannot write: %s", dir,
		 ns ? "No space left on device" : "File too large");
	CU_ASSERT_EQUAL(harness_count(err, path), 2);
	CU_ASSERT_EQUAL(harness_count(err, "checkpoint not written"), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "wrote no final log to"));
	/* The run file could not be written on the full disk either, and that is said. */
	if (ns)
		CU_ASSERT_PTR_NOT_NULL(strstr(err, "x.xml.run: No space left on device"));
	/* No temporary file of the log or of the run file is left. */
	CU_ASSERT_STRING_EQUAL(listing, ns ? "fill\nx.xml\n" : "x.xml\n");
	if (strcmp(status, "125\n") || harness_count(err, path) != 2)
		fprintf(stderr, "\nstatus %s\n%s\n%s\n%s\n", status, out, err, listing);
	/* The older log, byte for byte, still a valid log. */
	snprintf(path, sizeof(path), "%s/after.xml", dir);
	snprintf(old, sizeof(old), "%s/old.xml", dir);
	CU_ASSERT(same_bytes(path, old));
	CU_ASSERT_EQUAL(pvmmon_log_read(&log, path), 0);
	if (log)
		pvmmon_log_free(log);
	free(status);
	free(out);
	free(err);
	free(listing);
	free(first);
}

/* A real full file system where a private mount namespace can be had; otherwise the
 * file size limit stands in for it (said on stderr). */
static void test_disk_full(void)
{
	const char *ns = private_mounts();

	if (!ns)
		fprintf(stderr, "\n(faults: the full disk is a file size limit here)\n");
	disk_full_run(ns);
}

/* The same with a file size limit, which needs no privilege and shows EFBIG. */
static void test_file_size_limit(void)
{
	disk_full_run(NULL);
}

CU_TestInfo test_faults_tests[] = {
    {"the monitor killed: the program finishes, the checkpoint is valid", test_monitor_killed},
    {"pvmmon run interrupted: VM halted, nothing left, next run works", test_run_interrupted},
    {"pvmmon run interrupted with stuck tasks: no linger, VM halted",
     test_run_interrupted_with_stuck_tasks},
    {"the pvmd killed: pvmmon run ends, says so, leaves nothing", test_pvmd_killed},
    {"a forged piggyback without the run's token is counted and ignored",
     test_forged_piggyback_ignored},
    {"a foreign task's forged control messages are refused and logged",
     test_foreign_task_refused},
    {"the private VM's folders are 0700, the run file 0600", test_private_files},
    {"the log's folder unwritable: refused before the run, older log untouched",
     test_log_folder_unwritable},
    {"disk full at the log: clear error, older log intact, no temporary file",
     test_disk_full},
    {"file size limit at the log: clear error, older log intact, no temporary file",
     test_file_size_limit},
    CU_TEST_INFO_NULL,
};
