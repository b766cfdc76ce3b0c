/*
 * Private to pvmmon explore: the other outcomes a run's nondeterministic events could
 * have had (explalt.c, from a traced log) and the records that force one of them.
 */
#ifndef PVMMON_CLI_EXPLALT_H
#define PVMMON_CLI_EXPLALT_H

#include <stddef.h>
#include <stdint.h>

#include "pvmmon/log.h"

/* One untried outcome of one nondeterministic event of a run. */
typedef struct expl_alt {
	char *task;        /* the receiving task's logical id */
	size_t nd;         /* the event's place among the task's nondeterministic events */
	uint64_t entry_no; /* its replay record entry, counted from 1 (replay reports) */
	int kind;          /* REPLAY_MSG, REPLAY_NONE or REPLAY_TIMEOUT: the outcome forced */
	char *from;        /* REPLAY_MSG: the sender of the message taken instead */
	int32_t tag;       /* its tag */
	int taken_kind;    /* what the run took there (REPLAY_*), from whom and which tag */
	char *taken_from;
	int32_t taken_tag;
	int64_t vt;       /* the event's virtual end: alternatives are tried earliest first */
	char *where;      /* "file:line (pvm_recv)" of its statement */
} expl_alt;

/* Counts of one run's analysis. */
typedef struct expl_count {
	size_t nd;     /* nondeterministic events seen (aligned with the record) */
	size_t naive;  /* other outcomes without the happened-before rule */
	size_t alts;   /* outcomes left by it (and one per poll sequence) */
} expl_count;

/*
 * The alternatives of log's events, earliest first, into *out (heap, *n of them; free
 * each with expl__alt_free, then the array). Only events after (task, nd) when task is
 * not NULL (what a forced run adds past its forced event) and after virtual time
 * after_vt in any task. Returns 0 or a negative code.
 */
int expl__alternatives(expl_alt **out, size_t *n, expl_count *count, const pvmmon_log *log,
                       const char *task, size_t nd, int64_t after_vt);

/*
 * Writes to path the log read from base with its replay records cut to force a: the
 * task's record up to the event, the event changed, nothing after; every other
 * task's up to its first nondeterministic event that ended at or after a's (in
 * virtual time). Returns 0 or a negative code with the reason in the last error.
 */
int expl__force(const char *base, const expl_alt *a, const char *path);

/* Whether log's task took a's outcome at a's event: 1 yes, 0 no, negative on error. */
int expl__took(const pvmmon_log *log, const expl_alt *a);

void expl__alt_free(expl_alt *a);
/* a's forced outcome in words ("the message from 0.2 with tag 5", "nothing"). */
void expl__alt_outcome(char *buf, size_t len, int kind, const char *from, int32_t tag);

#endif
