/* `pvmmon export`: a log's tables as CSV files or one JSON document, for scripts. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "pvmmon/errors.h"
#include "pvmmon/export.h"
#include "pvmmon/log.h"

static const char help[] =
    "usage: pvmmon export LOG [--csv DIR] [--json FILE]\n"
    "Writes the figures of a run's log as tables for scripts and spreadsheets:\n"
    "  --csv DIR    one CSV file per table in DIR (created if missing), each with a\n"
    "               header row\n"
    "  --json FILE  every table in one JSON document (FILE - for standard output),\n"
    "               valid against doc/pvmmon-export.schema.json\n"
    "The tables: run, hosts, tasks, statements, statement_partners, messages (the\n"
    "message matrix: sender, receiver, messages, bytes), procedures (one row per call\n"
    "site), callgraph (recursion collapsed), loops, critical_path, critical_path_nodes\n"
    "(recomputed from a whole trace), costs, switches, hangs. Units are in the column\n"
    "names: _ns nanoseconds (virtual time unless the name says real or local), bytes.\n";

/* Writes the JSON document to path atomically (a temporary file renamed), or to
 * standard output for "-". */
static int write_json(const pvmmon_log *log, const char *path)
{
	char tmp[4200];
	FILE *f;
	int rc;

	if (!strcmp(path, "-"))
		return pvmmon_export_json(log, stdout);
	snprintf(tmp, sizeof(tmp), "%s.tmp%ld", path, (long)getpid());
	f = fopen(tmp, "w");
	if (!f)
		return pvmmon_error_set(PVMMON_EIO, "export: cannot write %s: %s", path,
		                        strerror(errno));
	rc = pvmmon_export_json(log, f);
	if (fclose(f) != 0 && rc == 0)
		rc = pvmmon_error_set(PVMMON_EIO, "export: cannot write %s: %s", path,
		                      strerror(errno));
	if (rc == 0 && rename(tmp, path) != 0)
		rc = pvmmon_error_set(PVMMON_EIO, "export: cannot write %s: %s", path,
		                      strerror(errno));
	if (rc < 0)
		unlink(tmp);
	return rc;
}

int cli__export(int argc, char **argv)
{
	const char *path = NULL, *csv = NULL, *json = NULL;
	pvmmon_log *log = NULL;
	int rc = 0;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(help, stdout);
			return 0;
		}
		if (!strcmp(a, "--version")) {
			printf("pvmmon %s\n", PVMMON_VERSION);
			return 0;
		}
		if (!strcmp(a, "--csv") || !strcmp(a, "--json")) {
			if (i + 1 >= argc) {
				cli__error("export: %s needs a value", a);
				return 2;
			}
			*(a[2] == 'c' ? &csv : &json) = argv[++i];
			continue;
		}
		if (a[0] == '-' && a[1]) {
			cli__error("export: unknown option '%s' (see pvmmon export --help)", a);
			return 2;
		}
		if (path) {
			cli__error("export: one log at a time ('%s' and '%s')", path, a);
			return 2;
		}
		path = a;
	}
	if (!path || (!csv && !json)) {
		cli__error("export: %s", !path ? "no log given" : "say --csv DIR or --json FILE");
		fputs(help, stderr);
		return 2;
	}
	if (pvmmon_log_read(&log, path) < 0) {
		cli__error("%s", pvmmon_error_last());
		return 1;
	}
	if (csv)
		rc = pvmmon_export_csv(log, csv);
	if (rc == 0 && json)
		rc = write_json(log, json);
	pvmmon_log_free(log);
	if (rc < 0) {
		cli__error("%s", pvmmon_error_last());
		return 1;
	}
	return 0;
}
