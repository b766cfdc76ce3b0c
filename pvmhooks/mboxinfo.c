/* Hiding pvmmon's own message-mailbox classes from the program's pvm_getmboxinfo(). */
#include <string.h>

#include <pvm3.h>

#include "pvmmon/common.h"
#include "hooks.h"

typedef int (*getmboxinfo_fn)(char *, int *, struct pvmmboxinfo **);

static int is_ours(const char *name)
{
	return name && (!strcmp(name, WIRE_MAILBOX_NAME) || !strcmp(name, WIRE_LOCK_NAME));
}

/*
 * A program that lists the mailbox would otherwise see the monitor's entry and behave
 * differently under monitoring (PVM's own gmbi example prints the list). Our classes are
 * moved behind the ones returned rather than dropped: libpvm frees the array by its own
 * count on the next call, so every entry must stay in it. The result code is PVM's.
 */
PVMMON_EXTERN int pvm_getmboxinfo(char *pattern, int *nclasses, struct pvmmboxinfo **classes)
{
	static getmboxinfo_fn real;
	struct pvmmboxinfo *all;
	int rc, n, kept = 0;

	if (!real)
		real = (getmboxinfo_fn)hooks__real("pvm_getmboxinfo");
	/* Like any PVM call it may be the program's first: the task enrolls here. */
	if (!hooks__guard)
		hooks__activate();
	rc = real(pattern, nclasses, classes);
	if (rc < 0 || !nclasses || !classes || !*classes)
		return rc;
	all = *classes;
	n = *nclasses;
	for (int i = 0; i < n; i++) {
		if (is_ours(all[i].mi_name))
			continue;
		if (i != kept) {
			struct pvmmboxinfo tmp = all[kept];

			all[kept] = all[i];
			all[i] = tmp;
		}
		kept++;
	}
	*nclasses = kept;
	return rc;
}
