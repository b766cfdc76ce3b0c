/*
 * The offline critical path of a traced run (seed 003 Figure 2): the program activity
 * graph built explicitly from a log's event trace, its longest path, each selected
 * procedure's share of that path and its zeroing value. It is the oracle that the
 * online profile (log->cp, computed in the tasks) is checked against, so it shares no
 * code with it: the graph is built whole, the longest path is found in topological
 * order and the shares by walking back over the chosen predecessors.
 *
 * Ownership: pvmmon_cpath_compute() returns a result the caller frees with
 * pvmmon_cpath_free(). It holds no pointer into the log; its nodes name tasks and
 * events by their index in the log, so they are valid as long as that log is.
 */
#ifndef PVMMON_CPATH_H
#define PVMMON_CPATH_H

#include "pvmmon/common.h"

#include <stddef.h>
#include <stdint.h>

#include "pvmmon/log.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a node of the activity graph is. */
typedef enum pvmmon_cpath_kind {
	PVMMON_CPATH_START = 1, /* a task's start, or its start of collection */
	PVMMON_CPATH_END,       /* a task's end, or its stop of collection */
	PVMMON_CPATH_SEND,      /* a send of a message to a monitored receiver */
	PVMMON_CPATH_RECV,      /* a receive of a message from a monitored sender */
	PVMMON_CPATH_SPAWN,     /* the spawn of one child */
	PVMMON_CPATH_ENTER,     /* entry to a procedure */
	PVMMON_CPATH_EXIT,      /* exit from a procedure */
} pvmmon_cpath_kind;

/* How the path reached a node: the kind of arc from its predecessor on the path. */
typedef enum pvmmon_cpath_via {
	PVMMON_CPATH_VIA_NONE = 0, /* the path's first node */
	PVMMON_CPATH_VIA_LOCAL,    /* the same task's previous node: work */
	PVMMON_CPATH_VIA_MESSAGE,  /* a message from another task's send */
	PVMMON_CPATH_VIA_SPAWN,    /* the parent's spawn of this task */
} pvmmon_cpath_via;

/* The event of a start or end node that is the task's own start or end. A start or
 * end node inside the task's life (collection started or stopped there: pvmmon cp
 * start|stop, --cp-top, --cp=auto) has its CPSTART or CPSTOP event. */
#define PVMMON_CPATH_NO_EVENT SIZE_MAX

/* One node on the critical path. */
typedef struct pvmmon_cpath_node {
	size_t task;   /* index in log->tasks */
	size_t event;  /* index in that task's events; PVMMON_CPATH_NO_EVENT for the task's
			* own start and end */
	int64_t vt;    /* virtual time of the node (ns from the run's start) */
	int64_t resume; /* virtual time the task's next work starts: vt, or vt + sync
			 * for a receive (the wait is not work) */
	pvmmon_cpath_kind kind;
	pvmmon_cpath_via via;
	int64_t L;     /* the longest path's length up to this node */
} pvmmon_cpath_node;

typedef struct pvmmon_cpath {
	int64_t length_ns; /* the critical path's length (virtual ns) */
	int32_t end_tid;   /* the task where it ends */
	size_t end_task;   /* its index in log->tasks */
	int exclusive;     /* shares are exclusive (copied from log->cp) */
	size_t nprocs;     /* the selected procedures, in log->cp.procs order */
	int64_t *share_ns; /* each one's time on the critical path */
	int64_t *zero_ns;  /* length_ns minus the longest path when its time weighs zero */
	size_t npath;
	pvmmon_cpath_node *path; /* the critical path, from its first node to its end */
	size_t nnodes, narcs;    /* the size of the activity graph */
} pvmmon_cpath;

/*
 * Computes the critical path of log's trace into *out (the caller frees it). Needs a
 * whole trace (`pvmmon run --trace`, nothing dropped) and a procedure selection
 * (`--cp=...`); otherwise returns PVMMON_EINVAL and says which is missing.
 *
 * The path is that of the log's selection (log->cp.generation) over the interval it was
 * collected, as the tasks computed it online: a task's part runs from its CPSTART event
 * of that generation (from its parent's path over the spawn when that was at its
 * registration, else from nothing) to its CPSTOP event or, without one, its end; a
 * message counts when both its send and its receive lie in those parts; tasks that
 * never collected the selection have no part. A trace without CPSTART events is taken
 * as collected whole, which only a selection made at the run's start can be.
 */
PVMMON_EXTERN int pvmmon_cpath_compute(pvmmon_cpath **out, const pvmmon_log *log);

/* Frees cp; NULL is allowed. */
PVMMON_EXTERN void pvmmon_cpath_free(pvmmon_cpath *cp);

#ifdef __cplusplus
}
#endif
#endif
