/*
 * Private to the integration tests: running commands with a time limit, scratch
 * folders, and reading files. Every test that needs PVM gets its own private virtual
 * machine (through `pvmmon run` or common/vm.c) and halts it, even when it fails.
 */
#ifndef PVMMON_TESTS_HARNESS_H
#define PVMMON_TESTS_HARNESS_H

#include <stddef.h>

typedef struct cmd_result {
	int status;  /* exit status, 128+signal if killed, -1 if it timed out */
	char *out;   /* standard output (heap, NUL-terminated) */
	char *err;   /* standard error */
} cmd_result;

/* Runs `sh -c cmd` in its own process group with at most timeout_s seconds; on timeout
 * the whole group is killed. The caller frees with cmd_result_free(). */
int harness_sh(cmd_result *r, int timeout_s, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void cmd_result_free(cmd_result *r);

/* The build folder (PVMMON_BUILD, default "build") made absolute, and bin/ in it. */
const char *harness_build(void);
const char *harness_bin(void);

/* Builds apps/NAME.f into dir/NAME with gfortran and libfpvm3, libpvm3 and the extra
 * libraries (e.g. "-lgpvm3", or ""), with flags (e.g. "-O2"): 0 when built, 1 when
 * there is no gfortran (said on standard error: the test skips), -1 when the build
 * failed (asserted). */
int harness_gfortran(const char *dir, const char *name, const char *flags, const char *libs);

/* A new empty scratch folder under the test run's folder (removed at the end). */
const char *harness_tmpdir(void);
void harness_cleanup(void);

/* Reads a whole file (heap, NUL-terminated) or NULL; *len may be NULL. */
char *harness_slurp(const char *path, size_t *len);
long harness_file_size(const char *path);

/* Builds apps/order with pvmmon-cc (probes in every procedure) into dir as ./order;
 * 0 when built (the compiler's output goes to stderr otherwise). */
int harness_build_order(const char *dir);
/* The "order: ..." line of apps/order's output (heap), or NULL. */
char *harness_order_line(const char *out);

/* Whether the hooks and the monitor run slowed down: built with ASan (make check-asan)
 * or the monitor under a wrapper such as valgrind (PVMMON_MONITOR_WRAPPER). Timing
 * margins some tests check hold only without either. */
int harness_slowed(void);

struct pvmmon_log;
/* Whether log l holds no finding of the PVM usage checks; each one is printed, after
 * what (the program's name). */
int harness_no_findings(const struct pvmmon_log *l, const char *what);

/* Counts occurrences of needle in hay. */
int harness_count(const char *hay, const char *needle);

#endif
