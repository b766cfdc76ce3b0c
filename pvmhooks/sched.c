/*
 * The scheduler (pvmhooks/sched.h): the monitor's commands, the periodic work (from
 * wrapped calls' ends and from probes) and the flush of every feature's records, run
 * over the table of features it is given (features.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pvmmon/errors.h"
#include "sched.h"

/* How often the monitor's commands are looked for: a command reaches a task at its
 * first PVM call (or probe) at least this long after the last look. */
#define POLL_NS 10000000LL

/* Control answers normally take well under a millisecond; this bounds a dead monitor. */
#define ANSWER_TIMEOUT_MS 5000

static struct {
	int64_t period_ns;  /* records are flushed this often */
	int64_t last_flush; /* real time of the last flush */
	int64_t last_poll;  /* real time the monitor's commands were last looked for */
	int64_t flush_ns;   /* real time spent in flushes so far */
} sc;

static int flush_at(int final, int64_t now);

/* The features, in order (features.c explains it). */
static const hooks_feature *features;
static size_t nfeatures;

/* The entries every wrapped call's end runs, in the table's order, without the
 * features that have none: a call then walks two or three entries, not the table. */
#define MAX_HOT 32 /* more than the table has (12) */
static void (*call_ends[MAX_HOT])(hooks_call *call, int64_t now);
static void (*polls[MAX_HOT])(int64_t now);
static int (*flush_dues[MAX_HOT])(int64_t now, int64_t last_flush);
static size_t ncall_ends, npolls, nflush_dues;

void sched__init(const hooks_feature *table, size_t n)
{
	features = table;
	nfeatures = n;
	ncall_ends = npolls = nflush_dues = 0;
	for (size_t i = 0; i < n; i++) {
		if (table[i].call_end && ncall_ends < MAX_HOT)
			call_ends[ncall_ends++] = table[i].call_end;
		if (table[i].poll && npolls < MAX_HOT)
			polls[npolls++] = table[i].poll;
		if (table[i].flush_due && nflush_dues < MAX_HOT)
			flush_dues[nflush_dues++] = table[i].flush_due;
	}
}

void sched__begin(int64_t period_ns)
{
	sc.period_ns = period_ns;
	sc.last_flush = sc.last_poll = pvmmon_clock_now();
}

void sched__start(void)
{
	int64_t t0;
	int flush = 0;

	for (size_t i = 0; i < nfeatures; i++)
		if (features[i].start && features[i].start())
			flush = 1;
	if (flush) {
		hooks__guard = 1;
		t0 = pvmmon_clock_now();
		hooks__flush(0);
		vclock__intrude(hooks__clock(), pvmmon_clock_now() - t0);
		hooks__guard = 0;
	}
}

void sched__call_end(hooks_call *call, int64_t now)
{
	for (size_t i = 0; i < ncall_ends; i++)
		call_ends[i](call, now);
}

void sched__control(const wire_ctl *c, int64_t v)
{
	for (size_t i = 0; i < nfeatures; i++)
		if (features[i].control && features[i].control(c, v))
			return;
}

void hooks__poll(int64_t now)
{
	uint8_t *d = NULL;
	size_t len;
	wire_ctl c;

	sc.last_poll = now;
	if (hooks__state() != HOOKS_ACTIVE || channel__lost())
		return;
	/* The monitor's end, told by pvmd: warn once and go on unmonitored (piggybacks
	 * still go out and are still taken, so that pairing stays right). */
	if (channel__check_lost())
		return;
	for (size_t i = 0; i < nfeatures; i++)
		if (features[i].tick)
			features[i].tick(now);
	while (channel__recv(&d, &len, WIRE_TAG_CTL, 0) == 0) {
		if (wire__ctl_decode(&c, d, len) == 0) {
			sched__control(&c, vclock__virtual(hooks__clock(), now));
			free(c.procs);
		} else {
			hooks__count_bad();
		}
		free(d);
		d = NULL;
	}
}

void hooks__await_control(int64_t v)
{
	uint8_t *d = NULL;
	size_t len;
	wire_ctl c;

	if (channel__recv(&d, &len, WIRE_TAG_CTL, ANSWER_TIMEOUT_MS) != 0)
		return;
	if (wire__ctl_decode(&c, d, len) == 0) {
		sched__control(&c, v);
		free(c.procs);
	}
	free(d);
}

/* Whether the period is over, or a feature wants a flush sooner. */
static int flush_due(int64_t now)
{
	if (now - sc.last_flush >= sc.period_ns)
		return 1;
	for (size_t i = 0; i < nflush_dues; i++)
		if (flush_dues[i](now, sc.last_flush))
			return 1;
	return 0;
}

void sched__run(int64_t now)
{
	int64_t t0 = now;
	size_t i;

	for (i = 0; i < npolls; i++)
		polls[i](now);
	if (now - sc.last_poll >= POLL_NS)
		hooks__poll(now);
	if (hooks__state() == HOOKS_ACTIVE && flush_due(now))
		flush_at(0, now);
	/* What the periodic work took is monitoring time. */
	vclock__intrude(hooks__clock(), pvmmon_clock_now() - t0);
}

void sched__waiting(int64_t now, int64_t at, int force)
{
	hooks__poll(now);
	if (hooks__state() == HOOKS_ACTIVE && (force || flush_due(now))) {
		flush_at(0, at);
		sc.last_flush = now;
	}
}

int64_t sched__tick(int64_t now)
{
	if (hooks__state() != HOOKS_ACTIVE || hooks__guard || channel__lost())
		return now + POLL_NS;
	hooks__guard = 1;
	sched__run(now);
	hooks__guard = 0;
	return now + POLL_NS;
}

/* Sends every feature's records at real time now. */
static int flush_at(int final, int64_t now)
{
	int rc = 0, r;
	int64_t t0 = pvmmon_clock_now();

	if (hooks__state() != HOOKS_ACTIVE || channel__lost())
		return PVMMON_ESTATE;
	/* The TSC's scale is checked against CLOCK_MONOTONIC at every flush (and its use
	 * ended if it is off); the records then say which clock was read. */
	pvmmon__clock_refit();
	for (size_t i = 0; i < nfeatures; i++) {
		r = features[i].flush ? features[i].flush(final, now) : 0;
		if (r < 0 && rc == 0)
			rc = r;
	}
	hooks__count_flush();
	sc.last_flush = now;
	sc.flush_ns += pvmmon_clock_now() - t0;
	return rc;
}

int64_t sched__flush_ns(void) { return sc.flush_ns; }

int hooks__flush(int final) { return flush_at(final, pvmmon_clock_now()); }
