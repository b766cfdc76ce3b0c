/* Unit tests for cli/runopts.c: the options of pvmmon run and replay, what they refuse,
 * and that one vector after another is read afresh. */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "pvmmon/errors.h"
#include "../../../cli/runopts.h"

#define MAXARGS 16

/* The vector of the last parse: the options point into it. */
static char *args[MAXARGS + 1];
static char store[MAXARGS][128];

/*
 * Parses "run" (or the replayed log) followed by the words given, NULL-terminated.
 * What the parser prints goes to /dev/null: its messages are checked by the
 * integration tests, the results here.
 */
static int parse(cli_run_opts *o, const char *replay, ...)
{
	va_list ap;
	const char *w;
	int n = 0, rc, out = dup(1), err = dup(2), null = open("/dev/null", O_WRONLY);

	snprintf(store[n], sizeof(store[n]), "%s", replay ? replay : "run");
	args[n] = store[n];
	n++;
	va_start(ap, replay);
	while ((w = va_arg(ap, const char *)) && n < MAXARGS) {
		snprintf(store[n], sizeof(store[n]), "%s", w);
		args[n] = store[n];
		n++;
	}
	va_end(ap);
	args[n] = NULL;
	fflush(stdout);
	dup2(null, 1);
	dup2(null, 2);
	rc = cli__run_parse(n, args, replay, o);
	fflush(stdout);
	dup2(out, 1);
	dup2(err, 2);
	close(out);
	close(err);
	close(null);
	return rc;
}

static void test_defaults(void)
{
	cli_run_opts o;

	CU_ASSERT_EQUAL_FATAL(parse(&o, NULL, "--", "prog", "-x", NULL), 0);
	CU_ASSERT_EQUAL(o.flush_ms, 1000);
	CU_ASSERT_EQUAL(o.linger_ms, 10000);
	CU_ASSERT_EQUAL(o.trace_bytes, 0);
	CU_ASSERT_PTR_NULL(o.replay);
	CU_ASSERT_PTR_EQUAL(o.prog_argv, args + 2);
	CU_ASSERT_STRING_EQUAL(o.prog_argv[0], "prog");
	CU_ASSERT_STRING_EQUAL(o.prog_argv[1], "-x");
	/* The program's own options are left alone, with or without "--". */
	CU_ASSERT_EQUAL_FATAL(parse(&o, NULL, "-q", "prog", "--trace", NULL), 0);
	CU_ASSERT(o.quiet);
	CU_ASSERT_EQUAL(o.trace_bytes, 0);
	CU_ASSERT_STRING_EQUAL(o.prog_argv[1], "--trace");
	CU_ASSERT_EQUAL(parse(&o, NULL, "-h", NULL), 1);
	CU_ASSERT_EQUAL(parse(&o, NULL, "--version", NULL), 1);
	CU_ASSERT_EQUAL(parse(&o, NULL, "-q", NULL), PVMMON_EINVAL);
	CU_ASSERT_EQUAL(parse(&o, NULL, "--frobnicate", "prog", NULL), PVMMON_EINVAL);
}

/* A vector whose reading stopped inside a cluster of short options must not leave
 * getopt halfway through it for the next vector. */
static void test_each_call_starts_afresh(void)
{
	cli_run_opts o;

	CU_ASSERT_EQUAL(parse(&o, NULL, "-qz", "prog", NULL), PVMMON_EINVAL);
	CU_ASSERT_EQUAL_FATAL(parse(&o, NULL, "-o", "x.xml", "prog", NULL), 0);
	CU_ASSERT_STRING_EQUAL(o.output, "x.xml");
	CU_ASSERT_FALSE(o.quiet);
	CU_ASSERT_STRING_EQUAL(o.prog_argv[0], "prog");
	CU_ASSERT_EQUAL(parse(&o, NULL, "-qo", NULL), PVMMON_EINVAL);
	CU_ASSERT_EQUAL_FATAL(parse(&o, NULL, "prog", NULL), 0);
	CU_ASSERT_PTR_EQUAL(o.prog_argv, args + 1);
	CU_ASSERT_PTR_NULL(o.output);
}

static void test_trace_sizes(void)
{
	cli_run_opts o;

	CU_ASSERT_EQUAL(parse(&o, NULL, "--trace", "prog", NULL), 0);
	CU_ASSERT_EQUAL(o.trace_bytes, TRACE_DEFAULT_BYTES);
	CU_ASSERT_EQUAL(parse(&o, NULL, "--trace=64K", "prog", NULL), 0);
	CU_ASSERT_EQUAL(o.trace_bytes, 65536);
	CU_ASSERT_EQUAL(parse(&o, NULL, "--trace=16m", "prog", NULL), 0);
	CU_ASSERT_EQUAL(o.trace_bytes, 16ULL << 20);
	CU_ASSERT_EQUAL(parse(&o, NULL, "--trace=1024", "prog", NULL), 0);
	CU_ASSERT_EQUAL(o.trace_bytes, 1024);
	CU_ASSERT_EQUAL(parse(&o, NULL, "--trace=1023", "prog", NULL), PVMMON_EINVAL);
	CU_ASSERT_EQUAL(parse(&o, NULL, "--trace=64KB", "prog", NULL), PVMMON_EINVAL);
	CU_ASSERT_EQUAL(parse(&o, NULL, "--trace=", "prog", NULL), PVMMON_EINVAL);
	/* 2^34 G is 2^64 and wrapped to 0; 2^34 + 1 G wrapped to 1G and was taken. */
	CU_ASSERT_EQUAL(parse(&o, NULL, "--trace=17179869184G", "prog", NULL), PVMMON_EINVAL);
	CU_ASSERT_EQUAL(parse(&o, NULL, "--trace=17179869185G", "prog", NULL), PVMMON_EINVAL);
	CU_ASSERT_EQUAL(parse(&o, NULL, "--trace=18446744073709551615", "prog", NULL), 0);
	CU_ASSERT_EQUAL(parse(&o, NULL, "--trace=18446744073709551616", "prog", NULL),
			PVMMON_EINVAL);
	/* strtoull() skips spaces and negates " -5" silently; sizes start with a digit. */
	CU_ASSERT_EQUAL(parse(&o, NULL, "--trace= -5", "prog", NULL), PVMMON_EINVAL);
	CU_ASSERT_EQUAL(parse(&o, NULL, "--trace=-2048", "prog", NULL), PVMMON_EINVAL);
	CU_ASSERT_EQUAL(parse(&o, NULL, "--trace=+4096", "prog", NULL), PVMMON_EINVAL);
}

static void test_numbers(void)
{
	cli_run_opts o;

	CU_ASSERT_EQUAL(parse(&o, NULL, "--flush-ms", "250", "--linger-ms=5", "prog", NULL), 0);
	CU_ASSERT_EQUAL(o.flush_ms, 250);
	CU_ASSERT_EQUAL(o.linger_ms, 5);
	CU_ASSERT_EQUAL(parse(&o, NULL, "--flush-ms", "0", "prog", NULL), PVMMON_EINVAL);
	CU_ASSERT_EQUAL(parse(&o, NULL, "--flush-ms", "abc", "prog", NULL), PVMMON_EINVAL);
	CU_ASSERT_EQUAL(parse(&o, NULL, "--linger-ms", "3600001", "prog", NULL), PVMMON_EINVAL);
	CU_ASSERT_EQUAL(parse(&o, NULL, "--cp-top=1", "prog", NULL), PVMMON_EINVAL);
	CU_ASSERT_EQUAL(parse(&o, NULL, "--cp-top=17", "prog", NULL), PVMMON_EINVAL);
	CU_ASSERT_EQUAL(parse(&o, NULL, "--cp-phase-ms=99", "--cp=auto", "prog", NULL),
			PVMMON_EINVAL);
	/* Phases need two flushes each: the flush interval follows the phase length. */
	CU_ASSERT_EQUAL(parse(&o, NULL, "--cp-top=4", "--cp-phase-ms=100", "prog", NULL), 0);
	CU_ASSERT_EQUAL(o.cp_top, 4);
	CU_ASSERT_EQUAL(o.flush_ms, 100);
	CU_ASSERT_EQUAL(parse(&o, NULL, "--cp=auto", "prog", NULL), 0);
	CU_ASSERT_EQUAL(o.flush_ms, 1000);
}

static void test_cp_lists(void)
{
	cli_run_opts o;
	char many[128] = "";

	CU_ASSERT_EQUAL(parse(&o, NULL, "--cp=a,b+c", "--cp-exclusive", "prog", NULL), 0);
	CU_ASSERT_STRING_EQUAL(o.cp, "a,b+c");
	CU_ASSERT(o.cp_exclusive);
	CU_ASSERT_EQUAL(parse(&o, NULL, "--cp=a,,b", "prog", NULL), PVMMON_EINVAL);
	CU_ASSERT_EQUAL(parse(&o, NULL, "--cp=a,", "prog", NULL), PVMMON_EINVAL);
	CU_ASSERT_EQUAL(parse(&o, NULL, "--cp=1a", "prog", NULL), PVMMON_EINVAL);
	CU_ASSERT_EQUAL(parse(&o, NULL, "--cp=a-b", "prog", NULL), PVMMON_EINVAL);
	for (int i = 0; i < 33; i++)
		strcat(many, i ? ",p" : "p");
	CU_ASSERT_EQUAL(parse(&o, NULL, "--cp", many, "prog", NULL), PVMMON_EINVAL);
	many[strlen(many) - 2] = '\0';
	CU_ASSERT_EQUAL(parse(&o, NULL, "--cp", many, "prog", NULL), 0);
	CU_ASSERT_EQUAL(parse(&o, NULL, "--cp-exclusive", "prog", NULL), PVMMON_EINVAL);
	CU_ASSERT_EQUAL(parse(&o, NULL, "--cp=a", "--cp-top=3", "prog", NULL), PVMMON_EINVAL);
}

/* Options that only go with others, or only with run or only with replay. */
static void test_combinations(void)
{
	cli_run_opts o;

	CU_ASSERT_EQUAL(parse(&o, NULL, "--attach", "--hostfile", "h", "prog", NULL),
			PVMMON_EINVAL);
	CU_ASSERT_EQUAL(parse(&o, NULL, "--mode=preserve", "--on-deadlock=abort", "prog", NULL), 0);
	CU_ASSERT(o.preserve);
	CU_ASSERT(o.deadlock_abort);
	/* --on-hang (and its alias) goes with every mode. */
	CU_ASSERT_EQUAL(parse(&o, NULL, "--on-deadlock=abort", "prog", NULL), 0);
	CU_ASSERT(o.deadlock_abort);
	CU_ASSERT_EQUAL(parse(&o, NULL, "--on-hang=abort", "--wait-threshold=250", "prog", NULL),
			0);
	CU_ASSERT(o.deadlock_abort);
	CU_ASSERT_EQUAL(o.wait_ms, 250);
	CU_ASSERT_EQUAL(parse(&o, NULL, "--on-hang=never", "prog", NULL), PVMMON_EINVAL);
	CU_ASSERT_EQUAL(parse(&o, NULL, "--wait-threshold=0", "prog", NULL), PVMMON_EINVAL);
	CU_ASSERT_EQUAL(parse(&o, NULL, "--mode=fast", "prog", NULL), PVMMON_EINVAL);
	CU_ASSERT_EQUAL(parse(&o, NULL, "--stop-at", "0.1:3", "prog", NULL), PVMMON_EINVAL);
	CU_ASSERT_EQUAL(parse(&o, "r.xml", "--stop-at", "0.1:3", "prog", NULL), 0);
	CU_ASSERT_STRING_EQUAL(o.replay, "r.xml");
	CU_ASSERT_STRING_EQUAL(o.stop_at, "0.1:3");
	CU_ASSERT_EQUAL(parse(&o, "r.xml", "--on-divergence=continue-recording", "prog", NULL), 0);
	CU_ASSERT(o.keep_going);
	CU_ASSERT_EQUAL(parse(&o, "r.xml", "--mode=preserve", "prog", NULL), PVMMON_EINVAL);
	/* The event number is digits: strtoul() read "-1" as the largest number. */
	CU_ASSERT_EQUAL(parse(&o, "r.xml", "--stop-at", "0.1:-1", "prog", NULL), PVMMON_EINVAL);
	CU_ASSERT_EQUAL(parse(&o, "r.xml", "--stop-at", "0.1: 2", "prog", NULL), PVMMON_EINVAL);
	CU_ASSERT_EQUAL(parse(&o, "r.xml", "--stop-at", "0.1:0", "prog", NULL), PVMMON_EINVAL);
	CU_ASSERT_EQUAL(parse(&o, "r.xml", "--stop-at", ":2", "prog", NULL), PVMMON_EINVAL);
}

/* --throttle=PCT (kept as a number for PVMMON_THROTTLE) and --no-throttle. */
static void test_throttle(void)
{
	cli_run_opts o;

	CU_ASSERT_EQUAL_FATAL(parse(&o, NULL, "prog", NULL), 0);
	CU_ASSERT_PTR_NULL(o.throttle);
	CU_ASSERT_EQUAL(o.no_throttle, 0);
	CU_ASSERT_STRING_EQUAL(cli__run_throttle(&o), "10");
	CU_ASSERT_EQUAL_FATAL(parse(&o, NULL, "--throttle=40%", "prog", NULL), 0);
	CU_ASSERT_STRING_EQUAL(o.throttle, "40");
	CU_ASSERT_STRING_EQUAL(cli__run_throttle(&o), "40");
	CU_ASSERT_EQUAL_FATAL(parse(&o, NULL, "--throttle=2.5", "prog", NULL), 0);
	CU_ASSERT_STRING_EQUAL(o.throttle, "2.5");
	CU_ASSERT_EQUAL_FATAL(parse(&o, NULL, "--no-throttle", "prog", NULL), 0);
	CU_ASSERT_EQUAL(o.no_throttle, 1);
	CU_ASSERT_STRING_EQUAL(cli__run_throttle(&o), "0");
	CU_ASSERT_EQUAL(parse(&o, NULL, "--throttle=0", "prog", NULL), PVMMON_EINVAL);
	CU_ASSERT_EQUAL(parse(&o, NULL, "--throttle=x", "prog", NULL), PVMMON_EINVAL);
	CU_ASSERT_EQUAL(parse(&o, NULL, "--throttle=2000%", "prog", NULL), PVMMON_EINVAL);
	CU_ASSERT_EQUAL(parse(&o, NULL, "--throttle=5", "--no-throttle", "prog", NULL),
			PVMMON_EINVAL);
}

/* PVMMON_CLOCK: auto and monotonic go to the tasks, anything else is refused here. */
static void test_clock_env(void)
{
	cli_run_opts o;

	setenv("PVMMON_CLOCK", "monotonic", 1);
	CU_ASSERT_EQUAL(parse(&o, NULL, "prog", NULL), 0);
	setenv("PVMMON_CLOCK", "auto", 1);
	CU_ASSERT_EQUAL(parse(&o, NULL, "prog", NULL), 0);
	setenv("PVMMON_CLOCK", "rdtsc", 1);
	CU_ASSERT_EQUAL(parse(&o, NULL, "prog", NULL), PVMMON_EINVAL);
	CU_ASSERT_EQUAL(parse(&o, "replay", "prog", NULL), PVMMON_EINVAL);
	unsetenv("PVMMON_CLOCK");
	CU_ASSERT_EQUAL(parse(&o, NULL, "prog", NULL), 0);
}

/* Time histograms: the defaults, widths with their units, bucket counts, requests. */
static void test_histograms(void)
{
	cli_run_opts o;

	CU_ASSERT_EQUAL_FATAL(parse(&o, NULL, "prog", NULL), 0);
	CU_ASSERT_EQUAL(o.hist_buckets, 128);
	CU_ASSERT_EQUAL(o.hist_width_ns, 10000000);
	CU_ASSERT_EQUAL(o.hist_hottest, 8);
	CU_ASSERT_EQUAL(o.no_histograms, 0);
	CU_ASSERT_PTR_NULL(o.histogram);
	CU_ASSERT_EQUAL_FATAL(parse(&o, NULL, "--hist-width=250us", "--hist-buckets=64",
	                            "--hist-hottest=0", "--no-histograms",
	                            "--histogram=wait:host,calls:stmt", "prog", NULL),
	                      0);
	CU_ASSERT_EQUAL(o.hist_width_ns, 250000);
	CU_ASSERT_EQUAL(o.hist_buckets, 64);
	CU_ASSERT_EQUAL(o.hist_hottest, 0);
	CU_ASSERT_EQUAL(o.no_histograms, 1);
	CU_ASSERT_STRING_EQUAL(o.histogram, "wait:host,calls:stmt");
	CU_ASSERT_EQUAL(parse(&o, NULL, "--hist-width=2s", "prog", NULL), 0);
	CU_ASSERT_EQUAL(o.hist_width_ns, 2000000000LL);
	/* No unit, below a microsecond, over an hour, not a number. */
	CU_ASSERT_EQUAL(parse(&o, NULL, "--hist-width=10", "prog", NULL), PVMMON_EINVAL);
	CU_ASSERT_EQUAL(parse(&o, NULL, "--hist-width=999ns", "prog", NULL), PVMMON_EINVAL);
	CU_ASSERT_EQUAL(parse(&o, NULL, "--hist-width=3601s", "prog", NULL), PVMMON_EINVAL);
	CU_ASSERT_EQUAL(parse(&o, NULL, "--hist-width=ms", "prog", NULL), PVMMON_EINVAL);
	CU_ASSERT_EQUAL(parse(&o, NULL, "--hist-buckets=1", "prog", NULL), PVMMON_EINVAL);
	CU_ASSERT_EQUAL(parse(&o, NULL, "--hist-buckets=65537", "prog", NULL), PVMMON_EINVAL);
	/* A metric with a focus it does not go with, an unknown one, no focus. */
	CU_ASSERT_EQUAL(parse(&o, NULL, "--histogram=time:task", "prog", NULL), PVMMON_EINVAL);
	CU_ASSERT_EQUAL(parse(&o, NULL, "--histogram=speed:task", "prog", NULL), PVMMON_EINVAL);
	CU_ASSERT_EQUAL(parse(&o, NULL, "--histogram=wait", "prog", NULL), PVMMON_EINVAL);
	CU_ASSERT_EQUAL(parse(&o, NULL, "--histogram=wait:task,", "prog", NULL), 0);
}

CU_TestInfo test_runopts_tests[] = {
    {"defaults, the program's own options, help", test_defaults},
    {"each call reads its vector from the start", test_each_call_starts_afresh},
    {"trace sizes: suffixes, overflow, signs refused", test_trace_sizes},
    {"milliseconds and critical-path numbers", test_numbers},
    {"critical-path selections", test_cp_lists},
    {"options of run, of replay, of preserve mode", test_combinations},
    {"--throttle and --no-throttle", test_throttle},
    {"time histograms' options", test_histograms},
    {"PVMMON_CLOCK: auto or monotonic", test_clock_env},
    CU_TEST_INFO_NULL,
};
