/* The wait-for graph of a run: which task waits for which, where, and the cycles found. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figures.h"
#include "pvmmon/errors.h"
#include "pvmmon/report.h"

/* The pseudo-source of a receive from any task. */
#define ANY "any task"

/*
 * One arrow of the graph: task `from` waits for `to` (a lid, or ANY) at statement where
 * for what ("tag 2", "any tag"), or, queued, `from` sent a message that waits unreceived
 * in `to`'s queue because the receive there does not match it.
 */
typedef struct wf_edge {
	char from[64], to[64];
	char what[128];
	char ctx[48]; /* "context 262145", "any context"; empty for the base context */
	char where[256];
	int cycle;   /* on a deadlock cycle the monitor said */
	int timeout; /* a pvm_trecv: it ends by itself */
	int queued;
} wf_edge;

typedef struct wf_graph {
	wf_edge *e;
	size_t n, cap;
} wf_graph;

static void copy(char *dst, size_t size, const char *s, size_t len)
{
	if (len >= size)
		len = size - 1;
	memcpy(dst, s, len);
	dst[len] = '\0';
}

/* The last occurrence of needle in s, or NULL. */
static const char *last(const char *s, const char *needle)
{
	const char *hit = NULL;

	for (const char *p = strstr(s, needle); p; p = strstr(p + 1, needle))
		hit = p;
	return hit;
}

/*
 * Reads a wait as the monitor words it (monitor/hang.c, the task's `waiting` attribute):
 * "at WHERE for WHAT from SOURCE", then " in context N" (or " in any context") when it
 * is not the base context, then " (with a timeout)" for a pvm_trecv; a source that has
 * ended is followed by ", which has ended (...)" in a diagnosis. Returns 1 and fills
 * e's where, what, to, ctx and timeout, or 0 when s says something else.
 */
static int parse_wait(const char *s, wf_edge *e)
{
	static const char timeout[] = " (with a timeout)", polling[] = " (polling)";
	const char *f, *fr, *src, *end;
	char *in;
	size_t len;

	if (strncmp(s, "at ", 3) != 0)
		return 0;
	/* A statement named by its module's path may hold " for ": the last one starts
	 * what is awaited, and a tag is a number, so it holds none. */
	f = last(s, " for ");
	fr = f && f > s + 3 ? strstr(f + 5, " from ") : NULL;
	if (!fr)
		return 0;
	copy(e->where, sizeof(e->where), s + 3, (size_t)(f - s - 3));
	copy(e->what, sizeof(e->what), f + 5, (size_t)(fr - f - 5));
	src = fr + 6;
	end = strstr(src, ", which has ended");
	len = end ? (size_t)(end - src) : strlen(src);
	e->timeout = len >= sizeof(timeout) - 1 &&
	             !strncmp(src + len - (sizeof(timeout) - 1), timeout, sizeof(timeout) - 1);
	if (e->timeout)
		len -= sizeof(timeout) - 1;
	/* A polling wait's mark is left out: the arrow is the same. */
	if (len >= sizeof(polling) - 1 &&
	    !strncmp(src + len - (sizeof(polling) - 1), polling, sizeof(polling) - 1))
		len -= sizeof(polling) - 1;
	copy(e->to, sizeof(e->to), src, len);
	/* A context other than the base one follows the source: " in context N". */
	in = strstr(e->to, " in ");
	if (in) {
		snprintf(e->ctx, sizeof(e->ctx), "%s", in + 4);
		*in = '\0';
	}
	return e->to[0] != '\0';
}

/* Adds e, or merges it into the arrow between the same tasks (a cycle stays one). */
static int add_edge(wf_graph *g, const wf_edge *e)
{
	for (size_t i = 0; i < g->n; i++) {
		wf_edge *o = &g->e[i];

		if (!strcmp(o->from, e->from) && !strcmp(o->to, e->to) && o->queued == e->queued) {
			o->cycle |= e->cycle;
			if (!o->where[0])
				snprintf(o->where, sizeof(o->where), "%s", e->where);
			return 0;
		}
	}
	if (g->n == g->cap) {
		size_t cap = g->cap ? 2 * g->cap : 16;
		wf_edge *a = realloc(g->e, cap * sizeof(*a));

		if (!a)
			return pvmmon_error_set(PVMMON_ENOMEM, "report: out of memory");
		g->e = a;
		g->cap = cap;
	}
	g->e[g->n++] = *e;
	return 0;
}

/*
 * The arrows of one diagnosis: its "; "-separated parts that say "task A waits at ...",
 * each an arrow (on a cycle when the diagnosis is a deadlock), and a mismatch's "a
 * message from X with tag N [in another context] waits unreceived in its queue", a queued
 * arrow from X to the task named before it.
 */
static int add_hang(wf_graph *g, const pvmmon_log_hang *h)
{
	char part[1024], waiter[64] = "";
	const char *s = h->text;
	int rc = 0;

	while (s && *s && rc == 0) {
		const char *semi = strstr(s, "; ");
		size_t len = semi ? (size_t)(semi - s) : strlen(s);
		const char *w;
		wf_edge e;
		int tag;

		memset(&e, 0, sizeof(e));
		copy(part, sizeof(part), s, len);
		s = semi ? semi + 2 : NULL;
		/* A polling wait says "polls at" (as long as "waits at"). */
		w = strncmp(part, "task ", 5) ? NULL : strstr(part + 5, " waits at ");
		if (!w && !strncmp(part, "task ", 5))
			w = strstr(part + 5, " polls at ");
		if (w && w > part + 5 && parse_wait(w + 7, &e)) {
			copy(e.from, sizeof(e.from), part + 5, (size_t)(w - part - 5));
			snprintf(waiter, sizeof(waiter), "%s", e.from);
			e.cycle = h->kind && !strcmp(h->kind, "deadlock");
			rc = add_edge(g, &e);
		} else if (waiter[0] &&
		           sscanf(part, "a message from %63s with tag %d", e.from, &tag) == 2) {
			snprintf(e.to, sizeof(e.to), "%s", waiter);
			snprintf(e.what, sizeof(e.what), "tag %d queued, not matched%s", tag,
			         strstr(part, " in another context") ? " (another context)" : "");
			e.queued = 1;
			rc = add_edge(g, &e);
		}
	}
	return rc;
}

/* Every arrow the log tells of: the tasks' waits, then the diagnoses' (cycles marked). */
static int build(const pvmmon_log *log, wf_graph *g)
{
	int rc = 0;

	for (size_t i = 0; i < log->ntasks && rc == 0; i++) {
		const pvmmon_log_task *t = &log->tasks[i];
		wf_edge e;

		memset(&e, 0, sizeof(e));
		if (!t->waiting || !parse_wait(t->waiting, &e))
			continue;
		snprintf(e.from, sizeof(e.from), "%s", t->lid ? t->lid : "?");
		rc = add_edge(g, &e);
	}
	for (size_t i = 0; i < log->nhangs && rc == 0; i++)
		rc = add_hang(g, &log->hangs[i]);
	return rc;
}

int graphs__has_waits(const pvmmon_log *log)
{
	for (size_t i = 0; log && i < log->ntasks; i++)
		if (log->tasks[i].waiting)
			return 1;
	return log && log->nhangs > 0;
}

/* The task of log with logical id lid, or NULL. */
static const pvmmon_log_task *task_by_lid(const pvmmon_log *log, const char *lid)
{
	for (size_t i = 0; i < log->ntasks; i++)
		if (log->tasks[i].lid && !strcmp(log->tasks[i].lid, lid))
			return &log->tasks[i];
	return NULL;
}

/* Whether lid is an end of any arrow (of a cycle, with on_cycle). */
static int in_graph(const wf_graph *g, const char *lid, int on_cycle)
{
	for (size_t i = 0; i < g->n; i++)
		if ((!strcmp(g->e[i].from, lid) || !strcmp(g->e[i].to, lid)) &&
		    (!on_cycle || g->e[i].cycle))
			return 1;
	return 0;
}

/* Where task lid waits, from its own arrow, or NULL. */
static const wf_edge *wait_of(const wf_graph *g, const char *lid)
{
	for (size_t i = 0; i < g->n; i++)
		if (!g->e[i].queued && !strcmp(g->e[i].from, lid))
			return &g->e[i];
	return NULL;
}

/* A node's name in the DOT text: the lid with its dots made DOT-safe. */
static void put_id(FILE *out, const char *lid)
{
	fputs("\"w:", out);
	graphs__put_escaped(out, lid);
	fputc('"', out);
}

/*
 * One task: its lid and tid (and host, on several), how it is (and how it ended, unless
 * that only repeats its wait), where it waits; red on a cycle, orange waiting, grey
 * when it has ended.
 */
static void put_task(FILE *out, const pvmmon_log *log, const wf_graph *g, const char *lid)
{
	const pvmmon_log_task *t = task_by_lid(log, lid);
	const wf_edge *w = wait_of(g, lid);
	int cycle = in_graph(g, lid, 1);
	int ended = t && t->status != PVMMON_TASK_RUNNING && t->status != PVMMON_TASK_STOPPED;
	const char *fill = cycle ? "#f6c6c6" : ended ? "#e4e4e4" : w ? "#fde3bf" : "#ffffff";

	fputs("  ", out);
	put_id(out, lid);
	fputs(" [label=\"task ", out);
	graphs__put_escaped(out, lid);
	if (t) {
		fprintf(out, " (t%x)", (unsigned)t->tid);
		if (log->nhosts > 1 && t->host) {
			fputs(" on ", out);
			graphs__put_escaped(out, t->host);
		}
		fputs("\\n", out);
		const char *st = pvmmon_task_status_name(t->status);

		/* "killed by SIGSEGV at worker.c:31" says its state itself; "waiting at ..."
		 * only repeats the wait drawn below. */
		if (t->ended && strncmp(t->ended, "waiting ", 8) != 0) {
			if (strncmp(t->ended, st, strlen(st)) != 0) {
				graphs__put_escaped(out, st);
				fputs(": ", out);
			}
			graphs__put_escaped(out, t->ended);
		} else {
			graphs__put_escaped(out, st);
		}
	}
	if (w) {
		fputs("\\nwaits at ", out);
		graphs__put_escaped(out, w->where[0] ? w->where : "?");
	}
	fprintf(out, "\", fillcolor=\"%s\", color=\"%s\"%s];\n", fill,
	        cycle ? "#b00000" : "#555555", cycle ? ", penwidth=2" : "");
}

static void put_edge(FILE *out, const wf_edge *e)
{
	fputs("  ", out);
	put_id(out, e->from);
	fputs(" -> ", out);
	put_id(out, e->to);
	fputs(" [label=\"", out);
	graphs__put_escaped(out, e->what);
	if (e->ctx[0]) {
		fputs("\\nin ", out);
		graphs__put_escaped(out, e->ctx);
	}
	if (e->timeout)
		fputs("\\n(with a timeout)", out);
	fputs("\"", out);
	if (e->cycle)
		fputs(", color=\"#b00000\", fontcolor=\"#b00000\", penwidth=2.5", out);
	else if (e->queued)
		fputs(", style=dotted, color=\"#c06000\", fontcolor=\"#c06000\"", out);
	else if (e->timeout)
		fputs(", style=dashed", out);
	fputs("];\n", out);
}

int pvmmon_report_dot_waits(const pvmmon_log *log, FILE *out)
{
	wf_graph g = {0};
	int rc;

	if (!log || !out)
		return pvmmon_error_set(PVMMON_EINVAL, "report: no log");
	if (!graphs__has_waits(log))
		return pvmmon_error_set(PVMMON_EINVAL,
		                        "report: no task waited and no hang was said");
	rc = build(log, &g);
	if (rc < 0)
		goto out;
	fputs("digraph waits {\n  graph [rankdir=LR, fontname=\"Helvetica\", fontsize=11, "
	      "labelloc=t, label=\"Wait-for graph: each arrow goes from a waiting task to the task "
	      "it waits for\"];\n  node [shape=box, style=\"rounded,filled\", "
	      "fontname=\"Helvetica\", "
	      "fontsize=10];\n  edge [fontname=\"Helvetica\", fontsize=9];\n",
	      out);
	/* Tasks in log order, then any name the log has no task for, so the text is stable. */
	for (size_t i = 0; i < log->ntasks; i++)
		if (log->tasks[i].lid && in_graph(&g, log->tasks[i].lid, 0))
			put_task(out, log, &g, log->tasks[i].lid);
	for (size_t i = 0; i < g.n; i++) {
		const char *ends[2] = {g.e[i].from, g.e[i].to};

		for (int k = 0; k < 2; k++) {
			int seen = task_by_lid(log, ends[k]) != NULL;

			for (size_t j = 0; j < i && !seen; j++)
				seen = !strcmp(g.e[j].from, ends[k]) || !strcmp(g.e[j].to, ends[k]);
			if (seen || (k == 1 && !strcmp(g.e[i].from, ends[k])))
				continue;
			if (!strcmp(ends[k], ANY)) {
				fputs("  ", out);
				put_id(out, ANY);
				fputs(" [label=\"any task\", shape=ellipse, style=dashed];\n", out);
			} else {
				put_task(out, log, &g, ends[k]);
			}
		}
	}
	for (size_t i = 0; i < g.n; i++)
		put_edge(out, &g.e[i]);
	fputs("}\n", out);
	if (ferror(out))
		rc = pvmmon_error_set(PVMMON_EIO, "report: cannot write the wait-for graph");
out:
	free(g.e);
	return rc;
}
