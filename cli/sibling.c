/* Files installed beside the pvmmon executable (the monitor, the hooks library), found
 * from its own path: apart from the command's main, so that the modules which look for
 * them (run.c, runenv.c) link without it (the unit tests). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "pvmmon/errors.h"

int cli__sibling(char **out, const char *const *candidates)
{
	char self[PATH_MAX], buf[PATH_MAX + 64], *slash;
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	*out = NULL;
	if (n <= 0)
		return PVMMON_ENOTFOUND;
	self[n] = '\0';
	slash = strrchr(self, '/');
	if (!slash)
		return PVMMON_ENOTFOUND;
	*slash = '\0';
	for (; *candidates; candidates++) {
		snprintf(buf, sizeof(buf), "%s/%s", self, *candidates);
		if (access(buf, F_OK) == 0) {
			*out = realpath(buf, NULL);
			return *out ? 0 : PVMMON_ENOTFOUND;
		}
	}
	return PVMMON_ENOTFOUND;
}
