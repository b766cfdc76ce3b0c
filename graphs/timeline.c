/* The overview timeline (SVG) and the small per-item charts, both drawn from time histograms. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "figures.h"
#include "histo.h"
#include "pvmmon/errors.h"
#include "pvmmon/report.h"

/* Geometry: the plot's width, the lanes' height bounds and the labels' column. */
#define PLOT_W 900.0
#define LANE_MAX 20.0
#define LANE_MIN 4.0
#define LANES_H 640.0 /* lanes shrink to fit this height, down to LANE_MIN */
#define LABEL_W 64.0
#define TOP 44.0
#define XMLNS " xmlns=\"http://www.w3.org/2000/svg\""
#define LABEL_PX 11.0 /* a label's height: every k-th lane is labelled so they never touch */

/* The states' colours, as in the space-time diagram: computing green, waiting red,
 * inside PVM blue, monitoring orange. */
static const char *const colours[GRAPHS_NSTATES] = {"#4caf50", "#e53935", "#1e88e5", "#fb8c00"};

static void put_xml(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", out);
			break;
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '"':
			fputs("&quot;", out);
			break;
		default:
			fputc(*s, out);
		}
	}
}

static void style_and_legend(FILE *out)
{
	static const char *const words[GRAPHS_NSTATES] = {"computing", "waiting in a receive",
	                                                  "inside PVM", "monitoring"};
	double x = LABEL_W;

	fputs("<style>.tl text{font:11px Helvetica,Arial,sans-serif;fill:#222}"
	      ".tl .lane{fill:#f2f2f2}.tl g.task rect[class^=s]{shape-rendering:crispEdges}"
	      ".tl .phase{stroke:#333;stroke-dasharray:4 3;stroke-width:1}",
	      out);
	for (int k = 0; k < GRAPHS_NSTATES; k++)
		fprintf(out, ".tl .s%d{fill:%s}", k, colours[k]);
	fputs("</style>\n<g class=\"legend\">", out);
	for (int k = 0; k < GRAPHS_NSTATES; k++) {
		fprintf(out,
		        "<rect class=\"s%d\" x=\"%.0f\" y=\"8\" width=\"12\" height=\"12\"/>"
		        "<text x=\"%.0f\" y=\"18\">%s</text>",
		        k, x, x + 16, words[k]);
		x += 16 + 6.2 * (double)strlen(words[k]) + 18;
	}
	fprintf(out,
	        "<rect class=\"lane\" x=\"%.0f\" y=\"8\" width=\"12\" height=\"12\" "
	        "stroke=\"#ccc\"/><text x=\"%.0f\" y=\"18\">not running</text></g>\n",
	        x, x + 16);
}

/* One bucket of one lane: its states stacked bottom up, heights in proportion to their
 * share of the bucket's time, with a tooltip. */
/* Below this drawn lane height four stacked states cannot be told apart: each bucket is
 * then one box, its colour the states' colours mixed in proportion to their shares
 * (and the lane's grey for the time the task did not run). */
#define STACK_MIN 9.0

/* The colour of a bucket in mixed mode: each state's colour weighted by its share. */
static void mix(FILE *out, const double *v, double whole)
{
	static const unsigned rgb[GRAPHS_NSTATES + 1] = {0x4caf50, 0xe53935, 0x1e88e5, 0xfb8c00,
	                                                 0xf2f2f2};
	double c[3] = {0, 0, 0}, used = 0;

	for (int k = 0; k <= GRAPHS_NSTATES; k++) {
		double w = k < GRAPHS_NSTATES ? v[k] / whole : 1 - used;

		if (k < GRAPHS_NSTATES)
			used += w;
		for (int j = 0; j < 3; j++)
			c[j] += w * (double)((rgb[k] >> (16 - 8 * j)) & 0xff);
	}
	fprintf(out, "#%02x%02x%02x", (unsigned)(c[0] + 0.5), (unsigned)(c[1] + 0.5),
	        (unsigned)(c[2] + 0.5));
}

static void bucket(FILE *out, const pvmmon_log_task *t, const graphs_grid *g, size_t c, double y,
                   double lane_h, double col_w)
{
	double v[GRAPHS_NSTATES], sum = 0, whole, base = y + lane_h;
	int64_t t0 = (int64_t)c * g->width, t1 = t0 + g->width;
	char a[32], b[32];

	graphs__task_states(t, g->axis, t0, t1, v);
	for (int k = 0; k < GRAPHS_NSTATES; k++)
		sum += v[k];
	if (sum <= 0)
		return;
	/* Time metrics of a bucket add up to at most its width; overhead is real time
	 * on top of virtual, so a bucket may hold more: then the sum is the whole. */
	whole = sum > (double)g->width ? sum : (double)g->width;
	fputs("<g><title>task ", out);
	put_xml(out, t->lid ? t->lid : "?");
	fprintf(out, ", %s to %s:", graphs__fmt_time(a, sizeof(a), t0),
	        graphs__fmt_time(b, sizeof(b), t1));
	for (int k = 0; k < GRAPHS_NSTATES; k++)
		fprintf(out, " %s %.1f%%%s", graphs__state_name(k), 100.0 * v[k] / whole,
		        k + 1 < GRAPHS_NSTATES ? "," : "");
	fputs("</title>", out);
	if (lane_h < STACK_MIN) {
		fprintf(out,
		        "<rect class=\"mix\" x=\"%.2f\" y=\"%.3f\" width=\"%.2f\" height=\"%.3f\" "
		        "fill=\"",
		        LABEL_W + (double)c * col_w, y, col_w + 0.4, lane_h);
		mix(out, v, whole);
		fputs("\"/></g>\n", out);
		return;
	}
	for (int k = 0; k < GRAPHS_NSTATES; k++) {
		double h = lane_h * v[k] / whole;

		if (h <= 0)
			continue;
		base -= h;
		fprintf(
		    out,
		    "<rect class=\"s%d\" x=\"%.2f\" y=\"%.3f\" width=\"%.2f\" height=\"%.3f\"/>", k,
		    LABEL_W + (double)c * col_w, base, col_w, h);
	}
	fputs("</g>\n", out);
}

/* The phases the text report finds, as dashed lines at their boundaries over every lane,
 * each phase's number above its start. */
static void phases(FILE *out, const pvmmon_log *log, double bottom, double col_w)
{
	graphs_phase ph[GRAPHS_MAX_PHASES];
	size_t n = 0;

	if (graphs__log_phases(log, ph, &n) < 0 || n < 2)
		return;
	fputs("<g class=\"phases\">", out);
	for (size_t i = 0; i < n; i++) {
		double x = LABEL_W + (double)ph[i].first * col_w;

		if (i)
			fprintf(out,
			        "<line class=\"phase\" x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" "
			        "y2=\"%.1f\"/>",
			        x, TOP - 12, x, bottom);
		fprintf(out, "<text x=\"%.2f\" y=\"%.1f\">phase %zu</text>", x + 3, TOP - 4, i + 1);
	}
	fputs("</g>\n", out);
}

static void axis(FILE *out, const graphs_grid *g, double y, double col_w)
{
	int64_t span = (int64_t)g->n * g->width;
	char a[32];

	fprintf(out,
	        "<g class=\"axis\"><line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
	        "stroke=\"#888\"/>",
	        LABEL_W, y, LABEL_W + (double)g->n * col_w, y);
	for (int i = 0; i <= 5; i++) {
		double x = LABEL_W + (double)g->n * col_w * i / 5;

		fprintf(out,
		        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#888\"/>"
		        "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">%s</text>",
		        x, y, x, y + 4, x, y + 16,
		        i == 0   ? "start"
		        : i == 5 ? "end"
		                 : "middle",
		        graphs__fmt_time(a, sizeof(a), span * i / 5));
	}
	fprintf(out,
	        "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s time from the run's "
	        "start (buckets of %s)</text></g>\n",
	        LABEL_W + (double)g->n * col_w / 2, y + 32,
	        g->axis == PVMMON_AXIS_VIRTUAL ? "virtual" : "real",
	        graphs__fmt_time(a, sizeof(a), g->width));
}

int pvmmon_report_svg_timeline(const pvmmon_log *log, FILE *out)
{
	graphs_grid g;
	double lane_h, col_w, width, height;
	size_t every;

	if (!log || !out)
		return pvmmon_error_set(PVMMON_EINVAL, "timeline: no log or no output");
	if (graphs__hist_grid(log, &g) < 0 || !g.n || !log->ntasks)
		return pvmmon_error_set(PVMMON_EINVAL,
		                        "timeline: the log has no task state histograms "
		                        "(a run with time histograms, log version 1.6)");
	/* Lanes shrink to fit, never below LANE_MIN: at 128 tasks and more the picture
	 * grows instead, and every k-th lane is labelled. */
	lane_h = LANES_H / (double)log->ntasks;
	lane_h = lane_h > LANE_MAX ? LANE_MAX : lane_h < LANE_MIN ? LANE_MIN : lane_h;
	every = (size_t)(LABEL_PX / lane_h);
	every += (double)every * lane_h < LABEL_PX;
	col_w = PLOT_W / (double)g.n;
	width = LABEL_W + PLOT_W + 20;
	height = TOP + lane_h * (double)log->ntasks + 44 + (lane_h * 0.9 < STACK_MIN ? 14 : 0);
	fprintf(out,
	        "<svg" XMLNS " class=\"tl\" width=\"%.0f\" "
	        "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" data-lanes=\"%zu\" data-cols=\"%zu\" "
	        "data-width-ns=\"%" PRId64 "\" data-label-every=\"%zu\" data-mode=\"%s\">\n",
	        width, height, width, height, log->ntasks, g.n, g.width, every,
	        lane_h * 0.9 < STACK_MIN ? "mix" : "stack");
	style_and_legend(out);
	for (size_t i = 0; i < log->ntasks; i++) {
		const pvmmon_log_task *t = &log->tasks[i];
		double y = TOP + lane_h * (double)i;

		fprintf(out, "<g class=\"task\" data-lid=\"");
		put_xml(out, t->lid ? t->lid : "?");
		fprintf(out,
		        "\"><rect class=\"lane\" x=\"%.0f\" y=\"%.3f\" width=\"%.0f\" "
		        "height=\"%.3f\"/>",
		        LABEL_W, y, PLOT_W, lane_h * 0.9);
		if (i % every == 0) {
			fprintf(out, "<text x=\"%.0f\" y=\"%.2f\" text-anchor=\"end\">",
			        LABEL_W - 4, y + (lane_h < LABEL_PX ? lane_h : LABEL_PX) * 0.85);
			put_xml(out, t->lid ? t->lid : "?");
			fputs("</text>", out);
		}
		fputc('\n', out);
		for (size_t c = 0; c < g.n; c++)
			bucket(out, t, &g, c, y, lane_h * 0.9, col_w);
		fputs("</g>\n", out);
	}
	phases(out, log, TOP + lane_h * (double)log->ntasks, col_w);
	axis(out, &g, TOP + lane_h * (double)log->ntasks + 2, col_w);
	if (lane_h * 0.9 < STACK_MIN)
		fprintf(out,
		        "<text x=\"%.0f\" y=\"%.0f\">Lanes too thin to stack the states: each "
		        "bucket's colour is the states' colours mixed by their shares (hover for "
		        "the numbers).</text>\n",
		        LABEL_W, height - 4);
	fputs("</svg>\n", out);
	if (ferror(out))
		return pvmmon_error_set(PVMMON_EIO, "timeline: cannot write");
	return 0;
}

void graphs__svg_spark(FILE *out, const pvmmon_log_hist *const *hs, size_t nh, const graphs_grid *g)
{
	double *v, most = 0, total = 0;
	size_t peak = 0;
	char a[32], b[32], c[32], d[32], e[32];
	int time = nh && pvmmon_hist_metric_is_time(hs[0]->metric);

	if (!nh || !g->n || !(v = calloc(g->n, sizeof(*v))))
		return;
	for (size_t i = 0; i < g->n; i++) {
		for (size_t k = 0; k < nh; k++)
			v[i] += graphs__hist_sum(hs[k], (int64_t)i * g->width,
			                         (int64_t)(i + 1) * g->width);
		total += v[i];
		if (v[i] > most) {
			most = v[i];
			peak = i;
		}
	}
	/* One bar per column of the report's grid, so every chart of the page shares the
	 * overview's time axis; scaled to the item's own largest bucket. */
	fprintf(out,
	        "<svg class=\"spark\" width=\"120\" height=\"18\" viewBox=\"0 0 %zu 18\" "
	        "preserveAspectRatio=\"none\"><title>",
	        g->n);
	if (time)
		fprintf(out, "%s in all, most in %s to %s (%s); buckets of %s",
		        graphs__fmt_time(a, sizeof(a), graphs__round(total)),
		        graphs__fmt_time(b, sizeof(b), (int64_t)peak * g->width),
		        graphs__fmt_time(c, sizeof(c), (int64_t)(peak + 1) * g->width),
		        graphs__fmt_time(d, sizeof(d), graphs__round(most)),
		        graphs__fmt_time(e, sizeof(e), g->width));
	else
		fprintf(out, "%.0f in all; buckets of %s", total,
		        graphs__fmt_time(a, sizeof(a), g->width));
	fputs("</title><rect width=\"100%\" height=\"18\" fill=\"#f4f4f4\"/><path fill=\"#c62828\" "
	      "d=\"",
	      out);
	for (size_t i = 0; most > 0 && i < g->n; i++) {
		double h = 17.0 * v[i] / most;

		if (h > 0.05)
			fprintf(out, "M%zu 18v%.2fh1V18z", i, -h);
	}
	fputs("\"/></svg>", out);
	free(v);
}

void graphs__spark_stmt(FILE *out, const graphs_grid *g, const pvmmon_log_task *t,
                        const pvmmon_log_stmt *s)
{
	const pvmmon_log_hist *h = graphs__hist_find(t->hists, t->nhists, PVMMON_HIST_TIME,
	                                             PVMMON_FOCUS_STMT, NULL, s->id, g->axis);

	fputs("<td class=chart>", out);
	if (h)
		graphs__svg_spark(out, &h, 1, g);
	else
		fputs("<span class=note>no histogram</span>", out);
	fputs("</td>", out);
}

void graphs__spark_proc(FILE *out, const pvmmon_log *log, const graphs_grid *g,
                        const pvmmon_log_task *prog, const char *name)
{
	const pvmmon_log_hist **hs = calloc(log->ntasks + 1, sizeof(*hs));
	size_t n = 0;

	fputs("<td class=chart>", out);
	/* The procedure's histograms of every task of the program, summed. */
	for (size_t i = 0; hs && i < log->ntasks; i++) {
		const pvmmon_log_task *t = &log->tasks[i];
		const pvmmon_log_hist *h;

		if (!graphs__same_program(t, prog))
			continue;
		h = graphs__hist_find(t->hists, t->nhists, PVMMON_HIST_TIME, PVMMON_FOCUS_PROC,
		                      name, 0, g->axis);
		if (h)
			hs[n++] = h;
	}
	if (n)
		graphs__svg_spark(out, hs, n, g);
	else
		fputs("<span class=note>no histogram</span>", out);
	fputs("</td>", out);
	free(hs);
}

/* Writes the timeline to dir/timeline.svg (a temporary name, then renamed) and keeps
 * its text in *text for the page. */
static int timeline_file(const pvmmon_log *log, const char *dir, char **text)
{
	char path[4096], tmp[4200];
	size_t len = 0;
	FILE *mem = open_memstream(text, &len), *f;
	int rc;

	if (!mem)
		return pvmmon_error_set(PVMMON_ENOMEM, "report: out of memory");
	rc = pvmmon_report_svg_timeline(log, mem);
	if (fclose(mem) != 0 && rc == 0)
		rc = pvmmon_error_set(PVMMON_ENOMEM, "report: out of memory");
	if (rc < 0)
		return rc;
	snprintf(path, sizeof(path), "%s/timeline.svg", dir);
	snprintf(tmp, sizeof(tmp), "%s.tmp%d", path, (int)getpid());
	f = fopen(tmp, "w");
	if (!f || fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f) < 0 ||
	    fwrite(*text, 1, len, f) != len || fclose(f) != 0 || rename(tmp, path) != 0) {
		rc = pvmmon_error_set(PVMMON_EIO, "report: cannot write %s: %s", path,
		                      strerror(errno));
		unlink(tmp);
	}
	return rc;
}

/* The phases under the overview: their spans and state shares. */
static void phase_table(FILE *out, const pvmmon_log *log)
{
	graphs_phase ph[GRAPHS_MAX_PHASES];
	size_t n = 0;
	char a[32], b[32];

	if (graphs__log_phases(log, ph, &n) < 0 || !n)
		return;
	fputs("<p>Phases: where the program's shares of the four states change most (the text "
	      "report lists each one's top statements; <code>pvmmon report --between</code> "
	      "gives its tables).</p>\n<table id=phases><thead><tr><th>phase</th><th>from</th>"
	      "<th>to</th>",
	      out);
	for (int k = 0; k < GRAPHS_NSTATES; k++)
		fprintf(out, "<th>%s</th>", graphs__state_name(k));
	fputs("</tr></thead><tbody>\n", out);
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "<tr><td>%zu</td><td class=n>%s</td><td class=n>%s</td>", i + 1,
		        graphs__fmt_time(a, sizeof(a), ph[i].from_ns),
		        graphs__fmt_time(b, sizeof(b), ph[i].to_ns));
		for (int k = 0; k < GRAPHS_NSTATES; k++)
			fprintf(out, "<td class=n>%.1f%%</td>", 100 * ph[i].share[k]);
		fputs("</tr>\n", out);
	}
	fputs("</tbody></table>\n", out);
}

int graphs__html_overview(FILE *out, const pvmmon_log *log, const char *dir)
{
	char *svg = NULL;
	int rc;

	fputs("<h2 id=overview>Overview</h2>\n", out);
	if (!log->hist.enabled && !log->nhists) {
		size_t i;

		for (i = 0; i < log->ntasks && !log->tasks[i].nhists; i++)
			;
		if (i == log->ntasks) {
			fputs("<p class=note>This log has no time histograms (a run of pvmmon with "
			      "log version 1.6 or later keeps them), so there is no overview "
			      "timeline.</p>\n",
			      out);
			return 0;
		}
	}
	rc = timeline_file(log, dir, &svg);
	if (rc == PVMMON_EINVAL) {
		fputs("<p class=note>No task kept histograms of its states, so there is no "
		      "overview timeline.</p>\n",
		      out);
		free(svg);
		return 0;
	}
	if (rc == 0) {
		fputs(
		    "<p>One lane per task, one column per bucket of the time histograms: each "
		    "bucket shows the task's time computing (green), waiting in a receive (red), "
		    "inside PVM (blue) and in monitoring (orange), stacked in proportion to their "
		    "shares of the bucket; grey is time the task did not run. Hover a bucket for "
		    "its shares and time span. It needs no trace.</p>\n<div class=tl-box>",
		    out);
		/* Inlined, so that the tooltips work; without the namespace declaration,
		 * which HTML does not need, so the page holds no address. */
		char *ns = strstr(svg, XMLNS);

		if (ns)
			memmove(ns, ns + strlen(XMLNS), strlen(ns + strlen(XMLNS)) + 1);
		fputs(svg, out);
		fputs("</div>\n<p class=note><a href=\"timeline.svg\">The picture alone</a>.</p>\n",
		      out);
		phase_table(out, log);
	}
	free(svg);
	return rc;
}
