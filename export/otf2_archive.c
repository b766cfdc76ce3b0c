/* What both OTF2 writers (the trace, otf2.c; the profile, otf2_profile.c) do alike: open
 * the archive, define the system tree and its names, close the event files. */
#include <stdio.h>
#include <string.h>

#include <otf2/otf2.h>

#include "otf2_archive.h"
#include "pvmmon/errors.h"

/* pvmmon writes serially and never asks for a flush's time: OTF2 flushes when its
 * buffers fill, at time 0. */
static OTF2_FlushType pre_flush(void *data, OTF2_FileType type, OTF2_LocationRef loc, void *caller,
                                bool final)
{
	(void)data;
	(void)type;
	(void)loc;
	(void)caller;
	(void) final;
	return OTF2_FLUSH;
}

static OTF2_TimeStamp post_flush(void *data, OTF2_FileType type, OTF2_LocationRef loc)
{
	(void)data;
	(void)type;
	(void)loc;
	return 0;
}

static const OTF2_FlushCallbacks flush_callbacks = {pre_flush, post_flush};

int export__otf2_open(struct OTF2_Archive_struct **out, const char *dir)
{
	OTF2_Archive *ar;

	*out = NULL;
	ar = OTF2_Archive_Open(dir, "traces", OTF2_FILEMODE_WRITE, 256 * 1024, 256 * 1024,
	                       OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
	if (!ar)
		return pvmmon_error_set(PVMMON_EIO, "export: cannot create an OTF2 archive in %s",
		                        dir);
	if (OTF2_Archive_SetFlushCallbacks(ar, &flush_callbacks, NULL) != OTF2_SUCCESS ||
	    OTF2_Archive_SetSerialCollectiveCallbacks(ar) != OTF2_SUCCESS ||
	    OTF2_Archive_OpenEvtFiles(ar) != OTF2_SUCCESS) {
		OTF2_Archive_Close(ar);
		return pvmmon_error_set(PVMMON_EIO, "export: cannot create an OTF2 archive in %s",
		                        dir);
	}
	*out = ar;
	return 0;
}

/* The host index of task t (its system-tree node after the machine), 0 when unknown. */
static size_t host_of(const pvmmon_log *log, const pvmmon_log_task *t)
{
	for (size_t h = 0; h < log->nhosts; h++)
		if (t->host && log->hosts[h].name && !strcmp(t->host, log->hosts[h].name))
			return h;
	return 0;
}

void export__otf2_names(OTF2_GlobalDefWriter *g, const pvmmon_log *log, uint32_t s_hosts,
                        uint32_t s_tasks)
{
	char name[160];

	for (size_t h = 0; h < (log->nhosts ? log->nhosts : 1); h++)
		OTF2_GlobalDefWriter_WriteString(
		    g, s_hosts + (uint32_t)h,
		    log->nhosts && log->hosts[h].name ? log->hosts[h].name : "host");
	for (size_t i = 0; i < log->ntasks; i++) {
		const pvmmon_log_task *t = &log->tasks[i];

		snprintf(name, sizeof(name), "task %s (t%x)", t->lid ? t->lid : "?",
		         (unsigned)t->tid);
		OTF2_GlobalDefWriter_WriteString(g, s_tasks + (uint32_t)i, name);
	}
}

int export__otf2_system_tree(OTF2_GlobalDefWriter *g, const pvmmon_log *log, uint32_t s_hosts,
                             uint32_t s_tasks, const uint64_t *counts)
{
	OTF2_ErrorCode err = OTF2_SUCCESS;

	OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, EXPORT__OTF2_S_MACHINE_NAME,
	                                         EXPORT__OTF2_S_MACHINE,
	                                         OTF2_UNDEFINED_SYSTEM_TREE_NODE);
	for (size_t h = 0; h < (log->nhosts ? log->nhosts : 1); h++)
		OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 1 + (uint32_t)h, s_hosts + (uint32_t)h,
		                                         EXPORT__OTF2_S_NODE, 0);
	for (size_t i = 0; i < log->ntasks && err == OTF2_SUCCESS; i++) {
		OTF2_GlobalDefWriter_WriteLocationGroup(
		    g, (uint32_t)i, s_tasks + (uint32_t)i, OTF2_LOCATION_GROUP_TYPE_PROCESS,
		    1 + (uint32_t)host_of(log, &log->tasks[i]), OTF2_UNDEFINED_LOCATION_GROUP);
		err = OTF2_GlobalDefWriter_WriteLocation(g, i, s_tasks + (uint32_t)i,
		                                         OTF2_LOCATION_TYPE_CPU_THREAD, counts[i],
		                                         (uint32_t)i);
	}
	return err;
}

void export__otf2_close_events(struct OTF2_Archive_struct *ar, size_t ntasks, int defs)
{
	OTF2_Archive_CloseEvtFiles(ar);
	if (defs && OTF2_Archive_OpenDefFiles(ar) == OTF2_SUCCESS) {
		/* Each location has its (empty) local definitions, as readers expect. */
		for (size_t i = 0; i < ntasks; i++) {
			OTF2_DefWriter *d = OTF2_Archive_GetDefWriter(ar, i);

			if (d)
				OTF2_Archive_CloseDefWriter(ar, d);
		}
		OTF2_Archive_CloseDefFiles(ar);
	}
}
