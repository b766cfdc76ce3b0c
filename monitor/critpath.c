/* Critical-path collection at the monitor: the tasks' latest samples, and starting and
 * stopping a selection's collection (a generation) in every task. */
#include <stdlib.h>
#include <string.h>

#include "../common/clock.h"
#include "critpath.h"
#include "tasks.h"

void critpath__sample(mon_run *run, int src, const uint8_t *data, size_t len)
{
	mon_task *t = tasks__find(run, src);
	wire_cpsample s;
	wire_cp cp;

	/* Its final flag and virtual time go unused: the task's final records say so too. */
	if (wire__cpsample_decode(&s, data, len) < 0 || !t || s.tid != src) {
		run->bad_messages++;
		return;
	}
	cp = s.cp;
	/* A sample of an earlier selection belongs to a collection that is over. */
	if (!cp.on || cp.gen != run->cp_gen)
		return;
	/* A task's path only grows, so its latest sample is its best (Figure 4). */
	t->cp = cp;
	run->cp_samples++;
}

void critpath__start(mon_run *run, const char *procs, int exclusive)
{
	wire_ctl c = {WIRE_CTL_CP_START, 0, exclusive, NULL, 0};
	size_t i;
	char *p = procs ? strdup(procs) : NULL;

	if (!p)
		return;
	free(run->cp_procs);
	run->cp_procs = p;
	run->cp_exclusive = exclusive;
	run->cp_gen++;
	run->cp_collecting = 1;
	run->cp_from_ns = pvmmon_clock_now() - run->t_start;
	run->cp_to_ns = -1;
	run->cp_samples = 0;
	for (i = 0; i < tasks__count(run); i++)
		memset(&tasks__at(run, i)->cp, 0, sizeof(wire_cp));
	c.gen = run->cp_gen;
	c.procs = run->cp_procs;
	tasks__tell(run, &c, 0);
}

void critpath__stop(mon_run *run)
{
	wire_ctl c = {WIRE_CTL_CP_STOP, 0, 0, NULL, 0};

	if (!run->cp_collecting)
		return;
	c.gen = run->cp_gen;
	run->cp_collecting = 0;
	run->cp_to_ns = pvmmon_clock_now() - run->t_start;
	tasks__tell(run, &c, 0);
}
