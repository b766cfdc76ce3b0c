/* The export's tables of call-path samples: each sampled task, its procedures and paths,
 * and the same merged over all sampled tasks (graphs/samples.h resolves them). */
#include <stdlib.h>

#include "export_sink.h"
#include "pvmmon/errors.h"
#include "samples.h"

#define NCOLS(a) (sizeof(a) / sizeof((a)[0]))

static export_cell cs(const char *s) { return (export_cell){s ? XC_STR : XC_NULL, s, 0, 0, 0}; }
static export_cell ci(int64_t i) { return (export_cell){XC_INT, NULL, i, 0, 0}; }
static export_cell cu(uint64_t u) { return (export_cell){XC_UINT, NULL, 0, u, 0}; }
static export_cell cd(double d) { return (export_cell){XC_REAL, NULL, 0, 0, d}; }

/* n of the computing samples c as a fraction (0 when there are none). */
static export_cell frac(uint64_t n, uint64_t c) { return cd(c ? (double)n / (double)c : 0); }

static const export_col task_cols[] = {
    {"task", XC_STR},           {"program", XC_STR},          {"rate_hz", XC_UINT},
    {"samples", XC_UINT},       {"computing_samples", XC_UINT}, {"pvm_samples", XC_UINT},
    {"monitor_samples", XC_UINT}, {"truncated_samples", XC_UINT}, {"cost_ns", XC_INT},
    {"compute_ns", XC_INT},
};
/* The procedures' columns; the merged table has "tasks" instead of "task". */
static const export_col proc_cols[] = {
    {"task", XC_STR},          {"procedure", XC_STR},        {"module", XC_STR},
    {"file", XC_STR},          {"line", XC_INT},             {"self_samples", XC_UINT},
    {"self_share", XC_REAL},   {"inclusive_samples", XC_UINT}, {"inclusive_share", XC_REAL},
    {"self_ns", XC_INT},
};
static const export_col all_proc_cols[] = {
    {"procedure", XC_STR},     {"module", XC_STR},           {"file", XC_STR},
    {"line", XC_INT},          {"tasks", XC_UINT},           {"self_samples", XC_UINT},
    {"self_share", XC_REAL},   {"inclusive_samples", XC_UINT}, {"inclusive_share", XC_REAL},
    {"self_ns", XC_INT},
};
static const export_col path_cols[] = {
    {"task", XC_STR}, {"path", XC_STR}, {"samples", XC_UINT}, {"share", XC_REAL},
};
static const export_col all_path_cols[] = {
    {"path", XC_STR}, {"tasks", XC_UINT}, {"samples", XC_UINT}, {"share", XC_REAL},
};

/* A procedure's name and place, the first four cells of r. */
static void proc_cells(export_cell *r, const graphs_sproc *p)
{
	r[0] = cs(p->name);
	r[1] = cs(p->module);
	r[2] = cs(p->file);
	r[3] = p->file ? ci(p->line) : cs(NULL);
}

/* Rows of each sampled task (per: the tasks' resolved samples), one table at a time:
 * which 0 tasks, 1 procedures, 2 paths. */
static int per_task(const pvmmon_log *log, const graphs_samples *per, export_sink *k, int which)
{
	static const char *const names[] = {"sampled_tasks", "sampled_procedures", "sampled_paths"};
	static const export_col *const cols[] = {task_cols, proc_cols, path_cols};
	static const size_t ncols[] = {NCOLS(task_cols), NCOLS(proc_cols), NCOLS(path_cols)};
	int rc = k->begin(k, names[which], cols[which], ncols[which]);

	for (size_t i = 0; rc == 0 && i < log->ntasks; i++) {
		const pvmmon_log_task *t = &log->tasks[i];
		const graphs_samples *s = &per[i];
		uint64_t c = s->by_state[PVMMON_SAMPLE_COMPUTE];

		if (!t->samples)
			continue;
		if (which == 0) {
			export_cell r[] = {cs(t->lid), cs(t->program), cu(s->hz), cu(s->total), cu(c),
			                   cu(s->by_state[PVMMON_SAMPLE_PVM]),
			                   cu(s->by_state[PVMMON_SAMPLE_MONITOR]), cu(s->truncated),
			                   ci(s->cost_ns), ci(s->compute_ns)};

			rc = k->row(k, r);
		}
		for (size_t j = 0; which == 1 && rc == 0 && j < s->nprocs; j++) {
			const graphs_sproc *p = &s->procs[j];
			export_cell r[NCOLS(proc_cols)];

			r[0] = cs(t->lid);
			proc_cells(r + 1, p);
			r[5] = cu(p->self);
			r[6] = frac(p->self, c);
			r[7] = cu(p->incl);
			r[8] = frac(p->incl, c);
			r[9] = ci((int64_t)(p->self_ms * 1e6));
			rc = k->row(k, r);
		}
		for (size_t j = 0; which == 2 && rc == 0 && j < s->npaths; j++) {
			export_cell r[] = {cs(t->lid), cs(s->paths[j].text), cu(s->paths[j].count),
			                   frac(s->paths[j].count, c)};

			rc = k->row(k, r);
		}
	}
	return rc ? rc : k->end(k);
}

/* The procedures and paths of all sampled tasks merged (empty when none was sampled). */
static int merged(const graphs_samples *s, export_sink *k)
{
	uint64_t c = s->by_state[PVMMON_SAMPLE_COMPUTE];
	int rc = k->begin(k, "sampled_procedures_all", all_proc_cols, NCOLS(all_proc_cols));

	for (size_t j = 0; rc == 0 && j < s->nprocs; j++) {
		const graphs_sproc *p = &s->procs[j];
		export_cell r[NCOLS(all_proc_cols)];

		proc_cells(r, p);
		r[4] = cu(p->ntasks);
		r[5] = cu(p->self);
		r[6] = frac(p->self, c);
		r[7] = cu(p->incl);
		r[8] = frac(p->incl, c);
		r[9] = ci((int64_t)(p->self_ms * 1e6));
		rc = k->row(k, r);
	}
	rc = rc ? rc : k->end(k);
	rc = rc ? rc : k->begin(k, "sampled_paths_all", all_path_cols, NCOLS(all_path_cols));
	for (size_t j = 0; rc == 0 && j < s->npaths; j++) {
		export_cell r[] = {cs(s->paths[j].text), cu(s->paths[j].ntasks), cu(s->paths[j].count),
		                   frac(s->paths[j].count, c)};

		rc = k->row(k, r);
	}
	return rc ? rc : k->end(k);
}

int graphs__export_samples(const pvmmon_log *log, export_sink *sink)
{
	graphs_samples all, *per = calloc(log->ntasks ? log->ntasks : 1, sizeof(*per));
	int rc;

	if (!per)
		return pvmmon_error_set(PVMMON_ENOMEM, "export: out of memory");
	rc = graphs__samples_resolve(log, per, &all);
	if (rc < 0) {
		free(per);
		return rc;
	}
	for (int which = 0; which < 3 && rc == 0; which++)
		rc = per_task(log, per, sink, which);
	if (rc == 0)
		rc = merged(&all, sink);
	for (size_t i = 0; i < log->ntasks; i++)
		graphs__samples_clear(&per[i]);
	graphs__samples_clear(&all);
	free(per);
	return rc;
}
