/* The event trace the monitor keeps for the log: the tasks' TRACE chunks on the
 * monitor's clock, cut to the size limit so that what is kept is whole up to a time. */
#include <stdlib.h>

#include "../common/clock.h"
#include "clocks.h"
#include "tasks.h"
#include "trace.h"

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/* Drops every kept event that began at or after real time cut (from the run start):
 * the trace is then whole up to cut for every task. */
static void trace_cut_at(mon_run *run, int64_t cut)
{
	size_t i, n;

	if (cut >= run->trace_cut)
		return;
	run->trace_cut = cut;
	for (i = 0; i < tasks__count(run); i++) {
		pvmmon_log_task *t = &tasks__at(run, i)->rec;

		/* A task's events are in time order: what goes is a suffix. */
		for (n = t->nevents; n > 0 && t->events[n - 1].rt[0] >= cut; n--)
			;
		run->trace_kept -= t->nevents - n;
		run->trace_dropped += t->nevents - n;
		t->nevents = n;
	}
}

void trace__limit(mon_run *run)
{
	int64_t *starts;
	size_t i, k, n = 0;

	if (run->trace_kept <= run->trace_events)
		return;
	starts = malloc(run->trace_kept * sizeof(*starts));
	if (!starts) {
		trace_cut_at(run, INT64_MIN);
		return;
	}
	for (i = 0; i < tasks__count(run); i++) {
		const pvmmon_log_task *t = &tasks__at(run, i)->rec;

		for (k = 0; k < t->nevents; k++)
			starts[n++] = t->events[k].rt[0];
	}
	qsort(starts, n, sizeof(*starts), cmp_i64);
	/* Keep the earliest trace_events events (fewer when several start at once). */
	trace_cut_at(run, starts[run->trace_events]);
	free(starts);
}

void trace__chunk(mon_run *run, int src, const uint8_t *data, size_t len)
{
	mon_task *t = tasks__find(run, src);
	pvmmon_log_event *ev = NULL;
	int32_t tid = 0;
	size_t n = 0, i;

	if (!t || wire__trace_decode(&tid, &ev, &n, data, len) != 0 || tid != src) {
		free(ev);
		run->bad_messages++;
		return;
	}
	for (i = 0; i < n; i++) {
		pvmmon_log_event *e = &ev[i];
		int k;

		/* Times in the log count from the run's start on the monitor's clock, as task
		 * start and end do. */
		for (k = 0; k < 4; k++)
			e->rt[k] = clocks__to_monitor(run, t, e->rt[k]) - run->t_start;
		e->vt0 = clocks__to_monitor(run, t, e->vt0) - run->t_start;
		e->vt1 = clocks__to_monitor(run, t, e->vt1) - run->t_start;
		t->trace_received++;
		if (e->rt[0] >= run->trace_cut) {
			run->trace_dropped++;
			continue;
		}
		if (t->rec.nevents == t->cap_events) {
			size_t cap = t->cap_events ? t->cap_events * 2 : 1024;
			pvmmon_log_event *g = realloc(t->rec.events, cap * sizeof(*g));

			if (!g) {
				run->trace_dropped++;
				trace_cut_at(run, e->rt[0]);
				continue;
			}
			t->rec.events = g;
			t->cap_events = cap;
		}
		t->rec.events[t->rec.nevents++] = *e;
		run->trace_kept++;
	}
	/* A task stops tracing after trace_events events: nothing of it exists after its
	 * last one, so the whole trace can only be complete up to there. */
	if (n && t->trace_received >= run->trace_events)
		trace_cut_at(run, ev[n - 1].rt[0] + 1);
	/* Holding up to twice the limit keeps the monitor's memory bounded while sparing
	 * a sort for every chunk. */
	if (run->trace_kept > 2 * run->trace_events)
		trace__limit(run);
	free(ev);
	run->t_last_change = pvmmon_clock_now();
}
