/* The command line of `pvmmon run` and `pvmmon replay`: options read and checked, and
 * the critical-path selections that `pvmmon cp` takes too. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pvmmon/errors.h"
#include "cli.h"
#include "runopts.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: pvmmon run [options] [--] PROGRAM [ARGS...]\n"
		"\n"
		"Runs PROGRAM (an unmodified, dynamically linked PVM program, or one built with\n"
		"pvmmon-cc or linked with libpvmhooks) under monitoring and writes its XML log.\n"
		"By default a private virtual machine is started for the run and halted after.\n"
		"\n"
		"  -o, --output LOG     log file (default: PROGRAM's name + .pvmmon.xml, here)\n"
		"      --hostfile F     start the private VM from hostfile F (your machines,\n"
		"                       started with PVM_RSH; see the user guide)\n"
		"      --attach         use the VM already running for you; nothing is halted\n"
		"      --flush-ms N     how often tasks send their records (default 1000)\n"
		"      --linger-ms N    how long to wait for tasks after PROGRAM ends (10000)\n"
		"      --trace[=SIZE]   record an event trace for the space-time diagram, at most\n"
		"                       SIZE of log (bytes, or with K, M, G; default 16M); the\n"
		"                       log says where a trace that reached SIZE stops\n"
		"      --cp=P1,P2,...   online critical-path profiling: the run's longest path and\n"
		"                       the share and zeroing value of each procedure named (up\n"
		"                       to 32; procedures of programs built with pvmmon-cc)\n"
		"      --cp=auto        the same for the 8 procedures with the most time after a\n"
		"                       first phase\n"
		"      --cp-top=M       find every procedure holding at least 1/M of the critical\n"
		"                       path (M from 2 to 16) by a search over phases\n"
		"      --cp-phase-ms=N  phase length for auto and the search (default 2000)\n"
		"      --cp-exclusive   shares without the time of the procedures they call\n"
		"      --no-record      keep no replay record (every run is replayable otherwise:\n"
		"                       pvmmon replay LOG -- PROGRAM)\n"
		"      --mode=MODE      plain (default): tasks run as fast as monitoring lets\n"
		"                       them; preserve: every nondeterministic receive (any\n"
		"                       source, pvm_nrecv, pvm_probe, pvm_trecv timeouts) takes\n"
		"                       the message the unmonitored program would have taken,\n"
		"                       judged by virtual time\n"
		"      --on-deadlock=report|abort  in preserve mode, when the program deadlocks:\n"
		"                       say which tasks wait for what and keep waiting (report,\n"
		"                       the default) or also stop the run (abort, exit status 4)\n"
		"      --budget=PCT     keep the cost of monitoring each task under PCT percent\n"
		"                       (such as 5%%): procedures first, loops while there is\n"
		"                       room; the most expensive sites are switched off when\n"
		"                       the cost goes over (the log lists every switch)\n"
		"      --raw            no monitoring at all (same VM handling), to compare\n"
		"  -q, --quiet          print nothing but errors\n"
		"  -h, --help           this text;  --version  the version\n"
		"\n"
		"Exit status: PROGRAM's own, or %d when pvmmon itself failed.\n",
		EXIT_PVMMON);
}

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

int cli_check_cp_list(const char *what, const char *list)
{
	const char *p = list;
	int n = 0;

	for (;;) {
		size_t len = strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				       "0123456789_");

		if (len == 0 || (*p >= '0' && *p <= '9')) {
			cli_error("%s: wants procedure names separated by commas, not '%s'", what,
				  list);
			return -1;
		}
		p += len;
		if (*p == '+') {
			p++;
			continue;
		}
		if (++n > CP_MAX_PROCS) {
			cli_error("%s: at most %d procedures (or groups)", what, CP_MAX_PROCS);
			return -1;
		}
		if (*p == '\0')
			return 0;
		if (*p != ',') {
			cli_error("%s: '%c' cannot be part of a procedure name in '%s'", what, *p,
				  list);
			return -1;
		}
		p++;
	}
}

int cli__run_parse(int argc, char **argv, const char *replay, cli_run_opts *o)
{
	static const struct option opts[] = {
	    {"output", required_argument, NULL, 'o'}, {"hostfile", required_argument, NULL, 'H'},
	    {"attach", no_argument, NULL, 'a'},       {"flush-ms", required_argument, NULL, 'f'},
	    {"linger-ms", required_argument, NULL, 'L'}, {"quiet", no_argument, NULL, 'q'},
	    {"raw", no_argument, NULL, 'r'},         {"trace", optional_argument, NULL, 't'},
	    {"cp", required_argument, NULL, 'c'},    {"cp-exclusive", no_argument, NULL, 'x'},
	    {"cp-top", required_argument, NULL, 'm'}, {"cp-phase-ms", required_argument, NULL, 'p'},
	    {"no-record", no_argument, NULL, 'n'},
	    {"mode", required_argument, NULL, 'M'}, {"on-deadlock", required_argument, NULL, 'k'},
	    {"on-divergence", required_argument, NULL, 'd'}, {"stop-at", required_argument, NULL, 's'},
	    {"budget", required_argument, NULL, 'B'},
	    {"help", no_argument, NULL, 'h'},         {"version", no_argument, NULL, 'V'},
	    {NULL, 0, NULL, 0}};
	int c;
	char *end;

	memset(o, 0, sizeof(*o));
	o->flush_ms = 1000;
	o->linger_ms = 10000;
	o->replay = replay;
	/* 0 makes glibc's getopt start afresh (optind 1, no half-read option cluster left
	 * from an earlier vector), so that each call reads its own argv from the start. */
	optind = 0;
	/* '+' stops at the program name so its own options are left alone. */
	while ((c = getopt_long(argc, argv, "+o:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			o->output = optarg;
			break;
		case 'H':
			o->hostfile = optarg;
			break;
		case 'a':
			o->attach = 1;
			break;
		case 'f':
		case 'L': {
			long v = strtol(optarg, &end, 10);

			if (*end || v <= 0 || v > 3600000) {
				cli_error("run: --%s needs a number of milliseconds, not '%s'",
					  c == 'f' ? "flush-ms" : "linger-ms", optarg);
				return PVMMON_EINVAL;
			}
			*(c == 'f' ? &o->flush_ms : &o->linger_ms) = (int)v;
			o->flush_given |= c == 'f';
			break;
		}
		case 'B': {
			double v = strtod(optarg, &end);

			if (end != optarg && *end == '%')
				end++;
			if (end == optarg || *end || !(v > 0 && v <= 100)) {
				cli_error("run: --budget wants a percentage above 0 and at most 100 "
					  "(such as 5%%), not '%s'",
					  optarg);
				return PVMMON_EINVAL;
			}
			o->budget = optarg;
			break;
		}
		case 'q':
			o->quiet = 1;
			break;
		case 'r':
			o->raw = 1;
			break;
		case 't':
			o->trace_bytes = optarg ? parse_size(optarg) : TRACE_DEFAULT_BYTES;
			/* Below a kilobyte not even one chunk of events would fit. */
			if (o->trace_bytes < 1024) {
				cli_error("run: --trace needs a size of at least 1K (such as 64K, "
					  "16M), not '%s'",
					  optarg);
				return PVMMON_EINVAL;
			}
			break;
		case 'c':
			if (cli_check_cp_list("run: --cp", optarg) < 0)
				return PVMMON_EINVAL;
			o->cp = optarg;
			break;
		case 'x':
			o->cp_exclusive = 1;
			break;
		case 'n':
			o->no_record = 1;
			break;
		case 'M':
			if (strcmp(optarg, "plain") && strcmp(optarg, "preserve")) {
				cli_error("run: --mode wants plain or preserve, not '%s'", optarg);
				return PVMMON_EINVAL;
			}
			o->preserve = !strcmp(optarg, "preserve");
			break;
		case 'k':
			if (strcmp(optarg, "report") && strcmp(optarg, "abort")) {
				cli_error("run: --on-deadlock wants report or abort, not '%s'", optarg);
				return PVMMON_EINVAL;
			}
			o->deadlock_abort = !strcmp(optarg, "abort");
			break;
		case 'd':
			if (strcmp(optarg, "stop") && strcmp(optarg, "continue-recording")) {
				cli_error("replay: --on-divergence wants stop or continue-recording, "
					  "not '%s'",
					  optarg);
				return PVMMON_EINVAL;
			}
			o->keep_going = !strcmp(optarg, "continue-recording");
			break;
		case 's': {
			const char *colon = strrchr(optarg, ':');
			char *end;

			/* Digits only: strtoul() would take "-1" as a huge event number. */
			if (!colon || colon == optarg || colon[1] < '0' || colon[1] > '9' ||
			    strtoul(colon + 1, &end, 10) == 0 || *end) {
				cli_error("replay: --stop-at wants TASK:EVENT (a logical id such as 0.1 "
					  "and an event number from 1), not '%s'",
					  optarg);
				return PVMMON_EINVAL;
			}
			o->stop_at = optarg;
			break;
		}
		case 'm':
		case 'p': {
			long v = strtol(optarg, &end, 10);
			int top = c == 'm';

			if (*end || (top && (v < 2 || v > 16)) || (!top && (v < 100 || v > 3600000))) {
				cli_error("run: --%s needs %s, not '%s'", top ? "cp-top" : "cp-phase-ms",
					  top ? "a number from 2 to 16" : "milliseconds from 100",
					  optarg);
				return PVMMON_EINVAL;
			}
			*(top ? &o->cp_top : &o->cp_phase_ms) = (int)v;
			break;
		}
		case 'h':
			usage(stdout);
			return 1;
		case 'V':
			printf("pvmmon %s\n", PVMMON_VERSION);
			return 1;
		default:
			usage(stderr);
			return PVMMON_EINVAL;
		}
	}
	if (o->cp_exclusive && !o->cp && !o->cp_top) {
		cli_error("run: --cp-exclusive needs --cp or --cp-top");
		return PVMMON_EINVAL;
	}
	if (o->cp_top && o->cp) {
		cli_error("run: --cp-top chooses the procedures itself; leave out --cp");
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
		cli_error("run: --attach and --hostfile exclude each other");
		return PVMMON_EINVAL;
	}
	/* The budget is kept from what tasks report with their flushes: often. */
	if (o->budget && !o->flush_given)
		o->flush_ms = 100;
	if (o->budget && o->raw) {
		cli_error("run: --budget and --raw exclude each other");
		return PVMMON_EINVAL;
	}
	if (!replay && (o->keep_going || o->stop_at)) {
		cli_error("run: --on-divergence and --stop-at are options of pvmmon replay");
		return PVMMON_EINVAL;
	}
	/* A replay forces the recorded outcomes; preserve mode would decide them anew. */
	if (replay && o->preserve) {
		cli_error("replay: --mode=preserve cannot be combined with a replay (the record "
			  "already fixes every nondeterministic outcome)");
		return PVMMON_EINVAL;
	}
	if (o->deadlock_abort && !o->preserve) {
		cli_error("run: --on-deadlock is an option of --mode=preserve");
		return PVMMON_EINVAL;
	}
	if (optind >= argc) {
		cli_error("run: no program given (see pvmmon run --help)");
		return PVMMON_EINVAL;
	}
	o->prog_argv = argv + optind;
	return 0;
}
