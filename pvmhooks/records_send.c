/* The task's records on their way to the monitor (RECORDS): its totals on the three
 * clocks, with the virtual time's uncertainty, and the record set as it stands with
 * the histograms histos.c hands over; of the records, what changed since the last flush. */
#include <stdlib.h>
#include <string.h>

#include "hooks.h"
#include "probes.h"
#include "pvmmon/errors.h"
#include "records.h"

int64_t hooks__records_probe_spread(const pvmmon_log_cost *cost)
{
	/* Two calibrations measure one probe's cost: in place (a quarter of an
	 * instrumented call) and in a loop of probes (half a pair). How far they disagree
	 * is how far a probe's charge may be from its true cost. */
	int64_t place, loop, spread = 0;

	if (!cost)
		return 0;
	if (cost->site_on_ps > 0 && cost->proc_pair_ns > 0) {
		place = cost->site_on_ps / 4000;
		loop = cost->proc_pair_ns / 2;
		spread = place > loop ? place - loop : loop - place;
	}
	/* And the loop calibration taken again during the run (calibrate.c): half the
	 * range of its pair costs, a probe being half a pair. */
	if (cost->rechecks && cost->loop_pair_ns > 0) {
		int64_t lo = cost->recheck_min_ns < cost->loop_pair_ns ? cost->recheck_min_ns
		                                                       : cost->loop_pair_ns;
		int64_t hi = cost->recheck_max_ns > cost->loop_pair_ns ? cost->recheck_max_ns
		                                                       : cost->loop_pair_ns;

		if ((hi - lo) / 2 > spread)
			spread = (hi - lo) / 2;
	}
	return spread;
}

void hooks__records_set_hists(pvmmon_log_hist *hists, size_t n)
{
	pvmmon_log_task *t = hooks__records_task();

	for (size_t i = 0; i < t->nhists; i++)
		pvmmon_log_hist_clear(&t->hists[i]);
	free(t->hists);
	t->hists = hists;
	t->nhists = n;
}

/*
 * What the monitor has of the task's records, so that a flush carries only what
 * changed. statics: how many static table entries; the tables do not change once
 * copied into the records (recstatic.c), and the monitor keeps them from a flush that
 * carries none, so they go once (SQLite's 9,000 entries were 0.9 MB of each flush, some
 * 2 ms to encode and 3 to send, 11 times a second under a budget). procs, loops:
 * copies of the proc and loop records as last sent; a record that differs from its
 * copy, or is new, goes in a delta (wire_records_delta), the others stay the
 * monitor's (SQLite's 2,200 records were 300 KB of every flush). valid 0: the next
 * flush is whole (the first, and after a failure, or when records went: calibration's).
 */
static struct {
	size_t statics;
	int valid;
	pvmmon_log_proc *procs;
	pvmmon_log_loop *loops;
	size_t nprocs, nloops;
	wire_records_delta d; /* the delta's index arrays, reused */
	size_t pcap, lcap;    /* their room */
} sent;

void hooks__records_send_restart(void)
{
	sent.statics = 0;
	sent.valid = 0;
}

/* Makes *a (of size-byte entries, room *cap) hold n; 0 or -1. */
static int fit(void **a, size_t *cap, size_t n, size_t size)
{
	void *g;

	if (n <= *cap)
		return 0;
	g = realloc(*a, n * size);
	if (!g)
		return -1;
	*a = g;
	*cap = n;
	return 0;
}

/* The delta of t against what was sent: 0, or -1 when the flush must be whole. */
static int delta_of(const pvmmon_log_task *t)
{
	wire_records_delta *d = &sent.d;

	d->npidx = d->nlidx = 0;
	if (!sent.valid || t->nprocs < sent.nprocs || t->nloops < sent.nloops ||
	    fit((void **)&d->pidx, &sent.pcap, t->nprocs, sizeof(*d->pidx)) ||
	    fit((void **)&d->lidx, &sent.lcap, t->nloops, sizeof(*d->lidx)))
		return -1;
	for (size_t i = 0; i < t->nprocs; i++)
		if (i >= sent.nprocs || memcmp(&t->procs[i], &sent.procs[i], sizeof(*t->procs)))
			d->pidx[d->npidx++] = (uint32_t)i;
	for (size_t i = 0; i < t->nloops; i++)
		if (i >= sent.nloops || memcmp(&t->loops[i], &sent.loops[i], sizeof(*t->loops)))
			d->lidx[d->nlidx++] = (uint32_t)i;
	return 0;
}

/* t's records went: they are what the monitor has now. */
static void sent_now(const pvmmon_log_task *t)
{
	pvmmon_log_proc *p = realloc(sent.procs, (t->nprocs ? t->nprocs : 1) * sizeof(*p));
	pvmmon_log_loop *l;

	if (p)
		sent.procs = p;
	l = realloc(sent.loops, (t->nloops ? t->nloops : 1) * sizeof(*l));
	if (l)
		sent.loops = l;
	sent.valid = p && l;
	if (!sent.valid)
		return;
	/* No records: no arrays (memcpy's source may not be NULL even for 0 bytes). */
	if (t->nprocs)
		memcpy(sent.procs, t->procs, t->nprocs * sizeof(*p));
	if (t->nloops)
		memcpy(sent.loops, t->loops, t->nloops * sizeof(*l));
	sent.nprocs = t->nprocs;
	sent.nloops = t->nloops;
	sent.statics = t->nstatics;
}

int hooks__records_send(int final, int64_t now, const pvmmon_log_cost *cost)
{
	static wire_buf out; /* reused encoding buffer */
	size_t nstatics;
	int rc;
	const hooks_counts *n = hooks__counts();
	const vclock *c = hooks__clock();
	pvmmon_log_task *t = hooks__records_task();
	int64_t start = hooks__start();

	t->tid = hooks__mytid();
	t->end_ns = now;
	/* Stamped: never below a time already handed out, and never negative. */
	t->virtual_ns = vclock__stamp(hooks__clock(), now) - start;
	if (t->virtual_ns < 0)
		t->virtual_ns = 0;
	t->intrusion_ns = vclock__intrusion(c);
	t->raw_ns = now - start;
	t->local_ns = vclock__last_local(c) - start;
	if (t->local_ns < 0)
		t->local_ns = 0;
	t->clamped_ns = c->clamped;
	t->uncertainty_ns =
	    vclock__uncertainty(c, hooks__probe_charged(), hooks__records_probe_spread(cost));
	t->has_raw = 1;
	t->msgs_sent = n->msgs_sent;
	t->msgs_recv = n->msgs_recv;
	t->bytes_sent = n->bytes_sent;
	t->bytes_recv = n->bytes_recv;
	t->unmonitored_recv = n->unmonitored_recv;
	t->bad_piggybacks = n->pb_bad;
	t->cost = *cost;
	wire__buf_reset(&out);
	/* A static name, for the encoding only: the record set never frees it. */
	t->clock = (char *)pvmmon__clock_name();
	nstatics = t->nstatics;
	if (nstatics == sent.statics)
		t->nstatics = 0;
	wire__records_encode_delta(&out, t, final, delta_of(t) == 0 ? &sent.d : NULL);
	t->nstatics = nstatics;
	t->clock = NULL;
	if (out.failed) {
		sent.valid = 0;
		return PVMMON_ENOMEM;
	}
	rc = channel__send(WIRE_TAG_RECORDS, out.data, out.len);
	if (rc == 0)
		sent_now(t);
	else
		sent.valid = 0;
	return rc;
}
