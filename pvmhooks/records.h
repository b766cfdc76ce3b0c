/* Private to libpvmhooks: record-store internals shared with the probes and tests. */
#ifndef PVMMON_HOOKS_RECORDS_H
#define PVMMON_HOOKS_RECORDS_H

#include <stddef.h>
#include <stdint.h>

#include "hooks.h"
#include "ptrmap.h"
#include "pvmmon/probe.h"

/* Internal to the library that links it (the archives are linked statically): its
 * names bind locally, with no GOT load or PLT call. */
#pragma GCC visibility push(hidden)

/* Procedure and loop probes at virtual time v. Each returns HOOKS_REC_MADE when it made
 * a record (malloc, strdup): such a probe is timed, not charged the calibrated cost; an
 * exit adds HOOKS_REC_CHECK when the record it closed has just reached a count that
 * throttling looks at (HOOKS_THROTTLE_MIN and each power of two after), so that the
 * other exits ask nothing more. */
#define HOOKS_REC_MADE 1
#define HOOKS_REC_CHECK 2
#define HOOKS_THROTTLE_MIN 64
int hooks__proc_enter(pvmmon_probe_site *site, int32_t call_line, int64_t v);
int hooks__proc_exit(pvmmon_probe_site *site, int64_t v);
/* The same where the probe has the moment on all three clocks: real t, virtual v and
 * local l (the others derive t and l from v and the clock's charges). */
int hooks__proc_enter_at(pvmmon_probe_site *site, int32_t call_line, int64_t t, int64_t v,
                         int64_t l);
int hooks__proc_exit_at(pvmmon_probe_site *site, int64_t t, int64_t v, int64_t l);
/* Each proc record's inclusive time and each loop record's time and count as of
 * virtual time v, open activations included (the time so far of a procedure's
 * outermost one): fn(loop, record, time, count, arg) once per record, then once more
 * (count 0) per open outermost activation with its time so far (the time histograms). */
typedef void (*hooks_running_fn)(int loop, size_t record, int64_t time, uint64_t count, void *arg);
void hooks__records_running(int64_t v, hooks_running_fn fn, void *arg);
/* Whether site is on the procedure stack (recursion). */
int hooks__proc_active(pvmmon_probe_site *site);

/* The record that site's exit just closed: its count (total), and the calls and their
 * virtual time that throttling judges (count, time): for a procedure, all of the
 * record's (inclusive); for a loop, those since the last time this was asked of it, so
 * that a loop whose first entries were long and later ones short is judged by these.
 * (A procedure is not: its records, one per call site, would each judge the whole
 * procedure by its own recent calls.) 0 when that exit closed none of site's. */
int hooks__records_last_exit(pvmmon_probe_site *site, uint64_t *total, uint64_t *count,
                             int64_t *time);

/* Marks site's records throttled at (ns after the task's start), when its time a call
 * was call_ns against a probe pair of pair_ns; from then on each flush counts the
 * site's calls made while off (pvmmon_probe_site.off) into a procedure's record of its
 * own (counted, no caller: its calls no longer reach the probe stack) or the loop's. */
void hooks__records_throttled(pvmmon_probe_site *site, int64_t at, int64_t call_ns,
                              int64_t pair_ns);
int hooks__loop_enter(pvmmon_probe_site *site, int64_t v);
int hooks__loop_exit(pvmmon_probe_site *site, int64_t v);
int hooks__loop_enter_at(pvmmon_probe_site *site, int64_t t, int64_t v, int64_t l);
int hooks__loop_exit_at(pvmmon_probe_site *site, int64_t t, int64_t v, int64_t l);

/* Ends every open procedure and loop at virtual time v, as if their exit probes ran:
 * the final flush happens inside main, whose own exit comes too late to be sent. */
void hooks__records_close_open(int64_t v);

/* Copies the call counters of counted (leaf) procedures into their proc records. */
void hooks__records_update_counts(void);

/* How many static tables instrumented translation units registered (0: the program
 * was not built with pvmmon-cc). */
size_t hooks__records_static_tables(void);
/* Copies the registered static tables into the task's records (once). */
void hooks__records_add_statics(void);
/* Copies the throttled sites' and the counted procedures' call counts into their
 * records (recstatic.c), making a record for each counted procedure on its first
 * count; and forgets those records (reset). */
void hooks__records_statics_count(void);
void hooks__records_statics_reset(void);
/* A new proc record for a counted procedure (keyed by its static entry; counted, no
 * caller), its index in *index; NULL when memory is short. */
pvmmon_log_proc *hooks__records_counted_new(const void *entry, size_t *index);
/* The record that counts a throttled procedure's calls (caller unknown: the calls no
 * longer reach the probe stack), made on first use; (size_t)-1 without memory. And
 * the marks of site's demotion on every proc record of site. */
size_t hooks__records_count_only(pvmmon_probe_site *site);
void hooks__records_throttle_mark(pvmmon_probe_site *site, int64_t at, int64_t call_ns,
                                  int64_t pair_ns);

/* Looks up every proc record's and open frame's critical-path selection index again
 * (after the selection is known). */
void hooks__records_cp_refresh(void);

/* The selection index (or -1) of each open procedure, outermost first, into out (at
 * most max); returns how many. */
int hooks__records_open_cp(int *out, int max);

/* The entries and exits before registration, in order; *n of them. Returns NULL when
 * there were more than could be kept. */
const hooks_pre_event *hooks__records_pre_events(size_t *n);

/* Switches the records of statement id on or off (the monitor's command): while off,
 * hooks__stmt() gives a scratch record, so its counts stay as they were. */
void hooks__records_stmt_switch(uint32_t id, int on);

/* The innermost open procedure's name (NULL when none). */
const char *hooks__records_top_proc(void);
/* Makes site's record (no counts) without entering it: a site switched off at its
 * first probe still shows in the records. */
void hooks__records_touch(pvmmon_probe_site *site);
/* Around calibration (dyninst.c): the innermost procedure's callee time is put back
 * as it was and the records made for the calibration sites are dropped. */
void hooks__records_calibration_begin(void);
void hooks__records_calibration_end(pvmmon_probe_site *const *sites, size_t n);

/* Drops every record (tests). */
void hooks__records_reset(void);

/* The records as a log task (borrowed: valid until the next record change), for the
 * records package's own files. */
pvmmon_log_task *hooks__records_task(void);
/* The same, to read (histos.c). */
const pvmmon_log_task *hooks__records_view(void);
/* Replaces the task's histograms by the n in hists (calloc'ed; the records own them
 * from here), freeing the ones before; NULL, 0 leaves none. */
void hooks__records_set_hists(pvmmon_log_hist *hists, size_t n);
/* Starts the records (kept from probes made before registration). */
void hooks__records_init(void);
/* The statement record of a call site, created on first use (NULL if out of memory). */
pvmmon_log_stmt *hooks__stmt(void *site, hooks_op op);
/* The id of site's statement record, -1 when it has none (makes nothing: a signal
 * handler may call it). */
int64_t hooks__records_stmt_id(const void *site);
/* Forgets the statement records' index and scratch record (records.c's reset clears the
 * records themselves). */
void hooks__records_stmt_reset(void);
/* A task that enrols again (pvm_exit, then a PVM call: a new tid) starts its statement
 * records from zero: its earlier incarnation's went with its final flush. The
 * statements (their ids, sites and switches) stay. */
void hooks__records_stmt_restart(void);
/* The com record of stmt for partner tid, created on first use. */
pvmmon_log_com *hooks__com(pvmmon_log_stmt *stmt, int tid);

/* A statement's accounting (recstmt.c owns the rule; st may be NULL): a call of
 * time_ns; a send of bytes to each of n tids (inner: made inside a group call, whose
 * statement counts the call and its time); a receive's message of bytes; a message
 * from an unmonitored sender (the call's time_ns); a delivery's virtual time, sync
 * and transmission from src; a group server's answer from src after wait (0 when no
 * com record could be made: nothing counted); preserve mode's reordering and holding. */
void recstmt__add_call(pvmmon_log_stmt *st, int64_t time_ns);
void recstmt__add_send(pvmmon_log_stmt *st, int inner, int64_t time_ns, const int *tids, int n,
                       int bytes);
void recstmt__add_recv(pvmmon_log_stmt *st, int inner, int bytes);
void recstmt__add_unmonitored(pvmmon_log_stmt *st, int64_t time_ns);
void recstmt__add_delivery(pvmmon_log_stmt *st, int inner, int64_t time_ns, int src, int bytes,
                           int64_t sync, int64_t trans);
int recstmt__add_server(pvmmon_log_stmt *st, int src, int bytes, int64_t wait);
void recstmt__add_held(pvmmon_log_stmt *st, int reordered, int64_t held_ns);
/* A flush's first step, at virtual time v: at the final one the open procedures and
 * loops are closed; the static tables' counts are taken. */
void hooks__records_prepare(int final, int64_t v);
/* A flush's last step: the task's records, with its totals at real time now and its
 * cost record, to the monitor. 0, or a negative code. */
int hooks__records_send(int final, int64_t now, const pvmmon_log_cost *cost);
/* A task that enrols again is a new task to the monitor: its next flush carries the
 * static tables again (runtime.c, reenrol). */
void hooks__records_send_restart(void);

/* How far one probe's charge may be from its true cost (ns), from how far the two
 * calibrations in cost disagree; 0 when the in-place one was not made. */
int64_t hooks__records_probe_spread(const pvmmon_log_cost *cost);

#pragma GCC visibility pop

#endif
