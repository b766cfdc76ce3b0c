/*
 * The reports' sampled procedures and hottest call paths (graphs/samples.h): each
 * task's call-path samples resolved to procedures with libdw after the run, counted
 * self and inclusive, their shares of the task's computing samples scaled to its
 * virtual compute time; and the same merged over all the run's sampled tasks.
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

/* The procedure index named name in module (added when new), or -1 when memory is
 * short. */
static int64_t proc_index(resolver *r, const char *name, const char *module, const char *file,
                          int line)
{
	graphs_samples *s = r->s;

	for (size_t i = 0; i < s->nprocs; i++)
		if (!strcmp(s->procs[i].name, name) && !strcmp(s->procs[i].module, module))
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
	s->procs[s->nprocs] = (graphs_sproc){strdup(name), strdup(module), file ? strdup(file) : NULL,
	                                     line, 0, 0, 0, 1};
	r->mark[s->nprocs] = UINT64_MAX;
	if (!s->procs[s->nprocs].name || !s->procs[s->nprocs].module) {
		free(s->procs[s->nprocs].name);
		free(s->procs[s->nprocs].module);
		return -1;
	}
	return (int64_t)s->nprocs++;
}

/* Cuts the suffix of pvmmon-cc's copies of a procedure (f__pvmmon_on with probes,
 * f__pvmmon_off and f__pvmmon_plain without) from name, so that the samples name the
 * procedure as written and as its probe records do. */
static void source_name(char *name)
{
	static const char *const suffixes[] = {"__pvmmon_on", "__pvmmon_off", "__pvmmon_plain"};
	size_t n = strlen(name);

	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		size_t l = strlen(suffixes[i]);

		if (n > l && !strcmp(name + n - l, suffixes[i])) {
			name[n - l] = '\0';
			return;
		}
	}
}

/* Each node's procedures: the functions inlined at it (innermost first) and its
 * function by libdw, or "?" and its module's name. */
static int resolve_nodes(resolver *r, const pvmmon_log_samples *sm)
{
	for (size_t i = 0; i < sm->nnodes; i++) {
		const pvmmon_log_snode *n = &sm->nodes[i];
		const char *module = sm->modules[n->module], *mod = base_name(module);
		char *file = NULL, *func = NULL, unknown[300], *inl[INL_MAX];
		size_t *chain = &r->chain[i * (INL_MAX + 1)];
		int line = 0, ninl, rc = 0;
		int64_t k;

		pvmmon_symbols_resolve(&file, &line, &func, r->syms, module, n->offset);
		snprintf(unknown, sizeof(unknown), "? (%s)", mod);
		ninl = func ? pvmmon_symbols_inlined(inl, INL_MAX, r->syms, module, n->offset) : 0;
		if (func)
			source_name(func);
		for (int j = 0; j < ninl; j++) {
			source_name(inl[j]);
			if (rc == 0 && (k = proc_index(r, inl[j], mod, file, line)) >= 0)
				chain[r->nchain[i]++] = (size_t)k;
			else
				rc = PVMMON_ENOMEM;
			free(inl[j]);
		}
		k = proc_index(r, func ? func : unknown, mod, file, line);
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

		/* A frame of the same procedure as its caller (a recursion, two return
		 * addresses in one function, or pvmhooks' wrapper of a PVM call over libpvm3's
		 * of the same name) is said once. */
		if (k + 1 < from && !strcmp(name, r->s->procs[procs[k + 1]].name))
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
	s->paths[s->npaths++] = (graphs_spath){text, count, 1};
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

/* graphs__samples_of() with the symbols syms (NULL: its own), which keep the modules
 * opened so that tasks of the same binaries open them once. */
static int samples_with(const pvmmon_log_task *t, graphs_samples *out, pvmmon_symbols *syms)
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
	out->ntasks = 1;
	r.s = out;
	r.syms = syms;
	if ((!syms && pvmmon_symbols_new(&r.syms) != 0) ||
	    !(r.chain = calloc((sm->nnodes ? sm->nnodes : 1) * (INL_MAX + 1), sizeof(*r.chain))) ||
	    !(r.nchain = calloc(sm->nnodes ? sm->nnodes : 1, sizeof(*r.nchain))))
		goto out;
	rc = resolve_nodes(&r, sm);
	if (rc == 0)
		rc = count_nodes(&r, sm);
	if (rc == 0) {
		uint64_t c = out->by_state[PVMMON_SAMPLE_COMPUTE];

		for (size_t i = 0; i < out->nprocs && c; i++)
			out->procs[i].self_ms = (double)out->compute_ns / 1e6 *
			                        (double)out->procs[i].self / (double)c;
		if (out->npaths)
			qsort(out->paths, out->npaths, sizeof(*out->paths), by_count);
		if (out->nprocs)
			qsort(out->procs, out->nprocs, sizeof(*out->procs), by_self);
	}
out:
	if (r.syms && !syms)
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

int graphs__samples_of(const pvmmon_log_task *t, graphs_samples *out)
{
	return samples_with(t, out, NULL);
}

void graphs__samples_clear(graphs_samples *s)
{
	for (size_t i = 0; i < s->nprocs; i++) {
		free(s->procs[i].name);
		free(s->procs[i].module);
		free(s->procs[i].file);
	}
	free(s->procs);
	for (size_t i = 0; i < s->npaths; i++)
		free(s->paths[i].text);
	free(s->paths);
	memset(s, 0, sizeof(*s));
}


/* Adds task's procedure p, its counts times num / den, to the merged procedures of all. */
static int merge_proc(graphs_samples *all, size_t *cap, const graphs_sproc *p, uint64_t num,
                      uint64_t den)
{
	graphs_sproc *q = NULL;

	for (size_t i = 0; i < all->nprocs && !q; i++)
		if (!strcmp(all->procs[i].name, p->name) && !strcmp(all->procs[i].module, p->module))
			q = &all->procs[i];
	if (!q) {
		if (all->nprocs == *cap) {
			size_t n = *cap ? 2 * *cap : 64;
			graphs_sproc *m = realloc(all->procs, n * sizeof(*m));

			if (!m)
				return PVMMON_ENOMEM;
			all->procs = m;
			*cap = n;
		}
		q = &all->procs[all->nprocs];
		*q = (graphs_sproc){strdup(p->name), strdup(p->module), p->file ? strdup(p->file) : NULL,
		                    p->line, 0, 0, 0, 0};
		if (!q->name || !q->module) {
			free(q->name);
			free(q->module);
			free(q->file);
			return PVMMON_ENOMEM;
		}
		all->nprocs++;
	}
	q->self += p->self * num / den;
	q->incl += p->incl * num / den;
	q->self_ms += p->self_ms;
	q->ntasks++;
	return 0;
}

/* Adds one task's samples s (taken at s->hz) to all, counted as at the rate hz. */
static int merge_task(graphs_samples *all, size_t *cap, const graphs_samples *s, uint32_t hz)
{
	uint64_t num = hz, den = s->hz ? s->hz : hz;
	int rc = 0;

	for (int k = 0; k < PVMMON_SAMPLE_NSTATES; k++)
		all->by_state[k] += s->by_state[k] * num / den;
	all->total += s->total;
	all->truncated += s->truncated;
	all->cost_ns += s->cost_ns;
	all->compute_ns += s->compute_ns;
	all->ntasks++;
	for (size_t i = 0; i < s->nprocs && rc == 0; i++)
		rc = merge_proc(all, cap, &s->procs[i], num, den);
	for (size_t i = 0; i < s->npaths && rc == 0; i++) {
		size_t j = 0;

		while (j < all->npaths && strcmp(all->paths[j].text, s->paths[i].text))
			j++;
		if (j == all->npaths) {
			char *text = strdup(s->paths[i].text);

			rc = text ? add_path(all, text, 0) : PVMMON_ENOMEM;
			if (rc == 0)
				all->paths[j].ntasks = 0;
		}
		if (rc == 0) {
			all->paths[j].count += s->paths[i].count * num / den;
			all->paths[j].ntasks++;
		}
	}
	return rc;
}

int graphs__samples_resolve(const pvmmon_log *log, graphs_samples *per, graphs_samples *all)
{
	pvmmon_symbols *syms = NULL;
	uint32_t hz = 0;
	size_t cap = 0;
	int rc = 0;

	memset(all, 0, sizeof(*all));
	memset(per, 0, log->ntasks * sizeof(*per));
	if (pvmmon_symbols_new(&syms) != 0)
		return pvmmon_error_set(PVMMON_ENOMEM, "report: out of memory reading the samples");
	for (size_t i = 0; i < log->ntasks; i++)
		if (log->tasks[i].samples && log->tasks[i].samples->hz > hz)
			hz = log->tasks[i].samples->hz;
	all->hz = hz;
	for (size_t i = 0; i < log->ntasks && rc == 0; i++) {
		if (!log->tasks[i].samples)
			continue;
		if ((rc = samples_with(&log->tasks[i], &per[i], syms)) < 0)
			break;
		if (per[i].hz && per[i].hz != hz)
			all->mixed_hz = 1;
		rc = merge_task(all, &cap, &per[i], hz);
	}
	pvmmon_symbols_free(syms);
	if (rc < 0) {
		graphs__samples_clear(all);
		for (size_t i = 0; i < log->ntasks; i++)
			graphs__samples_clear(&per[i]);
		return pvmmon_error_set(rc, "report: out of memory merging the samples");
	}
	if (all->npaths)
		qsort(all->paths, all->npaths, sizeof(*all->paths), by_count);
	if (all->nprocs)
		qsort(all->procs, all->nprocs, sizeof(*all->procs), by_self);
	return 0;
}

int graphs__samples_all(const pvmmon_log *log, graphs_samples *out)
{
	graphs_samples *per = calloc(log->ntasks ? log->ntasks : 1, sizeof(*per));
	int rc;

	memset(out, 0, sizeof(*out));
	if (!per)
		return pvmmon_error_set(PVMMON_ENOMEM, "report: out of memory merging the samples");
	rc = graphs__samples_resolve(log, per, out);
	for (size_t i = 0; rc == 0 && i < log->ntasks; i++)
		graphs__samples_clear(&per[i]);
	free(per);
	return rc;
}
