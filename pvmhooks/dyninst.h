/*
 * Private to libpvmhooks: dynamic instrumentation in the task (doc/architecture.md,
 * "Dynamic instrumentation and cost"): the probe sites it has seen and the monitor's
 * rules that switch them on and off (dyninst.c), and the calibration of what
 * monitoring costs on this host, the cost record and the budget (calibrate.c).
 */
#ifndef PVMMON_HOOKS_DYNINST_H
#define PVMMON_HOOKS_DYNINST_H

#include <stdint.h>

#include "../common/wire.h"
#include "pvmmon/log.h"
#include "pvmmon/probe.h"

/* The run's cost budget as a fraction (0: none), from the welcome: a task over it
 * flushes early, so that the monitor can act within a few ticks (calibrate.c, with
 * what follows). */
void hooks__dyn_set_budget(double budget);

/*
 * A site's first probe: remembers the site and applies the rules to it (a site the
 * rules switch off still gets a record, with no counts, so that the monitor learns it
 * exists). Returns the site's enabled flag.
 */
int hooks__dyn_first(pvmmon_probe_site *site);

/* The monitor's rules at registration: "+RESOURCE;-RESOURCE;..." in order, the last
 * match deciding (sites are on when no rule names them). NULL or "" for none. */
void hooks__dyn_rules(const char *rules);

/*
 * Throttling: site's probe pair costs too much of its own time, so it is demoted to
 * counting only: switched off for good (whatever the rules say later), its calls
 * counted by its scope test or dispatcher (pvmmon_probe_site.off).
 */
void hooks__dyn_throttle(pvmmon_probe_site *site);

/* A command: switch the sites named by resource on or off. */
void hooks__dyn_switch(int on, const char *resource);

/* Whether the budget asks for a flush before the period is over: the task's own
 * monitoring time since the last flush (at real time last_flush) is over it. */
int hooks__dyn_flush_due(int64_t now, int64_t last_flush);
/* Monitoring time the virtual clock does not charge (the sampler's handler, ns so
 * far): under a budget it counts towards an early flush too. */
void hooks__dyn_extra_cost(int64_t (*cost)(void));

/* Measures what probes, wrappers and piggybacks cost on this host, once, right after
 * registration; the results go into the task's cost record. */
void hooks__dyn_calibrate(void);
/* The calibration of this task's host from the welcome (k->tid 0: none), which
 * hooks__dyn_calibrate takes instead of measuring when it can. */
void hooks__dyn_host_calibration(const wire_calib *k);

/* At every scheduler run (a call's end, a probe tick): the loop calibration taken again
 * once a second of the run (calibrate.c, "Re-checks"). */
void hooks__dyn_poll(int64_t now);

/* The probe charge after re-checks: charge (from the calibration at registration,
 * whose loop pair cost start_pair), scaled by least_pair / start_pair when the least
 * re-check is under 90% of it (the first calibration was disturbed), else unchanged. */
int64_t hooks__dyn_recheck_charge(int64_t charge, int64_t start_pair, int64_t least_pair);

/* Right after registration: calibration; returns 1 under a budget, which wants a first
 * flush at once (the start of the interval the monitor measures the first rates over). */
int hooks__dyn_start(void);

/* The task's virtual-time uncertainty now, as its next records would give it
 * (preserve mode's reports carry it to the monitor between flushes). */
int64_t hooks__dyn_uncertainty(void);

/* Fills the task's cost record (observed and calibrated; the monitor predicts). */
void hooks__dyn_cost(pvmmon_log_cost *cost);

/* Counts a wrapped call. */
void hooks__dyn_wrapped(void);

#endif
