/*
 * The in-task glue of critical-path profiling: the selection from the monitor, the
 * start of a task's collection, procedure entries and exits, and samples to the
 * monitor. The arithmetic is in cp.c; the piggyback merge is in calls.c.
 */
#include <stdlib.h>
#include <string.h>

#include "clocksync.h"
#include "critpath.h"
#include "trace.h"
#include "pvmmon/errors.h"

static char *names[WIRE_CP_MAX];
static uint32_t nnames;
static int selected; /* procedures are selected for critical-path profiling */
static int paused;   /* calibration runs: its probes are no part of the program */
static int on;       /* selected && !paused, what every probe asks (critpath.h) */
const int *const hooks__cp_on_at = &on;
static cp_state cp; /* this task's critical-path tuple */

void hooks__cp_pause(int p)
{
	paused = p;
	on = selected && !paused;
	hooks__refresh_probes();
}

uint32_t hooks__cp_gen(void) { return cp.t.gen; }

int hooks__cp_tuple(wire_cp *out, int64_t v)
{
	/* Off, only `on` is read (wire__cp_store): the tuple's 800 bytes stay uncopied at
	 * every send. */
	if (!cp.t.on) {
		out->on = 0;
		return 0;
	}
	cp__advance(&cp, v);
	*out = cp.t;
	return 1;
}

void hooks__cp_receive(int64_t v0, int64_t sync, int64_t trans, const wire_cp *remote)
{
	if (hooks__cp_selected())
		cp__receive(&cp, v0, sync, trans, remote);
}

void hooks__cp_configure(const char *list, int exclusive, uint32_t gen)
{
	const char *p = list;
	uint32_t k;

	for (k = 0; k < nnames; k++)
		free(names[k]);
	nnames = 0;
	selected = on = 0;
	hooks__refresh_probes();
	memset(&cp, 0, sizeof(cp));
	while (p && *p && nnames < WIRE_CP_MAX) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);

		if (len > 0 && (names[nnames] = strndup(p, len)) != NULL)
			nnames++;
		p += len + (e ? 1 : 0);
	}
	if (!nnames)
		return;
	cp__init(&cp, nnames, exclusive, gen);
	selected = 1;
	on = !paused;
	hooks__refresh_probes();
}

/* Whether name is one of the '+'-separated members of group (top-m search buckets). */
static int in_group(const char *group, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = group; p;) {
		const char *e = strchr(p, '+');
		size_t len = e ? (size_t)(e - p) : strlen(p);

		if (len == n && !strncmp(p, name, n))
			return 1;
		p = e ? e + 1 : NULL;
	}
	return 0;
}

int hooks__cp_index(const char *name)
{
	uint32_t k;

	for (k = 0; name && k < nnames; k++)
		if (in_group(names[k], name))
			return (int)k;
	return CP_INDEX_NONE;
}

/* Starts the path at the process's start (v) and replays the procedure entries and
 * exits made before registration: whether it could (they were all kept). */
static int begin_at_start(int64_t v, const wire_cp *from, int64_t arc,
			  const hooks_pre_event *pre, size_t n)
{
	size_t i;

	if (!pre)
		return 0;
	cp__start(&cp, v, from, arc, (const int[1]){0}, 0);
	if (hooks__trace_on())
		hooks__trace_point(PVMMON_EV_CPSTART, (int32_t)cp.t.gen, v, v);
	for (i = 0; i < n; i++)
		hooks__cp_proc(pre[i].enter, hooks__cp_index(pre[i].site->name), pre[i].v);
	return 1;
}

void hooks__cp_begin(int64_t v, const wire_cp *from, int64_t arc, int at_start,
		     const hooks_pre_event *pre, size_t npre, const int *open, int n)
{
	if (!hooks__cp_selected() || (at_start && begin_at_start(v, from, arc, pre, npre)))
		return;
	if (at_start) {
		/* Too much happened before registration to replay: the path starts now. */
		int64_t now = vclock__virtual(hooks__clock(), pvmmon_clock_now());

		arc += now - v;
		v = now;
	}
	cp__start(&cp, v, from, arc, open, n);
	if (hooks__trace_on())
		hooks__trace_point(PVMMON_EV_CPSTART, (int32_t)cp.t.gen,
				   v + vclock__intrusion(hooks__clock()), v);
	/* The trace shows the procedures already open as entered here, so that an
	 * offline computation from it knows them. */
	for (int i = 0; hooks__trace_on() && i < n; i++)
		if (open[i] >= 0 || cp.exclusive)
			hooks__trace_point(PVMMON_EV_ENTER, open[i],
					   v + vclock__intrusion(hooks__clock()), v);
}

void hooks__cp_proc(int enter, int k, int64_t v)
{
	hooks__cp_proc_at(enter, k, v, v + vclock__intrusion(hooks__clock()));
}

void hooks__cp_proc_at(int enter, int k, int64_t v, int64_t rt)
{
	/* In inclusive mode only the selected procedures change what counts. */
	if (k < 0 && !cp.exclusive)
		return;
	if (enter)
		cp__enter(&cp, k, v);
	else
		cp__exit(&cp, k, v);
	if (hooks__trace_on())
		hooks__trace_point(enter ? PVMMON_EV_ENTER : PVMMON_EV_EXIT, k, rt, v);
}

void hooks__cp_stop(int64_t v)
{
	if (cp.t.on) {
		/* The last sample of the interval, then nothing more is carried. */
		hooks__cp_sample(v, 0);
		cp__stop(&cp);
		if (hooks__trace_on())
			hooks__trace_point(PVMMON_EV_CPSTOP, (int32_t)cp.t.gen,
					   v + vclock__intrusion(hooks__clock()), v);
	}
}

int hooks__cp_sample(int64_t v, int final)
{
	wire_cpsample s;
	wire_buf b;
	int rc = PVMMON_ENOMEM;

	if (!hooks__cp_selected())
		return 0;
	cp__advance(&cp, v);
	s = (wire_cpsample){hooks__mytid(), final ? 1 : 0, v, cp.t};
	wire__buf_init(&b);
	wire__cpsample_encode(&b, &s);
	if (!b.failed)
		rc = channel__send(WIRE_TAG_CPSAMPLE, b.data, b.len);
	wire__buf_free(&b);
	return rc;
}
