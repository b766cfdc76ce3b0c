/* `pvmmon validate` and `pvmmon report`: the commands that read logs. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "pvmmon/errors.h"
#include "pvmmon/log.h"
#include "pvmmon/report.h"

/* Both commands take only --help/--version besides their own flags: whether arg is one
 * of them (then answered). */
static int common_flag(const char *arg, const char *help)
{
	if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
		fputs(help, stdout);
		return 1;
	}
	if (!strcmp(arg, "--version")) {
		printf("pvmmon %s\n", PVMMON_VERSION);
		return 1;
	}
	return 0;
}

int cli__validate(int argc, char **argv)
{
	static const char help[] =
	    "usage: pvmmon validate LOG...\n"
	    "Checks each log against the log schema (doc/pvmmon-log.rng, built in).\n"
	    "Prints one line per log; exits 0 if all are valid, 1 otherwise.\n";
	int i, bad = 0, nlogs = 0;

	for (i = 1; i < argc; i++) {
		if (argv[i][0] == '-' && argv[i][1]) {
			if (common_flag(argv[i], help))
				return 0;
			cli__error("validate: unknown option '%s'", argv[i]);
			return 2;
		}
	}
	for (i = 1; i < argc; i++) {
		nlogs++;
		pvmmon_log *log = NULL;

		/* The log's own version, which may be older than this build's. */
		if (pvmmon_log_validate(argv[i]) < 0 || pvmmon_log_read(&log, argv[i]) < 0) {
			cli__error("%s", pvmmon_error_last());
			bad++;
		} else {
			printf("%s: valid pvmmon log %d.%d\n", argv[i], log->version_major,
			       log->version_minor);
		}
		pvmmon_log_free(log);
	}
	if (!nlogs) {
		fputs(help, stderr);
		return 2;
	}
	return bad ? 1 : 0;
}

/* Sets the report option opt (--format, --time, --prune or --compensation) to v; 0,
 * or PVMMON_EINVAL after saying what it wants. */
static int report_value(pvmmon_report_opts *opts, pvmmon_comp *comp, const char *opt, const char *v)
{
	char *end;
	double pct;

	if (!strcmp(opt, "--compensation")) {
		if (pvmmon_comp_parse(v, comp) == 0)
			return 0;
		cli__error("report: --compensation wants none, local or parallel, not '%s'", v);
	} else if (!strcmp(opt, "--format")) {
		opts->format = v;
		if (!strcmp(v, "svg") || !strcmp(v, "png") || !strcmp(v, "pdf"))
			return 0;
		cli__error("report: unknown format '%s' (svg, png or pdf)", v);
	} else if (!strcmp(opt, "--time")) {
		if (!strcmp(v, "virtual") || !strcmp(v, "real") || !strcmp(v, "both")) {
			opts->time_axes = (v[0] == 'r' ? 0 : PVMMON_REPORT_VIRTUAL) |
			                  (v[0] == 'v' ? 0 : PVMMON_REPORT_REAL);
			return 0;
		}
		cli__error("report: --time wants virtual, real or both, not '%s'", v);
	} else {
		pct = strtod(v, &end);
		if (!*end && end != v && pct >= 0 && pct <= 100) {
			opts->prune = pct / 100.0;
			return 0;
		}
		cli__error("report: --prune wants a percentage from 0 to 100, not '%s'", v);
	}
	return PVMMON_EINVAL;
}

/* The two times after argv[i] (--between T0 T1) into *t0 and *t1; 0, or PVMMON_EINVAL
 * after saying what is wrong. */
static int between_value(int argc, char **argv, int i, int64_t *t0, int64_t *t1)
{
	if (i + 2 >= argc) {
		cli__error("report: --between needs two times (T0 T1, such as 1.5s 2s)");
		return PVMMON_EINVAL;
	}
	if (pvmmon_report_parse_time(argv[i + 1], t0) < 0 ||
	    pvmmon_report_parse_time(argv[i + 2], t1) < 0) {
		cli__error("report: --between: %s", pvmmon_error_last());
		return PVMMON_EINVAL;
	}
	if (*t0 >= *t1) {
		cli__error("report: --between: T0 (%s) must come before T1 (%s)", argv[i + 1],
			   argv[i + 2]);
		return PVMMON_EINVAL;
	}
	return 0;
}

/* Reads the log at path and writes its report: HTML into dir, or text, restricted to
 * [t[0], t[1]) when t is not NULL. The command's exit status. */
static int report_log(const char *path, const char *dir, const pvmmon_report_opts *opts,
		      pvmmon_comp comp, const int64_t *t)
{
	pvmmon_log *log = NULL;
	int rc;

	if (pvmmon_log_read(&log, path) < 0) {
		cli__error("%s", pvmmon_error_last());
		return 1;
	}
	/* A log without raw and local times still has the virtual ones: say so and go on
	 * with them. */
	if (pvmmon_log_use_times(log, comp) < 0)
		cli__error("%s: showing parallel compensation (virtual time) instead of %s",
		           pvmmon_error_last(), pvmmon_comp_name(comp));
	if (dir) {
		rc = pvmmon_report_html(log, dir, opts);
		if (rc == 0)
			printf("pvmmon: report written to %s/index.html\n", dir);
	} else if (t) {
		rc = pvmmon_report_text_between(log, t[0], t[1], stdout);
	} else {
		rc = pvmmon_report_text(log, stdout);
	}
	pvmmon_log_free(log);
	if (rc < 0 && t) {
		cli__error("%s: %s", path, pvmmon_error_last());
		return 1;
	}
	if (rc < 0) {
		cli__error("%s", pvmmon_error_last());
		return 1;
	}
	return 0;
}

int cli__report(int argc, char **argv)
{
	static const char help[] =
	    "usage: pvmmon report LOG [--text] [--compensation none|local|parallel]\n"
	    "       pvmmon report LOG --between T0 T1\n"
	    "       pvmmon report LOG -o DIR [--format svg|png|pdf] [--dot] [--prune PCT]\n"
	    "                     [--time virtual|real|both] [--compensation none|local|parallel]\n"
	    "Without -o, prints a top-down summary of a run: tasks, communication statements\n"
	    "by virtual time with synchronisation delay and transmission split out, the\n"
	    "procedures as a call graph, loops and the program's structure.\n"
	    "With -o, writes an HTML report to DIR: DIR/index.html (open it in a browser; it\n"
	    "works offline), the program graph and call graph of each program as pictures\n"
	    "(--format, default svg), tables of tasks, statements and procedures and the\n"
	    "message matrix. --dot also writes each graph's Graphviz source; --prune folds\n"
	    "statements under PCT percent of the time into one node (default 1).\n"
	    "A run recorded with `pvmmon run --trace` also gets a space-time diagram, in\n"
	    "virtual time (monitoring taken out) unless --time asks for real time or both.\n"
	    "A run in which a task waited in a receive or a hang was said also gets a Hangs\n"
	    "section with the wait-for graph (waits.svg): who waits for whom, where, and the\n"
	    "deadlock cycles in red.\n"
	    "Procedure and loop times are compensated for monitoring overhead: parallel\n"
	    "compensation (virtual time, the default) takes out every task's monitoring and\n"
	    "the waiting it caused in others; --compensation=local takes out only each task's\n"
	    "own monitoring; --compensation=none shows real time.\n"
	    "A run with time histograms (log 1.6) gets an overview timeline in the HTML report\n"
	    "and its phases in the text summary. --between T0 T1 (times from the run's start\n"
	    "such as 1.5s, 200ms, 30us) prints the tasks', statements', procedures' and loops'\n"
	    "figures within that interval, computed from the histograms.\n";
	const char *path = NULL, *dir = NULL;
	pvmmon_report_opts opts = {"svg", 0, 0.01, PVMMON_REPORT_VIRTUAL};
	pvmmon_comp comp = PVMMON_COMP_PARALLEL;
	int i, between = 0;
	int64_t t[2] = {0, 0};

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--text"))
			continue;
		if (!strcmp(a, "--between")) {
			if (between_value(argc, argv, i, &t[0], &t[1]) < 0)
				return 2;
			between = 1;
			i += 2;
			continue;
		}
		if (!strcmp(a, "--dot")) {
			opts.write_dot = 1;
			continue;
		}
		if (!strncmp(a, "--compensation=", 15) || !strcmp(a, "--compensation")) {
			const char *v = a[14] == '=' ? a + 15 : i + 1 < argc ? argv[++i] : NULL;

			if (!v) {
				cli__error("report: %s needs a value", a);
				return 2;
			}
			if (report_value(&opts, &comp, "--compensation", v) < 0)
				return 2;
			continue;
		}
		if ((!strcmp(a, "-o") || !strcmp(a, "--output") || !strcmp(a, "--format") ||
		     !strcmp(a, "--prune") || !strcmp(a, "--time")) &&
		    i + 1 >= argc) {
			cli__error("report: %s needs a value", a);
			return 2;
		}
		if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
			dir = argv[++i];
			continue;
		}
		if (!strcmp(a, "--format") || !strcmp(a, "--time") || !strcmp(a, "--prune")) {
			if (report_value(&opts, &comp, a, argv[++i]) < 0)
				return 2;
			continue;
		}
		if (a[0] == '-' && a[1]) {
			if (common_flag(a, help))
				return 0;
			cli__error("report: unknown option '%s'", a);
			return 2;
		}
		if (path) {
			cli__error("report: one log at a time ('%s' and '%s')", path, a);
			return 2;
		}
		path = a;
	}
	if (!path) {
		fputs(help, stderr);
		return 2;
	}
	if (!dir && (opts.write_dot || strcmp(opts.format, "svg") || opts.prune != 0.01 ||
	             opts.time_axes != PVMMON_REPORT_VIRTUAL)) {
		cli__error("report: --format, --dot, --prune and --time need -o DIR");
		return 2;
	}
	if (dir && between) {
		cli__error("report: --between is for the text report (no -o)");
		return 2;
	}
	return report_log(path, dir, &opts, comp, between ? t : NULL);
}
