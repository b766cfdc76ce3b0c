/*
 * `pvmmon top` and `pvmmon cp`: talking to the monitor of a program that is running.
 * `pvmmon run` leaves LOG.run beside the log while the run lasts, naming the virtual
 * machine; these commands join that machine as a PVM task, find the monitor through
 * its mailbox entry and ask it for a snapshot of the run (a log without the trace).
 */
#include <errno.h>
#include <glob.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include <pvm3.h>

#include "../common/histo.h"
#include "../common/pvmio.h"
#include "../common/resource.h"
#include "../common/wire.h"
#include "cli.h"
#include "pvmmon/errors.h"
#include "pvmmon/log.h"
#include "pvmmon/report.h"
#include "tophist.h"

/* The monitor answers within milliseconds; this bounds a monitor that is gone. */
#define ANSWER_MS 5000

static const pvmio_fns io = {pvm_send, pvm_recv, pvm_trecv};
static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/*
 * The run file to use: arg itself if it ends in .run, else arg + ".run" (arg being the
 * log a run writes); without arg, the only *.run file in the current folder.
 */
static char *run_file(const char *arg)
{
	glob_t g;
	char *path = NULL;
	size_t n = arg ? strlen(arg) : 0;

	if (arg) {
		if (n > 4 && !strcmp(arg + n - 4, ".run"))
			path = strdup(arg);
		else if (asprintf(&path, "%s.run", arg) < 0)
			path = NULL;
		if (path && access(path, R_OK) != 0) {
			cli__error("%s: no run in progress (%s: %s)", arg, path, strerror(errno));
			free(path);
			return NULL;
		}
		return path;
	}
	if (glob("*.run", 0, NULL, &g) != 0 || g.gl_pathc == 0) {
		cli__error("no run in progress here (no *.run file beside a log); give the log "
		           "of the run");
		return NULL;
	}
	if (g.gl_pathc > 1)
		cli__error("several runs in progress here (%s, %s, ...); give the log of one",
		           g.gl_pathv[0], g.gl_pathv[1]);
	else
		path = strdup(g.gl_pathv[0]);
	globfree(&g);
	return path;
}

/* Joins the run's virtual machine and finds its monitor (its tid and context to *mon
 * and *ctx); 0 when found, else a negative code after printing why. The run's token
 * (which the monitor wants on every request) goes to *token. */
static int attach(int *mon, int *ctx, uint64_t *token, const char *runfile)
{
	FILE *f = fopen(runfile, "r");
	char line[4200], *tmp = NULL;
	wire_mailbox mb;
	uint8_t *d = NULL;
	size_t len;
	int b, rb, rc = PVMMON_ENOTFOUND;

	if (!f) {
		cli__error("%s: %s", runfile, strerror(errno));
		return PVMMON_ENOTFOUND;
	}
	*token = 0;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "pvm_tmp=", 8)) {
			line[strcspn(line, "\n")] = '\0';
			free(tmp);
			tmp = strdup(line + 8);
		} else if (!strncmp(line, "token=", 6)) {
			*token = strtoull(line + 6, NULL, 16);
		}
	}
	fclose(f);
	if (!tmp || !*tmp || !*token) {
		cli__error("%s: not a pvmmon run file (no pvm_tmp or token line)", runfile);
		free(tmp);
		return PVMMON_EPARSE;
	}
	setenv("PVM_TMP", tmp, 1);
	free(tmp);
	if (!getenv("PVM_ROOT"))
		setenv("PVM_ROOT", "/usr/lib/pvm3", 1);
	if (getuid() == 0)
		setenv("PVM_ALLOW_ROOT", "1", 1);
	if (pvm_setopt(PvmAutoErr, 0) < 0 || pvm_mytid() < 0) {
		cli__error("%s: the run's virtual machine does not answer (has the run ended?)",
		           runfile);
		return PVMMON_EPVM;
	}
	rb = pvm_setrbuf(0);
	b = pvm_recvinfo(WIRE_MAILBOX_NAME, 0, PvmMboxDefault);
	if (b > 0 && pvmio__unpack(b, &d, &len, NULL, NULL) == 0 &&
	    wire__mailbox_decode(&mb, d, len) == 0) {
		*mon = mb.monitor_tid;
		*ctx = mb.ctx;
		rc = 0;
	} else {
		cli__error("%s: no pvmmon monitor in that virtual machine (has the run ended?)",
		           runfile);
	}
	free(d);
	if (b > 0)
		pvm_freebuf(b);
	pvm_setrbuf(rb);
	return rc;
}

/* Sends command c to the monitor and reads the snapshot it answers with into *snap. */
static int request(pvmmon_log **snap, int mon, int ctx, const wire_ctl *c)
{
	wire_buf b;
	uint8_t *d = NULL;
	size_t len = 0;
	int rc;

	wire__buf_init(&b);
	wire__ctl_encode(&b, c);
	rc = b.failed ? pvmmon_error_set(PVMMON_ENOMEM, NULL)
	              : pvmio__send(&io, ctx, mon, WIRE_TAG_STATUS, b.data, b.len);
	wire__buf_free(&b);
	if (rc == 0)
		rc = pvmio__recv(&io, ctx, mon, WIRE_TAG_SNAPSHOT, ANSWER_MS, &d, &len, NULL, NULL);
	if (rc == 0) {
		wire_snapshot s;

		rc = wire__snapshot_decode(&s, d, len);
		if (rc == 0)
			rc = pvmmon_log_parse(snap, s.xml, s.len, "monitor snapshot");
	}
	free(d);
	return rc;
}

/*
 * One command to the run of log (pvmmon cp, pvmmon ctl): attaches to its monitor, sends
 * c and takes the answer's snapshot into *snap (the caller frees it), then leaves PVM.
 * 0, or 1 with the error said, prefixed by who.
 */
static int command(pvmmon_log **snap, const char *who, const char *log, wire_ctl *c)
{
	char *runfile = run_file(log);
	int mon = 0, ctx = 0, rc = 1;

	*snap = NULL;
	if (!runfile || attach(&mon, &ctx, &c->token, runfile) < 0) {
		free(runfile);
		return 1;
	}
	if (request(snap, mon, ctx, c) < 0)
		cli__error("%s: %s", who, pvmmon_error_last());
	else
		rc = 0;
	pvm_exit();
	free(runfile);
	return rc;
}

/* Waits up to ms for a key; returns it, or 0. */
static int key_within(int ms)
{
	struct pollfd p = {0, POLLIN, 0};
	char c = 0;

	if (poll(&p, 1, ms) > 0 && read(0, &c, 1) == 1)
		return c;
	return 0;
}

static int top(int argc, char **argv)
{
	static const char help[] =
	    "usage: pvmmon top [--once] [LOG]\n"
	    "Shows a running program's tasks and their states, hottest statements, critical\n"
	    "path so far and monitoring cost, refreshed every second; q or Ctrl-C quits.\n"
	    "LOG is the log the run writes (default: the only run in progress here).\n"
	    "--once prints the view once, for scripts.\n";
	const char *log = NULL;
	int once = 0, mon = 0, ctx = 0, rc = 1, tty = isatty(0) && isatty(1);
	char *runfile;
	struct termios saved, raw;
	wire_ctl c = {WIRE_CTL_SNAPSHOT, 0, 0, NULL, 0};
	cli_tophist *hist = NULL;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--once"))
			once = 1;
		else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(help, stdout);
			return 0;
		} else if (argv[i][0] == '-') {
			cli__error("top: unknown option '%s'", argv[i]);
			return 2;
		} else if (log) {
			cli__error("top: one run at a time");
			return 2;
		} else
			log = argv[i];
	}
	if (cli__tophist_new(&hist) < 0) {
		cli__error("top: %s", pvmmon_error_last());
		return 1;
	}
	runfile = run_file(log);
	if (!runfile || attach(&mon, &ctx, &c.token, runfile) < 0) {
		free(runfile);
		cli__tophist_free(hist);
		return 1;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	if (!once && tty && tcgetattr(0, &saved) == 0) {
		raw = saved;
		raw.c_lflag &= (tcflag_t) ~(ICANON | ECHO);
		raw.c_cc[VMIN] = 0;
		raw.c_cc[VTIME] = 0;
		tcsetattr(0, TCSANOW, &raw);
	} else {
		tty = 0;
	}
	for (;;) {
		pvmmon_log *snap = NULL;
		int k;

		if (request(&snap, mon, ctx, &c) < 0) {
			if (once)
				cli__error("top: %s", pvmmon_error_last());
			else
				printf("\npvmmon top: the run has ended\n");
			rc = once ? 1 : 0;
			break;
		}
		if (!once && tty)
			fputs("\033[H\033[2J", stdout);
		/* Sparklines from top's own samples for runs without histograms. */
		if (cli__tophist_add(hist, snap) < 0)
			cli__error("top: %s", pvmmon_error_last());
		pvmmon_report_top(snap, stdout);
		pvmmon_log_free(snap);
		fflush(stdout);
		if (once) {
			rc = 0;
			break;
		}
		if (!tty)
			fputs("\n", stdout);
		k = key_within(1000);
		if (stop || k == 'q' || k == 'Q') {
			rc = 0;
			break;
		}
	}
	if (tty)
		tcsetattr(0, TCSANOW, &saved);
	pvm_exit();
	free(runfile);
	cli__tophist_free(hist);
	return rc;
}

static int cp(int argc, char **argv)
{
	static const char help[] =
	    "usage: pvmmon cp start PROC[,PROC...] [--exclusive] [LOG]\n"
	    "       pvmmon cp stop [LOG]\n"
	    "Starts critical-path profiling of the named procedures in a running program (a\n"
	    "new selection: earlier values are dropped), or stops it; the values then cover\n"
	    "the interval between. Tasks take the command at their next PVM call.\n";
	wire_ctl c = {0, 0, 0, NULL, 0};
	const char *log = NULL;
	int i = 2;
	pvmmon_log *snap = NULL;

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		fputs(help, argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	if (!strcmp(argv[1], "start")) {
		c.cmd = WIRE_CTL_CP_START;
		if (argc < 3 || argv[2][0] == '-') {
			cli__error("cp start: which procedures? (pvmmon cp start PROC[,PROC...])");
			return 2;
		}
		c.procs = argv[2];
		i = 3;
	} else if (!strcmp(argv[1], "stop")) {
		c.cmd = WIRE_CTL_CP_STOP;
	} else {
		cli__error("cp: unknown command '%s' (start or stop)", argv[1]);
		return 2;
	}
	for (; i < argc; i++) {
		if (!strcmp(argv[i], "--exclusive") && c.cmd == WIRE_CTL_CP_START)
			c.exclusive = 1;
		else if (argv[i][0] == '-') {
			cli__error("cp: unknown option '%s'", argv[i]);
			return 2;
		} else if (log) {
			cli__error("cp: one run at a time");
			return 2;
		} else
			log = argv[i];
	}
	if (c.procs && cli__check_cp_list("cp start", c.procs) < 0)
		return 2;
	if (command(&snap, "cp", log, &c) != 0)
		return 1;
	printf("pvmmon: critical-path collection %s (selection %u: %s)\n",
	       c.cmd == WIRE_CTL_CP_START ? "started" : "stopped", (unsigned)snap->cp.generation,
	       snap->cp.nprocs ? "see pvmmon top" : "none");
	pvmmon_log_free(snap);
	return 0;
}

/* pvmmon ctl histogram [--off] METRIC:FOCUS[,...] [LOG] */
static int ctl_histogram(int argc, char **argv)
{
	wire_ctl c = {WIRE_CTL_HIST_ON, 0, 0, NULL, 0};
	const char *log = NULL;
	pvmmon_log *snap = NULL;

	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--off"))
			c.cmd = WIRE_CTL_HIST_OFF;
		else if (argv[i][0] == '-') {
			cli__error("ctl histogram: unknown option '%s'", argv[i]);
			return 2;
		} else if (!c.procs)
			c.procs = argv[i];
		else if (!log)
			log = argv[i];
		else {
			cli__error("ctl: one run at a time");
			return 2;
		}
	}
	if (!c.procs) {
		cli__error("ctl histogram: which? (METRIC:FOCUS such as wait:program)");
		return 2;
	}
	if (histo__spec_check(c.procs, 32, 1) < 0) {
		cli__error("ctl histogram: %s", pvmmon_error_last());
		return 2;
	}
	if (command(&snap, "ctl", log, &c) != 0)
		return 1;
	printf("pvmmon: histogram %s %s\n", c.procs,
	       c.cmd == WIRE_CTL_HIST_ON ? "started" : "stopped");
	pvmmon_log_free(snap);
	return 0;
}

/* pvmmon ctl sample on|off|HZ [LOG] */
static int ctl_sample(int argc, char **argv)
{
	wire_ctl c = {WIRE_CTL_SAMPLE, WIRE_SAMPLE_DEFAULT_HZ, 0, NULL, 0};
	const char *log = argc > 3 ? argv[3] : NULL;
	pvmmon_log *snap = NULL;
	char *end = NULL;
	long hz;

	if (argc < 3) {
		cli__error("ctl sample: on, off or a rate in Hz (such as 997)?");
		return 2;
	}
	if (argc > 4 || (log && log[0] == '-')) {
		cli__error(argc > 4 ? "ctl: one run at a time" : "ctl sample: unknown option '%s'",
		           log);
		return 2;
	}
	if (!strcmp(argv[2], "off")) {
		c.gen = 0;
	} else if (strcmp(argv[2], "on")) {
		hz = strtol(argv[2], &end, 10);
		if (!*argv[2] || *end || hz < 1 || hz > WIRE_SAMPLE_MAX_HZ) {
			cli__error("ctl sample: on, off or a rate from 1 to %d Hz, not '%s'",
			           WIRE_SAMPLE_MAX_HZ, argv[2]);
			return 2;
		}
		c.gen = (uint32_t)hz;
	}
	if (command(&snap, "ctl", log, &c) != 0)
		return 1;
	if (c.gen)
		printf("pvmmon: call-path sampling at %u Hz (switch %zu of the run)\n",
		       (unsigned)c.gen, snap->nswitches);
	else
		printf("pvmmon: call-path sampling off (switch %zu of the run)\n", snap->nswitches);
	pvmmon_log_free(snap);
	return 0;
}

static int ctl(int argc, char **argv)
{
	static const char help[] =
	    "usage: pvmmon ctl enable|disable RESOURCE [LOG]\n"
	    "       pvmmon ctl histogram [--off] METRIC:FOCUS[,...] [LOG]\n"
	    "       pvmmon ctl sample on|off|HZ [LOG]\n"
	    "Switches probe sites and statement records of a running program on or off\n"
	    "(dynamic instrumentation); a switched-off probe costs one branch, and counts\n"
	    "stay as they were while a site is off. Tasks\n"
	    "take the switch at their next probe or PVM call (within about 10 ms), and\n"
	    "tasks that start later take it too. The log lists every switch with its time.\n"
	    "\n"
	    "RESOURCE is `all`, or terms joined by commas that must all match:\n"
	    "  task=LID        one task (logical id, such as 0 or 0.2)\n"
	    "  file=NAME       sites in a source file (NAME or its last part)\n"
	    "  proc=NAME       a procedure's probes, and the loops and statements in it\n"
	    "  loop=[FILE:]N   the loop on line N\n"
	    "  stmt=[FILE:]N   the communication statement on line N (its records; its\n"
	    "                  messages still carry what monitoring needs)\n"
	    "  line=N          any site on line N\n"
	    "  kind=proc|loop|stmt  procedures, loops or statements only\n"
	    "Example: pvmmon ctl disable task=0.1,proc=sample app.pvmmon.xml\n"
	    "\n"
	    "histogram starts time histograms of a running program (a metric of every task:\n"
	    "compute, wait, pvm, overhead, msgs-sent, bytes-sent, msgs-recv, bytes-recv;\n"
	    "focus task, host or program) from the moment each task takes the command;\n"
	    "--off ends them there. The log keeps them with requested=\"ctl\" and the\n"
	    "interval they cover (from-ns, to-ns).\n"
	    "Example: pvmmon ctl histogram wait:program\n"
	    "\n"
	    "sample switches call-path sampling of every task on (at the default 199 Hz of\n"
	    "its CPU time, or HZ), or off; a task keeps the samples it took. Tasks take it at\n"
	    "their next PVM call, and tasks that start later take it too.\n"
	    "Example: pvmmon ctl sample off\n";
	wire_ctl c = {0, 0, 0, NULL, 0};
	const char *log = NULL;
	pvmmon_log *snap = NULL;
	resource r;

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		fputs(help, argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	if (!strcmp(argv[1], "histogram"))
		return ctl_histogram(argc, argv);
	if (!strcmp(argv[1], "sample"))
		return ctl_sample(argc, argv);
	if (!strcmp(argv[1], "enable"))
		c.cmd = WIRE_CTL_ENABLE;
	else if (!strcmp(argv[1], "disable"))
		c.cmd = WIRE_CTL_DISABLE;
	else {
		cli__error("ctl: unknown command '%s' (enable, disable, histogram or sample)",
		           argv[1]);
		return 2;
	}
	if (argc < 3 || argv[2][0] == '-') {
		cli__error("ctl %s: which sites? (a RESOURCE such as proc=solve, or all; see "
		           "pvmmon ctl --help)",
		           argv[1]);
		return 2;
	}
	if (resource__parse(&r, argv[2]) < 0) {
		cli__error("ctl %s: %s", argv[1], pvmmon_error_last());
		return 2;
	}
	resource__clear(&r);
	c.procs = argv[2];
	if (argc > 4) {
		cli__error("ctl: one run at a time");
		return 2;
	}
	if (argc == 4) {
		if (argv[3][0] == '-') {
			cli__error("ctl: unknown option '%s'", argv[3]);
			return 2;
		}
		log = argv[3];
	}
	if (command(&snap, "ctl", log, &c) != 0)
		return 1;
	printf("pvmmon: %s %s (switch %zu of the run)\n",
	       c.cmd == WIRE_CTL_ENABLE ? "enabled" : "disabled", c.procs, snap->nswitches);
	pvmmon_log_free(snap);
	return 0;
}

int cli__ctl(int argc, char **argv) { return ctl(argc, argv); }

int cli__top(int argc, char **argv) { return top(argc, argv); }

int cli__cp(int argc, char **argv) { return cp(argc, argv); }
