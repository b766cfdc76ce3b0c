/*
 * A task's call graph, built from its per-call-site proc records, with recursion handled
 * as in seed 000 Figure 11: a directly recursive procedure is one node whose recursive
 * calls are counted apart, and mutually recursive procedures (a strongly connected
 * component of the call relation) are collapsed into one node whose callers are the
 * call sites outside the group. Such a group is named by its entry, the member with the
 * most calls from outside the group (the first seen on a tie): "a+b" for two members,
 * the entry first, and "eval and 23 more, mutually recursive" from three on; members[]
 * lists them all.
 *
 * Ownership: pvmmon_callgraph_build() returns a graph the caller frees with
 * pvmmon_callgraph_free(); it holds copies of every string and no pointer into the log.
 */
#ifndef PVMMON_CALLGRAPH_H
#define PVMMON_CALLGRAPH_H

#include "pvmmon/common.h"

#include <stddef.h>
#include <stdint.h>

#include "pvmmon/log.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A procedure, or a group of mutually recursive procedures. */
typedef struct pvmmon_cg_node {
	char *name;          /* the procedure, or the group's name (above) */
	size_t nmembers;
	char **members;      /* the procedures of the node: the entry, then the others in
	                      * the order first seen */
	char *file;          /* the (entry) member's file, NULL if unknown */
	int32_t line;        /* the (entry) member's line */
	int recursive;       /* calls itself, directly or through other members */
	int counted;         /* a leaf counted instead of timed: no times, no callers */
	uint64_t calls;      /* calls from outside the node (or counted calls) */
	uint64_t inner_calls; /* recursive calls from inside the node */
	int64_t incl_ns;     /* inclusive virtual time, each activation counted once */
	int64_t excl_ns;     /* exclusive virtual time of all members */
	int64_t callees_ns;  /* inclusive time of the calls it makes to other nodes */
} pvmmon_cg_node;

#define PVMMON_CG_ROOT ((size_t)-1)

/* One call site: calls from one procedure at one line into another node. */
typedef struct pvmmon_cg_edge {
	size_t from;         /* the calling node, PVMMON_CG_ROOT for a root procedure */
	size_t to;
	char *caller;        /* the procedure that makes the call, NULL for a root */
	int32_t call_line;   /* its line, 0 when unknown */
	uint64_t calls;
	int64_t incl_ns;     /* the callee's inclusive time through this site */
} pvmmon_cg_edge;

typedef struct pvmmon_callgraph {
	size_t nnodes;
	pvmmon_cg_node *nodes;
	size_t nedges;
	pvmmon_cg_edge *edges; /* sorted by callee node, then inclusive time, largest first */
} pvmmon_callgraph;

/* Builds the call graph of task's proc records into *out (caller frees). */
PVMMON_EXTERN int pvmmon_callgraph_build(pvmmon_callgraph **out, const pvmmon_log_task *task);

/* The index of the node holding procedure name, or PVMMON_CG_ROOT when none does. */
PVMMON_EXTERN size_t pvmmon_callgraph_find(const pvmmon_callgraph *cg, const char *name);

/* Frees cg and everything it owns; NULL is allowed. */
PVMMON_EXTERN void pvmmon_callgraph_free(pvmmon_callgraph *cg);

#ifdef __cplusplus
}
#endif
#endif
