/* libFuzzer target for the resource reader of dynamic instrumentation (pvmmon ctl's
 * argument, the monitor's rules, the rules a task gets with its welcome). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/resource.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Names a parsed resource holds are non-empty and of the characters the reader
 * allows; a line is from 1; the kind is one of three. */
static void check(const resource *r)
{
	if ((r->task && !*r->task) || (r->file && !*r->file) || (r->proc && !*r->proc))
		abort();
	if (r->line < 0 || r->line > 100000000 || r->kind > RESOURCE_STMT)
		abort();
	for (const char *p = r->proc; p && *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_'))
			abort();
	if (r->file && strpbrk(r->file, ",;= \n"))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *spec = malloc(size + 1);
	resource r;

	if (!spec)
		return 0;
	memcpy(spec, data, size);
	spec[size] = '\0';
	if (resource__parse(&r, spec) == 0) {
		check(&r);
		/* Matching must cope with every site, named or not. */
		resource__match(&r, "0.1", RESOURCE_LOOP, NULL, NULL, 3, NULL);
		resource__match(&r, NULL, RESOURCE_STMT, NULL, "/a/b.c", 3, "f");
		resource__names_task(&r, NULL);
		resource__clear(&r);
	} else if (r.task || r.file || r.proc || r.line || r.kind) {
		/* A refused resource is left empty. */
		abort();
	}
	free(spec);
	return 0;
}
