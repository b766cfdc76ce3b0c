/* Hiding pvmmon's monitor task from what the program can list or ask about: pvm_tasks() and
 * pvm_pstat(). */
#include <string.h>

#include <pvm3.h>

#include "channel.h"
#include "hide.h"
#include "hooks.h"
#include "pvmmon/common.h"

typedef int (*tasks_fn)(int, int *, struct pvmtaskinfo **);
typedef int (*pstat_fn)(int);

/* The monitor's executable, whoever started it (pvmmon run, or a task's auto start). */
#define MONITOR_NAME "pvmmon-monitor"

/* Like any PVM call these may be the program's first: the task enrolls here, and so
 * learns the monitor's tid before it filters anything. */
static int monitor_tid(void)
{
	if (!hooks__guard)
		hooks__activate();
	return channel__monitor_tid();
}

static int is_monitor(const struct pvmtaskinfo *t, int mon)
{
	const char *base;

	if (mon > 0 && t->ti_tid == mon)
		return 1;
	if (!t->ti_a_out)
		return 0;
	base = strrchr(t->ti_a_out, '/');
	base = base ? base + 1 : t->ti_a_out;
	return !strcmp(base, MONITOR_NAME);
}

int hide__tasks(struct pvmtaskinfo *tasks, int n, int mon)
{
	int kept = 0;

	for (int i = 0; i < n; i++) {
		if (is_monitor(&tasks[i], mon))
			continue;
		if (i != kept) {
			struct pvmtaskinfo tmp = tasks[kept];

			tasks[kept] = tasks[i];
			tasks[i] = tmp;
		}
		kept++;
	}
	return kept;
}

/*
 * A program that counts the tasks of its virtual machine would count the monitor too
 * (NetPIPE refuses to run when it sees more than its own two). The array is libpvm3's
 * own static storage, freed by libpvm3 at the next pvm_tasks() by its own count of
 * entries, names included: nothing is copied or freed here. The monitor's entry is
 * moved behind the ones the program keeps (their order unchanged) and the count the
 * program gets leaves it out, so the program's array is exactly the unmonitored one.
 * Asked about the monitor's tid itself, PVM answers as for a tid that does not
 * exist: PvmOk with no task. The result code is always PVM's.
 */
PVMMON_EXTERN int pvm_tasks(int where, int *ntask, struct pvmtaskinfo **taskp)
{
	static tasks_fn real;
	int rc, mon;

	if (!real)
		real = (tasks_fn)hooks__real("pvm_tasks");
	if (hooks__guard)
		return real(where, ntask, taskp);
	mon = monitor_tid();
	rc = real(where, ntask, taskp);
	if (rc < 0 || !ntask || !taskp || !*taskp)
		return rc;
	*ntask = hide__tasks(*taskp, *ntask, mon);
	return rc;
}

/* The monitor's tid reads as a task that does not exist (PvmNoTask, what PVM answers
 * for such a tid), so a program probing tids finds only its own tasks. */
PVMMON_EXTERN int pvm_pstat(int tid)
{
	static pstat_fn real;
	int mon;

	if (!real)
		real = (pstat_fn)hooks__real("pvm_pstat");
	if (hooks__guard)
		return real(tid);
	mon = monitor_tid();
	if (mon > 0 && tid == mon)
		return PvmNoTask;
	return real(tid);
}
