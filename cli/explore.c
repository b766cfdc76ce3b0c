/*
 * pvmmon explore: a first traced run, then runs that each force one other legal
 * outcome of one nondeterministic event (the run's replay record up to it, then free)
 * and compare their verdict with the first's; every run that breaks is kept as a
 * replay record, with a one-line finding.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <regex.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../replay/replay.h"
#include "cli.h"
#include "explalt.h"
#include "pvmmon/errors.h"

/* One run's verdict: what the program did, as compared between runs. */
typedef struct verdict {
	int status;   /* pvmmon's exit status (the program's, 4 for a hang) */
	int killed;   /* tasks ended by a signal */
	int hangs;    /* hangs said */
	char *checks; /* usage error kinds found, sorted, space-separated */
	char *output; /* the program's output, normalised */
	char *first_line; /* its first line that differs from the first run's, for findings */
} verdict;

typedef struct explore {
	const char *dir, *same; /* -o DIR, --same-output */
	regex_t same_re;
	int runs, secs, run_secs;
	char *self;
	char **prog; /* PROGRAM ARGS */
	int nprog;
	time_t t0;
	verdict first;
	int nruns, nfound, ninfeasible, nsame;
	char **sigs; /* the alternatives tried (seen()) */
	size_t nsigs;
	FILE *table; /* the summary's rows, kept for the HTML page too */
} explore;

static int run_child(explore *x, char *const *argv, const char *out, const char *err)
{
	pid_t pid = fork();
	int status = 0;
	time_t end = time(NULL) + x->run_secs;

	if (pid < 0)
		return -1;
	if (pid == 0) {
		int fo = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int fe = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (fo < 0 || fe < 0 || dup2(fo, 1) < 0 || dup2(fe, 2) < 0)
			_exit(127);
		execv(x->self, argv);
		_exit(127);
	}
	/* pvmmon run halts its VM and writes what it has on SIGINT; a run past its time is
	 * stopped so, then killed if it does not end. */
	for (int sig = 0;;) {
		pid_t w = waitpid(pid, &status, WNOHANG);

		if (w == pid)
			break;
		if (w < 0 && errno != EINTR)
			return -1;
		if (time(NULL) >= end) {
			kill(pid, sig ? SIGKILL : SIGINT);
			sig = 1;
			end = time(NULL) + 15;
		}
		usleep(20000);
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0;
	FILE *m;
	int c;

	if (!f)
		return strdup("");
	m = open_memstream(&buf, &len);
	while (m && (c = getc(f)) != EOF)
		putc(c, m);
	if (m)
		fclose(m);
	fclose(f);
	return buf ? buf : strdup("");
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The program's output in a comparable form: pvmmon's own lines and --same-output's
 * out, task ids ("[t40003]") made anonymous, lines sorted (tasks' output interleaves
 * differently in every run). */
static char *normalise(explore *x, const char *out, const char *err)
{
	char *all = NULL, **lines = NULL, *res = NULL, *p, *save = NULL;
	size_t n = 0, len = 0;
	FILE *m;

	if (asprintf(&all, "%s\n%s", out, err) < 0)
		return NULL;
	for (p = strtok_r(all, "\n", &save); p; p = strtok_r(NULL, "\n", &save)) {
		char **g;

		if (!strncmp(p, "pvmmon", 6) || (x->same && !regexec(&x->same_re, p, 0, NULL, 0)))
			continue;
		if (p[0] == '[' && p[1] == 't') {
			char *q = strchr(p, ']');

			if (q)
				p = q + 1;
			while (*p == ' ')
				p++;
		}
		if (!(g = realloc(lines, (n + 1) * sizeof(*g))))
			break;
		lines = g;
		lines[n++] = p;
	}
	if (n > 1)
		qsort(lines, n, sizeof(*lines), cmp_str);
	m = open_memstream(&res, &len);
	for (size_t i = 0; m && i < n; i++)
		fprintf(m, "%s\n", lines[i]);
	if (m)
		fclose(m);
	free(lines);
	free(all);
	return res;
}

static char *check_kinds(const pvmmon_log *log)
{
	char *res = NULL, **k = calloc(log ? log->nfindings + 1 : 1, sizeof(*k));
	size_t len = 0, n = 0;
	FILE *m;

	for (size_t i = 0; k && log && i < log->nfindings; i++)
		if (log->findings[i].kind)
			k[n++] = log->findings[i].kind;
	if (k)
		qsort(k, n, sizeof(*k), cmp_str);
	m = open_memstream(&res, &len);
	for (size_t i = 0; m && i < n; i++)
		if (!i || strcmp(k[i], k[i - 1]))
			fprintf(m, "%s%s", i ? " " : "", k[i]);
	if (m)
		fclose(m);
	free(k);
	return res;
}

static void verdict_of(explore *x, verdict *v, int status, const char *stem, const pvmmon_log *log)
{
	char path[4096], *out, *err;

	memset(v, 0, sizeof(*v));
	v->status = status;
	for (size_t i = 0; log && i < log->ntasks; i++)
		v->killed += log->tasks[i].status == PVMMON_TASK_KILLED ||
		             log->tasks[i].status == PVMMON_TASK_CRASHED;
	v->hangs = log ? (int)log->nhangs : 0;
	v->checks = check_kinds(log);
	snprintf(path, sizeof(path), "%s.out", stem);
	out = slurp(path);
	snprintf(path, sizeof(path), "%s.err", stem);
	err = slurp(path);
	v->output = normalise(x, out, err);
	free(out);
	free(err);
}

static void verdict_free(verdict *v)
{
	free(v->checks);
	free(v->output);
	memset(v, 0, sizeof(*v));
}

/* The first line of a (sorted lines) that b lacks (heap), NULL for none. */
static char *new_line(const char *a, const char *b)
{
	for (const char *p = a; *p; p += strcspn(p, "\n") + (p[strcspn(p, "\n")] != 0)) {
		size_t l = strcspn(p, "\n");
		const char *q = b;
		int found = 0;

		for (; *q && !found; q += strcspn(q, "\n") + (q[strcspn(q, "\n")] != 0))
			found = strcspn(q, "\n") == l && !strncmp(p, q, l);
		if (!found)
			return strndup(p, l);
	}
	return NULL;
}

/* How v differs from the first run's, in words, everything that does joined by "; "
 * (heap; NULL: it does not). */
static char *differs(explore *x, const verdict *v)
{
	const verdict *f = &x->first;
	const char *a = v->output ? v->output : "", *b = f->output ? f->output : "";
	char *s = NULL, *line;
	size_t len = 0;
	FILE *m = open_memstream(&s, &len);
	int n = 0;

	if (!m)
		return NULL;
	if (v->status == 4 && f->status != 4)
		fprintf(m, "%sa hang (pvmmon's hang report)", n++ ? "; " : "");
	else if (v->status != f->status)
		fprintf(m, "%sexit status %d instead of %d", n++ ? "; " : "", v->status, f->status);
	if (v->killed > f->killed)
		fprintf(m, "%s%d task(s) killed by a signal", n++ ? "; " : "", v->killed - f->killed);
	if (v->hangs > f->hangs && v->status != 4)
		fprintf(m, "%sa hang (pvmmon's hang report)", n++ ? "; " : "");
	if (strcmp(v->checks ? v->checks : "", f->checks ? f->checks : ""))
		fprintf(m, "%susage errors found: %s (first run: %s)", n++ ? "; " : "",
		        *v->checks ? v->checks : "none", *f->checks ? f->checks : "none");
	if (strcmp(a, b)) {
		line = new_line(a, b);
		fprintf(m, "%soutput differs%s%s%s", n++ ? "; " : "", line ? ": \"" : "",
		        line ? line : "", line ? "\"" : "");
		free(line);
	}
	fclose(m);
	if (!n) {
		free(s);
		return NULL;
	}
	return s;
}

/* A queued alternative and the run whose record it changes. */
typedef struct pending {
	expl_alt a;
	char *base;
	int depth;
} pending;

typedef struct queue {
	pending *v;
	size_t n, cap, next;
} queue;

/* Deeper than this, a run's own new events are not queued: the first run's
 * alternatives, and those their forced runs reveal, come first. */
#define EXPLORE_DEPTH 2

static int enqueue(queue *q, const pvmmon_log *log, const char *base, int depth, const char *task,
                   size_t nd, int64_t vt, expl_count *c)
{
	expl_alt *v = NULL;
	size_t n = 0;
	int rc = expl__alternatives(&v, &n, c, log, task, nd, vt);

	for (size_t i = 0; i < n; i++) {
		if (rc == 0 && q->n == q->cap) {
			pending *g = realloc(q->v, (q->cap = q->cap ? 2 * q->cap : 32) * sizeof(*g));

			if (!g)
				rc = PVMMON_ENOMEM;
			else
				q->v = g;
		}
		if (rc == 0 && (q->v[q->n].base = strdup(base))) {
			q->v[q->n].a = v[i];
			q->v[q->n++].depth = depth;
		} else {
			expl__alt_free(&v[i]);
		}
	}
	free(v);
	return rc;
}

static char **run_argv(explore *x, const char *cmd, const char *force, const char *log)
{
	char **v = calloc((size_t)x->nprog + 16, sizeof(*v));
	int n = 0;

	if (!v)
		return NULL;
	v[n++] = x->self;
	v[n++] = (char *)cmd;
	if (force) {
		v[n++] = (char *)force;
		v[n++] = "--on-divergence=continue-recording";
	}
	v[n++] = "-q";
	v[n++] = "--trace";
	v[n++] = "--on-hang=abort";
	v[n++] = "-o";
	v[n++] = (char *)log;
	v[n++] = "--";
	for (int i = 0; i < x->nprog; i++)
		v[n++] = x->prog[i];
	return v;
}

/* Runs one (the first when p is NULL) into DIR/run-K.xml; its log into *log (NULL when
 * it wrote none), its status returned. */
static int one_run(explore *x, int k, const pending *p, pvmmon_log **log, char *stem, size_t len)
{
	char xml[4200], out[4200], err[4200], force[4200];
	char **argv;
	int status;

	snprintf(stem, len, "%s/run-%d", x->dir, k);
	snprintf(xml, sizeof(xml), "%s.xml", stem);
	snprintf(out, sizeof(out), "%s.out", stem);
	snprintf(err, sizeof(err), "%s.err", stem);
	snprintf(force, sizeof(force), "%s/force-%d.xml", x->dir, k);
	*log = NULL;
	if (p && expl__force(p->base, &p->a, force) < 0) {
		cli__error("explore: %s", pvmmon_error_last());
		return -1;
	}
	argv = run_argv(x, p ? "replay" : "run", p ? force : NULL, xml);
	if (!argv)
		return -1;
	status = run_child(x, argv, out, err);
	free(argv);
	if (pvmmon_log_read(log, xml) < 0)
		*log = NULL;
	return status;
}

static void row(explore *x, int k, const pending *p, const char *result)
{
	char alt[300], was[300];

	if (!p) {
		fprintf(x->table, "%d\t-\t-\t-\t%s\n", k, result);
		return;
	}
	expl__alt_outcome(alt, sizeof(alt), p->a.kind, p->a.from, p->a.tag);
	expl__alt_outcome(was, sizeof(was), p->a.taken_kind, p->a.taken_from, p->a.taken_tag);
	fprintf(x->table, "%d\ttask %s, event %llu at %s\t%s\t%s\t%s\n", k, p->a.task,
	        (unsigned long long)p->a.entry_no, p->a.where, alt, was, result);
}

static void usage(FILE *f)
{
	fprintf(f,
	        "usage: pvmmon explore [--runs N] [--time S] [-o DIR] [--same-output=REGEX] [--]\n"
	        "                      PROGRAM [ARGS...]\n"
	        "Runs PROGRAM once, traced, then again and again, each run forcing one other\n"
	        "outcome that one nondeterministic event (a wildcard receive, a poll, a probe,\n"
	        "a timed receive) could have had: a message of another task, asked for by the\n"
	        "event and taken later, whose send the event did not cause (no chain of\n"
	        "messages leads from it to the send), or none for a poll. The run takes its\n"
	        "first course up to the event, then goes free. A run whose exit status, killed\n"
	        "tasks, hangs, usage errors or output differ from the first's is a finding,\n"
	        "kept as a replay record (pvmmon replay DIR/finding-N.xml -- PROGRAM).\n"
	        "  --runs N          at most N runs after the first (default 50)\n"
	        "  --time S          stop starting runs after S seconds (default 600)\n"
	        "  --run-time S      stop a run after S seconds (default 120)\n"
	        "  -o DIR            where the runs, findings and index.html go\n"
	        "                    (default PROGRAM.explore)\n"
	        "  --same-output=REGEX  output lines to ignore (they vary legitimately)\n"
	        "Exit status: 0 nothing found, 1 a finding, 2 a usage or set-up error.\n");
}

static int number(const char *what, const char *s, int lo, int hi, int *out)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (!*s || *end || v < lo || v > hi) {
		cli__error("explore: %s wants a number from %d to %d, not '%s'", what, lo, hi, s);
		return -1;
	}
	*out = (int)v;
	return 0;
}

static int options(explore *x, int argc, char **argv)
{
	static const struct option longs[] = {
	    {"runs", required_argument, NULL, 'r'},     {"time", required_argument, NULL, 't'},
	    {"run-time", required_argument, NULL, 'R'}, {"same-output", required_argument, NULL, 's'},
	    {"help", no_argument, NULL, 'h'},           {NULL, 0, NULL, 0},
	};
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+o:h", longs, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return 1;
		}
		if ((c == 'r' && number("--runs", optarg, 0, 100000, &x->runs) < 0) ||
		    (c == 't' && number("--time", optarg, 1, 86400 * 7, &x->secs) < 0) ||
		    (c == 'R' && number("--run-time", optarg, 1, 86400, &x->run_secs) < 0))
			return -1;
		if (c == 'o')
			x->dir = optarg;
		if (c == 's') {
			x->same = optarg;
			if (regcomp(&x->same_re, optarg, REG_EXTENDED | REG_NOSUB) != 0) {
				x->same = NULL;
				cli__error("explore: --same-output: '%s' is no regular expression", optarg);
				return -1;
			}
		}
		if (c == '?')
			return -1;
	}
	if (optind >= argc) {
		cli__error("explore: which program? (pvmmon explore [options] -- PROGRAM [ARGS])");
		return -1;
	}
	x->prog = argv + optind;
	x->nprog = argc - optind;
	return 0;
}

/* The page beside the runs: the table, the findings, and each finding's report (its
 * space-time picture) against the first run's. */
static void write_html(explore *x, const char *table, const char *findings)
{
	char path[4200];
	FILE *f;

	snprintf(path, sizeof(path), "%s/index.html", x->dir);
	if (!(f = fopen(path, "w"))) {
		cli__error("explore: cannot write %s: %s", path, strerror(errno));
		return;
	}
	fprintf(f, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>pvmmon explore: "
	           "%s</title>\n<style>body{font-family:sans-serif}td,th{border:1px solid #ccc;"
	           "padding:2px 6px}table{border-collapse:collapse}.pair{display:flex;gap:1em}"
	           ".pair img{max-width:48vw}</style></head><body>\n"
	           "<h1>pvmmon explore: %s</h1>\n<p>%d runs after the first, %d findings.</p>\n"
	           "<h2>Findings</h2>\n<ul>\n",
	        x->prog[0], x->prog[0], x->nruns, x->nfound);
	for (const char *p = findings; *p; p += strcspn(p, "\n") + (p[strcspn(p, "\n")] != 0)) {
		int n = (int)strcspn(p, "\n"), k = atoi(p + 8);

		fprintf(f, "<li><pre>%.*s</pre> <a href=\"report-finding-%d/index.html\">its "
		           "report</a> against <a href=\"report-0/index.html\">the first run's</a>"
		           "<div class=\"pair\"><figure><img src=\"report-0/spacetime-virtual.svg\" "
		           "alt=\"the first run\"><figcaption>the first run</figcaption></figure>"
		           "<figure><img src=\"report-finding-%d/spacetime-virtual.svg\" "
		           "alt=\"finding %d\"><figcaption>finding %d</figcaption></figure></div>"
		           "</li>\n",
		        n, p, k, k, k, k);
	}
	fprintf(f, "</ul>\n<h2>Runs</h2>\n<table><tr><th>run</th><th>event</th><th>forced</th>"
	           "<th>instead of</th><th>result</th></tr>\n");
	for (const char *p = table; *p; p += strcspn(p, "\n") + (p[strcspn(p, "\n")] != 0)) {
		int n = (int)strcspn(p, "\n");

		fputs("<tr><td>", f);
		for (int i = 0; i < n; i++) {
			if (p[i] == '\t')
				fputs("</td><td>", f);
			else if (p[i] == '<')
				fputs("&lt;", f);
			else if (p[i] == '&')
				fputs("&amp;", f);
			else
				putc(p[i], f);
		}
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n</body></html>\n", f);
	fclose(f);
}

static void report_dir(explore *x, const char *log, const char *name)
{
	char out[4200], dir[4200], *argv[6];

	snprintf(dir, sizeof(dir), "%s/%s", x->dir, name);
	snprintf(out, sizeof(out), "%s/%s.log", x->dir, name);
	argv[0] = x->self;
	argv[1] = "report";
	argv[2] = (char *)log;
	argv[3] = "-o";
	argv[4] = dir;
	argv[5] = NULL;
	run_child(x, argv, out, out);
}

/* A forced run: infeasible, a finding, or like the first (then its new events are
 * queued). */
static void judge(explore *x, queue *q, pending *p, int k, int status, pvmmon_log *log,
                  const char *stem, FILE *findings)
{
	char xml[4300], keep[4300], alt[300], was[300], *why;
	verdict v;
	expl_count c;

	if (!log || expl__took(log, &p->a) != 1) {
		x->ninfeasible++;
		row(x, k, p, log ? "not reached (the run took another course before it)"
		                 : "no log (see its .err)");
		return;
	}
	verdict_of(x, &v, status, stem, log);
	why = differs(x, &v);
	if (!why) {
		row(x, k, p, "same as the first run");
		snprintf(xml, sizeof(xml), "%s.xml", stem);
		if (p->depth < EXPLORE_DEPTH)
			enqueue(q, log, xml, p->depth + 1, p->a.task, p->a.nd, p->a.vt, &c);
		verdict_free(&v);
		return;
	}
	x->nfound++;
	snprintf(xml, sizeof(xml), "%s.xml", stem);
	snprintf(keep, sizeof(keep), "%s/finding-%d.xml", x->dir, x->nfound);
	if (rename(xml, keep) != 0)
		cli__error("explore: cannot keep %s as %s: %s", xml, keep, strerror(errno));
	expl__alt_outcome(alt, sizeof(alt), p->a.kind, p->a.from, p->a.tag);
	expl__alt_outcome(was, sizeof(was), p->a.taken_kind, p->a.taken_from, p->a.taken_tag);
	fprintf(findings, "finding %d: task %s, event %llu at %s took %s instead of %s: %s; "
	                  "replay: pvmmon replay %s --",
	        x->nfound, p->a.task, (unsigned long long)p->a.entry_no, p->a.where, alt, was, why,
	        keep);
	for (int i = 0; i < x->nprog; i++)
		fprintf(findings, " %s", x->prog[i]);
	fputc('\n', findings);
	row(x, k, p, why);
	snprintf(xml, sizeof(xml), "report-finding-%d", x->nfound);
	report_dir(x, keep, xml);
	free(why);
	verdict_free(&v);
}

/* Whether a's outcome of a's event was tried already (then remembered). */
static int seen(explore *x, const expl_alt *a)
{
	char *sig = NULL;
	char **g;

	if (asprintf(&sig, "%s|%llu|%d|%s|%d", a->task, (unsigned long long)a->entry_no, a->kind,
	             a->from ? a->from : "", (int)a->tag) < 0)
		return 0;
	for (size_t i = 0; i < x->nsigs; i++)
		if (!strcmp(x->sigs[i], sig)) {
			free(sig);
			return 1;
		}
	if (!(g = realloc(x->sigs, (x->nsigs + 1) * sizeof(*g)))) {
		free(sig);
		return 0;
	}
	x->sigs = g;
	x->sigs[x->nsigs++] = sig;
	return 0;
}

static int explore_runs(explore *x, queue *q, FILE *findings)
{
	char stem[4200], force[4300];
	expl_count c0;
	pvmmon_log *log = NULL;
	int status = one_run(x, 0, NULL, &log, stem, sizeof(stem));

	if (!log) {
		cli__error("explore: the first run wrote no log (status %d); see %s.err", status, stem);
		return -1;
	}
	verdict_of(x, &x->first, status, stem, log);
	snprintf(stem, sizeof(stem), "%s/run-0.xml", x->dir);
	if (enqueue(q, log, stem, 1, NULL, 0, -1, &c0) < 0) {
		pvmmon_log_free(log);
		cli__error("explore: %s", pvmmon_error_last());
		return -1;
	}
	pvmmon_log_free(log);
	row(x, 0, NULL, x->first.status ? "the first run (exit status not 0)" : "the first run");
	report_dir(x, stem, "report-0");
	if (c0.nd == 0) {
		printf("explore: no nondeterministic events: nothing to explore (1 run)\n");
		return 0;
	}
	fprintf(stderr,
	        "explore: the first run had %zu nondeterministic events; %zu other outcomes "
	        "could be taken (%zu without the happened-before rule)\n",
	        c0.nd, c0.alts, c0.naive);
	while (q->next < q->n && x->nruns < x->runs && time(NULL) - x->t0 < x->secs) {
		pending *p = &q->v[q->next++];
		int k;

		/* The same outcome of the same event, reached again from a later run's
		 * choices elsewhere, finds nothing new about that event: tried once. */
		if (seen(x, &p->a)) {
			x->nsame++;
			continue;
		}
		k = ++x->nruns;
		status = one_run(x, k, p, &log, stem, sizeof(stem));
		snprintf(force, sizeof(force), "%s/force-%d.xml", x->dir, k);
		unlink(force);
		judge(x, q, p, k, status, log, stem, findings);
		pvmmon_log_free(log);
		fprintf(stderr, "explore: %d runs, %zu alternatives left, %d findings\n", x->nruns,
		        q->n - q->next, x->nfound);
	}
	return 0;
}

int cli__explore(int argc, char **argv)
{
	explore x = {.runs = 50, .secs = 600, .run_secs = 120};
	queue q = {0};
	char *table = NULL, *found = NULL, dir[4200];
	size_t tlen = 0, flen = 0;
	FILE *findings;
	int rc = options(&x, argc, argv);

	if (rc)
		return rc > 0 ? 0 : 2;
	x.t0 = time(NULL);
	if (!x.dir) {
		const char *base = strrchr(x.prog[0], '/');

		snprintf(dir, sizeof(dir), "%s.explore", base ? base + 1 : x.prog[0]);
		x.dir = dir;
	}
	if (mkdir(x.dir, 0755) != 0 && errno != EEXIST) {
		cli__error("explore: cannot make %s: %s", x.dir, strerror(errno));
		return 2;
	}
	x.self = realpath("/proc/self/exe", NULL);
	x.table = open_memstream(&table, &tlen);
	findings = open_memstream(&found, &flen);
	if (!x.self || !x.table || !findings) {
		cli__error("explore: cannot find the pvmmon command itself or out of memory");
		return 2;
	}
	rc = explore_runs(&x, &q, findings);
	fclose(x.table);
	fclose(findings);
	if (rc == 0) {
		printf("run\tevent\tforced\tinstead of\tresult\n%s", table);
		printf("%s", found);
		printf("explore: %d runs after the first, %d findings, %d alternatives not reached, "
		       "%d skipped as tried, %zu left unexplored; runs and findings in %s\n",
		       x.nruns, x.nfound, x.ninfeasible, x.nsame, q.n - q.next, x.dir);
		write_html(&x, table, found);
	}
	for (size_t i = 0; i < q.n; i++) {
		expl__alt_free(&q.v[i].a);
		free(q.v[i].base);
	}
	free(q.v);
	free(table);
	free(found);
	free(x.self);
	for (size_t i = 0; i < x.nsigs; i++)
		free(x.sigs[i]);
	free(x.sigs);
	verdict_free(&x.first);
	if (x.same)
		regfree(&x.same_re);
	return rc < 0 ? 2 : x.nfound ? 1 : 0;
}
