/*
 * Private to pvmmon: the control messages: the monitor's commands to tasks (CTL), the
 * requests of pvmmon commands to the monitor (STATUS) and its answer (SNAPSHOT).
 */
#ifndef PVMMON_COMMON_WIRE_CONTROL_H
#define PVMMON_COMMON_WIRE_CONTROL_H

#include "wire_buf.h"

/* Commands from the monitor to tasks, and requests of pvmmon commands to the monitor. */
typedef enum wire_ctl_cmd {
	WIRE_CTL_CP_START = 1, /* start critical-path collection with a selection */
	WIRE_CTL_CP_STOP = 2,  /* stop it (and send a last sample) */
	WIRE_CTL_SNAPSHOT = 3, /* (request) the run so far, as log XML */
	WIRE_CTL_ENABLE = 4,   /* switch on the probe sites of the resource in procs */
	WIRE_CTL_DISABLE = 5,  /* switch them off */
	WIRE_CTL_STMT = 6,     /* switch the records of statement `gen` on (exclusive 1)
	                        * or off (0): the monitor resolves statements to lines */
	WIRE_CTL_HOLD = 7,     /* replay: hold at the next receive (a task is stopped for a
	                        * debugger, --stop-at) */
	WIRE_CTL_RELEASE = 8,  /* go on (the stopped task was continued) */
	/* replay: the recorded message of the task's forced wait number `gen` can never
	 * come; procs says why (what its sender does) */
	WIRE_CTL_CANNOT_COME = 9,
	/* time histograms (pvmmon ctl histogram): start or stop the ones in procs
	 * (METRIC:FOCUS[,...]) */
	WIRE_CTL_HIST_ON = 10,
	WIRE_CTL_HIST_OFF = 11,
	/* call-path sampling (pvmmon ctl sample): at `gen` Hz of each task's CPU time, or
	 * none (gen 0); a task that sampled keeps what it has */
	WIRE_CTL_SAMPLE = 12,
} wire_ctl_cmd;

/* Call-path samples a second of a task's CPU time when no rate is given (pvmmon run's
 * default, `pvmmon ctl sample on`): a prime, so that the samples do not keep step with
 * a program's own periodic work; and the most a task takes. */
#define WIRE_SAMPLE_DEFAULT_HZ 199
#define WIRE_SAMPLE_MAX_HZ 10000

typedef struct wire_ctl {
	wire_ctl_cmd cmd;
	uint32_t gen;   /* CP_START: the selection's generation (tuples of another one are
	                 * not merged); SAMPLE: the rate in Hz (0: off) */
	int exclusive;  /* CP_START */
	char *procs;    /* CP_START: comma-separated selection (heap after decode);
	                 * ENABLE, DISABLE: the resource (common/resource.h);
	                 * HIST_ON, HIST_OFF: METRIC:FOCUS[,...] */
	uint64_t token; /* requests of pvmmon commands: the run's token (from LOG.run) */
} wire_ctl;

/* CTL and STATUS. */
void wire__ctl_encode(wire_buf *b, const wire_ctl *c);
/* Decodes into *c (its procs is the caller's: wire__ctl_clear). */
int wire__ctl_decode(wire_ctl *c, const uint8_t *data, size_t len);
void wire__ctl_clear(wire_ctl *c);

/* SNAPSHOT: the run so far as log XML (doc/pvmmon-log.rng), not NUL-terminated. */
typedef struct wire_snapshot {
	const char *xml; /* after decode: points into the message */
	size_t len;
} wire_snapshot;

void wire__snapshot_encode(wire_buf *b, const wire_snapshot *s);
int wire__snapshot_decode(wire_snapshot *s, const uint8_t *data, size_t len);

#endif
