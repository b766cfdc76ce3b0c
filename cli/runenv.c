/* The environment a monitored program starts in: what pvmmon run puts in LD_PRELOAD
 * and PVM_EXPORT, and where it finds the programs and libraries installed beside it. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "pvmmon/errors.h"

static char *hooks_library(void)
{
	const char *env = getenv("PVMMON_HOOKS");
	static const char *const cand[] = {"../lib/libpvmhooks.so", "../lib/pvmmon/libpvmhooks.so",
	                                   NULL};

	char *path;

	if (env && *env)
		return strdup(env);
	return cli__sibling(&path, cand) == 0 ? path : NULL;
}

/*
 * What LD_PRELOAD gets: the hooks library, or, in a sanitized build (make SANITIZE=1),
 * the sanitizer runtime the build recorded and then the hooks library, because ASan
 * will not start in a process where its runtime is not the first library.
 */
char *cli__run_preload_list(void)
{
	char *hooks = hooks_library();
#ifdef PVMMON_SANITIZER_RUNTIME
	char *list = NULL;

	if (hooks && asprintf(&list, "%s:%s", PVMMON_SANITIZER_RUNTIME, hooks) < 0)
		list = NULL;
	free(hooks);
	return list;
#else
	return hooks;
#endif
}

/* PVM_EXPORT for a monitored program: what was there, the settings every task takes,
 * and the PVMMON_ ones set here (PVMMON_CLOCK and the like): spawned tasks get the
 * pvmd's environment, which an attached VM's pvmd did not take from this one. */
char *cli__run_export_list(const char *old, int wait)
{
	static const char *const passed[] = {"PVMMON_CLOCK", "PVMMON_RECHECK_MS",
	                                     "PVMMON_CALIBRATION", "PVMMON_SLICE_TIMER",
	                                     "PVMMON_CHECK", "PVMMON_SAMPLE"};
	char *exp = NULL, *more = NULL;
	size_t i;

	if (asprintf(&exp,
	             "%s%sLD_PRELOAD:PVMMON_FLUSH_MS:PVMMON_NO_AUTOSTART:PVMMON_THROTTLE:"
	             "PVMMON_RR%s",
	             old ? old : "", old && *old ? ":" : "", wait ? ":PVMMON_WAIT_MS" : "") < 0)
		return NULL;
	for (i = 0; i < sizeof(passed) / sizeof(passed[0]); i++) {
		if (!getenv(passed[i]))
			continue;
		if (asprintf(&more, "%s:%s", exp, passed[i]) < 0)
			break;
		free(exp);
		exp = more;
	}
	return exp;
}
