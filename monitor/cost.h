/* Private to pvmmon-monitor: dynamic instrumentation and cost (cost.c): the switching
 * rules, the log of switches, each task's predicted and observed cost, the budget. */
#ifndef PVMMON_MONITOR_COST_H
#define PVMMON_MONITOR_COST_H

#include "monitor.h"

/* Switches the sites named by spec on or off in every task it names, now and for
 * tasks that register later, and logs the switch (by the budget, with its reason, or
 * by the user). PVMMON_EINVAL when spec is no resource. */
int cost__switch(mon_run *run, int on, const char *spec, int budget, const char *reason);
/* The rules as the welcome carries them ("+spec;-spec") in *out (heap, caller frees).
 * 0 or PVMMON_ENOMEM. */
/* `pvmmon ctl sample`: call-path sampling at hz in every running task (0: off), kept
 * for tasks that register later and listed with the switches (resource "sample"). */
int cost__sample(mon_run *run, uint32_t hz);
int cost__rules_text(char **out, const mon_run *run);
/* At the start of a run with a budget: its first rule. */
int cost__start(mon_run *run);
/* After a flush of t's records: its predicted cost, and the budget's decisions. */
void cost__records(mon_run *run, mon_task *t);
/* Switches statements' records on or off in t as the rules say (the monitor resolves
 * statements to lines; tasks know only call sites). */
void cost__stmts(mon_run *run, mon_task *t);
/* Frees every task's cost state, the rules and the switches. */
void cost__free(mon_run *run);

#endif
