/*
 * Issue 22's acceptance on a real run: apps/phases (compute, communicate, compute with one
 * slow task) under pvmmon. Its trace gives the truth (when the workers' ping-pong began
 * and ended); the text report, read as printed by `pvmmon report`, must find those two
 * boundaries within two buckets (more phases may be found: the tasks' start, the ragged
 * ends of the phases, the slow task alone), list the exchange's statements in the
 * exchange's phase
 * and the master's final receive in the last; the statements' time histograms (what the
 * HTML charts draw) hold time only in their phase; the HTML report, opened in headless
 * Chromium, draws the overview with one lane per task and the phases' lines, and the
 * charts, with no console message. `pvmmon top --once` on the running program draws a
 * task's sparkline from the histograms of the monitor's snapshot.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "harness.h"
#include "pvmmon/errors.h"
#include "pvmmon/log.h"
#include "report_check.h"
#include "test_histo.h"

/* apps/phases's tags. */
#define TAG_PING 81
#define TAG_PONG 82
#define TAG_DONE 83
#define TAG_READY 85
#define MAX_PHASES 8

/* What the trace says: the exchange from the first ping sent to the last pong received
 * (workers), the master's final receives, and the statements that made them. The
 * communication phase begins when the first worker ends its computing and says it is
 * ready (the others wait at the barrier from then on: their shares turn to waiting)
 * and its exchange begins when the last one's does; it ends between the first and the
 * last worker's last pong. */
typedef struct truth {
	int64_t ex0, ex1;            /* the exchange phase on the run's virtual axis */
	int64_t ready0;              /* the first worker's end of computing (its ready) */
	int64_t ex0_last, ex1_first; /* the last worker's start, the first worker's end */
	int64_t done0, done1;        /* the master's receives of the workers' last messages */
	int pong_line, done_line;
} truth;

static const pvmmon_log_stmt *stmt_of(const pvmmon_log_task *t, uint32_t id)
{
	for (size_t i = 0; i < t->nstmts; i++)
		if (t->stmts[i].id == id)
			return &t->stmts[i];
	return NULL;
}

static void find_truth(const pvmmon_log *log, truth *tr)
{
	*tr = (truth){INT64_MAX, 0, INT64_MAX, 0, INT64_MAX, INT64_MAX, 0, 0, 0};
	for (size_t i = 0; i < log->ntasks; i++) {
		const pvmmon_log_task *t = &log->tasks[i];
		int64_t first_ping = INT64_MAX, last_pong = 0;

		for (size_t k = 0; k < t->nevents; k++) {
			const pvmmon_log_event *e = &t->events[k];
			const pvmmon_log_stmt *s = stmt_of(t, e->stmt);

			if (e->op == PVMMON_EV_SEND && e->tag == TAG_READY && e->vt0 < tr->ready0)
				tr->ready0 = e->vt0;
			if (e->op == PVMMON_EV_SEND && e->tag == TAG_PING && e->vt0 < first_ping)
				first_ping = e->vt0;
			if (e->op == PVMMON_EV_RECV && e->tag == TAG_PONG) {
				if (e->vt1 > last_pong)
					last_pong = e->vt1;
				tr->pong_line = s ? s->line : 0;
			}
			if (e->op == PVMMON_EV_RECV && e->tag == TAG_DONE) {
				if (e->vt0 < tr->done0)
					tr->done0 = e->vt0;
				if (e->vt1 > tr->done1)
					tr->done1 = e->vt1;
				tr->done_line = s ? s->line : 0;
			}
		}
		if (!last_pong)
			continue;
		tr->ex0 = first_ping < tr->ex0 ? first_ping : tr->ex0;
		tr->ex0_last = first_ping > tr->ex0_last ? first_ping : tr->ex0_last;
		tr->ex1 = last_pong > tr->ex1 ? last_pong : tr->ex1;
		tr->ex1_first = last_pong < tr->ex1_first ? last_pong : tr->ex1_first;
	}
}

/* "30.00 ms" and the like, in ns; -1 when it is none. */
static int64_t parse_dur(const char *p)
{
	static const struct {
		const char *u;
		double f;
	} units[] = {{"ns", 1}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9}};
	double v;
	char u[4];

	if (sscanf(p, "%lf %3[a-z]", &v, u) != 2)
		return -1;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(u, units[i].u))
			return (int64_t)(v * units[i].f + 0.5);
	return -1;
}

/* The report's phases: their starts and ends, the bucket width, and where each phase's
 * text begins (its top statements follow). Returns how many. */
static size_t parse_phases(const char *text, int64_t *w, int64_t start[], int64_t end[],
                           const char *at[])
{
	const char *p = strstr(text, "\nPhases (");
	size_t n = 0;

	*w = p && strstr(p, "buckets of ") ? parse_dur(strstr(p, "buckets of ") + 11) : -1;
	while (p && n < MAX_PHASES) {
		char key[32];

		snprintf(key, sizeof(key), "\n  phase %zu: ", n + 1);
		p = strstr(p, key);
		if (!p)
			break;
		at[n] = p;
		p += strlen(key);
		start[n] = parse_dur(p);
		end[n] = strstr(p, " to ") ? parse_dur(strstr(p, " to ") + 4) : -1;
		n++;
	}
	return n;
}

/* Whether some boundary between found phases is within two buckets of an edge that the
 * workers crossed between times a and b (a ragged edge: the boundary of the shares may
 * fall anywhere between the first worker's crossing and the last one's). */
static int boundary_near(const int64_t start[], size_t n, int64_t w, int64_t a, int64_t b)
{
	for (size_t i = 1; i < n; i++)
		if (start[i] >= a - 2 * w && start[i] <= b + 2 * w)
			return 1;
	return 0;
}

/* Whether the top statements of the phase at[i] name file:line. */
static int phase_lists(const char *at[], size_t n, size_t i, int line)
{
	char key[64];
	const char *next = i + 1 < n ? at[i + 1] : at[i] + strlen(at[i]);
	const char *hit;

	snprintf(key, sizeof(key), "phases.c:%d in ", line);
	hit = strstr(at[i], key);
	return hit && hit < next;
}

/* The phase that holds time t; n when none. */
static size_t phase_at(const int64_t start[], const int64_t end[], size_t n, int64_t t)
{
	for (size_t i = 0; i < n; i++)
		if (t >= start[i] && t < end[i])
			return i;
	return n;
}

/* Whether every bucket of task t's time histogram of the statement at line with time
 * in it overlaps [a, b]; *total gets its time. */
static int stmt_time_within(const pvmmon_log_task *t, int line, int64_t a, int64_t b,
                            int64_t *total)
{
	int ok = 1;

	for (size_t i = 0; i < t->nhists; i++) {
		const pvmmon_log_hist *h = &t->hists[i];
		const pvmmon_log_stmt *s = stmt_of(t, h->stmt);

		if (h->focus != PVMMON_FOCUS_STMT || h->metric != PVMMON_HIST_TIME || !s ||
		    s->line != line)
			continue;
		for (size_t k = 0; k < h->nbuckets; k++) {
			int64_t lo = h->start_ns + (int64_t)k * h->width_ns;

			*total += h->values[k];
			if (h->values[k] && (lo + h->width_ns <= a || lo > b)) {
				fprintf(stderr,
				        "\nhisto_phases: task %s line %d: %lld ns in [%lld, %lld)"
				        " outside [%lld, %lld]\n",
				        t->lid, line, (long long)h->values[k], (long long)lo,
				        (long long)(lo + h->width_ns), (long long)a, (long long)b);
				ok = 0;
			}
		}
	}
	return ok;
}

/* A page that opens the report in a frame and writes what it drew: the overview's lanes,
 * its phase lines, and the charts with bars of some size. */
static const char phases_page[] =
    "<!DOCTYPE html><html><body><iframe id=f src=\"index.html\" "
    "style=\"width:1280px;height:1000px\"></iframe><script>"
    "window.addEventListener('load',function(){var d=document.getElementById('f')."
    "contentDocument;var tl=d.querySelector('svg.tl');"
    "var lanes=tl.querySelectorAll('g.task').length;"
    "var lines=tl.querySelectorAll('line.phase').length;"
    "var sp=Array.from(d.querySelectorAll('svg.spark')).filter(function(s){"
    "var q=s.querySelector('path').getBBox();return q.width>0&&q.height>0;}).length;"
    "var p=document.createElement('pre');p.textContent='PH '+lanes+' '+lines+' '+sp+' END';"
    "document.body.appendChild(p);});</script></body></html>\n";

/* The HTML report of the run in dir/rep, checked in headless Chromium: four lanes, a
 * line per boundary between nphases phases, charts drawn, no console message. */
static void check_html(const char *dir, size_t nphases)
{
	char rep[600];
	unsigned lanes = 0, lines = 0, sparks = 0;
	cmd_result r;
	const char *p;

	harness_sh(&r, 60, "cd '%s' && %s/pvmmon report p.xml -o rep", dir, harness_bin());
	CU_ASSERT_EQUAL_FATAL(r.status, 0);
	cmd_result_free(&r);
	snprintf(rep, sizeof(rep), "%s/rep", dir);
	CU_ASSERT_EQUAL_FATAL(report_write_file(rep, "ph.html", phases_page), 0);
	harness_sh(&r, 120,
	           CHROMIUM_RUN "--virtual-time-budget=10000 --dump-dom 'file://%s/ph.html'", dir,
	           rep);
	CU_ASSERT_EQUAL(r.status, 0);
	p = strstr(r.out, "<pre>PH ");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(sscanf(p, "<pre>PH %u %u %u END", &lanes, &lines, &sparks), 3);
	CU_ASSERT_EQUAL(lanes, 4);
	/* One line over every lane at each boundary. */
	CU_ASSERT_EQUAL(lines, nphases - 1);
	/* The workers' exchange statements and the master's receives at least. */
	CU_ASSERT(sparks >= 4);
	if (strstr(r.err, ":CONSOLE"))
		fprintf(stderr, "\n%s", r.err);
	CU_ASSERT_PTR_NULL(strstr(r.err, ":CONSOLE"));
	cmd_result_free(&r);
}

/*
 * Scale 20 with the default 10 ms buckets: 0.1 to 0.3 s of virtual time for phase 1,
 * 0.1 to 0.2 s for the exchange (1000 round trips a worker) and more for phase 3
 * (measured on this 2-CPU machine under load: the three workers share two CPUs, so
 * their phases stretch, and the barrier before the exchange keeps them together), so
 * each boundary is ten or more buckets from the next, far more than the two-bucket
 * tolerance. --trace gives the truth; it changes no histogram.
 */
static void test_three_phases(void)
{
	const char *dir = harness_tmpdir();
	int64_t start[MAX_PHASES], end[MAX_PHASES], w = -1, total = 0;
	const char *at[MAX_PHASES];
	char path[512], *text;
	pvmmon_log *log = NULL;
	cmd_result r;
	size_t n, ex = 0, last, inside = 0, listed = 0;
	truth tr;

	CU_ASSERT_FATAL(histo_build_phases(dir));
	harness_sh(&r, 180,
	           "cd '%s' && %s/pvmmon run -q --trace -o p.xml -- ./phases 20 && "
	           "%s/pvmmon report p.xml",
	           dir, harness_bin(), harness_bin());
	CU_ASSERT_EQUAL_FATAL(r.status, 0);
	text = strdup(r.out);
	cmd_result_free(&r);
	snprintf(path, sizeof(path), "%s/p.xml", dir);
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&log, path), 0);
	find_truth(log, &tr);
	CU_ASSERT_FATAL(tr.ex0 < tr.ex1 && tr.done0 < tr.done1 && tr.pong_line && tr.done_line);

	n = parse_phases(text, &w, start, end, at);
	fprintf(stderr,
	        "\nhisto_phases: first ready %.1f, exchange from %.1f (last worker %.1f) to %.1f "
	        "(first worker %.1f) ms, %zu phases, buckets %.1f ms\n",
	        tr.ready0 / 1e6, tr.ex0 / 1e6, tr.ex0_last / 1e6, tr.ex1 / 1e6, tr.ex1_first / 1e6,
	        n, w / 1e6);
	CU_ASSERT_FATAL(w > 0);
	CU_ASSERT(n >= 3);
	/* The text report finds both boundaries of the exchange within two buckets. */
	CU_ASSERT(boundary_near(start, n, w, tr.ready0, tr.ex0_last));
	CU_ASSERT(boundary_near(start, n, w, tr.ex1_first, tr.ex1));
	if (!boundary_near(start, n, w, tr.ready0, tr.ex0_last) ||
	    !boundary_near(start, n, w, tr.ex1_first, tr.ex1))
		fprintf(stderr, "%s\n", text);
	/* The phases within the exchange (one, or more where its start or ragged end,
	 * workers computing again while others still exchange, shifts the shares) list the
	 * workers' ping-pong among their top statements; the last phase's is the master's
	 * wait for the workers' last messages. */
	for (size_t i = 0; i < n; i++)
		if (start[i] >= tr.ready0 - 2 * w && end[i] <= tr.ex1 + 2 * w) {
			inside++;
			listed += phase_lists(at, n, i, tr.pong_line);
			ex = i;
		}
	CU_ASSERT(inside >= 1);
	CU_ASSERT(listed >= 1);
	last = phase_at(start, end, n, tr.done1 - 1);
	CU_ASSERT(last < n && last > ex);
	if (last < n)
		CU_ASSERT(phase_lists(at, n, last, tr.done_line));

	/* Statement charts: each statement's time lies in its phase only (the buckets the
	 * charts draw; a bucket overlapping its phase counts as in it). */
	for (size_t i = 1; i < log->ntasks; i++)
		CU_ASSERT(stmt_time_within(&log->tasks[i], tr.pong_line, tr.ex0, tr.ex1, &total));
	CU_ASSERT(total > 0);
	total = 0;
	CU_ASSERT(stmt_time_within(&log->tasks[0], tr.done_line, tr.done0, tr.done1, &total));
	CU_ASSERT(total > 0);
	CU_ASSERT(tr.done0 >= tr.ex1 - 2 * w);

	check_html(dir, n);
	free(text);
	pvmmon_log_free(log);
}

/* How many of the sparkline's upper characters (a bucket at least 4/8 computing, in the
 * ASCII set " .:-=+*#@") the line of task lid in top's output has. */
static int spark_marks(const char *out, const char *lid)
{
	char key[32];
	const char *p, *e;
	int n = 0;

	snprintf(key, sizeof(key), "\n%-10s t", lid);
	p = strstr(out, key);
	if (!p)
		return 0;
	e = strchr(p + 1, '\n');
	for (; *p && p != e; p++)
		n += strchr("=+*#@", *p) != NULL;
	return n;
}

/*
 * `pvmmon top --once` while apps/phases runs: the monitor's snapshot carries each task's
 * state histograms (flushed every 100 ms here), and top draws a worker's sparkline of
 * its last buckets from them: in its first phase, computing all the time. top's own
 * samples could not: one snapshot is one sample. The loop waits for a worker's flush
 * (at most 10 s, where a flush is due every 100 ms of the program's calls).
 */
static void test_top_sparkline(void)
{
	const char *dir = harness_tmpdir();
	cmd_result r;
	int best = 0;

	CU_ASSERT_FATAL(histo_build_phases(dir));
	harness_sh(&r, 180,
	           "cd '%s' || exit 1; b=%s; export LC_ALL=C LANG=C; "
	           "($b/pvmmon run -q --flush-ms=100 -o t.xml -- ./phases 100 > run.out 2>&1; "
	           "echo rc=$? >> run.out) & "
	           "for i in $(seq 1 200); do $b/pvmmon top --once t.xml > top.out 2>&1 && "
	           "grep -q '^0\\.[0-2] .*[=+*#@][=+*#@][=+*#@][=+*#@]' top.out && break; "
	           "sleep 0.05; done; cat top.out; wait; cat run.out",
	           dir, harness_bin());
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "rc=0"));
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "computing, last buckets"));
	for (int w = 0; w < 3; w++) {
		char lid[8];
		int n;

		snprintf(lid, sizeof(lid), "0.%d", w);
		n = spark_marks(r.out, lid);
		if (n > best)
			best = n;
	}
	if (best < 4)
		fprintf(stderr, "\ntop: %s%s\n", r.out, r.err);
	CU_ASSERT(best >= 4);
	cmd_result_free(&r);
}

CU_TestInfo test_histo_phases_tests[] = {
    {"phases: three phases in the overview, the text report and the charts", test_three_phases},
    {"pvmmon top --once: a sparkline from the snapshot's histograms", test_top_sparkline},
    CU_TEST_INFO_NULL,
};
