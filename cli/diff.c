/* `pvmmon diff A B`: what changed between two runs of a program. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "pvmmon/diff.h"
#include "pvmmon/errors.h"
#include "pvmmon/log.h"

static const char help[] =
    "usage: pvmmon diff A.xml B.xml [--top N] [-o DIR]\n"
    "Compares two runs of a program (A before, B after): per task, communication\n"
    "statement, procedure and loop, the virtual time, counts and bytes in each run and\n"
    "the change, largest changes in time first (procedures by exclusive time), and the\n"
    "critical paths of both side by side when the runs were profiled with --cp.\n"
    "Items match by task (logical id) and by name: statements by file:line and call.\n"
    "--top N shows the N largest changes of each section (default 20; 0 for all).\n"
    "-o DIR writes the comparison as an HTML page, DIR/index.html, instead.\n";

int cli__diff(int argc, char **argv)
{
	const char *paths[2] = {NULL, NULL}, *dir = NULL;
	pvmmon_log *logs[2] = {NULL, NULL};
	size_t top = 20;
	int n = 0, rc = 0;

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
		if (!strcmp(a, "--top")) {
			char *end;
			long v = i + 1 < argc ? strtol(argv[i + 1], &end, 10) : -1;

			if (v < 0 || *end || end == argv[i + 1]) {
				cli__error("diff: --top wants a number of rows (0 for all)");
				return 2;
			}
			top = (size_t)v;
			i++;
			continue;
		}
		if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
			if (i + 1 >= argc) {
				cli__error("diff: %s needs a value", a);
				return 2;
			}
			dir = argv[++i];
			continue;
		}
		if (a[0] == '-' && a[1]) {
			cli__error("diff: unknown option '%s' (see pvmmon diff --help)", a);
			return 2;
		}
		if (n == 2) {
			cli__error("diff: two logs, not more ('%s')", a);
			return 2;
		}
		paths[n++] = a;
	}
	if (n != 2) {
		cli__error("diff: two logs are needed");
		fputs(help, stderr);
		return 2;
	}
	for (int i = 0; i < 2 && rc == 0; i++)
		if (pvmmon_log_read(&logs[i], paths[i]) < 0)
			rc = -1;
	if (rc == 0 && dir) {
		rc = pvmmon_diff_html(logs[0], logs[1], top, dir);
		if (rc == 0)
			printf("pvmmon: comparison written to %s/index.html\n", dir);
	} else if (rc == 0) {
		rc = pvmmon_diff_text(logs[0], logs[1], top, stdout);
	}
	pvmmon_log_free(logs[0]);
	pvmmon_log_free(logs[1]);
	if (rc < 0) {
		cli__error("%s", pvmmon_error_last());
		return 1;
	}
	return 0;
}
