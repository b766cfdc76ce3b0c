/* libFuzzer target for the hostfile reader that checks a user's hostfile before pvmd
 * sees it. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/hostfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '-' || c == '.' || c == '_';
}

/* What pvmd is given must be what the checks promise: names of the allowed characters,
 * lines pvmd reads whole, one line each (no newline, NUL or other control character). */
static void check_entry(const hostfile_entry *e)
{
	size_t len = strlen(e->text);

	if (len == 0 || len > HOSTFILE_PVMD_LINE_MAX || e->nopts > HOSTFILE_MAX_OPTS || e->line < 1)
		abort();
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)e->text[i] < 0x20 || e->text[i] == 0x7f)
			abort();
	if (e->kind == HOSTFILE_DEFAULTS) {
		if (e->name || e->overload || e->text[0] != '*')
			abort();
		return;
	}
	if (e->kind != HOSTFILE_HOST && e->kind != HOSTFILE_LATER)
		abort();
	if (!e->name || !e->name[0] || strlen(e->name) > HOSTFILE_MAX_NAME || e->name[0] == '-' ||
	    e->name[0] == '.')
		abort();
	for (const char *p = e->name; *p; p++)
		if (!name_char(*p))
			abort();
	/* The line for pvmd is the marks, the name, then the options. */
	if (!strstr(e->text, e->name) || (e->kind == HOSTFILE_LATER) != (e->text[0] == '&'))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	hostfile_list *l = NULL;
	char *copy;
	int prev = 0;

	/* An exact-size heap copy, without a terminating NUL, so that ASan sees any read
	 * past the end of the file's bytes. */
	copy = malloc(size ? size : 1);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	if (hostfile__parse(&l, "fuzz", copy, size) == 0) {
		if (!l || l->n > HOSTFILE_MAX_ENTRIES)
			abort();
		for (size_t i = 0; i < l->n; i++) {
			check_entry(&l->v[i]);
			/* Entries come in the order of their lines. */
			if (l->v[i].line <= prev)
				abort();
			prev = l->v[i].line;
		}
		hostfile__free(l);
	} else if (l) {
		abort();
	}
	free(copy);
	return 0;
}
