/* Parsing and matching of instrumentation resources (common/resource.h). */
#include <stdlib.h>
#include <string.h>

#include "pvmmon/errors.h"
#include "resource.h"

void resource__clear(resource *r)
{
	free(r->task);
	free(r->file);
	free(r->proc);
	memset(r, 0, sizeof(*r));
}

/* Characters of names (procedures, logical ids, file names); a file may have a path. */
static int name_ok(const char *s, size_t n, const char *extra)
{
	size_t i;

	if (n == 0)
		return 0;
	for (i = 0; i < n; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '_' || strchr(extra, c)))
			return 0;
	}
	return 1;
}

/* A line number from 1 to 10^8 in s[0..n); 0 when it is not one. */
static int32_t line_of(const char *s, size_t n)
{
	int32_t v = 0;
	size_t i;

	if (n == 0 || n > 9)
		return 0;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return 0;
		v = v * 10 + (s[i] - '0');
	}
	return v <= 100000000 ? v : 0;
}

/* Sets *field to a copy of s[0..n) unless it is set already (a term given twice). */
static int set_str(char **field, const char *s, size_t n, const char *term)
{
	if (*field)
		return pvmmon_error_set(PVMMON_EINVAL, "resource: '%s' given twice", term);
	*field = strndup(s, n);
	return *field ? 0 : pvmmon_error_set(PVMMON_ENOMEM, "resource: out of memory");
}

static int set_line(resource *r, const char *s, size_t n, const char *term)
{
	int32_t line = line_of(s, n);

	if (!line)
		return pvmmon_error_set(PVMMON_EINVAL,
					"resource: '%s' wants a line number from 1, not '%.*s'", term,
					(int)n, s);
	if (r->line)
		return pvmmon_error_set(PVMMON_EINVAL, "resource: a line given twice");
	r->line = line;
	return 0;
}

static int set_kind(resource *r, resource_kind k)
{
	if (r->kind && r->kind != k)
		return pvmmon_error_set(PVMMON_EINVAL, "resource: two kinds of site at once");
	r->kind = k;
	return 0;
}

/* One term key=value (value of vn bytes). */
static int term(resource *r, const char *key, size_t kn, const char *v, size_t vn)
{
	char k[8];

	if (kn >= sizeof(k))
		goto unknown;
	memcpy(k, key, kn);
	k[kn] = '\0';
	if (!strcmp(k, "task")) {
		if (!name_ok(v, vn, "."))
			return pvmmon_error_set(PVMMON_EINVAL,
						"resource: task= wants a logical id such as 0.1, "
						"not '%.*s'",
						(int)vn, v);
		return set_str(&r->task, v, vn, "task=");
	}
	if (!strcmp(k, "file")) {
		if (!name_ok(v, vn, "./-+"))
			return pvmmon_error_set(PVMMON_EINVAL,
						"resource: file= wants a source file name, not '%.*s'",
						(int)vn, v);
		return set_str(&r->file, v, vn, "file=");
	}
	if (!strcmp(k, "proc")) {
		if (!name_ok(v, vn, "") || (v[0] >= '0' && v[0] <= '9'))
			return pvmmon_error_set(PVMMON_EINVAL,
						"resource: proc= wants a procedure name, not '%.*s'",
						(int)vn, v);
		return set_str(&r->proc, v, vn, "proc=");
	}
	if (!strcmp(k, "line"))
		return set_line(r, v, vn, "line=");
	if (!strcmp(k, "kind")) {
		if (vn == 4 && !memcmp(v, "proc", 4))
			return set_kind(r, RESOURCE_PROC);
		if (vn == 4 && !memcmp(v, "loop", 4))
			return set_kind(r, RESOURCE_LOOP);
		if (vn == 4 && !memcmp(v, "stmt", 4))
			return set_kind(r, RESOURCE_STMT);
		return pvmmon_error_set(PVMMON_EINVAL,
					"resource: kind= wants proc, loop or stmt, not '%.*s'", (int)vn,
					v);
	}
	if (!strcmp(k, "loop") || !strcmp(k, "stmt")) {
		/* loop=[FILE:]LINE, stmt=[FILE:]LINE */
		resource_kind kind = k[0] == 'l' ? RESOURCE_LOOP : RESOURCE_STMT;
		const char *colon = memrchr(v, ':', vn);
		int rc;

		if (colon) {
			size_t fn = (size_t)(colon - v);

			if (!name_ok(v, fn, "./-+"))
				return pvmmon_error_set(PVMMON_EINVAL,
							"resource: %s= wants [FILE:]LINE, not '%.*s'", k,
							(int)vn, v);
			if ((rc = set_str(&r->file, v, fn, "file")) < 0)
				return rc;
			vn -= fn + 1;
			v = colon + 1;
		}
		if ((rc = set_line(r, v, vn, kind == RESOURCE_LOOP ? "loop=" : "stmt=")) < 0)
			return rc;
		return set_kind(r, kind);
	}
unknown:
	return pvmmon_error_set(PVMMON_EINVAL,
				"resource: unknown term '%.*s' (task=, file=, proc=, line=, kind=, "
				"loop=, stmt=, or all)",
				(int)kn, key);
}

int resource__parse(resource *out, const char *spec)
{
	const char *p = spec;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (!spec || !*spec)
		return pvmmon_error_set(PVMMON_EINVAL, "resource: empty (say all, or terms such as "
							"proc=solve)");
	if (strlen(spec) > RESOURCE_MAX_LEN)
		return pvmmon_error_set(PVMMON_EINVAL, "resource: longer than %d characters",
					RESOURCE_MAX_LEN);
	if (!strcmp(spec, "all"))
		return 0;
	for (;;) {
		size_t n = strcspn(p, ","), kn;
		const char *eq = memchr(p, '=', n);

		if (!eq) {
			rc = pvmmon_error_set(PVMMON_EINVAL,
					      "resource: '%.*s' is not a term (key=value, or all)",
					      (int)n, p);
			goto out;
		}
		kn = (size_t)(eq - p);
		if ((rc = term(out, p, kn, eq + 1, n - kn - 1)) < 0)
			goto out;
		if (p[n] == '\0')
			break;
		p += n + 1;
	}
out:
	if (rc < 0)
		resource__clear(out);
	return rc;
}

/* Whether site_file is file, or ends in "/" file. */
static int file_is(const char *site_file, const char *file)
{
	size_t a, b;

	if (!site_file)
		return 0;
	if (!strcmp(site_file, file))
		return 1;
	a = strlen(site_file);
	b = strlen(file);
	return a > b && site_file[a - b - 1] == '/' && !strcmp(site_file + a - b, file);
}

int resource__names_task(const resource *r, const char *lid)
{
	return !r->task || (lid && !strcmp(r->task, lid));
}

int resource__match(const resource *r, const char *lid, resource_kind kind, const char *name,
		    const char *file, int32_t line, const char *encl)
{
	if (!resource__names_task(r, lid))
		return 0;
	if (r->kind && r->kind != kind)
		return 0;
	if (r->file && !file_is(file, r->file))
		return 0;
	if (r->line && r->line != line)
		return 0;
	if (r->proc) {
		/* A procedure's own probes, and the loops and statements inside it. */
		const char *p = kind == RESOURCE_PROC ? name : encl;

		if (!p || strcmp(p, r->proc))
			return 0;
	}
	return 1;
}
