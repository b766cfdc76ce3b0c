/*
 * The in-task glue of critical-path profiling: the selection from the monitor, the
 * start of a task's collection, procedure entries and exits, and samples to the
 * monitor. The arithmetic is in cp.c; the piggyback merge is in calls.c.
 */
#include <stdlib.h>
#include <string.h>

#include "records.h"
#include "trace.h"

static char *names[WIRE_CP_MAX];
static uint32_t nnames;

void hooks__cp_configure(const char *list, int exclusive, uint32_t gen)
{
	const char *p = list;
	uint32_t k;

	for (k = 0; k < nnames; k++)
		free(names[k]);
	nnames = 0;
	hooks__st.cp_selected = 0;
	memset(&hooks__st.cp, 0, sizeof(hooks__st.cp));
	while (p && *p && nnames < WIRE_CP_MAX) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);

		if (len > 0 && (names[nnames] = strndup(p, len)) != NULL)
			nnames++;
		p += len + (e ? 1 : 0);
	}
	/* Procedures entered before (main, and any open now) already have records. */
	hooks__records_cp_refresh();
	if (!nnames)
		return;
	cp_init(&hooks__st.cp, nnames, exclusive, gen);
	hooks__st.cp_selected = 1;
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
	return -1;
}

/* Starts the path at the process's start (v) and replays the procedure entries and
 * exits made before registration; 0 when it could (they were all kept). */
static int begin_at_start(int64_t v, const wire_cp *from, int64_t arc)
{
	size_t n, i;
	const hooks_pre_event *pre = hooks__records_pre_events(&n);

	if (!pre)
		return -1;
	cp_start(&hooks__st.cp, v, from, arc, (const int[1]){0}, 0);
	if (hooks__tracing)
		hooks__trace_point(PVMMON_EV_CPSTART, (int32_t)hooks__st.cp.t.gen, v, v);
	for (i = 0; i < n; i++)
		hooks__cp_proc(pre[i].enter, hooks__cp_index(pre[i].site->name), pre[i].v);
	return 0;
}

void hooks__cp_begin(int64_t v, const wire_cp *from, int64_t arc, int at_start)
{
	int open[CP_STACK_MAX];
	int n;

	if (!hooks__st.cp_selected || (at_start && begin_at_start(v, from, arc) == 0))
		return;
	if (at_start) {
		/* Too much happened before registration to replay: the path starts now. */
		int64_t now = vclock_virtual(&hooks__st.clock, pvmmon_clock_now());

		arc += now - v;
		v = now;
	}
	n = hooks__records_open_cp(open, CP_STACK_MAX);
	cp_start(&hooks__st.cp, v, from, arc, open, n);
	if (hooks__tracing)
		hooks__trace_point(PVMMON_EV_CPSTART, (int32_t)hooks__st.cp.t.gen,
				   v + hooks__st.clock.intrusion, v);
	/* The trace shows the procedures already open as entered here, so that an
	 * offline computation from it knows them. */
	for (int i = 0; hooks__tracing && i < n; i++)
		if (open[i] >= 0 || hooks__st.cp.exclusive)
			hooks__trace_point(PVMMON_EV_ENTER, open[i], v + hooks__st.clock.intrusion, v);
}

void hooks__cp_proc(int enter, int k, int64_t v)
{
	/* In inclusive mode only the selected procedures change what counts. */
	if (k < 0 && !hooks__st.cp.exclusive)
		return;
	if (enter)
		cp_enter(&hooks__st.cp, k, v);
	else
		cp_exit(&hooks__st.cp, k, v);
	if (hooks__tracing)
		hooks__trace_point(enter ? PVMMON_EV_ENTER : PVMMON_EV_EXIT, k,
				   v + hooks__st.clock.intrusion, v);
}

void hooks__cp_control(const wire_ctl *c, int64_t v)
{
	if (c->cmd == WIRE_CTL_CP_START) {
		hooks__cp_configure(c->procs, c->exclusive, c->gen);
		hooks__cp_begin(v, NULL, 0, 0);
	} else if (c->cmd == WIRE_CTL_CP_STOP && hooks__st.cp.t.on) {
		/* The last sample of the interval, then nothing more is carried. */
		hooks__cp_sample(v, 0);
		cp_stop(&hooks__st.cp);
		if (hooks__tracing)
			hooks__trace_point(PVMMON_EV_CPSTOP, (int32_t)hooks__st.cp.t.gen,
					   v + hooks__st.clock.intrusion, v);
	}
}

void hooks__cp_sample(int64_t v, int final)
{
	wire_cpsample s;
	wire_buf b;

	if (!hooks__st.cp_selected)
		return;
	cp_advance(&hooks__st.cp, v);
	s = (wire_cpsample){hooks__st.mytid, final ? 1 : 0, v, hooks__st.cp.t};
	wire_buf_init(&b);
	wire_cpsample_encode(&b, &s);
	if (!b.failed)
		hooks__send_control(WIRE_TAG_CPSAMPLE, b.data, b.len);
	wire_buf_free(&b);
}
