/* pvmmon-monitor: the PVM task that registers a program's tasks, collects their
 * records and writes the run's XML log. */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <pvm3.h>

#include "../common/clock.h"
#include "../common/histo.h"
#include "../common/pvmio.h"
#include "../common/wire.h"
#include "capacity.h"
#include "cost.h"
#include "cpsearch.h"
#include "ending.h"
#include "hang.h"
#include "logbuild.h"
#include "preserve.h"
#include "pvmmon/errors.h"
#include "registry.h"
#include "rrmon.h"
#include "run.h"
#include "tasks.h"

/* How long one receive waits before the loop looks at its other duties. */
#define POLL_MS 50
/* In auto mode the run is over once every task has ended and nothing new came. */
#define AUTO_GRACE_NS 1000000000LL

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

static void usage(FILE *f)
{
	fprintf(f,
	        "usage: pvmmon-monitor --log FILE [--auto] [--flush-ms N] [--linger-ms N]\n"
	        "                      [--checkpoint-ms N] [--trace-bytes N]\n"
	        "                      [--cp PROC,...|auto [--cp-exclusive]] [--cp-top M]\n"
	        "                      [--cp-phase-ms N] [--no-record | --replay LOG\n"
	        "                      [--on-divergence stop|continue-recording]\n"
	        "                      [--stop-at TASK:EVENT]]\n"
	        "                      [--preserve] [--deadlock-abort] [--budget PCT]\n"
	        "                      [--hist-buckets N] [--hist-width-ns NS] [--hist-hottest N]\n"
	        "                      [--no-histograms] [--histogram METRIC:FOCUS,...]\n"
	        "                      [--program P [--arg A]...]\n"
	        "Started by `pvmmon run` (which controls it through standard input) or, with\n"
	        "--auto, by the first monitored task of a program that found no monitor.\n");
}

/* Reads `pvmmon run`'s lines on standard input: `group PGID` (the program's process
 * group, told at its start) and `end CODE`. Each comes in one write of a few bytes, so a
 * read holds whole lines, one or more. */
static void read_control(mon_run *run)
{
	struct pollfd p = {0, POLLIN, 0};
	char buf[256], *line, *save = NULL;
	ssize_t n;

	if (run->auto_mode || run->ended || poll(&p, 1, 0) <= 0)
		return;
	n = read(0, buf, sizeof(buf) - 1);
	if (n <= 0) {
		/* pvmmon run went away: treat it as the end of the program. */
		run->ended = 1;
		run->exit_code = -1;
		run->t_ended = pvmmon_clock_now();
		return;
	}
	buf[n] = '\0';
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "group ", 6) == 0) {
			run->group = (int32_t)atol(line + 6);
		} else if (strncmp(line, "end", 3) == 0 && !run->ended) {
			run->ended = 1;
			run->exit_code = atoi(line + 3);
			run->t_ended = pvmmon_clock_now();
		}
	}
}

/* A token nobody else can guess: from the kernel's random source. */
static uint64_t new_token(void)
{
	uint64_t t = 0;
	FILE *f = fopen("/dev/urandom", "rb");

	if (!f || fread(&t, sizeof(t), 1, f) != 1)
		t = (uint64_t)pvmmon_clock_now() * 0x9e3779b97f4a7c15ull ^ (uint64_t)getpid();
	if (f)
		fclose(f);
	return t ? t : 1;
}

static int finished(mon_run *run, int64_t now)
{
	/* A replay that diverged stops at once; its tasks are told to stop (SIGTERM, as
	 * an interrupt does) without waiting for their last records: the divergence has
	 * made the rest of the run of no use, and a task of the user's own virtual machine
	 * must not be left running. */
	if (run->diverged) {
		ending__stop(run, now);
		return 1;
	}
	/* Stopped, or a hang with --on-hang=abort: the tasks' last records come first
	 * (ending.c). */
	if (stop_requested || run->deadlocked) {
		ending__stop(run, now);
		return ending__stop_done(run, now);
	}
	if (run->auto_mode)
		return tasks__count(run) > 0 && tasks__all_done(run) &&
		       now - run->t_last_change > AUTO_GRACE_NS;
	if (!run->ended)
		return 0;
	/* Without its pvmd the monitor learns of no more exits: what it knows is all. */
	return tasks__all_done(run) || run->pvmd_lost || now - run->t_ended > run->linger_ns;
}

static int publish(mon_run *run)
{
	wire_mailbox mb = {run->mytid, run->ctx, run->flush_ms, run->trace_events, run->token};
	wire_buf b;
	int sb, rc;

	wire__buf_init(&b);
	wire__mailbox_encode(&b, &mb);
	sb = pvm_initsend(PvmDataRaw);
	pvm_pkbyte((char *)b.data, (int)b.len, 1);
	rc = pvm_putinfo(WIRE_MAILBOX_NAME, sb, PvmMboxDefault);
	wire__buf_free(&b);
	return rc;
}

/* The real transport: PVM's own send (in the run's context) and exit notification. */
static int pvm_bytes_send(int ctx, int tid, int tag, const void *data, size_t len)
{
	static const pvmio_fns fns = {pvm_send, pvm_recv, pvm_trecv};

	return pvmio__send(&fns, ctx, tid, tag, data, len);
}

static int pvm_exit_notify(int32_t tid)
{
	int t = tid;

	return pvm_notify(PvmTaskExit, WIRE_TAG_TASKEXIT, 1, &t);
}

static int pvm_signal_task(int32_t tid, int sig)
{
	return pvm_sendsig(tid, sig) < 0 ? PVMMON_EPVM : 0;
}

/* The name pvm_config gives the host of pvmd dtid, into buf; 0, or PVMMON_EPVM. */
static int pvm_host_name(int32_t dtid, char *buf, size_t size)
{
	struct pvmhostinfo *hosts;
	int nhost = 0, narch = 0;

	if (pvm_config(&nhost, &narch, &hosts) < 0)
		return PVMMON_EPVM;
	for (int i = 0; i < nhost; i++)
		if (hosts[i].hi_tid == dtid && hosts[i].hi_name) {
			snprintf(buf, size, "%s", hosts[i].hi_name);
			return 0;
		}
	return PVMMON_EPVM;
}

static const mon_io pvm_io = {pvm_bytes_send, pvm_exit_notify, pvm_signal_task, pvm_host_name};

/* An option's setter says GO_ON, or the status the monitor then exits with. */
#define GO_ON -1

static int opt_budget(mon_run *run, const char *arg)
{
	char *end;

	run->budget_pct = strtod(arg, &end);
	if (*end == '%')
		end++;
	if (*end || !(run->budget_pct > 0 && run->budget_pct <= 100)) {
		fprintf(stderr,
		        "pvmmon-monitor: --budget wants a percentage above 0 and at most 100, "
		        "not '%s'\n",
		        arg);
		return 2;
	}
	return GO_ON;
}

static int opt_stop_at(mon_run *run, const char *arg)
{
	const char *colon = strrchr(arg, ':');

	if (!colon || !colon[1]) {
		fprintf(stderr, "pvmmon-monitor: --stop-at wants TASK:EVENT\n");
		return 2;
	}
	free(run->stop_lid);
	run->stop_lid = strndup(arg, (size_t)(colon - arg));
	run->stop_event = strtoull(colon + 1, NULL, 10);
	return GO_ON;
}

static int opt_replay(mon_run *run, const char *arg)
{
	if (pvmmon_log_read(&run->replay_log, arg) < 0) {
		fprintf(stderr, "pvmmon-monitor: %s\n", pvmmon_error_last());
		return 2;
	}
	run->rr_mode = 2;
	return GO_ON;
}

static int opt_arg(mon_run *run, const char *arg)
{
	char **a = realloc(run->args, (run->nargs + 1) * sizeof(*a));

	if (!a)
		return 1;
	run->args = a;
	run->args[run->nargs++] = (char *)arg;
	return GO_ON;
}

static int opt_cp(mon_run *run, const char *arg)
{
	free(run->cp_procs);
	run->cp_procs = strdup(arg);
	return GO_ON;
}

static int opt_divergence(mon_run *run, const char *arg)
{
	run->rr_continue = !strcmp(arg, "continue-recording");
	return GO_ON;
}

static int opt_histogram(mon_run *run, const char *arg)
{
	if (histo__spec_check(arg, 32, 0) < 0) {
		fprintf(stderr, "pvmmon-monitor: --histogram: %s\n", pvmmon_error_last());
		return 2;
	}
	free(run->hist_run);
	run->hist_run = strdup(arg);
	return GO_ON;
}

static int opt_hist_width(mon_run *run, const char *arg)
{
	char *end;

	run->hist_width_ns = strtoll(arg, &end, 10);
	if (*end || run->hist_width_ns < 1000) {
		fprintf(stderr, "pvmmon-monitor: --hist-width-ns wants at least 1000, not '%s'\n",
		        arg);
		return 2;
	}
	return GO_ON;
}

static int opt_hist_buckets(mon_run *run, const char *arg)
{
	char *end;
	unsigned long n = strtoul(arg, &end, 10);

	if (*end || n < 2 || n > WIRE_HIST_MAX_BUCKETS) {
		fprintf(stderr, "pvmmon-monitor: --hist-buckets wants 2 to %u, not '%s'\n",
		        WIRE_HIST_MAX_BUCKETS, arg);
		return 2;
	}
	run->hist_buckets = (uint32_t)n;
	return GO_ON;
}

static int opt_help(mon_run *run, const char *arg)
{
	(void)run;
	(void)arg;
	usage(stdout);
	return 0;
}

static int opt_version(mon_run *run, const char *arg)
{
	(void)run;
	(void)arg;
	printf("pvmmon-monitor %s\n", PVMMON_VERSION);
	return 0;
}

/* How an option sets the run: a field (at off) set to val, a number, milliseconds
 * kept in ns, the argument itself, a setter of the argument, or an action without
 * one. */
enum opt_kind { SET, U32, U64, MS, STR, FN, ACT };

static const struct opt {
	const char *name;
	enum opt_kind kind;
	size_t off;
	int val;
	int (*fn)(mon_run *run, const char *arg);
} opts[] = {
    {"log", STR, offsetof(mon_run, log_path), 0, NULL},
    {"auto", SET, offsetof(mon_run, auto_mode), 1, NULL},
    {"flush-ms", U32, offsetof(mon_run, flush_ms), 0, NULL},
    {"linger-ms", MS, offsetof(mon_run, linger_ns), 0, NULL},
    {"checkpoint-ms", MS, offsetof(mon_run, checkpoint_ns), 0, NULL},
    {"program", STR, offsetof(mon_run, program), 0, NULL},
    {"arg", FN, 0, 0, opt_arg},
    {"trace-bytes", U64, offsetof(mon_run, trace_bytes), 0, NULL},
    {"cp", FN, 0, 0, opt_cp},
    {"cp-exclusive", SET, offsetof(mon_run, cp_exclusive), 1, NULL},
    {"cp-top", U32, offsetof(mon_run, cp_top_m), 0, NULL},
    {"cp-phase-ms", MS, offsetof(mon_run, cp_phase_ns), 0, NULL},
    {"no-record", SET, offsetof(mon_run, rr_mode), 0, NULL},
    {"replay", FN, 0, 0, opt_replay},
    {"on-divergence", FN, 0, 0, opt_divergence},
    {"stop-at", FN, 0, 0, opt_stop_at},
    {"preserve", SET, offsetof(mon_run, preserve), 1, NULL},
    {"deadlock-abort", SET, offsetof(mon_run, on_deadlock_abort), 1, NULL},
    {"budget", FN, 0, 0, opt_budget},
    {"hist-buckets", FN, 0, 0, opt_hist_buckets},
    {"hist-width-ns", FN, 0, 0, opt_hist_width},
    {"hist-hottest", U32, offsetof(mon_run, hist_hottest), 0, NULL},
    {"no-histograms", SET, offsetof(mon_run, hist_off), 1, NULL},
    {"histogram", FN, 0, 0, opt_histogram},
    {"help", ACT, 0, 0, opt_help},
    {"version", ACT, 0, 0, opt_version},
};

#define NOPTS (sizeof(opts) / sizeof(opts[0]))

static int set_option(mon_run *run, const struct opt *o, const char *arg)
{
	char *field = (char *)run + o->off;

	switch (o->kind) {
	case SET:
		*(int *)field = o->val;
		break;
	case U32:
		*(uint32_t *)field = (uint32_t)atoi(arg);
		break;
	case U64:
		*(uint64_t *)field = strtoull(arg, NULL, 10);
		break;
	case MS:
		*(int64_t *)field = (int64_t)atoi(arg) * 1000000;
		break;
	case STR:
		*(const char **)field = arg;
		break;
	case FN:
	case ACT:
		return o->fn(run, arg);
	}
	return GO_ON;
}

/* Sets the run from the command line (getopt_long over the table, whose index is each
 * option's value) and what follows from it. GO_ON or the status to exit with. */
static int parse_options(mon_run *run, int argc, char **argv)
{
	struct option lo[NOPTS + 1];
	int c, rc;

	for (size_t i = 0; i < NOPTS; i++) {
		int arg =
		    opts[i].kind == SET || opts[i].fn == opt_help || opts[i].fn == opt_version;

		lo[i] = (struct option){opts[i].name, arg ? no_argument : required_argument, NULL,
		                        (int)i};
	}
	lo[NOPTS] = (struct option){NULL, 0, NULL, 0};
	while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		if (c < 0 || (size_t)c >= NOPTS) {
			usage(stderr);
			return 2;
		}
		if ((rc = set_option(run, &opts[c], optarg)) != GO_ON)
			return rc;
	}
	if (!run->log_path || run->flush_ms == 0) {
		usage(stderr);
		return 2;
	}
	if (run->cp_procs && !strcmp(run->cp_procs, "auto")) {
		/* The selection comes after a first phase (cpsearch.c). */
		free(run->cp_procs);
		run->cp_procs = NULL;
		run->cp_auto = 1;
	}
	if (run->preserve && preserve__init(run) < 0) {
		fprintf(stderr, "pvmmon-monitor: out of memory\n");
		return 1;
	}
	if (run->cp_phase_ns <= 0)
		run->cp_phase_ns = 2000000000LL;
	if (run->cp_procs) {
		/* Collection runs from the start: generation 1. */
		run->cp_gen = 1;
		run->cp_collecting = 1;
		run->cp_to_ns = -1;
	}
	run->trace_events = run->trace_bytes / MON_TRACE_EVENT_XML_BYTES;
	if (run->trace_bytes && !run->trace_events)
		run->trace_events = 1;
	return GO_ON;
}

/* Starts the run: signals, the clock, the first rule, enrolling in PVM and publishing
 * the monitor in the VM's mailbox. GO_ON or the status to exit with. */
static int start(mon_run *run)
{
	struct tm tm;
	time_t now_wall;

	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	signal(SIGPIPE, SIG_IGN);
	/* Under a file size limit (RLIMIT_FSIZE) a log too big for it then fails to write
	 * with EFBIG, which the log writer handles like a full disk (its temporary file
	 * removed, the older log kept, the reason said), instead of the signal killing
	 * the monitor in the middle of the write and leaving the temporary file behind. */
	signal(SIGXFSZ, SIG_IGN);

	run->t_start = pvmmon_clock_now();
	if (cost__start(run) < 0) {
		fprintf(stderr, "pvmmon-monitor: %s\n", pvmmon_error_last());
		return 1;
	}
	run->token = new_token();
	now_wall = time(NULL);
	gmtime_r(&now_wall, &tm);
	strftime(run->started, sizeof(run->started), "%Y-%m-%dT%H:%M:%SZ", &tm);
	run->mytid = pvm_mytid();
	if (run->mytid < 0) {
		fprintf(stderr, "pvmmon-monitor: cannot enroll in PVM (%d)\n", run->mytid);
		return 1;
	}
	run->myhost = pvm_tidtohost(run->mytid);
	pvm_setopt(PvmAutoErr, 0);
	run->ctx = pvm_newcontext();
	if (publish(run) < 0) {
		fprintf(stderr, "pvmmon-monitor: another monitor is published in this VM\n");
		pvm_exit();
		return 1;
	}
	pvm_setcontext(run->ctx);
	if (!run->auto_mode) {
		printf("ready %d %016llx\n", run->mytid, (unsigned long long)run->token);
		fflush(stdout);
	}
	run->t_last_change = run->t_start;
	return GO_ON;
}

/* Takes one received message to its handler: TASKEXIT's tid is packed by the pvmd,
 * every other message is pvmmon's bytes. */
static void receive(mon_run *run, int bufid)
{
	int bytes = 0, tag = 0, src = 0, tid = 0;
	uint8_t *data = NULL;
	size_t len = 0;

	if (pvm_bufinfo(bufid, &bytes, &tag, &src) < 0 || !run__admitted(run, src, tag))
		return;
	if (tag == WIRE_TAG_TASKEXIT) {
		pvm_upkint(&tid, 1, 1);
		run__task_exit(run, tid);
		return;
	}
	if (pvmio__unpack(bufid, &data, &len, NULL, NULL) != 0) {
		run->bad_messages++;
		return;
	}
	run__dispatch(run, src, tag, data, len);
	free(data);
}

/* When the next checkpoint is due: the first after a second, then at doubling
 * intervals up to the period, so that short runs have one and long ones do not pay for
 * many. */
typedef struct checkpoints {
	int64_t last, next;
	int failing;
} checkpoints;

/* A checkpoint keeps a valid log on disk should the monitor die. */
static void checkpoint(mon_run *run, checkpoints *cp, int64_t now)
{
	if (run->checkpoint_ns <= 0 || now - cp->last <= cp->next)
		return;
	if (logbuild__write(run) < 0) {
		/* Said at the first of consecutive failures, not at each (a full disk fails
		 * them all); the run goes on, and the final write is tried all the same. */
		if (!cp->failing)
			fprintf(stderr, "pvmmon-monitor: checkpoint not written: %s\n",
			        pvmmon_error_last());
		cp->failing = 1;
	} else {
		cp->failing = 0;
	}
	cp->last = now;
	cp->next = cp->next * 2 < run->checkpoint_ns ? cp->next * 2 : run->checkpoint_ns;
}

/* The main loop: messages, `pvmmon run`'s control, timeouts and checkpoints, until the
 * run is finished. */
static void loop(mon_run *run)
{
	checkpoints cp = {run->t_start, 1000000000LL, 0};

	for (;;) {
		/* Waiting requests may need asking again soon (preserve.c, ASK_RUNNING_MAX_NS). */
		struct timeval tv = {0, preserve__busy(run) ? 1000 : POLL_MS * 1000};
		int b = pvm_trecv(-1, -1, &tv);
		int64_t now;

		if (b > 0) {
			receive(run, b);
			logbuild__note_hosts(run);
		}
		now = pvmmon_clock_now();
		if (b == PvmSysErr) {
			/* The pvmd is gone: receives fail at once from now on, so the loop
			 * waits its poll period here rather than spin. */
			capacity__pvmd_lost(run, now);
			usleep(POLL_MS * 1000);
		}
		read_control(run);
		now = pvmmon_clock_now();
		registry__pending_timeout(run, now);
		cpsearch__tick(run, now);
		/* Decisions that wait, and waits that have lasted the threshold (for the hang
		 * rules). */
		if (run->pr)
			preserve__evaluate(run);
		/* The program's end and crash graces make hangs certain too. */
		hang__evaluate(run);
		if (finished(run, now))
			break;
		checkpoint(run, &cp, now);
	}
}

/* Ends the run: the replay's last check, the final log. The status to exit with. */
static int end(mon_run *run)
{
	int rc = 1;

	rrmon__end(run);
	/* Unpublish first so a new program does not find a monitor that is leaving. */
	pvm_delinfo(WIRE_MAILBOX_NAME, 0, PvmMboxDefault);
	if (logbuild__write(run) < 0) {
		fprintf(stderr, "pvmmon-monitor: %s\n", pvmmon_error_last());
		goto out;
	}
	/* A replay that diverged says so in its status (pvmmon replay exits 3), and so does
	 * a deadlock that stopped the run (4). */
	rc = run->diverged ? 3 : run->deadlocked ? 4 : 0;
out:
	pvm_exit();
	return rc;
}

int main(int argc, char **argv)
{
	mon_run run;
	int rc;

	/* The hooks library must stay out of the monitor even if it was preloaded. */
	setenv("PVMMON_PASSIVE", "1", 1);
	run__init(&run, &pvm_io);
	rc = parse_options(&run, argc, argv);
	if (rc == GO_ON)
		rc = start(&run);
	if (rc == GO_ON) {
		loop(&run);
		rc = end(&run);
	}
	run__free(&run);
	return rc;
}
