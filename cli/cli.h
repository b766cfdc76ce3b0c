/*
 * Private to the pvmmon command: the subcommands and their shared helpers. A
 * subcommand returns the command's exit status (0, 1 or 2 for its own errors, or the
 * program's), not an error code.
 */
#ifndef PVMMON_CLI_H
#define PVMMON_CLI_H

#include <sys/types.h>

int cli__run(int argc, char **argv);
int cli__validate(int argc, char **argv);
int cli__report(int argc, char **argv);
int cli__top(int argc, char **argv);
int cli__replay(int argc, char **argv);
/* Says on stderr which sources a replay does not replay the program imports. */
void cli__note_unreplayed(const char *program);
/* Checks that log can be replayed with program before anything starts (and notes the
 * sources it does not replay); 0, or a negative code after saying why not. */
int cli__check_replay(const char *log_path, const char *program);
int cli__cp(int argc, char **argv);
int cli__ctl(int argc, char **argv);
int cli__export(int argc, char **argv);
int cli__diff(int argc, char **argv);
int cli__explore(int argc, char **argv);
int cli__efficiency(int argc, char **argv);

/* Checks a critical-path selection (1 to 32 comma-separated procedure names, or
 * '+'-joined groups of them): 0, or PVMMON_EINVAL after printing an error for what
 * (a command name) when it is not one. */
int cli__check_cp_list(const char *what, const char *list);

/* Writes the run file of a run in progress (LOG.run, 0600: the VM's PVM_TMP, the pids
 * of pvmmon, the monitor and the private pvmd (-1 when attached), the run's token),
 * which `pvmmon top` and `pvmmon cp` use to find the run and to be let in; removed
 * with cli__run_file_remove(). Returns 0, or a negative code with the reason in the
 * last error (a full disk, for instance). */
int cli__run_file_write(const char *log, const char *pvm_tmp, long monitor_pid, long pvmd_pid,
                        unsigned long long token);
void cli__run_file_remove(const char *log);

/* The launched program's process group (progroup.c). In the child before exec:
 * enter a group of its own. In pvmmon run: adopt it (and the group's orphans). */
void cli__group_enter(void);
void cli__group_adopt(pid_t pid);
/* Reaps what has ended of group pid without waiting (the program's own status in
 * *status, *main_done set once it ended); 1 when the program and every process of its
 * group have ended. */
/* Gives the terminal to the program's group when pvmmon runs in its foreground; 1 if it
 * did. cli__group_background(that) takes it back once the group has ended. */
int cli__group_foreground(pid_t pid);
void cli__group_background(int was_foreground);
int cli__group_reap(pid_t pid, int *status, int *main_done);
/* Signals every process of the group. */
void cli__group_signal(pid_t pid, int sig);
/* Stops the group (SIGTERM, SIGKILL after a grace) and reaps it. */
void cli__group_end(pid_t pid, int *status, int *main_done);

/* Prints "pvmmon: <message>" on stderr. */
void cli__error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Sets *out to a heap path to a file that sits relative to the pvmmon executable (for
 * example "pvmmon-monitor" beside it, "../lib/libpvmhooks.so"), trying each candidate
 * in order (cli/sibling.c); the caller frees it. Returns 0, or PVMMON_ENOTFOUND (*out
 * NULL) if none exists. */
int cli__sibling(char **out, const char *const *candidates);

/* What LD_PRELOAD gets for a monitored program (cli/runenv.c), or NULL if the hooks
 * library cannot be found; the caller frees it. */
char *cli__run_preload_list(void);
/* PVM_EXPORT for a monitored program, given what it held (old) and whether
 * PVMMON_WAIT_MS is set; NULL without memory. The caller frees it. */
char *cli__run_export_list(const char *old, int wait);

#endif
