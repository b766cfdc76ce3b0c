/* Private to the export unit tests: small logs built in memory, and scratch folders. */
#ifndef PVMMON_TESTS_UNIT_EXPORT_LOGBUILD_H
#define PVMMON_TESTS_UNIT_EXPORT_LOGBUILD_H

#include <stdint.h>

#include "pvmmon/log.h"

/* A new empty log (the caller frees it with pvmmon_log_free). */
pvmmon_log *logbuild_new(void);

/* Appends a host named name. */
void logbuild_host(pvmmon_log *log, const char *name);

/* Appends a task (lid and host may be NULL) and returns its index. */
size_t logbuild_task(pvmmon_log *log, int32_t tid, const char *lid, const char *host);

/* Appends to task i a traced event: op, its partner, tag, bytes and sequence number,
 * its virtual start and end, and its real call start and end (rt[1], rt[2]). */
void logbuild_event(pvmmon_log *log, size_t i, pvmmon_event_op op, int32_t peer, int32_t tag,
                    uint32_t bytes, int64_t seq, int64_t vt0, int64_t vt1, int64_t rt1,
                    int64_t rt2);

/* Appends to task i a statement record (file NULL: module and offset only). */
void logbuild_stmt(pvmmon_log *log, size_t i, const char *op, const char *file, int32_t line,
                   const char *module, uint64_t offset, uint64_t count, int64_t time_ns,
                   uint64_t bytes);

/* Appends to task i a procedure record, and a loop record. */
void logbuild_proc(pvmmon_log *log, size_t i, const char *name, const char *file, int32_t line,
                   uint64_t count, int64_t incl_ns, int64_t raw_incl_ns);
void logbuild_loop(pvmmon_log *log, size_t i, const char *name, const char *file, int32_t line,
                   uint64_t count, int64_t time_ns, int64_t raw_ns);

/* Makes a new scratch folder from the template in dir ("/tmp/...XXXXXX"). */
void logbuild_tmpdir(char *dir);

/* Removes path and everything under it. */
void logbuild_remove(const char *path);

#endif
