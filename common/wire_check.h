/*
 * Private to pvmmon: FINDING, a PVM usage error a task found in its program's use of
 * PVM (pvmhooks/checks.c), for the monitor to say and log.
 */
#ifndef PVMMON_COMMON_WIRE_CHECK_H
#define PVMMON_COMMON_WIRE_CHECK_H

#include "wire_buf.h"

/* The kinds of finding (pvmmon run --check names them). */
enum {
	WIRE_CHECK_UNPACK = 1,  /* an unpack against what was packed */
	WIRE_CHECK_QUEUED = 2,  /* messages still queued, never received, at the task's exit */
	WIRE_CHECK_UNFREED = 3, /* buffers the program made and never freed, at its exit */
	WIRE_CHECK_IGNORED = 4, /* a PVM error result the program went on past */
	WIRE_CHECK_LAST = 4,
};

/*
 * One finding of one statement (pair): the reporting task's statement (module path and
 * offset, as records give them; NULL module: unknown), the other task's and its
 * statement's offset in that task's main program where there is one, and what each did.
 * A later FINDING with the same kind and statements replaces the earlier's count.
 *   UNPACK:  a_type/a_count unpacked (PVM_STR...), b_type/b_count what was packed
 *            where the unpack went wrong (b_type -1: nothing more was packed); tag,
 *            other = the sender.
 *   QUEUED:  count messages from tid a_type, other (UINT32_MAX: not monitored), with
 *            tag, sent at other_offset; no statement of this task.
 *   UNFREED: count buffers made at the statement and never freed.
 *   IGNORED: count calls of the statement that returned code a_type, which the program
 *            then went on past (b_type: the PVM call, HOOKS order, of the next use).
 */
typedef struct wire_finding {
	uint8_t kind;
	uint64_t count;
	int32_t tag;
	char *module; /* heap after decode, may be NULL */
	uint64_t offset;
	uint32_t other_index;  /* UINT32_MAX: none */
	uint64_t other_offset; /* UINT64_MAX: unknown */
	int32_t a_type, b_type;
	uint32_t a_count, b_count;
	uint8_t past_end; /* UNPACK: the unpack went past the last run packed (b_*) */
	char *call; /* the PVM call of this task's statement ("pvm_upkint"; heap, may be NULL) */
} wire_finding;

void wire__finding_encode(wire_buf *b, const wire_finding *f);
int wire__finding_decode(wire_finding *f, const uint8_t *data, size_t len);
void wire__finding_clear(wire_finding *f);

#endif
