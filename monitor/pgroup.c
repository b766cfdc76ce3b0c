/*
 * The launched program's process group (monitor/pgroup.h): `pvmmon run` starts the
 * program in a group of its own and tells the monitor its number; a process of that
 * group that is no task of the run (a script, its `sleep`, a child the program forked)
 * may still start a task, so hang.c judges a wait for anyone only once every process of
 * the group is a task. Tasks a pvmd spawns are its children, never in the group.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgroup.h"
#include "tasks.h"

/* Whether process pid (listed under dir) lives in process group group: its stat line
 * is "PID (COMM) STATE PPID PGRP ...", where COMM may hold spaces and parentheses, so
 * the fields are read after the last ')'. A zombie (Z) or a dead process (X) does not
 * live; one that is gone by now is not listed. */
static int in_group(const char *dir, long pid, int32_t group)
{
	char path[4200], line[1024], state = 0;
	const char *p;
	int ppid = 0, pgrp = 0;
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%ld/stat", dir, pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	n = fread(line, 1, sizeof(line) - 1, f);
	fclose(f);
	line[n] = '\0';
	p = strrchr(line, ')');
	if (!p || sscanf(p + 1, " %c %d %d", &state, &ppid, &pgrp) != 3)
		return 0;
	return pgrp == group && state != 'Z' && state != 'X';
}

/* Whether pid is a task of the run on the monitor's host that has not ended. */
static int is_task(const mon_run *run, long pid)
{
	for (size_t i = 0; i < tasks__count(run); i++) {
		const mon_task *t = tasks__at(run, i);

		if (!t->gone && t->dtid == run->myhost && t->rec.pid == pid)
			return 1;
	}
	return 0;
}

int pgroup__others(const mon_run *run)
{
	const char *dir = run->proc_dir ? run->proc_dir : "/proc";
	struct dirent *e;
	int others = 0;
	DIR *d;

	if (run->group <= 0 || !(d = opendir(dir)))
		return PGROUP_UNKNOWN;
	while ((e = readdir(d))) {
		char *end;
		long pid = strtol(e->d_name, &end, 10);

		if (*end || pid <= 0)
			continue;
		if (in_group(dir, pid, run->group) && !is_task(run, pid))
			others++;
	}
	closedir(d);
	return others;
}
