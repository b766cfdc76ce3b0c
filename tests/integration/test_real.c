/*
 * Integration tests with real PVM programs nobody here wrote, as Debian ships them:
 * NetPIPE's NPpvm (netpipe-pvm; two tasks started by hand, one of which counts the
 * virtual machine's tasks) monitored, in preserve mode and replayed; tablix2 (tablix2,
 * tablix2-doc) solving a sample problem monitored and in preserve mode. scripts/setup.sh installs the
 * packages; a test says so and does nothing only where one is truly absent.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "pvmmon/errors.h"
#include "pvmmon/log.h"
#include "pvmmon/waits.h"

#include "harness.h"

#define RUN_TIMEOUT 120
#define NPPVM "/usr/bin/NPpvm"
#define TABLIX "/usr/bin/tablix2"
#define TABLIX_SAMPLE "/usr/share/doc/tablix2/examples/hint.xml"

/*
 * NPpvm as its man page says: the receiver first, then the transmitter with -h and the
 * receiver's host, the same options on both. Small: sizes 1 B to 4 KiB with no
 * perturbations (24 sizes) and 20 repeats each, so a run takes well under a second.
 * "First" means registered: the transmitter lists the VM's tasks once, at its start,
 * takes the one that is not itself for the receiver, and sends it the first message;
 * unmonitored too, a receiver still connecting to pvmd shows there with tid 0 (or not
 * at all), and the two then wait for each other for ever. So the transmitter starts
 * once `pvmmon top` counts the receiver among the run's tasks: enrolled, with its tid,
 * and registered. top runs without the preload, so that it is no task of the run; it
 * is a PVM task only while it looks. That also keeps the order of registration, by
 * which a replay knows tasks started by hand, the recorded one.
 */
#define NP_OPTS "-u 4096 -p 0 -n 20"
#define NP_SIZES 24
/* The shell command for pvmmon run or replay writing log (a printf format's "%s/pvmmon"
 * is the bin folder, the second "%s" the log). The second NPpvm starts once the first
 * is registered (a condition polled every 50 ms; the command's timeout bounds it). */
#define NP_PAIR                                                                                    \
	"sh -c 'NPpvm " NP_OPTS " -o r.out & r=$!; "                                               \
	"until env -u LD_PRELOAD %s/pvmmon top --once %s 2>/dev/null | "                           \
	"grep -q \", 1 task \"; do kill -0 $r || exit 1; sleep 0.05; done; "                       \
	"NPpvm -h \"$(hostname)\" " NP_OPTS " -o t.out; wait'"

static int absent(const char *path, const char *package)
{
	if (access(path, R_OK) == 0)
		return 0;
	fprintf(stderr,
	        "\n  skipped: %s is not installed (package %s; scripts/setup.sh installs it) ",
	        path, package);
	return 1;
}

/* Checks the transmitter's output (one line per size) and the log: the two tasks,
 * monitored, every message paired, and as many bytes received as the other sent. */
static void check_np(const char *dir, const char *log)
{
	char path[4096], *out;
	pvmmon_log *l = NULL;

	snprintf(path, sizeof(path), "%s/t.out", dir);
	out = harness_slurp(path, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(out);
	CU_ASSERT_EQUAL(harness_count(out, "\n"), NP_SIZES);
	free(out);
	unlink(path);
	snprintf(path, sizeof(path), "%s/%s", dir, log);
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&l, path), 0);
	CU_ASSERT(harness_no_findings(l, log));
	CU_ASSERT_EQUAL_FATAL(l->ntasks, 2);
	for (int i = 0; i < 2; i++) {
		const pvmmon_log_task *t = &l->tasks[i], *o = &l->tasks[1 - i];

		CU_ASSERT(t->msgs_sent > NP_SIZES * 20);
		CU_ASSERT_EQUAL(t->unmonitored_recv, 0);
		CU_ASSERT_EQUAL(t->msgs_sent, o->msgs_recv);
		CU_ASSERT_EQUAL(t->bytes_sent, o->bytes_recv);
	}
	pvmmon_log_free(l);
}

static void test_netpipe(void)
{
	const char *dir = harness_tmpdir();
	cmd_result r;

	if (absent(NPPVM, "netpipe-pvm"))
		return;
	/* Monitored by preload: it sees only its own two tasks and runs. */
	harness_sh(&r, RUN_TIMEOUT, "cd '%s' && %s/pvmmon run -q -o np.xml -- " NP_PAIR, dir,
	           harness_bin(), harness_bin(), "np.xml");
	if (r.status != 0)
		fprintf(stderr, "\n  NPpvm: status %d\n%s%s", r.status, r.out, r.err);
	CU_ASSERT_EQUAL_FATAL(r.status, 0);
	CU_ASSERT_PTR_NULL(strstr(r.err, "too many processes"));
	cmd_result_free(&r);
	check_np(dir, "np.xml");

	harness_sh(&r, RUN_TIMEOUT,
	           "cd '%s' && %s/pvmmon run -q --mode=preserve -o pr.xml -- " NP_PAIR, dir,
	           harness_bin(), harness_bin(), "pr.xml");
	if (r.status != 0)
		fprintf(stderr, "\n  NPpvm preserve: status %d\n%s", r.status, r.err);
	CU_ASSERT_EQUAL(r.status, 0);
	cmd_result_free(&r);
	/* Each of its receives is from any source, the other task blocked on it: decided
	 * at once, by the tasks themselves (block notices), not after a fixed wait. The
	 * 1-byte latency was 20 ms (a 20 ms wait step per receive); NetPIPE reports the
	 * best of 20 round trips, which stays well under 5 ms on a busy 2-CPU machine
	 * (35 us unmonitored). */
	{
		char path[4096], *out;
		double secs = 1;

		snprintf(path, sizeof(path), "%s/t.out", dir);
		out = harness_slurp(path, NULL);
		CU_ASSERT_FATAL(out && sscanf(out, "%*d %*f %lf", &secs) == 1);
		fprintf(stderr, "\n  NPpvm preserve: 1 B latency %.1f us", secs * 1e6);
		CU_ASSERT(secs < 0.005);
		free(out);
	}
	check_np(dir, "pr.xml");

	harness_sh(&r, RUN_TIMEOUT, "cd '%s' && %s/pvmmon replay np.xml -q -o rp.xml -- " NP_PAIR,
	           dir, harness_bin(), harness_bin(), "rp.xml");
	if (r.status != 0)
		fprintf(stderr, "\n  NPpvm replay: status %d\n%s", r.status, r.err);
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NULL(strstr(r.err, "diverge"));
	cmd_result_free(&r);
	check_np(dir, "rp.xml");
}

static void test_tablix(void)
{
	const char *dir = harness_tmpdir();
	char path[4096], *res;
	cmd_result r;
	pvmmon_log *l = NULL;

	if (absent(TABLIX, "tablix2") || absent(TABLIX_SAMPLE, "tablix2-doc"))
		return;
	/* Two kernels (tablix2_kernel, spawned by tablix2) on the sample with hints; it
	 * solves it in well under a second unmonitored. */
	harness_sh(&r, RUN_TIMEOUT,
	           "cd '%s' && cp " TABLIX_SAMPLE
	           " . && %s/pvmmon run -q -o tx.xml -- tablix2 -n 2 -d 1 "
	           "-o hint- hint.xml",
	           dir, harness_bin());
	if (r.status != 0)
		fprintf(stderr, "\n  tablix2: status %d\n%s%s", r.status, r.out, r.err);
	CU_ASSERT_EQUAL_FATAL(r.status, 0);
	cmd_result_free(&r);
	/* Each kernel's result: well-formed, with the fitness of its solution, and
	 * readable by tablix2's own exporter, which lists the scheduled events. */
	for (int k = 0; k < 2; k++) {
		snprintf(path, sizeof(path), "%s/hint-result%d.xml", dir, k);
		res = harness_slurp(path, NULL);
		CU_ASSERT_PTR_NOT_NULL_FATAL(res);
		CU_ASSERT_PTR_NOT_NULL(strstr(res, "fitness=\""));
		free(res);
		harness_sh(&r, 30, "xmllint --noout '%s' && tablix2_output csv '%s'", path, path);
		CU_ASSERT_EQUAL(r.status, 0);
		CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\"Fitness\","));
		CU_ASSERT(harness_count(r.out, "\"Lecture") > 0);
		cmd_result_free(&r);
	}
	/* tablix2 and its two kernels, all monitored: every message between them paired.
	 * Only tablix2 receives unmonitored messages: pvmd's word that a kernel ended
	 * (it asks with pvm_notify), at most one per kernel. */
	/* In preserve mode too (its kernels poll with pvm_nrecv, its master receives
	 * from any source): it finishes, with results as valid. */
	harness_sh(&r, 60,
	           "cd '%s' && %s/pvmmon run -q --mode=preserve -o txp.xml -- tablix2 -n 2 -d 1 "
	           "-o hintp- hint.xml",
	           dir, harness_bin());
	if (r.status != 0)
		fprintf(stderr, "\n  tablix2 preserve: status %d\n%s%s", r.status, r.out, r.err);
	CU_ASSERT_EQUAL(r.status, 0);
	cmd_result_free(&r);
	for (int k = 0; k < 2; k++) {
		snprintf(path, sizeof(path), "%s/hintp-result%d.xml", dir, k);
		res = harness_slurp(path, NULL);
		CU_ASSERT_PTR_NOT_NULL_FATAL(res);
		CU_ASSERT_PTR_NOT_NULL(strstr(res, "fitness=\""));
		free(res);
	}
	snprintf(path, sizeof(path), "%s/txp.xml", dir);
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&l, path), 0);
	CU_ASSERT_EQUAL(l->ntasks, 3);
	pvmmon_log_free(l);
	l = NULL;
	snprintf(path, sizeof(path), "%s/tx.xml", dir);
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&l, path), 0);
	/* The usage checks find nothing wrong in its packing, unpacking, buffers or
	 * results. Messages left queued at exit are another matter: its kernels stop on
	 * their own and may leave a migration (tag 3) from the other kernel, or the
	 * master's tag 1, unreceived; whether one is left depends on timing, and the check
	 * is right to say it (each is printed). */
	for (size_t i = 0; i < l->nfindings; i++) {
		fprintf(stderr, "\n  tablix2: %s finding: %s ", l->findings[i].kind,
		        l->findings[i].text);
		CU_ASSERT_STRING_EQUAL(l->findings[i].kind, "queued");
	}
	CU_ASSERT_EQUAL(l->ntasks, 3);
	for (size_t i = 0; i < l->ntasks; i++) {
		const pvmmon_log_task *t = &l->tasks[i];

		CU_ASSERT(t->msgs_sent > 0 && t->msgs_recv > 0);
		CU_ASSERT(t->unmonitored_recv <= (strcmp(t->lid, "0") ? 0u : 2u));
	}
	pvmmon_log_free(l);
}

/* The wait analysis of a traced log of a real program: it runs, and its waiting is the
 * sum of the trace's synchronisation delays, receive by receive, and of its polling
 * waits; the tasks' online tables charge the same receives' delays; the efficiency
 * identities hold. */
static void check_waits(const char *dir, const char *log)
{
	char path[4096];
	pvmmon_log *l = NULL;
	pvmmon_waits *w = NULL;
	int64_t sync = 0;
	size_t receives = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, log);
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&l, path), 0);
	CU_ASSERT_FATAL(l->trace.enabled && !l->trace.dropped);
	if (pvmmon_waits_compute(&w, l) < 0)
		fprintf(stderr, "\n  %s: %s", log, pvmmon_error_last());
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	for (size_t i = 0; i < l->ntasks; i++)
		for (size_t e = 0; e < l->tasks[i].nevents; e++)
			if (l->tasks[i].events[e].sync > 0) {
				sync += l->tasks[i].events[e].sync;
				receives++;
			}
	fprintf(stderr, "\n  %s: waiting %.3f ms in %zu receives, %zu causes, parallel "
	                "efficiency %.1f%%",
	        log, w->total_wait_ns / 1e6, w->nstates, w->ncauses,
	        100 * w->parallel_efficiency);
	/* Polling waits (tablix2's kernels poll with pvm_nrecv) and waits for ended tasks
	 * come from calls that found nothing: beside the receives' delays, not in them. */
	{
		size_t polls = 0;

		for (size_t s = 0; s < w->nstates; s++)
			polls += w->states[s].kind == PVMMON_WAIT_POLL ||
			         w->states[s].kind == PVMMON_WAIT_ENDED;
		CU_ASSERT_EQUAL(w->total_wait_ns - w->poll_ns - w->ended_ns, sync);
		CU_ASSERT_EQUAL(w->nstates - polls, receives);
	}
	/* The tasks' own tables (online, the same run) charge every receive's delay too. */
	{
		int64_t online = 0;

		for (size_t i = 0; i < l->ntasks; i++)
			for (size_t j = 0; j < l->tasks[i].nblames; j++)
				online += l->tasks[i].blames[j].short_ns + l->tasks[i].blames[j].long_ns;
		fprintf(stderr, "; online %.3f ms", online / 1e6);
		CU_ASSERT_EQUAL(online, sync);
	}
	CU_ASSERT(w->parallel_efficiency > 0 && w->parallel_efficiency <= 1.0 + 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(w->parallel_efficiency, w->load_balance * w->comm_efficiency,
	                       1e-9);
	pvmmon_waits_free(w);
	pvmmon_log_free(l);
}

static void test_real_waits(void)
{
	const char *dir = harness_tmpdir();
	cmd_result r;

	if (!absent(NPPVM, "netpipe-pvm")) {
		harness_sh(&r, RUN_TIMEOUT, "cd '%s' && %s/pvmmon run -q --trace -o npw.xml -- " NP_PAIR,
		           dir, harness_bin(), harness_bin(), "npw.xml");
		if (r.status != 0)
			fprintf(stderr, "\n  NPpvm traced: status %d\n%s%s", r.status, r.out, r.err);
		CU_ASSERT_EQUAL(r.status, 0);
		cmd_result_free(&r);
		check_waits(dir, "npw.xml");
	}
	if (absent(TABLIX, "tablix2") || absent(TABLIX_SAMPLE, "tablix2-doc"))
		return;
	harness_sh(&r, RUN_TIMEOUT,
	           "cd '%s' && cp " TABLIX_SAMPLE " . && %s/pvmmon run -q --trace -o txw.xml -- "
	           "tablix2 -n 2 -d 1 -o hintw- hint.xml",
	           dir, harness_bin());
	if (r.status != 0)
		fprintf(stderr, "\n  tablix2 traced: status %d\n%s%s", r.status, r.out, r.err);
	CU_ASSERT_EQUAL(r.status, 0);
	cmd_result_free(&r);
	check_waits(dir, "txw.xml");
}

CU_TestInfo test_real_tests[] = {
    {"NetPIPE (NPpvm) monitored, in preserve mode and replayed", test_netpipe},
    {"tablix2 solves a sample problem monitored and in preserve mode; its results are valid",
     test_tablix},
    {"NetPIPE and tablix2 traced: why they wait, the waiting the trace's own", test_real_waits},
    CU_TEST_INFO_NULL,
};
