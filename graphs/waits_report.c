/*
 * The "Why tasks wait" section of the text and HTML reports: the run's waiting by kind, the
 * computations that caused it (largest first, direct and propagated, with the run's
 * length predicted if each were half as long or gone), the waits themselves by
 * statement, and the run's efficiency; without a usable trace, the online analysis's
 * section instead (graphs/waits_online.c).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figures.h"
#include "pvmmon/errors.h"
#include "pvmmon/waits.h"
#include "waits_model.h"

/* The causes and wait statements shown. */
#define WAITS_SHOWN 8

static double pct(int64_t part, int64_t whole)
{
	return whole > 0 ? 100.0 * (double)part / (double)whole : 0.0;
}

static void causes(const pvmmon_log *log, const pvmmon_waits *w, FILE *out)
{
	char name[600], a[32], b[32], c[32], d[32];
	/* One model for every cause's two replays (pvmmon_waits_predict builds its own). */
	wm_model m;
	int have = waits__model(&m, log) == 0;

	fprintf(out, "  %-44s %10s %10s %6s %22s\n", "caused by (task, computation)", "direct",
	        "propagated", "share", "run if -50% / gone");
	for (size_t i = 0; i < w->ncauses && i < WAITS_SHOWN; i++) {
		const pvmmon_wait_cause *x = &w->causes[i];
		int64_t half = 0, gone = 0;

		if (x->short_ns + x->long_ns <= 0)
			break;
		pvmmon_waits_cause_name(name, sizeof(name), log, x);
		if (have) {
			waits__replay(&half, NULL, &m, 0, x, 50);
			waits__replay(&gone, NULL, &m, 0, x, 100);
		}
		fprintf(out, "  %-44s %10s %10s %5.1f%% %10s / %9s\n", name,
		        graphs__fmt_time(a, sizeof(a), x->short_ns),
		        graphs__fmt_time(b, sizeof(b), x->long_ns),
		        pct(x->short_ns + x->long_ns, w->total_wait_ns),
		        graphs__fmt_time(c, sizeof(c), half), graphs__fmt_time(d, sizeof(d), gone));
	}
	if (have)
		waits__model_free(&m);
}

/* The waits summed by task and statement, largest first. */
typedef struct wsum {
	size_t task;
	uint32_t stmt;
	int64_t ns;
	size_t n, indirect, wrong, poll, ended;
	size_t late, barrier, late_n; /* at a barrier: the latecomer, and how often it was */
} wsum;

static int by_ns(const void *pa, const void *pb)
{
	const wsum *a = pa, *b = pb;

	return a->ns > b->ns ? -1 : a->ns < b->ns;
}

static void waits_by_stmt(const pvmmon_log *log, const pvmmon_waits *w, FILE *out)
{
	wsum *v = calloc(w->nstates + 1, sizeof(*v));
	size_t n = 0;
	char where[512], a[32];

	if (!v)
		return;
	for (size_t s = 0; s < w->nstates; s++) {
		const pvmmon_wait_state *st = &w->states[s];
		uint32_t stmt = log->tasks[st->task].events[st->event].stmt;
		size_t i;

		for (i = 0; i < n && !(v[i].task == st->task && v[i].stmt == stmt); i++)
			;
		if (i == n)
			v[n++] = (wsum){st->task, stmt, 0, 0, 0, 0, 0, 0, st->from, 0, 0};
		v[i].ns += st->wait_ns;
		v[i].n++;
		v[i].indirect += st->indirect != 0;
		v[i].wrong += st->kind == PVMMON_WAIT_WRONG_ORDER;
		v[i].poll += st->kind == PVMMON_WAIT_POLL;
		v[i].ended += st->kind == PVMMON_WAIT_ENDED;
		if (st->kind == PVMMON_WAIT_BARRIER) {
			v[i].barrier++;
			v[i].late_n += st->from == v[i].late;
		}
	}
	qsort(v, n, sizeof(*v), by_ns);
	fprintf(out, "  %-47s %10s\n", "waits at (task, statement)", "waiting");
	for (size_t i = 0; i < n && i < WAITS_SHOWN; i++) {
		const pvmmon_log_task *t = &log->tasks[v[i].task];
		const pvmmon_log_stmt *st = graphs__stmt_of(t, v[i].stmt);
		const char *place = st ? graphs__stmt_name(where, sizeof(where), t, st) : "?";
		fprintf(out, "  %-6s %-40s %10s in %zu waits, %zu indirect%s", t->lid ? t->lid : "?",
		        place, graphs__fmt_time(a, sizeof(a), v[i].ns), v[i].n, v[i].indirect,
		        v[i].wrong ? ", some in the wrong order" : "");
		if (v[i].poll)
			fprintf(out, ", %zu polling", v[i].poll);
		if (v[i].ended)
			fprintf(out, ", %zu for ended tasks", v[i].ended);
		/* Each barrier wait's latecomer: one name when it was always the same. */
		if (v[i].barrier)
			fprintf(out, ", at barriers: latecomer %s in %zu of %zu",
			        log->tasks[v[i].late].lid ? log->tasks[v[i].late].lid : "?",
			        v[i].late_n, v[i].barrier);
		putc('\n', out);
	}
	free(v);
}

/* The load balance (pvmmon_waits_balance): the tasks' useful time in one line, then the
 * largest computations with their min, mean and max over the tasks that run them. */
static void balance(const pvmmon_log *log, FILE *out)
{
	pvmmon_wait_balance *v = NULL, *lo = NULL, *hi = NULL;
	size_t n = 0, ntasks = 0, shown = 0;
	int64_t sum = 0;
	char name[600], a[32], b[32], c[32];

	if (pvmmon_waits_balance(&v, &n, log) < 0)
		return;
	for (size_t i = 0; i < n && v[i].proc == PVMMON_WAIT_ALL_COMPUTATION; i++, ntasks++) {
		sum += v[i].max_ns;
		if (!lo || v[i].max_ns < lo->max_ns)
			lo = &v[i];
		if (!hi || v[i].max_ns > hi->max_ns)
			hi = &v[i];
	}
	if (lo && hi)
		fprintf(out, "  useful time by task: min %s (%s), avg %s, max %s (%s)\n",
		        graphs__fmt_time(a, sizeof(a), lo->max_ns), log->tasks[lo->task].lid,
		        graphs__fmt_time(b, sizeof(b), sum / (int64_t)ntasks),
		        graphs__fmt_time(c, sizeof(c), hi->max_ns), log->tasks[hi->task].lid);
	if (n > ntasks)
		fprintf(out, "  %-44s %5s %10s %10s %10s %6s\n",
		        "load balance by computation (over its tasks)", "tasks", "min", "avg", "max",
		        "LB");
	for (size_t i = ntasks; i < n && shown < WAITS_SHOWN; i++, shown++) {
		pvmmon_waits_balance_name(name, sizeof(name), log, &v[i]);
		fprintf(out, "  %-44s %5zu %10s %10s %10s %5.1f%%\n", name, v[i].ntasks,
		        graphs__fmt_time(a, sizeof(a), v[i].min_ns),
		        graphs__fmt_time(b, sizeof(b), v[i].avg_ns),
		        graphs__fmt_time(c, sizeof(c), v[i].max_ns), 100 * v[i].load_balance);
	}
	free(v);
}

/* Whether some task has the online analysis's table (log 1.14), and whether some task
 * has traced events. */
static int has_blames(const pvmmon_log *log)
{
	for (size_t i = 0; i < log->ntasks; i++)
		if (log->tasks[i].nblames)
			return 1;
	return 0;
}

static int has_events(const pvmmon_log *log)
{
	for (size_t i = 0; i < log->ntasks; i++)
		if (log->tasks[i].nevents)
			return 1;
	return 0;
}

int pvmmon_waits_report(const pvmmon_log *log, FILE *out)
{
	pvmmon_waits *w = NULL;
	char a[32], b[32], c[32], d[32];

	if (!log || !out)
		return pvmmon_error_set(PVMMON_EINVAL, "waits: no log or no output");
	/* PVMMON_NO_WAITS leaves the section out: the benchmark's baseline (bench section
	 * 27), and an escape for a trace too large to analyse in the time wanted. */
	if (getenv("PVMMON_NO_WAITS"))
		return 0;
	/* Without a usable trace the tasks' own tables say what they can (nothing when
	 * there are none); a trace that analyses wins, and the section says nothing of
	 * them then. */
	if (!log->trace.enabled || log->trace.dropped || (!has_events(log) && has_blames(log)))
		return pvmmon_waits_online_report(log, out);
	if (pvmmon_waits_compute(&w, log) < 0) {
		if (has_blames(log))
			return pvmmon_waits_online_report(log, out);
		fprintf(out, "Why tasks wait: not analysed (%s)\n\n", pvmmon_error_last());
		return 0;
	}
	fprintf(out, "Why tasks wait (from the trace, in virtual time)\n");
	fprintf(out, "  waiting %s in %zu receives: late sender %s, late sender in the wrong "
	             "order %s",
	        graphs__fmt_time(a, sizeof(a), w->total_wait_ns), w->nstates,
	        graphs__fmt_time(b, sizeof(b), w->late_sender_ns),
	        graphs__fmt_time(c, sizeof(c), w->wrong_order_ns));
	/* Group waits only where the run has them: other reports stay as they were. */
	if (w->barrier_ns || w->collective_ns)
		fprintf(out, ", at barriers %s, in collectives %s",
		        graphs__fmt_time(a, sizeof(a), w->barrier_ns),
		        graphs__fmt_time(b, sizeof(b), w->collective_ns));
	if (w->poll_ns || w->ended_ns)
		fprintf(out, ", polling %s, for ended tasks %s",
		        graphs__fmt_time(a, sizeof(a), w->poll_ns),
		        graphs__fmt_time(b, sizeof(b), w->ended_ns));
	putc('\n', out);
	if (w->ncauses) {
		size_t n = 0;

		causes(log, w, out);
		/* The curve of the (up to) three largest causes (graphs/waits_predict.c). */
		while (n < w->ncauses && n < 3 && w->causes[n].short_ns + w->causes[n].long_ns > 0)
			n++;
		if (n)
			pvmmon_waits_curve_table(log, w->causes, n, -1, 0, out);
	}
	waits_by_stmt(log, w, out);
	fprintf(out, "  efficiency: parallel %.1f%% = load balance %.1f%% x communication %.1f%% "
	             "(serialisation %.1f%% x transfer %.1f%%); run %s, with free messages %s, "
	             "useful max %s\n",
	        100 * w->parallel_efficiency, 100 * w->load_balance, 100 * w->comm_efficiency,
	        100 * w->serialisation, 100 * w->transfer,
	        graphs__fmt_time(a, sizeof(a), w->runtime_ns),
	        graphs__fmt_time(b, sizeof(b), w->ideal_ns),
	        graphs__fmt_time(d, sizeof(d), w->useful_max_ns));
	balance(log, out);
	putc('\n', out);
	pvmmon_waits_free(w);
	return 0;
}

void graphs__waits_html(const pvmmon_log *log, FILE *out)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	const char *p;

	if (!m)
		return;
	pvmmon_waits_report(log, m);
	fclose(m);
	if (text && *text) {
		fputs("<h2 id=why-wait>Why tasks wait</h2>\n<pre class=why>", out);
		/* The text's own first line is the heading's. */
		for (p = strchr(text, '\n') ? strchr(text, '\n') + 1 : text; *p; p++) {
			if (*p == '<')
				fputs("&lt;", out);
			else if (*p == '>')
				fputs("&gt;", out);
			else if (*p == '&')
				fputs("&amp;", out);
			else
				putc(*p, out);
		}
		fputs("</pre>\n", out);
	}
	free(text);
}
