/* Running the pvmmon command's subcommands in the cli unit tests (cmd.h). */
#include <fcntl.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "cmd.h"

#define MAXWORDS 32

/* The text a file descriptor's temporary file received. */
static char *drain(FILE *f)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	char buf[4096];
	size_t n;

	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	rewind(f);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		fwrite(buf, 1, n, m);
	fclose(m);
	fclose(f);
	return text;
}

int cmd_run(cmd_result *r, int (*fn)(int, char **), ...)
{
	char *words[MAXWORDS + 1];
	FILE *out = tmpfile(), *err = tmpfile();
	int n = 0, saved_out, saved_err;
	const char *w;
	va_list ap;

	CU_ASSERT_FATAL(out && err);
	va_start(ap, fn);
	while ((w = va_arg(ap, const char *)) != NULL && n < MAXWORDS) {
		words[n] = strdup(w);
		CU_ASSERT_PTR_NOT_NULL_FATAL(words[n]);
		n++;
	}
	va_end(ap);
	words[n] = NULL;
	fflush(stdout);
	fflush(stderr);
	saved_out = dup(1);
	saved_err = dup(2);
	dup2(fileno(out), 1);
	dup2(fileno(err), 2);
	r->status = fn(n, words);
	fflush(stdout);
	fflush(stderr);
	dup2(saved_out, 1);
	dup2(saved_err, 2);
	close(saved_out);
	close(saved_err);
	r->out = drain(out);
	r->err = drain(err);
	for (int i = 0; i < n; i++)
		free(words[i]);
	return r->status;
}

void cmd_free(cmd_result *r)
{
	free(r->out);
	free(r->err);
	r->out = r->err = NULL;
}

void cmd_tmpdir(char *dir)
{
	strcpy(dir, "/tmp/pvmmon-cli-XXXXXX");
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
}

static int remove_one(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)flag;
	(void)f;
	return remove(p);
}

void cmd_remove(const char *path) { nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS); }

char *cmd_slurp(const char *path)
{
	FILE *f = fopen(path, "rb");

	return f ? drain(f) : NULL;
}

void cmd_write(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	CU_ASSERT_EQUAL(fclose(f), 0);
}
