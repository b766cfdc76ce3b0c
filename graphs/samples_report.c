/*
 * The reports' sections of call-path samples (graphs/samples.h): all sampled tasks merged
 * and each task's own, as text and as HTML with an offline SVG flame graph; where the
 * task's procedures were also probed by pvmmon-cc, both figures side by side.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pvmmon/errors.h"
#include "samples.h"

/* Procedures and paths shown in a report. */
#define TOP_PROCS 15
#define TOP_PATHS 5
/* A procedure whose sampled or probed share is below this is left out of the comparison
 * of the two (a share of a few samples says little). */
#define AGREE_MIN_PCT 5.0

static const char *base_name(const char *path)
{
	const char *b = path ? strrchr(path, '/') : NULL;

	return b ? b + 1 : path ? path : "?";
}

/* The share (percent) of t's virtual compute time that pvmmon-cc's probes measured in
 * procedure name (its exclusive time, summed over its callers), or -1 when t has no
 * timed probe record of it. */
static double probed_pct(const pvmmon_log_task *t, const graphs_samples *s, const char *name)
{
	int64_t ns = 0;
	int found = 0;

	for (size_t i = 0; i < t->nprocs; i++)
		if (!t->procs[i].counted && !strcmp(t->procs[i].name, name)) {
			ns += t->procs[i].excl_ns;
			found = 1;
		}
	if (!found || s->compute_ns <= 0)
		return -1;
	return 100.0 * (double)ns / (double)s->compute_ns;
}

/* Whether t has timed probe records (a pvmmon-cc build). */
static int probed(const pvmmon_log_task *t)
{
	for (size_t i = 0; i < t->nprocs; i++)
		if (!t->procs[i].counted)
			return 1;
	return 0;
}

/* The largest difference between the sampled self share and the probed share over the
 * shown procedures either puts at AGREE_MIN_PCT or more, into *worst (its name), and
 * how many were compared. */
static int agreement(const pvmmon_log_task *t, const graphs_samples *s, double *diff,
                     const char **worst)
{
	uint64_t c = s->by_state[PVMMON_SAMPLE_COMPUTE];
	int n = 0;

	*diff = 0;
	*worst = NULL;
	for (size_t i = 0; i < s->nprocs && i < TOP_PROCS; i++) {
		double sp = c ? 100.0 * (double)s->procs[i].self / (double)c : 0;
		double pp = probed_pct(t, s, s->procs[i].name);

		if (pp < 0 || (sp < AGREE_MIN_PCT && pp < AGREE_MIN_PCT))
			continue;
		n++;
		if (fabs(sp - pp) >= *diff) {
			*diff = fabs(sp - pp);
			*worst = s->procs[i].name;
		}
	}
	return n;
}

static double share(uint64_t n, uint64_t of) { return of ? 100.0 * (double)n / (double)of : 0; }

static void text_task(const pvmmon_log_task *t, const graphs_samples *s, FILE *out)
{
	uint64_t c = s->by_state[PVMMON_SAMPLE_COMPUTE];
	int with_probes = probed(t);

	fprintf(out, "\ntask %s (%s): %" PRIu64 " samples at %u Hz of CPU time: %" PRIu64
	             " computing, %" PRIu64 " in PVM calls, %" PRIu64
	             " in pvmmon's code (not charged)",
	        t->lid ? t->lid : "?", t->program ? t->program : "?", s->total, s->hz, c,
	        s->by_state[PVMMON_SAMPLE_PVM], s->by_state[PVMMON_SAMPLE_MONITOR]);
	if (s->truncated)
		fprintf(out, "; %" PRIu64 " cut short (the tree was full)", s->truncated);
	fprintf(out, "\n  sampling cost %.1f ms of CPU time", (double)s->cost_ns / 1e6);
	if (!c) {
		fputs("\n  no computing samples (the task computed less than a sampling period)\n",
		      out);
		return;
	}
	fprintf(out, "\n  %-28s %8s %6s %8s %6s %10s  %s%s\n", "procedure", "self", "%", "incl",
	        "%", "self ms", with_probes ? "probed %  " : "", "where");
	for (size_t i = 0; i < s->nprocs && i < TOP_PROCS; i++) {
		const graphs_sproc *p = &s->procs[i];

		if (!p->self && !p->incl)
			continue;
		fprintf(out, "  %-28s %8" PRIu64 " %5.1f%% %8" PRIu64 " %5.1f%% %10.1f  ", p->name,
		        p->self, share(p->self, c), p->incl, share(p->incl, c), p->self_ms);
		if (with_probes && probed_pct(t, s, p->name) >= 0)
			fprintf(out, "%7.1f%%  ", probed_pct(t, s, p->name));
		else if (with_probes)
			fprintf(out, "%8s  ", "-");
		if (p->file)
			fprintf(out, "%s:%d\n", base_name(p->file), p->line);
		else
			fputs("?\n", out);
	}
	if (with_probes) {
		const char *worst;
		double diff;
		int n = agreement(t, s, &diff, &worst);

		fputs("  self % and incl % are sampled; probed % is measured: the procedure's "
		      "exclusive time by pvmmon-cc's probes (its callers summed, code it inlines "
		      "or calls unprobed included) over the task's virtual compute time", out);
		if (n)
			fprintf(out, "; over the %d procedure%s at %.0f%% or more they differ by at most "
			             "%.1f points (%s)",
			        n, n == 1 ? "" : "s", AGREE_MIN_PCT, diff, worst);
		fputs("\n", out);
	}
	if (s->npaths)
		fprintf(out, "  hottest call paths:\n");
	for (size_t i = 0; i < s->npaths && i < TOP_PATHS; i++)
		fprintf(out, "  %5.1f%%  %s\n", share(s->paths[i].count, c), s->paths[i].text);
}

/* The merged table of all sampled tasks: procedures by name and module. */
static void text_all(const graphs_samples *s, FILE *out)
{
	uint64_t c = s->by_state[PVMMON_SAMPLE_COMPUTE];

	fprintf(out, "\nall %u sampled tasks: %" PRIu64 " samples, %" PRIu64 " computing%s\n",
	        s->ntasks, s->total, c,
	        s->mixed_hz ? " (counts scaled to the highest rate: the tasks' rates differ)" : "");
	if (!c)
		return;
	fprintf(out, "  %-28s %-16s %5s %8s %6s %8s %6s %10s\n", "procedure", "module", "tasks",
	        "self", "%", "incl", "%", "self ms");
	for (size_t i = 0; i < s->nprocs && i < TOP_PROCS; i++) {
		const graphs_sproc *p = &s->procs[i];

		if (!p->self && !p->incl)
			continue;
		fprintf(out, "  %-28s %-16s %5u %8" PRIu64 " %5.1f%% %8" PRIu64 " %5.1f%% %10.1f\n",
		        p->name, p->module, p->ntasks, p->self, share(p->self, c), p->incl,
		        share(p->incl, c), p->self_ms);
	}
	if (s->npaths)
		fprintf(out, "  hottest call paths of all tasks:\n");
	for (size_t i = 0; i < s->npaths && i < TOP_PATHS; i++)
		fprintf(out, "  %5.1f%%  %s (%u task%s)\n", share(s->paths[i].count, c),
		        s->paths[i].text, s->paths[i].ntasks, s->paths[i].ntasks == 1 ? "" : "s");
}

/* The heading once, all tasks merged by show_all when more than one task was sampled,
 * then each sampled task's section by show (nothing when no task has samples). */
static int each_task(const pvmmon_log *log, FILE *out, const char *heading,
                     void (*show_all)(const graphs_samples *, FILE *),
                     void (*show)(const pvmmon_log_task *, const graphs_samples *, FILE *))
{
	graphs_samples all, *per = calloc(log->ntasks ? log->ntasks : 1, sizeof(*per));
	int said = 0, rc;

	if (!per)
		return pvmmon_error_set(PVMMON_ENOMEM, "report: out of memory reading the samples");
	rc = graphs__samples_resolve(log, per, &all);
	if (rc == 0 && all.ntasks > 1) {
		fputs(heading, out);
		said = 1;
		show_all(&all, out);
	}
	for (size_t i = 0; i < log->ntasks && rc == 0; i++) {
		if (log->tasks[i].samples) {
			if (!said++)
				fputs(heading, out);
			show(&log->tasks[i], &per[i], out);
		}
		graphs__samples_clear(&per[i]);
	}
	if (rc == 0)
		graphs__samples_clear(&all);
	free(per);
	return rc;
}

int graphs__report_samples(const pvmmon_log *log, FILE *out)
{
	return each_task(log, out,
	                 "\nSampled procedures (from call-path samples of CPU time, not measured: "
	                 "a share of n samples is uncertain by about 100*sqrt(p(1-p)/n) points; "
	                 "self ms is the share of the task's virtual compute time)\n",
	                 text_all, text_task);
}

static void put_html(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '&')
			fputs("&amp;", out);
		else if (*s == '<')
			fputs("&lt;", out);
		else if (*s == '>')
			fputs("&gt;", out);
		else
			fputc(*s, out);
	}
}

static void html_flame(const graphs_samples *s, FILE *out);

static void html_paths(const graphs_samples *s, FILE *out)
{
	uint64_t c = s->by_state[PVMMON_SAMPLE_COMPUTE];

	fputs("<p>Hottest call paths:</p>\n<ul>\n", out);
	for (size_t i = 0; i < s->npaths && i < TOP_PATHS; i++) {
		fprintf(out, "<li>%.1f%% ", share(s->paths[i].count, c));
		put_html(out, s->paths[i].text);
		fputs("</li>\n", out);
	}
	fputs("</ul>\n", out);
}

static void html_task(const pvmmon_log_task *t, const graphs_samples *s, FILE *out)
{
	uint64_t c = s->by_state[PVMMON_SAMPLE_COMPUTE];
	int with_probes = probed(t);

	fputs("<h3>task ", out);
	put_html(out, t->lid);
	fprintf(out, "</h3>\n<p>%" PRIu64 " samples at %u Hz of CPU time: %" PRIu64
	             " computing, %" PRIu64 " in PVM calls, %" PRIu64
	             " in pvmmon's code (not charged).</p>\n",
	        s->total, s->hz, c, s->by_state[PVMMON_SAMPLE_PVM],
	        s->by_state[PVMMON_SAMPLE_MONITOR]);
	if (with_probes)
		fputs("<p class=note>self and inclusive are sampled; probed % is measured: the "
		      "procedure's exclusive time by pvmmon-cc's probes over the task's virtual "
		      "compute time.</p>\n",
		      out);
	fprintf(out, "<table class=sortable><thead><tr><th>procedure</th><th>self</th>"
	             "<th>self %%</th><th>inclusive</th><th>inclusive %%</th><th>self ms</th>%s"
	             "<th>where</th></tr></thead><tbody>\n",
	        with_probes ? "<th>probed %</th>" : "");
	for (size_t i = 0; i < s->nprocs && i < TOP_PROCS; i++) {
		const graphs_sproc *p = &s->procs[i];

		if (!p->self && !p->incl)
			continue;
		fputs("<tr><td>", out);
		put_html(out, p->name);
		fprintf(out, "</td><td>%" PRIu64 "</td><td>%.1f</td><td>%" PRIu64
		             "</td><td>%.1f</td><td>%.1f</td><td>",
		        p->self, share(p->self, c), p->incl, share(p->incl, c), p->self_ms);
		if (with_probes && probed_pct(t, s, p->name) >= 0)
			fprintf(out, "%.1f</td><td>", probed_pct(t, s, p->name));
		else if (with_probes)
			fputs("-</td><td>", out);
		put_html(out, p->file ? base_name(p->file) : "?");
		if (p->file)
			fprintf(out, ":%d", p->line);
		fputs("</td></tr>\n", out);
	}
	fputs("</tbody></table>\n<p>Flame graph of the computing samples (from main in; a box's "
	      "width is its samples, hover for its share):</p>\n",
	      out);
	html_flame(s, out);
	html_paths(s, out);
}

/* All sampled tasks merged: the table by procedure and module, the run's flame graph. */
static void html_all(const graphs_samples *s, FILE *out)
{
	uint64_t c = s->by_state[PVMMON_SAMPLE_COMPUTE];

	fprintf(out, "<h3>all %u sampled tasks</h3>\n<p>%" PRIu64 " samples, %" PRIu64
	             " computing%s.</p>\n",
	        s->ntasks, s->total, c,
	        s->mixed_hz ? " (counts scaled to the highest rate: the tasks' rates differ)" : "");
	fputs("<table class=sortable id=sampled-all><thead><tr><th>procedure</th><th>module</th>"
	      "<th>tasks</th><th>self</th><th>self %</th><th>inclusive</th><th>inclusive %</th>"
	      "<th>self ms</th></tr></thead><tbody>\n",
	      out);
	for (size_t i = 0; i < s->nprocs && i < TOP_PROCS; i++) {
		const graphs_sproc *p = &s->procs[i];

		if (!p->self && !p->incl)
			continue;
		fputs("<tr><td>", out);
		put_html(out, p->name);
		fputs("</td><td>", out);
		put_html(out, p->module);
		fprintf(out, "</td><td>%u</td><td>%" PRIu64 "</td><td>%.1f</td><td>%" PRIu64
		             "</td><td>%.1f</td><td>%.1f</td></tr>\n",
		        p->ntasks, p->self, share(p->self, c), p->incl, share(p->incl, c), p->self_ms);
	}
	fputs("</tbody></table>\n<p>Flame graph of the whole run's computing samples (all tasks; "
	      "a box's width is its samples, hover for its share):</p>\n",
	      out);
	html_flame(s, out);
	html_paths(s, out);
}

/* Flame graph geometry: the picture's width, a frame's height, the deepest frames drawn. */
#define FLAME_W 960
#define FLAME_H 17
#define FLAME_DEPTH 32

/* The k-th frame's name of path text (frames separated by " > "): its start and length;
 * 0 when the path has fewer frames. */
static int frame_at(const char *text, int k, const char **name, size_t *len)
{
	const char *p = text, *end;

	for (int i = 0; i < k; i++) {
		p = strstr(p, " > ");
		if (!p)
			return 0;
		p += 3;
	}
	end = strstr(p, " > ");
	*name = p;
	*len = end ? (size_t)(end - p) : strlen(p);
	return *len > 0;
}

static int by_text(const void *a, const void *b)
{
	return strcmp(((const graphs_spath *)a)->text, ((const graphs_spath *)b)->text);
}

/* Whether paths a and b have the same first k + 1 frames. */
static int same_prefix(const char *a, const char *b, int k)
{
	for (int i = 0; i <= k; i++) {
		const char *na, *nb;
		size_t la, lb;

		if (!frame_at(a, i, &na, &la) || !frame_at(b, i, &nb, &lb) || la != lb ||
		    strncmp(na, nb, la))
			return 0;
	}
	return 1;
}

/* One frame's box: x and width in samples, its name, its share of c in the tooltip. */
static void flame_box(FILE *out, uint64_t x, uint64_t w, int depth, const char *name, size_t len,
                      uint64_t c)
{
	double px = (double)FLAME_W * (double)x / (double)c, pw = (double)FLAME_W * (double)w / (double)c;
	unsigned hash = 0;
	char label[256];

	for (size_t i = 0; i < len; i++)
		hash = hash * 31 + (unsigned char)name[i];
	snprintf(label, sizeof(label), "%.*s", (int)(len < 200 ? len : 200), name);
	fputs("<g><title>", out);
	put_html(out, label);
	fprintf(out, ": %" PRIu64 " samples, %.1f%%</title><rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" "
	             "height=\"%d\" fill=\"rgb(%u,%u,60)\" stroke=\"white\"/>",
	        w, share(w, c), px, depth * FLAME_H, pw, FLAME_H - 1, 205 + hash % 50,
	        80 + (hash / 50) % 120);
	/* A name only where it fits (about 7 px a character). */
	if (pw > 30) {
		size_t fit = (size_t)((pw - 6) / 7);

		fprintf(out, "<text x=\"%.1f\" y=\"%d\" font-size=\"12\" font-family=\"monospace\">",
		        px + 3, depth * FLAME_H + 12);
		if (fit < strlen(label))
			label[fit] = '\0';
		put_html(out, label);
		fputs("</text>", out);
	}
	fputs("</g>\n", out);
}

/*
 * An icicle-style flame graph of the computing paths, offline SVG in the page: one box
 * per procedure on a path, from main at the top inwards, as wide as its samples; the
 * paths sorted by name so that a caller's paths are side by side and its box is one.
 */
static void html_flame(const graphs_samples *s, FILE *out)
{
	uint64_t c = s->by_state[PVMMON_SAMPLE_COMPUTE];
	graphs_spath *paths;
	int depth = 0;

	if (!c || !s->npaths || !(paths = malloc(s->npaths * sizeof(*paths))))
		return;
	memcpy(paths, s->paths, s->npaths * sizeof(*paths));
	qsort(paths, s->npaths, sizeof(*paths), by_text);
	for (size_t i = 0; i < s->npaths; i++) {
		const char *name;
		size_t len;
		int d = 0;

		while (d < FLAME_DEPTH && frame_at(paths[i].text, d, &name, &len))
			d++;
		if (d > depth)
			depth = d;
	}
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
	             "class=flame role=img aria-label=\"flame graph of the sampled call paths\">\n",
	        FLAME_W, depth * FLAME_H);
	for (int k = 0; k < depth; k++) {
		uint64_t x = 0;

		for (size_t i = 0; i < s->npaths;) {
			const char *name;
			size_t len, j = i;
			uint64_t w = 0;

			if (!frame_at(paths[i].text, k, &name, &len)) {
				x += paths[i++].count;
				continue;
			}
			while (j < s->npaths && same_prefix(paths[i].text, paths[j].text, k))
				w += paths[j++].count;
			flame_box(out, x, w, k, name, len, c);
			x += w;
			i = j;
		}
	}
	fputs("</svg>\n", out);
	free(paths);
}

int graphs__html_samples(const pvmmon_log *log, FILE *out)
{
	return each_task(log, out,
	                 "<h2 id=sampled>Sampled procedures</h2>\n<p class=note>From call-path "
	                 "samples of each task's CPU time, not measured: shares of the computing "
	                 "samples, self ms scaled to the task's virtual compute time.</p>\n",
	                 html_all, html_task);
}
