/* Graphviz sources of the report's graphs: the program graph and the call graph. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "figures.h"
#include "pvmmon/callgraph.h"
#include "pvmmon/errors.h"
#include "pvmmon/report.h"

/* A fill colour from white (no time) to red (all the time), as HSV. */
static void put_fill(FILE *out, double share)
{
	if (share < 0)
		share = 0;
	if (share > 1)
		share = 1;
	fprintf(out, "fillcolor=\"0.000 %.3f 1.000\"", 0.05 + 0.85 * share);
}

int pvmmon_report_programs(const pvmmon_log_task ***out, size_t *n, const pvmmon_log *log)
{
	const pvmmon_log_task **firsts;
	size_t k = 0;

	*out = NULL;
	*n = 0;
	firsts = calloc(log->ntasks ? log->ntasks : 1, sizeof(*firsts));
	if (!firsts)
		return pvmmon_error_set(PVMMON_ENOMEM, "report: out of memory");
	for (size_t i = 0; i < log->ntasks; i++) {
		const pvmmon_log_task *t = &log->tasks[i];
		size_t j;

		for (j = 0; j < k; j++)
			if (!strcmp(firsts[j]->program ? firsts[j]->program : "",
			            t->program ? t->program : ""))
				break;
		if (j == k)
			firsts[k++] = t;
	}
	*out = firsts;
	*n = k;
	return 0;
}

/* The sum of the virtual time of every task running t's program. */
static int64_t program_time(const pvmmon_log *log, const pvmmon_log_task *t)
{
	int64_t sum = 0;

	for (size_t i = 0; i < log->ntasks; i++)
		if (graphs__same_program(&log->tasks[i], t))
			sum += log->tasks[i].virtual_ns;
	return sum;
}

/* The task of t's program that holds its static tables, or NULL. */
static const pvmmon_log_task *with_statics(const pvmmon_log *log, const pvmmon_log_task *t)
{
	for (size_t i = 0; i < log->ntasks; i++)
		if (graphs__same_program(&log->tasks[i], t) && log->tasks[i].nstatics)
			return &log->tasks[i];
	return NULL;
}

/* Figures of one communication statement summed over the program's tasks. */
typedef struct com_figures {
	int64_t sync, trans;
} com_figures;

static void com_sums(const pvmmon_log *log, const pvmmon_log_task *t, const pvmmon_log_static *e,
                     com_figures *f)
{
	memset(f, 0, sizeof(*f));
	for (size_t i = 0; i < log->ntasks; i++) {
		const pvmmon_log_task *u = &log->tasks[i];

		if (!graphs__same_program(u, t))
			continue;
		for (size_t j = 0; j < u->nstmts; j++) {
			const pvmmon_log_stmt *s = &u->stmts[j];

			if (graphs__stmt_is(u, s, e)) {
				f->sync += s->sync_ns;
				f->trans += s->trans_ns;
			}
		}
	}
}

/* The node of static entry k of st's program: what it is, where, how often it ran and
 * for how long (share of the program's time), in a colour by that share. */
static void put_static_node(FILE *out, const pvmmon_log *log, const pvmmon_log_task *st, size_t k,
                            int ran, int64_t time, uint64_t count, double share)
{
	const pvmmon_log_static *e = &st->statics[k];
	char t1[32], t2[32], t3[32];

	fprintf(out, "  s%zu [label=\"", k);
	if (e->kind == PVMMON_STATIC_LOOP)
		fputs("loop", out);
	else
		graphs__put_escaped(out, e->name);
	fprintf(out, "\\n");
	graphs__put_escaped(out, graphs__base_name(e->file));
	fprintf(out, ":%d\\n", (int)e->line);
	if (ran)
		fprintf(out, "%" PRIu64 "x  %s (%.1f%%)", count,
		        graphs__fmt_time(t1, sizeof(t1), time), 100.0 * share);
	else
		fputs("not run", out);
	if (e->kind == PVMMON_STATIC_COM && ran) {
		com_figures f;

		com_sums(log, st, e, &f);
		fprintf(out, "\\nsync %s  trans %s", graphs__fmt_time(t2, sizeof(t2), f.sync),
		        graphs__fmt_time(t3, sizeof(t3), f.trans));
	}
	fputs("\", ", out);
	switch (e->kind) {
	case PVMMON_STATIC_PROC:
		fputs("shape=box, style=\"filled,bold\", ", out);
		break;
	case PVMMON_STATIC_LOOP:
		fputs("shape=ellipse, style=filled, ", out);
		break;
	case PVMMON_STATIC_COM:
		fputs("shape=note, style=filled, ", out);
		break;
	default:
		fputs("shape=box, style=\"filled,rounded\", ", out);
		break;
	}
	put_fill(out, share);
	fputs("];\n", out);
}

/*
 * The program graph from the static tables (seed 000 Figure 7): every procedure, loop,
 * communication and call statement as a node under its enclosing entry, call
 * statements linked to the procedures they call, times summed over the program's
 * tasks. Statements below prune (a share of the program's time) that are not
 * procedures are folded into one "N more" node per parent.
 */
static void program_from_statics(const pvmmon_log *log, const pvmmon_log_task *st, FILE *out,
                                 double prune)
{
	int64_t whole = program_time(log, st);
	size_t n = st->nstatics;
	int64_t *time = calloc(n ? n : 1, sizeof(*time));
	uint64_t *count = calloc(n ? n : 1, sizeof(*count));
	int *found = calloc(n ? n : 1, sizeof(*found));  /* 1: ran; 2: drawn */
	size_t *folded = calloc(n + 1, sizeof(*folded)); /* per parent (+1: file level) */
	int64_t *folded_ns = calloc(n + 1, sizeof(*folded_ns));

	if (!time || !count || !found || !folded || !folded_ns)
		goto out;
	for (size_t i = 0; i < log->ntasks; i++) {
		const pvmmon_log_task *u = &log->tasks[i];

		if (!graphs__same_program(u, st))
			continue;
		for (size_t k = 0; k < n; k++) {
			int64_t tm;
			uint64_t c;

			/* Every task of the program runs the same tables: st's entries apply. */
			if (graphs__static_figures(u, &st->statics[k],
			                           graphs__enclosing_proc(st, k), &tm, &c)) {
				time[k] += tm;
				count[k] += c;
				found[k] = 1;
			}
		}
	}
	/* main starts before its task registers, so it may outlast the task's clock. */
	for (size_t k = 0; k < n; k++)
		if (st->statics[k].kind == PVMMON_STATIC_PROC && time[k] > whole)
			whole = time[k];
	/* Procedures are always drawn; other entries when they hold at least prune. */
	for (size_t k = 0; k < n; k++)
		found[k] |= (st->statics[k].kind == PVMMON_STATIC_PROC ||
		             (whole > 0 && (double)time[k] / (double)whole >= prune))
		                ? 2
		                : 0;
	for (size_t k = 0; k < n; k++) {
		const pvmmon_log_static *e = &st->statics[k];
		double share = whole > 0 ? (double)time[k] / (double)whole : 0;

		if (!(found[k] & 2)) {
			/* Folded into the nearest drawn ancestor's "N more" node. */
			int a = e->parent;

			while (a >= 0 && !(found[a] & 2))
				a = st->statics[a].parent;
			folded[a >= 0 ? (size_t)a : n]++;
			folded_ns[a >= 0 ? (size_t)a : n] += time[k];
			continue;
		}
		put_static_node(out, log, st, k, found[k] & 1, time[k], count[k], share);
	}
	for (size_t k = 0; k <= n; k++)
		if (folded[k]) {
			char t1[32];

			fprintf(out, "  more%zu [label=\"%zu more\\n%s\", shape=plaintext];\n", k,
			        folded[k], graphs__fmt_time(t1, sizeof(t1), folded_ns[k]));
			if (k < n)
				fprintf(out, "  s%zu -> more%zu [style=dotted];\n", k, k);
		}
	for (size_t k = 0; k < n; k++) {
		const pvmmon_log_static *e = &st->statics[k];

		if (!(found[k] & 2))
			continue;
		if (e->parent >= 0) {
			/* An entry under a folded one hangs from the nearest drawn ancestor. */
			int a = e->parent;

			while (a >= 0 && !(found[a] & 2))
				a = st->statics[a].parent;
			if (a >= 0)
				fprintf(out, "  s%d -> s%zu;\n", a, k);
		}
		/* A call statement points at the procedure it calls (first definition). */
		if (e->kind == PVMMON_STATIC_CALL)
			for (size_t j = 0; j < n; j++)
				if (st->statics[j].kind == PVMMON_STATIC_PROC &&
				    !strcmp(st->statics[j].name, e->name)) {
					fprintf(out,
					        "  s%zu -> s%zu [style=dashed, color=gray40];\n", k,
					        j);
					break;
				}
	}
out:
	free(time);
	free(count);
	free(found);
	free(folded);
	free(folded_ns);
}

/* One communication statement of a program, summed over the tasks that ran it. */
typedef struct site_sum {
	const char *function; /* borrowed from the log; "?" when unknown */
	const char *op;
	char *name;        /* file:line (or module+offset) and function */
	size_t task, stmt; /* where it was first seen: the node's id */
	int64_t time, sync, trans;
	uint64_t count;
} site_sum;

/* The statements of t's program in first-seen order, one per name and call; *n set. */
static site_sum *sum_sites(const pvmmon_log *log, const pvmmon_log_task *t, size_t *n)
{
	size_t cap = 1;
	site_sum *sums;

	*n = 0;
	for (size_t i = 0; i < log->ntasks; i++)
		cap += log->tasks[i].nstmts;
	sums = calloc(cap, sizeof(*sums));
	if (!sums)
		return NULL;
	for (size_t i = 0; i < log->ntasks; i++) {
		const pvmmon_log_task *u = &log->tasks[i];

		if (!graphs__same_program(u, t))
			continue;
		for (size_t j = 0; j < u->nstmts; j++) {
			const pvmmon_log_stmt *st = &u->stmts[j];
			const char *op = st->op ? st->op : "?";
			char name[512];
			size_t k;

			graphs__stmt_name(name, sizeof(name), u, st);
			for (k = 0;
			     k < *n && (strcmp(sums[k].name, name) || strcmp(sums[k].op, op)); k++)
				;
			if (k == *n) {
				if (!(sums[k].name = strdup(name)))
					break;
				sums[k].function = st->function ? st->function : "?";
				sums[k].op = op;
				sums[k].task = i;
				sums[k].stmt = j;
				(*n)++;
			}
			sums[k].time += st->time_ns;
			sums[k].sync += st->sync_ns;
			sums[k].trans += st->trans_ns;
			sums[k].count += st->count;
		}
	}
	return sums;
}

/*
 * Without static tables (an unmodified binary run with the preload): the call-site
 * based graph, one cluster per function holding its communication statements, summed
 * over the program's tasks by statement name.
 */
static void program_from_sites(const pvmmon_log *log, const pvmmon_log_task *t, FILE *out,
                               double prune)
{
	int64_t whole = program_time(log, t);
	size_t n = 0, nclusters = 0;
	site_sum *sums = sum_sites(log, t, &n);

	if (!sums)
		return;
	for (size_t f = 0; f < n; f++) {
		const site_sum *prev = NULL;
		size_t folded = 0, shown = 0;
		int64_t folded_ns = 0;
		int first = 1;

		/* A cluster per function, at its first statement. */
		for (size_t k = 0; k < f && first; k++)
			first = strcmp(sums[k].function, sums[f].function) != 0;
		if (!first)
			continue;
		fprintf(out, "  subgraph cluster_f%zu {\n    label=\"", nclusters);
		graphs__put_escaped(out, sums[f].function);
		fputs("\";\n    style=rounded;\n", out);
		for (size_t k = f; k < n; k++) {
			const site_sum *x = &sums[k];
			double share = whole > 0 ? (double)x->time / (double)whole : 0;
			char t1[32], t2[32], t3[32];

			if (strcmp(x->function, sums[f].function))
				continue;
			if (share < prune) {
				folded++;
				folded_ns += x->time;
				continue;
			}
			/* Statements of one function stack up in a column (an invisible chain),
			 * so that many statements make a tall picture, not an unreadably wide
			 * one; a new column every 12. */
			if (prev && shown % 12 != 0)
				fprintf(out, "    c%zu_%zu -> c%zu_%zu [style=invis];\n",
				        prev->task, prev->stmt, x->task, x->stmt);
			prev = x;
			shown++;
			fprintf(out, "    c%zu_%zu [label=\"", x->task, x->stmt);
			graphs__put_escaped(out, x->op);
			fputs("\\n", out);
			graphs__put_escaped(out, x->name);
			fprintf(out,
			        "\\n%" PRIu64 "x  %s (%.1f%%)\\nsync %s  trans %s\", shape=note, "
			        "style=filled, ",
			        x->count, graphs__fmt_time(t1, sizeof(t1), x->time), 100.0 * share,
			        graphs__fmt_time(t2, sizeof(t2), x->sync),
			        graphs__fmt_time(t3, sizeof(t3), x->trans));
			put_fill(out, share);
			fputs("];\n", out);
		}
		if (folded) {
			char t1[32];

			fprintf(out, "    more%zu [label=\"%zu more\\n%s\", shape=plaintext];\n",
			        nclusters, folded, graphs__fmt_time(t1, sizeof(t1), folded_ns));
		}
		fputs("  }\n", out);
		nclusters++;
	}
	for (size_t k = 0; k < n; k++)
		free(sums[k].name);
	free(sums);
}

int pvmmon_report_dot_program(const pvmmon_log *log, const pvmmon_log_task *t, double prune,
                              FILE *out)
{
	const pvmmon_log_task *st;

	if (!log || !t || !out)
		return pvmmon_error_set(PVMMON_EINVAL, "report: no log, task or output");
	st = with_statics(log, t);
	fputs("digraph program {\n  graph [rankdir=TB, fontname=\"Helvetica\", nodesep=0.25, "
	      "ranksep=0.45, label=\"",
	      out);
	graphs__put_escaped(out, graphs__base_name(t->program ? t->program : "?"));
	fputs(st ? ": program graph (static tables)" : ": communication statements by function",
	      out);
	fputs("\", labelloc=t];\n  node [fontname=\"Helvetica\", fontsize=10];\n"
	      "  edge [arrowsize=0.6];\n",
	      out);
	if (st)
		program_from_statics(log, st, out, prune);
	else
		program_from_sites(log, t, out, prune);
	fputs("}\n", out);
	return ferror(out) ? pvmmon_error_set(PVMMON_EIO, "report: cannot write a graph") : 0;
}

int pvmmon_report_dot_calls(const pvmmon_log *log, const pvmmon_log_task *t, FILE *out)
{
	pvmmon_callgraph *cg = NULL;
	int64_t whole;
	char *hot = NULL;
	int rc;

	if (!log || !t || !out)
		return pvmmon_error_set(PVMMON_EINVAL, "report: no log, task or output");
	rc = graphs__program_callgraph(log, t, &cg);
	if (rc < 0)
		goto out;
	whole = program_time(log, t);
	for (size_t e = 0; e < cg->nedges; e++)
		if (cg->edges[e].from == PVMMON_CG_ROOT && cg->edges[e].incl_ns > whole)
			whole = cg->edges[e].incl_ns;
	/*
	 * The hot path: from the costliest root, follow the call site with the most
	 * inclusive time until a node calls nothing (each node once, so it ends).
	 */
	hot = calloc(cg->nedges + cg->nnodes + 1, 1);
	if (!hot) {
		rc = pvmmon_error_set(PVMMON_ENOMEM, "report: out of memory");
		goto out;
	}
	{
		size_t at = PVMMON_CG_ROOT;
		char *visited = hot + cg->nedges;

		for (;;) {
			size_t best = (size_t)-1;

			for (size_t e = 0; e < cg->nedges; e++)
				if (cg->edges[e].from == at && !visited[cg->edges[e].to] &&
				    (best == (size_t)-1 ||
				     cg->edges[e].incl_ns > cg->edges[best].incl_ns))
					best = e;
			if (best == (size_t)-1)
				break;
			hot[best] = 1;
			at = cg->edges[best].to;
			visited[at] = 1;
		}
	}
	fputs("digraph calls {\n  graph [rankdir=TB, fontname=\"Helvetica\", label=\"", out);
	graphs__put_escaped(out, graphs__base_name(t->program ? t->program : "?"));
	fputs(": call graph (one edge per call site; hot path in red)\", labelloc=t];\n"
	      "  node [fontname=\"Helvetica\", fontsize=10, shape=box, style=filled];\n"
	      "  edge [fontname=\"Helvetica\", fontsize=9, arrowsize=0.6];\n",
	      out);
	for (size_t i = 0; i < cg->nnodes; i++) {
		const pvmmon_cg_node *nd = &cg->nodes[i];
		char t1[32], t2[32];

		fprintf(out, "  n%zu [label=\"", i);
		graphs__put_escaped(out, nd->name);
		fprintf(out, "\\n%s:%d\\n", graphs__base_name(nd->file ? nd->file : "?"),
		        (int)nd->line);
		if (nd->counted)
			fprintf(out,
			        "%" PRIu64 " calls (counted)\", style=\"filled,dashed\", "
			        "fillcolor=gray95",
			        nd->calls);
		else {
			fprintf(out, "%" PRIu64 " calls", nd->calls);
			if (nd->recursive)
				fprintf(out, " +%" PRIu64 " recursive", nd->inner_calls);
			fprintf(out, "\\nincl %s (%.1f%%)  excl %s\", ",
			        graphs__fmt_time(t1, sizeof(t1), nd->incl_ns),
			        graphs__percent(nd->incl_ns, whole),
			        graphs__fmt_time(t2, sizeof(t2), nd->excl_ns));
			put_fill(out, whole > 0 ? (double)nd->incl_ns / (double)whole : 0);
			if (hot[cg->nedges + i])
				fputs(", color=red, penwidth=2", out);
			if (nd->nmembers > 1)
				fputs(", peripheries=2", out);
		}
		/* A group named by its entry lists its members where the picture can (an SVG
		 * tooltip); the HTML report lists them in its procedures table. */
		if (nd->nmembers >= 3) {
			fputs(", tooltip=\"", out);
			for (size_t j = 0; j < nd->nmembers; j++) {
				if (j)
					fputc(' ', out);
				graphs__put_escaped(out, nd->members[j]);
			}
			fputc('"', out);
		}
		fputs("];\n", out);
	}
	for (size_t e = 0; e < cg->nedges; e++) {
		const pvmmon_cg_edge *ed = &cg->edges[e];
		char t1[32];

		if (ed->from == PVMMON_CG_ROOT)
			continue;
		fprintf(out, "  n%zu -> n%zu [label=\"", ed->from, ed->to);
		/* From a group of procedures, say which member calls. */
		if (cg->nodes[ed->from].nmembers > 1 && ed->caller) {
			graphs__put_escaped(out, ed->caller);
			fputc(' ', out);
		}
		if (ed->call_line > 0)
			fprintf(out, "line %d\\n", (int)ed->call_line);
		else if (cg->nodes[ed->from].nmembers > 1)
			fputs("\\n", out);
		fprintf(out, "%" PRIu64 "x %s\"", ed->calls,
		        graphs__fmt_time(t1, sizeof(t1), ed->incl_ns));
		if (hot[e])
			fputs(", color=red, penwidth=2", out);
		fputs("];\n", out);
	}
	fputs("}\n", out);
	if (ferror(out))
		rc = pvmmon_error_set(PVMMON_EIO, "report: cannot write a graph");
out:
	free(hot);
	pvmmon_callgraph_free(cg);
	return rc;
}
