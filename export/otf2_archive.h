/* Private to export/: the parts of an OTF2 archive the trace and the profile writers share. */
#ifndef PVMMON_EXPORT_OTF2_ARCHIVE_H
#define PVMMON_EXPORT_OTF2_ARCHIVE_H

#include <stddef.h>
#include <stdint.h>

#include "pvmmon/log.h"

struct OTF2_Archive_struct;
struct OTF2_GlobalDefWriter_struct;

/* The string ids both writers give the system tree's words ("machine", "node", "PVM
 * virtual machine"): each writes those strings under these ids. */
enum {
	EXPORT__OTF2_S_MACHINE = 1,
	EXPORT__OTF2_S_NODE,
	EXPORT__OTF2_S_MACHINE_NAME,
};

/* Sets *out to a new archive dir/traces.otf2 with its event files open, written
 * serially. Returns 0, or PVMMON_EIO (*out NULL) when it cannot be created. */
int export__otf2_open(struct OTF2_Archive_struct **out, const char *dir);

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

#endif
