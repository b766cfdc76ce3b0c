/*
 * Private to pvmmon: resources that dynamic instrumentation is switched on and off by
 * (`pvmmon ctl enable|disable RESOURCE`, the budget's own switches): a conjunction of
 * terms naming a task, a source file, a procedure, a line and a kind of probe site.
 */
#ifndef PVMMON_RESOURCE_H
#define PVMMON_RESOURCE_H

#include <stddef.h>
#include <stdint.h>

/* The kinds of probe sites a resource can name (0 in a resource: any kind). */
typedef enum resource_kind {
	RESOURCE_ANY = 0,
	RESOURCE_PROC = 1, /* a procedure's entry and exit probes */
	RESOURCE_LOOP = 2, /* a loop's entry and exit probes */
	RESOURCE_STMT = 3, /* a communication statement's records (its piggybacks stay) */
} resource_kind;

/*
 * A parsed resource. Every field that is set must match (NULL strings and line 0 match
 * anything): task is a logical id ("0.1"); file matches a site's file by its whole
 * path or by its last component; proc matches the procedure of that name and the
 * loops inside it. The strings are the resource's own (heap).
 */
typedef struct resource {
	char *task;
	char *file;
	char *proc;
	int32_t line;
	resource_kind kind;
} resource;

/* The longest resource text accepted. */
#define RESOURCE_MAX_LEN 1024

/*
 * Parses spec: `all`, or terms joined by commas, each one of task=LID, file=NAME,
 * proc=NAME, line=N, kind=proc|loop|stmt, loop=[FILE:]LINE (a loop at that line) and
 * stmt=[FILE:]LINE (a communication statement at that line). Returns 0 and fills *out (free it with resource_clear), or PVMMON_EINVAL
 * with a message saying which term is wrong; *out is then empty.
 */
int resource__parse(resource *out, const char *spec);
void resource__clear(resource *r);

/*
 * Whether r names a probe site of kind with name, file and line (for a loop, name is
 * its label and encl the procedure it is in, or NULL; for a statement, name is NULL
 * and encl its function) in the task lid.
 */
int resource__match(const resource *r, const char *lid, resource_kind kind, const char *name,
		    const char *file, int32_t line, const char *encl);

/* Whether r names the task lid at all (a resource without task= names every task). */
int resource__names_task(const resource *r, const char *lid);

#endif
