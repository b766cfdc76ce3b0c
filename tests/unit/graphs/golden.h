/* Private to the graphs unit tests: reading files and comparing output with golden files. */
#ifndef PVMMON_TESTS_UNIT_GRAPHS_GOLDEN_H
#define PVMMON_TESTS_UNIT_GRAPHS_GOLDEN_H

/* The whole of the file at path, NUL-terminated (the caller frees it), or NULL. */
char *unit_slurp(const char *path);

/*
 * Asserts that text equals the golden file byte for byte, printing text when it does
 * not. With PVMMON_UPDATE_GOLDEN set in the environment, rewrites the golden file
 * from text first (after a deliberate change; review the diff).
 */
void unit_check_golden(const char *text, const char *golden);

struct pvmmon_log;
/* The log's JSON export (pvmmon_export_json) as a NUL-terminated text the caller frees;
 * NULL (and a failed assertion) when it cannot be made. */
char *unit_export_json(const struct pvmmon_log *log);

#endif
