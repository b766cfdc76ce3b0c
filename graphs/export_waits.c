/*
 * The export's tables of why tasks wait (pvmmon/waits.h), for a log with a whole trace
 * (empty otherwise): the causes, the wait states, the load balance per task, procedure
 * and call site, and the fix-gain curve of the largest causes; and for any log, the
 * online analysis's tables the tasks kept themselves (log 1.14).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export_sink.h"
#include "figures.h"
#include "pvmmon/errors.h"
#include "pvmmon/waits.h"

#define NCOLS(a) (sizeof(a) / sizeof((a)[0]))
/* The causes whose curve is exported: as many as the text report draws. */
#define CURVES 3

static export_cell cs(const char *s) { return (export_cell){s ? XC_STR : XC_NULL, s, 0, 0, 0}; }
static export_cell ci(int64_t i) { return (export_cell){XC_INT, NULL, i, 0, 0}; }
static export_cell cu(uint64_t u) { return (export_cell){XC_UINT, NULL, 0, u, 0}; }
static export_cell cd(double d) { return (export_cell){XC_REAL, NULL, 0, 0, d}; }

static int traced(const pvmmon_log *log) { return log->trace.enabled && !log->trace.dropped; }

/* Why tasks wait (pvmmon/waits.h), for a log with a whole trace; empty otherwise. */
static int waits_tables(const pvmmon_log *log, const pvmmon_waits *w, export_sink *k)
{
	static const export_col causes[] = {
	    {"task", XC_STR},         {"cause", XC_STR},          {"direct_ns", XC_INT},
	    {"propagated_ns", XC_INT}, {"share_of_waiting", XC_REAL},
	};
	static const export_col states[] = {
	    {"task", XC_STR},    {"statement", XC_STR}, {"from", XC_STR},
	    {"kind", XC_STR},    {"wait_ns", XC_INT},   {"indirect", XC_INT},
	};
	char name[600], where[512];
	int rc;

	rc = k->begin(k, "wait_causes", causes, NCOLS(causes));
	for (size_t i = 0; rc == 0 && w && i < w->ncauses; i++) {
		const pvmmon_wait_cause *c = &w->causes[i];
		const char *sp;

		pvmmon_waits_cause_name(name, sizeof(name), log, c);
		sp = strchr(name, ' ');
		export_cell r[] = {cs(log->tasks[c->task].lid), cs(sp ? sp + 1 : name),
		                   ci(c->short_ns), ci(c->long_ns),
		                   cd(w->total_wait_ns > 0 ? (double)(c->short_ns + c->long_ns) /
		                                                 (double)w->total_wait_ns
		                                           : 0)};

		rc = k->row(k, r);
	}
	rc = rc ? rc : k->end(k);
	rc = rc ? rc : k->begin(k, "wait_states", states, NCOLS(states));
	for (size_t i = 0; rc == 0 && w && i < w->nstates; i++) {
		const pvmmon_wait_state *st = &w->states[i];
		const pvmmon_log_task *t = &log->tasks[st->task];
		const pvmmon_log_stmt *at = graphs__stmt_of(t, t->events[st->event].stmt);
		const char *place = at ? graphs__stmt_name(where, sizeof(where), t, at) : "?";
		export_cell r[] = {cs(t->lid), cs(place), cs(log->tasks[st->from].lid),
		                   cs(st->kind == PVMMON_WAIT_WRONG_ORDER  ? "wrong-order"
		                      : st->kind == PVMMON_WAIT_BARRIER    ? "barrier"
		                      : st->kind == PVMMON_WAIT_COLLECTIVE ? "collective"
		                      : st->kind == PVMMON_WAIT_POLL       ? "poll"
		                      : st->kind == PVMMON_WAIT_ENDED      ? "ended"
		                                                           : "late-sender"),
		                   ci(st->wait_ns), ci(st->indirect)};

		rc = k->row(k, r);
	}
	return rc ? rc : k->end(k);
}

/* Load balance (pvmmon_waits_balance): a row per task, then per procedure and call site. */
static int balance_table(const pvmmon_log *log, export_sink *k)
{
	static const export_col cols[] = {
	    {"kind", XC_STR},   {"name", XC_STR},   {"tasks", XC_INT},        {"min_ns", XC_INT},
	    {"avg_ns", XC_INT}, {"max_ns", XC_INT}, {"load_balance", XC_REAL},
	};
	pvmmon_wait_balance *v = NULL;
	size_t n = 0;
	char name[600];
	int rc;

	if (traced(log) && pvmmon_waits_balance(&v, &n, log) < 0)
		n = 0;
	rc = k->begin(k, "load_balance", cols, NCOLS(cols));
	for (size_t i = 0; rc == 0 && i < n; i++) {
		const pvmmon_wait_balance *b = &v[i];

		pvmmon_waits_balance_name(name, sizeof(name), log, b);
		export_cell r[] = {cs(b->proc == PVMMON_WAIT_ALL_COMPUTATION ? "task"
		                      : b->proc >= 0                      ? "procedure"
		                                                          : "segment"),
		                   cs(name),
		                   ci((int64_t)b->ntasks),
		                   ci(b->min_ns),
		                   ci(b->avg_ns),
		                   ci(b->max_ns),
		                   cd(b->load_balance)};

		rc = k->row(k, r);
	}
	free(v);
	return rc ? rc : k->end(k);
}

/* What a fix would gain (pvmmon_waits_curve): the run's predicted length with each of the
 * largest causes 0, 10, ..., 100% faster, on the measured network. */
static int curve_table(const pvmmon_log *log, const pvmmon_waits *w, export_sink *k)
{
	static const export_col cols[] = {
	    {"task", XC_STR}, {"cause", XC_STR}, {"faster_pct", XC_INT}, {"run_ns", XC_INT},
	};
	char name[600];
	int rc;

	rc = k->begin(k, "wait_curve", cols, NCOLS(cols));
	for (size_t i = 0; rc == 0 && w && i < w->ncauses && i < CURVES; i++) {
		const pvmmon_wait_cause *c = &w->causes[i];
		int64_t ns[PVMMON_WAITS_CURVE];
		const char *sp;

		if (c->short_ns + c->long_ns <= 0 || pvmmon_waits_curve(ns, log, c, -1, 0) < 0)
			break;
		pvmmon_waits_cause_name(name, sizeof(name), log, c);
		sp = strchr(name, ' ');
		for (int p = 0; rc == 0 && p < PVMMON_WAITS_CURVE; p++) {
			export_cell r[] = {cs(log->tasks[c->task].lid), cs(sp ? sp + 1 : name),
			                   ci(10 * p), ci(ns[p])};

			rc = k->row(k, r);
		}
	}
	return rc ? rc : k->end(k);
}

/* Where the computation before task t's statement stmt ends: the statement's file:line
 * (its own, else its static table's entry), "" when the log does not say. */
static const char *site(char *buf, size_t len, const pvmmon_log_task *t, uint32_t stmt)
{
	const pvmmon_log_stmt *s = t ? graphs__stmt_of(t, stmt) : NULL;
	long e = s && !s->file ? graphs__stmt_static(t, s, NULL) : -1;

	if (s && s->file)
		snprintf(buf, len, "%s:%d", s->file, (int)s->line);
	else if (e >= 0 && t->statics[e].file)
		snprintf(buf, len, "%s:%d", t->statics[e].file, (int)t->statics[e].line);
	else
		return "";
	return buf;
}

/* The online wait analysis's tables (log 1.14), whether or not the run was traced: a row
 * per waiting task and computation, in the log's order. */
static int online_table(const pvmmon_log *log, export_sink *k)
{
	static const export_col cols[] = {
	    {"task", XC_STR},       {"cause_task", XC_STR}, {"cause_stmt", XC_UINT},
	    {"cause_site", XC_STR}, {"short_ns", XC_INT},   {"long_ns", XC_INT},
	    {"waits", XC_UINT},
	};
	char who[32], where[512];
	int rc = k->begin(k, "online_waits", cols, NCOLS(cols));

	for (size_t i = 0; rc == 0 && i < log->ntasks; i++)
		for (size_t j = 0; rc == 0 && j < log->tasks[i].nblames; j++) {
			const pvmmon_log_blame *b = &log->tasks[i].blames[j];
			const pvmmon_log_task *c = graphs__task_by_tid(log, b->tid);

			snprintf(who, sizeof(who), "t%x", (unsigned)b->tid);
			export_cell r[] = {
			    cs(log->tasks[i].lid), cs(c && c->lid ? c->lid : who),
			    cu(b->stmt),           cs(site(where, sizeof(where), c, b->stmt)),
			    ci(b->short_ns),       ci(b->long_ns),
			    cu(b->waits)};

			rc = k->row(k, r);
		}
	return rc ? rc : k->end(k);
}

int graphs__export_waits(const pvmmon_log *log, export_sink *sink)
{
	pvmmon_waits *w = NULL;
	int rc;

	/* One analysis for the tables that need it; none without a whole trace. */
	if (traced(log) && pvmmon_waits_compute(&w, log) < 0)
		w = NULL;
	rc = waits_tables(log, w, sink);
	rc = rc ? rc : balance_table(log, sink);
	rc = rc ? rc : curve_table(log, w, sink);
	rc = rc ? rc : online_table(log, sink);
	pvmmon_waits_free(w);
	return rc;
}
