/*
 * Private to the pvmmon command (cli/run.c, its unit tests and fuzz target): the
 * command line of `pvmmon run` and `pvmmon replay`, read and checked without running
 * anything, so that it can be tested and fuzzed apart from the rest of the command.
 */
#ifndef PVMMON_CLI_RUNOPTS_H
#define PVMMON_CLI_RUNOPTS_H

#include <stdio.h>

#include "../common/wire_control.h"

/* Exit status when pvmmon itself fails (as opposed to the program). */
#define EXIT_PVMMON 125

/* Call-path samples a second of a task's CPU time (--sample without a rate, and the
 * default for programs not built with pvmmon-cc): common/wire_control.h's. */
#define SAMPLE_DEFAULT_HZ WIRE_SAMPLE_DEFAULT_HZ

/* Default size of the event trace in the log (--trace without a size). */
#define TRACE_DEFAULT_BYTES (16ULL << 20)

typedef struct cli_run_opts {
	const char *output;
	const char *hostfile;
	int attach;
	int flush_ms;
	int linger_ms;
	int quiet;
	int raw;                        /* run on the VM without any monitoring, for comparisons */
	unsigned long long trace_bytes; /* 0: no event trace */
	const char *cp; /* procedures for critical-path profiling ("auto"), or NULL */
	int cp_exclusive;
	int cp_top;          /* m of the top-m search, 0 for none */
	int cp_phase_ms;     /* phase length of auto and the search, 0 for the default */
	int no_record;       /* keep no replay record */
	int keep_going;      /* replay: --on-divergence=continue-recording */
	const char *stop_at; /* replay: --stop-at TASK:EVENT */
	const char *replay;  /* the log of the run to replay, or NULL */
	int preserve;        /* --mode=preserve */
	int deadlock_abort;  /* --on-hang=abort (or its alias --on-deadlock=abort) */
	int wait_ms;         /* --wait-threshold, 0 for the tasks' default */
	const char *budget;  /* --budget=PCT, as given, or NULL */
	const char *throttle; /* --throttle=PCT, as given (number only), or NULL: default */
	int no_throttle;     /* --no-throttle: every probe site stays fully timed */
	int flush_given;     /* --flush-ms was given */
	/* Time histograms: bucket count, initial width, hottest statements and procedures
	 * given default ones, --no-histograms, and the extra ones (--histogram, as given). */
	int hist_buckets;
	long long hist_width_ns;
	int hist_hottest;
	int no_histograms;
	const char *histogram;
	const char *check;   /* --check=LIST, as given, or NULL: all checks */
	int sample_hz;       /* --sample's rate, 0: no call-path samples */
	int no_sample;       /* --no-sample */
	char **prog_argv;    /* PROGRAM and its arguments */
} cli_run_opts;

/*
 * Reads the options of `pvmmon run` (replay NULL) or `pvmmon replay` (replay the log
 * to replay) from argv[1..argc) into *o, whose strings then point into argv; argv[0]
 * is the command's name and argv[argc] must be NULL. Returns 0 with o->prog_argv set
 * (PROGRAM and its arguments, a tail of argv), 1 when it printed the help or the
 * version on stdout (nothing to run), or PVMMON_EINVAL when it printed on stderr what
 * is wrong with the command line. It never exits and keeps nothing between calls:
 * getopt's state is reset first, so it may read one vector after another.
 */
int cli__run_parse(int argc, char **argv, const char *replay, cli_run_opts *o);

/* The throttling threshold the tasks read from PVMMON_THROTTLE, in percent: "0" with
 * --no-throttle, --throttle's number, else the default "10". */
const char *cli__run_throttle(const cli_run_opts *o);

#endif
