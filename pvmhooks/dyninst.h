/*
 * Private to libpvmhooks: dynamic instrumentation in the task (doc/architecture.md,
 * "Dynamic instrumentation and cost"): the probe sites it has seen, the monitor's
 * rules that switch them on and off, the periodic tick probes give, and the
 * calibration of what monitoring costs on this host.
 */
#ifndef PVMMON_HOOKS_DYNINST_H
#define PVMMON_HOOKS_DYNINST_H

#include <stdint.h>

#include "pvmmon/log.h"
#include "pvmmon/probe.h"

/* Real time at which the next probe looks for the monitor's commands and flushes
 * (INT64_MAX until the task is registered): one compare in every probe. */
extern int64_t hooks__dyn_next_tick;

/* The run's cost budget as a fraction (0: none): a task over it flushes early, so
 * that the monitor can act within a few ticks. */
extern double hooks__dyn_budget;

/*
 * A site's first probe: remembers the site and applies the rules to it (a site the
 * rules switch off still gets a record, with no counts, so that the monitor learns it
 * exists). Returns the site's enabled flag.
 */
int hooks__dyn_first(pvmmon_probe_site *site);

/* The monitor's rules at registration: "+RESOURCE;-RESOURCE;..." in order, the last
 * match deciding (sites are on when no rule names them). NULL or "" for none. */
void hooks__dyn_rules(const char *rules);

/* A command: switch the sites named by resource on or off. */
void hooks__dyn_switch(int on, const char *resource);

/* The periodic work of a task that makes no PVM calls for a while: the monitor's
 * commands, preserve mode's questions and the flush of records, from a probe. */
void hooks__dyn_tick(int64_t now);

/* Measures what probes, wrappers and piggybacks cost on this host, once, right after
 * registration; the results go into the task's cost record. */
void hooks__dyn_calibrate(void);

/* Charges ns for each probe from now on (probes.c): what one probe costs, calibrated. */
void hooks__probe_cost_set(int64_t ns);

/* Fills the task's cost record (observed and calibrated; the monitor predicts). */
void hooks__dyn_cost(pvmmon_log_cost *cost);

/* Counts a wrapped call. */
void hooks__dyn_wrapped(void);

#endif
