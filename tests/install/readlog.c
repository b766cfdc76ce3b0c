/*
 * A program outside the tree, built against an installed pvmmon (pkg-config pvmmon):
 * reads and validates a log, prints its task count and writes its text report and
 * every task's call graph, so that the installed headers and libpvmmon.so are checked
 * to be complete and to agree.
 */
#include <stdio.h>

#include <pvmmon/callgraph.h>
#include <pvmmon/errors.h>
#include <pvmmon/log.h>
#include <pvmmon/report.h>

int main(int argc, char **argv)
{
	pvmmon_log *log = NULL;
	FILE *sink = NULL;
	int rc = 1;

	if (argc != 2) {
		fprintf(stderr, "usage: readlog LOG\n");
		return 2;
	}
	if (pvmmon_log_validate(argv[1]) < 0 || pvmmon_log_read(&log, argv[1]) < 0) {
		fprintf(stderr, "readlog: %s\n", pvmmon_error_last());
		return 1;
	}
	sink = fopen("/dev/null", "w");
	if (!sink || pvmmon_report_text(log, sink) < 0) {
		fprintf(stderr, "readlog: report: %s\n", pvmmon_error_last());
		goto out;
	}
	for (size_t i = 0; i < log->ntasks; i++) {
		pvmmon_callgraph *cg = NULL;

		if (pvmmon_callgraph_build(&cg, &log->tasks[i]) < 0) {
			fprintf(stderr, "readlog: call graph: %s\n", pvmmon_error_last());
			goto out;
		}
		pvmmon_callgraph_free(cg);
	}
	printf("program %s, %zu tasks\n", log->program ? log->program : "?", log->ntasks);
	rc = 0;
out:
	if (sink)
		fclose(sink);
	pvmmon_log_free(log);
	return rc;
}
