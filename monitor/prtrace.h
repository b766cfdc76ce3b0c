/* Private to pvmmon-monitor: the record of preserve mode's decisions in a traced run
 * (prtrace.c), for the log's trace. */
#ifndef PVMMON_MONITOR_PRTRACE_H
#define PVMMON_MONITOR_PRTRACE_H

#include "../common/wire_preserve.h"
#include "monitor.h"

/* The decisions kept so far (owned by the preserve state). */
typedef struct prtrace {
	pvmmon_log_decision *d;
	size_t n, cap;
	uint64_t dropped;
} prtrace;

/* One decision (times on the monitor's clock; taken_tid 0 for none; kind a
 * wire_pw_kind): kept while the run traces, up to its event limit. */
void prtrace__add(mon_run *run, prtrace *p, int32_t tid, int by_task, int kind, int64_t vt,
                  int64_t deadline, int32_t taken_tid, int32_t taken_tag, int64_t window,
                  int64_t horizon, const wire_pcand *cand, uint32_t ncand);
/* A copy of the decisions into the log's trace. */
void prtrace__to_log(const prtrace *p, pvmmon_log *log);
void prtrace__free(prtrace *p);

#endif
