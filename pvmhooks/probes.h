/*
 * Private to libpvmhooks: what the rest of the library tells the public probes
 * (probes.c, include/pvmmon/probe.h): when to run the scheduler, what one probe costs,
 * and the tests' probe delay.
 */
#ifndef PVMMON_HOOKS_PROBES_H
#define PVMMON_HOOKS_PROBES_H

#include <stdint.h>

#include "pvmmon/probe.h"
#include "vclock.h"

/* Internal to the library that links it (the archives are linked statically): its
 * names bind locally, with no GOT load or PLT call. */
#pragma GCC visibility push(hidden)

/*
 * What every probe reads, in one place (probes.c owns it; the procedure probes' common
 * case, in records.c beside the stack it works on, reads it too): the calibrated cost
 * charged per probe (-1 while the first probes still measure themselves); next_tick:
 * a probe at or after this real time calls hooks__probe_tick (the scheduler's tick is
 * due; INT64_MIN while the critical path is on, whose part every probe does there);
 * the probes charged the calibrated cost (the virtual time's uncertainty); and slow: 1
 * while probes cannot take the common case (a task not active, no calibrated cost
 * yet, or a test delay).
 */
typedef struct hooks_probe_state {
	int64_t cost;
	int64_t next_tick;
	uint64_t charged;
	int slow;
} hooks_probe_state;
extern hooks_probe_state hooks__probe;

/* The procedure and loop probes outside their common case (probes.c: the gate, the rare
 * charges, throttling), which records.c's common case hands over to. */
void hooks__probe_proc_enter_rare(pvmmon_probe_site *site);
void hooks__probe_proc_exit_rare(pvmmon_probe_site *site);
void hooks__probe_loop_enter_rare(pvmmon_probe_site *site);
void hooks__probe_loop_exit_rare(pvmmon_probe_site *site);
/* After a common-case probe: its time t reached next_tick (runs the scheduler if its
 * tick is due); site's exit closed a record whose count throttling looks at. */
void hooks__probe_tick(int64_t t);
void hooks__probe_check(pvmmon_probe_site *site);

/* The first probe at or after real time t runs the scheduler (sched__tick). */
void hooks__probe_tick_at(int64_t t);
/* What decides the probes' common case changed (the task's state, the critical path's
 * switch): task.c and critpath.c tell the probes here. */
void hooks__probe_refresh(void);

/* Charges ns for each probe from now on: what one probe costs, calibrated. */
void hooks__probe_cost_set(int64_t ns);
/* What each probe is charged (-1 while the first probes still measure themselves). */
int64_t hooks__probe_cost(void);

/*
 * The probes' extension by dynamic instrumentation (dyninst.c, a layer above the
 * records): what a site's first entry learns (the rules applied; returns the site's
 * enabled flag) and throttling's switch-off. dyninst.c gives them from its constructor,
 * before any probe runs (probes run before the task registers); without them a site is
 * only marked seen and throttling switches it off here. Neither is on the probes'
 * common case.
 */
typedef struct hooks_probe_ext {
	int (*first)(pvmmon_probe_site *site);
	void (*throttle)(pvmmon_probe_site *site);
} hooks_probe_ext;
void hooks__probe_extend(const hooks_probe_ext *ext);

/* Sets the throttling threshold (a share of a site's time a call; 0: never), instead of
 * PVMMON_THROTTLE's. */
void hooks__probe_throttle_set(double share);
/* The run's cost budget as a fraction (0: none): below the share, throttling uses it. */
void hooks__probe_throttle_cap(double budget);

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

#pragma GCC visibility pop

#endif
