/* The tables of `pvmmon export`: every figure of a log as rows, units in column names. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/log_fields.h"
#include "export_sink.h"
#include "figures.h"
#include "pvmmon/callgraph.h"
#include "pvmmon/cpath.h"
#include "pvmmon/errors.h"

#define NCOLS(a) (sizeof(a) / sizeof((a)[0]))

static export_cell cs(const char *s)
{
	export_cell c = {s ? XC_STR : XC_NULL, s, 0, 0, 0};

	return c;
}

static export_cell ci(int64_t i)
{
	export_cell c = {XC_INT, NULL, i, 0, 0};

	return c;
}

static export_cell cu(uint64_t u)
{
	export_cell c = {XC_UINT, NULL, 0, u, 0};

	return c;
}

static export_cell cd(double d)
{
	export_cell c = {XC_REAL, NULL, 0, 0, d};

	return c;
}

/* A task's logical id, or its tid in pvmmon's "t40005" style when it has none, into buf;
 * the group server by its name. */
static const char *who(char *buf, size_t len, const char *lid, int32_t tid)
{
	if (lid)
		return lid;
	snprintf(buf, len, "t%x", (unsigned)tid);
	return buf;
}

static int run_table(const pvmmon_log *log, export_sink *k)
{
	static const export_col cols[] = {
	    {"program", XC_STR},          {"args", XC_STR},
	    {"started", XC_STR},          {"wall_time_ns", XC_INT},
	    {"exit_code", XC_INT},        {"tasks", XC_UINT},
	    {"hosts", XC_UINT},           {"log_version", XC_STR},
	    {"tool_version", XC_STR},     {"virtual_time_ns", XC_INT},
	    {"intrusion_ns", XC_INT},     {"traced", XC_INT},
	    {"trace_events", XC_UINT},    {"trace_dropped_events", XC_UINT},
	    {"critical_path_ns", XC_INT}, {"budget_pct", XC_REAL},
	    {"compensation", XC_STR},
	};
	char version[32], *args;
	size_t len = 1, i;
	int64_t vsum = 0, isum = 0;
	int rc;

	for (i = 0; i < log->nargs; i++)
		len += strlen(log->args[i]) + 1;
	args = calloc(1, len);
	if (!args)
		return pvmmon_error_set(PVMMON_ENOMEM, "export: out of memory");
	for (i = 0; i < log->nargs; i++) {
		if (i)
			strcat(args, " ");
		strcat(args, log->args[i]);
	}
	for (i = 0; i < log->ntasks; i++) {
		vsum += log->tasks[i].virtual_ns;
		isum += log->tasks[i].intrusion_ns;
	}
	snprintf(version, sizeof(version), "%d.%d", log->version_major, log->version_minor);
	rc = k->begin(k, "run", cols, NCOLS(cols));
	if (rc == 0) {
		export_cell r[] = {cs(log->program),
		                   cs(args),
		                   cs(log->started),
		                   ci(log->wall_ns),
		                   ci(log->exit_code),
		                   cu(log->ntasks),
		                   cu(log->nhosts),
		                   cs(version),
		                   cs(log->tool_version),
		                   ci(vsum),
		                   ci(isum),
		                   ci(log->trace.enabled),
		                   cu(log->trace.kept),
		                   cu(log->trace.dropped),
		                   log->cp.enabled ? ci(log->cp.length_ns) : cs(NULL),
		                   cd(log->budget_pct),
		                   cs(pvmmon_comp_name(log->comp))};

		rc = k->row(k, r);
	}
	free(args);
	return rc ? rc : k->end(k);
}

static int hosts_table(const pvmmon_log *log, export_sink *k)
{
	static const export_col cols[] = {
	    {"host", XC_STR},
	    {"arch", XC_STR},
	    {"dtid", XC_INT},
	    {"tasks", XC_UINT},
	    {"clock_offset_ns", XC_INT},
	    {"clock_uncertainty_ns", XC_INT},
	    {"clock_drift_ppb", XC_INT},
	    {"clock_estimates", XC_UINT},
	};
	int rc = k->begin(k, "hosts", cols, NCOLS(cols));

	for (size_t i = 0; rc == 0 && i < log->nhosts; i++) {
		const pvmmon_log_host *h = &log->hosts[i];
		export_cell none = cs(NULL);
		export_cell r[] = {cs(h->name),
		                   cs(h->arch),
		                   ci(h->dtid),
		                   cu(graphs__host_tasks(log, h)),
		                   h->clock_known ? ci(h->clock_offset_ns) : none,
		                   h->clock_known ? ci(h->clock_uncertainty_ns) : none,
		                   h->clock_known ? ci(h->clock_drift_ppb) : none,
		                   cu(h->clock_estimates)};

		rc = k->row(k, r);
	}
	return rc ? rc : k->end(k);
}

/* A field's cell as its kind says; a RAW field of a task without raw times is null. */
static export_cell field_cell(const void *rec, const log_field_desc *f, int has_raw)
{
	if (f->when == LOG_FW_RAW && !has_raw)
		return cs(NULL);
	switch (f->kind) {
	case LOG_FK_I32:
	case LOG_FK_I64:
	case LOG_FK_SIGNAL:
	case LOG_FK_HAS:
	case LOG_FK_OFF:
		return ci(log__field_int(rec, f));
	case LOG_FK_U32:
	case LOG_FK_U64:
	case LOG_FK_HEX64:
		return cu(log__field_uint(rec, f));
	case LOG_FK_STATUS:
		return cs(pvmmon_task_status_name(*(const pvmmon_task_status *)log__field_cat(rec, f)));
	default:
		return cs(*(char *const *)log__field_cat(rec, f));
	}
}

/*
 * A table's columns from its list's fields by place (column(pos)), from place 1 until
 * the first place neither a field nor one of the export's own columns (own: the
 * names at their places, NULL elsewhere) takes; how many, with the task's at 0.
 */
static size_t field_cols(export_col *cols, size_t max, const log_field_desc *(*column)(unsigned),
                         const char *const *own, size_t nown)
{
	size_t n = 1;

	cols[0] = (export_col){"task", XC_STR};
	for (; n < max; n++) {
		const log_field_desc *f = column((unsigned)n);
		log_fkind k;

		if (!f) {
			if (n >= nown || !own[n])
				break;
			cols[n] = (export_col){own[n], XC_STR};
			continue;
		}
		k = f->kind;
		cols[n].name = f->column;
		cols[n].type = k == LOG_FK_STR || k == LOG_FK_CLOCK || k == LOG_FK_STATUS ? XC_STR
		               : k == LOG_FK_U32 || k == LOG_FK_U64 || k == LOG_FK_HEX64  ? XC_UINT
		                                                                          : XC_INT;
	}
	return n;
}

/* The task column, then the task list's fields that have a column, in their places
 * (common/log_task_fields.def). */
static int tasks_table(const pvmmon_log *log, export_sink *k)
{
	export_col cols[LOG_TF_COUNT + 1];
	export_cell r[LOG_TF_COUNT + 1];
	size_t n = field_cols(cols, LOG_TF_COUNT + 1, log__task_column, NULL, 0);
	int rc = k->begin(k, "tasks", cols, n);

	for (size_t i = 0; rc == 0 && i < log->ntasks; i++) {
		const pvmmon_log_task *t = &log->tasks[i];
		char id[16];

		r[0] = cs(who(id, sizeof(id), t->lid, t->tid));
		for (size_t c = 1; c < n; c++)
			r[c] = field_cell(t, log__task_column((unsigned)c), t->has_raw);
		rc = k->row(k, r);
	}
	return rc ? rc : k->end(k);
}

/* The task column, the statement list's fields and the statement's name (place 2) in
 * their places (common/log_stmt_fields.def). */
static int statements_table(const pvmmon_log *log, export_sink *k)
{
	static const char *const own[] = {NULL, NULL, "statement"};
	export_col cols[LOG_SF_COUNT + 2];
	export_cell r[LOG_SF_COUNT + 2];
	size_t n = field_cols(cols, LOG_SF_COUNT + 2, log__stmt_column, own, NCOLS(own));
	int rc = k->begin(k, "statements", cols, n);

	for (size_t i = 0; rc == 0 && i < log->ntasks; i++)
		for (size_t j = 0; rc == 0 && j < log->tasks[i].nstmts; j++) {
			const pvmmon_log_task *t = &log->tasks[i];
			const pvmmon_log_stmt *s = &t->stmts[j];
			char id[16], name[512];

			r[0] = cs(who(id, sizeof(id), t->lid, t->tid));
			for (size_t c = 1; c < n; c++) {
				const log_field_desc *f = log__stmt_column((unsigned)c);

				r[c] = f ? field_cell(s, f, 0)
				         : cs(graphs__stmt_name(name, sizeof(name), t, s));
			}
			rc = k->row(k, r);
		}
	return rc ? rc : k->end(k);
}

static int partners_table(const pvmmon_log *log, export_sink *k)
{
	static const export_col cols[] = {
	    {"task", XC_STR},      {"statement_id", XC_UINT}, {"call", XC_STR},
	    {"partner", XC_STR},   {"partner_tid", XC_INT},   {"monitored", XC_INT},
	    {"messages", XC_UINT}, {"bytes", XC_UINT},        {"sync_ns", XC_INT},
	    {"trans_ns", XC_INT},
	};
	int rc = k->begin(k, "statement_partners", cols, NCOLS(cols));

	for (size_t i = 0; rc == 0 && i < log->ntasks; i++)
		for (size_t j = 0; rc == 0 && j < log->tasks[i].nstmts; j++) {
			const pvmmon_log_task *t = &log->tasks[i];
			const pvmmon_log_stmt *s = &t->stmts[j];

			for (size_t c = 0; rc == 0 && c < s->ncom; c++) {
				const pvmmon_log_com *m = &s->com[c];
				char id[16], pid[16];
				export_cell r[] = {
				    cs(who(id, sizeof(id), t->lid, t->tid)),
				    cu(s->id),
				    cs(s->op),
				    cs(who(pid, sizeof(pid), m->partner_lid, m->partner_tid)),
				    ci(m->partner_tid),
				    ci(m->partner_lid != NULL),
				    cu(m->count),
				    cu(m->bytes),
				    ci(m->sync_ns),
				    ci(m->trans_ns)};

				rc = k->row(k, r);
			}
		}
	return rc ? rc : k->end(k);
}

/* The message matrix: what each task sent to each partner, from the send statements'
 * com records (as the HTML report's), one row per pair that exchanged messages, in
 * sender then first-seen receiver order. */
static int messages_table(const pvmmon_log *log, export_sink *k)
{
	static const export_col cols[] = {
	    {"sender", XC_STR},       {"sender_tid", XC_INT}, {"receiver", XC_STR},
	    {"receiver_tid", XC_INT}, {"messages", XC_UINT},  {"bytes", XC_UINT},
	};
	int rc = k->begin(k, "messages", cols, NCOLS(cols));

	for (size_t i = 0; rc == 0 && i < log->ntasks; i++) {
		const pvmmon_log_task *t = &log->tasks[i];
		size_t n = 0, cap = 0;
		struct pair {
			const pvmmon_log_com *first;
			uint64_t msgs, bytes;
		} *pairs = NULL;

		for (size_t j = 0; j < t->nstmts; j++) {
			const pvmmon_log_stmt *s = &t->stmts[j];

			if (!s->op || !pvmmon_event_op_sends(pvmmon_event_op_parse(s->op)))
				continue;
			for (size_t c = 0; c < s->ncom; c++) {
				size_t p;

				for (p = 0;
				     p < n && pairs[p].first->partner_tid != s->com[c].partner_tid;
				     p++)
					;
				if (p == n) {
					if (n == cap) {
						void *grown = realloc(pairs, (cap = cap * 2 + 8) *
						                                 sizeof(*pairs));

						if (!grown) {
							free(pairs);
							return pvmmon_error_set(
							    PVMMON_ENOMEM, "export: out of memory");
						}
						pairs = grown;
					}
					pairs[n].first = &s->com[c];
					pairs[n].msgs = pairs[n].bytes = 0;
					n++;
				}
				pairs[p].msgs += s->com[c].count;
				pairs[p].bytes += s->com[c].bytes;
			}
		}
		for (size_t p = 0; rc == 0 && p < n; p++) {
			char id[16], pid[16];
			export_cell r[] = {cs(who(id, sizeof(id), t->lid, t->tid)),
			                   ci(t->tid),
			                   cs(who(pid, sizeof(pid), pairs[p].first->partner_lid,
			                          pairs[p].first->partner_tid)),
			                   ci(pairs[p].first->partner_tid),
			                   cu(pairs[p].msgs),
			                   cu(pairs[p].bytes)};

			rc = k->row(k, r);
		}
		free(pairs);
	}
	return rc ? rc : k->end(k);
}

/* How a procedure record was measured: timed; counted (pvmmon-cc counts it instead of
 * timing it); demoted (throttling switched it to counting: the timed record until then
 * and the counted one after, told apart by counted); off (a rule or the budget). */
static const char *probes_of(const pvmmon_log_proc *p)
{
	if (p->throttle_pair_ns > 0)
		return "demoted";
	if (p->counted)
		return "counted";
	return p->disabled ? "off" : "timed";
}

/* What record p's probes cost its task: its timed calls times the calibrated pair. */
static int64_t probe_cost(const pvmmon_log_task *t, const pvmmon_log_proc *p)
{
	return p->counted ? 0 : (int64_t)p->count * t->cost.proc_pair_ns;
}

static int procedures_table(const pvmmon_log *log, export_sink *k)
{
	static const export_col cols[] = {
	    {"task", XC_STR},
	    {"procedure", XC_STR},
	    {"file", XC_STR},
	    {"line", XC_INT},
	    {"caller", XC_STR},
	    {"call_line", XC_INT},
	    {"calls", XC_UINT},
	    {"inclusive_ns", XC_INT},
	    {"exclusive_ns", XC_INT},
	    {"real_inclusive_ns", XC_INT},
	    {"real_exclusive_ns", XC_INT},
	    {"local_inclusive_ns", XC_INT},
	    {"local_exclusive_ns", XC_INT},
	    {"counted", XC_INT},
	    {"disabled", XC_INT},
	    {"probes", XC_STR},
	    {"probe_cost_ns", XC_INT},
	};
	int rc = k->begin(k, "procedures", cols, NCOLS(cols));

	for (size_t i = 0; rc == 0 && i < log->ntasks; i++)
		for (size_t j = 0; rc == 0 && j < log->tasks[i].nprocs; j++) {
			const pvmmon_log_task *t = &log->tasks[i];
			const pvmmon_log_proc *p = &t->procs[j];
			char id[16];
			export_cell none = cs(NULL);
			export_cell r[] = {cs(who(id, sizeof(id), t->lid, t->tid)),
			                   cs(p->name),
			                   cs(p->file),
			                   ci(p->line),
			                   cs(p->caller),
			                   ci(p->call_line),
			                   cu(p->count),
			                   ci(p->incl_ns),
			                   ci(p->excl_ns),
			                   t->has_raw ? ci(p->raw_incl_ns) : none,
			                   t->has_raw ? ci(p->raw_excl_ns) : none,
			                   t->has_raw ? ci(p->local_incl_ns) : none,
			                   t->has_raw ? ci(p->local_excl_ns) : none,
			                   ci(p->counted),
			                   ci(p->disabled),
			                   cs(probes_of(p)),
			                   t->cost.known ? ci(probe_cost(t, p)) : none};

			rc = k->row(k, r);
		}
	return rc ? rc : k->end(k);
}

/* A node's members joined by '+' (the caller frees it), NULL when out of memory. */
static char *join_members(const pvmmon_cg_node *nd)
{
	size_t len = 1;
	char *s;

	for (size_t j = 0; j < nd->nmembers; j++)
		len += strlen(nd->members[j]) + 1;
	if (!(s = malloc(len)))
		return NULL;
	s[0] = '\0';
	for (size_t j = 0; j < nd->nmembers; j++) {
		if (j)
			strcat(s, "+");
		strcat(s, nd->members[j]);
	}
	return s;
}

/*
 * Each task's call graph as the text report lists it: nodes with recursion collapsed.
 * node stays unambiguous for programs: a group's every member joined by '+', its entry
 * first (the text report names a group of three or more by entry and count, entry and
 * members here being what that name is made of).
 */
static int callgraph_table(const pvmmon_log *log, export_sink *k)
{
	static const export_col cols[] = {
	    {"task", XC_STR},         {"node", XC_STR},
	    {"file", XC_STR},         {"line", XC_INT},
	    {"recursive", XC_INT},    {"counted", XC_INT},
	    {"calls", XC_UINT},       {"recursive_calls", XC_UINT},
	    {"inclusive_ns", XC_INT}, {"exclusive_ns", XC_INT},
	    {"callees_ns", XC_INT},   {"entry", XC_STR},
	    {"members", XC_UINT},
	};
	int rc = k->begin(k, "callgraph", cols, NCOLS(cols));

	for (size_t i = 0; rc == 0 && i < log->ntasks; i++) {
		const pvmmon_log_task *t = &log->tasks[i];
		pvmmon_callgraph *cg = NULL;

		if (!t->nprocs)
			continue;
		rc = pvmmon_callgraph_build(&cg, t);
		for (size_t n = 0; rc == 0 && n < cg->nnodes; n++) {
			const pvmmon_cg_node *nd = &cg->nodes[n];
			char id[16], *joined = join_members(nd);

			if (!joined) {
				rc = pvmmon_error_set(PVMMON_ENOMEM, "export: out of memory");
				break;
			}
			export_cell r[] = {cs(who(id, sizeof(id), t->lid, t->tid)),
			                   cs(joined),
			                   cs(nd->file),
			                   ci(nd->line),
			                   ci(nd->recursive),
			                   ci(nd->counted),
			                   cu(nd->calls),
			                   cu(nd->inner_calls),
			                   ci(nd->incl_ns),
			                   ci(nd->excl_ns),
			                   ci(nd->callees_ns),
			                   cs(nd->members[0]),
			                   cu(nd->nmembers)};

			rc = k->row(k, r);
			free(joined);
		}
		pvmmon_callgraph_free(cg);
	}
	return rc ? rc : k->end(k);
}

static int loops_table(const pvmmon_log *log, export_sink *k)
{
	static const export_col cols[] = {
	    {"task", XC_STR},     {"loop", XC_STR},         {"file", XC_STR},
	    {"line", XC_INT},     {"procedure", XC_STR},    {"entries", XC_UINT},
	    {"time_ns", XC_INT},  {"real_time_ns", XC_INT}, {"local_time_ns", XC_INT},
	    {"disabled", XC_INT},
	};
	int rc = k->begin(k, "loops", cols, NCOLS(cols));

	for (size_t i = 0; rc == 0 && i < log->ntasks; i++)
		for (size_t j = 0; rc == 0 && j < log->tasks[i].nloops; j++) {
			const pvmmon_log_task *t = &log->tasks[i];
			const pvmmon_log_loop *l = &t->loops[j];
			char id[16];
			export_cell none = cs(NULL);
			export_cell r[] = {cs(who(id, sizeof(id), t->lid, t->tid)),
			                   cs(l->name),
			                   cs(l->file),
			                   ci(l->line),
			                   cs(l->proc),
			                   cu(l->count),
			                   ci(l->time_ns),
			                   t->has_raw ? ci(l->raw_ns) : none,
			                   t->has_raw ? ci(l->local_ns) : none,
			                   ci(l->disabled)};

			rc = k->row(k, r);
		}
	return rc ? rc : k->end(k);
}

/* The online profile's selected procedures, as the reports' critical-path table. */
static int cp_table(const pvmmon_log *log, export_sink *k)
{
	static const export_col cols[] = {
	    {"procedure", XC_STR}, {"on_path_ns", XC_INT}, {"zeroing_ns", XC_INT},
	    {"cpu_ns", XC_INT},    {"path_ns", XC_INT},
	};
	graphs_cp_row *rows = NULL;
	size_t n = 0;
	int64_t total = 0;
	int rc = k->begin(k, "critical_path", cols, NCOLS(cols));

	if (rc == 0 && log->cp.enabled)
		rc = graphs__cp_rows(log, &rows, &n, &total);
	for (size_t i = 0; rc == 0 && i < n; i++) {
		export_cell r[] = {cs(rows[i].name), ci(rows[i].share_ns), ci(rows[i].zero_ns),
		                   ci(rows[i].cpu_ns), ci(log->cp.length_ns)};

		rc = k->row(k, r);
	}
	free(rows);
	return rc ? rc : k->end(k);
}

static const char *cp_kind_name(pvmmon_cpath_kind kind)
{
	static const char *const names[] = {"?",    "start", "end",   "send",
	                                    "recv", "spawn", "enter", "exit"};

	return (unsigned)kind < NCOLS(names) ? names[kind] : "?";
}

/* The critical path itself, recomputed from the trace when the trace is whole: one row
 * per node, in path order. */
static int cp_nodes_table(const pvmmon_log *log, export_sink *k)
{
	static const char *const via[] = {"none", "local", "message", "spawn"};
	static const export_col cols[] = {
	    {"step", XC_UINT},     {"task", XC_STR},
	    {"event", XC_INT},     {"kind", XC_STR},
	    {"via", XC_STR},       {"virtual_time_ns", XC_INT},
	    {"resume_ns", XC_INT}, {"path_length_ns", XC_INT},
	};
	pvmmon_cpath *cp = NULL;
	int rc = k->begin(k, "critical_path_nodes", cols, NCOLS(cols));

	/* Without a whole trace there is nothing to recompute from: the table stays empty. */
	if (rc == 0 && log->trace.enabled && log->trace.dropped == 0 &&
	    pvmmon_cpath_compute(&cp, log) < 0)
		cp = NULL;
	for (size_t i = 0; rc == 0 && cp && i < cp->npath; i++) {
		const pvmmon_cpath_node *nd = &cp->path[i];
		const pvmmon_log_task *t = &log->tasks[nd->task];
		char id[16];
		export_cell r[] = {cu(i),
		                   cs(who(id, sizeof(id), t->lid, t->tid)),
		                   nd->event == PVMMON_CPATH_NO_EVENT ? ci(-1)
		                                                      : ci((int64_t)nd->event),
		                   cs(cp_kind_name(nd->kind)),
		                   cs((unsigned)nd->via < NCOLS(via) ? via[nd->via] : "?"),
		                   ci(nd->vt),
		                   ci(nd->resume),
		                   ci(nd->L)};

		rc = k->row(k, r);
	}
	pvmmon_cpath_free(cp);
	return rc ? rc : k->end(k);
}

static int costs_table(const pvmmon_log *log, export_sink *k)
{
	static const export_col cols[] = {
	    {"task", XC_STR},
	    {"proc_pair_ns", XC_INT},
	    {"loop_pair_ns", XC_INT},
	    {"wrapper_ns", XC_INT},
	    {"piggyback_send_ns", XC_INT},
	    {"piggyback_recv_ns", XC_INT},
	    {"wrapped_calls", XC_UINT},
	    {"observed_ns", XC_INT},
	    {"predicted_ns", XC_INT},
	    {"switched_off_ns", XC_INT},
	    {"site_on_ps", XC_INT},
	    {"site_off_ps", XC_INT},
	    {"span_ns", XC_INT},
	    /* Since log 1.7: the calibration's re-checks (0 and 0 without). */
	    {"rechecks", XC_UINT},
	    {"recheck_min_ns", XC_INT},
	    {"recheck_max_ns", XC_INT},
	};
	int rc = k->begin(k, "costs", cols, NCOLS(cols));

	for (size_t i = 0; rc == 0 && i < log->ntasks; i++) {
		const pvmmon_log_task *t = &log->tasks[i];
		const pvmmon_log_cost *c = &t->cost;
		char id[16];

		if (!c->known)
			continue;
		{
			export_cell r[] = {cs(who(id, sizeof(id), t->lid, t->tid)),
			                   ci(c->proc_pair_ns),
			                   ci(c->loop_pair_ns),
			                   ci(c->wrapper_ns),
			                   ci(c->pb_send_ns),
			                   ci(c->pb_recv_ns),
			                   cu(c->wrapped_calls),
			                   ci(c->observed_ns),
			                   ci(c->predicted_ns),
			                   ci(c->static_ns),
			                   ci(c->site_on_ps),
			                   ci(c->site_off_ps),
			                   ci(t->end_ns - t->start_ns),
			                   cu(c->rechecks),
			                   ci(c->recheck_min_ns),
			                   ci(c->recheck_max_ns)};

			rc = k->row(k, r);
		}
	}
	return rc ? rc : k->end(k);
}

static int switches_table(const pvmmon_log *log, export_sink *k)
{
	static const export_col cols[] = {
	    {"time_ns", XC_INT}, {"action", XC_STR}, {"resource", XC_STR},
	    {"by", XC_STR},      {"reason", XC_STR},
	};
	int rc = k->begin(k, "switches", cols, NCOLS(cols));

	for (size_t i = 0; rc == 0 && i < log->nswitches; i++) {
		const pvmmon_log_switch *w = &log->switches[i];
		export_cell r[] = {ci(w->time_ns), cs(w->on ? "enable" : "disable"),
		                   cs(w->resource), cs(w->by), cs(w->reason)};

		rc = k->row(k, r);
	}
	return rc ? rc : k->end(k);
}

static int hangs_table(const pvmmon_log *log, export_sink *k)
{
	static const export_col cols[] = {
	    {"kind", XC_STR},
	    {"diagnosis", XC_STR},
	    {"delay_ns", XC_INT},
	};
	int rc = k->begin(k, "hangs", cols, NCOLS(cols));

	for (size_t i = 0; rc == 0 && i < log->nhangs; i++) {
		export_cell r[] = {cs(log->hangs[i].kind), cs(log->hangs[i].text),
		                   ci(log->hangs[i].delay_ns)};

		rc = k->row(k, r);
	}
	return rc ? rc : k->end(k);
}

int graphs__export_tables(const pvmmon_log *log, export_sink *sink)
{
	static int (*const tables[])(const pvmmon_log *, export_sink *) = {
	    run_table,      hosts_table,      tasks_table,     statements_table, partners_table,
	    messages_table, procedures_table, callgraph_table, loops_table,      cp_table,
	    cp_nodes_table, costs_table,      switches_table,  hangs_table,      graphs__export_waits,
	    graphs__export_samples,
	};
	int rc = 0;

	for (size_t i = 0; rc == 0 && i < NCOLS(tables); i++)
		rc = tables[i](log, sink);
	return rc;
}
