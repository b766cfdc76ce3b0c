/* Private to the pvmmon command: the subcommands and their shared helpers. */
#ifndef PVMMON_CLI_H
#define PVMMON_CLI_H

int cli_run(int argc, char **argv);
int cli_validate(int argc, char **argv);
int cli_report(int argc, char **argv);

/* Prints "pvmmon: <message>" on stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A heap path to a file that sits relative to the pvmmon executable (for example
 * "pvmmon-monitor" beside it, "../lib/libpvmhooks.so"), trying each candidate in
 * order; NULL if none exists. The caller frees it. */
char *cli_sibling(const char *const *candidates);

#endif
