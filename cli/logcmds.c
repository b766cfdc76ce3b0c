/* `pvmmon validate` and `pvmmon report`: the commands that read logs. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "pvmmon/errors.h"
#include "pvmmon/log.h"
#include "pvmmon/report.h"
#include "cli.h"

/* Both commands take only --help/--version besides their own flags. */
static int common_flag(const char *arg, const char *help)
{
	if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
		fputs(help, stdout);
		return 0;
	}
	if (!strcmp(arg, "--version")) {
		printf("pvmmon %s\n", PVMMON_VERSION);
		return 0;
	}
	return -1;
}

int cli_validate(int argc, char **argv)
{
	static const char help[] =
	    "usage: pvmmon validate LOG...\n"
	    "Checks each log against the log schema (doc/pvmmon-log.rng, built in).\n"
	    "Prints one line per log; exits 0 if all are valid, 1 otherwise.\n";
	int i, bad = 0, nlogs = 0;

	for (i = 1; i < argc; i++) {
		if (argv[i][0] == '-' && argv[i][1]) {
			if (common_flag(argv[i], help) == 0)
				return 0;
			cli_error("validate: unknown option '%s'", argv[i]);
			return 2;
		}
	}
	for (i = 1; i < argc; i++) {
		nlogs++;
		if (pvmmon_log_validate(argv[i]) < 0) {
			cli_error("%s", pvmmon_error_last());
			bad++;
		} else {
			printf("%s: valid pvmmon log %d.%d\n", argv[i], PVMMON_LOG_VERSION_MAJOR,
			       PVMMON_LOG_VERSION_MINOR);
		}
	}
	if (!nlogs) {
		fputs(help, stderr);
		return 2;
	}
	return bad ? 1 : 0;
}

int cli_report(int argc, char **argv)
{
	static const char help[] =
	    "usage: pvmmon report LOG [--text]\n"
	    "Prints a top-down summary of a run: tasks, then communication statements by\n"
	    "virtual time with synchronisation delay and transmission split out, then\n"
	    "procedures and loops. --text is the default (and so far the only) format.\n";
	const char *path = NULL;
	pvmmon_log *log = NULL;
	int i, rc;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--text"))
			continue;
		if (argv[i][0] == '-' && argv[i][1]) {
			if (common_flag(argv[i], help) == 0)
				return 0;
			cli_error("report: unknown option '%s'", argv[i]);
			return 2;
		}
		if (path) {
			cli_error("report: one log at a time ('%s' and '%s')", path, argv[i]);
			return 2;
		}
		path = argv[i];
	}
	if (!path) {
		fputs(help, stderr);
		return 2;
	}
	if (pvmmon_log_read(&log, path) < 0) {
		cli_error("%s", pvmmon_error_last());
		return 1;
	}
	rc = pvmmon_report_text(log, stdout);
	pvmmon_log_free(log);
	if (rc < 0) {
		cli_error("report: %s", pvmmon_error_last());
		return 1;
	}
	return 0;
}
