/* Checking a log's time histograms (log version 1.6) against the run's settings: the
 * schema checks their form, this their arithmetic. */
#include <stdint.h>
#include <stdio.h>

#include "log_hist.h"
#include "pvmmon/errors.h"

/* One histogram against the settings; who names its owner in the message. */
static int check_one(const pvmmon_log *log, const pvmmon_log_hist *h, const char *who,
                     const char *path)
{
	const char *m = pvmmon_hist_metric_name(h->metric);

	if (!log->hist.enabled)
		return pvmmon_error_set(PVMMON_EPARSE,
		                        "%s: %s has a %s histogram but the log has no "
		                        "<histograms> settings",
		                        path, who, m);
	if (h->nbuckets > log->hist.buckets)
		return pvmmon_error_set(PVMMON_EPARSE,
		                        "%s: %s's %s histogram has %zu values, more than the "
		                        "run's %u buckets",
		                        path, who, m, h->nbuckets, log->hist.buckets);
	if (h->doublings > 62 || log->hist.initial_width_ns > (INT64_MAX >> h->doublings) ||
	    h->width_ns != log->hist.initial_width_ns << h->doublings)
		return pvmmon_error_set(PVMMON_EPARSE,
		                        "%s: %s's %s histogram is %lld ns wide, not the initial "
		                        "%lld ns doubled %u times",
		                        path, who, m, (long long)h->width_ns,
		                        (long long)log->hist.initial_width_ns, h->doublings);
	return 0;
}

int log__hists_check(const pvmmon_log *log, const char *path)
{
	char who[64];
	int rc = 0;

	for (size_t i = 0; i < log->nhists && rc == 0; i++)
		rc = check_one(log, &log->hists[i], "the run", path);
	for (size_t t = 0; t < log->ntasks && rc == 0; t++)
		for (size_t i = 0; i < log->tasks[t].nhists && rc == 0; i++) {
			snprintf(who, sizeof(who), "task %s",
			         log->tasks[t].lid ? log->tasks[t].lid : "?");
			rc = check_one(log, &log->tasks[t].hists[i], who, path);
		}
	return rc;
}
