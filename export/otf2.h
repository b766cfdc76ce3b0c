/* Private to export/ and the pvmmon command: writing a traced run as an OTF2 archive. */
#ifndef PVMMON_EXPORT_OTF2_H
#define PVMMON_EXPORT_OTF2_H

#include <stdint.h>

#include "pvmmon/log.h"

/* The records written, by kind. */
typedef struct pvmmon_otf2_counts {
	uint64_t enters, leaves, sends, recvs;
	uint64_t samples; /* a run without a trace: profile samples (task x region) */
} pvmmon_otf2_counts;

/*
 * Writes log as an OTF2 archive in dir (dir/traces.otf2 and dir/traces/; dir may exist,
 * an archive already in it is refused): one location per task, in a process (location
 * group) on its host's system-tree node; a region per PVM call kind and per procedure of
 * the critical-path selection; each traced call as an enter and a leave, with a message
 * send or receive (tag and size, in the communicator of all tasks, ranks being the
 * tasks' places in the log) when its partner is a task of the program. Times on the
 * virtual clock, or with real the real call times, in ns from the earliest event. A log
 * without a trace gives its profile (export__otf2_profile()). *n gets what was written.
 */
int export__otf2(const pvmmon_log *log, const char *dir, int real, pvmmon_otf2_counts *n);

struct OTF2_Archive_struct;

/*
 * The profile of a run without a trace into archive ar (its event files open): per task
 * and region (statement by source place, procedure, loop) one Metric event at the task's
 * end (virtual, or real with real) carrying time (ns: a statement's virtual time, a
 * procedure's inclusive, a loop's; real ones with real where the log has them), calls
 * and bytes, with the attribute "region" naming the region; then the definitions.
 * counts[i] gets task i's events, *samples their sum.
 */
/* The string ids both writers give the system tree's words ("machine", "node", "PVM
 * virtual machine"): each writes those strings under these ids. */
enum {
	EXPORT__OTF2_S_MACHINE = 1,
	EXPORT__OTF2_S_NODE,
	EXPORT__OTF2_S_MACHINE_NAME,
};

struct OTF2_GlobalDefWriter_struct;

/* The hosts' names as strings s_hosts.. (one "host" when the log has none) and the
 * tasks' ("task 0.1 (t40002)") as strings s_tasks... */
void export__otf2_names(struct OTF2_GlobalDefWriter_struct *g, const pvmmon_log *log,
                        uint32_t s_hosts, uint32_t s_tasks);

/* The system tree: the machine, its hosts, a process per task on its host with one
 * location holding counts[i] events. Returns the last location's OTF2 error code. */
int export__otf2_system_tree(struct OTF2_GlobalDefWriter_struct *g, const pvmmon_log *log,
                             uint32_t s_hosts, uint32_t s_tasks, const uint64_t *counts);

/* Closes ar's event files and, with defs, writes each of its ntasks locations' (empty)
 * local definitions. */
void export__otf2_close_events(struct OTF2_Archive_struct *ar, size_t ntasks, int defs);

int export__otf2_profile(struct OTF2_Archive_struct *ar, const pvmmon_log *log, int real,
                         uint64_t *counts, uint64_t *samples);

#endif
