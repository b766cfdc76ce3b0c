/*
 * Private to libpvmhooks: the features and their order (features.c), installed in the
 * scheduler at registration, and the monitor's welcome, which each feature takes its
 * part of.
 */
#ifndef PVMMON_HOOKS_FEATURES_H
#define PVMMON_HOOKS_FEATURES_H

#include <stddef.h>
#include <stdint.h>

#include "sched.h"

/* The monitor's welcome, decoded: each feature takes its part. */
struct hooks_welcome {
	uint32_t index;
	char *lid;        /* heap; the task's core state takes it */
	int64_t spawn_rt; /* the spawn's real time on the monitor's clock (0: none) */
	wire_cp from;     /* the parent's critical-path tuple at the spawn */
	uint32_t cp_gen;  /* the run's critical-path selection as it is now */
	int cp_collecting, cp_exclusive;
	char *cp_procs;
	int rr;        /* record, replay, or neither (hooks_rr_mode) */
	int preserve;  /* preserve mode */
	char *rules;   /* the switching rules so far (dynamic instrumentation) */
	double budget; /* the cost budget as a fraction (0: none) */
	/* Time histograms: buckets (0: none), initial width, hottest count, whether the
	 * defaults are kept, the extra ones asked for (heap, may be NULL). */
	uint32_t hist_buckets, hist_hottest;
	int64_t hist_width;
	int hist_defaults;
	char *hist_run, *hist_ctl;
	wire_calib cal;  /* the host's calibration (cal.tid 0: none yet) */
	/* Call-path sampling as `pvmmon ctl sample` set it (sample_ctl 1; 0 Hz: off). */
	int sample_ctl;
	uint32_t sample_hz;
	int64_t t_start; /* the task's start (real time), not from the message */
};

/* Gives the scheduler the table of features. */
void features__install(void);

/* Decodes the welcome (data of len bytes; the task started at real time t_start) and
 * gives each feature its part; 0, or a negative code (the task then stays
 * unmonitored). */
int features__welcome(const uint8_t *data, size_t len, int64_t t_start);

#endif
