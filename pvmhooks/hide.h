/*
 * Private to libpvmhooks: how pvm_tasks()'s answer is filtered so that the program
 * never sees the monitor (hide.c), apart from the wrapper so unit tests can call it.
 */
#ifndef PVMMON_HOOKS_HIDE_H
#define PVMMON_HOOKS_HIDE_H

#include <pvm3.h>

/*
 * Moves the entries of the monitor (tid mon when positive, or an executable named
 * pvmmon-monitor) behind the others in tasks[0..n), keeping the others' order and
 * every entry in the array (libpvm3 frees it by its own count); returns how many the
 * program keeps.
 */
int hide__tasks(struct pvmtaskinfo *tasks, int n, int mon);

#endif
