/* Unit tests for cli/runenv.c: what a monitored program gets in LD_PRELOAD and
 * PVM_EXPORT. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "../../../cli/cli.h"

/* The variables these tests set, kept to be put back. */
static const char *const vars[] = {"PVMMON_HOOKS",       "PVMMON_CLOCK",       "PVMMON_RECHECK_MS",
                                   "PVMMON_CALIBRATION", "PVMMON_SLICE_TIMER", "PVMMON_CHECK"};
#define NVARS (sizeof(vars) / sizeof(vars[0]))
static char *saved[NVARS];

static void save_env(void)
{
	for (size_t i = 0; i < NVARS; i++) {
		const char *v = getenv(vars[i]);

		saved[i] = v ? strdup(v) : NULL;
		unsetenv(vars[i]);
	}
}

static void restore_env(void)
{
	for (size_t i = 0; i < NVARS; i++) {
		if (saved[i])
			setenv(vars[i], saved[i], 1);
		else
			unsetenv(vars[i]);
		free(saved[i]);
		saved[i] = NULL;
	}
}

/* What LD_PRELOAD holds for the hooks library at path: the sanitizer runtime first
 * in a sanitized build. */
static void check_preload(const char *got, const char *path)
{
#ifdef PVMMON_SANITIZER_RUNTIME
	char want[PATH_MAX * 2];

	snprintf(want, sizeof(want), "%s:%s", PVMMON_SANITIZER_RUNTIME, path);
	CU_ASSERT_STRING_EQUAL(got, want);
#else
	CU_ASSERT_STRING_EQUAL(got, path);
#endif
}

static void test_preload(void)
{
	char self[PATH_MAX], cand[PATH_MAX + 64], *got, *slash, *want = NULL;
	ssize_t n;

	save_env();
	/* PVMMON_HOOKS names the library, as it is. */
	setenv("PVMMON_HOOKS", "/opt/x/libpvmhooks.so", 1);
	got = cli__run_preload_list();
	CU_ASSERT_PTR_NOT_NULL_FATAL(got);
	check_preload(got, "/opt/x/libpvmhooks.so");
	free(got);
	/* Empty, or unset: the library installed beside the executable (../lib/, then
	 * ../lib/pvmmon/), as a real path; none: NULL. */
	setenv("PVMMON_HOOKS", "", 1);
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	CU_ASSERT_FATAL(n > 0);
	self[n] = '\0';
	slash = strrchr(self, '/');
	*slash = '\0';
	snprintf(cand, sizeof(cand), "%s/../lib/libpvmhooks.so", self);
	if (access(cand, F_OK) != 0)
		snprintf(cand, sizeof(cand), "%s/../lib/pvmmon/libpvmhooks.so", self);
	if (access(cand, F_OK) == 0)
		want = realpath(cand, NULL);
	got = cli__run_preload_list();
	if (want) {
		CU_ASSERT_PTR_NOT_NULL_FATAL(got);
		check_preload(got, want);
	} else {
		CU_ASSERT_PTR_NULL(got);
	}
	free(got);
	free(want);
	restore_env();
}

static void test_export_list(void)
{
	char *e;

	save_env();
	/* What every task takes, after what was there. */
	e = cli__run_export_list(NULL, 0);
	CU_ASSERT_STRING_EQUAL(e, "LD_PRELOAD:PVMMON_FLUSH_MS:PVMMON_NO_AUTOSTART:PVMMON_THROTTLE:"
	                          "PVMMON_RR");
	free(e);
	e = cli__run_export_list("", 0);
	CU_ASSERT_STRING_EQUAL(e, "LD_PRELOAD:PVMMON_FLUSH_MS:PVMMON_NO_AUTOSTART:PVMMON_THROTTLE:"
	                          "PVMMON_RR");
	free(e);
	/* The wait threshold when it is set. */
	e = cli__run_export_list("DISPLAY:HOME", 1);
	CU_ASSERT_STRING_EQUAL(e, "DISPLAY:HOME:LD_PRELOAD:PVMMON_FLUSH_MS:PVMMON_NO_AUTOSTART:"
	                          "PVMMON_THROTTLE:PVMMON_RR:PVMMON_WAIT_MS");
	free(e);
	/* The PVMMON_ settings given to pvmmon, in their fixed order, only those set. */
	setenv("PVMMON_CHECK", "all", 1);
	setenv("PVMMON_CLOCK", "monotonic", 1);
	setenv("PVMMON_SLICE_TIMER", "", 1);
	e = cli__run_export_list("HOME", 0);
	CU_ASSERT_STRING_EQUAL(e, "HOME:LD_PRELOAD:PVMMON_FLUSH_MS:PVMMON_NO_AUTOSTART:"
	                          "PVMMON_THROTTLE:PVMMON_RR:PVMMON_CLOCK:PVMMON_SLICE_TIMER:"
	                          "PVMMON_CHECK");
	free(e);
	restore_env();
}

CU_TestInfo test_runenv_tests[] = {
    {"LD_PRELOAD: PVMMON_HOOKS or the library beside the executable", test_preload},
    {"PVM_EXPORT: what was there, then pvmmon's settings", test_export_list},
    CU_TEST_INFO_NULL,
};
