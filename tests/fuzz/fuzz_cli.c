/* libFuzzer target for the command line of pvmmon run and pvmmon replay (cli/runopts.c). */
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sanitizer/common_interface_defs.h>

#include "pvmmon/errors.h"
#include "../../cli/runopts.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* More words than any sensible command line; the rest of an input is dropped. */
#define MAX_ARGS 64

static int null_fd = -1, real_out = -1, real_err = -1;

/*
 * The parser prints its errors, the help and the version, which would bury libFuzzer's
 * own lines: stdout and stderr go to /dev/null while it runs, and back after, so
 * libFuzzer's lines and the invariants' aborts show. Sanitizer reports go to the real
 * stderr throughout.
 */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	real_out = dup(1);
	real_err = dup(2);
	if (null_fd < 0 || real_out < 0 || real_err < 0)
		abort();
	__sanitizer_set_report_fd((void *)(intptr_t)real_err);
	return 0;
}

static int parse_quietly(int argc, char **argv, const char *replay, cli_run_opts *o)
{
	int rc;

	fflush(stdout);
	dup2(null_fd, 1);
	dup2(null_fd, 2);
	rc = cli__run_parse(argc, argv, replay, o);
	fflush(stdout);
	dup2(real_out, 1);
	dup2(real_err, 2);
	return rc;
}

/* Whether s points into one of the words (the options must not point elsewhere). */
static int in_words(const char *s, char **words, int n)
{
	for (int i = 0; i < n; i++)
		if (s >= words[i] && s <= words[i] + strlen(words[i]))
			return 1;
	return 0;
}

/* What run_main and the monitor's command line rely on after a successful parse. */
static void check(const cli_run_opts *o, int argc, char **argv, const char *replay)
{
	if (!o->prog_argv || o->prog_argv <= argv || o->prog_argv >= argv + argc ||
	    !o->prog_argv[0] || o->replay != replay)
		abort();
	if (o->flush_ms < 1 || o->flush_ms > 3600000 || o->linger_ms < 1 || o->linger_ms > 3600000)
		abort();
	if (o->trace_bytes != 0 && o->trace_bytes < 1024)
		abort();
	if ((o->cp_top && (o->cp_top < 2 || o->cp_top > 16)) ||
	    (o->cp_phase_ms && (o->cp_phase_ms < 100 || o->cp_phase_ms > 3600000)))
		abort();
	if ((o->attach && o->hostfile) || (o->cp_top && o->cp) ||
	    (o->cp_exclusive && !o->cp && !o->cp_top))
		abort();
	if ((!replay && (o->keep_going || o->stop_at)) || (replay && o->preserve))
		abort();
	if (o->wait_ms && (o->wait_ms < 1 || o->wait_ms > 3600000))
		abort();
	if ((o->output && !in_words(o->output, argv, argc)) ||
	    (o->hostfile && !in_words(o->hostfile, argv, argc)) ||
	    (o->cp && !in_words(o->cp, argv, argc)) ||
	    (o->stop_at && !in_words(o->stop_at, argv, argc)))
		abort();
	if (o->stop_at) {
		const char *c = strrchr(o->stop_at, ':');

		if (!c || c == o->stop_at || !c[1] || strspn(c + 1, "0123456789") != strlen(c + 1) ||
		    strspn(c + 1, "0") == strlen(c + 1))
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *words[MAX_ARGS + 2], **argv;
	const char *replay = NULL;
	cli_run_opts o, again;
	size_t pos = 0;
	int n = 1, argc, rc;

	/* The input is the command line after "pvmmon", its words separated by NULs; each
	 * word is an exact-size heap copy, so that ASan sees a read past its end. */
	words[0] = strdup("run");
	while (pos < size && n <= MAX_ARGS) {
		const uint8_t *nul = memchr(data + pos, 0, size - pos);
		size_t len = nul ? (size_t)(nul - (data + pos)) : size - pos;

		words[n] = malloc(len + 1);
		if (!words[n])
			break;
		memcpy(words[n], data + pos, len);
		words[n][len] = '\0';
		n++;
		pos += len + 1;
	}
	words[n] = NULL;
	/* "replay LOG ..." reads as pvmmon replay does: the log takes the command's place. */
	argv = words;
	argc = n;
	if (n >= 3 && !strcmp(words[1], "replay") && words[2][0] != '-') {
		replay = words[2];
		argv = words + 2;
		argc = n - 2;
	}
	rc = parse_quietly(argc, argv, replay, &o);
	if (rc == 0)
		check(&o, argc, argv, replay);
	else if (rc != 1 && rc != PVMMON_EINVAL)
		abort();
	/* Nothing is kept between calls: the same vector reads the same again. */
	if (parse_quietly(argc, argv, replay, &again) != rc ||
	    (rc == 0 && (again.prog_argv != o.prog_argv || again.flush_ms != o.flush_ms ||
			 again.trace_bytes != o.trace_bytes || again.cp != o.cp ||
			 again.output != o.output || again.quiet != o.quiet)))
		abort();
	for (int i = 0; i < n; i++)
		free(words[i]);
	return 0;
}
