/* Traced logs built by hand for the unit tests of the wait analysis (waitslog.c). */
#ifndef PVMMON_TESTS_UNIT_GRAPHS_WAITSLOG_H
#define PVMMON_TESTS_UNIT_GRAPHS_WAITSLOG_H

#include <stddef.h>
#include <stdint.h>

#include "pvmmon/log.h"
#include "pvmmon/waits.h"

#define MS 1000000LL

pvmmon_log *wlog__new_log(const char *const *names, size_t nnames);
size_t wlog__task(pvmmon_log *log, int32_t tid, const char *lid, int64_t start, int64_t end);
void wlog__stmt(pvmmon_log *log, size_t ti, uint32_t id, const char *op, const char *file,
                int32_t line);
pvmmon_log_event *wlog__event(pvmmon_log *log, size_t ti, pvmmon_event_op op, uint32_t id,
                              int64_t vt0, int64_t vt1);
void wlog__send(pvmmon_log *log, size_t ti, uint32_t id, int32_t to, int64_t seq, int64_t vt);
void wlog__recv(pvmmon_log *log, size_t ti, uint32_t id, int32_t from, int64_t seq, int64_t vt,
                int64_t sync, int64_t trans);
void wlog__in_proc(pvmmon_log *log, size_t ti, int32_t k, int64_t a, int64_t b);
pvmmon_waits *wlog__compute(const pvmmon_log *log);
const pvmmon_wait_cause *wlog__cause(const pvmmon_waits *w, size_t ti, int32_t proc, uint32_t id);
pvmmon_log *wlog__late_sender_log(void);
void wlog__pipeline_events(pvmmon_log *log, size_t a, size_t b, size_t c);
char *wlog__report(const pvmmon_log *log, int *rc);

#endif
