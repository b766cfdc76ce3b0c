/* Private to pvmmon's log reader: checking time histograms (log_hist.c, log 1.6). */
#ifndef PVMMON_COMMON_LOG_HIST_H
#define PVMMON_COMMON_LOG_HIST_H

#include "pvmmon/log.h"

/* Checks every histogram of log against the run's settings: at most its bucket count,
 * a width of the initial width doubled `doublings` times. 0, or PVMMON_EPARSE with a
 * message naming path and the histogram. */
int log__hists_check(const pvmmon_log *log, const char *path);

#endif
