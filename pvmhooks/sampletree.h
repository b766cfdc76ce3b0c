/*
 * Private to pvmhooks: the bounded calling-context tree of a task's call-path samples
 * (sampletree.c), filled from a signal handler without allocating.
 */
#ifndef PVMMON_HOOKS_SAMPLETREE_H
#define PVMMON_HOOKS_SAMPLETREE_H

#include <stddef.h>
#include <stdint.h>

#include "pvmmon/log.h"

/* The deepest call path kept: frames beyond it (the outermost) are left out. */
#define SAMPLE_FRAMES_MAX 64

typedef struct stree_node {
	uintptr_t pc;     /* return address, or the interrupted instruction plus one */
	uint32_t parent;  /* the caller's node; the root (0) is its own */
	uint32_t child;   /* first callee's node, 0: none */
	uint32_t sibling; /* the next node of the same caller, 0: none */
	uint64_t self[PVMMON_SAMPLE_NSTATES];
} stree_node;

/* Nodes are only ever appended (a node's caller comes before it) and linked once
 * filled, so that a reader in the same thread, interrupted by the handler, sees whole
 * nodes below the count it read first. */
typedef struct stree {
	stree_node *nodes;
	uint32_t cap, used; /* node 0 is the root, no frame */
	uint64_t total, truncated;
	int64_t cost_ns; /* the handler's time, added by the sampler */
} stree;

/* Allocates cap nodes (at least 2); 0 or PVMMON_ENOMEM. */
int sampletree__init(stree *t, uint32_t cap);
void sampletree__free(stree *t);
/* Counts weight samples of state (pvmmon_sample_state) whose frames are pcs[0..n),
 * the innermost first. Async-signal-safe: no allocation, no lock. When the tree is full
 * the sample counts at the deepest frame that has a node (truncated). */
void sampletree__add(stree *t, const uintptr_t *pcs, int n, int state, uint64_t weight);

/* Where a code address is: its module's path (borrowed) and offset; 0 when known. */
typedef int (*stree_where)(uintptr_t pc, const char **module, uint64_t *offset);
/*
 * The tree as the log holds it (every node but the root, in order, with the
 * modules where says), the rate hz said with it; a heap object the caller frees
 * with pvmmon_log_samples_free(), or NULL when memory is short.
 */
pvmmon_log_samples *sampletree__export(const stree *t, uint32_t hz, stree_where where);

/* A stree_where for this process: the module of the instruction before pc (a return
 * address, or the interrupted instruction plus one) and pc's offset from its base, as
 * dladdr's dli_fbase; 0, or -1 when no module of the process has it. The path is
 * borrowed until sampletree__modules_clear. */
int sampletree__where(uintptr_t pc, const char **module, uint64_t *offset);
/* Forgets the table of modules (built again at the next look-up: once a flush). */
void sampletree__modules_clear(void);

#endif
