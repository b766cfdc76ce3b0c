/* Private to the integration tests: loading a fixture log that has time histograms. */
#ifndef PVMMON_TESTS_INTEGRATION_HISTFIX_H
#define PVMMON_TESTS_INTEGRATION_HISTFIX_H

#include "pvmmon/log.h"

/*
 * Loads the log at path into *out (the caller frees it). With a reader that reads
 * <histogram> (the log 1.6 data path) this is pvmmon_log_read(); until then the
 * histograms are taken out of the XML, the rest is read by pvmmon_log_parse() and the
 * histograms are attached from the XML as the format says (each task's in its task, the
 * program's under <histograms>). Returns 0 or a negative code.
 */
int histfix_load(pvmmon_log **out, const char *path);

/* Whether histfix_load() would need no help: the library's reader keeps histograms. */
int histfix_reader_has_histograms(const char *path);

#endif
