/* Formatting and record figures shared by the text and HTML reports. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pvmmon/errors.h"
#include "figures.h"

/* Formats a duration with a unit that keeps three significant figures readable. */
const char *graphs__fmt_time(char *buf, size_t len, int64_t ns)
{
	double v = (double)ns;

	if (ns < 0)
		snprintf(buf, len, "-");
	else if (ns < 1000)
		snprintf(buf, len, "%" PRId64 " ns", ns);
	else if (ns < 1000000)
		snprintf(buf, len, "%.1f us", v / 1e3);
	else if (ns < 1000000000)
		snprintf(buf, len, "%.2f ms", v / 1e6);
	else
		snprintf(buf, len, "%.3f s", v / 1e9);
	return buf;
}

const char *graphs__host_clock(char *buf, size_t len, const pvmmon_log_host *h)
{
	char t1[32], t2[32];
	int neg = h->clock_offset_ns < 0;

	if (!h->clock_known)
		snprintf(buf, len, "no estimate (no task ran there)");
	else if (h->clock_offset_ns == 0 && h->clock_uncertainty_ns == 0 && !h->clock_estimates)
		snprintf(buf, len, "the reference (the monitor's clock)");
	else if (!h->clock_estimates)
		snprintf(buf, len, "offset %s%s +- %s", neg ? "-" : "",
			 graphs__fmt_time(t1, sizeof(t1),
					  neg ? -h->clock_offset_ns : h->clock_offset_ns),
			 graphs__fmt_time(t2, sizeof(t2), h->clock_uncertainty_ns));
	else
		snprintf(buf, len,
			 "offset %s%s +- %s at %.3f s, drift %.1f ppm, %" PRIu32 " estimate%s",
			 neg ? "-" : "",
			 graphs__fmt_time(t1, sizeof(t1),
					  neg ? -h->clock_offset_ns : h->clock_offset_ns),
			 graphs__fmt_time(t2, sizeof(t2), h->clock_uncertainty_ns),
			 (double)h->clock_at_ns / 1e9, (double)h->clock_drift_ppb / 1e3,
			 h->clock_estimates, h->clock_estimates == 1 ? "" : "s");
	return buf;
}

const char *graphs__fmt_time_pm(char *buf, size_t len, int64_t ns, int64_t unc)
{
	char a[32], b[32];

	if (unc < 1000 || unc * 20 <= ns)
		return graphs__fmt_time(buf, len, ns);
	snprintf(buf, len, "%s +- %s", graphs__fmt_time(a, sizeof(a), ns),
		 graphs__fmt_time(b, sizeof(b), unc));
	return buf;
}

size_t graphs__host_tasks(const pvmmon_log *log, const pvmmon_log_host *h)
{
	size_t n = 0;

	for (size_t i = 0; i < log->ntasks; i++)
		n += log->tasks[i].host && h->name && !strcmp(log->tasks[i].host, h->name);
	return n;
}

/* Formats a byte count with binary units, the way message sizes are usually given. */
const char *graphs__fmt_bytes(char *buf, size_t len, uint64_t b)
{
	double v = (double)b;

	if (b < 1024)
		snprintf(buf, len, "%" PRIu64 " B", b);
	else if (b < 1024 * 1024)
		snprintf(buf, len, "%.1f KiB", v / 1024);
	else if (b < 1024ull * 1024 * 1024)
		snprintf(buf, len, "%.1f MiB", v / (1024.0 * 1024));
	else
		snprintf(buf, len, "%.2f GiB", v / (1024.0 * 1024 * 1024));
	return buf;
}

void graphs__put_escaped(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', out);
		if (*s == '\n')
			fputs("\\n", out);
		else
			fputc(*s, out);
	}
}

const char *graphs__base_name(const char *path)
{
	const char *slash = path ? strrchr(path, '/') : NULL;

	return slash ? slash + 1 : path;
}

const pvmmon_log_stmt *graphs__stmt_of(const pvmmon_log_task *t, uint32_t id)
{
	if (id < t->nstmts && t->stmts[id].id == id)
		return &t->stmts[id];
	for (size_t k = 0; k < t->nstmts; k++)
		if (t->stmts[k].id == id)
			return &t->stmts[k];
	return NULL;
}

/*
 * Names a statement the way a user finds it in the source: file:line when debug
 * information resolved it, otherwise the module and offset, with the function when known.
 */
long graphs__stmt_static(const pvmmon_log_task *t, const pvmmon_log_stmt *s, size_t *ncand)
{
	return t ? pvmmon_log_stmt_static(t, s, ncand) : (ncand ? (*ncand = 0, -1) : -1);
}

const char *graphs__stmt_name(char *buf, size_t len, const pvmmon_log_task *t,
                              const pvmmon_log_stmt *s)
{
	char fn[160] = "";
	size_t ncand = 0;
	long e = graphs__stmt_static(t, s, &ncand);

	if (s->function)
		snprintf(fn, sizeof(fn), " in %s", s->function);
	if (s->file && s->line > 0) {
		snprintf(buf, len, "%s:%d%s", graphs__base_name(s->file), (int)s->line, fn);
	} else if (e >= 0) {
		snprintf(buf, len, "%s:%d%s", graphs__base_name(t->statics[e].file),
		         (int)t->statics[e].line, fn);
	} else if (ncand > 0) {
		/* The static table has several calls it could be: all their lines. */
		size_t cands[32], n = pvmmon_log_stmt_candidates(t, s, cands, 32, &e), used = 0;

		for (size_t k = 0; k < n && k < 32 && used < len; k++) {
			const pvmmon_log_static *c = &t->statics[cands[k]];
			int w = k ? snprintf(buf + used, len - used, ",%d", (int)c->line)
			          : snprintf(buf, len, "%s:%d", graphs__base_name(c->file),
			                     (int)c->line);

			used += w > 0 ? (size_t)w : 0;
		}
		if (used < len)
			snprintf(buf + used, len - used, "%s%s", n > 32 ? ",..." : "", fn);
	} else if (s->module) {
		snprintf(buf, len, "%s+0x%" PRIx64 "%s", graphs__base_name(s->module), s->offset, fn);
	} else {
		snprintf(buf, len, "statement %u%s", (unsigned)s->id, fn);
	}
	return buf;
}

double graphs__percent(int64_t part, int64_t whole)
{
	return whole > 0 ? 100.0 * (double)part / (double)whole : 0.0;
}

const char *graphs__comp_sentence(const pvmmon_log *log)
{
	switch (log->comp) {
	case PVMMON_COMP_LOCAL:
		return "procedure and loop times are compensated for monitoring overhead: local "
		       "compensation (only each task's own monitoring taken out; waiting caused by "
		       "other tasks' monitoring stays); --compensation=none|local|parallel";
	case PVMMON_COMP_NONE:
		return "procedure and loop times are not compensated for monitoring overhead (real "
		       "time); --compensation=none|local|parallel";
	case PVMMON_COMP_PARALLEL:
		break;
	}
	return "times are compensated for monitoring overhead: parallel compensation (virtual "
	       "time); --compensation=none|local|parallel";
}

/* The dynamic figures of one static entry: time and how often, from the records. */
int graphs__static_figures(const pvmmon_log_task *t, const pvmmon_log_static *e,
			  const char *enclosing_proc, int64_t *time, uint64_t *count)
{
	size_t i;
	int found = 0;

	*time = 0;
	*count = 0;
	switch (e->kind) {
	case PVMMON_STATIC_PROC:
		for (i = 0; i < t->nprocs; i++)
			if (t->procs[i].name && !strcmp(t->procs[i].name, e->name)) {
				*time += t->procs[i].incl_ns;
				*count += t->procs[i].count;
				found = 1;
			}
		break;
	case PVMMON_STATIC_LOOP:
		for (i = 0; i < t->nloops; i++)
			if (t->loops[i].name && !strcmp(t->loops[i].name, e->name) &&
			    t->loops[i].line == e->line) {
				*time += t->loops[i].time_ns;
				*count += t->loops[i].count;
				found = 1;
			}
		break;
	case PVMMON_STATIC_COM:
		for (i = 0; i < t->nstmts; i++) {
			const pvmmon_log_stmt *s = &t->stmts[i];

			if (graphs__stmt_is(t, s, e)) {
				*time += s->time_ns;
				*count += s->count;
				found = 1;
			}
		}
		break;
	case PVMMON_STATIC_CALL:
		/* A call statement's time is the callee's inclusive time through it: the
		 * proc records of its caller and line (any callee for an indirect call), or,
		 * for records without a call line, those of its caller and callee. */
		for (i = 0; i < t->nprocs; i++) {
			const pvmmon_log_proc *p = &t->procs[i];
			int same_caller = p->caller && enclosing_proc &&
					  !strcmp(p->caller, enclosing_proc);
			int same_callee = p->name && !strcmp(p->name, e->name);

			if (same_caller && (p->call_line > 0
						? p->call_line == e->line &&
							  (same_callee || !strcmp(e->name, "indirect"))
						: same_callee)) {
				*time += p->incl_ns;
				*count += p->count;
				found = 1;
			}
		}
		break;
	}
	return found;
}

/* The procedure that encloses entry i of t's static table, or NULL. */
const char *graphs__enclosing_proc(const pvmmon_log_task *t, size_t i)
{
	int p = t->statics[i].parent;

	while (p >= 0 && (size_t)p < t->nstatics) {
		if (t->statics[p].kind == PVMMON_STATIC_PROC)
			return t->statics[p].name;
		p = t->statics[p].parent;
	}
	return NULL;
}

int graphs__stmt_is(const pvmmon_log_task *t, const pvmmon_log_stmt *s, const pvmmon_log_static *e)
{
	const char *file = s->file;
	int32_t line = s->line;

	if (!(file && line > 0)) {
		long k = graphs__stmt_static(t, s, NULL);

		if (k < 0)
			return 0;
		file = t->statics[k].file;
		line = t->statics[k].line;
	}
	return s->op && e->name && !strcmp(s->op, e->name) && line == e->line && file && e->file &&
	       !strcmp(graphs__base_name(file), graphs__base_name(e->file));
}

int graphs__same_program(const pvmmon_log_task *a, const pvmmon_log_task *b)
{
	return !strcmp(a->program ? a->program : "", b->program ? b->program : "");
}

int graphs__program_has_procs(const pvmmon_log *log, const pvmmon_log_task *t)
{
	for (size_t i = 0; i < log->ntasks; i++)
		if (graphs__same_program(&log->tasks[i], t) && log->tasks[i].nprocs)
			return 1;
	return 0;
}

int graphs__program_callgraph(const pvmmon_log *log, const pvmmon_log_task *t,
			      pvmmon_callgraph **out)
{
	pvmmon_log_task merged = {0};
	size_t n = 0;
	int rc;

	for (size_t i = 0; i < log->ntasks; i++)
		if (graphs__same_program(&log->tasks[i], t))
			n += log->tasks[i].nprocs;
	/* The records are copied shallowly: the callgraph copies what it keeps. */
	merged.procs = calloc(n ? n : 1, sizeof(*merged.procs));
	if (!merged.procs)
		return pvmmon_error_set(PVMMON_ENOMEM, "report: out of memory");
	for (size_t i = 0; i < log->ntasks; i++)
		if (graphs__same_program(&log->tasks[i], t))
			for (size_t j = 0; j < log->tasks[i].nprocs; j++)
				merged.procs[merged.nprocs++] = log->tasks[i].procs[j];
	rc = pvmmon_callgraph_build(out, &merged);
	free(merged.procs);
	return rc;
}

const pvmmon_log_task *graphs__task_by_tid(const pvmmon_log *log, int32_t tid)
{
	for (size_t i = 0; i < log->ntasks; i++)
		if (log->tasks[i].tid == tid)
			return &log->tasks[i];
	return NULL;
}

/* Largest share first; the selection order settles ties, so the order is stable. */
static int by_share(const void *pa, const void *pb)
{
	const graphs_cp_row *a = pa, *b = pb;

	if (a->share_ns != b->share_ns)
		return a->share_ns > b->share_ns ? -1 : 1;
	return a->index < b->index ? -1 : a->index > b->index;
}

int graphs__cp_rows(const pvmmon_log *log, graphs_cp_row **out, size_t *n, int64_t *total)
{
	graphs_cp_row *rows;

	*out = NULL;
	*n = 0;
	*total = 0;
	rows = calloc(log->cp.nprocs ? log->cp.nprocs : 1, sizeof(*rows));
	if (!rows)
		return pvmmon_error_set(PVMMON_ENOMEM, "report: out of memory");
	for (size_t i = 0; i < log->ntasks; i++)
		*total += log->tasks[i].virtual_ns;
	for (size_t k = 0; k < log->cp.nprocs; k++) {
		const pvmmon_log_cp_proc *p = &log->cp.procs[k];

		rows[k] = (graphs_cp_row){k, p->name ? p->name : "?", p->share_ns, p->zero_ns, 0};
		/* A record made while its procedure is already active adds no inclusive
		 * time, so summing every call site's record counts each activation once. */
		for (size_t i = 0; p->name && i < log->ntasks; i++)
			for (size_t j = 0; j < log->tasks[i].nprocs; j++) {
				const pvmmon_log_proc *r = &log->tasks[i].procs[j];

				if (!r->counted && r->name && !strcmp(r->name, p->name))
					rows[k].cpu_ns += log->cp.exclusive ? r->excl_ns : r->incl_ns;
			}
	}
	qsort(rows, log->cp.nprocs, sizeof(*rows), by_share);
	*out = rows;
	*n = log->cp.nprocs;
	return 0;
}

static int by_key(const graphs_recv_key *x, int32_t to, int32_t from, int64_t seq)
{
	if (x->to != to)
		return x->to < to ? -1 : 1;
	if (x->from != from)
		return x->from < from ? -1 : 1;
	return x->seq < seq ? -1 : x->seq > seq;
}

static int by_receive(const void *pa, const void *pb)
{
	const graphs_recv_key *x = pa, *y = pb;
	int c = by_key(x, y->to, y->from, y->seq);

	if (c)
		return c;
	if (x->a != y->a)
		return x->a < y->a ? -1 : 1;
	return x->b < y->b ? -1 : x->b > y->b;
}

void graphs__sort_receives(graphs_recv_key *keys, size_t n)
{
	if (n)
		qsort(keys, n, sizeof(*keys), by_receive);
}

size_t graphs__find_receive(const graphs_recv_key *keys, size_t n, int32_t to, int32_t from,
			    int64_t seq)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (by_key(&keys[mid], to, from, seq) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && by_key(&keys[lo], to, from, seq) == 0 ? lo : n;
}
