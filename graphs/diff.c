/* `pvmmon diff`: what changed between two runs of a program, per task, statement, procedure and
 * loop. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figures.h"
#include "pvmmon/diff.h"
#include "pvmmon/errors.h"

/* One item (a task, a statement, a procedure or a loop) as each run has it. */
typedef struct diff_row {
	char *key;  /* what matches it across the runs: task, then name (and call) */
	char *task; /* the task's logical id */
	char *name;
	const char *call;  /* statements: the PVM call (belongs to a log) */
	int in[2];         /* present in run A, run B */
	int64_t time[2];   /* virtual time (procedures: exclusive) */
	int64_t incl[2];   /* procedures: inclusive time */
	uint64_t count[2]; /* executions, calls, entries, messages */
	uint64_t bytes[2];
} diff_row;

typedef struct diff_table {
	diff_row *rows;
	size_t n, cap;
} diff_table;

static void table_free(diff_table *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->rows[i].key);
		free(t->rows[i].task);
		free(t->rows[i].name);
	}
	free(t->rows);
	t->rows = NULL;
	t->n = t->cap = 0;
}

/* The row of key (made when missing) into *out. */
static int row_of(diff_table *t, const char *task, const char *name, const char *call,
                  diff_row **out)
{
	size_t len = strlen(task) + strlen(name) + strlen(call ? call : "") + 3;
	char *key = malloc(len);

	if (!key)
		return pvmmon_error_set(PVMMON_ENOMEM, "diff: out of memory");
	snprintf(key, len, "%s\x1f%s\x1f%s", task, name, call ? call : "");
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->rows[i].key, key)) {
			free(key);
			*out = &t->rows[i];
			return 0;
		}
	if (t->n == t->cap) {
		size_t cap = t->cap * 2 + 16;
		diff_row *grown = realloc(t->rows, cap * sizeof(*grown));

		if (!grown) {
			free(key);
			return pvmmon_error_set(PVMMON_ENOMEM, "diff: out of memory");
		}
		t->rows = grown;
		t->cap = cap;
	}
	*out = &t->rows[t->n];
	memset(*out, 0, sizeof(**out));
	(*out)->key = key;
	(*out)->task = strdup(task);
	(*out)->name = strdup(name);
	(*out)->call = call;
	t->n++;
	if (!(*out)->task || !(*out)->name)
		return pvmmon_error_set(PVMMON_ENOMEM, "diff: out of memory");
	return 0;
}

static const char *lid_of(char *buf, size_t len, const pvmmon_log_task *t)
{
	if (t->lid)
		return t->lid;
	snprintf(buf, len, "t%x", (unsigned)t->tid);
	return buf;
}

/* Adds run side's tasks, statements, procedures and loops of log to the four tables. */
static int collect(const pvmmon_log *log, int side, diff_table tables[4])
{
	diff_row *r;
	int rc = 0;

	for (size_t i = 0; rc == 0 && i < log->ntasks; i++) {
		const pvmmon_log_task *t = &log->tasks[i];
		char id[16], name[512];
		const char *lid = lid_of(id, sizeof(id), t);

		rc = row_of(&tables[0], lid, t->program ? graphs__base_name(t->program) : "?", NULL,
		            &r);
		if (rc < 0)
			break;
		r->in[side] = 1;
		r->time[side] += t->virtual_ns;
		r->count[side] += t->msgs_sent + t->msgs_recv;
		r->bytes[side] += t->bytes_sent + t->bytes_recv;
		for (size_t j = 0; rc == 0 && j < t->nstmts; j++) {
			const pvmmon_log_stmt *s = &t->stmts[j];

			rc = row_of(&tables[1], lid, graphs__stmt_name(name, sizeof(name), t, s),
			            s->op, &r);
			if (rc < 0)
				break;
			r->in[side] = 1;
			r->time[side] += s->time_ns;
			r->count[side] += s->count;
			r->bytes[side] += s->bytes;
		}
		/* A procedure's records are per call site: summed, they give its calls and
		 * its exclusive time, and its inclusive time (a record made while it is
		 * already active adds none). */
		for (size_t j = 0; rc == 0 && j < t->nprocs; j++) {
			const pvmmon_log_proc *p = &t->procs[j];

			rc = row_of(&tables[2], lid, p->name ? p->name : "?", NULL, &r);
			if (rc < 0)
				break;
			r->in[side] = 1;
			r->time[side] += p->excl_ns;
			r->incl[side] += p->incl_ns;
			r->count[side] += p->count;
		}
		for (size_t j = 0; rc == 0 && j < t->nloops; j++) {
			const pvmmon_log_loop *l = &t->loops[j];

			snprintf(name, sizeof(name), "%s in %s", l->name ? l->name : "?",
			         l->proc ? l->proc : "-");
			rc = row_of(&tables[3], lid, name, NULL, &r);
			if (rc < 0)
				break;
			r->in[side] = 1;
			r->time[side] += l->time_ns;
			r->count[side] += l->count;
		}
	}
	return rc;
}

static int64_t magnitude(const diff_row *r)
{
	int64_t d = r->time[1] - r->time[0];

	return d < 0 ? -d : d;
}

/* Largest change in time first; then larger count change; then key order. */
static int by_change(const void *pa, const void *pb)
{
	const diff_row *a = pa, *b = pb;
	int64_t x = magnitude(a), y = magnitude(b);
	uint64_t cx =
	    a->count[1] > a->count[0] ? a->count[1] - a->count[0] : a->count[0] - a->count[1];
	uint64_t cy =
	    b->count[1] > b->count[0] ? b->count[1] - b->count[0] : b->count[0] - b->count[1];

	if (x != y)
		return x > y ? -1 : 1;
	if (cx != cy)
		return cx > cy ? -1 : 1;
	return strcmp(a->key, b->key);
}

/* "+1.20 ms (+103.4%)" for the change from a to b, into buf; "new"/"gone" when an item is
 * in one run only. */
static const char *change(char *buf, size_t len, const diff_row *r, int64_t a, int64_t b)
{
	char t[32];
	int64_t d = b - a;

	if (!r->in[0])
		snprintf(buf, len, "new");
	else if (!r->in[1])
		snprintf(buf, len, "gone");
	else if (a > 0)
		snprintf(buf, len, "%s%s (%+.1f%%)", d < 0 ? "-" : "+",
		         graphs__fmt_time(t, sizeof(t), d < 0 ? -d : d),
		         100.0 * (double)d / (double)a);
	else
		snprintf(buf, len, "%s%s", d < 0 ? "-" : "+",
		         graphs__fmt_time(t, sizeof(t), d < 0 ? -d : d));
	return buf;
}

static const char *side_time(char *buf, size_t len, const diff_row *r, int side, int64_t v)
{
	if (!r->in[side])
		return "-";
	return graphs__fmt_time(buf, len, v);
}

/* One section: its rows by change, at most top (0: all). */
static void print_table(FILE *out, const char *title, diff_table *t, int kind, size_t top)
{
	size_t n = t->n, shown;

	qsort(t->rows, n, sizeof(*t->rows), by_change);
	shown = top && top < n ? top : n;
	fprintf(out, "\n%s", title);
	if (shown < n)
		fprintf(out, " (the %zu largest of %zu; --top 0 for all)", shown, n);
	fputc('\n', out);
	if (!n) {
		fprintf(out, "  (none in either run)\n");
		return;
	}
	if (kind == 0)
		fprintf(out, "  %-6s %-24s %12s %12s %-24s %10s %10s %12s %12s\n", "task",
		        "program", "A virtual", "B virtual", "change", "A msgs", "B msgs",
		        "A bytes", "B bytes");
	else if (kind == 1)
		fprintf(out, "  %-6s %-36s %-10s %12s %12s %-24s %10s %10s %12s %12s\n", "task",
		        "statement", "call", "A time", "B time", "change", "A count", "B count",
		        "A bytes", "B bytes");
	else if (kind == 2)
		fprintf(out, "  %-6s %-28s %12s %12s %-24s %12s %12s %10s %10s\n", "task",
		        "procedure", "A exclusive", "B exclusive", "change", "A inclusive",
		        "B inclusive", "A calls", "B calls");
	else
		fprintf(out, "  %-6s %-36s %12s %12s %-24s %10s %10s\n", "task", "loop", "A time",
		        "B time", "change", "A entries", "B entries");
	for (size_t i = 0; i < shown; i++) {
		const diff_row *r = &t->rows[i];
		char a[32], b[32], c[64], ia[32], ib[32], ba[32], bb[32];

		side_time(a, sizeof(a), r, 0, r->time[0]);
		side_time(b, sizeof(b), r, 1, r->time[1]);
		change(c, sizeof(c), r, r->time[0], r->time[1]);
		graphs__fmt_bytes(ba, sizeof(ba), r->bytes[0]);
		graphs__fmt_bytes(bb, sizeof(bb), r->bytes[1]);
		if (kind == 0)
			fprintf(out,
			        "  %-6s %-24.24s %12s %12s %-24s %10" PRIu64 " %10" PRIu64
			        " %12s %12s\n",
			        r->task, r->name, r->in[0] ? a : "-", r->in[1] ? b : "-", c,
			        r->count[0], r->count[1], ba, bb);
		else if (kind == 1)
			fprintf(out,
			        "  %-6s %-36.36s %-10s %12s %12s %-24s %10" PRIu64 " %10" PRIu64
			        " %12s %12s\n",
			        r->task, r->name, r->call ? r->call : "?", r->in[0] ? a : "-",
			        r->in[1] ? b : "-", c, r->count[0], r->count[1], ba, bb);
		else if (kind == 2)
			fprintf(out,
			        "  %-6s %-28.28s %12s %12s %-24s %12s %12s %10" PRIu64 " %10" PRIu64
			        "\n",
			        r->task, r->name, r->in[0] ? a : "-", r->in[1] ? b : "-", c,
			        r->in[0] ? graphs__fmt_time(ia, sizeof(ia), r->incl[0]) : "-",
			        r->in[1] ? graphs__fmt_time(ib, sizeof(ib), r->incl[1]) : "-",
			        r->count[0], r->count[1]);
		else
			fprintf(out,
			        "  %-6s %-36.36s %12s %12s %-24s %10" PRIu64 " %10" PRIu64 "\n",
			        r->task, r->name, r->in[0] ? a : "-", r->in[1] ? b : "-", c,
			        r->count[0], r->count[1]);
	}
}

static void print_run(FILE *out, const char *which, const pvmmon_log *log)
{
	fprintf(out, "%s: %s", which, log->program ? log->program : "(unknown program)");
	for (size_t i = 0; i < log->nargs; i++)
		fprintf(out, " %s", log->args[i]);
	fprintf(out, " (%s, %zu task%s)\n", log->started ? log->started : "?", log->ntasks,
	        log->ntasks == 1 ? "" : "s");
}

/* Both runs' critical paths side by side: length, then each procedure's share. */
static int print_cp(FILE *out, const pvmmon_log *a, const pvmmon_log *b)
{
	graphs_cp_row *rows[2] = {NULL, NULL};
	size_t n[2] = {0, 0};
	int64_t total;
	char t1[32], t2[32];
	int rc = 0;

	if (!a->cp.enabled && !b->cp.enabled)
		return 0;
	fprintf(out, "\nCritical path (A | B)\n");
	fprintf(out, "  %-28s %14s %14s\n", "length",
	        a->cp.enabled ? graphs__fmt_time(t1, sizeof(t1), a->cp.length_ns) : "-",
	        b->cp.enabled ? graphs__fmt_time(t2, sizeof(t2), b->cp.length_ns) : "-");
	if (a->cp.enabled)
		rc = graphs__cp_rows(a, &rows[0], &n[0], &total);
	if (rc == 0 && b->cp.enabled)
		rc = graphs__cp_rows(b, &rows[1], &n[1], &total);
	/* A's procedures in A's order, then B's that A did not select. */
	for (int s = 0; rc == 0 && s < 2; s++)
		for (size_t i = 0; i < n[s]; i++) {
			const graphs_cp_row *other = NULL;
			int seen = 0;

			for (size_t j = 0; j < n[!s]; j++)
				if (!strcmp(rows[!s][j].name, rows[s][i].name))
					other = &rows[!s][j];
			seen = s == 1 && other;
			if (seen)
				continue;
			fprintf(out, "  %-28.28s %14s %14s\n", rows[s][i].name,
			        graphs__fmt_time(t1, sizeof(t1),
			                         s == 0  ? rows[s][i].share_ns
			                         : other ? other->share_ns
			                                 : 0),
			        s == 1  ? graphs__fmt_time(t2, sizeof(t2), rows[s][i].share_ns)
			        : other ? graphs__fmt_time(t2, sizeof(t2), other->share_ns)
			                : "-");
		}
	free(rows[0]);
	free(rows[1]);
	return rc;
}

int pvmmon_diff_text(const pvmmon_log *a, const pvmmon_log *b, size_t top, FILE *out)
{
	diff_table tables[4] = {{NULL, 0, 0}, {NULL, 0, 0}, {NULL, 0, 0}, {NULL, 0, 0}};
	int64_t va = 0, vb = 0;
	char t1[32], t2[32], c[64];
	diff_row whole = {NULL, NULL, NULL, NULL, {1, 1}, {0, 0}, {0, 0}, {0, 0}, {0, 0}};
	int rc;

	if (!a || !b || !out)
		return pvmmon_error_set(PVMMON_EINVAL, "diff: two logs and an output are needed");
	rc = collect(a, 0, tables);
	if (rc == 0)
		rc = collect(b, 1, tables);
	if (rc < 0)
		goto out;
	print_run(out, "A", a);
	print_run(out, "B", b);
	if (a->program && b->program &&
	    strcmp(graphs__base_name(a->program), graphs__base_name(b->program)))
		fprintf(out, "  (the runs are of different programs: only items with the same "
		             "task, name and call are compared)\n");
	for (size_t i = 0; i < a->ntasks; i++)
		va += a->tasks[i].virtual_ns;
	for (size_t i = 0; i < b->ntasks; i++)
		vb += b->tasks[i].virtual_ns;
	fprintf(out, "  wall time %s -> %s %s\n", graphs__fmt_time(t1, sizeof(t1), a->wall_ns),
	        graphs__fmt_time(t2, sizeof(t2), b->wall_ns),
	        change(c, sizeof(c), &whole, a->wall_ns, b->wall_ns));
	fprintf(out, "  virtual time summed over tasks %s -> %s %s\n",
	        graphs__fmt_time(t1, sizeof(t1), va), graphs__fmt_time(t2, sizeof(t2), vb),
	        change(c, sizeof(c), &whole, va, vb));
	print_table(out, "Tasks by change in virtual time", &tables[0], 0, top);
	print_table(out, "Communication statements by change in virtual time", &tables[1], 1, top);
	print_table(out, "Procedures by change in exclusive virtual time", &tables[2], 2, top);
	print_table(out, "Loops by change in virtual time", &tables[3], 3, top);
	rc = print_cp(out, a, b);
	if (rc == 0 && (fflush(out) != 0 || ferror(out)))
		rc = pvmmon_error_set(PVMMON_EIO, "diff: could not write the comparison");
out:
	for (int i = 0; i < 4; i++)
		table_free(&tables[i]);
	return rc;
}
