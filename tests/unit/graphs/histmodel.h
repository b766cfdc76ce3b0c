/* Private to the graphs unit tests: logs with time histograms built in C (a three-phase run). */
#ifndef PVMMON_TESTS_UNIT_GRAPHS_HISTMODEL_H
#define PVMMON_TESTS_UNIT_GRAPHS_HISTMODEL_H

#include <stddef.h>
#include <stdint.h>

#include "pvmmon/log.h"

/* The model's bucket width (10 ms) and its phases' first buckets: phase 1 (compute) from
 * 0, phase 2 (communicate) from HM_P2, phase 3 (compute, the last task slow, the others
 * waiting for it) from HM_P3 to HM_END. */
#define HM_WIDTH 10000000
#define HM_P2 16
#define HM_P3 28
#define HM_END 48

/* Appends a histogram of n buckets of width HM_WIDTH from 0 to (*hs, *nh); name and stmt
 * as the focus needs; values copied. Returns the new histogram. */
pvmmon_log_hist *hm_add(pvmmon_log_hist **hs, size_t *nh, pvmmon_hist_metric m, pvmmon_hist_focus f,
                        const char *name, uint32_t stmt, const int64_t *values, size_t n);

/* A log of ntasks tasks ("0", "0.1", ...) of one program, no histograms yet. */
pvmmon_log *hm_log(size_t ntasks);

/*
 * The three-phase run: ntasks tasks whose states per bucket follow the phases (phase 1:
 * 90% computing; phase 2: 10% computing, 40% in PVM, 48% waiting; phase 3: the last task
 * computes 96%, the others 45% and wait 52%), each with statements 0 (pvm_send in
 * exchange, phase 2), 1 (pvm_recv in exchange, phase 2), 2 (pvm_recv in gather, phase 3)
 * and 3 (pvm_send in work, phase 1) with time and call histograms, procedures "work"
 * and "exchange" with time histograms, and statement 4 (pvm_spawn) and procedure
 * "helper" without any.
 */
pvmmon_log *hm_three_phase(size_t ntasks);

#endif
