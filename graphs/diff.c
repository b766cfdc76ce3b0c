/* `pvmmon diff`: what changed between two runs of a program, per task, statement, procedure and
 * loop. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* A section's rows, with a hash index by key (slots hold a row's index plus one; 0 is
 * free) so that matching stays linear in the number of items. */
typedef struct diff_table {
	diff_row *rows;
	size_t n, cap;
	size_t *slots;
	size_t nslots; /* a power of two, at least twice cap */
} diff_table;

static size_t hash(const char *s)
{
	size_t h = 14695981039346656037u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211u;
	return h;
}

/* The slot of key: the one holding its row, or the free one where it goes. */
static size_t slot_of(const diff_table *t, const char *key)
{
	size_t i = hash(key) & (t->nslots - 1);

	while (t->slots[i] && strcmp(t->rows[t->slots[i] - 1].key, key))
		i = (i + 1) & (t->nslots - 1);
	return i;
}

/* Room for one more row: the rows and the index grown together. */
static int grow(diff_table *t)
{
	size_t cap = t->cap * 2 + 16, nslots = 64;
	diff_row *rows;
	size_t *slots;

	while (nslots < 2 * cap)
		nslots *= 2;
	rows = realloc(t->rows, cap * sizeof(*rows));
	if (!rows)
		return pvmmon_error_set(PVMMON_ENOMEM, "diff: out of memory");
	t->rows = rows;
	slots = calloc(nslots, sizeof(*slots));
	if (!slots)
		return pvmmon_error_set(PVMMON_ENOMEM, "diff: out of memory");
	free(t->slots);
	t->slots = slots;
	t->nslots = nslots;
	t->cap = cap;
	for (size_t i = 0; i < t->n; i++)
		t->slots[slot_of(t, t->rows[i].key)] = i + 1;
	return 0;
}

static void table_free(diff_table *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->rows[i].key);
		free(t->rows[i].task);
		free(t->rows[i].name);
	}
	free(t->rows);
	free(t->slots);
	t->rows = NULL;
	t->slots = NULL;
	t->n = t->cap = t->nslots = 0;
}

/* The row of key (made when missing) into *out. */
static int row_of(diff_table *t, const char *task, const char *name, const char *call,
                  diff_row **out)
{
	size_t len = strlen(task) + strlen(name) + strlen(call ? call : "") + 3, slot;
	char *key = malloc(len);

	if (!key)
		return pvmmon_error_set(PVMMON_ENOMEM, "diff: out of memory");
	snprintf(key, len, "%s\x1f%s\x1f%s", task, name, call ? call : "");
	if (t->n == t->cap && grow(t) < 0) {
		free(key);
		return PVMMON_ENOMEM;
	}
	slot = slot_of(t, key);
	if (t->slots[slot]) {
		free(key);
		*out = &t->rows[t->slots[slot] - 1];
		return 0;
	}
	t->slots[slot] = t->n + 1;
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

/* The columns of each section (kind 0 tasks, 1 statements, 2 procedures, 3 loops): their
 * headings and, for text, their widths (negative: left-aligned). */
#define NCOLS_MAX 10
static const char *const headings[4][NCOLS_MAX] = {
    {"task", "program", "A virtual", "B virtual", "change", "A msgs", "B msgs", "A bytes",
     "B bytes"},
    {"task", "statement", "call", "A time", "B time", "change", "A count", "B count", "A bytes",
     "B bytes"},
    {"task", "procedure", "A exclusive", "B exclusive", "change", "A inclusive", "B inclusive",
     "A calls", "B calls"},
    {"task", "loop", "A time", "B time", "change", "A entries", "B entries"},
};
static const int widths[4][NCOLS_MAX] = {
    {-6, -24, 12, 12, -24, 10, 10, 12, 12},
    {-6, -36, -10, 12, 12, -24, 10, 10, 12, 12},
    {-6, -28, 12, 12, -24, 12, 12, 10, 10},
    {-6, -36, 12, 12, -24, 10, 10},
};

/* Row r of a section of kind as text cells, into cells (each 64 bytes); the number of
 * cells. */
static int row_cells(const diff_row *r, int kind, char cells[][64])
{
	int n = 0;

	snprintf(cells[n++], 64, "%s", r->task);
	snprintf(cells[n++], 64, "%s", r->name);
	if (kind == 1)
		snprintf(cells[n++], 64, "%s", r->call ? r->call : "?");
	snprintf(cells[n++], 64, "%s", "-");
	snprintf(cells[n++], 64, "%s", "-");
	side_time(cells[n - 2], 64, r, 0, r->time[0]);
	side_time(cells[n - 1], 64, r, 1, r->time[1]);
	change(cells[n++], 64, r, r->time[0], r->time[1]);
	if (kind == 2) {
		snprintf(cells[n++], 64, "%s", "-");
		snprintf(cells[n++], 64, "%s", "-");
		side_time(cells[n - 2], 64, r, 0, r->incl[0]);
		side_time(cells[n - 1], 64, r, 1, r->incl[1]);
	}
	snprintf(cells[n++], 64, "%" PRIu64, r->count[0]);
	snprintf(cells[n++], 64, "%" PRIu64, r->count[1]);
	if (kind < 2) {
		graphs__fmt_bytes(cells[n++], 64, r->bytes[0]);
		graphs__fmt_bytes(cells[n++], 64, r->bytes[1]);
	}
	return n;
}

static void put_html(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", out);
		else if (*s == '>')
			fputs("&gt;", out);
		else if (*s == '&')
			fputs("&amp;", out);
		else if (*s == '"')
			fputs("&quot;", out);
		else
			fputc(*s, out);
	}
}

/* One section: its rows by change, at most top (0: all), as text or as an HTML table. */
static void print_table(FILE *out, int html, const char *title, diff_table *t, int kind, size_t top)
{
	size_t n = t->n, shown;
	int ncols = 0;
	char cells[NCOLS_MAX][64];

	if (n > 1)
		qsort(t->rows, n, sizeof(*t->rows), by_change);
	shown = top && top < n ? top : n;
	while (ncols < NCOLS_MAX && headings[kind][ncols])
		ncols++;
	fprintf(out, html ? "<h2>%s</h2>\n" : "\n%s", title);
	if (shown < n)
		fprintf(out,
		        html ? "<p>The %zu largest of %zu (--top 0 for all).</p>\n"
		             : " (the %zu largest of %zu; --top 0 for all)",
		        shown, n);
	if (!html)
		fputc('\n', out);
	if (!n) {
		fputs(html ? "<p>None in either run.</p>\n" : "  (none in either run)\n", out);
		return;
	}
	fputs(html ? "<table><thead><tr>" : " ", out);
	for (int c = 0; c < ncols; c++)
		if (html)
			fprintf(out, "<th>%s</th>", headings[kind][c]);
		else
			fprintf(out, " %*s", widths[kind][c], headings[kind][c]);
	fputs(html ? "</tr></thead><tbody>\n" : "\n", out);
	for (size_t i = 0; i < shown; i++) {
		row_cells(&t->rows[i], kind, cells);
		fputs(html ? "<tr>" : " ", out);
		for (int c = 0; c < ncols; c++) {
			if (html) {
				fputs(widths[kind][c] < 0 ? "<td>" : "<td class=n>", out);
				put_html(out, cells[c]);
				fputs("</td>", out);
			} else {
				int w = widths[kind][c];

				/* Names are cut to their column; figures are never cut. */
				fprintf(out, " %*.*s", w, c == 1 ? -w : 63, cells[c]);
			}
		}
		fputs(html ? "</tr>\n" : "\n", out);
	}
	if (html)
		fputs("</tbody></table>\n", out);
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

/* The runs' summary: programs, wall and summed virtual time, as text. */
static void summary(FILE *out, const pvmmon_log *a, const pvmmon_log *b)
{
	int64_t va = 0, vb = 0;
	char t1[32], t2[32], c[64];
	diff_row whole = {NULL, NULL, NULL, NULL, {1, 1}, {0, 0}, {0, 0}, {0, 0}, {0, 0}};

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
}

/* What put_pre writes. */
enum { PRE_SUMMARY, PRE_CP, PRE_WAITS };

/* The summary, the critical paths or the waits as text inside a <pre> element. */
static int put_pre(FILE *out, const pvmmon_log *a, const pvmmon_log *b, int what)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	int rc = 0;

	if (!m)
		return pvmmon_error_set(PVMMON_ENOMEM, "diff: out of memory");
	if (what == PRE_CP)
		rc = print_cp(m, a, b);
	else if (what == PRE_WAITS)
		rc = graphs__diff_waits(m, a, b);
	else
		summary(m, a, b);
	fclose(m);
	if (rc == 0 && len) {
		fputs("<pre>", out);
		put_html(out, text);
		fputs("</pre>\n", out);
	}
	free(text);
	return rc;
}

static const char *const titles[4] = {
    "Tasks by change in virtual time",
    "Communication statements by change in virtual time",
    "Procedures by change in exclusive virtual time",
    "Loops by change in virtual time",
};

/* The comparison of a and b to out, as text or as an HTML page. */
static int write_diff(const pvmmon_log *a, const pvmmon_log *b, size_t top, FILE *out, int html)
{
	diff_table tables[4];
	int rc;

	memset(tables, 0, sizeof(tables));
	rc = collect(a, 0, tables);
	if (rc == 0)
		rc = collect(b, 1, tables);
	if (rc < 0)
		goto out;
	if (html) {
		fputs(
		    "<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8><title>pvmmon "
		    "diff</title><style>body{font-family:sans-serif;margin:1.5em}"
		    "table{border-collapse:collapse;margin-bottom:1em}td,th{border:1px solid #ccc;"
		    "padding:2px 6px;font-size:13px}td.n{text-align:right}th{background:#eee}"
		    "</style></head><body>\n<h1>pvmmon diff: A before, B after</h1>\n",
		    out);
		rc = put_pre(out, a, b, PRE_SUMMARY);
	} else {
		summary(out, a, b);
	}
	for (int k = 0; rc == 0 && k < 4; k++)
		print_table(out, html, titles[k], &tables[k], k, top);
	if (rc == 0 && html && (a->cp.enabled || b->cp.enabled)) {
		fputs("<h2>Critical path</h2>\n", out);
		rc = put_pre(out, a, b, PRE_CP);
	} else if (rc == 0 && !html) {
		rc = print_cp(out, a, b);
	}
	if (rc == 0 && html && (a->trace.enabled || b->trace.enabled)) {
		fputs("<h2>Why tasks wait</h2>\n", out);
		rc = put_pre(out, a, b, PRE_WAITS);
	} else if (rc == 0 && !html) {
		rc = graphs__diff_waits(out, a, b);
	}
	if (html)
		fputs("</body></html>\n", out);
	if (rc == 0 && (fflush(out) != 0 || ferror(out)))
		rc = pvmmon_error_set(PVMMON_EIO, "diff: could not write the comparison");
out:
	for (int i = 0; i < 4; i++)
		table_free(&tables[i]);
	return rc;
}

int pvmmon_diff_text(const pvmmon_log *a, const pvmmon_log *b, size_t top, FILE *out)
{
	if (!a || !b || !out)
		return pvmmon_error_set(PVMMON_EINVAL, "diff: two logs and an output are needed");
	return write_diff(a, b, top, out, 0);
}

int pvmmon_diff_html(const pvmmon_log *a, const pvmmon_log *b, size_t top, const char *dir)
{
	char path[4096], tmp[4160];
	FILE *f;
	int rc;

	if (!a || !b || !dir)
		return pvmmon_error_set(PVMMON_EINVAL, "diff: two logs and a folder are needed");
	if (mkdir(dir, 0777) != 0 && errno != EEXIST)
		return pvmmon_error_set(PVMMON_EIO, "diff: cannot create %s: %s", dir,
		                        strerror(errno));
	snprintf(path, sizeof(path), "%s/index.html", dir);
	snprintf(tmp, sizeof(tmp), "%s.tmp%ld", path, (long)getpid());
	f = fopen(tmp, "w");
	if (!f)
		return pvmmon_error_set(PVMMON_EIO, "diff: cannot write %s: %s", path,
		                        strerror(errno));
	rc = write_diff(a, b, top, f, 1);
	if (fclose(f) != 0 && rc == 0)
		rc = pvmmon_error_set(PVMMON_EIO, "diff: cannot write %s: %s", path,
		                      strerror(errno));
	if (rc == 0 && rename(tmp, path) != 0)
		rc = pvmmon_error_set(PVMMON_EIO, "diff: cannot write %s: %s", path,
		                      strerror(errno));
	if (rc < 0)
		unlink(tmp);
	return rc;
}
