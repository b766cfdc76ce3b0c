/* `pvmmon export --otf2`: a traced run as an OTF2 archive for Vampir, Scalasca and otf2-print. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <otf2/otf2.h>

#include "otf2.h"
#include "otf2_archive.h"
#include "otf2_profile.h"
#include "otf2_samples.h"
#include "pvmmon/errors.h"

/* Region ids (dense from 0, as readers want definitions in order): one per PVM call kind
 * (the op's number less one), then one per selected procedure of the critical-path
 * profile, then one for procedures outside it. */
#define REGION_OPS (-1)
#define REGION_PROCS PVMMON_EV_LAST

/* String ids: fixed ones, then the hosts', the tasks', the procedures'. */
enum {
	S_EMPTY = 0,
	S_MACHINE = EXPORT__OTF2_S_MACHINE,
	S_NODE = EXPORT__OTF2_S_NODE,
	S_MACHINE_NAME = EXPORT__OTF2_S_MACHINE_NAME,
	S_COMM,
	S_LOCATIONS,
	S_RANKS,
	S_PROC_OTHER,
	S_OPS,
};

/* No rank: the partner is no task of the log (unmonitored), or there is none. */
#define RANK_NONE (-1L)

/* The index of the task with tid, or RANK_NONE. */
static long rank_of(const pvmmon_log *log, int32_t tid)
{
	for (size_t i = 0; i < log->ntasks; i++)
		if (log->tasks[i].tid == tid)
			return (long)i;
	return RANK_NONE;
}

/* The start and end of event e on the chosen clock. */
static void span(const pvmmon_log_event *e, int real, int64_t *t0, int64_t *t1)
{
	*t0 = real ? e->rt[1] : e->vt0;
	*t1 = real ? e->rt[2] : e->vt1;
	if (*t1 < *t0)
		*t1 = *t0;
}

/* Whether event e becomes records (an enter and a leave, with its message). */
static int exported(const pvmmon_log_event *e)
{
	return e->op != PVMMON_EV_CPSTART && e->op != PVMMON_EV_CPSTOP && e->op >= 1 &&
	       e->op <= PVMMON_EV_LAST;
}

static OTF2_RegionRef region_of(const pvmmon_log *log, const pvmmon_log_event *e)
{
	if (e->op == PVMMON_EV_ENTER || e->op == PVMMON_EV_EXIT)
		return e->tag >= 0 && (size_t)e->tag < log->cp.nprocs
		           ? (OTF2_RegionRef)(REGION_PROCS + e->tag)
		           : (OTF2_RegionRef)(REGION_PROCS + log->cp.nprocs);
	return (OTF2_RegionRef)(REGION_OPS + e->op);
}

/* Writes task i's events to its location, its call-path samples last (at its last
 * time); *count gets the records written. */
static int write_events(OTF2_Archive *ar, const pvmmon_log *log, size_t i, int real, int64_t base,
                        export_otf2_ctxs *cx, uint64_t *count, pvmmon_otf2_counts *n)
{
	const pvmmon_log_task *t = &log->tasks[i];
	OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(ar, i);
	OTF2_ErrorCode err = OTF2_SUCCESS;
	uint64_t last = 0;

	*count = 0;
	if (!w)
		return pvmmon_error_set(PVMMON_EIO,
		                        "export: OTF2 cannot open the events of task %zu", i);
	for (size_t k = 0; k < t->nevents && err == OTF2_SUCCESS; k++) {
		const pvmmon_log_event *e = &t->events[k];
		int64_t t0, t1;
		uint64_t a, b;
		long peer = e->peer ? rank_of(log, e->peer) : RANK_NONE;

		if (!exported(e))
			continue;
		span(e, real, &t0, &t1);
		/* OTF2 wants each location's times in order: a clock step back is held. */
		a = (uint64_t)(t0 - base) < last ? last : (uint64_t)(t0 - base);
		b = (uint64_t)(t1 - base) < a ? a : (uint64_t)(t1 - base);
		last = b;
		if (e->op == PVMMON_EV_EXIT) {
			err = OTF2_EvtWriter_Leave(w, NULL, a, region_of(log, e));
			n->leaves++;
			(*count)++;
			continue;
		}
		err = OTF2_EvtWriter_Enter(w, NULL, a, region_of(log, e));
		n->enters++;
		(*count)++;
		if (e->op == PVMMON_EV_ENTER)
			continue;
		if (err == OTF2_SUCCESS && peer >= 0 && pvmmon_event_op_sends(e->op)) {
			err = OTF2_EvtWriter_MpiSend(w, NULL, a, (uint32_t)peer, 0,
			                             (uint32_t)e->tag, e->bytes);
			n->sends++;
			(*count)++;
		} else if (err == OTF2_SUCCESS && peer >= 0 && pvmmon_event_op_receives(e->op) &&
		           e->seq >= 0) {
			err = OTF2_EvtWriter_MpiRecv(w, NULL, b, (uint32_t)peer, 0,
			                             (uint32_t)e->tag, e->bytes);
			n->recvs++;
			(*count)++;
		}
		if (err == OTF2_SUCCESS) {
			err = OTF2_EvtWriter_Leave(w, NULL, b, region_of(log, e));
			n->leaves++;
			(*count)++;
		}
	}
	if (err == OTF2_SUCCESS) {
		uint64_t k = 0;
		int rc = export__otf2_samples(w, cx, t, last, &k);

		*count += k;
		n->ctx_samples += k;
		if (rc < 0) {
			OTF2_Archive_CloseEvtWriter(ar, w);
			return rc;
		}
	}
	if (OTF2_Archive_CloseEvtWriter(ar, w) != OTF2_SUCCESS || err != OTF2_SUCCESS)
		return pvmmon_error_set(PVMMON_EIO,
		                        "export: OTF2 cannot write the events of task %zu: %s", i,
		                        OTF2_Error_GetDescription(err));
	return 0;
}

/* The global definitions: clock, strings, system tree (machine, hosts), one process
 * and one location per task, regions, the communicator of all tasks. */
static int write_defs(OTF2_Archive *ar, const pvmmon_log *log, uint64_t length,
                      const uint64_t *counts, const export_otf2_ctxs *cx)
{
	OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(ar);
	size_t nh = log->nhosts ? log->nhosts : 1, nt = log->ntasks;
	uint32_t s_hosts = S_OPS + PVMMON_EV_LAST + 1, s_tasks = s_hosts + (uint32_t)nh;
	uint32_t s_procs = s_tasks + (uint32_t)nt;
	uint64_t *members = calloc(nt ? nt : 1, sizeof(*members));
	OTF2_ErrorCode err;

	if (!g || !members) {
		free(members);
		return pvmmon_error_set(PVMMON_EIO, "export: OTF2 cannot write the definitions");
	}
	err = OTF2_GlobalDefWriter_WriteClockProperties(g, 1000000000, 0, length + 1,
	                                                OTF2_UNDEFINED_TIMESTAMP);
	OTF2_GlobalDefWriter_WriteString(g, S_EMPTY, "");
	OTF2_GlobalDefWriter_WriteString(g, S_MACHINE, "machine");
	OTF2_GlobalDefWriter_WriteString(g, S_NODE, "node");
	OTF2_GlobalDefWriter_WriteString(g, S_MACHINE_NAME, "PVM virtual machine");
	OTF2_GlobalDefWriter_WriteString(g, S_COMM, "PVM tasks");
	OTF2_GlobalDefWriter_WriteString(g, S_LOCATIONS, "tasks");
	OTF2_GlobalDefWriter_WriteString(g, S_RANKS, "ranks");
	OTF2_GlobalDefWriter_WriteString(g, S_PROC_OTHER, "procedure (not selected)");
	for (int op = 0; op <= PVMMON_EV_LAST; op++) {
		const char *nm = pvmmon_event_op_name((pvmmon_event_op)op);

		OTF2_GlobalDefWriter_WriteString(g, S_OPS + (uint32_t)op, nm ? nm : "?");
	}
	export__otf2_names(g, log, s_hosts, s_tasks);
	for (size_t p = 0; p < log->cp.nprocs; p++)
		OTF2_GlobalDefWriter_WriteString(
		    g, s_procs + (uint32_t)p, log->cp.procs[p].name ? log->cp.procs[p].name : "?");
	/* Regions: the PVM calls, then the procedures of the critical-path selection. */
	for (int op = 1; op <= PVMMON_EV_LAST; op++) {
		int p2p = pvmmon_event_op_sends((pvmmon_event_op)op) ||
		          pvmmon_event_op_receives((pvmmon_event_op)op);

		OTF2_GlobalDefWriter_WriteRegion(
		    g, REGION_OPS + (uint32_t)op, S_OPS + (uint32_t)op, S_OPS + (uint32_t)op,
		    S_EMPTY, p2p ? OTF2_REGION_ROLE_POINT2POINT : OTF2_REGION_ROLE_FUNCTION,
		    OTF2_PARADIGM_USER, OTF2_REGION_FLAG_NONE, S_EMPTY, 0, 0);
	}
	for (size_t p = 0; p <= log->cp.nprocs; p++)
		OTF2_GlobalDefWriter_WriteRegion(
		    g, REGION_PROCS + (uint32_t)p,
		    p < log->cp.nprocs ? s_procs + (uint32_t)p : S_PROC_OTHER,
		    p < log->cp.nprocs ? s_procs + (uint32_t)p : S_PROC_OTHER, S_EMPTY,
		    OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_USER, OTF2_REGION_FLAG_NONE, S_EMPTY,
		    0, 0);
	/* The system tree: the virtual machine, its hosts; a process per task on its host. */
	export__otf2_system_tree(g, log, s_hosts, s_tasks, counts);
	for (size_t i = 0; i < nt; i++)
		members[i] = i;
	/* The communicator: every task, its rank its index in the log (a message's
	 * receiver or sender in the event records). */
	OTF2_GlobalDefWriter_WriteGroup(g, 0, S_LOCATIONS, OTF2_GROUP_TYPE_COMM_LOCATIONS,
	                                OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, (uint32_t)nt,
	                                members);
	OTF2_GlobalDefWriter_WriteGroup(g, 1, S_RANKS, OTF2_GROUP_TYPE_COMM_GROUP,
	                                OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, (uint32_t)nt,
	                                members);
	if (err == OTF2_SUCCESS)
		err = OTF2_GlobalDefWriter_WriteComm(g, 0, S_COMM, 1, OTF2_UNDEFINED_COMM,
		                                     OTF2_COMM_FLAG_NONE);
	/* The samples' strings and regions after all the others. */
	if (err == OTF2_SUCCESS)
		err = export__otf2_samples_defs(g, cx, s_procs + (uint32_t)log->cp.nprocs,
		                                REGION_PROCS + (uint32_t)log->cp.nprocs + 1);
	free(members);
	if (err != OTF2_SUCCESS)
		return pvmmon_error_set(PVMMON_EIO, "export: OTF2 cannot write the definitions: %s",
		                        OTF2_Error_GetDescription(err));
	return 0;
}

int export__otf2(const pvmmon_log *log, const char *dir, int real, pvmmon_otf2_counts *n)
{
	OTF2_Archive *ar = NULL;
	export_otf2_ctxs *cx = NULL;
	uint64_t *counts = NULL;
	int64_t base = 0, end = 0;
	char anchor[4200];
	struct stat st;
	int rc = 0;

	memset(n, 0, sizeof(*n));
	snprintf(anchor, sizeof(anchor), "%s/traces.otf2", dir);
	if (stat(anchor, &st) == 0)
		return pvmmon_error_set(PVMMON_EEXISTS, "export: %s already holds an OTF2 archive",
		                        dir);
	/* Every time relative to the earliest so that none is negative. */
	for (size_t i = 0; i < log->ntasks; i++)
		for (size_t k = 0; k < log->tasks[i].nevents; k++) {
			int64_t t0, t1;

			span(&log->tasks[i].events[k], real, &t0, &t1);
			base = t0 < base ? t0 : base;
			end = t1 > end ? t1 : end;
		}
	counts = calloc(log->ntasks ? log->ntasks : 1, sizeof(*counts));
	if (!counts || export__otf2_ctxs_new(&cx) < 0) {
		free(counts);
		return pvmmon_error_set(PVMMON_ENOMEM, "export: out of memory");
	}
	rc = export__otf2_open(&ar, dir);
	if (rc < 0) {
		free(counts);
		export__otf2_ctxs_free(cx);
		return rc;
	}
	if (!log->trace.enabled) {
		rc = export__otf2_profile(ar, log, real, cx, counts, &n->samples, &n->ctx_samples);
		goto out;
	}
	for (size_t i = 0; rc == 0 && i < log->ntasks; i++)
		rc = write_events(ar, log, i, real, base, cx, &counts[i], n);
	export__otf2_close_events(ar, log->ntasks, rc == 0);
	if (rc == 0)
		rc = write_defs(ar, log, (uint64_t)(end - base), counts, cx);
out:
	if (OTF2_Archive_Close(ar) != OTF2_SUCCESS && rc == 0)
		rc = pvmmon_error_set(PVMMON_EIO, "export: cannot finish the OTF2 archive in %s",
		                      dir);
	free(counts);
	export__otf2_ctxs_free(cx);
	return rc;
}
