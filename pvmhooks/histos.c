/*
 * The task's time histograms (pvmhooks/histos.h; doc/architecture.md, "Time
 * histograms"): updated only where the runtime already stops (a wrapped call's end,
 * the periodic poll of calls and probe ticks, a flush), never on a timer, on the
 * task's virtual time from its start (the monitor places them on the run's axis).
 */
#include <stdlib.h>
#include <string.h>

#include "../common/histo.h"
#include "histos.h"
#include "pvmmon/errors.h"
#include "records.h"

/* Task-focus histograms at most (the eight defaults and the ones asked for). */
#define MAX_SERIES 32
/* Statements, procedures and loops followed at most (each two histograms). */
#define MAX_ENTITIES 256
/* A record's entry in the maps when it has no entity because all are taken. */
#define NO_ENTITY ((size_t)-1)

/* One task-focus histogram: a metric from `from` (task axis) to `to` (-1: on). */
typedef struct series {
	pvmmon_hist_metric metric;
	const char *requested; /* NULL (default), "run" or "ctl" */
	int64_t from, to;
	histo h;
} series;

/* A statement, procedure or loop: its time and calls so far (cur), at the last sweep
 * (last), and per bucket. A procedure's records (one per caller) share one. */
typedef struct entity {
	pvmmon_hist_focus focus;
	char *name; /* procedures and loops */
	uint32_t stmt;
	int64_t cur_time, last_time;
	uint64_t cur_count, last_count;
	histo time, calls;
} entity;

static struct {
	int on, defaults;
	uint32_t cap, hottest;
	int64_t width0;
	int64_t last_v;   /* the task axis is accounted up to here */
	int64_t last_own; /* the monitoring time (L) at the last update */
	uint64_t sent, bsent, recv, brecv;
	int64_t pending_sync; /* waits of inner calls, for the group call around them */
	int64_t sweep_v, next_sweep, sweep_width;
	/* Bit (metric == PVMMON_HIST_CALLS) * 8 + focus: that metric of every entity of
	 * the focus was asked for (run). */
	unsigned all_foci;
	series s[MAX_SERIES];
	int ns;
	/* The series of each metric (indices into s), so that a call feeds only them. */
	int of[PVMMON_HIST_LAST + 1][MAX_SERIES];
	int nof[PVMMON_HIST_LAST + 1];
	entity *e;
	size_t ne, ecap;
	/* Record index (statement id) -> entity + 1 (0: none yet), per focus. */
	size_t *map[3];
	size_t nmap[3];
	/* The calls' fast path: [win_lo, win_hi) lies within the bucket every series adds
	 * to next (and within the times it collects over), so what a call adds there
	 * waits in pend, per metric, until something else reaches the series. */
	int64_t win_lo, win_hi;
	int64_t pend[PVMMON_HIST_LAST + 1];
} hs;

static void add_series(pvmmon_hist_metric m, const char *requested, int64_t from)
{
	series *s = &hs.s[hs.ns];

	if (hs.ns == MAX_SERIES || histo__init(&s->h, hs.cap, hs.width0, 0) < 0)
		return;
	s->metric = m;
	s->requested = requested;
	s->from = from;
	s->to = -1;
	hs.of[m][hs.nof[m]++] = hs.ns;
	hs.ns++;
}

/* Whether a series of m asked for by requested still collects (a second request for
 * it changes nothing). */
static int collecting(pvmmon_hist_metric m, const char *requested)
{
	for (int k = 0; k < hs.nof[m]; k++) {
		const series *s = &hs.s[hs.of[m][k]];

		if (s->to < 0 && s->requested && !strcmp(s->requested, requested))
			return 1;
	}
	return 0;
}

/* The series of a list of METRIC:FOCUS (checked by the monitor; bad items are skipped):
 * task metrics get a series of their own unless a default covers them; the others
 * ask for every entity of their focus. */
static void add_list(const char *list, const char *requested, int64_t from)
{
	pvmmon_hist_metric m;
	pvmmon_hist_focus f;

	for (const char *p = list; p && *p;) {
		size_t len = strcspn(p, ",");

		if (histo__spec_parse(&m, &f, p, len) == 0) {
			if (!histo__task_metric(m))
				hs.all_foci |= requested[0] == 'r'
				                   ? 1u << ((m == PVMMON_HIST_CALLS) * 8 + f)
				                   : 0;
			else if ((!hs.defaults || requested[0] == 'c') && !collecting(m, requested))
				add_series(m, requested, from);
		}
		p += len;
		p += *p == ',';
	}
}

/* Frees what an earlier welcome set up (tests welcome a task more than once). */
static void release(void)
{
	for (int i = 0; i < hs.ns; i++)
		histo__free(&hs.s[i].h);
	for (size_t i = 0; i < hs.ne; i++) {
		free(hs.e[i].name);
		histo__free(&hs.e[i].time);
		histo__free(&hs.e[i].calls);
	}
	free(hs.e);
	for (int k = 0; k < 3; k++)
		free(hs.map[k]);
	memset(&hs, 0, sizeof(hs));
}

void histos__welcome(uint32_t buckets, int64_t width, uint32_t hottest, int defaults,
                     const char *run, const char *ctl)
{
	const hooks_counts *n = hooks__counts();

	release();
	/* Messages are counted from here (none come before the welcome: registration is
	 * the first call); the monitoring time from the task's start, registration in. */
	hs.sent = n->msgs_sent;
	hs.bsent = n->bytes_sent;
	hs.recv = n->msgs_recv;
	hs.brecv = n->bytes_recv;
	if (buckets < 2 || width <= 0)
		return;
	hs.on = 1;
	hs.cap = buckets;
	hs.width0 = hs.sweep_width = hs.next_sweep = width;
	hs.hottest = defaults ? hottest : 0;
	hs.defaults = defaults;
	if (defaults)
		for (int m = PVMMON_HIST_COMPUTE; m <= PVMMON_HIST_BYTES_RECV; m++)
			add_series((pvmmon_hist_metric)m, NULL, 0);
	add_list(run, "run", 0);
	/* Switched on before this task began: it collects from its start. */
	add_list(ctl, "ctl", 0);
}

/* Adds what calls left waiting to each series' bucket (the window's, which every
 * series still adds to) and closes the window: anything that reaches the series
 * otherwise comes after this. */
static void pend_flush(void)
{
	for (int m = 0; m <= PVMMON_HIST_LAST; m++) {
		if (!hs.pend[m])
			continue;
		for (int k = 0; k < hs.nof[m]; k++) {
			histo *h = &hs.s[hs.of[m][k]].h;

			h->v[h->last] += hs.pend[m];
			if (h->last + 1 > h->used)
				h->used = h->last + 1;
		}
		hs.pend[m] = 0;
	}
	hs.win_lo = hs.win_hi = 0;
}

/* Opens the window at the task axis' time t: the span every series' next bucket
 * shares (a series that last added elsewhere takes t's bucket when the axis holds it)
 * within the times they collect over; empty when there is none. */
static void window_open(int64_t t)
{
	int64_t lo = INT64_MIN, hi = INT64_MAX;

	for (int i = 0; i < hs.ns && lo < hi; i++) {
		series *s = &hs.s[i];
		histo *h = &s->h;

		if ((t < h->lo || t >= h->hi) && !histo__locate(h, t)) {
			hi = lo;
			break;
		}
		lo = h->lo > lo ? h->lo : lo;
		lo = s->from > lo ? s->from : lo;
		hi = h->hi < hi ? h->hi : hi;
		if (s->to >= 0 && s->to < hi)
			hi = s->to;
	}
	hs.win_lo = lo;
	hs.win_hi = hi;
}

/* Adds [t0, t1) of metric m's time (v is its length), or a count v at t1 when
 * t0 == t1, to the series of m, each clipped to the interval it collects over. */
static void feed(pvmmon_hist_metric m, int64_t t0, int64_t t1, int64_t v)
{
	if (v == 0)
		return;
	for (int k = 0; k < hs.nof[m]; k++) {
		series *s = &hs.s[hs.of[m][k]];
		int64_t a = t0 > s->from ? t0 : s->from;
		int64_t b = s->to >= 0 && t1 > s->to ? s->to : t1;

		/* Most go into the bucket the series' last one went to: inline. */
		if (t0 == t1) {
			if (t1 >= s->from && (s->to < 0 || t1 < s->to) &&
			    !histo__put_cached(&s->h, t1, t1, v))
				histo__add_point(&s->h, t1, v);
		} else if (b > a && !histo__put_cached(&s->h, a, b - 1, b - a)) {
			histo__add_interval(&s->h, a, b, b - a);
		}
	}
}

/* Accounts the task's time up to t (its axis) as computing, and the messages and
 * monitoring time since the last update at t. */
static void account_to(int64_t t)
{
	const hooks_counts *n = hooks__counts();
	int64_t own = vclock__own(hooks__clock());

	pend_flush();
	if (t > hs.last_v) {
		feed(PVMMON_HIST_COMPUTE, hs.last_v, t, t - hs.last_v);
		hs.last_v = t;
	}
	feed(PVMMON_HIST_OVERHEAD, hs.last_v, hs.last_v, own - hs.last_own);
	feed(PVMMON_HIST_MSGS_SENT, hs.last_v, hs.last_v, (int64_t)(n->msgs_sent - hs.sent));
	feed(PVMMON_HIST_BYTES_SENT, hs.last_v, hs.last_v, (int64_t)(n->bytes_sent - hs.bsent));
	feed(PVMMON_HIST_MSGS_RECV, hs.last_v, hs.last_v, (int64_t)(n->msgs_recv - hs.recv));
	feed(PVMMON_HIST_BYTES_RECV, hs.last_v, hs.last_v, (int64_t)(n->bytes_recv - hs.brecv));
	hs.last_own = own;
	hs.sent = n->msgs_sent;
	hs.bsent = n->bytes_sent;
	hs.recv = n->msgs_recv;
	hs.brecv = n->bytes_recv;
}

static void call_entities(const hooks_call *call, int64_t v0, int64_t v);

/* A call whose time on the task axis, from the last one's end (last) to its own end
 * (end), lies within the window: the same sums as account_to and feed would add, kept
 * in pend. */
static void call_fast(const hooks_call *call, int64_t v0, int64_t v)
{
	const hooks_counts *n = hooks__counts();
	int64_t own = vclock__own(hooks__clock()), wait;

	if (v0 > hs.last_v)
		hs.pend[PVMMON_HIST_COMPUTE] += v0 - hs.last_v;
	else
		v0 = hs.last_v;
	if (v < v0)
		v = v0;
	hs.pend[PVMMON_HIST_OVERHEAD] += own - hs.last_own;
	hs.pend[PVMMON_HIST_MSGS_SENT] += (int64_t)(n->msgs_sent - hs.sent);
	hs.pend[PVMMON_HIST_BYTES_SENT] += (int64_t)(n->bytes_sent - hs.bsent);
	hs.pend[PVMMON_HIST_MSGS_RECV] += (int64_t)(n->msgs_recv - hs.recv);
	hs.pend[PVMMON_HIST_BYTES_RECV] += (int64_t)(n->bytes_recv - hs.brecv);
	hs.last_own = own;
	hs.sent = n->msgs_sent;
	hs.bsent = n->bytes_sent;
	hs.recv = n->msgs_recv;
	hs.brecv = n->bytes_recv;
	wait = call->sync + hs.pending_sync;
	hs.pending_sync = 0;
	if (wait > v - v0)
		wait = v - v0;
	hs.pend[PVMMON_HIST_WAIT] += wait;
	hs.pend[PVMMON_HIST_PVM] += v - v0 - wait;
	hs.last_v = v;
	if (hs.hottest || hs.all_foci)
		call_entities(call, v0, v);
}

void histos__call_end(hooks_call *call, int64_t now)
{
	int64_t start, v0, v, wait, first;

	if (!hs.on)
		return;
	/* A call inside a group call is part of it: its wait goes to the group call. */
	if (call->inner) {
		hs.pending_sync += call->sync;
		return;
	}
	start = hooks__start();
	v0 = call->v0 - start;
	v = vclock__virtual(hooks__clock(), now) - start;
	/* Most calls begin and end in the bucket the last one ended in. */
	first = v0 > hs.last_v ? v0 : hs.last_v;
	if (hs.last_v >= hs.win_lo && first < hs.win_hi && v < hs.win_hi) {
		call_fast(call, v0, v);
		return;
	}
	account_to(v0);
	v0 = hs.last_v;
	if (v < v0)
		v = v0;
	wait = call->sync + hs.pending_sync;
	hs.pending_sync = 0;
	if (wait > v - v0)
		wait = v - v0;
	feed(PVMMON_HIST_WAIT, v0, v0 + wait, wait);
	feed(PVMMON_HIST_PVM, v0 + wait, v, v - v0 - wait);
	hs.last_v = v;
	account_to(v);
	window_open(v);
	if (hs.hottest || hs.all_foci)
		call_entities(call, v0, v);
}

/* The entity of (focus, name or stmt), made on first use (NULL when full). */
static entity *entity_new(pvmmon_hist_focus f, const char *name, uint32_t stmt)
{
	entity *e;

	if (hs.ne == MAX_ENTITIES || hooks__ensure((void **)&hs.e, &hs.ecap, hs.ne + 1, sizeof(*e)))
		return NULL;
	e = &hs.e[hs.ne];
	memset(e, 0, sizeof(*e));
	e->focus = f;
	e->stmt = stmt;
	e->name = name ? strdup(name) : NULL;
	if ((name && !e->name) || histo__init(&e->time, hs.cap, hs.width0, 0) < 0 ||
	    histo__init(&e->calls, hs.cap, hs.width0, 0) < 0) {
		histo__free(&e->time);
		free(e->name);
		return NULL;
	}
	hs.ne++;
	return e;
}

/* The entity of a statement (kind 0, by id), a proc record (1) or a loop record (2):
 * one per procedure name (its records per caller share it), one per loop record. */
static entity *record_entity(int kind, size_t rec)
{
	static const pvmmon_hist_focus foci[3] = {PVMMON_FOCUS_STMT, PVMMON_FOCUS_PROC,
	                                          PVMMON_FOCUS_LOOP};
	const pvmmon_log_task *t = hooks__records_view();
	const char *name = kind == 1 ? t->procs[rec].name : kind == 2 ? t->loops[rec].name : NULL;
	entity *e = NULL;

	if (hooks__ensure((void **)&hs.map[kind], &hs.nmap[kind], rec + 1, sizeof(size_t)))
		return NULL;
	if (hs.map[kind][rec] == NO_ENTITY)
		return NULL;
	if (hs.map[kind][rec])
		return &hs.e[hs.map[kind][rec] - 1];
	for (size_t i = 0; kind == 1 && i < hs.ne && !e; i++)
		if (hs.e[i].focus == PVMMON_FOCUS_PROC && !strcmp(hs.e[i].name, name ? name : "?"))
			e = &hs.e[i];
	if (!e)
		e = entity_new(foci[kind], name ? name : kind ? "?" : NULL, (uint32_t)rec);
	if (e)
		hs.map[kind][rec] = (size_t)(e - hs.e) + 1;
	else if (hs.ne == MAX_ENTITIES)
		/* Full for good (entities go only at a reset): the record is not searched
		 * for again at every sweep (SQLite's 2,200 proc records against 256
		 * entities made that search 3 to 5% of a monitored run, issue 41). */
		hs.map[kind][rec] = NO_ENTITY;
	return e;
}

static void add_running(int loop, size_t rec, int64_t time, uint64_t count, void *arg)
{
	entity *e = record_entity(loop ? 2 : 1, rec);

	(void)arg;
	if (e) {
		e->cur_time += time;
		e->cur_count += count;
	}
}

/* Adds what each statement, procedure and loop did since the last sweep, spread over
 * the time between (at most about a bucket: sweeps come once a bucket at the first
 * call or probe tick after its end, and at every flush). */
static void sweep(int64_t t)
{
	const pvmmon_log_task *rec = hooks__records_view();

	for (size_t i = 0; i < hs.ne; i++)
		if (hs.e[i].focus != PVMMON_FOCUS_STMT)
			hs.e[i].cur_time = 0, hs.e[i].cur_count = 0;
	hooks__records_running(t + hooks__start(), add_running, NULL);
	for (size_t i = 0; i < rec->nstmts; i++) {
		const pvmmon_log_stmt *st = &rec->stmts[i];
		entity *e = st->count ? record_entity(0, st->id) : NULL;

		if (e)
			e->cur_time = st->time_ns, e->cur_count = st->count;
	}
	for (size_t i = 0; i < hs.ne; i++) {
		entity *e = &hs.e[i];
		int64_t dt = e->cur_time - e->last_time;
		int64_t dc = (int64_t)(e->cur_count - e->last_count);

		/* An open activation's time so far can run ahead of what its exit adds (the
		 * exit's stamp): the difference waits for the next sweep. */
		if (dt > 0) {
			histo__add_interval(&e->time, hs.sweep_v, t, dt);
			e->last_time = e->cur_time;
		}
		if (dc > 0) {
			histo__add_interval(&e->calls, hs.sweep_v, t, dc);
			e->last_count = e->cur_count;
		}
	}
	hs.sweep_v = t;
	while (t >= (int64_t)hs.cap * hs.sweep_width)
		hs.sweep_width *= 2;
	hs.next_sweep = t + hs.sweep_width;
}

/* A call's statement gets the call's time in [v0, v) and its count at v, exactly; the
 * others, the procedures and the loops are swept as of the call's start when a sweep
 * is due there (nothing of theirs changes inside a PVM call), so that a long receive
 * does not spread what came before it over its wait. */
static void call_entities(const hooks_call *call, int64_t v0, int64_t v)
{
	const pvmmon_log_task *rec = hooks__records_view();
	int64_t id = hooks__records_stmt_id(call->site);
	entity *e = NULL;

	if (id >= 0 && (size_t)id < rec->nstmts && rec->stmts[id].count)
		e = record_entity(0, (size_t)id);
	if (e) {
		const pvmmon_log_stmt *st = &rec->stmts[id];
		int64_t dt = st->time_ns - e->last_time;
		int64_t dc = (int64_t)(st->count - e->last_count);

		if (dt > 0) {
			histo__add_interval(&e->time, v0, v, dt);
			e->last_time = st->time_ns;
		}
		if (dc > 0) {
			histo__add_point(&e->calls, v, dc);
			e->last_count = st->count;
		}
	}
	if (v0 >= hs.next_sweep)
		sweep(v0);
}

void histos__poll(int64_t now)
{
	int64_t t;

	/* Without statement, procedure or loop histograms there is nothing to sweep. */
	if (!hs.on || (!hs.hottest && !hs.all_foci))
		return;
	t = vclock__virtual(hooks__clock(), now) - hooks__start();
	if (t >= hs.next_sweep)
		sweep(t);
}

int histos__control(const wire_ctl *c, int64_t v)
{
	pvmmon_hist_metric m;
	pvmmon_hist_focus f;
	int64_t t = v - hooks__start();

	if (c->cmd != WIRE_CTL_HIST_ON && c->cmd != WIRE_CTL_HIST_OFF)
		return 0;
	if (!hs.on || !c->procs)
		return 1;
	/* The counts so far go before the command; the time since the last call is
	 * accounted at the call's end, which knows what it was (a command taken inside a
	 * long receive comes in the middle of a wait). */
	account_to(hs.last_v);
	if (c->cmd == WIRE_CTL_HIST_ON) {
		add_list(c->procs, "ctl", t < 0 ? 0 : t);
		return 1;
	}
	for (const char *p = c->procs; *p;) {
		size_t len = strcspn(p, ",");

		if (histo__spec_parse(&m, &f, p, len) == 0)
			for (int i = 0; i < hs.ns; i++)
				if (hs.s[i].metric == m && hs.s[i].requested &&
				    hs.s[i].requested[0] == 'c' && hs.s[i].to < 0)
					hs.s[i].to = t < hs.s[i].from ? hs.s[i].from : t;
		p += len;
		p += *p == ',';
	}
	return 1;
}

/* Entity indices by time, the hottest first. */
static int hotter(const void *a, const void *b)
{
	int64_t x = hs.e[*(const size_t *)a].last_time, y = hs.e[*(const size_t *)b].last_time;

	return x < y ? 1 : x > y ? -1 : 0;
}

/* Appends a histogram of h to the n in hists (the task's records' next ones). */
static void put_hist(pvmmon_log_hist *hists, size_t *n, const histo *h, pvmmon_hist_metric m,
                     pvmmon_hist_focus f, const entity *e, int64_t from, int64_t to,
                     const char *requested)
{
	pvmmon_log_hist *l = &hists[*n];

	memset(l, 0, sizeof(*l));
	if (histo__to_log(l, h) < 0)
		return;
	l->metric = m;
	l->focus = f;
	l->axis = PVMMON_AXIS_VIRTUAL;
	l->name = e && e->name ? strdup(e->name) : NULL;
	l->stmt = e ? e->stmt : 0;
	l->from_ns = from;
	l->to_ns = to;
	l->requested = requested ? strdup(requested) : NULL;
	++*n;
}

/* The hottest entities of focus f (and every one when asked for). */
static void put_entities(pvmmon_log_hist *hists, size_t *nhists, pvmmon_hist_focus f, size_t *idx)
{
	size_t n = 0, keep = hs.hottest;
	int all_time = (hs.all_foci >> f) & 1, all_calls = (hs.all_foci >> (8 + f)) & 1;

	for (size_t i = 0; i < hs.ne; i++)
		if (hs.e[i].focus == f && (hs.e[i].last_time || hs.e[i].last_count))
			idx[n++] = i;
	qsort(idx, n, sizeof(*idx), hotter);
	for (size_t i = 0; i < n && (i < keep || all_time || all_calls); i++) {
		const entity *e = &hs.e[idx[i]];

		if (i < keep || all_time)
			put_hist(hists, nhists, &e->time, PVMMON_HIST_TIME, f, e, 0, -1,
			         i < keep ? NULL : "run");
		if (i < keep || all_calls)
			put_hist(hists, nhists, &e->calls, PVMMON_HIST_CALLS, f, e, 0, -1,
			         i < keep ? NULL : "run");
	}
}

int histos__flush(int final, int64_t now)
{
	pvmmon_log_hist *hists;
	size_t *idx, nhists = 0;
	int64_t t;

	(void) final;
	if (!hs.on)
		return 0;
	t = vclock__stamp(hooks__clock(), now) - hooks__start();
	account_to(t);
	if (t > hs.sweep_v)
		sweep(t);
	/* Every histogram of the task covers its time so far with one width: a series
	 * that had nothing to add lately has the others' width all the same. */
	for (int i = 0; i < hs.ns; i++)
		histo__fit(&hs.s[i].h, t);
	for (size_t i = 0; i < hs.ne; i++) {
		histo__fit(&hs.e[i].time, t);
		histo__fit(&hs.e[i].calls, t);
	}
	/* The records own the histograms: they get the new set (none when memory is
	 * short) in place of the last flush's. */
	hists = calloc((size_t)hs.ns + 2 * hs.ne + 1, sizeof(*hists));
	idx = malloc((hs.ne + 1) * sizeof(*idx));
	if (!hists || !idx) {
		free(hists);
		free(idx);
		hooks__records_set_hists(NULL, 0);
		return pvmmon_error_set(PVMMON_ENOMEM, NULL);
	}
	for (int i = 0; i < hs.ns; i++)
		put_hist(hists, &nhists, &hs.s[i].h, hs.s[i].metric, PVMMON_FOCUS_TASK, NULL,
		         hs.s[i].from, hs.s[i].to, hs.s[i].requested);
	put_entities(hists, &nhists, PVMMON_FOCUS_STMT, idx);
	put_entities(hists, &nhists, PVMMON_FOCUS_PROC, idx);
	put_entities(hists, &nhists, PVMMON_FOCUS_LOOP, idx);
	free(idx);
	hooks__records_set_hists(hists, nhists);
	return 0;
}
