/*
 * Integration tests of record and replay: programs whose output depends on message
 * order (wildcard receives, polling with pvm_nrecv, pvm_trecv timeouts, the calls a
 * pvm_addmhf handler's messages come during, pvmd's exit notifications) made to vary
 * by random send delays, recorded, and replayed to the same output under other
 * delays; divergence reports for changed programs, also when a recorded message can
 * never come (within 2 s, nothing left running); records rejected before anything
 * starts; a PVM example replayed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "../../common/vm.h"
#include "pvmmon/log.h"
#include "harness.h"

#define RUN_TIMEOUT 120
#define REPLAYS 20

/* Runs `pvmmon CMD` in dir with random send delays; returns its standard output
 * (heap) and status. */
static char *pvmmon_out(const char *dir, int *status, const char *fmt, const char *a,
			const char *b)
{
	cmd_result r;
	char cmd[2048], *out;

	snprintf(cmd, sizeof(cmd), fmt, a, b);
	harness_sh(&r, RUN_TIMEOUT, "cd '%s' && PVMMON_TEST_JITTER=3000 %s/pvmmon %s", dir,
		   harness_bin(), cmd);
	*status = r.status;
	out = strdup(r.out);
	if (r.status != 0 && r.status != 3)
		fprintf(stderr, "\npvmmon %s: %d\n%s%s\n", cmd, r.status, r.out, r.err);
	cmd_result_free(&r);
	return out;
}

/*
 * Records `program` (a path and its arguments; its output starts with prefix) in dir
 * with pvmmon's extra options (e.g. --attach); checks that unrecorded runs vary and
 * that REPLAYS replays all print what the recorded run printed. Returns the recorded
 * run's output (heap).
 */
static char *record_and_replay_program(const char *dir, const char *opts, const char *program,
				       const char *prefix, const char *label)
{
	char args[1024], *rec, *out;
	int st, same = 0, distinct = 0;

	snprintf(args, sizeof(args), "%s -- %s", opts, program);
	/* Without replay the delays change the output now and then. */
	rec = pvmmon_out(dir, &st, "run -q -o rec.xml %s%s", args, "");
	CU_ASSERT_EQUAL(st, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(rec, prefix));
	if (st != 0)
		return rec;
	for (int i = 0; i < 6; i++) {
		out = pvmmon_out(dir, &st, "run -q --no-record -o free.xml %s%s", args, "");
		distinct += strcmp(out, rec) != 0;
		free(out);
	}
	CU_ASSERT(distinct > 0);
	for (int i = 0; i < REPLAYS; i++) {
		out = pvmmon_out(dir, &st, "replay rec.xml -q -o rep.xml %s%s", args, "");
		same += st == 0 && !strcmp(out, rec);
		if (st != 0 || strcmp(out, rec))
			fprintf(stderr, "\n  replay %d: %s (recorded: %s)", i, out, rec);
		free(out);
	}
	CU_ASSERT_EQUAL(same, REPLAYS);
	fprintf(stderr, "\n  %s: %d of 6 free runs differed; %d of %d replays identical ", label,
		distinct, same, REPLAYS);
	return rec;
}

/* Records race in mode, as record_and_replay_program() checks. */
static void record_and_replay(const char *mode)
{
	char program[512];

	snprintf(program, sizeof(program), "%s/race -m %s", harness_bin(), mode);
	free(record_and_replay_program(harness_tmpdir(), "", program, "race: mode=", mode));
}

static void test_wildcard_receives(void)
{
	record_and_replay("recv");
}

static void test_polling_nrecv(void)
{
	record_and_replay("nrecv");
}

static void test_trecv_timeouts(void)
{
	record_and_replay("trecv");
}

/* A pvm_addmhf handler's notes: which work message each came before, and their order,
 * are forced by the replay. */
static void test_handler_deliveries(void)
{
	char program[512], *rec, *notes;

	snprintf(program, sizeof(program), "%s/mhf", harness_bin());
	rec = record_and_replay_program(harness_tmpdir(), "", program, "mhf: work=", "mhf");
	/* Every one of the 3 x 4 notes reached the handler, each once. */
	notes = strstr(rec, "notes=");
	CU_ASSERT_PTR_NOT_NULL(notes);
	if (notes)
		CU_ASSERT_EQUAL(strcspn(notes + 6, "\n"), 12);
	free(rec);
}

/* A handler that answers what it takes (-r: workers wait for its token before they send
 * the work the master waits for): monitoring, recording and replaying must not hold
 * the handler until the master's receive ends, which would never happen. */
static void test_handler_answers(void)
{
	char program[512], *rec, *notes;

	snprintf(program, sizeof(program), "%s/mhf -r", harness_bin());
	rec = record_and_replay_program(harness_tmpdir(), "", program, "mhf: work=", "mhf -r");
	notes = strstr(rec, "notes=");
	CU_ASSERT_PTR_NOT_NULL(notes);
	if (notes)
		CU_ASSERT_EQUAL(strcspn(notes + 6, "\n"), 12);
	free(rec);
}

/* A forced receive waits as long as its sender computes (one chunk of mcpi, over a
 * second here): no divergence, the same output, and after the note time (made 400 ms
 * by the test knob; 30 s otherwise) one line saying what it waits for. */
static void test_long_wait_is_no_divergence(void)
{
	const char *dir = harness_tmpdir();
	cmd_result rec, rep;

	harness_sh(&rec, RUN_TIMEOUT,
		   "cd '%s' && %s/pvmmon run -q -o long.xml -- %s/mcpi -w 1 -c 2 -s 200000000", dir,
		   harness_bin(), harness_bin());
	CU_ASSERT_EQUAL_FATAL(rec.status, 0);
	harness_sh(&rep, RUN_TIMEOUT,
		   "cd '%s' && PVMMON_TEST_REPLAY_NOTE_MS=400 %s/pvmmon replay long.xml -q -o "
		   "long-rep.xml -- %s/mcpi -w 1 -c 2 -s 200000000",
		   dir, harness_bin(), harness_bin());
	CU_ASSERT_EQUAL(rep.status, 0);
	CU_ASSERT_STRING_EQUAL(rep.out, rec.out);
	CU_ASSERT_PTR_NOT_NULL(strstr(rep.err, "has waited 0.4 s at event"));
	CU_ASSERT_PTR_NOT_NULL(strstr(rep.err,
	                              "has not ended and nothing shows yet that the "
	                              "message cannot come, so the replay waits for it\n"));
	CU_ASSERT_PTR_NULL(strstr(rep.err, "diverge"));
	cmd_result_free(&rec);
	cmd_result_free(&rep);
}

/* The line of apps/rhang.c that carries the comment marker. */
static int rhang_line(const char *marker)
{
	char path[4096], *src, *p;
	int line = 1;

	snprintf(path, sizeof(path), "%s/../apps/rhang.c", harness_build());
	src = harness_slurp(path, NULL);
	if (!src)
		return -1;
	p = strstr(src, marker);
	for (char *q = src; p && q < p; q++)
		line += *q == '\n';
	free(src);
	return p ? line : -1;
}

/* Whether process pid runs (exists and is no zombie left for its parent to reap). */
static int runs(long pid)
{
	char path[64], *stat, *p;
	int alive;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	stat = harness_slurp(path, NULL);
	if (!stat)
		return 0;
	p = strrchr(stat, ')');
	alive = p && p[1] == ' ' && p[2] != 'Z' && p[2] != 'X';
	free(stat);
	return alive;
}

/* How many of the tasks in log path (their pids) still run; -1 when the log names
 * none. */
static int tasks_running(const char *path)
{
	char *log = harness_slurp(path, NULL), *p;
	int n = 0, seen = 0;

	for (p = log; p && (p = strstr(p, " pid=\"")); p += 6, seen++)
		n += runs(atol(p + 6));
	free(log);
	return seen ? n : -1;
}

/* The time stamp (ns) of the first line of stamped output text that holds what. */
static long long stamp_of(const char *text, const char *what)
{
	const char *p = strstr(text, what), *l = p;

	while (l && l > text && l[-1] != '\n')
		l--;
	return l ? atoll(l) : -1;
}

/* The delay the first hang diagnosis in text states ("said N ms after the last task
 * blocked"); -1 when there is none. */
static long hang_said(const char *text)
{
	const char *e = strstr(text, " ms after the last task blocked"), *p = e;

	while (p && p > text && p[-1] != '(' && p[-1] != '\n')
		p--;
	return p && p > text && p[-1] == '(' && !strncmp(p, "said ", 5) ? atol(p + 5) : -1;
}

/*
 * Replays rhang MODE against dir's record (rhang same) and checks that it stops with a
 * divergence at the master's forced receive, naming what the worker does (want), within
 * 2 s of the hang, with the log written and no task left running.
 */
static void replay_cannot_come(const char *dir, const char *mode, const char *want)
{
	cmd_result r;
	char path[4200], exp[512], at[64], *div;
	long long t_div, t_hang;
	long said;

	/* Every line of pvmmon's stderr stamped as it comes (ns), then its status. */
	harness_sh(&r, RUN_TIMEOUT,
	           "cd '%s' && { %s/pvmmon replay rec.xml -q -o %s.xml -- %s/rhang %s 2>&1 "
	           ">/dev/null; echo \"status $?\"; } | while IFS= read -r l; do "
	           "printf '%%s %%s\\n' \"$(date +%%s%%N)\" \"$l\"; done",
	           dir, harness_bin(), mode, harness_bin(), mode);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "status 3\n"));
	div = strstr(r.out, "pvmmon: replay diverged: task 0 (t");
	CU_ASSERT_PTR_NOT_NULL_FATAL(div);
	snprintf(at, sizeof(at), "event 2 at apps/rhang.c:%d in main (pvm_recv)",
	         rhang_line("RHANG-MASTER"));
	CU_ASSERT_PTR_NOT_NULL(strstr(div, at));
	snprintf(exp, sizeof(exp),
	         "expected pvm_recv took a message from task 0.0 with tag 1 "
	         "(sequence +0); observed no message from task 0.0 with tag 1 "
	         "can come: %s",
	         want);
	CU_ASSERT_PTR_NOT_NULL(strstr(div, exp));
	/*
	 * The hang module's own line says how long after the last block it decided; the
	 * divergence follows at the master's next look (a 100 ms step) and one message
	 * to the monitor: about 0.3 s from the block in all. 2 s leaves well over a second
	 * for the scheduling delays of a busy 2-CPU machine.
	 */
	t_div = stamp_of(r.out, "pvmmon: replay diverged");
	t_hang = stamp_of(r.out, "after the last task blocked");
	said = hang_said(r.out);
	CU_ASSERT(t_hang > 0 && said >= 0);
	CU_ASSERT(t_div - t_hang + said * 1000000LL <= 2000000000LL);
	fprintf(stderr, "\n  rhang %s: divergence %lld ms after the block", mode,
	        (t_div - t_hang) / 1000000 + said);
	/* The log is written, and names every task, none of which runs. */
	snprintf(path, sizeof(path), "%s/%s.xml", dir, mode);
	CU_ASSERT_EQUAL(tasks_running(path), 0);
	if (!strstr(r.out, "status 3\n") || !strstr(div, exp))
		fprintf(stderr, "\n%s\n", r.out);
	cmd_result_free(&r);
}

/*
 * A changed program whose recorded message can never come: the worker now sends
 * another tag (once, or 20 times) and waits for the master, which waits for the
 * recorded tag; or the worker ends without sending (exits, or is killed by a signal).
 * The replay stops at once with a divergence that says what the worker does (exit
 * status 3, the log written, nothing left running), where it used to wait for ever;
 * told to go on, it makes the program's own receive.
 */
static void test_message_that_cannot_come(void)
{
	const char *dir = harness_tmpdir();
	cmd_result r;
	char want[256];

	harness_sh(&r, RUN_TIMEOUT, "cd '%s' && %s/pvmmon run -q -o rec.xml -- %s/rhang same", dir,
	           harness_bin(), harness_bin());
	CU_ASSERT_EQUAL_FATAL(r.status, 0);
	CU_ASSERT_STRING_EQUAL(r.out, "rhang: tag 1 from the worker\n");
	cmd_result_free(&r);
	snprintf(want, sizeof(want),
	         "task 0.0 waits at rhang.c:%d for tag 9 from 0, and nothing it waits for can "
	         "come; a message from it with tag 2 is queued here, unreceived",
	         rhang_line("RHANG-WORKER"));
	replay_cannot_come(dir, "other", want);
	/* 20 messages of the other tag: more than a wait report lists, all counted. */
	replay_cannot_come(dir, "many", want);
	replay_cannot_come(dir, "exit",
	                   "task 0.0 has ended (it exited) and nothing it sent is on its way");
	replay_cannot_come(dir, "abort",
	                   "task 0.0 has ended (killed by SIGABRT) and nothing it sent is on its "
	                   "way");
	/* Going on past it, the program's own receive takes what did come. */
	harness_sh(&r, RUN_TIMEOUT,
	           "cd '%s' && %s/pvmmon replay rec.xml -q -o on.xml "
	           "--on-divergence=continue-recording -- %s/rhang other",
	           dir, harness_bin(), harness_bin());
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_STRING_EQUAL(r.out, "rhang: tag 2 from the worker\n");
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "can come: task 0.0 waits at rhang.c:"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "(going on, recording)"));
	cmd_result_free(&r);
}

/* A changed program stops where its handler deliveries first differ from the record:
 * a handler deleted half way, or one extra handled message. */
static void test_handler_divergence(void)
{
	const char *dir = harness_tmpdir();
	cmd_result r;

	harness_sh(&r, RUN_TIMEOUT, "cd '%s' && %s/pvmmon run -q -o rec.xml -- %s/mhf", dir,
		   harness_bin(), harness_bin());
	CU_ASSERT_EQUAL_FATAL(r.status, 0);
	cmd_result_free(&r);
	harness_sh(&r, RUN_TIMEOUT, "cd '%s' && %s/pvmmon replay rec.xml -q -o d.xml -- %s/mhf -d",
		   dir, harness_bin(), harness_bin());
	CU_ASSERT_EQUAL(r.status, 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "replay diverged: task 0 (t"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, ", event "));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "mhf.c:"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "expected a message handler took a message from task 0."));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "with tag 42"));
	fprintf(stderr, "\n  %s", r.err);
	cmd_result_free(&r);
	harness_sh(&r, RUN_TIMEOUT, "cd '%s' && %s/pvmmon replay rec.xml -q -o x.xml -- %s/mhf -x",
		   dir, harness_bin(), harness_bin());
	CU_ASSERT_EQUAL(r.status, 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "replay diverged: task 0 (t"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "from task 0.0"));
	fprintf(stderr, "\n  %s", r.err);
	cmd_result_free(&r);
}

/* The tid logical task lid had in the log at path (0 if none). */
static int tid_in_log(const char *path, const char *lid)
{
	pvmmon_log *log = NULL;
	int tid = 0;

	if (pvmmon_log_read(&log, path) != 0)
		return 0;
	for (size_t i = 0; i < log->ntasks; i++)
		if (log->tasks[i].lid && !strcmp(log->tasks[i].lid, lid))
			tid = log->tasks[i].tid;
	pvmmon_log_free(log);
	return tid;
}

/*
 * pvmd's exit notifications share a tag with the workers' results: the replay forces
 * where each comes and which worker's exit it is. The runs share one VM (the test's
 * own, --attach), so every run's tasks have new tids: each notify message must name
 * the replay's tid of the recorded task, or the program prints x? for it.
 */
static void test_notify_messages(void)
{
	const char *dir = harness_tmpdir();
	const char *ep[] = {harness_bin()};
	pvmmon_vm_opts opts = {0};
	pvmmon_vm *vm = NULL;
	char program[512], path[4096];
	const char *t = getenv("PVM_TMP"), *root = getenv("PVM_ROOT");
	char *saved_tmp = t ? strdup(t) : NULL, *saved_root = root ? strdup(root) : NULL;
	int rec_tid, rep_tid;
	char *rec;

	opts.ep_dirs = ep;
	opts.nep_dirs = 1;
	opts.workdir = dir;
	if (pvmmon_vm_start(&vm, &opts) < 0) {
		CU_FAIL("private VM did not start");
		goto out;
	}
	pvmmon_vm_apply_env(vm);
	snprintf(program, sizeof(program), "%s/notify", harness_bin());
	rec = record_and_replay_program(dir, "--attach", program, "notify: ", "notify");
	/* 3 workers, each with 2 results and an exit named by a tid of its own run. */
	CU_ASSERT_EQUAL(harness_count(rec, " r"), 6);
	CU_ASSERT_EQUAL(harness_count(rec, " x"), 3);
	CU_ASSERT_PTR_NULL(strstr(rec, "x?"));
	free(rec);
	snprintf(path, sizeof(path), "%s/rec.xml", dir);
	rec_tid = tid_in_log(path, "0.0");
	snprintf(path, sizeof(path), "%s/rep.xml", dir);
	rep_tid = tid_in_log(path, "0.0");
	CU_ASSERT(rec_tid > 0 && rep_tid > 0 && rec_tid != rep_tid);
	CU_ASSERT_EQUAL(pvmmon_vm_halt(vm), 0);
out:
	if (saved_tmp)
		setenv("PVM_TMP", saved_tmp, 1);
	else
		unsetenv("PVM_TMP");
	if (saved_root)
		setenv("PVM_ROOT", saved_root, 1);
	else
		unsetenv("PVM_ROOT");
	free(saved_tmp);
	free(saved_root);
}

/* A changed program stops at its first divergent event, with the task, the event, the
 * statement, and what was expected and observed. */
static void test_divergence_reports(void)
{
	const char *dir = harness_tmpdir();
	cmd_result r;

	harness_sh(&r, RUN_TIMEOUT, "cd '%s' && %s/pvmmon run -q -o rec.xml -- %s/race",
		   dir, harness_bin(), harness_bin());
	CU_ASSERT_EQUAL_FATAL(r.status, 0);
	cmd_result_free(&r);
	/* One extra message from the first worker: the sequence numbers show it. */
	harness_sh(&r, RUN_TIMEOUT, "cd '%s' && %s/pvmmon replay rec.xml -q -o x.xml -- %s/race -x",
		   dir, harness_bin(), harness_bin());
	CU_ASSERT_EQUAL(r.status, 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "replay diverged: task 0 (t"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "race.c:"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "(pvm_recv): expected pvm_recv took a message from "
					     "task 0.0"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "(sequence +1)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, ", event "));
	fprintf(stderr, "\n  %s", r.err);
	cmd_result_free(&r);
	/* A message with another tag. */
	harness_sh(&r, RUN_TIMEOUT, "cd '%s' && %s/pvmmon replay rec.xml -q -o t.xml -- %s/race -t",
		   dir, harness_bin(), harness_bin());
	CU_ASSERT_EQUAL(r.status, 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "replay diverged: task 0 (t"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "observed pvm_recv took a message from task 0.0"));
	cmd_result_free(&r);
	/* A different call where the record has a receive: the mode changes the call. */
	harness_sh(&r, RUN_TIMEOUT,
		   "cd '%s' && %s/pvmmon replay rec.xml -q -o m.xml -- %s/race -m nrecv",
		   dir, harness_bin(), harness_bin());
	CU_ASSERT_EQUAL(r.status, 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "observed a call of pvm_nrecv"));
	cmd_result_free(&r);
	/* Going on past a divergence makes the rest a new recording, which replays. */
	harness_sh(&r, RUN_TIMEOUT,
		   "cd '%s' && %s/pvmmon replay rec.xml -q -o new.xml "
		   "--on-divergence=continue-recording -- %s/race -t >new.out && "
		   "PVMMON_TEST_JITTER=3000 %s/pvmmon replay new.xml -q -o again.xml -- %s/race -t "
		   ">again.out && cmp new.out again.out",
		   dir, harness_bin(), harness_bin(), harness_bin(), harness_bin());
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "(going on, recording)"));
	cmd_result_free(&r);
}

/* A damaged record, a log of another program, a log without a record, and a bad
 * --stop-at are refused before the program starts (nothing runs: no output). */
static void test_bad_records_refused(void)
{
	const char *dir = harness_tmpdir();
	cmd_result r;

	harness_sh(&r, RUN_TIMEOUT,
		   "cd '%s' && %s/pvmmon run -q -o rec.xml -- %s/race >/dev/null && "
		   "%s/pvmmon run -q --no-record -o none.xml -- %s/race >/dev/null && "
		   "sed 's/\\(<record[^>]*>\\)A/\\1B/; s/\\(<record[^>]*>\\)[^A]/\\1A/' rec.xml >bad.xml && "
		   "head -c 600 rec.xml >cut.xml",
		   dir, harness_bin(), harness_bin(), harness_bin(), harness_bin());
	CU_ASSERT_EQUAL_FATAL(r.status, 0);
	cmd_result_free(&r);
	harness_sh(&r, RUN_TIMEOUT, "cd '%s' && %s/pvmmon replay bad.xml -- %s/race", dir,
		   harness_bin(), harness_bin());
	CU_ASSERT_NOT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "bad.xml"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "record"));
	CU_ASSERT_PTR_NULL(strstr(r.out, "race:"));
	cmd_result_free(&r);
	harness_sh(&r, RUN_TIMEOUT, "cd '%s' && %s/pvmmon replay cut.xml -- %s/race", dir,
		   harness_bin(), harness_bin());
	CU_ASSERT_NOT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "cut.xml"));
	cmd_result_free(&r);
	harness_sh(&r, RUN_TIMEOUT, "cd '%s' && %s/pvmmon replay rec.xml -- %s/mcpi", dir,
		   harness_bin(), harness_bin());
	CU_ASSERT_NOT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "the record is of race, not of mcpi"));
	CU_ASSERT_PTR_NULL(strstr(r.out, "mcpi:"));
	cmd_result_free(&r);
	harness_sh(&r, RUN_TIMEOUT, "cd '%s' && %s/pvmmon replay none.xml -- %s/race", dir,
		   harness_bin(), harness_bin());
	CU_ASSERT_NOT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "kept no replay record"));
	cmd_result_free(&r);
	harness_sh(&r, RUN_TIMEOUT, "cd '%s' && %s/pvmmon replay rec.xml --stop-at 0 -- %s/race",
		   dir, harness_bin(), harness_bin());
	CU_ASSERT_EQUAL(r.status, 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "--stop-at wants TASK:EVENT"));
	cmd_result_free(&r);
}

/* --stop-at stops the task before the event and prints its pid; once continued, the
 * replay ends as recorded. */
static void test_stop_at(void)
{
	const char *dir = harness_tmpdir();
	cmd_result r;

	harness_sh(&r, RUN_TIMEOUT,
		   "cd '%s' && %s/pvmmon run -q -o rec.xml -- %s/race >rec.out && "
		   "{ %s/pvmmon replay rec.xml -q -o rep.xml --stop-at 0:3 -- %s/race >rep.out "
		   "2>rep.err & } && i=0; while ! grep -q 'pid [0-9]' rep.err 2>/dev/null && "
		   "[ $i -lt 200 ]; do sleep 0.1; i=$((i+1)); done; "
		   "pid=$(grep -o 'pid [0-9]*' rep.err | head -1 | cut -d' ' -f2); "
		   "grep State /proc/$pid/status; kill -CONT $pid; "
		   "i=0; while [ -e rep.xml.run ] || [ ! -s rep.out ]; do sleep 0.1; i=$((i+1)); "
		   "[ $i -gt 300 ] && break; done; cat rep.err; cmp rec.out rep.out && echo SAME",
		   dir, harness_bin(), harness_bin(), harness_bin(), harness_bin());
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "State:\tT (stopped)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "is stopped before event 3 at"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "goes on; so do the others"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "SAME"));
	if (!strstr(r.out, "SAME"))
		fprintf(stderr, "\n%s\n%s\n", r.out, r.err);
	cmd_result_free(&r);
}

/* --stop-at stops the master of mcpi (two workers, chunks of about 150 ms) before its
 * fourth event (the first is its clock read, the second the spawn), the second
 * worker's first request: that
 * worker waits for its chunk anyway, and the first, computing its chunk, finishes it and holds at its next receive
 * instead of running on (it says so, with its statement). When the master is
 * continued, all go on and the replay ends as recorded. */
/* How many lines of out say that a worker holds at a statement of apps/mcpi-worker.c. */
static int worker_holds(const char *out)
{
	int n = 0;

	for (const char *l = out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		const char *h = strstr(l, " holds before event "), *e = strchr(l, '\n');

		if (h && (!e || h < e) && strstr(h, " at apps/mcpi-worker.c:") &&
		    (!e || strstr(h, " at apps/mcpi-worker.c:") < e))
			n++;
	}
	return n;
}

static void test_stop_at_holds_others(void)
{
	const char *dir = harness_tmpdir();
	cmd_result r;

	harness_sh(&r, RUN_TIMEOUT,
		   "cd '%s' && P='%s/mcpi -w 2 -c 10 -s 20000000' && "
		   "%s/pvmmon run -q -o hrec.xml -- $P >hrec.out && "
		   "{ %s/pvmmon replay hrec.xml -q -o hrep.xml --stop-at 0:4 -- $P >hrep.out "
		   "2>hrep.err & } && i=0; while [ $(grep -c ' holds before event' hrep.err "
		   "2>/dev/null) -lt 1 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done; "
		   "sleep 0.5; "
		   "pid=$(grep -o 'pid [0-9]*' hrep.err | head -1 | cut -d' ' -f2); "
		   "grep State /proc/$pid/status; kill -CONT $pid; "
		   "i=0; while [ -e hrep.xml.run ] || [ ! -s hrep.out ]; do sleep 0.1; i=$((i+1)); "
		   "[ $i -gt 300 ] && break; done; cat hrep.err; cmp hrec.out hrep.out && echo SAME",
		   dir, harness_bin(), harness_bin(), harness_bin());
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "State:\tT (stopped)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "task 0 (t"));
	/* Events count mcpi's clock read at its start (event 1) and the worker's. */
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "is stopped before event 4 at apps/mcpi.c:"));
	/* The first worker holds; the second too when it had its chunk before the stop
	 * (how the two requests interleave varies). Its event number counts its clock
	 * reads, which are not recorded under the sanitizers (pvmhooks/sources.c). */
	CU_ASSERT(worker_holds(r.out) >= 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "goes on; so do the others"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "SAME"));
	if (!strstr(r.out, "SAME") || harness_count(r.out, " holds before event") < 1)
		fprintf(stderr, "\n%s\n%s\n", r.out, r.err);
	cmd_result_free(&r);
}

/* PVM's own example master1 (Debian's binary, preloaded) takes its workers' results
 * with a wildcard source: replayed, it prints them in the recorded order. */
static void test_pvm_example_replays(void)
{
	const char *dir = harness_tmpdir();
	cmd_result r;

	if (access("/usr/bin/master1", X_OK) != 0) {
		CU_FAIL("pvm-examples is not installed (scripts/setup.sh installs it)");
		return;
	}
	harness_sh(&r, RUN_TIMEOUT,
		   "cd '%s' && PVMMON_TEST_JITTER=2000 %s/pvmmon run -q -o m.xml -- master1 >rec.out && "
		   "for i in 1 2 3 4 5; do PVMMON_TEST_JITTER=2000 %s/pvmmon replay m.xml -q -o r.xml "
		   "-- master1 >rep.out && cmp rec.out rep.out || exit 1; done && grep -c 'I got' rec.out",
		   dir, harness_bin(), harness_bin());
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_EQUAL(atoi(r.out), 3);
	cmd_result_free(&r);
}

/* Group instance numbers (libgpvm3) follow the join order: a replay makes each task join
 * in its recorded turn, so every member gets its recorded instance. */
static void test_group_instances(void)
{
	const char *dir = harness_tmpdir();
	cmd_result r;

	harness_sh(&r, RUN_TIMEOUT,
		   "cd '%s' && PVMMON_TEST_JITTER=2000 %s/pvmmon run -q -o g.xml -- %s/groups >rec.out && "
		   "grep -c '<record' g.xml && for i in 1 2 3; do PVMMON_TEST_JITTER=2000 "
		   "%s/pvmmon replay g.xml -q -o r.xml -- %s/groups >rep.out && cmp rec.out rep.out || "
		   "exit 1; done && cat rec.out",
		   dir, harness_bin(), harness_bin(), harness_bin(), harness_bin());
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "groups: 4 members"));
	if (r.status)
		fprintf(stderr, "\n%s%s\n", r.out, r.err);
	cmd_result_free(&r);
}

/*
 * gjoin: 12 nodes spawned at once join a group; their instances, the group's size each
 * saw after its join, the leader (instance 0) and the ring by instance (pvm_gettid)
 * vary from run to run. Recorded once, 3 replays print the recorded assignment; so do
 * 3 replays of a run where the odd instances leave and join again (instances reused).
 * Each run takes about a second here; the whole test stays under 30 s on a loaded
 * 2-CPU machine.
 */
static void test_group_answers(void)
{
	const char *dir = harness_tmpdir();
	char prog[512], *rec, *out;
	int st, distinct = 0;

	snprintf(prog, sizeof(prog), "%s/gjoin -n 12", harness_bin());
	rec = pvmmon_out(dir, &st, "run -q -o g.xml -- %s%s", prog, "");
	CU_ASSERT_EQUAL_FATAL(st, 0);
	CU_ASSERT_EQUAL(harness_count(rec, ": instance "), 12);
	CU_ASSERT_PTR_NOT_NULL(strstr(rec, "leader: node "));
	/* Unrecorded, the assignment (or a size seen) changes. */
	for (int i = 0; i < 2; i++) {
		out = pvmmon_out(dir, &st, "run -q --no-record -o free.xml -- %s%s", prog, "");
		distinct += strcmp(out, rec) != 0;
		free(out);
	}
	CU_ASSERT(distinct > 0);
	for (int i = 0; i < 3; i++) {
		out = pvmmon_out(dir, &st, "replay g.xml -q -o r.xml -- %s%s", prog, "");
		CU_ASSERT_EQUAL(st, 0);
		CU_ASSERT_STRING_EQUAL(out, rec);
		if (st != 0 || strcmp(out, rec))
			fprintf(stderr, "\n  replay %d:\n%s(recorded:\n%s)", i, out, rec);
		free(out);
	}
	free(rec);
	/* Leaving and joining again: the freed instances go to whoever comes back first. */
	rec = pvmmon_out(dir, &st, "run -q -o gr.xml -- %s -r%s", prog, "");
	CU_ASSERT_EQUAL_FATAL(st, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(rec, "(first "));
	for (int i = 0; i < 3; i++) {
		out = pvmmon_out(dir, &st, "replay gr.xml -q -o r.xml -- %s -r%s", prog, "");
		CU_ASSERT_EQUAL(st, 0);
		CU_ASSERT_STRING_EQUAL(out, rec);
		if (st != 0 || strcmp(out, rec))
			fprintf(stderr, "\n  rejoin replay %d:\n%s(recorded:\n%s)", i, out, rec);
		free(out);
	}
	free(rec);
}

/* A changed program that joins another group diverges at its join, and the report
 * names the task, the statement, the recorded group and instance and the call made. */
static void test_group_divergence(void)
{
	const char *dir = harness_tmpdir();
	cmd_result r;

	harness_sh(&r, RUN_TIMEOUT,
		   "cd '%s' && %s/pvmmon run -q -o g.xml -- %s/gjoin -n 4 >/dev/null && "
		   "%s/pvmmon replay g.xml -q -o r.xml -- %s/gjoin -n 4 -g other",
		   dir, harness_bin(), harness_bin(), harness_bin(), harness_bin());
	CU_ASSERT_EQUAL(r.status, 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "replay diverged: task 0."));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "at apps/gjoin.c:"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "(pvm_joingroup): expected "
					     "pvm_joingroup(\"pvmmon-gjoin\") gave instance "));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "observed a call of pvm_joingroup(\"other\")"));
	if (r.status != 3)
		fprintf(stderr, "\n%s%s\n", r.out, r.err);
	cmd_result_free(&r);
}

CU_TestInfo test_replay_tests[] = {
    {"wildcard receives: runs vary, 20 of 20 replays identical", test_wildcard_receives},
    {"polling with pvm_nrecv: 20 of 20 replays identical", test_polling_nrecv},
    {"pvm_trecv timeouts: 20 of 20 replays identical", test_trecv_timeouts},
    {"a forced receive waits for a long computation: no divergence",
     test_long_wait_is_no_divergence},
    {"a pvm_addmhf handler that answers: no hang, 20 of 20 replays identical",
     test_handler_answers},
    {"pvm_addmhf handler deliveries: runs vary, 20 of 20 replays identical",
     test_handler_deliveries},
    {"changed handler deliveries diverge with a report", test_handler_divergence},
    {"a recorded message that cannot come: a divergence within 2 s, nothing left",
     test_message_that_cannot_come},
    {"pvmd exit notifications (new tids each run): 20 of 20 replays identical",
     test_notify_messages},
    {"changed programs diverge with a precise report", test_divergence_reports},
    {"damaged, foreign and missing records are refused", test_bad_records_refused},
    {"--stop-at stops a task for a debugger", test_stop_at},
    {"--stop-at: the other tasks hold at their next receive", test_stop_at_holds_others},
    {"PVM example master1 replays", test_pvm_example_replays},
    {"group instance numbers replay", test_group_instances},
    {"group answers (instances, members, sizes, rejoins): 3 of 3 replays identical",
     test_group_answers},
    {"a join of another group diverges with a report", test_group_divergence},
    CU_TEST_INFO_NULL,
};
