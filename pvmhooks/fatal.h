/*
 * Private to libpvmhooks: the fatal-signal feature (fatal.c), which keeps a dying
 * task's records and tells the monitor which signal ended it and where.
 */
#ifndef PVMMON_HOOKS_FATAL_H
#define PVMMON_HOOKS_FATAL_H

/* Installs the handlers (at registration, outside any call; PVMMON_NO_SIGNALS set
 * leaves the program's signals alone). Always 0: no flush wanted. */
int hooks__fatal_install(void);

#endif
