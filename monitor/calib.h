/* Private to pvmmon-monitor: the hosts' shared calibrations (calib.c): the first task
 * of a host to measure what monitoring costs it hands its measure to the host's later
 * tasks through their welcome. */
#ifndef PVMMON_MONITOR_CALIB_H
#define PVMMON_MONITOR_CALIB_H

#include "monitor.h"

/* A task's calibration (CALIB): kept as its host's when the host has none yet. */
void calib__message(mon_run *run, int src, const uint8_t *data, size_t len);
/* The calibration of host dtid into *out (out->tid 0: none yet). */
void calib__of_host(wire_calib *out, const mon_run *run, int32_t dtid);
void calib__free(mon_run *run);

#endif
