/* `pvmmon export`: a log's tables as CSV files or one JSON document, for scripts. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../export/otf2.h"
#include "cli.h"
#include "pvmmon/errors.h"
#include "pvmmon/export.h"
#include "pvmmon/log.h"

static const char help[] =
    "usage: pvmmon export LOG [--csv DIR] [--json FILE] [--otf2 DIR] [--perfetto FILE]\n"
    "                         [--time virtual|real]\n"
    "Writes the figures of a run's log as tables for scripts and spreadsheets:\n"
    "  --csv DIR    one CSV file per table in DIR (created if missing), each with a\n"
    "               header row\n"
    "  --json FILE  every table in one JSON document (FILE - for standard output),\n"
    "               valid against doc/pvmmon-export.schema.json\n"
    "  --otf2 DIR   the event trace of a run recorded with --trace as an OTF2 archive\n"
    "               (DIR/traces.otf2) for Vampir, Scalasca, otf2-print: a location per\n"
    "               task on its host, enter and leave of each PVM call and traced\n"
    "               procedure, messages as send and receive records; on the virtual\n"
    "               clock (monitoring taken out) unless --time real\n"
    "               A run without a trace gives its profile: per task and statement,\n"
    "               procedure and loop, time, calls and bytes as OTF2 metrics\n"
    "  --perfetto FILE  the event trace of a run recorded with --trace as one JSON\n"
    "               document in the Trace Event Format (FILE - for standard output)\n"
    "               for ui.perfetto.dev and chrome://tracing: a process per host, a\n"
    "               thread per task, each PVM call and traced procedure a slice,\n"
    "               messages as arrows from send to receive, the critical path (runs\n"
    "               with --cp=...) as a thread of its own; on the virtual clock unless\n"
    "               --time real\n"
    "The tables: run, hosts, tasks, statements, statement_partners, messages (the\n"
    "message matrix: sender, receiver, messages, bytes), procedures (one row per call\n"
    "site), callgraph (recursion collapsed), loops, critical_path, critical_path_nodes\n"
    "(recomputed from a whole trace), costs, switches, hangs. Units are in the column\n"
    "names: _ns nanoseconds (virtual time unless the name says real or local), bytes.\n";

/* One JSON document to write: the tables, or the Perfetto trace on a clock. */
typedef struct json_doc {
	int perfetto, real;
	pvmmon_perfetto_counts n;
} json_doc;

static int put_doc(const pvmmon_log *log, FILE *f, json_doc *d)
{
	return d->perfetto ? pvmmon_export_perfetto(log, f, d->real, &d->n)
	                   : pvmmon_export_json(log, f);
}

/* Writes a JSON document to path atomically (a temporary file renamed), or to
 * standard output for "-". */
static int write_json(const pvmmon_log *log, const char *path, json_doc *d)
{
	char tmp[4200];
	FILE *f;
	int rc;

	if (!strcmp(path, "-"))
		return put_doc(log, stdout, d);
	snprintf(tmp, sizeof(tmp), "%s.tmp%ld", path, (long)getpid());
	f = fopen(tmp, "w");
	if (!f)
		return pvmmon_error_set(PVMMON_EIO, "export: cannot write %s: %s", path,
		                        strerror(errno));
	rc = put_doc(log, f, d);
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

/* The OTF2 archive, and what it holds, said on standard error. */
static int write_otf2(const pvmmon_log *log, const char *dir, int real)
{
	pvmmon_otf2_counts n;
	int rc;

	if (mkdir(dir, 0777) != 0 && errno != EEXIST)
		return pvmmon_error_set(PVMMON_EIO, "export: cannot create %s: %s", dir,
		                        strerror(errno));
	rc = export__otf2(log, dir, real, &n);
	if (rc < 0)
		return rc;
	if (n.ctx_samples)
		fprintf(stderr,
		        "pvmmon: export: %s/traces.otf2: %llu call-path samples as calling-context "
		        "samples, each at its task's last time (the log counts them by path)\n",
		        dir, (unsigned long long)n.ctx_samples);
	if (!log->trace.enabled)
		fprintf(stderr,
		        "pvmmon: export: %s/traces.otf2: the run's profile, %llu samples (a task's "
		        "time, calls and bytes per statement, procedure and loop, as metrics); the "
		        "run has no event trace: a trace needs pvmmon run --trace\n",
		        dir, (unsigned long long)n.samples);
	else
		fprintf(stderr,
		        "pvmmon: export: %s/traces.otf2: %llu enters, %llu leaves, %llu sends, "
		        "%llu receives (%s time)%s\n",
		        dir, (unsigned long long)n.enters, (unsigned long long)n.leaves,
		        (unsigned long long)n.sends, (unsigned long long)n.recvs,
		        real ? "real" : "virtual",
		        log->trace.dropped ? "; the trace was cut at its limit" : "");
	return 0;
}

/* The Perfetto trace, and what it holds, said on standard error; a log without a
 * trace is refused with the file named. */
static int write_perfetto(const pvmmon_log *log, const char *path, const char *file, int real)
{
	json_doc d = {1, real, {0}};
	int rc;

	if (!log->trace.enabled)
		return pvmmon_error_set(PVMMON_EINVAL,
		                        "export: %s has no event trace: a Perfetto trace needs "
		                        "a run recorded with pvmmon run --trace",
		                        path);
	rc = write_json(log, file, &d);
	if (rc < 0)
		return rc;
	fprintf(stderr, "pvmmon: export: %s: %llu slices, %llu message arrows, %s (%s time)%s\n",
	        strcmp(file, "-") ? file : "standard output", (unsigned long long)d.n.slices,
	        (unsigned long long)d.n.flows,
	        d.n.no_path[0] ? "no critical path" : "the critical path as its own thread",
	        real ? "real" : "virtual",
	        log->trace.dropped ? "; the trace was cut at its limit" : "");
	if (d.n.no_path[0])
		fprintf(stderr, "pvmmon: export: no critical path: %s\n", d.n.no_path);
	return 0;
}

int cli__export(int argc, char **argv)
{
	const char *path = NULL, *csv = NULL, *json = NULL, *otf2 = NULL, *perfetto = NULL;
	int real = 0;
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
		if (!strcmp(a, "--csv") || !strcmp(a, "--json") || !strcmp(a, "--otf2") ||
		    !strcmp(a, "--perfetto") || !strcmp(a, "--time")) {
			if (i + 1 >= argc) {
				cli__error("export: %s needs a value", a);
				return 2;
			}
			if (a[2] == 't') {
				real = !strcmp(argv[++i], "real");
				if (!real && strcmp(argv[i], "virtual")) {
					cli__error("export: --time wants virtual or real, not '%s'",
					           argv[i]);
					return 2;
				}
				continue;
			}
			*(a[2] == 'c'   ? &csv
			  : a[2] == 'j' ? &json
			  : a[2] == 'p' ? &perfetto
			                : &otf2) = argv[++i];
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
	if (!path || (!csv && !json && !otf2 && !perfetto)) {
		cli__error("export: %s", !path ? "no log given"
		                               : "say --csv DIR, --json FILE, --otf2 DIR or "
		                                 "--perfetto FILE");
		fputs(help, stderr);
		return 2;
	}
	if (json && perfetto && !strcmp(json, "-") && !strcmp(perfetto, "-")) {
		cli__error("export: --json - and --perfetto - would share standard output");
		return 2;
	}
	if (pvmmon_log_read(&log, path) < 0) {
		cli__error("%s", pvmmon_error_last());
		return 1;
	}
	if (csv)
		rc = pvmmon_export_csv(log, csv);
	if (rc == 0 && json) {
		json_doc d = {0, 0, {0}};

		rc = write_json(log, json, &d);
	}
	if (rc == 0 && otf2)
		rc = write_otf2(log, otf2, real);
	if (rc == 0 && perfetto)
		rc = write_perfetto(log, path, perfetto, real);
	pvmmon_log_free(log);
	if (rc < 0) {
		cli__error("%s", pvmmon_error_last());
		return 1;
	}
	return 0;
}
