/* Private to the pvmmon command: the subcommands and their shared helpers. */
#ifndef PVMMON_CLI_H
#define PVMMON_CLI_H

int cli_run(int argc, char **argv);
int cli_validate(int argc, char **argv);
int cli_report(int argc, char **argv);
int cli_top(int argc, char **argv);
int cli_replay(int argc, char **argv);
int cli_cp(int argc, char **argv);
int cli_ctl(int argc, char **argv);

/* Checks a critical-path selection (1 to 32 comma-separated procedure names, or
 * '+'-joined groups of them); prints an error for what (a command name) and returns
 * -1 when it is not one. */
int cli_check_cp_list(const char *what, const char *list);

/* Writes the run file of a run in progress (LOG.run, 0600: the VM's PVM_TMP, the pids
 * of pvmmon, the monitor and the private pvmd (-1 when attached), the run's token),
 * which `pvmmon top` and `pvmmon cp` use to find the run and to be let in; removed
 * with cli_run_file_remove(). Returns 0, or a negative code with the reason in the
 * last error (a full disk, for instance). */
int cli_run_file_write(const char *log, const char *pvm_tmp, long monitor_pid, long pvmd_pid,
		       unsigned long long token);
void cli_run_file_remove(const char *log);

/* Prints "pvmmon: <message>" on stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A heap path to a file that sits relative to the pvmmon executable (for example
 * "pvmmon-monitor" beside it, "../lib/libpvmhooks.so"), trying each candidate in
 * order; NULL if none exists. The caller frees it. */
char *cli_sibling(const char *const *candidates);

#endif
