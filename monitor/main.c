/* pvmmon-monitor: the PVM task that registers a program's tasks, collects their
 * records and writes the run's XML log. */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <pvm3.h>

#include "pvmmon/errors.h"
#include "../common/clock.h"
#include "../common/pvmio.h"
#include "../common/wire.h"
#include "monitor.h"

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
	fprintf(f, "usage: pvmmon-monitor --log FILE [--auto] [--flush-ms N] [--linger-ms N]\n"
		   "                      [--checkpoint-ms N] [--trace-bytes N]\n"
		   "                      [--cp PROC,...|auto [--cp-exclusive]] [--cp-top M]\n"
		   "                      [--cp-phase-ms N] [--no-record | --replay LOG\n"
		   "                      [--on-divergence stop|continue-recording]\n"
		   "                      [--stop-at TASK:EVENT]]\n"
		   "                      [--preserve [--deadlock-abort]] [--budget PCT]\n"
		   "                      [--program P [--arg A]...]\n"
		   "Started by `pvmmon run` (which controls it through standard input) or, with\n"
		   "--auto, by the first monitored task of a program that found no monitor.\n");
}

/* Reads `end CODE` lines from `pvmmon run` on standard input. */
static void read_control(mon_run *run)
{
	struct pollfd p = {0, POLLIN, 0};
	char line[128];
	ssize_t n;

	if (run->auto_mode || run->ended || poll(&p, 1, 0) <= 0)
		return;
	n = read(0, line, sizeof(line) - 1);
	if (n <= 0) {
		/* pvmmon run went away: treat it as the end of the program. */
		run->ended = 1;
		run->exit_code = -1;
		run->t_ended = pvmmon_clock_now();
		return;
	}
	line[n] = '\0';
	if (strncmp(line, "end", 3) == 0) {
		run->ended = 1;
		run->exit_code = atoi(line + 3);
		run->t_ended = pvmmon_clock_now();
	}
}

static const char *tag_name(int tag)
{
	static const char *const names[] = {"REGISTER", "WELCOME", "SPAWNED", "QUERY", "ANSWER",
					    "RECORDS", "TASKEXIT", "TRACE", "CPSAMPLE", "CTL",
					    "STATUS", "SNAPSHOT", "RECORD", "REPLAYDATA", "LID",
					    "LIDTID", "DIVERGED", "STOPPED", "MONLOST", "PWAIT",
					    "PGRANT", "PASK", "CLOCK", "CLOCKSET"};
	unsigned i = (unsigned)tag - (unsigned)WIRE_TAG_REGISTER;

	return i < sizeof(names) / sizeof(names[0]) ? names[i] : "an unknown tag";
}

/* Counts and says a refused control message (once per sender, so that a flood does not
 * flood stderr too). */
static void refuse(mon_run *run, int src, int tag, const char *why)
{
	static int last_src;

	run->refused++;
	if (src != last_src)
		fprintf(stderr, "pvmmon-monitor: refused a control message (%s) from t%x: %s\n",
			tag_name(tag), (unsigned)src, why);
	last_src = src;
}

/*
 * Whether a control message may be handled: registrations and pvmmon commands'
 * requests carry the run's token (checked where they are decoded); pvm_notify
 * messages come from a pvmd; everything else only from registered tasks.
 */
static int admitted(mon_run *run, int src, int tag)
{
	if (tag == WIRE_TAG_REGISTER || tag == WIRE_TAG_STATUS)
		return 1;
	if (tag == WIRE_TAG_TASKEXIT) {
		if (src & (int)0x80000000)
			return 1;
		refuse(run, src, tag, "not from a pvmd");
		return 0;
	}
	if (!mon_find(run, src)) {
		refuse(run, src, tag, "not a task of this run");
		return 0;
	}
	return 1;
}

static void handle(mon_run *run, int bufid)
{
	int bytes = 0, tag = 0, src = 0;
	uint8_t *data = NULL;
	size_t len = 0;

	if (pvm_bufinfo(bufid, &bytes, &tag, &src) < 0 || !admitted(run, src, tag))
		return;
	if (tag == WIRE_TAG_TASKEXIT) {
		int tid = 0;

		if (pvm_upkint(&tid, 1, 1) >= 0)
			mon_task_exit(run, tid);
		if (run->pr)
			mon_pr_evaluate(run);
		return;
	}
	if (pvmio_unpack(bufid, &data, &len, NULL, NULL) != 0) {
		run->bad_messages++;
		return;
	}
	switch (tag) {
	case WIRE_TAG_REGISTER:
		if (mon_register(run, src, data, len) < 0)
			refuse(run, src, tag, "wrong token");
		break;
	case WIRE_TAG_SPAWNED:
		mon_spawned(run, src, data, len);
		break;
	case WIRE_TAG_QUERY:
		mon_query(run, src, data, len);
		break;
	case WIRE_TAG_CLOCK:
		mon_clock(run, src, data, len);
		break;
	case WIRE_TAG_RECORDS:
		mon_records(run, src, data, len);
		break;
	case WIRE_TAG_TRACE:
		mon_trace(run, src, data, len);
		break;
	case WIRE_TAG_CPSAMPLE:
		mon_cp_sample(run, src, data, len);
		break;
	case WIRE_TAG_STATUS:
		if (mon_status(run, src, data, len) < 0)
			refuse(run, src, tag, "wrong token");
		break;
	case WIRE_TAG_RECORD:
		mon_rr_record(run, src, data, len);
		break;
	case WIRE_TAG_LID:
		mon_rr_lid(run, src, data, len);
		break;
	case WIRE_TAG_DIVERGED:
		mon_rr_diverged(run, src, data, len);
		break;
	case WIRE_TAG_STOPPED:
		mon_rr_stopped(run, src, data, len);
		break;
	case WIRE_TAG_PWAIT:
		mon_pr_message(run, src, data, len);
		break;
	default:
		run->bad_messages++;
	}
	free(data);
	/* Registrations, exits and flushes change what preserve mode may decide. */
	if (run->pr && tag != WIRE_TAG_PWAIT)
		mon_pr_evaluate(run);
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
	/* A replay that diverged stops at once, and so does a deadlock with
	 * --on-deadlock=abort. */
	if (stop_requested || run->diverged || run->deadlocked)
		return 1;
	if (run->auto_mode)
		return run->ntasks > 0 && mon_all_done(run) && now - run->t_last_change > AUTO_GRACE_NS;
	if (!run->ended)
		return 0;
	return mon_all_done(run) || now - run->t_ended > run->linger_ns;
}

static int publish(mon_run *run)
{
	wire_mailbox mb = {run->mytid, run->ctx, run->flush_ms, run->trace_events, run->token};
	wire_buf b;
	int sb, rc;

	wire_buf_init(&b);
	wire_mailbox_encode(&b, &mb);
	sb = pvm_initsend(PvmDataRaw);
	pvm_pkbyte((char *)b.data, (int)b.len, 1);
	rc = pvm_putinfo(WIRE_MAILBOX_NAME, sb, PvmMboxDefault);
	wire_buf_free(&b);
	return rc;
}

/* Frees what main() holds for the run (its options, the top-m search's results) and
 * gives back rc, so that main leaves nothing behind whichever way it ends. */
static int finish(mon_run *run, int rc)
{
	mon_pr_free(run);
	mon_free(run);
	free(run->args);
	free(run->cp_procs);
	free(run->cp_found);
	free(run->stop_lid);
	for (size_t i = 0; i < run->cp_ncands; i++)
		free(run->cp_cands[i]);
	free(run->cp_cands);
	return rc;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"log", required_argument, NULL, 'l'},   {"auto", no_argument, NULL, 'a'},
	    {"flush-ms", required_argument, NULL, 'f'}, {"linger-ms", required_argument, NULL, 'L'},
	    {"checkpoint-ms", required_argument, NULL, 'c'},
	    {"program", required_argument, NULL, 'p'}, {"arg", required_argument, NULL, 'A'},
	    {"trace-bytes", required_argument, NULL, 't'}, {"cp", required_argument, NULL, 'C'},
	    {"cp-exclusive", no_argument, NULL, 'X'}, {"cp-top", required_argument, NULL, 'T'},
	    {"cp-phase-ms", required_argument, NULL, 'P'}, {"no-record", no_argument, NULL, 'N'},
	    {"replay", required_argument, NULL, 'R'},
	    {"on-divergence", required_argument, NULL, 'D'}, {"stop-at", required_argument, NULL, 'S'},
	    {"preserve", no_argument, NULL, 'O'}, {"deadlock-abort", no_argument, NULL, 'K'},
	    {"budget", required_argument, NULL, 'B'},
	    {"help", no_argument, NULL, 'h'},        {"version", no_argument, NULL, 'V'},
	    {NULL, 0, NULL, 0}};
	mon_run run;
	int c, rc = 1, checkpoint_failing = 0;
	int64_t last_checkpoint, next_checkpoint = 1000000000LL;
	struct tm tm;
	time_t now_wall;

	/* The hooks library must stay out of the monitor even if it was preloaded. */
	setenv("PVMMON_PASSIVE", "1", 1);
	memset(&run, 0, sizeof(run));
	run.rr_mode = 1; /* every run can be replayed unless told otherwise */
	run.flush_ms = 1000;
	run.linger_ns = 10000000000LL;
	run.checkpoint_ns = 10000000000LL;
	run.trace_cut = INT64_MAX;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'l':
			run.log_path = optarg;
			break;
		case 'a':
			run.auto_mode = 1;
			break;
		case 'f':
			run.flush_ms = (uint32_t)atoi(optarg);
			break;
		case 'L':
			run.linger_ns = (int64_t)atoi(optarg) * 1000000;
			break;
		case 'c':
			run.checkpoint_ns = (int64_t)atoi(optarg) * 1000000;
			break;
		case 'p':
			run.program = optarg;
			break;
		case 't':
			run.trace_bytes = strtoull(optarg, NULL, 10);
			break;
		case 'C':
			free(run.cp_procs);
			run.cp_procs = strdup(optarg);
			break;
		case 'X':
			run.cp_exclusive = 1;
			break;
		case 'T':
			run.cp_top_m = (uint32_t)atoi(optarg);
			break;
		case 'N':
			run.rr_mode = 0;
			break;
		case 'O':
			run.preserve = 1;
			break;
		case 'K':
			run.on_deadlock_abort = 1;
			break;
		case 'B': {
			char *end;

			run.budget_pct = strtod(optarg, &end);
			if (*end == '%')
				end++;
			if (*end || !(run.budget_pct > 0 && run.budget_pct <= 100)) {
				fprintf(stderr, "pvmmon-monitor: --budget wants a percentage above 0 "
						"and at most 100, not '%s'\n",
					optarg);
				return finish(&run, 2);
			}
			break;
		}
		case 'D':
			run.rr_continue = !strcmp(optarg, "continue-recording");
			break;
		case 'S': {
			char *colon = strrchr(optarg, ':');

			if (!colon || !colon[1]) {
				fprintf(stderr, "pvmmon-monitor: --stop-at wants TASK:EVENT\n");
				return finish(&run, 2);
			}
			free(run.stop_lid);
			run.stop_lid = strndup(optarg, (size_t)(colon - optarg));
			run.stop_event = strtoull(colon + 1, NULL, 10);
			break;
		}
		case 'R':
			if (pvmmon_log_read(&run.replay_log, optarg) < 0) {
				fprintf(stderr, "pvmmon-monitor: %s\n", pvmmon_error_last());
				return finish(&run, 2);
			}
			run.rr_mode = 2;
			break;
		case 'P':
			run.cp_phase_ns = (int64_t)atoi(optarg) * 1000000;
			break;
		case 'A': {
			char **a = realloc(run.args, (run.nargs + 1) * sizeof(*a));

			if (!a)
				return finish(&run, 1);
			run.args = a;
			run.args[run.nargs++] = optarg;
			break;
		}
		case 'h':
			usage(stdout);
			return finish(&run, 0);
		case 'V':
			printf("pvmmon-monitor %s\n", PVMMON_VERSION);
			return finish(&run, 0);
		default:
			usage(stderr);
			return finish(&run, 2);
		}
	}
	if (!run.log_path || run.flush_ms == 0) {
		usage(stderr);
		return finish(&run, 2);
	}
	if (run.cp_procs && !strcmp(run.cp_procs, "auto")) {
		/* The selection comes after a first phase (cpsearch.c). */
		free(run.cp_procs);
		run.cp_procs = NULL;
		run.cp_auto = 1;
	}
	if (run.preserve && mon_pr_init(&run) < 0) {
		fprintf(stderr, "pvmmon-monitor: out of memory\n");
		return finish(&run, 1);
	}
	if (run.cp_phase_ns <= 0)
		run.cp_phase_ns = 2000000000LL;
	if (run.cp_procs) {
		/* Collection runs from the start: generation 1. */
		run.cp_gen = 1;
		run.cp_collecting = 1;
		run.cp_to_ns = -1;
	}
	run.trace_events = run.trace_bytes / MON_TRACE_EVENT_XML_BYTES;
	if (run.trace_bytes && !run.trace_events)
		run.trace_events = 1;
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	signal(SIGPIPE, SIG_IGN);
	/* Under a file size limit (RLIMIT_FSIZE) a log too big for it then fails to write
	 * with EFBIG, which the log writer handles like a full disk (its temporary file
	 * removed, the older log kept, the reason said), instead of the signal killing
	 * the monitor in the middle of the write and leaving the temporary file behind. */
	signal(SIGXFSZ, SIG_IGN);

	run.t_start = pvmmon_clock_now();
	if (mon_cost_start(&run) < 0) {
		fprintf(stderr, "pvmmon-monitor: %s\n", pvmmon_error_last());
		return finish(&run, 1);
	}
	run.token = new_token();
	now_wall = time(NULL);
	gmtime_r(&now_wall, &tm);
	strftime(run.started, sizeof(run.started), "%Y-%m-%dT%H:%M:%SZ", &tm);
	run.mytid = pvm_mytid();
	if (run.mytid < 0) {
		fprintf(stderr, "pvmmon-monitor: cannot enroll in PVM (%d)\n", run.mytid);
		return finish(&run, 1);
	}
	pvm_setopt(PvmAutoErr, 0);
	run.ctx = pvm_newcontext();
	if (publish(&run) < 0) {
		fprintf(stderr, "pvmmon-monitor: another monitor is published in this VM\n");
		pvm_exit();
		return finish(&run, 1);
	}
	pvm_setcontext(run.ctx);
	if (!run.auto_mode) {
		printf("ready %d %016llx\n", run.mytid, (unsigned long long)run.token);
		fflush(stdout);
	}
	last_checkpoint = run.t_start;
	run.t_last_change = run.t_start;

	for (;;) {
		/* Waiting requests may need asking soon (preserve.c, ASK_DELAY_NS). */
		struct timeval tv = {0, mon_pr_busy(&run) ? 1000 : POLL_MS * 1000};
		int b = pvm_trecv(-1, -1, &tv);
		int64_t now;

		if (b > 0)
			handle(&run, b);
		read_control(&run);
		now = pvmmon_clock_now();
		mon_pending_timeout(&run, now);
		mon_cp_tick(&run, now);
		/* A deadlock is told once nothing has moved for a while. */
		if (run.pr)
			mon_pr_evaluate(&run);
		if (finished(&run, now))
			break;
		if (run.checkpoint_ns > 0 && now - last_checkpoint > next_checkpoint) {
			/* A checkpoint keeps a valid log on disk should the monitor die: the
			 * first after a second, then at doubling intervals up to the period,
			 * so that short runs have one and long ones do not pay for many. */
			if (mon_write_log(&run) < 0) {
				/* Said at the first of consecutive failures, not at each (a full
				 * disk fails them all); the run goes on, and the final write is
				 * tried all the same. */
				if (!checkpoint_failing)
					fprintf(stderr, "pvmmon-monitor: checkpoint not written: %s\n",
						pvmmon_error_last());
				checkpoint_failing = 1;
			} else {
				checkpoint_failing = 0;
			}
			last_checkpoint = now;
			next_checkpoint = next_checkpoint * 2 < run.checkpoint_ns ? next_checkpoint * 2
										   : run.checkpoint_ns;
		}
	}
	mon_rr_end(&run);
	/* Unpublish first so a new program does not find a monitor that is leaving. */
	pvm_delinfo(WIRE_MAILBOX_NAME, 0, PvmMboxDefault);
	if (mon_write_log(&run) < 0) {
		fprintf(stderr, "pvmmon-monitor: %s\n", pvmmon_error_last());
		goto out;
	}
	/* A replay that diverged says so in its status (pvmmon replay exits 3), and so does
	 * a deadlock that stopped the run (4). */
	rc = run.diverged ? 3 : run.deadlocked ? 4 : 0;
out:
	pvm_exit();
	return finish(&run, rc);
}
