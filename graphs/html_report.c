/* The HTML report (`pvmmon report LOG -o DIR`): index.html and one picture per graph. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pvmmon/callgraph.h"
#include "pvmmon/errors.h"
#include "pvmmon/report.h"
#include "figures.h"
#include "histo.h"
#include "html_interact.h"
#include "pvmmon/waits.h"
#include "render.h"
#include "samples.h"

/* Writes s with HTML's special characters escaped. */
static void put_html(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		default: fputc(*s, out);
		}
	}
}

/* A table cell holding a duration, with its value in ns for sorting. */
static void td_time(FILE *out, int64_t ns)
{
	char t[32];

	fprintf(out, "<td class=n data-v=\"%" PRId64 "\">%s</td>", ns,
		graphs__fmt_time(t, sizeof(t), ns));
}

static void td_count(FILE *out, uint64_t c)
{
	fprintf(out, "<td class=n data-v=\"%" PRIu64 "\">%" PRIu64 "</td>", c, c);
}

/* Generates one graph's DOT text with gen, writes it (with --dot) and renders it; cp is
 * the recomputed critical path to draw in space-time diagrams, or NULL. */
typedef int (*dot_gen)(const pvmmon_log *, const pvmmon_log_task *, double,
		       const pvmmon_cpath *, FILE *);

static int gen_program(const pvmmon_log *log, const pvmmon_log_task *t, double prune,
		       const pvmmon_cpath *cp, FILE *out)
{
	(void)cp;
	return pvmmon_report_dot_program(log, t, prune, out);
}

static int gen_calls(const pvmmon_log *log, const pvmmon_log_task *t, double prune,
		     const pvmmon_cpath *cp, FILE *out)
{
	(void)prune;
	(void)cp;
	return pvmmon_report_dot_calls(log, t, out);
}

static int gen_spacetime_virtual(const pvmmon_log *log, const pvmmon_log_task *t, double prune,
				 const pvmmon_cpath *cp, FILE *out)
{
	(void)t;
	(void)prune;
	return pvmmon_report_dot_spacetime_cp(log, PVMMON_TIME_VIRTUAL, cp, out);
}

static int gen_spacetime_real(const pvmmon_log *log, const pvmmon_log_task *t, double prune,
			      const pvmmon_cpath *cp, FILE *out)
{
	(void)t;
	(void)prune;
	return pvmmon_report_dot_spacetime_cp(log, PVMMON_TIME_REAL, cp, out);
}

static int gen_waits(const pvmmon_log *log, const pvmmon_log_task *t, double prune,
		     const pvmmon_cpath *cp, FILE *out)
{
	(void)t;
	(void)prune;
	(void)cp;
	return pvmmon_report_dot_waits(log, out);
}

static int gen_delays(const pvmmon_log *log, const pvmmon_log_task *t, double prune,
		      const pvmmon_cpath *cp, FILE *out)
{
	(void)t, (void)prune, (void)cp;
	return pvmmon_waits_dot(log, out);
}

/* Whether the run was traced and any task has events to draw. */
static int has_trace(const pvmmon_log *log)
{
	for (size_t i = 0; log->trace.enabled && i < log->ntasks; i++)
		if (log->tasks[i].nevents)
			return 1;
	return 0;
}

static int make_graph(const pvmmon_log *log, const pvmmon_log_task *t, dot_gen gen,
		      const pvmmon_cpath *cp, const char *dir, const char *stem,
		      const pvmmon_report_opts *o)
{
	char *dot = NULL, path[4096];
	size_t len = 0;
	FILE *mem = open_memstream(&dot, &len);
	int rc;

	if (!mem)
		return pvmmon_error_set(PVMMON_ENOMEM, "report: out of memory");
	rc = gen(log, t, o->prune, cp, mem);
	if (fclose(mem) != 0 && rc == 0)
		rc = pvmmon_error_set(PVMMON_ENOMEM, "report: out of memory");
	if (rc < 0)
		goto out;
	if (o->write_dot) {
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s.dot", dir, stem);
		f = fopen(path, "w");
		if (!f || fputs(dot, f) < 0 || fclose(f) != 0) {
			rc = pvmmon_error_set(PVMMON_EIO, "report: cannot write %s: %s", path,
					      strerror(errno));
			goto out;
		}
	}
	snprintf(path, sizeof(path), "%s/%s.%s", dir, stem, o->format);
	rc = graphs__render(dot, o->format, path);
out:
	free(dot);
	return rc;
}

static const char style[] =
    "body{font-family:Helvetica,Arial,sans-serif;margin:1.5em;color:#222}"
    "h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em;border-bottom:1px solid #ccc}"
    "table{border-collapse:collapse;font-size:.85em;margin:.5em 0}"
    "th,td{border:1px solid #ddd;padding:.2em .5em;text-align:left}"
    "th{background:#f3f3f3;cursor:pointer}td.n{text-align:right;font-variant-numeric:tabular-nums}"
    "img.graph{max-width:100%;border:1px solid #eee;margin:.5em 0}"
    "details.members ul{margin:.2em 0;padding-left:1.2em;columns:3 10em}"
    ".note{color:#666;font-style:italic}dl.run dt{font-weight:bold;float:left;width:11em}"
    "dl.run dd{margin-left:11em}div.tl-box{overflow:auto;max-height:80vh;border:1px solid #eee}"
    "td.chart{padding:1px 4px}svg.spark{display:block}";

/* Sorting by a click on a column header; the tables read the same without it. */
static const char script[] =
    "document.querySelectorAll('table.sortable th').forEach(function(th,i){"
    "th.addEventListener('click',function(){var tb=th.closest('table').tBodies[0];"
    "var rows=Array.from(tb.rows);var asc=th.dataset.asc!=='1';th.dataset.asc=asc?'1':'0';"
    "rows.sort(function(a,b){var x=a.cells[i],y=b.cells[i];"
    "var u=x.dataset.v!==undefined?parseFloat(x.dataset.v):x.textContent;"
    "var v=y.dataset.v!==undefined?parseFloat(y.dataset.v):y.textContent;"
    "return (u<v?-1:u>v?1:0)*(asc?1:-1);});rows.forEach(function(r){tb.appendChild(r);});});});";

static void run_summary(const pvmmon_log *log, FILE *out)
{
	char t1[32], t2[32];
	int64_t vsum = 0, isum = 0;

	for (size_t i = 0; i < log->ntasks; i++) {
		vsum += log->tasks[i].virtual_ns;
		isum += log->tasks[i].intrusion_ns;
	}
	fputs("<dl class=run><dt>program</dt><dd>", out);
	put_html(out, log->program ? log->program : "?");
	for (size_t i = 0; i < log->nargs; i++) {
		fputc(' ', out);
		put_html(out, log->args[i]);
	}
	fputs("</dd><dt>started</dt><dd>", out);
	put_html(out, log->started ? log->started : "?");
	fprintf(out, "</dd><dt>wall time</dt><dd>%s</dd><dt>exit code</dt><dd>%d</dd>",
		graphs__fmt_time(t1, sizeof(t1), log->wall_ns), (int)log->exit_code);
	fprintf(out, "<dt>tasks / hosts</dt><dd>%zu / %zu</dd>", log->ntasks, log->nhosts);
	fprintf(out, "<dt>virtual time (sum)</dt><dd>%s</dd><dt>monitoring intrusion</dt>"
		     "<dd>%s (%.2f%%)</dd></dl>\n",
		graphs__fmt_time(t1, sizeof(t1), vsum), graphs__fmt_time(t2, sizeof(t2), isum),
		graphs__percent(isum, vsum + isum));
	fputs("<p class=note>", out);
	put_html(out, graphs__comp_sentence(log));
	fputs(".</p>\n", out);
}

static void tasks_table(const pvmmon_log *log, FILE *out)
{
	char b[32];

	fputs("<h2 id=tasks>Tasks</h2>\n<table class=sortable><thead><tr><th>task</th><th>tid</th>"
	      "<th>program</th><th>status</th><th>virtual</th><th>intrusion</th><th>sent</th>"
	      "<th>received</th><th>bytes sent</th></tr></thead><tbody>\n",
	      out);
	for (size_t i = 0; i < log->ntasks; i++) {
		const pvmmon_log_task *t = &log->tasks[i];

		fputs("<tr><td>", out);
		put_html(out, t->lid ? t->lid : "?");
		fprintf(out, "</td><td>t%x</td><td>", (unsigned)t->tid);
		put_html(out, graphs__base_name(t->program ? t->program : "?"));
		fprintf(out, "</td><td>%s", pvmmon_task_status_name(t->status));
		/* How it ended, in words ("killed by SIGSEGV at worker.c:31"). */
		if (t->ended) {
			fputs(": ", out);
			put_html(out, t->ended);
		}
		fputs("</td>", out);
		td_time(out, t->virtual_ns);
		td_time(out, t->intrusion_ns);
		td_count(out, t->msgs_sent);
		td_count(out, t->msgs_recv);
		fprintf(out, "<td class=n data-v=\"%" PRIu64 "\">%s</td></tr>\n", t->bytes_sent,
			graphs__fmt_bytes(b, sizeof(b), t->bytes_sent));
	}
	fputs("</tbody></table>\n", out);
}

/* Hosts and their clocks, for runs on several (times are on the monitor's clock). */
static void hosts_table(const pvmmon_log *log, FILE *out)
{
	char clk[160];

	if (log->nhosts < 2)
		return;
	fputs("<h2 id=hosts>Hosts</h2>\n<p class=note>Every time in this report is on the "
	      "monitor's clock; each host's times were converted with its clock's estimated "
	      "offset and drift.</p>\n<table><thead><tr><th>host</th><th>arch</th><th>tasks</th>"
	      "<th>clock</th></tr></thead><tbody>\n",
	      out);
	for (size_t i = 0; i < log->nhosts; i++) {
		const pvmmon_log_host *h = &log->hosts[i];

		fputs("<tr><td>", out);
		put_html(out, h->name ? h->name : "?");
		fputs("</td><td>", out);
		put_html(out, h->arch ? h->arch : "?");
		fprintf(out, "</td><td class=n>%zu</td><td>", graphs__host_tasks(log, h));
		put_html(out, graphs__host_clock(clk, sizeof(clk), h));
		fputs("</td></tr>\n", out);
	}
	fputs("</tbody></table>\n", out);
}

/* g: the histograms' grid, for a chart per statement; NULL when the log has none. */
static void statements_table(const pvmmon_log *log, const graphs_grid *g, FILE *out)
{
	char b[32], name[512];
	size_t n = 0;

	fputs("<h2 id=statements>Communication statements</h2>\n<table class=sortable><thead><tr>"
	      "<th>task</th><th>statement</th><th>call</th><th>count</th><th>time</th>"
	      "<th>sync delay</th><th>transmission</th><th>bytes</th>",
	      out);
	fputs(g ? "<th>time per bucket</th></tr></thead><tbody>\n" : "</tr></thead><tbody>\n", out);
	for (size_t i = 0; i < log->ntasks; i++)
		for (size_t j = 0; j < log->tasks[i].nstmts; j++) {
			const pvmmon_log_stmt *s = &log->tasks[i].stmts[j];

			fputs("<tr><td>", out);
			put_html(out, log->tasks[i].lid ? log->tasks[i].lid : "?");
			fputs("</td><td>", out);
			put_html(out, graphs__stmt_name(name, sizeof(name), &log->tasks[i], s));
			fputs("</td><td>", out);
			put_html(out, s->op ? s->op : "?");
			fputs("</td>", out);
			td_count(out, s->count);
			td_time(out, s->time_ns);
			td_time(out, s->sync_ns);
			td_time(out, s->trans_ns);
			fprintf(out, "<td class=n data-v=\"%" PRIu64 "\">%s</td>", s->bytes,
				graphs__fmt_bytes(b, sizeof(b), s->bytes));
			if (g)
				graphs__spark_stmt(out, g, &log->tasks[i], s);
			fputs("</tr>\n", out);
			n++;
		}
	fputs("</tbody></table>\n", out);
	if (!n)
		fputs("<p class=note>No communication statement was recorded.</p>\n", out);
}

/*
 * A call-graph node's name; a group of three or more mutually recursive procedures,
 * named by its entry and count, opens to list every member (the entry first), so a
 * procedure of the group can be found on the page.
 */
static void put_proc_name(FILE *out, const pvmmon_cg_node *nd)
{
	if (nd->nmembers < 3) {
		put_html(out, nd->name);
		return;
	}
	fputs("<details class=members><summary>", out);
	put_html(out, nd->name);
	fputs("</summary><ul>", out);
	for (size_t j = 0; j < nd->nmembers; j++) {
		fputs(j ? "<li>" : "<li><b>", out);
		put_html(out, nd->members[j]);
		fputs(j ? "</li>" : "</b> (entry)</li>", out);
	}
	fputs("</ul></details>", out);
}

/* Procedures of one program as call-graph nodes (recursion collapsed). */
static int procedures_table(const pvmmon_log *log, const pvmmon_log_task *t, const graphs_grid *g,
			    FILE *out)
{
	pvmmon_callgraph *cg = NULL;
	int rc = graphs__program_callgraph(log, t, &cg);

	if (rc < 0)
		goto out;
	fputs("<table class=sortable><thead><tr><th>procedure</th><th>defined at</th><th>calls</th>"
	      "<th>recursive calls</th><th>inclusive</th><th>exclusive</th>",
	      out);
	fputs(g ? "<th>time per bucket</th></tr></thead><tbody>\n" : "</tr></thead><tbody>\n", out);
	for (size_t i = 0; i < cg->nnodes; i++) {
		const pvmmon_cg_node *nd = &cg->nodes[i];

		fputs("<tr><td>", out);
		put_proc_name(out, nd);
		fputs("</td><td>", out);
		put_html(out, graphs__base_name(nd->file ? nd->file : "?"));
		fprintf(out, ":%d</td>", (int)nd->line);
		td_count(out, nd->calls);
		td_count(out, nd->inner_calls);
		if (nd->counted) {
			fputs("<td class=n data-v=\"-1\">counted</td><td class=n data-v=\"-1\">"
			      "counted</td>",
			      out);
		} else {
			td_time(out, nd->incl_ns);
			td_time(out, nd->excl_ns);
		}
		if (g)
			graphs__spark_proc(out, log, g, t, nd->name);
		fputs("</tr>\n", out);
	}
	fputs("</tbody></table>\n", out);
out:
	pvmmon_callgraph_free(cg);
	return rc;
}

/* No task of the log has the tid (an unmonitored partner). */
#define TASK_NONE (-1L)

/* The index of the task with tid, or TASK_NONE. */
static long task_of(const pvmmon_log *log, int32_t tid)
{
	for (size_t i = 0; i < log->ntasks; i++)
		if (log->tasks[i].tid == tid)
			return (long)i;
	return TASK_NONE;
}

static int is_send(const char *op)
{
	return op && (!strcmp(op, "pvm_send") || !strcmp(op, "pvm_psend") || !strcmp(op, "pvm_mcast"));
}

/* Tasks x tasks: messages and bytes each task sent to each other, as a heat map. */
static int message_matrix(const pvmmon_log *log, FILE *out)
{
	size_t n = log->ntasks;
	uint64_t *msgs = calloc(n * n + 1, sizeof(*msgs)), *bytes = calloc(n * n + 1, sizeof(*bytes));
	uint64_t most = 0;

	if (!msgs || !bytes) {
		free(msgs);
		free(bytes);
		return pvmmon_error_set(PVMMON_ENOMEM, "report: out of memory");
	}
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < log->tasks[i].nstmts; j++) {
			const pvmmon_log_stmt *s = &log->tasks[i].stmts[j];

			if (!is_send(s->op))
				continue;
			for (size_t c = 0; c < s->ncom; c++) {
				long d = task_of(log, s->com[c].partner_tid);

				if (d < 0)
					continue;
				msgs[i * n + (size_t)d] += s->com[c].count;
				bytes[i * n + (size_t)d] += s->com[c].bytes;
				if (bytes[i * n + (size_t)d] > most)
					most = bytes[i * n + (size_t)d];
			}
		}
	fputs("<h2 id=matrix>Message matrix</h2>\n<p>Messages and bytes sent by each task (rows) to "
	      "each task (columns); darker cells carry more bytes.</p>\n<table><thead><tr>"
	      "<th>from \\ to</th>",
	      out);
	for (size_t j = 0; j < n; j++) {
		fputs("<th>", out);
		put_html(out, log->tasks[j].lid ? log->tasks[j].lid : "?");
		fputs("</th>", out);
	}
	fputs("</tr></thead><tbody>\n", out);
	for (size_t i = 0; i < n; i++) {
		fputs("<tr><th>", out);
		put_html(out, log->tasks[i].lid ? log->tasks[i].lid : "?");
		fputs("</th>", out);
		for (size_t j = 0; j < n; j++) {
			uint64_t b = bytes[i * n + j], m = msgs[i * n + j];
			double share = most ? (double)b / (double)most : 0;
			char bb[32];

			if (!m) {
				fputs("<td></td>", out);
				continue;
			}
			fprintf(out, "<td class=n style=\"background:hsl(0,80%%,%d%%)\" title=\"%" PRIu64
				     " messages, %s\">%" PRIu64 "<br>%s</td>",
				(int)(97 - 47 * share), m, graphs__fmt_bytes(bb, sizeof(bb), b), m, bb);
		}
		fputs("</tr>\n", out);
	}
	fputs("</tbody></table>\n", out);
	free(msgs);
	free(bytes);
	return 0;
}

/* A picture in the page: an image for svg and png, a link for pdf. */
static void put_picture(FILE *out, const char *stem, const char *format, const char *alt)
{
	if (!strcmp(format, "pdf")) {
		fprintf(out, "<p><a href=\"%s.pdf\">", stem);
		put_html(out, alt);
		fputs(" (PDF)</a></p>\n", out);
		return;
	}
	fprintf(out, "<p><a href=\"%s.%s\"><img class=graph src=\"%s.%s\" alt=\"", stem, format,
		stem, format);
	put_html(out, alt);
	fputs("\"></a></p>\n", out);
}

/* The PVM usage errors section, when the checks found any: each finding as said, with
 * how often it happened. */
static void findings(const pvmmon_log *log, FILE *out)
{
	if (!log->nfindings)
		return;
	fputs("<h2 id=usage>PVM usage errors</h2>\n<p>Found by the checks while the run lasted "
	      "(<code>pvmmon run --check</code>), each said once per statement (pair):</p>\n"
	      "<ul>\n",
	      out);
	for (size_t i = 0; i < log->nfindings; i++) {
		fputs("<li><b>", out);
		put_html(out, log->findings[i].kind ? log->findings[i].kind : "?");
		fputs("</b>: ", out);
		put_html(out, log->findings[i].text ? log->findings[i].text : "");
		fprintf(out, " <span class=note>(%llu time%s)</span></li>\n",
			(unsigned long long)log->findings[i].count,
			log->findings[i].count == 1 ? "" : "s");
	}
	fputs("</ul>\n", out);
}

/*
 * The hangs section, when a task waited or a hang was said: each diagnosis as the
 * monitor said it while the run lasted, where each task waited when the log was
 * written, and the wait-for graph.
 */
static void hangs(const pvmmon_log *log, const pvmmon_report_opts *o, FILE *out)
{
	char t[32];

	if (!graphs__has_waits(log))
		return;
	fputs("<h2 id=hangs>Hangs</h2>\n", out);
	if (log->nhangs) {
		fputs("<p>Diagnosed while the run lasted, each with the time from the last block "
		      "of the tasks involved to the diagnosis:</p>\n<ul>\n",
		      out);
		for (size_t i = 0; i < log->nhangs; i++) {
			fputs("<li><b>", out);
			put_html(out, log->hangs[i].kind ? log->hangs[i].kind : "?");
			fputs("</b>: ", out);
			put_html(out, log->hangs[i].text ? log->hangs[i].text : "");
			fprintf(out, " <span class=note>(said %s after the last block)</span></li>\n",
				graphs__fmt_time(t, sizeof(t), log->hangs[i].delay_ns));
		}
		fputs("</ul>\n", out);
	} else {
		fputs("<p>No hang was diagnosed.</p>\n", out);
	}
	fputs("<p>Where tasks waited in a receive when the log was written:</p>\n<ul>\n", out);
	for (size_t i = 0; i < log->ntasks; i++) {
		if (!log->tasks[i].waiting)
			continue;
		fputs("<li>task ", out);
		put_html(out, log->tasks[i].lid ? log->tasks[i].lid : "?");
		fprintf(out, " (%s) waiting ", pvmmon_task_status_name(log->tasks[i].status));
		put_html(out, log->tasks[i].waiting);
		fputs("</li>\n", out);
	}
	fputs("</ul>\n<p>In the wait-for graph an arrow goes from a waiting task to the task it "
	      "waits for, labelled with the tag it waits for; a deadlock cycle is drawn in red, "
	      "a task that has ended in grey with how it ended, and a message queued that the "
	      "receive does not match as a dotted arrow from its sender.</p>\n",
	      out);
	put_picture(out, "waits", o->format, "wait-for graph");
}

/*
 * One space-time diagram: as SVG inlined in the page, where the script zooms, pans and
 * shows details, with a link to the picture alone; other formats as a picture.
 */
static int put_diagram(FILE *out, const pvmmon_log *log, pvmmon_timebase tb, const char *dir,
		       const char *stem, const char *format, const char *alt)
{
	char path[4200];
	int rc;

	if (strcmp(format, "svg")) {
		put_picture(out, stem, format, alt);
		return 0;
	}
	snprintf(path, sizeof(path), "%s/%s.svg", dir, stem);
	rc = graphs__html_inline_svg(out, path, graphs__spacetime_span(log, tb), alt);
	if (rc == 0)
		fprintf(out, "<p class=note><a href=\"%s.svg\">The picture alone</a>.</p>\n", stem);
	return rc;
}

/* The space-time section: the diagrams asked for, or why there are none. */
static int space_time(const pvmmon_log *log, const pvmmon_report_opts *o, const char *dir,
		      FILE *out)
{
	char a[32], b[32];
	int rc = 0;

	fputs("<h2 id=space-time>Space-time diagram</h2>\n", out);
	if (!has_trace(log)) {
		fputs("<p class=note>This run has no event trace, so there is no space-time diagram "
		      "(record one with <code>pvmmon run --trace</code>).</p>\n",
		      out);
		return 0;
	}
	fputs("<p>One lane per task: computing (green), waiting in a receive (red), inside a PVM "
	      "call (blue) and, in real time, monitoring overhead (orange); arrows are messages "
	      "from send to arrival. In virtual time the monitoring is taken out: it shows the "
	      "run as it would have gone unmonitored; real time shows what monitoring "
	      "changed.</p>\n",
	      out);
	fprintf(out, "<p>Trace: %" PRIu64 " events in the log (limit %s)", log->trace.kept,
		graphs__fmt_bytes(a, sizeof(a), log->trace.limit_bytes));
	if (log->trace.dropped)
		fprintf(out, "; %" PRIu64 " more were left out to stay within the limit, so the "
			     "trace covers the run's first %s only",
			log->trace.dropped,
			graphs__fmt_time(b, sizeof(b), log->trace.complete_until_ns));
	fputs(".</p>\n", out);
	if (o->time_axes & PVMMON_REPORT_VIRTUAL)
		rc = put_diagram(out, log, PVMMON_TIME_VIRTUAL, dir, "spacetime-virtual", o->format,
				 "space-time diagram, virtual time");
	if (rc == 0 && (o->time_axes & PVMMON_REPORT_REAL))
		rc = put_diagram(out, log, PVMMON_TIME_REAL, dir, "spacetime-real", o->format,
				 "space-time diagram, real time");
	return rc;
}

/*
 * The critical-path section: the online profile's length, where the path ends, and per
 * selected procedure its share of the path, its zeroing value and its CPU share, largest
 * share first; then the offline recomputation from the trace when there is one.
 */
static int critical_path(const pvmmon_log *log, const pvmmon_cpath *cp, const char *why,
			 FILE *out)
{
	const pvmmon_log_task *end;
	graphs_cp_row *rows = NULL;
	size_t n = 0;
	int64_t total = 0, len = log->cp.length_ns;
	char t1[32], t2[32];
	int rc;

	fputs("<h2 id=critical-path>Critical path</h2>\n", out);
	if (!log->cp.enabled) {
		fputs("<p class=note>This run has no critical-path data.</p>\n", out);
		return 0;
	}
	rc = graphs__cp_rows(log, &rows, &n, &total);
	if (rc < 0)
		return rc;
	end = graphs__task_by_tid(log, log->cp.end_tid);
	fprintf(out, "<p>Critical path length <b>%s</b> (virtual time), %s shares, ending in task ",
		graphs__fmt_time(t1, sizeof(t1), len),
		log->cp.exclusive ? "exclusive" : "inclusive");
	put_html(out, end && end->lid ? end->lid : "?");
	fprintf(out, " (t%x); %" PRIu64 " samples. A procedure's share is its time on the "
		     "longest path; its zeroing value is how much shorter the longest path gets "
		     "if it took no time; its CPU share is its %s time summed over all tasks, "
		     "as a part of all tasks' virtual time (%s).</p>\n",
		(unsigned)log->cp.end_tid, log->cp.samples,
		log->cp.exclusive ? "exclusive" : "inclusive",
		graphs__fmt_time(t2, sizeof(t2), total));
	fputs("<table class=sortable id=cp-table><thead><tr><th>procedure</th><th>share of the "
	      "path</th><th>% of the path</th><th>zeroing</th><th>% of the path</th><th>CPU "
	      "share</th></tr></thead><tbody>\n",
	      out);
	for (size_t i = 0; i < n; i++) {
		double share = graphs__percent(rows[i].share_ns, len);
		double zero = graphs__percent(rows[i].zero_ns, len);
		double cpu = graphs__percent(rows[i].cpu_ns, total);

		fputs("<tr><td>", out);
		put_html(out, rows[i].name);
		fputs("</td>", out);
		td_time(out, rows[i].share_ns);
		fprintf(out, "<td class=n data-v=\"%.4f\">%.1f%%</td>", share, share);
		td_time(out, rows[i].zero_ns);
		fprintf(out, "<td class=n data-v=\"%.4f\">%.1f%%</td>", zero, zero);
		fprintf(out, "<td class=n data-v=\"%.4f\">%.1f%%</td></tr>\n", cpu, cpu);
	}
	fputs("</tbody></table>\n", out);
	if (cp) {
		double diff = graphs__percent(cp->length_ns > len ? cp->length_ns - len
								  : len - cp->length_ns,
					      len);

		fprintf(out, "<p>Recomputed offline from the event trace (an activity graph of %zu "
			     "nodes and %zu arcs): length %s, %.2f%% from the online figure; the "
			     "path is drawn in thick black in the space-time diagram.</p>\n",
			cp->nnodes, cp->narcs, graphs__fmt_time(t1, sizeof(t1), cp->length_ns), diff);
	} else if (why && *why) {
		fputs("<p class=note>Not recomputed from the trace: ", out);
		put_html(out, why);
		fputs(".</p>\n", out);
	}
	free(rows);
	return 0;
}

static int write_index(const pvmmon_log *log, const pvmmon_log_task **progs, size_t nprogs,
		       const char *dir, const pvmmon_report_opts *o, const pvmmon_cpath *cp,
		       const char *why)
{
	char path[4096], tmp[4200];
	graphs_grid grid, *g = graphs__hist_grid(log, &grid) == 0 ? &grid : NULL;
	FILE *out;
	int rc = 0;

	snprintf(path, sizeof(path), "%s/index.html", dir);
	snprintf(tmp, sizeof(tmp), "%s.tmp%d", path, (int)getpid());
	out = fopen(tmp, "w");
	if (!out)
		return pvmmon_error_set(PVMMON_EIO, "report: cannot write %s: %s", path, strerror(errno));
	fputs("<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8><title>pvmmon report: ", out);
	put_html(out, graphs__base_name(log->program ? log->program : "?"));
	fprintf(out, "</title><style>%s%s</style></head><body>\n<h1>pvmmon report: ", style,
		graphs__html_interact_style);
	put_html(out, graphs__base_name(log->program ? log->program : "?"));
	fprintf(out, "</h1>\n<p><a href=\"#overview\">overview</a> &middot; %s<a href=\"#graphs\">graphs</a> &middot; <a href=\"#tasks\">tasks</a> "
	      "&middot; <a href=\"#statements\">statements</a> &middot; <a href=\"#procedures\">"
	      "procedures</a> &middot; <a href=\"#matrix\">message matrix</a> &middot; <a "
	      "href=\"#critical-path\">critical path</a> &middot; <a href=\"#space-time\">"
	      "space-time</a></p>\n",
	      graphs__has_waits(log) ? "<a href=\"#hangs\">hangs</a> &middot; " : "");
	run_summary(log, out);
	graphs__waits_html(log, out);
	if (graphs__waits_drawn(log))
		put_picture(out, "delays", o->format, "who delays whom: waiting caused and suffered");
	rc = graphs__html_overview(out, log, dir);
	findings(log, out);
	hangs(log, o, out);
	fputs("<h2 id=graphs>Program and call graphs</h2>\n<p>Nodes are coloured by their share of "
	      "the program's virtual time (white: none, red: all of it); statements below the "
	      "pruning threshold are folded into &ldquo;N more&rdquo; nodes.</p>\n",
	      out);
	for (size_t p = 0; p < nprogs; p++) {
		char stem[64], alt[512];
		const char *name = graphs__base_name(progs[p]->program ? progs[p]->program : "?");

		fputs("<h3>", out);
		put_html(out, name);
		fputs("</h3>\n", out);
		snprintf(stem, sizeof(stem), "program-%zu", p);
		snprintf(alt, sizeof(alt), "program graph of %s", name);
		put_picture(out, stem, o->format, alt);
		if (graphs__program_has_procs(log, progs[p])) {
			snprintf(stem, sizeof(stem), "calls-%zu", p);
			snprintf(alt, sizeof(alt), "call graph of %s", name);
			put_picture(out, stem, o->format, alt);
		}
	}
	hosts_table(log, out);
	tasks_table(log, out);
	statements_table(log, g, out);
	fputs("<h2 id=procedures>Procedures</h2>\n", out);
	{
		int any = 0;

		for (size_t p = 0; p < nprogs && rc == 0; p++)
			if (graphs__program_has_procs(log, progs[p])) {
				any = 1;
				fputs("<h3>", out);
				put_html(out, graphs__base_name(progs[p]->program ? progs[p]->program : "?"));
				fputs("</h3>\n", out);
				rc = procedures_table(log, progs[p], g, out);
			}
		if (!any)
			fputs("<p class=note>No procedure probes: build the program with pvmmon-cc for "
			      "procedure and loop times, or run it with pvmmon run --sample for "
			      "sampled ones.</p>\n",
			      out);
	}
	if (rc == 0)
		rc = graphs__html_samples(log, out);
	if (rc == 0)
		rc = message_matrix(log, out);
	if (rc == 0)
		rc = critical_path(log, cp, why, out);
	if (rc == 0)
		rc = space_time(log, o, dir, out);
	fprintf(out, "<script>%s%s</script>\n</body></html>\n", script,
		graphs__html_interact_script);
	if (fclose(out) != 0 && rc == 0)
		rc = pvmmon_error_set(PVMMON_EIO, "report: cannot write %s: %s", path, strerror(errno));
	if (rc == 0 && rename(tmp, path) != 0)
		rc = pvmmon_error_set(PVMMON_EIO, "report: cannot write %s: %s", path, strerror(errno));
	if (rc < 0)
		unlink(tmp);
	return rc;
}

int pvmmon_report_html(const pvmmon_log *log, const char *dir, const pvmmon_report_opts *opts)
{
	pvmmon_report_opts o = {"svg", 0, 0.01, PVMMON_REPORT_VIRTUAL};
	const pvmmon_log_task **progs = NULL;
	pvmmon_cpath *cp = NULL;
	char why[512] = "";
	size_t nprogs = 0;
	struct stat st;
	int rc;

	if (!log || !dir)
		return pvmmon_error_set(PVMMON_EINVAL, "report: no log or no folder");
	if (opts) {
		o = *opts;
		if (!o.format)
			o.format = "svg";
		if (!o.time_axes)
			o.time_axes = PVMMON_REPORT_VIRTUAL;
	}
	if (strcmp(o.format, "svg") && strcmp(o.format, "png") && strcmp(o.format, "pdf"))
		return pvmmon_error_set(PVMMON_EINVAL, "report: unknown format '%s' (svg, png or pdf)",
					o.format);
	if (mkdir(dir, 0755) != 0 && errno != EEXIST)
		return pvmmon_error_set(PVMMON_EIO, "report: cannot create %s: %s", dir, strerror(errno));
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
		return pvmmon_error_set(PVMMON_EIO, "report: %s is not a folder", dir);
	rc = pvmmon_report_programs(&progs, &nprogs, log);
	if (rc < 0)
		return rc;
	for (size_t p = 0; p < nprogs && rc == 0; p++) {
		char stem[64];

		snprintf(stem, sizeof(stem), "program-%zu", p);
		rc = make_graph(log, progs[p], gen_program, NULL, dir, stem, &o);
		if (rc == 0 && graphs__program_has_procs(log, progs[p])) {
			snprintf(stem, sizeof(stem), "calls-%zu", p);
			rc = make_graph(log, progs[p], gen_calls, NULL, dir, stem, &o);
		}
	}
	/* With a profile and a whole trace, the critical path is recomputed offline: it is
	 * drawn in the diagrams and checked against the online figures. Without one (or if
	 * it cannot be computed) the report says why and goes on. */
	if (rc == 0 && log->cp.enabled && has_trace(log) && pvmmon_cpath_compute(&cp, log) < 0) {
		snprintf(why, sizeof(why), "%s", pvmmon_error_last());
		cp = NULL;
	} else if (log->cp.enabled && !has_trace(log)) {
		snprintf(why, sizeof(why), "the run was not traced (pvmmon run --trace)");
	}
	if (rc == 0 && has_trace(log) && (o.time_axes & PVMMON_REPORT_VIRTUAL))
		rc = make_graph(log, NULL, gen_spacetime_virtual, cp, dir, "spacetime-virtual", &o);
	if (rc == 0 && has_trace(log) && (o.time_axes & PVMMON_REPORT_REAL))
		rc = make_graph(log, NULL, gen_spacetime_real, cp, dir, "spacetime-real", &o);
	if (rc == 0 && graphs__has_waits(log))
		rc = make_graph(log, NULL, gen_waits, NULL, dir, "waits", &o);
	if (rc == 0 && graphs__waits_drawn(log))
		rc = make_graph(log, NULL, gen_delays, NULL, dir, "delays", &o);
	if (rc == 0)
		rc = write_index(log, progs, nprogs, dir, &o, cp, why);
	pvmmon_cpath_free(cp);
	free(progs);
	return rc;
}
