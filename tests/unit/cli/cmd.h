/* Private to the cli unit tests: a subcommand run on a vector of words with its standard
 * output and error caught, scratch folders and files. */
#ifndef PVMMON_TESTS_UNIT_CLI_CMD_H
#define PVMMON_TESTS_UNIT_CLI_CMD_H

/* What a subcommand printed, and its exit status. */
typedef struct cmd_result {
	int status;
	char *out; /* its standard output, NUL-terminated */
	char *err; /* its standard error */
} cmd_result;

/*
 * Runs fn (a subcommand: cli__diff, cli__export, ...) on the words given, the first
 * being the command's name, the list ending with NULL; what it writes on file
 * descriptors 1 and 2 goes into r (free it with cmd_free). Returns the status.
 */
int cmd_run(cmd_result *r, int (*fn)(int, char **), ...) __attribute__((sentinel));
void cmd_free(cmd_result *r);

/* Makes a new scratch folder into dir (at least 32 bytes). */
void cmd_tmpdir(char *dir);

/* Removes path and everything under it. */
void cmd_remove(const char *path);

/* The whole of the file at path (the caller frees it), or NULL. */
char *cmd_slurp(const char *path);

/* Writes text to the file at path. */
void cmd_write(const char *path, const char *text);

#endif
