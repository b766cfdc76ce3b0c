/*
 * Private to libpvmhooks: a replayed task's stops for a debugger (pvmmon replay
 * --stop-at) and its holds while another task is stopped (rrstop.c). rr.c decides when
 * a replay is on and which recorded event comes next; this part stops, holds and tells
 * the monitor.
 */
#ifndef PVMMON_HOOKS_RRSTOP_H
#define PVMMON_HOOKS_RRSTOP_H

#include <stdint.h>

#include "hooks.h"

/* The event to stop before (counted from 1; 0: none), from the replay's record. */
void rrstop__configure(uint64_t stop_at);
/* Whether the replay stops before event. */
int rrstop__due(uint64_t event);
/* Tells the monitor (which prints the pid) and stops this process (SIGSTOP) before
 * event, at call's site, so that a debugger can attach to exactly this state; once
 * continued, says so. */
void rrstop__here(const hooks_call *call, uint64_t event);
/* Another task is stopped for a debugger (on), or no longer. */
void rrstop__hold(int on);
/* Holds here while the hold is on, having told the monitor it holds before event. */
void rrstop__hold_point(hooks_call *call, uint64_t event);

#endif
