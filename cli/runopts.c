/* The command line of `pvmmon run` and `pvmmon replay`: options read and checked, and
 * the critical-path selections that `pvmmon cp` takes too. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/histo.h"
#include "cli.h"
#include "pvmmon/errors.h"
#include "runopts.h"

/*
 * Parses a size such as 4096, 64K, 16M or 1G; 0 when it is not one. It starts with a
 * digit, because strtoull() would take " -5" as 2^64 - 5; and a size that does not fit
 * in 64 bits is refused rather than taken as what it wraps to.
 */
static unsigned long long parse_size(const char *s)
{
	char *end;
	unsigned long long v;
	int shift = 0;

	if (*s < '0' || *s > '9')
		return 0;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return 0;
	switch (*end) {
	case 'G':
	case 'g':
		shift = 30;
		end++;
		break;
	case 'M':
	case 'm':
		shift = 20;
		end++;
		break;
	case 'K':
	case 'k':
		shift = 10;
		end++;
		break;
	}
	if (*end || v > ULLONG_MAX >> shift)
		return 0;
	return v << shift;
}

/* The most procedures one run profiles on the critical path (WIRE_CP_MAX). */
#define CP_MAX_PROCS 32

int cli__check_cp_list(const char *what, const char *list)
{
	const char *p = list;
	int n = 0;

	for (;;) {
		size_t len = strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		                       "0123456789_");

		if (len == 0 || (*p >= '0' && *p <= '9')) {
			cli__error("%s: wants procedure names separated by commas, not '%s'", what,
			           list);
			return PVMMON_EINVAL;
		}
		p += len;
		if (*p == '+') {
			p++;
			continue;
		}
		if (++n > CP_MAX_PROCS) {
			cli__error("%s: at most %d procedures (or groups)", what, CP_MAX_PROCS);
			return PVMMON_EINVAL;
		}
		if (*p == '\0')
			return 0;
		if (*p != ',') {
			cli__error("%s: '%c' cannot be part of a procedure name in '%s'", what, *p,
			           list);
			return PVMMON_EINVAL;
		}
		p++;
	}
}

/* One option of pvmmon run or replay: how getopt reads it, what it sets and how. */
typedef struct run_opt run_opt;
struct run_opt {
	const char *name;
	int has_arg;    /* no_argument, required_argument or optional_argument */
	int short_name; /* its one-letter form, or 0 */
	/* Sets the option's field from arg (NULL when it has none); 0, or
	 * PVMMON_EINVAL after printing what is wrong. */
	int (*set)(cli_run_opts *o, const run_opt *d, const char *arg);
	size_t field;         /* offsetof the field of cli_run_opts it sets */
	long min, max;        /* set_ms: the range allowed */
	const char *what;     /* set_ms: what it needs; set_choice: the command (run, replay) */
	const char *words[2]; /* set_choice: the words it takes, the default first */
	const char *help;     /* its lines in the help, or NULL when it is not listed */
};

#define FIELD(f) offsetof(cli_run_opts, f)
#define INT_AT(o, d) ((int *)((char *)(o) + (d)->field))

static int set_string(cli_run_opts *o, const run_opt *d, const char *arg)
{
	*(const char **)((char *)o + d->field) = arg;
	return 0;
}

static int set_flag(cli_run_opts *o, const run_opt *d, const char *arg)
{
	(void)arg;
	*INT_AT(o, d) = 1;
	return 0;
}

/* A whole number of milliseconds (or of procedures, for --cp-top) within the range. */
static int set_ms(cli_run_opts *o, const run_opt *d, const char *arg)
{
	char *end;
	long v = strtol(arg, &end, 10);

	if (*end || v < d->min || v > d->max) {
		cli__error("run: --%s needs %s, not '%s'", d->name, d->what, arg);
		return PVMMON_EINVAL;
	}
	*INT_AT(o, d) = (int)v;
	return 0;
}

static int set_flush(cli_run_opts *o, const run_opt *d, const char *arg)
{
	int rc = set_ms(o, d, arg);

	if (rc == 0)
		o->flush_given = 1;
	return rc;
}

/* One of two words: the field is 1 for the second. */
static int set_choice(cli_run_opts *o, const run_opt *d, const char *arg)
{
	if (strcmp(arg, d->words[0]) && strcmp(arg, d->words[1])) {
		cli__error("%s: --%s wants %s or %s, not '%s'", d->what, d->name, d->words[0],
		           d->words[1], arg);
		return PVMMON_EINVAL;
	}
	*INT_AT(o, d) = !strcmp(arg, d->words[1]);
	return 0;
}

static int set_trace(cli_run_opts *o, const run_opt *d, const char *arg)
{
	(void)d;
	o->trace_bytes = arg ? parse_size(arg) : TRACE_DEFAULT_BYTES;
	/* Below a kilobyte not even one chunk of events would fit. */
	if (o->trace_bytes < 1024) {
		cli__error("run: --trace needs a size of at least 1K (such as 64K, 16M), not '%s'",
		           arg);
		return PVMMON_EINVAL;
	}
	return 0;
}

/* --sample[=HZ]: 1 to 10000 samples a second of each task's CPU time. */
static int set_sample(cli_run_opts *o, const run_opt *d, const char *arg)
{
	char *end = NULL;
	long hz = arg ? strtol(arg, &end, 10) : SAMPLE_DEFAULT_HZ;

	(void)d;
	if (arg && (!*arg || *end || hz < 1 || hz > 10000)) {
		cli__error("run: --sample wants a rate from 1 to 10000 Hz (such as 199), not '%s'",
		           arg);
		return PVMMON_EINVAL;
	}
	o->sample_hz = (int)hz;
	return 0;
}

static int set_cp(cli_run_opts *o, const run_opt *d, const char *arg)
{
	(void)d;
	if (cli__check_cp_list("run: --cp", arg) < 0)
		return PVMMON_EINVAL;
	o->cp = arg;
	return 0;
}

static int set_budget(cli_run_opts *o, const run_opt *d, const char *arg)
{
	char *end;
	double v = strtod(arg, &end);

	(void)d;
	if (end != arg && *end == '%')
		end++;
	if (end == arg || *end || !(v > 0 && v <= 100)) {
		cli__error(
		    "run: --budget wants a percentage above 0 and at most 100 (such as 5%%), "
		    "not '%s'",
		    arg);
		return PVMMON_EINVAL;
	}
	o->budget = arg;
	return 0;
}

/* --hist-width=DUR: a duration with its unit (ns, us, ms, s), from 1 us to 1 hour. */
static int set_hist_width(cli_run_opts *o, const run_opt *d, const char *arg)
{
	static const struct {
		const char *unit;
		long long ns;
	} units[] = {{"ns", 1}, {"us", 1000}, {"ms", 1000000}, {"s", 1000000000}};
	char *end;
	long long v;

	(void)d;
	errno = 0;
	v = strtoll(arg, &end, 10);
	for (size_t i = 0; end != arg && !errno && i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(end, units[i].unit) && v > 0 && v <= 3600000000000LL / units[i].ns) {
			o->hist_width_ns = v * units[i].ns;
			if (o->hist_width_ns >= 1000)
				return 0;
		}
	cli__error("run: --hist-width wants a duration from 1us to 1 hour with its unit (such "
	           "as 10ms, 500us, 1s), not '%s'",
	           arg);
	return PVMMON_EINVAL;
}

static int set_histogram(cli_run_opts *o, const run_opt *d, const char *arg)
{
	(void)d;
	if (histo__spec_check(arg, 32, 0) < 0) {
		cli__error("run: --histogram: %s", pvmmon_error_last());
		return PVMMON_EINVAL;
	}
	o->histogram = arg;
	return 0;
}

/* --throttle=PCT: above 0 and at most 1000 (a probe pair may cost more than the
 * procedure's time and still be wanted: 1000% demotes only procedures under a tenth of
 * a pair). Kept without its '%' for PVMMON_THROTTLE. */
static int set_throttle(cli_run_opts *o, const run_opt *d, const char *arg)
{
	static char num[32];
	char *end;
	double v = strtod(arg, &end);
	size_t n = (size_t)(end - arg);

	(void)d;
	if (end != arg && *end == '%')
		end++;
	if (end == arg || *end || !(v > 0 && v <= 1000) || n >= sizeof(num)) {
		cli__error("run: --throttle wants a percentage above 0 and at most 1000 (such as "
			   "10%%), not '%s'",
			   arg);
		return PVMMON_EINVAL;
	}
	memcpy(num, arg, n);
	num[n] = '\0';
	o->throttle = num;
	return 0;
}

/* --check=LIST: all, none, or a comma list of the checks' names (the tasks read it from
 * PVMMON_CHECK, pvmhooks/checks.c). */
static int set_check(cli_run_opts *o, const run_opt *d, const char *arg)
{
	static const char *const names[] = {"unpack", "queued", "unfreed", "ignored"};
	const char *p = arg;

	(void)d;
	if (!strcmp(arg, "all") || !strcmp(arg, "none")) {
		o->check = arg;
		return 0;
	}
	while (*p) {
		size_t n = strcspn(p, ","), i;

		for (i = 0; i < 4; i++)
			if (strlen(names[i]) == n && !strncmp(p, names[i], n))
				break;
		if (i == 4 || (p[n] == ',' && !p[n + 1])) {
			cli__error("run: --check wants all, none or a comma list of unpack, queued, "
				   "unfreed and ignored, not '%s'",
				   arg);
			return PVMMON_EINVAL;
		}
		p += n + (p[n] == ',');
	}
	if (!*arg) {
		cli__error("run: --check wants all, none or a list of checks");
		return PVMMON_EINVAL;
	}
	o->check = arg;
	return 0;
}

static int set_stop_at(cli_run_opts *o, const run_opt *d, const char *arg)
{
	const char *colon = strrchr(arg, ':');
	char *end;

	(void)d;
	/* Digits only: strtoul() would take "-1" as a huge event number. */
	if (!colon || colon == arg || colon[1] < '0' || colon[1] > '9' ||
	    strtoul(colon + 1, &end, 10) == 0 || *end) {
		cli__error("replay: --stop-at wants TASK:EVENT (a logical id such as 0.1 and an "
		           "event number from 1), not '%s'",
		           arg);
		return PVMMON_EINVAL;
	}
	o->stop_at = arg;
	return 0;
}

/*
 * The options, in the order of the help. --help and --version have no setter: they
 * print and end the parse. The help's lines are the table's, between the heading and
 * the exit status in usage().
 */
static const run_opt run_opts[] = {
    {.name = "output",
     .has_arg = required_argument,
     .short_name = 'o',
     .set = set_string,
     .field = FIELD(output),
     .help = "  -o, --output LOG     log file (default: PROGRAM's name + .pvmmon.xml, here)\n"},
    {.name = "hostfile",
     .has_arg = required_argument,
     .set = set_string,
     .field = FIELD(hostfile),
     .help = "      --hostfile F     start the private VM from hostfile F (your machines,\n"
             "                       started with PVM_RSH; see the user guide)\n"},
    {.name = "attach",
     .has_arg = no_argument,
     .set = set_flag,
     .field = FIELD(attach),
     .help = "      --attach         use the VM already running for you; nothing is halted\n"},
    {.name = "flush-ms",
     .has_arg = required_argument,
     .set = set_flush,
     .field = FIELD(flush_ms),
     .min = 1,
     .max = 3600000,
     .what = "a number of milliseconds",
     .help = "      --flush-ms N     how often tasks send their records (default 1000)\n"},
    {.name = "linger-ms",
     .has_arg = required_argument,
     .set = set_ms,
     .field = FIELD(linger_ms),
     .min = 1,
     .max = 3600000,
     .what = "a number of milliseconds",
     .help = "      --linger-ms N    how long to wait for tasks after PROGRAM ends (10000)\n"},
    {.name = "trace",
     .has_arg = optional_argument,
     .set = set_trace,
     .help = "      --trace[=SIZE]   record an event trace for the space-time diagram, at most\n"
             "                       SIZE of log (bytes, or with K, M, G; default 16M); the\n"
             "                       log says where a trace that reached SIZE stops\n"},
    {.name = "sample",
     .has_arg = optional_argument,
     .set = set_sample,
     .help = "      --sample[=HZ]    sample each task's call stack HZ times a second of its CPU\n"
             "                       time (default 199): the report's sampled procedures\n"
             "                       and hottest call paths. Programs not built with\n"
             "                       pvmmon-cc sample at 199 Hz without it; those built\n"
             "                       with it only when asked\n"},
    {.name = "no-sample",
     .has_arg = no_argument,
     .set = set_flag,
     .field = FIELD(no_sample),
     .help = "      --no-sample      take no call-path samples, also in programs not built\n"
             "                       with pvmmon-cc\n"},
    {.name = "cp",
     .has_arg = required_argument,
     .set = set_cp,
     .help = "      --cp=P1,P2,...   online critical-path profiling: the run's longest path and\n"
             "                       the share and zeroing value of each procedure named (up\n"
             "                       to 32; procedures of programs built with pvmmon-cc)\n"
             "      --cp=auto        the same for the 8 procedures with the most time after a\n"
             "                       first phase\n"},
    {.name = "cp-top",
     .has_arg = required_argument,
     .set = set_ms,
     .field = FIELD(cp_top),
     .min = 2,
     .max = 16,
     .what = "a number from 2 to 16",
     .help = "      --cp-top=M       find every procedure holding at least 1/M of the critical\n"
             "                       path (M from 2 to 16) by a search over phases\n"},
    {.name = "cp-phase-ms",
     .has_arg = required_argument,
     .set = set_ms,
     .field = FIELD(cp_phase_ms),
     .min = 100,
     .max = 3600000,
     .what = "milliseconds from 100",
     .help = "      --cp-phase-ms=N  phase length for auto and the search (default 2000)\n"},
    {.name = "cp-exclusive",
     .has_arg = no_argument,
     .set = set_flag,
     .field = FIELD(cp_exclusive),
     .help = "      --cp-exclusive   shares without the time of the procedures they call\n"},
    {.name = "no-record",
     .has_arg = no_argument,
     .set = set_flag,
     .field = FIELD(no_record),
     .help = "      --no-record      keep no replay record (every run is replayable otherwise:\n"
             "                       pvmmon replay LOG -- PROGRAM)\n"},
    {.name = "mode",
     .has_arg = required_argument,
     .set = set_choice,
     .field = FIELD(preserve),
     .what = "run",
     .words = {"plain", "preserve"},
     .help = "      --mode=MODE      plain (default): tasks run as fast as monitoring lets\n"
             "                       them; preserve: every nondeterministic receive (any\n"
             "                       source, pvm_nrecv, pvm_probe, pvm_trecv timeouts) takes\n"
             "                       the message the unmonitored program would have taken,\n"
             "                       judged by virtual time\n"},
    {.name = "on-hang",
     .has_arg = required_argument,
     .set = set_choice,
     .field = FIELD(deadlock_abort),
     .what = "run",
     .words = {"report", "abort"},
     .help = "      --on-hang=report|abort  when tasks wait for what can never come (a\n"
             "                       deadlock, a task that has ended, a message with another\n"
             "                       tag, every task waiting with nothing on its way): say\n"
             "                       which tasks wait for what, where, and keep\n"
             "                       waiting (report, the default) or also stop the run and\n"
             "                       write the log (abort, exit status 4)\n"},
    /* The older name of --on-hang (preserve mode's deadlocks came first). */
    {.name = "on-deadlock",
     .has_arg = required_argument,
     .set = set_choice,
     .field = FIELD(deadlock_abort),
     .what = "run",
     .words = {"report", "abort"}},
    {.name = "wait-threshold",
     .has_arg = required_argument,
     .set = set_ms,
     .field = FIELD(wait_ms),
     .min = 1,
     .max = 3600000,
     .what = "a number of milliseconds from 1 to 3600000",
     .help = "      --wait-threshold=MS  a receive that has waited this long tells the\n"
             "                       monitor what it waits for (default 100)\n"},
    {.name = "check",
     .has_arg = required_argument,
     .set = set_check,
     .help = "      --check=LIST     the PVM usage checks, said on stderr once per statement\n"
             "                       (pair) and kept in the log: all (the default), none, or\n"
             "                       a comma list of unpack (an unpack against what the\n"
             "                       sender packed), queued (messages never received before\n"
             "                       a task's pvm_exit), unfreed (pvm_mkbuf buffers never\n"
             "                       freed) and ignored (an error result of a pack or unpack\n"
             "                       the program went on past)\n"},
    /* Options of pvmmon replay, described in its own help (cli/run.c). */
    {.name = "on-divergence",
     .has_arg = required_argument,
     .set = set_choice,
     .field = FIELD(keep_going),
     .what = "replay",
     .words = {"stop", "continue-recording"}},
    {.name = "stop-at", .has_arg = required_argument, .set = set_stop_at},
    {.name = "budget",
     .has_arg = required_argument,
     .set = set_budget,
     .help = "      --budget=PCT     keep the cost of monitoring each task under PCT percent\n"
             "                       (such as 5%): procedures first, loops while there is\n"
             "                       room; the most expensive sites are switched off when\n"
             "                       the cost goes over (the log lists every switch)\n"},
    {.name = "throttle",
     .has_arg = required_argument,
     .set = set_throttle,
     .help = "      --throttle=PCT   demote to counting only a procedure or loop whose probe\n"
             "                       pair costs more than PCT percent of its own time a call,\n"
             "                       from its 64th call on (default 10%; under a lower\n"
             "                       --budget, the budget)\n"},
    {.name = "no-throttle",
     .has_arg = no_argument,
     .set = set_flag,
     .field = FIELD(no_throttle),
     .help = "      --no-throttle    keep every probe site fully timed\n"},
    {.name = "hist-buckets",
     .has_arg = required_argument,
     .set = set_ms,
     .field = FIELD(hist_buckets),
     .min = 2,
     .max = 65536,
     .what = "a number of buckets from 2 to 65536",
     .help = "      --hist-buckets=N  buckets of each time histogram (default 128): when a\n"
             "                       run outlasts them, their width doubles\n"},
    {.name = "hist-width",
     .has_arg = required_argument,
     .set = set_hist_width,
     .help = "      --hist-width=DUR  the histograms' first bucket width (default 10ms)\n"},
    {.name = "hist-hottest",
     .has_arg = required_argument,
     .set = set_ms,
     .field = FIELD(hist_hottest),
     .min = 0,
     .max = 1000,
     .what = "a number from 0 to 1000",
     .help = "      --hist-hottest=N  statements, procedures and loops per task given\n"
             "                       default histograms: the N hottest (default 8)\n"},
    {.name = "no-histograms",
     .has_arg = no_argument,
     .set = set_flag,
     .field = FIELD(no_histograms),
     .help = "      --no-histograms  keep no default time histograms (--histogram and\n"
             "                       pvmmon ctl histogram still add theirs)\n"},
    {.name = "histogram",
     .has_arg = required_argument,
     .set = set_histogram,
     .help = "      --histogram=METRIC:FOCUS,...  more time histograms: compute, wait, pvm,\n"
             "                       overhead, msgs-sent, bytes-sent, msgs-recv, bytes-recv\n"
             "                       of the program, a host or a task; calls, time of every\n"
             "                       proc, loop or stmt (such as wait:host,time:loop)\n"},
    {.name = "raw",
     .has_arg = no_argument,
     .set = set_flag,
     .field = FIELD(raw),
     .help = "      --raw            no monitoring at all (same VM handling), to compare\n"},
    {.name = "quiet",
     .has_arg = no_argument,
     .short_name = 'q',
     .set = set_flag,
     .field = FIELD(quiet),
     .help = "  -q, --quiet          print nothing but errors\n"},
    {.name = "help",
     .has_arg = no_argument,
     .short_name = 'h',
     .help = "  -h, --help           this text;  --version  the version\n"},
    {.name = "version", .has_arg = no_argument},
};

#define N_RUN_OPTS (sizeof(run_opts) / sizeof(run_opts[0]))

/* getopt's value for a long option without a one-letter form: past every char. */
#define LONG_ONLY 256

static void usage(FILE *f)
{
	fputs("usage: pvmmon run [options] [--] PROGRAM [ARGS...]\n"
	      "\n"
	      "Runs PROGRAM (an unmodified, dynamically linked PVM program, or one built with\n"
	      "pvmmon-cc or linked with libpvmhooks) under monitoring and writes its XML log.\n"
	      "By default a private virtual machine is started for the run and halted after.\n"
	      "\n",
	      f);
	for (size_t i = 0; i < N_RUN_OPTS; i++)
		if (run_opts[i].help)
			fputs(run_opts[i].help, f);
	fprintf(f, "\nExit status: PROGRAM's own, or %d when pvmmon itself failed.\n", EXIT_PVMMON);
}

/* The checks between options, once all are read; 0 or PVMMON_EINVAL. */
static int check_together(cli_run_opts *o, const char *replay)
{
	if (o->cp_exclusive && !o->cp && !o->cp_top) {
		cli__error("run: --cp-exclusive needs --cp or --cp-top");
		return PVMMON_EINVAL;
	}
	if (o->cp_top && o->cp) {
		cli__error("run: --cp-top chooses the procedures itself; leave out --cp");
		return PVMMON_EINVAL;
	}
	/* Phases are judged from the tasks' samples, which come with their flushes: at
	 * least two flushes a phase. */
	if (o->cp_top || (o->cp && !strcmp(o->cp, "auto"))) {
		int phase = o->cp_phase_ms ? o->cp_phase_ms : 2000;

		if (o->flush_ms > phase / 2)
			o->flush_ms = phase / 2 < 100 ? 100 : phase / 2;
	}
	if (o->attach && o->hostfile) {
		cli__error("run: --attach and --hostfile exclude each other");
		return PVMMON_EINVAL;
	}
	/* The budget is kept from what tasks report with their flushes: often. */
	if (o->budget && !o->flush_given)
		o->flush_ms = 100;
	if (o->sample_hz && o->no_sample) {
		cli__error("run: --sample and --no-sample exclude each other");
		return PVMMON_EINVAL;
	}
	if (o->throttle && o->no_throttle) {
		cli__error("run: --throttle and --no-throttle exclude each other");
		return PVMMON_EINVAL;
	}
	if (o->budget && o->raw) {
		cli__error("run: --budget and --raw exclude each other");
		return PVMMON_EINVAL;
	}
	if (!replay && (o->keep_going || o->stop_at)) {
		cli__error("run: --on-divergence and --stop-at are options of pvmmon replay");
		return PVMMON_EINVAL;
	}
	/* A replay forces the recorded outcomes; preserve mode would decide them anew. */
	if (replay && o->preserve) {
		cli__error("replay: --mode=preserve cannot be combined with a replay (the record "
		           "already fixes every nondeterministic outcome)");
		return PVMMON_EINVAL;
	}
	return 0;
}

int cli__run_parse(int argc, char **argv, const char *replay, cli_run_opts *o)
{
	struct option lopts[N_RUN_OPTS + 1];
	const run_opt *d;
	const char *clk;
	int c, rc;

	for (size_t i = 0; i < N_RUN_OPTS; i++) {
		const run_opt *r = &run_opts[i];

		lopts[i] = (struct option){r->name, r->has_arg, NULL,
		                           r->short_name ? r->short_name : LONG_ONLY + (int)i};
	}
	lopts[N_RUN_OPTS] = (struct option){NULL, 0, NULL, 0};
	memset(o, 0, sizeof(*o));
	o->flush_ms = 1000;
	o->linger_ms = 10000;
	o->hist_buckets = 128;
	o->hist_width_ns = 10000000;
	o->hist_hottest = 8;
	o->replay = replay;
	/* 0 makes glibc's getopt start afresh (optind 1, no half-read option cluster left
	 * from an earlier vector), so that each call reads its own argv from the start. */
	optind = 0;
	/* '+' stops at the program name so its own options are left alone. */
	while ((c = getopt_long(argc, argv, "+o:qh", lopts, NULL)) != -1) {
		d = NULL;
		if (c >= LONG_ONLY && c < LONG_ONLY + (int)N_RUN_OPTS)
			d = &run_opts[c - LONG_ONLY];
		for (size_t i = 0; !d && c > 0 && i < N_RUN_OPTS; i++)
			if (run_opts[i].short_name == c)
				d = &run_opts[i];
		if (!d) {
			usage(stderr);
			return PVMMON_EINVAL;
		}
		if (d->set) {
			rc = d->set(o, d, optarg);
			if (rc < 0)
				return rc;
		} else if (!strcmp(d->name, "help")) {
			usage(stdout);
			return 1;
		} else {
			printf("pvmmon %s\n", PVMMON_VERSION);
			return 1;
		}
	}
	rc = check_together(o, replay);
	if (rc < 0)
		return rc;
	/* Tasks read PVMMON_CLOCK themselves (and take anything unknown for monotonic): a
	 * misspelt value is said here, before anything starts. */
	clk = getenv("PVMMON_CLOCK");
	if (clk && *clk && strcmp(clk, "auto") && strcmp(clk, "monotonic")) {
		cli__error("%s: PVMMON_CLOCK=%s: expected auto or monotonic", replay ? "replay" : "run",
		           clk);
		return PVMMON_EINVAL;
	}
	if (optind >= argc) {
		cli__error("run: no program given (see pvmmon run --help)");
		return PVMMON_EINVAL;
	}
	o->prog_argv = argv + optind;
	return 0;
}

const char *cli__run_throttle(const cli_run_opts *o)
{
	return o->no_throttle ? "0" : o->throttle ? o->throttle : "10";
}
