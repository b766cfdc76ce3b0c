/* The monitor's side of clock offsets between hosts: one clock model per host, fitted to
 * its tasks' round-trip estimates and sent to every task of the host. */
#include <stdlib.h>
#include <string.h>

#include "../common/clock.h"
#include "clocks.h"
#include "tasks.h"

/* A line is fitted only to estimates spanning at least this long: over shorter spans
 * the estimates' own errors (microseconds) would make a drift out of nothing. */
#define FIT_MIN_SPAN_NS 2000000000LL

const mon_host_clock *clocks__host(const mon_run *run, int32_t dtid)
{
	for (size_t i = 0; i < run->nclocks; i++)
		if (run->clocks[i].dtid == dtid)
			return &run->clocks[i];
	return NULL;
}

int64_t clocks__to_monitor(const mon_run *run, const mon_task *t, int64_t time)
{
	const mon_host_clock *h;

	if (!t->clock_done || !(h = clocks__host(run, t->dtid)))
		return time;
	return clockmodel__to_common(&h->model, time);
}

static void send_model(mon_run *run, const mon_host_clock *h, int32_t tid)
{
	wire_clockset set;
	wire_buf b;

	set.offset = h->model.offset;
	set.uncertainty = h->uncertainty;
	set.tref = h->model.tref;
	set.rate_ppt = (int64_t)(h->model.rate * 1e12);
	set.keeper = h->keeper == tid;
	wire__buf_init(&b);
	wire__clockset_encode(&b, &set);
	tasks__send(run, tid, WIRE_TAG_CLOCKSET, &b);
	wire__buf_free(&b);
}

static void add_point(mon_host_clock *h, const wire_clock *c)
{
	clockmodel_point *p = &h->pts[h->npts % MON_CLOCK_POINTS];

	p->at = c->at;
	p->offset = c->offset;
	p->uncertainty = c->uncertainty;
	h->npts++;
}

static mon_host_clock *new_host(mon_run *run, int32_t dtid, const wire_clock *c, int32_t keeper)
{
	mon_host_clock *a = realloc(run->clocks, (run->nclocks + 1) * sizeof(*a)), *h;

	if (!a)
		return NULL;
	run->clocks = a;
	h = &a[run->nclocks];
	memset(h, 0, sizeof(*h));
	h->dtid = dtid;
	h->rtt = c->rtt;
	/* The monitor's own host shares its clock: exactly 0 and no keeper, whatever a
	 * task measured. */
	if (dtid == run->myhost) {
		h->model.tref = c->at;
	} else {
		h->pts = malloc(MON_CLOCK_POINTS * sizeof(*h->pts));
		if (!h->pts)
			return NULL;
		add_point(h, c);
		h->model.offset = c->offset;
		h->model.tref = c->at;
		h->uncertainty = c->uncertainty;
		h->keeper = keeper;
	}
	run->nclocks++;
	return h;
}

/* A keeper's estimate: the model is refitted and every task of the host told. */
static void refit(mon_run *run, mon_host_clock *h, const wire_clock *c)
{
	size_t n;

	add_point(h, c);
	n = h->npts < MON_CLOCK_POINTS ? h->npts : MON_CLOCK_POINTS;
	if (clockmodel__fit(h->pts, n, FIT_MIN_SPAN_NS, &h->model, &h->uncertainty) != 0)
		return;
	for (size_t i = 0; i < tasks__count(run); i++) {
		const mon_task *o = tasks__at(run, i);

		if (o->dtid == h->dtid && o->clock_done && !o->gone && !o->final)
			send_model(run, h, o->rec.tid);
	}
}

void clocks__estimate(mon_run *run, int src, const uint8_t *data, size_t len)
{
	mon_task *t = tasks__find(run, src);
	mon_host_clock *h;
	wire_clock c;
	int64_t shift;

	if (wire__clock_decode(&c, data, len) != 0 || c.tid != src || !t) {
		run->bad_messages++;
		return;
	}
	h = (mon_host_clock *)clocks__host(run, t->dtid);
	if (t->clock_done) {
		/* Only the keeper re-estimates. */
		if (!h || h->keeper != src) {
			run->bad_messages++;
			return;
		}
		refit(run, h, &c);
		return;
	}
	if (!h && !(h = new_host(run, t->dtid, &c, src)))
		return;
	/* The task's start, reported at registration, moves onto the monitor's clock. */
	t->clock_done = 1;
	shift = clockmodel__to_common(&h->model, t->rt_start) - t->rt_start;
	t->rt_start += shift;
	t->rec.start_ns += shift;
	t->rec.end_ns += shift;
	send_model(run, h, src);
}

void clocks__task_gone(mon_run *run, const mon_task *t)
{
	mon_host_clock *h = (mon_host_clock *)clocks__host(run, t->dtid);

	if (!h || h->keeper != t->rec.tid)
		return;
	h->keeper = 0;
	/* The next task of the host that is still running keeps the estimate going. */
	for (size_t i = 0; i < tasks__count(run); i++) {
		const mon_task *o = tasks__at(run, i);

		if (o->dtid == h->dtid && o->clock_done && !o->gone && !o->final) {
			h->keeper = o->rec.tid;
			send_model(run, h, o->rec.tid);
			return;
		}
	}
}

void clocks__free(mon_run *run)
{
	for (size_t i = 0; i < run->nclocks; i++)
		free(run->clocks[i].pts);
	free(run->clocks);
	run->clocks = NULL;
	run->nclocks = 0;
}
