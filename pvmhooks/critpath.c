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

void hooks__cp_configure(const char *list, int exclusive)
{
	const char *p = list;

	while (p && *p && nnames < WIRE_CP_MAX) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);

		if (len > 0 && (names[nnames] = strndup(p, len)) != NULL)
			nnames++;
		p += len + (e ? 1 : 0);
	}
	if (!nnames)
		return;
	cp_init(&hooks__st.cp, nnames, exclusive);
	hooks__st.cp_selected = 1;
	/* Procedures entered before registration (main) already have records. */
	hooks__records_cp_refresh();
}

int hooks__cp_index(const char *name)
{
	uint32_t k;

	for (k = 0; name && k < nnames; k++)
		if (!strcmp(names[k], name))
			return (int)k;
	return -1;
}

void hooks__cp_begin(int64_t v, const wire_cp *from, int64_t arc)
{
	int open[CP_STACK_MAX];
	int n;

	if (!hooks__st.cp_selected)
		return;
	n = hooks__records_open_cp(open, CP_STACK_MAX);
	cp_start(&hooks__st.cp, v, from, arc, open, n);
	/* The trace shows the procedures already open (main) as entered at the start, so
	 * that an offline computation from it knows them. */
	for (int i = 0; hooks__tracing && i < n; i++)
		if (open[i] >= 0 || hooks__st.cp.exclusive)
			hooks__trace_proc(1, open[i], v + hooks__st.clock.intrusion, v);
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
		hooks__trace_proc(enter, k, v + hooks__st.clock.intrusion, v);
}

void hooks__cp_sample(int64_t v, int final)
{
	wire_buf b;

	if (!hooks__st.cp_selected)
		return;
	cp_advance(&hooks__st.cp, v);
	wire_buf_init(&b);
	wire_put_u32(&b, WIRE_VERSION);
	wire_put_u32(&b, (uint32_t)hooks__st.mytid);
	wire_put_u8(&b, final ? 1 : 0);
	wire_put_u64(&b, (uint64_t)v);
	wire_cp_put(&b, &hooks__st.cp.t);
	if (!b.failed)
		hooks__send_control(WIRE_TAG_CPSAMPLE, b.data, b.len);
	wire_buf_free(&b);
}
