/*
 * Dynamic instrumentation at the monitor (doc/architecture.md, "Dynamic
 * instrumentation and cost"): the switching rules every task follows, the log of
 * switches, each task's predicted and observed cost, and the cost budget (seed 004),
 * which switches probe sites on and off to keep the predicted and observed cost of
 * every task under it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/clock.h"
#include "../common/resource.h"
#include "cost.h"
#include "pvmmon/errors.h"
#include "tasks.h"

/* The budget aims this far below itself when it switches sites off, and switches
 * sites on only while what is predicted stays under it, so that a task near its budget
 * does not flip sites on and off. */
#define BUDGET_TARGET 0.8
/* Rates need this much time between two flushes to mean something. */
#define MIN_INTERVAL_NS 10000000LL

/* One probe site of a task as the monitor sees it in the records. */
typedef struct mon_site {
	int kind;          /* RESOURCE_PROC or RESOURCE_LOOP */
	char *name, *file; /* the site's own copies */
	int32_t line;
	char *encl;       /* a loop's procedure */
	uint64_t count;   /* entries at the last flush */
	uint64_t prev;    /* entries at the flush before */
	int seen;         /* in the last flush's records */
	double rate;      /* entries per second over the last interval */
	double free_rate; /* the same per second of the task's own time (probes' removed):
	                   * how often it runs switched off */
	int on;           /* as of the last flush */
	int was_on;       /* as of the flush before */
	int budget_off;   /* the budget switched it off (it stays off) */
	int asked;        /* the budget switched it on once already */
} mon_site;

struct mon_cost {
	mon_site *sites;
	size_t nsites;
	/* Per statement id: 0 not told, 1 told on, 2 told off. */
	uint8_t *stmt_told;
	size_t nstmt_told;
	int64_t last_end;  /* the task's real time at the last flush (monitor clock) */
	int64_t last_own;  /* its observed monitoring time then */
	int64_t last_comm; /* its predicted communication cost then */
	int have_last;
	int settle;                 /* sites were switched off: let one interval show the effect */
	double observed, predicted; /* fractions of the last interval */
	double static_frac;         /* switched-off sites' cost, fraction, last interval */
	double static_ns;           /* their estimated cost over the run so far */
	/* The sampler's handler time at the last flush (its samples' cost-ns), its
	 * fraction of the last interval, and whether the budget switched it off. */
	int64_t last_sample;
	double sample_frac;
	int sample_off;
};

static void free_task_cost(mon_task *t)
{
	size_t i;

	if (!t->cost)
		return;
	for (i = 0; i < t->cost->nsites; i++) {
		free(t->cost->sites[i].name);
		free(t->cost->sites[i].file);
		free(t->cost->sites[i].encl);
	}
	free(t->cost->sites);
	free(t->cost->stmt_told);
	free(t->cost);
	t->cost = NULL;
}

/* Appends a switch to the run's log of switches. */
static void log_switch(mon_run *run, int on, const char *spec, int budget, const char *reason)
{
	pvmmon_log_switch *w = realloc(run->switches, (run->nswitches + 1) * sizeof(*w));

	if (!w)
		return;
	run->switches = w;
	w = &run->switches[run->nswitches];
	memset(w, 0, sizeof(*w));
	w->time_ns = pvmmon_clock_now() - run->t_start;
	w->on = on;
	w->resource = strdup(spec);
	w->by = strdup(budget ? "budget" : "user");
	w->reason = reason ? strdup(reason) : NULL;
	if (!w->resource || !w->by) {
		free(w->resource);
		free(w->by);
		free(w->reason);
		return;
	}
	run->nswitches++;
}

int cost__switch(mon_run *run, int on, const char *spec, int budget, const char *reason)
{
	mon_rule *rules, *rule;
	wire_ctl c = {on ? WIRE_CTL_ENABLE : WIRE_CTL_DISABLE, 0, 0, (char *)spec, 0};
	wire_buf b;
	size_t i;
	int rc;

	rules = realloc(run->rules, (run->nrules + 1) * sizeof(*rules));
	if (!rules)
		return pvmmon_error_set(PVMMON_ENOMEM, NULL);
	run->rules = rules;
	rule = &rules[run->nrules];
	/* Parsed once here: the rules are matched at every flush. */
	if ((rc = resource__parse(&rule->res, spec)) < 0)
		return rc;
	rule->on = on;
	rule->budget = budget;
	rule->spec = strdup(spec);
	if (!rule->spec) {
		resource__clear(&rule->res);
		return pvmmon_error_set(PVMMON_ENOMEM, NULL);
	}
	run->nrules++;
	log_switch(run, on, spec, budget, reason);
	/* Tasks that register later get the rules with their welcome. */
	wire__buf_init(&b);
	wire__ctl_encode(&b, &c);
	for (i = 0; i < tasks__count(run); i++) {
		mon_task *t = tasks__at(run, i);

		if (!tasks__running(t) || !resource__names_task(&rule->res, t->rec.lid))
			continue;
		tasks__send(run, t->rec.tid, WIRE_TAG_CTL, &b);
		cost__stmts(run, t);
	}
	wire__buf_free(&b);
	return 0;
}

/* Whether a rule can name a statement: one of kind stmt, or of no kind. */
int cost__sample(mon_run *run, uint32_t hz)
{
	wire_ctl c = {WIRE_CTL_SAMPLE, hz, 0, NULL, 0};
	char spec[32];

	if (hz > WIRE_SAMPLE_MAX_HZ)
		return pvmmon_error_set(PVMMON_EINVAL, "sampling rate %u Hz", (unsigned)hz);
	run->sample_ctl = 1;
	run->sample_hz = hz;
	/* Listed with the switches: the rate in the resource, off as "disable". */
	snprintf(spec, sizeof(spec), hz ? "sample=%u" : "sample", (unsigned)hz);
	log_switch(run, hz > 0, spec, 0, NULL);
	tasks__tell(run, &c, 0);
	return 0;
}

static int names_stmts(const mon_rule *rule)
{
	return rule->res.kind == RESOURCE_ANY || rule->res.kind == RESOURCE_STMT;
}

/* The last rule naming statement s of task lid: its on/off, or 1 (statements start
 * on) when none does. */
static int stmt_wanted(const mon_run *run, const char *lid, const pvmmon_log_stmt *s)
{
	size_t k = run->nrules;

	while (k-- > 0)
		if (names_stmts(&run->rules[k]) &&
		    resource__match(&run->rules[k].res, lid, RESOURCE_STMT, NULL, s->file, s->line,
		                    s->function))
			return run->rules[k].on;
	return 1;
}

void cost__stmts(mon_run *run, mon_task *t)
{
	pvmmon_log_task *rec = &t->rec;
	size_t i, n = 0;

	for (i = 0; i < run->nrules; i++)
		n += names_stmts(&run->rules[i]);
	if (!n || !rec->nstmts)
		return;
	if (!t->cost && !(t->cost = calloc(1, sizeof(*t->cost))))
		return;
	if (t->cost->nstmt_told < rec->nstmts) {
		uint8_t *told = realloc(t->cost->stmt_told, rec->nstmts);

		if (!told)
			return;
		memset(told + t->cost->nstmt_told, 0, rec->nstmts - t->cost->nstmt_told);
		t->cost->stmt_told = told;
		t->cost->nstmt_told = rec->nstmts;
	}
	for (i = 0; i < rec->nstmts; i++) {
		pvmmon_log_stmt *s = &rec->stmts[i];
		uint8_t told;
		int want;

		if (s->id >= t->cost->nstmt_told)
			continue;
		tasks__resolve_stmt(s);
		want = stmt_wanted(run, rec->lid, s);
		told = t->cost->stmt_told[s->id];
		/* Statements start on: only a change is told. */
		if ((told ? told == 1 : !s->disabled) != want) {
			wire_ctl c = {WIRE_CTL_STMT, s->id, want, NULL, 0};
			wire_buf b;

			wire__buf_init(&b);
			wire__ctl_encode(&b, &c);
			tasks__send(run, rec->tid, WIRE_TAG_CTL, &b);
			wire__buf_free(&b);
			t->cost->stmt_told[s->id] = want ? 1 : 2;
		}
	}
}

int cost__rules_text(char **out, const mon_run *run)
{
	size_t i, n = 1;
	char *s, *p;

	for (i = 0; i < run->nrules; i++)
		n += strlen(run->rules[i].spec) + 2;
	*out = s = p = malloc(n);
	if (!s)
		return PVMMON_ENOMEM;
	*p = '\0';
	for (i = 0; i < run->nrules; i++)
		p += sprintf(p, "%s%c%s", i ? ";" : "", run->rules[i].on ? '+' : '-',
		             run->rules[i].spec);
	return 0;
}

void cost__free(mon_run *run)
{
	size_t i;

	for (i = 0; i < tasks__count(run); i++)
		free_task_cost(tasks__at(run, i));
	for (i = 0; i < run->nrules; i++) {
		free(run->rules[i].spec);
		resource__clear(&run->rules[i].res);
	}
	free(run->rules);
	run->rules = NULL;
	run->nrules = 0;
	for (i = 0; i < run->nswitches; i++) {
		free(run->switches[i].resource);
		free(run->switches[i].by);
		free(run->switches[i].reason);
	}
	free(run->switches);
	run->switches = NULL;
	run->nswitches = 0;
}

int cost__start(mon_run *run)
{
	if (run->budget_pct <= 0)
		return 0;
	/* Coarse before fine (Paradyn's search refines the same way): procedures first;
	 * each loop waits until the budget has room for it. */
	return cost__switch(run, 0, "kind=loop", 1,
	                    "coarse first: loops wait for room in the budget");
}

static int same(const char *a, const char *b) { return (!a && !b) || (a && b && !strcmp(a, b)); }

/* The task's site of kind, name, file, line (made on first sight); NULL without
 * memory. */
static mon_site *site_of(struct mon_cost *c, int kind, const char *name, const char *file,
                         int32_t line, const char *encl)
{
	mon_site *s;
	size_t i;

	for (i = 0; i < c->nsites; i++) {
		s = &c->sites[i];
		if (s->kind == kind && s->line == line && same(s->file, file) &&
		    (kind == RESOURCE_LOOP || same(s->name, name)))
			return s;
	}
	s = realloc(c->sites, (c->nsites + 1) * sizeof(*s));
	if (!s)
		return NULL;
	c->sites = s;
	s = &c->sites[c->nsites];
	memset(s, 0, sizeof(*s));
	s->kind = kind;
	s->name = name ? strdup(name) : NULL;
	s->file = file ? strdup(file) : NULL;
	s->line = line;
	s->encl = encl ? strdup(encl) : NULL;
	c->nsites++;
	return s;
}

/*
 * The calibrated cost of one entry of s (a pair of probes), ns: the pair's cost in a
 * loop of probes, scaled by what an instrumented call cost in place against the same
 * pairs in the loop (probes cost more among a program's own code). The factor is kept
 * within [1/2, 4] so that a disturbed measurement cannot swing the budget.
 */
static double pair_ns(const pvmmon_log_cost *k, const mon_site *s)
{
	double pair = (double)(s->kind == RESOURCE_LOOP ? k->loop_pair_ns : k->proc_pair_ns);
	double both = (double)(k->proc_pair_ns + k->loop_pair_ns), f;

	if (k->site_on_ps <= 0 || both <= 0)
		return pair;
	f = (double)k->site_on_ps / 1000.0 / both;
	f = f < 0.5 ? 0.5 : f > 4 ? 4 : f;
	return pair * f;
}

/* What a switched-off procedure site costs a call (its scopes' tests and frame, the
 * caller's call-line store), ns; its loops' are included. A disturbed calibration
 * cannot make it more than a quarter of the call with its probes on. */
static double off_ns(const pvmmon_log_cost *k, const mon_site *s)
{
	int64_t ps = k->site_off_ps;

	if (s->kind != RESOURCE_PROC || ps <= 0)
		return 0;
	if (k->site_on_ps > 0 && ps > k->site_on_ps / 4)
		ps = k->site_on_ps / 4;
	return (double)ps / 1000.0;
}

/* What the communication of a task has cost so far, predicted from calibration. */
static int64_t comm_cost(const pvmmon_log_task *r)
{
	const pvmmon_log_cost *k = &r->cost;

	return (int64_t)r->cost.wrapped_calls * k->wrapper_ns +
	       (int64_t)r->msgs_sent * k->pb_send_ns + (int64_t)r->msgs_recv * k->pb_recv_ns;
}

/* The rate of entries of the procedure name (all its sites), per second. */
static double proc_rate(const struct mon_cost *c, const char *name)
{
	double r = 0;
	size_t i;

	for (i = 0; i < c->nsites; i++)
		if (c->sites[i].kind == RESOURCE_PROC && same(c->sites[i].name, name))
			r += c->sites[i].rate;
	return r;
}

/* The resource naming exactly site s of task lid. */
static void site_spec(char *buf, size_t n, const char *lid, const mon_site *s)
{
	if (s->kind == RESOURCE_LOOP)
		snprintf(buf, n, "task=%s,loop=%s:%d", lid, s->file ? s->file : "?", (int)s->line);
	else
		snprintf(buf, n, "task=%s,kind=proc,proc=%s,line=%d", lid, s->name ? s->name : "?",
		         (int)s->line);
}

/* The last rule naming site s of task lid: 1 if the user switched it on, -1 off, 0
 * when no rule of the user's is the last to name it. */
static int user_rule(const mon_run *run, const char *lid, const mon_site *s)
{
	size_t i = run->nrules;

	while (i-- > 0)
		if (resource__match(&run->rules[i].res, lid, (resource_kind)s->kind, s->name,
		                    s->file, s->line, s->encl))
			return run->rules[i].budget ? 0 : run->rules[i].on ? 1 : -1;
	return 0;
}

static int by_cost_desc(const void *a, const void *b)
{
	double x = **(const double *const *)a, y = **(const double *const *)b;

	return x < y ? 1 : x > y ? -1 : 0;
}

/* Over the budget once the sites that could go have gone: the task's call-path
 * sampling goes off (listed as a switch of "sample,task=LID" by the budget). */
static void sample_off(mon_run *run, mon_task *t, double now, double want, double total)
{
	struct mon_cost *c = t->cost;
	wire_ctl cmd = {WIRE_CTL_SAMPLE, 0, 0, NULL, 0};
	char spec[512], reason[256];
	wire_buf b;

	if (now <= want || c->sample_frac <= 0 || c->sample_off)
		return;
	snprintf(spec, sizeof(spec), "sample,task=%s", t->rec.lid ? t->rec.lid : "?");
	snprintf(reason, sizeof(reason),
	         "predicted %.1f%%, observed %.1f%% > budget %g%%: call-path sampling %.1f%%",
	         100 * total, 100 * c->observed, run->budget_pct, 100 * c->sample_frac);
	wire__buf_init(&b);
	wire__ctl_encode(&b, &cmd);
	tasks__send(run, t->rec.tid, WIRE_TAG_CTL, &b);
	wire__buf_free(&b);
	log_switch(run, 0, spec, 1, reason);
	c->sample_off = 1;
	c->settle = 1;
}

/* Keeps the task under the budget: switches off its most expensive sites when the
 * interval's cost went over it, or switches on a loop there is room for. */
static void regulate(mon_run *run, mon_task *t, double sites_frac, double comm_frac)
{
	/* The sampler's time cannot be switched off site by site: it counts like the
	 * communication's, and goes off as a whole when the sites are not enough. */
	const double sample_frac = t->cost->sample_frac;
	struct mon_cost *c = t->cost;
	double budget = run->budget_pct / 100.0, scale = 1, **costs;
	/* What switching can change (predicted), and with it the switched-off sites'
	 * cost: that cannot be switched off, so it leaves that much less room for the
	 * sites that can, predicted (total) or observed (seen). */
	double probed = sites_frac + comm_frac + sample_frac, total = probed + c->static_frac;
	double seen = c->observed + c->static_frac, now = seen > total ? seen : total;
	char spec[512], reason[256];
	size_t i, n = 0;

	/* The interval that saw a switch mixes before and after: judge the next one. */
	if (c->settle) {
		c->settle = 0;
		return;
	}
	/* Measured time the calibration does not explain (cache misses, a slower clock
	 * under load) is spread over the sites in proportion. */
	if (c->observed > probed && probed > 0)
		scale = c->observed / probed;
	if (now > budget) {
		double want = budget * BUDGET_TARGET;
		/* Each site's cost fraction, in a cost[] array whose address says which; every
		 * site is a candidate (a real program has thousands, and its costliest need
		 * not be among the first few hundred it flushed). */
		double *cost = calloc(c->nsites ? c->nsites : 1, sizeof(*cost));

		costs = calloc(c->nsites ? c->nsites : 1, sizeof(*costs));
		if (!cost || !costs) {
			free(cost);
			free(costs);
			return;
		}
		for (i = 0; i < c->nsites; i++) {
			mon_site *s = &c->sites[i];

			/* What the user switched on is kept on longest (kept here). */
			if (!s->on || s->rate <= 0 || user_rule(run, t->rec.lid, s) > 0)
				continue;
			cost[i] = s->rate * pair_ns(&t->rec.cost, s) * 1e-9 * scale;
			costs[n++] = &cost[i];
		}
		qsort(costs, n, sizeof(*costs), by_cost_desc);
		for (i = 0; i < n && now > want; i++) {
			mon_site *s = &c->sites[costs[i] - cost];

			site_spec(spec, sizeof(spec), t->rec.lid, s);
			snprintf(reason, sizeof(reason),
			         "predicted %.1f%%, observed %.1f%%, switched off %.1f%% > budget "
			         "%g%%: this site %.1f%%",
			         100 * total, 100 * c->observed, 100 * c->static_frac,
			         run->budget_pct, 100 * *costs[i]);
			if (cost__switch(run, 0, spec, 1, reason) == 0) {
				s->on = 0;
				s->budget_off = 1;
				c->settle = 1;
				now -= *costs[i];
			}
		}
		free(cost);
		free(costs);
		sample_off(run, t, now, want, total);
		return;
	}
	/* Room left: the cheapest loop never measured whose procedure's rate is known
	 * (a loop is entered about once per call of its procedure) goes on. */
	{
		mon_site *best = NULL;
		double best_cost = 0;

		for (i = 0; i < c->nsites; i++) {
			mon_site *s = &c->sites[i];
			double r, cost;

			if (s->on || s->budget_off || s->asked || s->kind != RESOURCE_LOOP ||
			    !s->encl || user_rule(run, t->rec.lid, s) < 0)
				continue;
			r = proc_rate(c, s->encl);
			cost = r * pair_ns(&t->rec.cost, s) * 1e-9 * scale;
			if (now + cost > budget * BUDGET_TARGET)
				continue;
			if (!best || cost < best_cost) {
				best = s;
				best_cost = cost;
			}
		}
		if (best) {
			site_spec(spec, sizeof(spec), t->rec.lid, best);
			snprintf(reason, sizeof(reason),
			         "room in budget %g%%: observed %.1f%%, switched off %.1f%%, this "
			         "loop expected %.2f%%",
			         run->budget_pct, 100 * c->observed, 100 * c->static_frac,
			         100 * best_cost);
			if (cost__switch(run, 1, spec, 1, reason) == 0) {
				best->asked = 1;
				best->on = 1;
			}
		}
	}
}

void cost__records(mon_run *run, mon_task *t)
{
	pvmmon_log_task *r = &t->rec;
	struct mon_cost *c = t->cost;
	int64_t dt, free_dt, predicted = 0;
	int measured, advance;
	double sites_frac = 0, comm_frac = 0, static_frac = 0;
	int64_t sampled = r->samples ? r->samples->cost_ns : 0;
	size_t i;

	cost__stmts(run, t);
	if (!r->cost.known)
		return;
	c = t->cost;
	if (!c) {
		c = t->cost = calloc(1, sizeof(*c));
		if (!c)
			return;
	}
	dt = r->end_ns - c->last_end;
	/* Rates are measured over an interval since the last flush of at least
	 * MIN_INTERVAL_NS; a shorter one is left to grow into the next (advance 0). */
	measured = c->have_last && dt >= MIN_INTERVAL_NS;
	advance = !c->have_last || dt >= MIN_INTERVAL_NS;
	/* The interval's time without the task's monitoring: a site switched off runs
	 * faster than it did while on by that much. An interval that was nearly all
	 * monitoring (registration, calibration) says nothing of it: 0. */
	free_dt = dt - (r->cost.observed_ns - c->last_own);
	if (free_dt < dt / 10)
		free_dt = 0;
	for (i = 0; i < c->nsites; i++) {
		c->sites[i].prev = c->sites[i].count;
		c->sites[i].seen = 0;
	}
	for (i = 0; i < r->nprocs + r->nloops; i++) {
		int loop = i >= r->nprocs;
		const pvmmon_log_proc *p = loop ? NULL : &r->procs[i];
		const pvmmon_log_loop *l = loop ? &r->loops[i - r->nprocs] : NULL;
		mon_site *s;

		if (p && p->counted)
			continue;
		s = loop ? site_of(c, RESOURCE_LOOP, l->name, l->file, l->line, l->proc)
		         : site_of(c, RESOURCE_PROC, p->name, p->file, p->line, NULL);
		if (!s)
			continue;
		/* A procedure called from several places has several records: summed. */
		if (!s->seen) {
			s->seen = 1;
			s->count = 0;
		}
		s->count += loop ? l->count : p->count;
		s->on = loop ? !l->disabled : !p->disabled;
	}
	for (i = 0; i < c->nsites; i++) {
		mon_site *s = &c->sites[i];

		if (!s->seen)
			continue;
		/* A site that is off keeps the rate it had while on: what switching it
		 * on again would cost, and what its switched-off code costs. An interval
		 * in which it was switched off or on counts only the part it was on, so
		 * the rate is measured over intervals it was on throughout, or over the
		 * first it was seen in. */
		if (measured && ((s->on && s->was_on) || (s->rate <= 0 && s->count > s->prev))) {
			s->rate = (double)(s->count - s->prev) * 1e9 / (double)dt;
			if (free_dt > 0)
				s->free_rate = (double)(s->count - s->prev) * 1e9 / (double)free_dt;
			else if (s->free_rate < s->rate)
				s->free_rate = s->rate;
		}
		if (advance)
			s->was_on = s->on;
		predicted += (int64_t)((double)s->count * pair_ns(&r->cost, s));
		if (s->on)
			sites_frac += s->rate * pair_ns(&r->cost, s) * 1e-9;
		else
			static_frac += s->free_rate * off_ns(&r->cost, s) * 1e-9;
	}
	predicted += comm_cost(r);
	r->cost.predicted_ns = predicted;
	if (measured) {
		/* The sampler's handler runs outside the virtual clock's charges: its time
		 * comes with the samples. */
		c->sample_frac = sampled > c->last_sample
		                     ? (double)(sampled - c->last_sample) / (double)dt
		                     : 0;
		c->observed = (double)(r->cost.observed_ns - c->last_own) / (double)dt +
		              c->sample_frac;
		comm_frac = (double)(comm_cost(r) - c->last_comm) / (double)dt;
		c->predicted = sites_frac + comm_frac + c->sample_frac;
		c->static_frac = static_frac < 1 ? static_frac : 1;
		c->static_ns += c->static_frac * (double)dt;
		if (run->budget_pct > 0 && !t->final)
			regulate(run, t, sites_frac, comm_frac);
	}
	r->cost.static_ns = (int64_t)c->static_ns;
	if (advance) {
		c->last_end = r->end_ns;
		c->last_own = r->cost.observed_ns;
		c->last_comm = comm_cost(r);
		c->last_sample = sampled;
		c->have_last = 1;
	}
}
