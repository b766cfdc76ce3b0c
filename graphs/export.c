/* `pvmmon export`'s writers: the export tables as CSV files in a folder, or one JSON document. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "export_sink.h"
#include "pvmmon/errors.h"
#include "pvmmon/export.h"

/* ---- CSV: one file per table ---- */

typedef struct csv_state {
	const char *dir;
	char path[4096], tmp[4160];
	FILE *f;
	size_t ncols;
} csv_state;

/* A field quoted as RFC 4180 asks when it holds a comma, quote or line break. */
static void csv_string(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void csv_cell(FILE *f, const export_cell *c)
{
	switch (c->type) {
	case XC_NULL:
		break;
	case XC_STR:
		csv_string(f, c->s);
		break;
	case XC_INT:
		fprintf(f, "%" PRId64, c->i);
		break;
	case XC_UINT:
		fprintf(f, "%" PRIu64, c->u);
		break;
	case XC_REAL:
		fprintf(f, "%.17g", c->d);
		break;
	}
}

static int csv_begin(export_sink *k, const char *table, const export_col *cols, size_t ncols)
{
	csv_state *st = k->state;

	snprintf(st->path, sizeof(st->path), "%s/%s.csv", st->dir, table);
	snprintf(st->tmp, sizeof(st->tmp), "%s.tmp%ld", st->path, (long)getpid());
	st->f = fopen(st->tmp, "w");
	if (!st->f)
		return pvmmon_error_set(PVMMON_EIO, "export: cannot write %s: %s", st->path,
		                        strerror(errno));
	st->ncols = ncols;
	for (size_t i = 0; i < ncols; i++) {
		if (i)
			fputc(',', st->f);
		fputs(cols[i].name, st->f);
	}
	fputs("\r\n", st->f);
	return 0;
}

static int csv_row(export_sink *k, const export_cell *cells)
{
	csv_state *st = k->state;

	for (size_t i = 0; i < st->ncols; i++) {
		if (i)
			fputc(',', st->f);
		csv_cell(st->f, &cells[i]);
	}
	fputs("\r\n", st->f);
	return 0;
}

static int csv_end(export_sink *k)
{
	csv_state *st = k->state;
	int bad = ferror(st->f);

	if (fclose(st->f) != 0 || bad || rename(st->tmp, st->path) != 0) {
		int e = errno;

		st->f = NULL;
		unlink(st->tmp);
		return pvmmon_error_set(PVMMON_EIO, "export: cannot write %s: %s", st->path,
		                        strerror(e ? e : EIO));
	}
	st->f = NULL;
	return 0;
}

int pvmmon_export_csv(const pvmmon_log *log, const char *dir)
{
	csv_state st = {dir, "", "", NULL, 0};
	export_sink sink = {csv_begin, csv_row, csv_end, &st};
	struct stat sb;
	int rc;

	if (!log || !dir)
		return pvmmon_error_set(PVMMON_EINVAL, "export: no log or no folder");
	if (mkdir(dir, 0777) != 0 && errno != EEXIST)
		return pvmmon_error_set(PVMMON_EIO, "export: cannot create %s: %s", dir,
		                        strerror(errno));
	if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode))
		return pvmmon_error_set(PVMMON_EIO, "export: %s is not a folder", dir);
	rc = graphs__export_tables(log, &sink);
	if (st.f) {
		fclose(st.f);
		unlink(st.tmp);
	}
	return rc;
}

/* ---- JSON: one document ---- */

typedef struct json_state {
	FILE *f;
	const export_col *cols;
	size_t ncols, nrows, ntables;
} json_state;

void graphs__json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", f);
		else if (*p == '\t')
			fputs("\\t", f);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

static int json_begin(export_sink *k, const char *table, const export_col *cols, size_t ncols)
{
	json_state *st = k->state;

	fprintf(st->f, "%s\n    ", st->ntables++ ? "," : "");
	graphs__json_string(st->f, table);
	fputs(": [", st->f);
	st->cols = cols;
	st->ncols = ncols;
	st->nrows = 0;
	return 0;
}

static int json_row(export_sink *k, const export_cell *cells)
{
	json_state *st = k->state;

	fputs(st->nrows++ ? ",\n      {" : "\n      {", st->f);
	for (size_t i = 0; i < st->ncols; i++) {
		if (i)
			fputs(", ", st->f);
		graphs__json_string(st->f, st->cols[i].name);
		fputs(": ", st->f);
		if (cells[i].type == XC_NULL)
			fputs("null", st->f);
		else if (cells[i].type == XC_STR)
			graphs__json_string(st->f, cells[i].s);
		else if (cells[i].type == XC_REAL && (cells[i].d != cells[i].d))
			fputs("null", st->f); /* JSON has no NaN */
		else
			csv_cell(st->f, &cells[i]);
	}
	fputc('}', st->f);
	return 0;
}

static int json_end(export_sink *k)
{
	json_state *st = k->state;

	fputs(st->nrows ? "\n    ]" : "]", st->f);
	return 0;
}

int pvmmon_export_json(const pvmmon_log *log, FILE *out)
{
	json_state st = {out, NULL, 0, 0, 0};
	export_sink sink = {json_begin, json_row, json_end, &st};
	int rc;

	if (!log || !out)
		return pvmmon_error_set(PVMMON_EINVAL, "export: no log or no output");
	fprintf(out, "{\n  \"format\": \"pvmmon-export\",\n  \"version\": %d,\n  \"tables\": {",
	        PVMMON_EXPORT_VERSION);
	rc = graphs__export_tables(log, &sink);
	if (rc < 0)
		return rc;
	fputs("\n  }\n}\n", out);
	if (fflush(out) != 0 || ferror(out))
		return pvmmon_error_set(PVMMON_EIO, "export: could not write the JSON document");
	return 0;
}
