/*
 * The hosts' shared calibrations: each host keeps the first calibration one of its
 * tasks reports (CALIB), and every task of the host that registers later gets it in
 * its welcome instead of measuring its own.
 *
 * Why per host and why the first: what a calibration measures (a probe pair, a
 * wrapper's bookkeeping, a piggyback's send and receive, an instrumented call in
 * place) is the library's own code on that machine's CPUs, the same for every task
 * of the host; measuring it again costs each task a few milliseconds of CPU at its
 * start, all at once when a program spawns hundreds (bench section 21). The first
 * is usually the program's first task, which calibrates before it spawns anything,
 * so its children find it. Each task still re-checks the loop calibration during the
 * run (pvmhooks/calibrate.c), against what it took.
 */
#include <stdlib.h>
#include <string.h>

#include "calib.h"
#include "tasks.h"

struct mon_calibs {
	struct {
		int32_t dtid;
		wire_calib cal;
	} * e;
	size_t n;
};

static wire_calib *find(const mon_run *run, int32_t dtid)
{
	const struct mon_calibs *c = run->calibs;

	for (size_t i = 0; c && i < c->n; i++)
		if (c->e[i].dtid == dtid)
			return &c->e[i].cal;
	return NULL;
}

void calib__message(mon_run *run, int src, const uint8_t *data, size_t len)
{
	mon_task *t = tasks__find(run, src);
	struct mon_calibs *c = run->calibs;
	wire_calib k;
	void *e;

	if (wire__calib_decode(&k, data, len) != 0 || k.tid != src || !t) {
		run->bad_messages++;
		return;
	}
	if (find(run, t->dtid))
		return;
	if (!c && !(c = run->calibs = calloc(1, sizeof(*c))))
		return;
	e = realloc(c->e, (c->n + 1) * sizeof(*c->e));
	if (!e)
		return;
	c->e = e;
	c->e[c->n].dtid = t->dtid;
	c->e[c->n].cal = k;
	c->n++;
}

void calib__of_host(wire_calib *out, const mon_run *run, int32_t dtid)
{
	const wire_calib *k = find(run, dtid);

	if (k)
		*out = *k;
	else
		memset(out, 0, sizeof(*out));
}

void calib__free(mon_run *run)
{
	if (run->calibs)
		free(run->calibs->e);
	free(run->calibs);
	run->calibs = NULL;
}
