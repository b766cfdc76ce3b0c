/* Private to export/: the OTF2 archive of a run without a trace, its profile. */
#ifndef PVMMON_EXPORT_OTF2_PROFILE_H
#define PVMMON_EXPORT_OTF2_PROFILE_H

#include <stdint.h>

#include "otf2_samples.h"
#include "pvmmon/log.h"

struct OTF2_Archive_struct;

/*
 * The profile of a run without a trace into archive ar (its event files open): per task
 * and region (statement by source place, procedure, loop) one Metric event at the task's
 * end (virtual, or real with real) carrying time (ns: a statement's virtual time, a
 * procedure's inclusive, a loop's; real ones with real where the log has them), calls
 * and bytes, with the attribute "region" naming the region, and a sampled task's
 * call-path samples (cx); then the definitions. counts[i] gets task i's events,
 * *samples the metric events, *ctx_samples (added to) the call-path samples.
 */
int export__otf2_profile(struct OTF2_Archive_struct *ar, const pvmmon_log *log, int real,
                         export_otf2_ctxs *cx, uint64_t *counts, uint64_t *samples,
                         uint64_t *ctx_samples);

#endif
