/*
 * The reports' sampled procedures and hottest call paths (graphs/samples.h): each
 * task's call-path samples resolved to procedures with libdw after the run, counted
 * self and inclusive, their shares of the task's computing samples scaled to its
 * virtual compute time.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../common/symbols.h"
#include "pvmmon/errors.h"
#include "samples.h"

/* Procedures and paths shown in a report. */
#define TOP_PROCS 15
#define TOP_PATHS 5
/* The most inlined functions said at one frame. */
#define INL_MAX 7
/* The most procedures on one path (frames and their inlined functions). */
#define PATH_MAX_PROCS 512

/* Work space of one task's resolution: each node's procedure, and a mark per procedure
 * so that a path counts a procedure once however deep its recursion. */
typedef struct resolver {
	pvmmon_symbols *syms;
	graphs_samples *s;
	size_t cap;
	/* node -> its procedures, innermost first: the functions inlined there, then the
	 * function whose code it is (chain[i * (INL_MAX + 1)], nchain[i] of them). */
	size_t *chain;
	int *nchain;
	uint64_t *mark;  /* procedure -> the last walk that counted it */
} resolver;

static const char *base_name(const char *path)
{
	const char *b = path ? strrchr(path, '/') : NULL;

	return b ? b + 1 : path ? path : "?";
}

/* The procedure index named name (added when new), or -1 when memory is short. */
static int64_t proc_index(resolver *r, const char *name, const char *file, int line)
{
	graphs_samples *s = r->s;

	for (size_t i = 0; i < s->nprocs; i++)
		if (!strcmp(s->procs[i].name, name))
			return (int64_t)i;
	if (s->nprocs == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 32;
		graphs_sproc *p = realloc(s->procs, cap * sizeof(*p));
		uint64_t *m = realloc(r->mark, cap * sizeof(*m));

		if (p)
			s->procs = p;
		if (m)
			r->mark = m;
		if (!p || !m)
			return -1;
		r->cap = cap;
	}
	s->procs[s->nprocs] = (graphs_sproc){strdup(name), file ? strdup(file) : NULL, line, 0, 0};
	r->mark[s->nprocs] = UINT64_MAX;
	if (!s->procs[s->nprocs].name)
		return -1;
	return (int64_t)s->nprocs++;
}

/* Each node's procedures: the functions inlined at it (innermost first) and its
 * function by libdw, or "?" and its module's name. */
static int resolve_nodes(resolver *r, const pvmmon_log_samples *sm)
{
	for (size_t i = 0; i < sm->nnodes; i++) {
		const pvmmon_log_snode *n = &sm->nodes[i];
		const char *module = sm->modules[n->module];
		char *file = NULL, *func = NULL, unknown[300], *inl[INL_MAX];
		size_t *chain = &r->chain[i * (INL_MAX + 1)];
		int line = 0, ninl, rc = 0;
		int64_t k;

		pvmmon_symbols_resolve(&file, &line, &func, r->syms, module, n->offset);
		snprintf(unknown, sizeof(unknown), "? (%s)", base_name(module));
		ninl = func ? pvmmon_symbols_inlined(inl, INL_MAX, r->syms, module, n->offset) : 0;
		for (int j = 0; j < ninl; j++) {
			if (rc == 0 && (k = proc_index(r, inl[j], file, line)) >= 0)
				chain[r->nchain[i]++] = (size_t)k;
			else
				rc = PVMMON_ENOMEM;
			free(inl[j]);
		}
		k = proc_index(r, func ? func : unknown, file, line);
		free(file);
		free(func);
		if (k < 0 || rc < 0)
			return PVMMON_ENOMEM;
		chain[r->nchain[i]++] = (size_t)k;
	}
	pvmmon_error_clear();
	return 0;
}

/* The path of node i as text, from the innermost "main" (or the outermost frame) in,
 * inlined functions included. */
static char *path_text(const resolver *r, const pvmmon_log_samples *sm, size_t i)
{
	size_t procs[PATH_MAX_PROCS], n = 0, from, len = 1;
	char *text;

	for (int64_t j = (int64_t)i; j >= 0; j = sm->nodes[j].parent)
		for (int k = 0; k < r->nchain[j] && n < PATH_MAX_PROCS; k++)
			procs[n++] = r->chain[(size_t)j * (INL_MAX + 1) + (size_t)k];
	from = n;
	for (size_t k = 0; k < n; k++)
		if (!strcmp(r->s->procs[procs[k]].name, "main") ||
		    !strcmp(r->s->procs[procs[k]].name, "MAIN__")) {
			from = k + 1;
			break;
		}
	for (size_t k = from; k-- > 0;)
		len += strlen(r->s->procs[procs[k]].name) + 3;
	text = malloc(len);
	if (!text)
		return NULL;
	text[0] = '\0';
	for (size_t k = from; k-- > 0;) {
		const char *name = r->s->procs[procs[k]].name;
		size_t at = strlen(text);

		/* A frame of the same procedure as its caller (a recursion, or two return
		 * addresses in one function) is said once. */
		if (k + 1 < from && procs[k] == procs[k + 1])
			continue;
		snprintf(text + at, len - at, "%s%s", at ? " > " : "", name);
	}
	return text;
}

static int add_path(graphs_samples *s, char *text, uint64_t count)
{
	graphs_spath *p;

	for (size_t i = 0; i < s->npaths; i++)
		if (!strcmp(s->paths[i].text, text)) {
			s->paths[i].count += count;
			free(text);
			return 0;
		}
	p = realloc(s->paths, (s->npaths + 1) * sizeof(*p));
	if (!p) {
		free(text);
		return PVMMON_ENOMEM;
	}
	s->paths = p;
	s->paths[s->npaths++] = (graphs_spath){text, count};
	return 0;
}

/* Self and inclusive counts of the computing samples, and their paths. */
static int count_nodes(resolver *r, const pvmmon_log_samples *sm)
{
	graphs_samples *s = r->s;

	for (size_t i = 0; i < sm->nnodes; i++) {
		const pvmmon_log_snode *n = &sm->nodes[i];
		uint64_t c = n->self[PVMMON_SAMPLE_COMPUTE];
		char *text;

		for (int k = 0; k < PVMMON_SAMPLE_NSTATES; k++)
			s->by_state[k] += n->self[k];
		if (!c)
			continue;
		s->procs[r->chain[i * (INL_MAX + 1)]].self += c;
		for (int64_t j = (int64_t)i; j >= 0; j = sm->nodes[j].parent)
			for (int k = 0; k < r->nchain[j]; k++) {
				size_t p = r->chain[(size_t)j * (INL_MAX + 1) + (size_t)k];

				if (r->mark[p] != i) {
					r->mark[p] = i;
					s->procs[p].incl += c;
				}
			}
		if (!(text = path_text(r, sm, i)) || add_path(s, text, c) < 0)
			return PVMMON_ENOMEM;
	}
	return 0;
}

static int by_self(const void *a, const void *b)
{
	const graphs_sproc *x = a, *y = b;

	if (x->self != y->self)
		return x->self < y->self ? 1 : -1;
	if (x->incl != y->incl)
		return x->incl < y->incl ? 1 : -1;
	return strcmp(x->name, y->name);
}

static int by_count(const void *a, const void *b)
{
	const graphs_spath *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return strcmp(x->text, y->text);
}

/* The task's virtual time outside PVM calls (its statements hold the time in them). */
static int64_t compute_ns(const pvmmon_log_task *t)
{
	int64_t ns = t->virtual_ns;

	for (size_t i = 0; i < t->nstmts; i++)
		ns -= t->stmts[i].time_ns;
	return ns > 0 ? ns : 0;
}

int graphs__samples_of(const pvmmon_log_task *t, graphs_samples *out)
{
	const pvmmon_log_samples *sm = t->samples;
	resolver r = {0};
	int rc = PVMMON_ENOMEM;

	memset(out, 0, sizeof(*out));
	if (!sm)
		return 0;
	out->total = sm->total;
	out->truncated = sm->truncated;
	out->cost_ns = sm->cost_ns;
	out->hz = sm->hz;
	out->compute_ns = compute_ns(t);
	r.s = out;
	if (pvmmon_symbols_new(&r.syms) != 0 ||
	    !(r.chain = calloc((sm->nnodes ? sm->nnodes : 1) * (INL_MAX + 1), sizeof(*r.chain))) ||
	    !(r.nchain = calloc(sm->nnodes ? sm->nnodes : 1, sizeof(*r.nchain))))
		goto out;
	rc = resolve_nodes(&r, sm);
	if (rc == 0)
		rc = count_nodes(&r, sm);
	if (rc == 0) {
		qsort(out->paths, out->npaths, sizeof(*out->paths), by_count);
		qsort(out->procs, out->nprocs, sizeof(*out->procs), by_self);
	}
out:
	if (r.syms)
		pvmmon_symbols_free(r.syms);
	free(r.chain);
	free(r.nchain);
	free(r.mark);
	if (rc < 0) {
		graphs__samples_clear(out);
		return pvmmon_error_set(rc, "report: out of memory reading the samples");
	}
	return 0;
}

void graphs__samples_clear(graphs_samples *s)
{
	for (size_t i = 0; i < s->nprocs; i++) {
		free(s->procs[i].name);
		free(s->procs[i].file);
	}
	free(s->procs);
	for (size_t i = 0; i < s->npaths; i++)
		free(s->paths[i].text);
	free(s->paths);
	memset(s, 0, sizeof(*s));
}

static double share(uint64_t n, uint64_t of) { return of ? 100.0 * (double)n / (double)of : 0; }

static void text_task(const pvmmon_log_task *t, const graphs_samples *s, FILE *out)
{
	uint64_t c = s->by_state[PVMMON_SAMPLE_COMPUTE];
	double ms = (double)s->compute_ns / 1e6;

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
	fprintf(out, "\n  %-28s %8s %6s %8s %6s %10s  %s\n", "procedure", "self", "%", "incl",
	        "%", "self ms", "where");
	for (size_t i = 0; i < s->nprocs && i < TOP_PROCS; i++) {
		const graphs_sproc *p = &s->procs[i];

		if (!p->self && !p->incl)
			continue;
		fprintf(out, "  %-28s %8" PRIu64 " %5.1f%% %8" PRIu64 " %5.1f%% %10.1f  ", p->name,
		        p->self, share(p->self, c), p->incl, share(p->incl, c),
		        ms * share(p->self, c) / 100.0);
		if (p->file)
			fprintf(out, "%s:%d\n", base_name(p->file), p->line);
		else
			fputs("?\n", out);
	}
	if (s->npaths)
		fprintf(out, "  hottest call paths:\n");
	for (size_t i = 0; i < s->npaths && i < TOP_PATHS; i++)
		fprintf(out, "  %5.1f%%  %s\n", share(s->paths[i].count, c), s->paths[i].text);
}

/* Each sampled task's section by show, after heading once (no heading, nothing, when
 * no task has samples). */
static int each_task(const pvmmon_log *log, FILE *out, const char *heading,
                     void (*show)(const pvmmon_log_task *, const graphs_samples *, FILE *))
{
	int said = 0, rc = 0;

	for (size_t i = 0; i < log->ntasks && rc == 0; i++) {
		const pvmmon_log_task *t = &log->tasks[i];
		graphs_samples s;

		if (!t->samples)
			continue;
		if ((rc = graphs__samples_of(t, &s)) < 0)
			break;
		if (!said++)
			fputs(heading, out);
		show(t, &s, out);
		graphs__samples_clear(&s);
	}
	return rc;
}

int graphs__report_samples(const pvmmon_log *log, FILE *out)
{
	return each_task(log, out,
	                 "\nSampled procedures (from call-path samples of CPU time, not measured: "
	                 "a share of n samples is uncertain by about 100*sqrt(p(1-p)/n) points; "
	                 "self ms is the share of the task's virtual compute time)\n",
	                 text_task);
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

static void html_task(const pvmmon_log_task *t, const graphs_samples *s, FILE *out)
{
	uint64_t c = s->by_state[PVMMON_SAMPLE_COMPUTE];

	fputs("<h3>task ", out);
	put_html(out, t->lid);
	fprintf(out, "</h3>\n<p>%" PRIu64 " samples at %u Hz of CPU time: %" PRIu64
	             " computing, %" PRIu64 " in PVM calls, %" PRIu64
	             " in pvmmon's code (not charged).</p>\n",
	        s->total, s->hz, c, s->by_state[PVMMON_SAMPLE_PVM],
	        s->by_state[PVMMON_SAMPLE_MONITOR]);
	fputs("<table class=sortable><thead><tr><th>procedure</th><th>self</th><th>self %</th>"
	      "<th>inclusive</th><th>inclusive %</th><th>self ms</th><th>where</th></tr></thead>"
	      "<tbody>\n",
	      out);
	for (size_t i = 0; i < s->nprocs && i < TOP_PROCS; i++) {
		const graphs_sproc *p = &s->procs[i];

		if (!p->self && !p->incl)
			continue;
		fputs("<tr><td>", out);
		put_html(out, p->name);
		fprintf(out, "</td><td>%" PRIu64 "</td><td>%.1f</td><td>%" PRIu64
		             "</td><td>%.1f</td><td>%.1f</td><td>",
		        p->self, share(p->self, c), p->incl, share(p->incl, c),
		        (double)s->compute_ns / 1e6 * share(p->self, c) / 100.0);
		put_html(out, p->file ? base_name(p->file) : "?");
		if (p->file)
			fprintf(out, ":%d", p->line);
		fputs("</td></tr>\n", out);
	}
	fputs("</tbody></table>\n<p>Flame graph of the computing samples (from main in; a box's "
	      "width is its samples, hover for its share):</p>\n",
	      out);
	html_flame(s, out);
	fputs("<p>Hottest call paths:</p>\n<ul>\n", out);
	for (size_t i = 0; i < s->npaths && i < TOP_PATHS; i++) {
		fprintf(out, "<li>%.1f%% ", share(s->paths[i].count, c));
		put_html(out, s->paths[i].text);
		fputs("</li>\n", out);
	}
	fputs("</ul>\n", out);
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
	                 html_task);
}
