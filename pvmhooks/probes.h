/*
 * Private to libpvmhooks: what the rest of the library tells the public probes
 * (probes.c, include/pvmmon/probe.h): when to run the scheduler, what one probe costs,
 * and the tests' probe delay.
 */
#ifndef PVMMON_HOOKS_PROBES_H
#define PVMMON_HOOKS_PROBES_H

#include <stdint.h>

/* The first probe at or after real time t runs the scheduler (sched__tick). */
void hooks__probe_tick_at(int64_t t);

/* Charges ns for each probe from now on: what one probe costs, calibrated. */
void hooks__probe_cost_set(int64_t ns);
/* What each probe is charged (-1 while the first probes still measure themselves). */
int64_t hooks__probe_cost(void);

/* Sets the throttling threshold (a share of a site's time a call; 0: never), instead of
 * PVMMON_THROTTLE's. */
void hooks__probe_throttle_set(double share);

/* Calibration's pause (1) and its end (0): throttling is suspended (calibration runs
 * its sites thousands of times and must time every call), and the probes charged in
 * between are not counted in hooks__probe_charged (they are not the program's). */
void hooks__probe_calibration_pause(int paused);

/* How many probes were charged a calibrated cost (not measured one by one). */
uint64_t hooks__probe_charged(void);

/* PVMMON_TEST_PROBE_DELAY=US:LID,LID,... (tests only): every probe of the tasks with
 * those logical ids busy-waits US microseconds, as seed 000's experiments slowed
 * chosen processes; read once the task knows its logical id. */
void hooks__test_delay_init(void);
/* That delay for this task, in ns (0: none). */
int64_t hooks__probe_test_delay(void);

#endif
