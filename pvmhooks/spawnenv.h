/*
 * Private to libpvmhooks: carrying monitoring to spawned children through the
 * environment (spawnenv.c), and where this library is.
 */
#ifndef PVMMON_HOOKS_SPAWNENV_H
#define PVMMON_HOOKS_SPAWNENV_H

/* Finds this library's absolute path (for children's preload and for the monitor
 * beside it); 0, or PVMMON_ENOTFOUND when it cannot be found (pvmmon_error_last says
 * why). */
int hooks__find_lib_path(void);
/* That path (NULL before, or when not found). */
const char *hooks__lib_path(void);

/* Around a real pvm_spawn of file: make children inherit the preload and the PVMMON_
 * settings through PVM_EXPORT (or, for PVM's group server and pvmmon's monitor, make
 * sure they do not), then restore the environment. */
void hooks__spawn_env_begin(const char *file);
void hooks__spawn_env_end(void);

#endif
