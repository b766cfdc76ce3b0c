/* The top-down text summary of a run's log (`pvmmon report --text`). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "pvmmon/callgraph.h"
#include "pvmmon/cpath.h"
#include "pvmmon/errors.h"
#include "pvmmon/report.h"
#include "figures.h"
#include "pvmmon/waits.h"
#include "histo.h"
#include "samples.h"

/* One communication statement together with the task it belongs to, for sorting. */
typedef struct stmt_ref {
	const pvmmon_log_task *task;
	const pvmmon_log_stmt *stmt;
} stmt_ref;

/* Larger virtual time first; ties keep a stable order by task then statement id. */
static int cmp_stmt_ref(const void *a, const void *b)
{
	const stmt_ref *x = a, *y = b;

	if (x->stmt->time_ns != y->stmt->time_ns)
		return x->stmt->time_ns > y->stmt->time_ns ? -1 : 1;
	if (x->task != y->task)
		return x->task < y->task ? -1 : 1;
	return x->stmt->id < y->stmt->id ? -1 : x->stmt->id > y->stmt->id;
}

/* Which clock the tasks' probes read (logs of 1.6 that say so): the TSC, or
 * CLOCK_MONOTONIC (forced, or where the TSC is not to be trusted). */
static void report_clocks(const pvmmon_log *log, FILE *out)
{
	size_t tsc = 0, mono = 0;

	for (size_t i = 0; i < log->ntasks; i++) {
		const char *c = log->tasks[i].clock;

		tsc += c && !strcmp(c, "tsc");
		mono += c && strcmp(c, "tsc");
	}
	if (!tsc && !mono)
		return;
	fprintf(out, "  tasks' clock:");
	if (tsc)
		fprintf(out, " TSC (%zu task%s)%s", tsc, tsc == 1 ? "" : "s", mono ? "," : "");
	if (mono)
		fprintf(out, " CLOCK_MONOTONIC (%zu task%s)", mono, mono == 1 ? "" : "s");
	fprintf(out, "\n");
}

/*
 * The compensation's quality per task (logs of version 1.4 and later): the share of the
 * task's real time that was its own monitoring, which compensation removed, the
 * virtual time's estimated error, and the charges its clock could not remove.
 */
static void report_quality(const pvmmon_log *log, FILE *out)
{
	char t1[32], t2[32];
	int head = 0;

	for (size_t i = 0; i < log->ntasks; i++) {
		const pvmmon_log_task *t = &log->tasks[i];

		if (!t->has_raw || (log->version_major == 1 && log->version_minor < 4))
			continue;
		if (!head++)
			fprintf(out, "  compensation quality (monitoring share of real time; "
				     "estimated error of virtual time):\n");
		fprintf(out, "    task %-6s monitoring %5.1f%%, virtual %s, error +- %s (%.1f%%)",
			t->lid ? t->lid : "?", graphs__percent(t->raw_ns - t->local_ns, t->raw_ns),
			graphs__fmt_time(t1, sizeof(t1), t->virtual_ns),
			graphs__fmt_time(t2, sizeof(t2), t->uncertainty_ns),
			graphs__percent(t->uncertainty_ns, t->virtual_ns));
		if (t->clamped_ns)
			fprintf(out, ", %s of charges not removable (clamped)",
				graphs__fmt_time(t1, sizeof(t1), t->clamped_ns));
		/* The calibration taken again during the run (log 1.7). */
		if (t->cost.rechecks)
			fprintf(out,
				"; calibration re-checked %u time%s, loop pair %" PRId64
				" to %" PRId64 " ns (%" PRId64 " ns at the start)",
				t->cost.rechecks, t->cost.rechecks == 1 ? "" : "s",
				t->cost.recheck_min_ns, t->cost.recheck_max_ns,
				t->cost.loop_pair_ns);
		fprintf(out, "\n");
	}
}

static void report_run(const pvmmon_log *log, FILE *out)
{
	char t1[32], t2[32];
	int64_t vsum = 0, isum = 0;
	size_t i, crashed = 0, noexit = 0;

	fprintf(out, "Run: %s", log->program ? log->program : "(unknown program)");
	for (i = 0; i < log->nargs; i++)
		fprintf(out, " %s", log->args[i]);
	fprintf(out, "\n");
	for (i = 0; i < log->ntasks; i++) {
		vsum += log->tasks[i].virtual_ns;
		isum += log->tasks[i].intrusion_ns;
		crashed += log->tasks[i].status == PVMMON_TASK_CRASHED;
		noexit += log->tasks[i].status == PVMMON_TASK_NOEXIT;
	}
	fprintf(out, "  started %s, wall time %s, exit code %d\n",
		log->started ? log->started : "(unknown)", graphs__fmt_time(t1, sizeof(t1), log->wall_ns),
		(int)log->exit_code);
	fprintf(out, "  %zu task%s on %zu host%s", log->ntasks, log->ntasks == 1 ? "" : "s",
		log->nhosts, log->nhosts == 1 ? "" : "s");
	if (crashed)
		fprintf(out, ", %zu crashed", crashed);
	if (noexit)
		fprintf(out, ", %zu exited without pvm_exit", noexit);
	fprintf(out, "\n");
	fprintf(out, "  virtual time summed over tasks %s; monitoring intrusion %s (%.2f%%)\n",
		graphs__fmt_time(t1, sizeof(t1), vsum), graphs__fmt_time(t2, sizeof(t2), isum),
		graphs__percent(isum, vsum + isum));
	fprintf(out, "  %s\n", graphs__comp_sentence(log));
	report_clocks(log, out);
	report_quality(log, out);
}

static void report_tasks(const pvmmon_log *log, FILE *out)
{
	char t1[80], t2[32], b1[32], b2[32];

	fprintf(out, "\nTasks\n");
	fprintf(out, "  %-8s %-10s %-8s %-22s %12s %12s %8s %8s %12s %12s\n", "task", "tid",
		"status", "program", "virtual", "intrusion", "sent", "recv", "bytes sent",
		"bytes recv");
	for (size_t i = 0; i < log->ntasks; i++) {
		const pvmmon_log_task *t = &log->tasks[i];
		char tid[16];

		snprintf(tid, sizeof(tid), "t%x", (unsigned)t->tid);
		fprintf(out,
			"  %-8s %-10s %-8s %-22.22s %12s %12s %8" PRIu64 " %8" PRIu64 " %12s %12s\n",
			t->lid ? t->lid : "?", tid, pvmmon_task_status_name(t->status),
			t->program ? graphs__base_name(t->program) : "?",
			graphs__fmt_time_pm(t1, sizeof(t1), t->virtual_ns, t->uncertainty_ns),
			graphs__fmt_time(t2, sizeof(t2), t->intrusion_ns), t->msgs_sent, t->msgs_recv,
			graphs__fmt_bytes(b1, sizeof(b1), t->bytes_sent),
			graphs__fmt_bytes(b2, sizeof(b2), t->bytes_recv));
		if (t->unmonitored_recv)
			fprintf(out, "  %-8s %" PRIu64 " message%s from unmonitored senders\n", "",
				t->unmonitored_recv, t->unmonitored_recv == 1 ? "" : "s");
		if (t->status == PVMMON_TASK_CRASHED)
			fprintf(out, "  %-8s crashed: records as of its last flush (%" PRIu64 " flush%s)\n",
				"", t->flushes, t->flushes == 1 ? "" : "es");
		else if (t->ended)
			fprintf(out, "  %-8s %s\n", "", t->ended);
	}
}

/* Hosts and their clocks, for runs on several: every time in the log is on the monitor's
 * clock, converted with these. */
static void report_hosts(const pvmmon_log *log, FILE *out)
{
	char clk[160];

	if (log->nhosts < 2)
		return;
	fprintf(out, "\nHosts (times are on the monitor's clock)\n");
	fprintf(out, "  %-20s %-8s %5s  %s\n", "host", "arch", "tasks", "clock");
	for (size_t i = 0; i < log->nhosts; i++) {
		const pvmmon_log_host *h = &log->hosts[i];

		fprintf(out, "  %-20s %-8s %5zu  %s\n", h->name ? h->name : "?",
			h->arch ? h->arch : "?", graphs__host_tasks(log, h),
			graphs__host_clock(clk, sizeof(clk), h));
	}
}

static void report_partners(const pvmmon_log_stmt *s, FILE *out)
{
	char t1[32], t2[32], b1[32];

	for (size_t k = 0; k < s->ncom; k++) {
		const pvmmon_log_com *c = &s->com[k];
		char who[48];

		if (c->partner_lid && !strcmp(c->partner_lid, PVMMON_LOG_GROUP_SERVER))
			snprintf(who, sizeof(who), "the %s", c->partner_lid);
		else if (c->partner_lid)
			snprintf(who, sizeof(who), "task %s", c->partner_lid);
		else
			snprintf(who, sizeof(who), "t%x (unmonitored)", (unsigned)c->partner_tid);
		fprintf(out, "  %-6s   with %-22s %8" PRIu64 " msgs %12s sync %12s trans %12s\n", "",
			who, c->count, graphs__fmt_time(t1, sizeof(t1), c->sync_ns),
			graphs__fmt_time(t2, sizeof(t2), c->trans_ns), graphs__fmt_bytes(b1, sizeof(b1), c->bytes));
	}
}

static int report_statements(const pvmmon_log *log, FILE *out)
{
	stmt_ref *refs;
	size_t n = 0, i, j;

	for (i = 0; i < log->ntasks; i++)
		n += log->tasks[i].nstmts;
	fprintf(out, "\nCommunication statements by virtual time\n");
	if (n == 0) {
		fprintf(out, "  (none recorded)\n");
		return 0;
	}
	refs = calloc(n, sizeof(*refs));
	if (!refs)
		return pvmmon_error_set(PVMMON_ENOMEM, "out of memory sorting statements");
	n = 0;
	for (i = 0; i < log->ntasks; i++)
		for (j = 0; j < log->tasks[i].nstmts; j++) {
			refs[n].task = &log->tasks[i];
			refs[n].stmt = &log->tasks[i].stmts[j];
			n++;
		}
	qsort(refs, n, sizeof(*refs), cmp_stmt_ref);
	fprintf(out, "  %-6s %-40s %-10s %8s %12s %7s %12s %12s %12s\n", "task", "statement", "call",
		"count", "time", "%task", "sync", "trans", "bytes");
	for (i = 0; i < n; i++) {
		const pvmmon_log_stmt *s = refs[i].stmt;
		char name[512], t1[32], t2[32], t3[32], b1[32];

		fprintf(out, "  %-6s %-40s %-10s %8" PRIu64 " %12s %6.1f%% %12s %12s %12s\n",
		        refs[i].task->lid ? refs[i].task->lid : "?",
		        graphs__stmt_name(name, sizeof(name), refs[i].task, s), s->op ? s->op : "?",
		        s->count, graphs__fmt_time(t1, sizeof(t1), s->time_ns),
		        graphs__percent(s->time_ns, refs[i].task->virtual_ns),
		        graphs__fmt_time(t2, sizeof(t2), s->sync_ns),
		        graphs__fmt_time(t3, sizeof(t3), s->trans_ns),
		        graphs__fmt_bytes(b1, sizeof(b1), s->bytes));
		if (s->unmonitored)
			fprintf(out, "  %-6s   %" PRIu64 " from unmonitored senders\n", "",
				s->unmonitored);
		report_partners(s, out);
	}
	free(refs);
	return 0;
}

/* A group's members, under its line and wrapped, when its name does not list them. */
static void report_members(const pvmmon_cg_node *n, FILE *out)
{
	size_t col = 0;

	if (n->nmembers < 3)
		return;
	for (size_t j = 0; j < n->nmembers; j++) {
		size_t len = strlen(n->members[j]);

		if (!col || col + len + 2 > 96) {
			fprintf(out, "%s  %-6s   %s %s", col ? ",\n" : "", "", col ? "        " : "members:",
				n->members[j]);
			col = 20 + len;
		} else {
			fprintf(out, ", %s", n->members[j]);
			col += len + 2;
		}
	}
	fputc('\n', out);
}

/*
 * One task's procedures as its call graph (seed 000 Figure 11): each node with calls,
 * inclusive and exclusive time, then its call sites by the time spent through them.
 * Mutually recursive procedures are one node ("a+b", or "eval and 23 more, mutually
 * recursive" with its members listed under it) whose callers are the call sites outside
 * the group; recursive calls are counted apart and add no time.
 */
static int report_task_procs(const pvmmon_log *log, const pvmmon_log_task *t, FILE *out)
{
	pvmmon_callgraph *cg = NULL;
	size_t *order = NULL;
	int64_t whole;
	int rc;

	rc = pvmmon_callgraph_build(&cg, t);
	if (rc < 0)
		return rc;
	order = malloc((cg->nnodes ? cg->nnodes : 1) * sizeof(*order));
	if (!order) {
		pvmmon_callgraph_free(cg);
		return pvmmon_error_set(PVMMON_ENOMEM, "report: out of memory");
	}
	for (size_t i = 0; i < cg->nnodes; i++)
		order[i] = i;
	/* Shares are of the task's time on the report's clock, or of its root procedures'
	 * time when that is longer (main starts before the task registers and its clock
	 * starts). */
	whole = pvmmon_log_task_time(log, t);
	{
		int64_t roots = 0;

		for (size_t e = 0; e < cg->nedges; e++)
			if (cg->edges[e].from == PVMMON_CG_ROOT)
				roots += cg->edges[e].incl_ns;
		if (roots > whole)
			whole = roots;
	}
	/* Largest inclusive time first: the top-down order of section 6.4.1. */
	for (size_t i = 1; i < cg->nnodes; i++)
		for (size_t j = i; j > 0 && cg->nodes[order[j]].incl_ns > cg->nodes[order[j - 1]].incl_ns;
		     j--) {
			size_t tmp = order[j];

			order[j] = order[j - 1];
			order[j - 1] = tmp;
		}
	for (size_t k = 0; k < cg->nnodes; k++) {
		const pvmmon_cg_node *n = &cg->nodes[order[k]];
		char t1[32], t2[32], where[160], rec[32] = "";

		snprintf(where, sizeof(where), "%s:%d", n->file ? graphs__base_name(n->file) : "?",
			 (int)n->line);
		if (n->recursive)
			snprintf(rec, sizeof(rec), "+%" PRIu64 " rec", n->inner_calls);
		if (n->counted)
			fprintf(out, "  %-6s %-28s %-20s %10" PRIu64 " %-10s %12s %12s\n",
				t->lid ? t->lid : "?", n->name, where, n->calls, "", "counted",
				"only");
		else
			fprintf(out, "  %-6s %-28s %-20s %10" PRIu64 " %-10s %12s %12s %6.1f%%\n",
				t->lid ? t->lid : "?", n->name, where, n->calls, rec,
				graphs__fmt_time(t1, sizeof(t1), n->incl_ns),
				graphs__fmt_time(t2, sizeof(t2), n->excl_ns), graphs__percent(n->incl_ns, whole));
		report_members(n, out);
		for (size_t e = 0; e < cg->nedges; e++) {
			const pvmmon_cg_edge *ed = &cg->edges[e];
			char from[200];

			if (ed->to != order[k])
				continue;
			if (!ed->caller)
				snprintf(from, sizeof(from), "(root)");
			else if (ed->call_line > 0)
				snprintf(from, sizeof(from), "%s at line %d", ed->caller,
					 (int)ed->call_line);
			else
				snprintf(from, sizeof(from), "%s", ed->caller);
			fprintf(out, "  %-6s   from %-43s %10" PRIu64 " %-10s %12s\n", "", from,
				ed->calls, "", graphs__fmt_time(t1, sizeof(t1), ed->incl_ns));
		}
	}
	free(order);
	pvmmon_callgraph_free(cg);
	return 0;
}

static int report_procs_and_loops(const pvmmon_log *log, FILE *out)
{
	size_t i, j, nprocs = 0, nloops = 0;
	char t1[32];
	int rc;

	for (i = 0; i < log->ntasks; i++) {
		nprocs += log->tasks[i].nprocs;
		nloops += log->tasks[i].nloops;
	}
	if (nprocs) {
		fprintf(out, "\nProcedures (call graph: callers by call site; mutual recursion "
			     "as one node)\n");
		fprintf(out, "  %-6s %-28s %-20s %10s %-10s %12s %12s %7s\n", "task", "procedure",
			"defined at", "calls", "recursive", "inclusive", "exclusive", "%task");
		for (i = 0; i < log->ntasks; i++) {
			rc = report_task_procs(log, &log->tasks[i], out);
			if (rc < 0)
				return rc;
		}
	}
	if (nloops) {
		fprintf(out, "\nLoops\n");
		fprintf(out, "  %-6s %-28s %-20s %10s %12s\n", "task", "loop", "in procedure",
			"entries", "time");
		for (i = 0; i < log->ntasks; i++)
			for (j = 0; j < log->tasks[i].nloops; j++) {
				const pvmmon_log_loop *l = &log->tasks[i].loops[j];

				fprintf(out, "  %-6s %-28s %-20s %10" PRIu64 " %12s\n",
					log->tasks[i].lid ? log->tasks[i].lid : "?",
					l->name ? l->name : "?", l->proc ? l->proc : "-", l->count,
					graphs__fmt_time(t1, sizeof(t1), l->time_ns));
			}
	}
	return 0;
}

/*
 * The top-down view of seed 000 section 6.4.1: the program's structure from its static
 * tables (procedures, their loops, communication and call statements, nested), each
 * with its virtual time and count from the records, so the reader drills from main to
 * the statement that matters. Shown once per program, for its first task.
 */
static void report_structure(const pvmmon_log *log, FILE *out)
{
	for (size_t ti = 0; ti < log->ntasks; ti++) {
		const pvmmon_log_task *t = &log->tasks[ti];
		int seen = 0;

		if (!t->nstatics)
			continue;
		for (size_t tj = 0; tj < ti; tj++)
			if (log->tasks[tj].nstatics && t->program && log->tasks[tj].program &&
			    !strcmp(t->program, log->tasks[tj].program))
				seen = 1;
		if (seen)
			continue;
		fprintf(out, "\nProgram structure of %s (task %s): virtual time top-down\n",
			t->program ? graphs__base_name(t->program) : "?", t->lid ? t->lid : "?");
		for (size_t i = 0; i < t->nstatics; i++) {
			const pvmmon_log_static *e = &t->statics[i];
			char where[256], label[320], t1[32];
			int depth = 0, p = e->parent;
			int64_t time;
			uint64_t count;
			int found;

			while (p >= 0 && depth < 40) {
				depth++;
				p = t->statics[p].parent;
			}
			snprintf(where, sizeof(where), "%s:%d", e->file ? graphs__base_name(e->file) : "?",
				 (int)e->line);
			snprintf(label, sizeof(label), "%*s%s %s", 2 * depth, "",
				 pvmmon_static_kind_name(e->kind) ? pvmmon_static_kind_name(e->kind) : "?",
				 e->kind == PVMMON_STATIC_LOOP ? "" : e->name);
			found = graphs__static_figures(t, e, graphs__enclosing_proc(t, i), &time, &count);
			if (found)
				fprintf(out, "  %-44s %-18s %12s %10" PRIu64 "x\n", label, where,
					graphs__fmt_time(t1, sizeof(t1), time), count);
			else
				fprintf(out, "  %-44s %-18s %12s\n", label, where, "not run");
		}
	}
}

/*
 * The critical path (seed 003): the online profile's length and, per selected
 * procedure, its share of the path, its zeroing value and its CPU share (its time summed
 * over all tasks, as a part of all tasks' virtual time), largest share first; then the
 * offline recomputation from the trace when the trace is whole.
 */
static int report_critical_path(const pvmmon_log *log, FILE *out)
{
	const pvmmon_log_task *end;
	graphs_cp_row *rows = NULL;
	pvmmon_cpath *cp = NULL;
	size_t n = 0;
	int64_t total = 0, len = log->cp.length_ns;
	char t1[32], t2[32];
	int rc;

	if (!log->cp.enabled)
		return 0;
	rc = graphs__cp_rows(log, &rows, &n, &total);
	if (rc < 0)
		return rc;
	end = graphs__task_by_tid(log, log->cp.end_tid);
	fprintf(out, "\nCritical path (%s shares): %s, ends in task %s (t%x)\n",
		log->cp.exclusive ? "exclusive" : "inclusive",
		graphs__fmt_time(t1, sizeof(t1), len), end && end->lid ? end->lid : "?",
		(unsigned)log->cp.end_tid);
	fprintf(out, "  %-28s %12s %7s %12s %7s %9s\n", "procedure", "on path", "%path",
		"zeroing", "%path", "CPU share");
	for (size_t i = 0; i < n; i++)
		fprintf(out, "  %-28s %12s %6.1f%% %12s %6.1f%% %8.1f%%\n", rows[i].name,
			graphs__fmt_time(t1, sizeof(t1), rows[i].share_ns),
			graphs__percent(rows[i].share_ns, len),
			graphs__fmt_time(t2, sizeof(t2), rows[i].zero_ns),
			graphs__percent(rows[i].zero_ns, len), graphs__percent(rows[i].cpu_ns, total));
	fprintf(out, "  (CPU share: %s time summed over all tasks / all tasks' virtual time %s)\n",
		log->cp.exclusive ? "exclusive" : "inclusive",
		graphs__fmt_time(t1, sizeof(t1), total));
	free(rows);
	/* A whole trace lets the path be recomputed offline, as a check of the figures. */
	if (log->trace.enabled && log->trace.dropped == 0 && pvmmon_cpath_compute(&cp, log) == 0) {
		fprintf(out, "  recomputed from the trace: %s\n",
			graphs__fmt_time(t1, sizeof(t1), cp->length_ns));
		pvmmon_cpath_free(cp);
	}
	return 0;
}

/*
 * What monitoring cost each task (observed: time in monitoring code; predicted: the
 * calibrated costs times what it counted; seed 004; switched off: what sites that
 * are off still cost, estimated) and every switch of dynamic instrumentation, with
 * the budget: only when the log has them.
 */
/* "TIME (PCT%)": ns and its share of span, into buf. */
static const char *time_share(char *buf, size_t len, int64_t ns, int64_t span)
{
	char t[32];

	snprintf(buf, len, "%s (%.1f%%)", graphs__fmt_time(t, sizeof(t), ns),
		 graphs__percent(ns, span));
	return buf;
}

static void report_cost(const pvmmon_log *log, FILE *out)
{
	char t1[32];
	size_t i, n = 0;

	for (i = 0; i < log->ntasks; i++)
		n += log->tasks[i].cost.known;
	if (n) {
		fprintf(out, "\nMonitoring cost (observed: time in monitoring code; predicted: "
			     "calibrated costs x counts; switched off: what sites that are off "
			     "still cost)\n");
		fprintf(out, "  %-8s %20s %20s %20s %10s %10s\n", "task", "observed", "predicted",
			"switched off", "proc pair", "loop pair");
		for (i = 0; i < log->ntasks; i++) {
			const pvmmon_log_task *t = &log->tasks[i];
			int64_t span = t->end_ns - t->start_ns;
			char obs[48], pred[48], off[48] = "-";

			if (!t->cost.known)
				continue;
			if (t->cost.static_ns > 0)
				time_share(off, sizeof(off), t->cost.static_ns, span);
			fprintf(out, "  %-8s %20s %20s %20s %7lld ns %7lld ns\n", t->lid ? t->lid : "?",
				time_share(obs, sizeof(obs), t->cost.observed_ns, span),
				time_share(pred, sizeof(pred), t->cost.predicted_ns, span), off,
				(long long)t->cost.proc_pair_ns,
				(long long)t->cost.loop_pair_ns);
		}
	}
	if (log->budget_pct <= 0 && !log->nswitches)
		return;
	fprintf(out, "\nInstrumentation switched while the program ran");
	if (log->budget_pct > 0)
		fprintf(out, " (budget %g%%)", log->budget_pct);
	fprintf(out, ": %zu switch%s\n", log->nswitches, log->nswitches == 1 ? "" : "es");
	for (i = 0; i < log->nswitches; i++) {
		const pvmmon_log_switch *w = &log->switches[i];

		fprintf(out, "  %10s  %-7s %s  (%s%s%s)\n",
			graphs__fmt_time(t1, sizeof(t1), w->time_ns), w->on ? "enable" : "disable",
			w->resource ? w->resource : "?", w->by ? w->by : "?", w->reason ? ": " : "",
			w->reason ? w->reason : "");
	}
	/* Switching cannot go below what the switched-off sites still cost: say so when
	 * that alone is over the budget. */
	for (i = 0; log->budget_pct > 0 && i < log->ntasks; i++) {
		const pvmmon_log_task *t = &log->tasks[i];
		double pct = graphs__percent(t->cost.static_ns, t->end_ns - t->start_ns);

		if (t->cost.known && pct > log->budget_pct)
			fprintf(out,
				"  task %s: its switched-off sites alone cost %.1f%%, over the budget; "
				"fewer files built with pvmmon-cc would cost less\n",
				t->lid ? t->lid : "?", pct);
	}
}

/* PVM usage errors: each finding as the monitor said it, with how often it happened. */
static void report_findings(const pvmmon_log *log, FILE *out)
{
	if (log->nfindings)
		fprintf(out, "\nPVM usage errors: %zu\n", log->nfindings);
	for (size_t i = 0; i < log->nfindings; i++)
		fprintf(out, "  %s: %s (%llu time%s)\n",
			log->findings[i].kind ? log->findings[i].kind : "?",
			log->findings[i].text ? log->findings[i].text : "",
			(unsigned long long)log->findings[i].count,
			log->findings[i].count == 1 ? "" : "s");
}

/* Hangs: each diagnosis as the monitor said it while the run lasted. */
static void report_hangs(const pvmmon_log *log, FILE *out)
{
	int head = 0;

	if (log->nhangs)
		fprintf(out, "\nHangs: %zu\n", log->nhangs);
	for (size_t i = 0; i < log->nhangs; i++)
		fprintf(out, "  %s: %s (%lld ms after the last block)\n",
			log->hangs[i].kind ? log->hangs[i].kind : "?",
			log->hangs[i].text ? log->hangs[i].text : "",
			(long long)(log->hangs[i].delay_ns / 1000000));
	/* Where tasks waited when the log was written (or when they ended). */
	for (size_t i = 0; i < log->ntasks; i++) {
		const pvmmon_log_task *t = &log->tasks[i];

		if (!t->waiting)
			continue;
		if (!head++)
			fprintf(out, "\nWaiting in a receive when the run ended\n");
		fprintf(out, "  task %s (%s) waiting %s\n", t->lid ? t->lid : "?",
			pvmmon_task_status_name(t->status), t->waiting);
	}
}

/* The calls of throttled procedure p counted since its demotion (its counted record). */
static uint64_t throttled_counted(const pvmmon_log_task *t, const pvmmon_log_proc *p)
{
	for (size_t k = 0; k < t->nprocs; k++) {
		const pvmmon_log_proc *c = &t->procs[k];

		if (c->counted && c->throttle_pair_ns > 0 && c->line == p->line && c->name &&
		    p->name && !strcmp(c->name, p->name))
			return c->count;
	}
	return 0;
}

/* One line for a throttled site: when, and why (its time a call against its pair). */
static void throttled_line(FILE *out, const char *lid, const char *what, const char *name,
			   const char *file, int line, int64_t at, int64_t call, int64_t pair,
			   uint64_t counted)
{
	char t1[32], t2[32], t3[32];

	fprintf(out, "  %-6s %s %s (%s:%d) at %s: probe pair %s against %s a call",
		lid ? lid : "?", what, name ? name : "?", file ? graphs__base_name(file) : "?", line,
		graphs__fmt_time(t1, sizeof(t1), at), graphs__fmt_time(t2, sizeof(t2), pair),
		graphs__fmt_time(t3, sizeof(t3), call));
	if (counted)
		fprintf(out, "; %" PRIu64 " more counted, not timed", counted);
	fprintf(out, "\n");
}

/* Sites demoted to counting only because their probes cost more than they measure. */
static void report_throttled(const pvmmon_log *log, FILE *out)
{
	int head = 0;

	for (size_t i = 0; i < log->ntasks; i++) {
		const pvmmon_log_task *t = &log->tasks[i];

		for (size_t k = 0; k < t->nprocs; k++) {
			const pvmmon_log_proc *p = &t->procs[k], *q;
			size_t j;

			if (p->counted || p->throttle_pair_ns <= 0)
				continue;
			/* One line per procedure, not per call site. */
			for (j = 0; j < k; j++) {
				q = &t->procs[j];
				if (!q->counted && q->throttle_pair_ns > 0 && q->line == p->line &&
				    q->name && p->name && !strcmp(q->name, p->name))
					break;
			}
			if (j < k)
				continue;
			if (!head++)
				fprintf(out, "\nThrottled (demoted to counting only: times stop, "
					     "counts stay exact; --no-throttle keeps them timed)\n");
			throttled_line(out, t->lid, "procedure", p->name, p->file, p->line,
				       p->throttled_at_ns, p->throttle_call_ns, p->throttle_pair_ns,
				       throttled_counted(t, p));
		}
		for (size_t k = 0; k < t->nloops; k++) {
			const pvmmon_log_loop *l = &t->loops[k];

			if (l->throttle_pair_ns <= 0)
				continue;
			if (!head++)
				fprintf(out, "\nThrottled (demoted to counting only: times stop, "
					     "counts stay exact; --no-throttle keeps them timed)\n");
			throttled_line(out, t->lid, "loop", l->name, l->file, l->line,
				       l->throttled_at_ns, l->throttle_call_ns, l->throttle_pair_ns, 0);
		}
	}
}

/* Procedures pvmmon-cc counts instead of timing (instrument/rewriter.h), per task: at
 * most REPORT_COUNTED_NAMES names, the most called first in the log's order. */
#define REPORT_COUNTED_NAMES 8
static void report_counted(const pvmmon_log *log, FILE *out)
{
	int head = 0;

	for (size_t i = 0; i < log->ntasks; i++) {
		const pvmmon_log_task *t = &log->tasks[i];
		size_t n = 0;

		for (size_t k = 0; k < t->nprocs; k++) {
			const pvmmon_log_proc *p = &t->procs[k];

			/* A throttled site's counted record is in the throttled section. */
			if (!p->counted || p->throttle_pair_ns > 0 || !p->count)
				continue;
			if (!head++)
				fprintf(out, "\nCounted, not timed, from the start (pvmmon-cc: "
					     "straight-line procedures, cheaper than a probe pair;\n"
					     "their time is their callers'; --no-throttle times "
					     "those that call others)\n");
			if (n == 0)
				fprintf(out, "  %-6s", t->lid ? t->lid : "?");
			if (n < REPORT_COUNTED_NAMES)
				fprintf(out, "%s %s (%" PRIu64 " calls)", n ? "," : "",
					p->name ? p->name : "?", p->count);
			n++;
		}
		if (n > REPORT_COUNTED_NAMES)
			fprintf(out, ", and %zu more", n - REPORT_COUNTED_NAMES);
		if (n)
			fputc('\n', out);
	}
}

int pvmmon_report_text(const pvmmon_log *log, FILE *out)
{
	int rc;

	if (!log || !out)
		return pvmmon_error_set(PVMMON_EINVAL, "report: no log or no output");
	report_run(log, out);
	/* Why tasks wait comes first: the question most reports are opened for. */
	rc = pvmmon_waits_report(log, out);
	if (rc < 0)
		return rc;
	report_hangs(log, out);
	report_findings(log, out);
	report_hosts(log, out);
	report_tasks(log, out);
	rc = report_statements(log, out);
	if (rc < 0)
		return rc;
	rc = report_procs_and_loops(log, out);
	if (rc < 0)
		return rc;
	rc = graphs__report_samples(log, out);
	if (rc < 0)
		return rc;
	rc = graphs__report_phases(log, out);
	if (rc < 0)
		return rc;
	rc = report_critical_path(log, out);
	if (rc < 0)
		return rc;
	report_throttled(log, out);
	report_counted(log, out);
	report_cost(log, out);
	report_structure(log, out);
	/* A full disk or closed pipe must not pass for a complete report. */
	if (fflush(out) != 0 || ferror(out))
		return pvmmon_error_set(PVMMON_EIO, "report: could not write the summary");
	return 0;
}
