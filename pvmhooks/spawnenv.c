/*
 * Carrying monitoring to spawned children (pvmhooks/spawnenv.h): around a real
 * pvm_spawn, LD_PRELOAD gets this library's absolute path and PVM_EXPORT names it and
 * every PVMMON_ variable; PVM's group server and pvmmon's monitor are kept passive.
 */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spawnenv.h"
#include "pvmmon/errors.h"

static char *lib_path;      /* absolute path of this library, for children's preload */
static char *saved_preload; /* LD_PRELOAD and PVM_EXPORT around a pvm_spawn */
static char *saved_export;
static int spawn_env_changed;

int hooks__find_lib_path(void)
{
	Dl_info info;

	if (!dladdr((void *)hooks__find_lib_path, &info) || !info.dli_fname)
		return pvmmon_error_set(PVMMON_ENOTFOUND, "pvmhooks: cannot find its own library");
	/* Again on a second initialisation (the unit tests' fake tasks): the first
	 * answer is the same, and would be lost. */
	free(lib_path);
	lib_path = realpath(info.dli_fname, NULL);
	return lib_path ? 0
	                : pvmmon_error_set(PVMMON_ENOTFOUND, "pvmhooks: %s: %s", info.dli_fname,
	                                   strerror(errno));
}

const char *hooks__lib_path(void) { return lib_path; }

/* Appends name to the colon-separated list in *list unless it is there already; 0, or
 * PVMMON_ENOMEM. */
static int list_add(char **list, const char *name)
{
	const char *p = *list ? *list : "";
	size_t n = strlen(name);
	char *s;

	while (*p) {
		const char *e = strchr(p, ':');
		size_t len = e ? (size_t)(e - p) : strlen(p);

		if (len == n && strncmp(p, name, n) == 0)
			return 0;
		p += len + (e ? 1 : 0);
	}
	if (asprintf(&s, "%s%s%s", *list && **list ? *list : "", *list && **list ? ":" : "", name) <
	    0)
		return PVMMON_ENOMEM;
	free(*list);
	*list = s;
	return 0;
}

void hooks__spawn_env_begin(const char *file)
{
	extern char **environ;
	const char *pre = getenv("LD_PRELOAD"), *exp = getenv("PVM_EXPORT");
	const char *base = file ? strrchr(file, '/') : NULL;
	char *newexp = exp ? strdup(exp) : NULL, *newpre = pre ? strdup(pre) : NULL;
	int tools = 0;
	char **e;

	base = base ? base + 1 : file;
	/* The group server and the monitor are PVM's and pvmmon's own: never monitored. */
	if (base && (strcmp(base, "pvmgs") == 0 || strcmp(base, "pvmmon-monitor") == 0))
		tools = 1;
	saved_preload = pre ? strdup(pre) : NULL;
	saved_export = exp ? strdup(exp) : NULL;
	spawn_env_changed = 1;
	if (tools) {
		setenv("PVMMON_PASSIVE", "1", 1);
		list_add(&newexp, "PVMMON_PASSIVE");
		unsetenv("LD_PRELOAD");
	} else {
		if (lib_path)
			list_add(&newpre, lib_path);
#ifdef PVMMON_SANITIZER_RUNTIME
		/* A sanitized build of this library (make SANITIZE=1) only loads in a process
		 * whose first library is the sanitizer runtime: put it first for children
		 * that are not linked with it, as `pvmmon run` does for the program. */
		if (newpre && strncmp(newpre, PVMMON_SANITIZER_RUNTIME ":",
				      strlen(PVMMON_SANITIZER_RUNTIME ":")) != 0) {
			char *first = NULL;

			if (asprintf(&first, "%s:%s", PVMMON_SANITIZER_RUNTIME, newpre) >= 0) {
				free(newpre);
				newpre = first;
			}
		}
#endif
		if (newpre)
			setenv("LD_PRELOAD", newpre, 1);
		list_add(&newexp, "LD_PRELOAD");
		for (e = environ; *e; e++) {
			char name[128];
			const char *eq = strchr(*e, '=');

			if (strncmp(*e, "PVMMON_", 7) != 0 || !eq ||
			    (size_t)(eq - *e) >= sizeof(name))
				continue;
			/* A host's clock shift (tests only) belongs to the host, not to the
			 * task: a child on another host must keep that host's. */
			if (strncmp(*e, "PVMMON_TEST_CLOCK_OFFSET_NS=", 28) == 0)
				continue;
			memcpy(name, *e, (size_t)(eq - *e));
			name[eq - *e] = '\0';
			list_add(&newexp, name);
		}
	}
	if (newexp)
		setenv("PVM_EXPORT", newexp, 1);
	free(newexp);
	free(newpre);
}

void hooks__spawn_env_end(void)
{
	if (!spawn_env_changed)
		return;
	if (saved_preload)
		setenv("LD_PRELOAD", saved_preload, 1);
	else
		unsetenv("LD_PRELOAD");
	if (saved_export)
		setenv("PVM_EXPORT", saved_export, 1);
	else
		unsetenv("PVM_EXPORT");
	unsetenv("PVMMON_PASSIVE");
	free(saved_preload);
	free(saved_export);
	saved_preload = saved_export = NULL;
	spawn_env_changed = 0;
}
