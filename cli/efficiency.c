/*
 * `pvmmon efficiency A.xml B.xml ...`: the POP efficiency metrics of traced runs of one
 * program at different task counts, side by side: per run the parallel efficiency and
 * its factors, and across runs the computation scaling (the first run's useful time
 * over each run's) and the global efficiency (parallel efficiency x computation
 * scaling); with --network, each run predicted on a network of the user's choosing,
 * and with --curve, what making its largest causes (or a task) faster would gain.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "pvmmon/errors.h"
#include "pvmmon/log.h"
#include "pvmmon/waits.h"

static const char help[] =
    "usage: pvmmon efficiency [--network=ideal|L,B] [--curve[=TASK]] LOG [LOG...]\n"
    "Prints the efficiency of each traced run (pvmmon run --trace) in virtual time:\n"
    "load balance (mean useful time / max useful time, useful = a task's computation\n"
    "outside PVM calls), communication efficiency (max useful / the run), split into\n"
    "serialisation (max useful / the run replayed with free messages) and transfer\n"
    "(that replay / the run), and parallel efficiency (load balance x communication).\n"
    "With several logs (runs of one program at different task counts, the first the\n"
    "reference), also the computation scaling (the first run's total useful time /\n"
    "each run's) and the global efficiency (parallel efficiency x computation\n"
    "scaling).\n"
    "  --network=ideal|L,B  also the run predicted (by a replay of its activity graph)\n"
    "                       with every message costing L microseconds + its bytes at\n"
    "                       B MB/s (ideal: nothing), column 'net run'\n"
    "  --curve[=TASK]       after each run, its length predicted with each of its three\n"
    "                       largest wait causes (and all of task TASK's computation, by\n"
    "                       logical id, e.g. 0.1) 0, 10, ..., 100% faster, on the\n"
    "                       --network given or the measured one\n";

/* The options. */
typedef struct eff_opts {
	int network, curve;
	int64_t lat_ns;
	double bytes_per_ns;
	const char *task; /* --curve=TASK */
} eff_opts;

/* Parses option arg into o; 0, or 2 after saying what is wrong. */
static int option(eff_opts *o, const char *arg)
{
	if (!strncmp(arg, "--network=", 10) || !strcmp(arg, "--network")) {
		if (pvmmon_waits_parse_network("--network", arg[9] ? arg + 10 : NULL, &o->lat_ns,
		                               &o->bytes_per_ns) < 0) {
			cli__error("efficiency: %s", pvmmon_error_last());
			return 2;
		}
		o->network = 1;
		return 0;
	}
	if (!strcmp(arg, "--curve") || !strncmp(arg, "--curve=", 8)) {
		o->curve = 1;
		o->task = arg[7] ? arg + 8 : NULL;
		if (o->task && !*o->task) {
			cli__error("efficiency: --curve= wants a task's logical id (e.g. 0.1)");
			return 2;
		}
		return 0;
	}
	cli__error("efficiency: unknown option '%s' (see pvmmon efficiency --help)", arg);
	return 2;
}

/* The curve table of run log (--curve): its largest causes and o->task's computation. */
static int curves(const eff_opts *o, const char *file, const pvmmon_log *log,
                  const pvmmon_waits *w)
{
	pvmmon_wait_cause c[4];
	size_t n = 0;
	int64_t lat = o->network ? o->lat_ns : -1;

	while (n < w->ncauses && n < 3 && w->causes[n].short_ns + w->causes[n].long_ns > 0) {
		c[n] = w->causes[n];
		n++;
	}
	if (o->task) {
		size_t x;

		for (x = 0; x < log->ntasks; x++)
			if (log->tasks[x].lid && !strcmp(log->tasks[x].lid, o->task))
				break;
		if (x == log->ntasks) {
			cli__error("efficiency: %s: --curve=%s: no task of that logical id", file,
			           o->task);
			return 1;
		}
		c[n++] = (pvmmon_wait_cause){x, PVMMON_WAIT_ALL_COMPUTATION, 0, 0, 0};
	}
	if (!n)
		return 0;
	if (pvmmon_waits_curve_table(log, c, n, lat, o->bytes_per_ns, stdout) < 0) {
		cli__error("efficiency: %s: %s", file, pvmmon_error_last());
		return 1;
	}
	return 0;
}

int cli__efficiency(int argc, char **argv)
{
	int64_t ref = 0;
	int rc = 0, nlogs = 0;
	eff_opts o = {0};

	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		fputs(help, stdout);
		return 0;
	}
	for (int i = 1; i < argc; i++) {
		if (argv[i][0] != '-')
			nlogs++;
		else if (option(&o, argv[i]))
			return 2;
	}
	if (!nlogs) {
		cli__error("efficiency: which logs? (pvmmon efficiency LOG [LOG...])");
		return 2;
	}
	printf("%-28s %5s %10s %8s %8s %8s %8s %8s %8s %8s%s\n", "log", "tasks", "run", "LB",
	       "comm", "serial", "transfer", "parallel", "scaling", "global",
	       o.network ? "    net run" : "");
	for (int i = 1; i < argc; i++) {
		pvmmon_log *log = NULL;
		pvmmon_waits *w = NULL;
		int64_t useful, net = 0;
		double scaling;

		if (argv[i][0] == '-')
			continue;

		/* The reader's errors name the file already. */
		if (pvmmon_log_read(&log, argv[i]) < 0) {
			cli__error("efficiency: %s", pvmmon_error_last());
			rc = 1;
			continue;
		}
		if (pvmmon_waits_compute(&w, log) < 0) {
			cli__error("efficiency: %s: %s", argv[i], pvmmon_error_last());
			pvmmon_log_free(log);
			rc = 1;
			continue;
		}
		useful = w->useful_avg_ns * (int64_t)log->ntasks;
		if (!ref)
			ref = useful;
		scaling = useful > 0 ? (double)ref / (double)useful : 1.0;
		printf("%-28s %5zu %8.2fms %7.1f%% %7.1f%% %7.1f%% %7.1f%% %7.1f%% %7.1f%% %7.1f%%",
		       argv[i], log->ntasks, (double)w->runtime_ns / 1e6, 100 * w->load_balance,
		       100 * w->comm_efficiency, 100 * w->serialisation, 100 * w->transfer,
		       100 * w->parallel_efficiency, 100 * scaling,
		       100 * w->parallel_efficiency * scaling);
		if (o.network) {
			if (pvmmon_waits_predict_net(&net, log, NULL, 0, o.lat_ns, o.bytes_per_ns) < 0) {
				putchar('\n');
				cli__error("efficiency: %s: %s", argv[i], pvmmon_error_last());
				rc = 1;
			} else {
				printf(" %9.2fms\n", (double)net / 1e6);
			}
		} else {
			putchar('\n');
		}
		if (o.curve && curves(&o, argv[i], log, w))
			rc = 1;
		pvmmon_waits_free(w);
		pvmmon_log_free(log);
	}
	return rc;
}
