/*
 * `pvmmon efficiency A.xml B.xml ...`: the POP efficiency metrics of traced runs of one
 * program at different task counts, side by side: per run the parallel efficiency and
 * its factors, and across runs the computation scaling (the first run's useful time
 * over each run's) and the global efficiency (parallel efficiency x computation
 * scaling).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "pvmmon/errors.h"
#include "pvmmon/log.h"
#include "pvmmon/waits.h"

static const char help[] =
    "usage: pvmmon efficiency LOG [LOG...]\n"
    "Prints the efficiency of each traced run (pvmmon run --trace) in virtual time:\n"
    "load balance (mean useful time / max useful time, useful = a task's computation\n"
    "outside PVM calls), communication efficiency (max useful / the run), split into\n"
    "serialisation (max useful / the run replayed with free messages) and transfer\n"
    "(that replay / the run), and parallel efficiency (load balance x communication).\n"
    "With several logs (runs of one program at different task counts, the first the\n"
    "reference), also the computation scaling (the first run's total useful time /\n"
    "each run's) and the global efficiency (parallel efficiency x computation\n"
    "scaling).\n";

int cli__efficiency(int argc, char **argv)
{
	int64_t ref = 0;
	int rc = 0;

	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		fputs(help, stdout);
		return 0;
	}
	if (argc < 2) {
		cli__error("efficiency: which logs? (pvmmon efficiency LOG [LOG...])");
		return 2;
	}
	for (int i = 1; i < argc; i++)
		if (argv[i][0] == '-') {
			cli__error("efficiency: unknown option '%s' (see pvmmon efficiency --help)",
			           argv[i]);
			return 2;
		}
	printf("%-28s %5s %10s %8s %8s %8s %8s %8s %8s %8s\n", "log", "tasks", "run", "LB",
	       "comm", "serial", "transfer", "parallel", "scaling", "global");
	for (int i = 1; i < argc; i++) {
		pvmmon_log *log = NULL;
		pvmmon_waits *w = NULL;
		int64_t useful;
		double scaling;

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
		printf("%-28s %5zu %8.2fms %7.1f%% %7.1f%% %7.1f%% %7.1f%% %7.1f%% %7.1f%% %7.1f%%\n",
		       argv[i], log->ntasks, (double)w->runtime_ns / 1e6, 100 * w->load_balance,
		       100 * w->comm_efficiency, 100 * w->serialisation, 100 * w->transfer,
		       100 * w->parallel_efficiency, 100 * scaling,
		       100 * w->parallel_efficiency * scaling);
		pvmmon_waits_free(w);
		pvmmon_log_free(log);
	}
	return rc;
}
