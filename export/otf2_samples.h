/* Private to export/: a run's call-path samples in an OTF2 archive, as calling contexts. */
#ifndef PVMMON_EXPORT_OTF2_SAMPLES_H
#define PVMMON_EXPORT_OTF2_SAMPLES_H

#include <stdint.h>

#include "pvmmon/log.h"

struct OTF2_EvtWriter_struct;
struct OTF2_GlobalDefWriter_struct;

/* The calling contexts, their regions and the sampling rates the tasks' events use. */
typedef struct export_otf2_ctxs export_otf2_ctxs;

int export__otf2_ctxs_new(export_otf2_ctxs **out);
void export__otf2_ctxs_free(export_otf2_ctxs *cx);

/*
 * Task t's computing samples (resolved as the reports do, from main in) on its event
 * writer w: one CallingContextSample per sample of each call path, at ts (the log keeps
 * each path's count, not each sample's time: all carry the task's last time), with the
 * path's depth as the unwind distance and the task's rate as the interrupt generator.
 * *count gets the events written. 0 or a negative code with the last error set.
 */
int export__otf2_samples(struct OTF2_EvtWriter_struct *w, export_otf2_ctxs *cx,
                         const pvmmon_log_task *t, uint64_t ts, uint64_t *count);

/* The definitions the events refer to: strings from s_first and regions from r_first
 * (ids above the archive's others), the calling contexts (a tree merged over the tasks
 * by procedure name), an interrupt generator per rate. Returns the last OTF2 error code
 * (0: success). */
int export__otf2_samples_defs(struct OTF2_GlobalDefWriter_struct *g, const export_otf2_ctxs *cx,
                              uint32_t s_first, uint32_t r_first);

#endif
