/*
 * The features of libpvmhooks and the order they run in (pvmhooks/features.h): the
 * adapters from each feature's own functions to the scheduler's table, the table, and
 * the monitor's welcome decoded and given to each feature.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blame.h"
#include "board.h"
#include "channel.h"
#include "clocksync.h"
#include "critpath.h"
#include "dyninst.h"
#include "fatal.h"
#include "features.h"
#include "histos.h"
#include "mhf.h"
#include "piggyback.h"
#include "preserve.h"
#include "probes.h"
#include "pvmmon/errors.h"
#include "reach.h"
#include "records.h"
#include "rr.h"
#include "sampler.h"
#include "sched.h"
#include "trace.h"
#include "waits.h"

/* Adapters from the features' own functions to the table's entries. */

static int probes_welcome(const hooks_welcome *w)
{
	(void)w;
	hooks__test_delay_init();
	return 0;
}

static int dyn_welcome(const hooks_welcome *w)
{
	hooks__dyn_rules(w->rules);
	hooks__dyn_set_budget(w->budget);
	hooks__dyn_host_calibration(&w->cal);
	return 0;
}

static int dyn_control(const wire_ctl *c, int64_t v)
{
	(void)v;
	if (c->cmd != WIRE_CTL_ENABLE && c->cmd != WIRE_CTL_DISABLE)
		return 0;
	hooks__dyn_switch(c->cmd == WIRE_CTL_ENABLE, c->procs);
	return 1;
}

static void dyn_call_end(hooks_call *call, int64_t now)
{
	(void)call;
	(void)now;
	hooks__dyn_wrapped();
}

static int records_control(const wire_ctl *c, int64_t v)
{
	(void)v;
	if (c->cmd != WIRE_CTL_STMT)
		return 0;
	hooks__records_stmt_switch(c->gen, c->exclusive);
	return 1;
}

static int records_prepare(int final, int64_t now)
{
	hooks__records_prepare(final, vclock__stamp(hooks__clock(), now));
	return 0;
}

static int records_send(int final, int64_t now)
{
	pvmmon_log_cost cost;
	pvmmon_log_task *t = hooks__records_task();
	int rc;

	hooks__dyn_cost(&cost);
	/* The call-path samples and the wait analysis's causes travel with the records
	 * (their features keep them). */
	t->samples = sampler__samples();
	t->nblames = hooks__blame_causes((const blame_cause **)&t->blames);
	rc = hooks__records_send(final, now, &cost);
	t->samples = NULL;
	t->blames = NULL;
	t->nblames = 0;
	return rc;
}

static int sampler_start(void) { return sampler__start(); }

static int sampler_welcome(const hooks_welcome *w)
{
	sampler__welcome(w->sample_ctl, w->sample_hz);
	return 0;
}

static int sampler_control(const wire_ctl *c, int64_t v)
{
	(void)v;
	if (c->cmd != WIRE_CTL_SAMPLE)
		return 0;
	sampler__set(c->gen);
	return 1;
}

/* Samples after the final records would reach nobody. */
static int sampler_flush(int final, int64_t now)
{
	(void)now;
	if (final)
		sampler__stop();
	return 0;
}

static void trace_call_end(hooks_call *call, int64_t now)
{
	if (hooks__trace_on() || call->trace_first >= 0)
		hooks__trace_end(call, now);
}

static int trace_flush(int final, int64_t now)
{
	(void) final;
	(void)now;
	return hooks__trace_flush();
}

static int rr_welcome(const hooks_welcome *w) { return hooks__rr_init((hooks_rr_mode)w->rr); }

static int rr_control(const wire_ctl *c, int64_t v)
{
	(void)v;
	if (c->cmd != WIRE_CTL_HOLD && c->cmd != WIRE_CTL_RELEASE)
		return 0;
	hooks__rr_hold(c->cmd == WIRE_CTL_HOLD);
	return 1;
}

static int rr_flush(int final, int64_t now)
{
	(void)now;
	return hooks__rr_flush(final);
}

static int pr_welcome(const hooks_welcome *w)
{
	hooks__pr_enable(w->preserve);
	if (w->preserve) {
		int (*parent)(void) = (int (*)(void))hooks__real("pvm_parent");

		hooks__reach_start(hooks__mytid(), parent ? parent() : 0, 1);
	}
	/* Preserve mode's board, in the run's private folder (set by pvmmon run). */
	if (w->preserve && !hooks__board_on())
		hooks__board_open(getenv("PVMMON_BOARD"), hooks__mytid(), hooks__clock());
	return 0;
}

static void pr_poll(int64_t now)
{
	(void)now;
	if (hooks__pr_on())
		hooks__pr_poll();
}

static int pr_flush(int final, int64_t now)
{
	(void)now;
	/* The monitor must know every message sent before it counts the task as ended; the
	 * tasks that decide their receives from bounds learn that this one ends. */
	if (!final)
		return 0;
	hooks__pr_exiting();
	return hooks__pr_report();
}

static void fatal_poll(int64_t now)
{
	(void)now;
	hooks__fatal_settle();
}

/* Starts the critical path at virtual time v with what the records know: the
 * procedure entries before registration and the procedures open now. */
static void cp_begin(int64_t v, const wire_cp *from, int64_t arc, int at_start)
{
	int open[CP_STACK_MAX], n;
	size_t npre;
	const hooks_pre_event *pre = hooks__records_pre_events(&npre);

	n = hooks__records_open_cp(open, CP_STACK_MAX);
	hooks__cp_begin(v, from, arc, at_start, pre, npre, open, n);
}

/* A new selection: procedures entered before (main, and any open now) already have
 * records, whose selection indices change. */
static void cp_select(const char *procs, int exclusive, uint32_t gen)
{
	hooks__cp_configure(procs, exclusive, gen);
	hooks__records_cp_refresh();
}

static int cp_welcome(const hooks_welcome *w)
{
	int64_t t = w->t_start;

	cp_select(w->cp_procs, w->cp_exclusive, w->cp_gen);
	/* A spawned task's path continues its parent's, over the time the spawn took to
	 * start it; a root's starts here. */
	if (w->cp_collecting)
		cp_begin(t, &w->from,
		         w->from.on && w->spawn_rt ? t - hooks__from_common(w->spawn_rt) : 0, 1);
	return 0;
}

static int cp_control(const wire_ctl *c, int64_t v)
{
	if (c->cmd == WIRE_CTL_CP_START) {
		cp_select(c->procs, c->exclusive, c->gen);
		cp_begin(v, NULL, 0, 0);
		return 1;
	}
	if (c->cmd != WIRE_CTL_CP_STOP)
		return 0;
	hooks__cp_stop(v);
	return 1;
}

static int cp_flush(int final, int64_t now)
{
	return hooks__cp_sample(vclock__virtual(hooks__clock(), now), final);
}

static int hist_welcome(const hooks_welcome *w)
{
	histos__welcome(w->hist_buckets, w->hist_width, w->hist_hottest, w->hist_defaults,
	                w->hist_run, w->hist_ctl);
	return 0;
}

static void hist_call_end(hooks_call *call, int64_t now) { histos__call_end(call, now); }

static int blame_welcome(const hooks_welcome *w)
{
	(void)w;
	hooks__blame_start(hooks__mytid(), channel__program());
	return 0;
}

static int waits_welcome(const hooks_welcome *w)
{
	(void)w;
	waits__threshold();
	return 0;
}

static int waits_control(const wire_ctl *c, int64_t v)
{
	(void)v;
	return waits__control(c);
}

/*
 * The features, in the order every step runs them:
 * - records first: at the final flush it closes the open procedures, whose exits the
 *   critical path still takes; it takes the statement switches (STMT).
 * - the critical path samples its tuple next, with those exits in it; it takes its
 *   own START and STOP commands, and its welcome starts its path (after probes and
 *   records exist, before any message).
 * - the trace's events and the replay record go to the monitor before the task's
 *   records, so that the monitor has them whole once the final records arrive; the
 *   replay client takes HOLD and RELEASE, and its welcome may fail (no replay data),
 *   which leaves the task unmonitored.
 * - preserve mode answers the monitor at every call's end (poll) and, at the final
 *   flush, reports every message sent before the monitor counts the task as ended.
 * - probes take their test delay, and dynamic instrumentation its rules and budget,
 *   from the welcome; calibration (start) runs once everything else is set up, is
 *   taken again once a second at a scheduler run (poll), and the budget may ask for an
 *   early flush.
 * - the clock's keeper resynchronises at the tick, before the commands are read.
 * - wait reports read their threshold at the welcome; they run inside blocking
 *   receives (calls.c) and a replay's forced waits, through the scheduler's waiting
 *   work, and take the monitor's verdict that a forced wait's message cannot come.
 * - the time histograms account the call's time before the periodic work charges its
 *   own, look at the statements, procedures and loops once a bucket at the poll, and
 *   at a flush put everything up to it into the task's records, which go next (after
 *   records' final closing of the open procedures).
 * - the online wait analysis starts at the welcome (the task's tid and program) and
 *   adds each call's piece at its end; its causes go with the task's records.
 * - the task's records message goes last of all, with the cost record, the call-path
 *   samples and the wait analysis's causes; the sampler (started in the library's constructor when the
 *   environment asks for it) settles at registration what the environment, the
 *   program's static tables and `pvmmon ctl sample` (welcome, SAMPLE) say, and stops
 *   its timer after the final records.
 * - the fatal-signal handlers are installed last, once the task is registered and
 *   every other feature has started: from then on a fatal signal flushes them all. A
 *   signal that came inside a PVM call (or pvmmon's code) ends the task at the next
 *   poll, which every call's end, probe tick and slice of a long wait runs.
 */
static const hooks_feature features[] = {
    {.name = "records", .control = records_control, .flush = records_prepare},
    {.name = "critpath", .welcome = cp_welcome, .control = cp_control, .flush = cp_flush},
    {.name = "trace", .call_end = trace_call_end, .flush = trace_flush},
    {.name = "rr", .welcome = rr_welcome, .control = rr_control, .flush = rr_flush},
    {.name = "preserve", .welcome = pr_welcome, .poll = pr_poll, .flush = pr_flush},
    {.name = "probes", .welcome = probes_welcome},
    {.name = "dyninst",
     .welcome = dyn_welcome,
     .start = hooks__dyn_start,
     .control = dyn_control,
     .flush_due = hooks__dyn_flush_due,
     .poll = hooks__dyn_poll,
     .call_end = dyn_call_end},
    {.name = "clock", .tick = clocksync__tick},
    {.name = "waits", .welcome = waits_welcome, .control = waits_control},
    {.name = "histograms",
     .welcome = hist_welcome,
     .poll = histos__poll,
     .control = histos__control,
     .flush = histos__flush,
     .call_end = hist_call_end},
    {.name = "blame", .welcome = blame_welcome, .call_end = hooks__blame_call_end},
    {.name = "task", .flush = records_send},
    {.name = "sampler",
     .welcome = sampler_welcome,
     .start = sampler_start,
     .control = sampler_control,
     .flush = sampler_flush},
    {.name = "fatal", .start = hooks__fatal_install, .poll = fatal_poll},
};
#define NFEATURES (sizeof(features) / sizeof(features[0]))

/* Decodes the welcome: the task's number and logical id, the spawn, the run's
 * critical-path selection, record/replay and preserve mode, the switching rules and
 * the budget. 0, or PVMMON_EPARSE. */
static int welcome_decode(hooks_welcome *w, const uint8_t *data, size_t len)
{
	wire_welcome m;
	int rc = wire__welcome_decode(&m, data, len);

	memset(w, 0, sizeof(*w));
	if (rc < 0) {
		wire__welcome_clear(&m);
		return rc;
	}
	/* The strings are w's from now on. */
	*w = (hooks_welcome){.index = m.index,
	                     .lid = m.lid,
	                     .spawn_rt = m.spawn_rt,
	                     .from = m.from,
	                     .cp_gen = m.cp_gen,
	                     .cp_collecting = m.collecting,
	                     .cp_exclusive = m.exclusive,
	                     .cp_procs = m.procs,
	                     .rr = m.rr,
	                     .preserve = m.preserve == 1,
	                     .rules = m.rules,
	                     .budget = m.budget / 10000.0,
	                     .hist_buckets = m.hist_buckets,
	                     .hist_hottest = m.hist_hottest,
	                     .hist_width = m.hist_width,
	                     .hist_defaults = m.hist_defaults,
	                     .hist_run = m.hist_run,
	                     .hist_ctl = m.hist_ctl,
	                     .cal = m.cal,
	                     .sample_ctl = m.sample_ctl,
	                     .sample_hz = m.sample_hz};
	return 0;
}

int features__welcome(const uint8_t *data, size_t len, int64_t t_start)
{
	hooks_welcome w;
	size_t i;
	int rc = welcome_decode(&w, data, len);

	w.t_start = t_start;
	hooks__set_identity(w.index, w.lid);
	w.lid = NULL;
	if (rc != 0) {
		fprintf(stderr, "pvmmon: the monitor's welcome is damaged; this task runs "
		                "unmonitored\n");
		goto out;
	}
	for (i = 0; i < NFEATURES && rc == 0; i++)
		if (features[i].welcome)
			rc = features[i].welcome(&w);
	if (rc != 0)
		fprintf(stderr, "pvmmon: the replay cannot start; this task runs unmonitored\n");
out:
	free(w.cp_procs);
	free(w.rules);
	free(w.hist_run);
	free(w.hist_ctl);
	return rc;
}

/* The trace names statements by the records' ids. */
static uint32_t stmt_id(void *site, hooks_op op)
{
	pvmmon_log_stmt *st = hooks__stmt(site, op);

	return st ? st->id : 0;
}

/* What one feature needs of another, given here so that neither calls the other: the
 * trace's statement ids, the waits' statements, preserve mode's wait threshold, the
 * piggyback's and the replay's view of the messages handlers hold, the budget's view
 * of the sampler's cost. */
void features__install(void)
{
	hooks__trace_set_stmt_id(stmt_id);
	waits__set_stmt(hooks__stmt);
	hooks__pr_wait_threshold(waits__threshold);
	piggyback__held_by(hooks__mhf_unsettled_from);
	hooks__rr_unexpected_by(hooks__mhf_unexpected);
	hooks__dyn_extra_cost(sampler__cost_ns);
	sched__init(features, NFEATURES);
}
