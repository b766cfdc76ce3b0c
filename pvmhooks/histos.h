/*
 * Private to libpvmhooks: the task's time histograms (histos.c; seed 001 section 2.2):
 * its states (computing, waiting, in PVM, monitoring) and messages per bucket of its
 * virtual time, and the time and calls of its hottest statements, procedures and loops.
 */
#ifndef PVMMON_HOOKS_HISTOS_H
#define PVMMON_HOOKS_HISTOS_H

#include <stdint.h>

#include "hooks.h"

/* The welcome's settings: buckets (0: no histograms), initial width (ns), the hottest
 * count, whether the default ones are kept, and the extra ones asked for (METRIC:FOCUS
 * lists, may be NULL): at the start of the run and by `pvmmon ctl` so far. */
void histos__welcome(uint32_t buckets, int64_t width, uint32_t hottest, int defaults,
                     const char *run, const char *ctl);
/* A wrapped call's end at real time now: the time since the last call computing, the
 * call's own time waiting and in PVM, the messages and the monitoring time. */
void histos__call_end(hooks_call *call, int64_t now);
/* At every call's end and probe tick: the statements', procedures' and loops' time
 * and calls, once per bucket. */
void histos__poll(int64_t now);
/* `pvmmon ctl histogram` (HIST_ON, HIST_OFF) at virtual time v: 1 when c was one. */
int histos__control(const wire_ctl *c, int64_t v);
/* A flush at real time now: everything up to now, and the histograms into the task's
 * records (the records go next). */
int histos__flush(int final, int64_t now);

#endif
