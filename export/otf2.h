/* Private to export/ and the pvmmon command: writing a traced run as an OTF2 archive. */
#ifndef PVMMON_EXPORT_OTF2_H
#define PVMMON_EXPORT_OTF2_H

#include <stdint.h>

#include "pvmmon/log.h"

/* The records written, by kind. */
typedef struct pvmmon_otf2_counts {
	uint64_t enters, leaves, sends, recvs;
	uint64_t samples; /* a run without a trace: profile samples (task x region) */
	uint64_t ctx_samples; /* call-path samples as CallingContextSample events */
} pvmmon_otf2_counts;

/*
 * Writes log as an OTF2 archive in dir (dir/traces.otf2 and dir/traces/; dir may exist,
 * an archive already in it is refused): one location per task, in a process (location
 * group) on its host's system-tree node; a region per PVM call kind and per procedure of
 * the critical-path selection; each traced call as an enter and a leave, with a message
 * send or receive (tag and size, in the communicator of all tasks, ranks being the
 * tasks' places in the log) when its partner is a task of the program. Times on the
 * virtual clock, or with real the real call times, in ns from the earliest event. A log
 * without a trace gives its profile (otf2_profile.h). A sampled run's call-path samples
 * are calling-context samples on each task's location (otf2_samples.h) in both. *n gets
 * what was written.
 */
int export__otf2(const pvmmon_log *log, const char *dir, int real, pvmmon_otf2_counts *n);

#endif
