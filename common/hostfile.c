/* Reading and checking a user's PVM 3.4 hostfile, so that pvmd only ever sees lines
 * it reads as the user meant them. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pvmmon/errors.h"
#include "hostfile.h"

/* The options pvmd 3.4's parsehost() knows; it drops a line with any other. */
static const char *const known_keys[] = {"lo", "so", "dx", "ep", "wd", "sp", "bx", "ip", "id"};
#define NKEYS (sizeof(known_keys) / sizeof(known_keys[0]))

/* A word of a line: a pointer into the text and its length. */
typedef struct word {
	const char *p;
	size_t len;
} word;

/* Records "NAME:LINE: message" as the last error and returns PVMMON_EPARSE. */
static int bad(const char *name, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int bad(const char *name, int line, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return pvmmon_error_set(PVMMON_EPARSE, "%s:%d: %s", name, line, msg);
}

/* How much of a word goes into a message: enough to find it, not a whole line. */
#define SHOW 40
#define SHOWN(w) (int)((w).len > SHOW ? SHOW : (w).len), (w).p, (w).len > SHOW ? "..." : ""

static int is_space(char c)
{
	return c == ' ' || c == '\t';
}

static int name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '-' || c == '.' || c == '_';
}

/*
 * A host name as PVM passes it to rsh/ssh and gethostbyname: letters, digits, '-',
 * '.' and '_', at most HOSTFILE_MAX_NAME. A leading '-' would reach the remote shell
 * command as an option of its own, so it is refused like a leading '.'. Returns NULL
 * when w is one, else what is wrong.
 */
static const char *host_name_problem(word w)
{
	size_t i;

	if (w.len == 0)
		return "is empty";
	if (w.len > HOSTFILE_MAX_NAME)
		return "is longer than 255 characters";
	if (w.p[0] == '-' || w.p[0] == '.')
		return "cannot start with '-' or '.'";
	for (i = 0; i < w.len; i++)
		if (!name_char(w.p[i]))
			return "may hold only letters, digits, '-', '.' and '_'";
	return NULL;
}

/* Checks one key=value option; seen[] marks the keys the line already gave. */
static int check_option(const char *name, int line, word w, int seen[NKEYS])
{
	const char *eq = memchr(w.p, '=', w.len);
	word key, val;
	const char *why;
	size_t k;

	if (w.p[0] == '#')
		return bad(name, line,
			   "'%.*s%s': a comment must start its line (pvmd reads '#' after a host "
			   "as an option)",
			   SHOWN(w));
	if (!eq)
		return bad(name, line, "'%.*s%s' is not an option (KEY=VALUE)", SHOWN(w));
	key.p = w.p;
	key.len = (size_t)(eq - w.p);
	val.p = eq + 1;
	val.len = w.len - key.len - 1;
	for (k = 0; k < NKEYS; k++)
		if (key.len == 2 && !memcmp(key.p, known_keys[k], 2))
			break;
	if (k == NKEYS)
		return bad(name, line,
			   "unknown option '%.*s%s=' (PVM 3.4 knows lo= so= dx= ep= wd= sp= bx= ip= "
			   "id=)",
			   SHOWN(key));
	/* pvmd keeps the first of two; a second one is more likely a slip than meant. */
	if (seen[k]++)
		return bad(name, line, "option %s= given twice", known_keys[k]);
	if (val.len == 0)
		return bad(name, line, "option %s= has no value", known_keys[k]);
	switch (key.p[0]) {
	case 's':
		if (key.p[1] == 'o') {
			if ((val.len != 2 || (memcmp(val.p, "pw", 2) && memcmp(val.p, "ms", 2))))
				return bad(name, line, "so= wants pw or ms, not '%.*s%s'", SHOWN(val));
		} else {
			unsigned long v = 0;
			size_t i;

			/* Digits only: pvmd's atoi() would read "12x" as 12 and "x" as 0. */
			for (i = 0; i < val.len && val.p[i] >= '0' && val.p[i] <= '9' && v <= 1000000;
			     i++)
				v = v * 10 + (unsigned long)(val.p[i] - '0');
			if (i < val.len || v < 1 || v > 1000000)
				return bad(name, line, "sp= wants a speed from 1 to 1000000, not '%.*s%s'",
					   SHOWN(val));
		}
		break;
	case 'i':
		if (key.p[1] == 'p' && (why = host_name_problem(val)))
			return bad(name, line, "ip= wants a host name; '%.*s%s' %s", SHOWN(val), why);
		break;
	case 'l':
		/* The login goes to the remote shell command too. */
		if (val.p[0] == '-')
			return bad(name, line, "lo= cannot start with '-'");
		break;
	}
	return 0;
}

static int add_entry(hostfile_list *l, size_t *cap, const hostfile_entry *e)
{
	if (l->n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 8;
		hostfile_entry *v = realloc(l->v, ncap * sizeof(*v));

		if (!v)
			return pvmmon_error_set(PVMMON_ENOMEM, "out of memory");
		l->v = v;
		*cap = ncap;
	}
	l->v[l->n++] = *e;
	return 0;
}

/* Parses one line without its newline; adds it to l if it is a host or defaults line. */
static int parse_line(hostfile_list *l, size_t *cap, const char *name, int line, const char *s,
		      size_t len)
{
	word w[HOSTFILE_MAX_OPTS + 1]; /* the host (or '*') and its options */
	int seen[NKEYS] = {0}, later = 0, overload = 0, rc = 0;
	size_t nw = 0, i, j, tlen;
	hostfile_entry e;
	const char *why, *p = s, *end = s + len;

	memset(&e, 0, sizeof(e));
	/* A file written on Windows ends its lines in CR LF. */
	if (len && s[len - 1] == '\r')
		end--;
	while (p < end && is_space(*p))
		p++;
	if (p == end || *p == '#')
		return 0;
	for (const char *c = p; c < end; c++)
		if ((unsigned char)*c < 0x20 && *c != '\t')
			return bad(name, line, "control character 0x%02x in column %d",
				   (unsigned char)*c, (int)(c - s) + 1);
		else if (*c == 0x7f)
			return bad(name, line, "control character 0x7f in column %d", (int)(c - s) + 1);
	/* pvmd strips any run of '&' (start later) and '$' (start even if it is this
	 * machine) before the host name, with or without a space after them. */
	for (; p < end && (*p == '&' || *p == '$'); p++)
		*(*p == '&' ? &later : &overload) = 1;
	while (p < end) {
		while (p < end && is_space(*p))
			p++;
		if (p == end)
			break;
		if (nw == sizeof(w) / sizeof(w[0]))
			return bad(name, line, "more than %d options (pvmd reads at most %d)",
				   HOSTFILE_MAX_OPTS, HOSTFILE_MAX_OPTS);
		w[nw].p = p;
		while (p < end && !is_space(*p))
			p++;
		w[nw].len = (size_t)(p - w[nw].p);
		nw++;
	}
	if (nw == 0)
		return bad(name, line, "'%s' needs a host name after it", later ? "&" : "$");
	if (w[0].len == 1 && w[0].p[0] == '*') {
		if (later || overload)
			return bad(name, line, "a defaults line ('*') takes no '&' or '$'");
		e.kind = HOSTFILE_DEFAULTS;
	} else {
		if (memchr(w[0].p, '@', w[0].len))
			return bad(name, line,
				   "'%.*s%s': PVM hostfiles take no user@host; write the host and "
				   "lo=USER",
				   SHOWN(w[0]));
		if (memchr(w[0].p, '=', w[0].len))
			return bad(name, line, "'%.*s%s' is an option, but the line names no host first",
				   SHOWN(w[0]));
		if ((why = host_name_problem(w[0])))
			return bad(name, line, "host name '%.*s%s' %s", SHOWN(w[0]), why);
		e.kind = later ? HOSTFILE_LATER : HOSTFILE_HOST;
		e.overload = overload;
	}
	for (i = 1; i < nw; i++)
		if ((rc = check_option(name, line, w[i], seen)) < 0)
			return rc;
	tlen = (size_t)later + (size_t)overload;
	for (i = 0; i < nw; i++)
		tlen += w[i].len + (i > 0);
	if (tlen > HOSTFILE_PVMD_LINE_MAX)
		return bad(name, line,
			   "line too long for pvmd: %zu characters of host and options, at most %d",
			   tlen, HOSTFILE_PVMD_LINE_MAX);
	if (l->n == HOSTFILE_MAX_ENTRIES)
		return bad(name, line, "more than %d host and defaults lines (pvmd's limit)",
			   HOSTFILE_MAX_ENTRIES);
	e.line = line;
	e.nopts = nw - 1;
	e.text = malloc(tlen + 1);
	if (e.kind != HOSTFILE_DEFAULTS)
		e.name = strndup(w[0].p, w[0].len);
	if (!e.text || (e.kind != HOSTFILE_DEFAULTS && !e.name)) {
		rc = pvmmon_error_set(PVMMON_ENOMEM, "out of memory");
		goto out;
	}
	j = 0;
	if (later)
		e.text[j++] = '&';
	if (overload)
		e.text[j++] = '$';
	for (i = 0; i < nw; i++) {
		if (i > 0)
			e.text[j++] = ' ';
		memcpy(e.text + j, w[i].p, w[i].len);
		j += w[i].len;
	}
	e.text[j] = '\0';
	rc = add_entry(l, cap, &e);
out:
	if (rc < 0) {
		free(e.text);
		free(e.name);
	}
	return rc;
}

int hostfile__parse(hostfile_list **out, const char *name, const char *text, size_t len)
{
	hostfile_list *l = calloc(1, sizeof(*l));
	size_t pos = 0, cap = 0;
	int line = 0, rc = 0;

	*out = NULL;
	if (!l)
		return pvmmon_error_set(PVMMON_ENOMEM, "out of memory");
	if (len > HOSTFILE_MAX_BYTES) {
		rc = pvmmon_error_set(PVMMON_EPARSE, "%s: larger than %d bytes; not a hostfile?",
				      name, HOSTFILE_MAX_BYTES);
		goto out;
	}
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos;

		line++;
		if (n > HOSTFILE_MAX_LINE) {
			rc = bad(name, line, "line longer than %d bytes", HOSTFILE_MAX_LINE);
			goto out;
		}
		/* Checked before anything else, comments included: a NUL would cut the line
		 * short for pvmd's string functions. */
		if (memchr(text + pos, '\0', n)) {
			rc = bad(name, line, "NUL byte in column %d",
				 (int)((const char *)memchr(text + pos, '\0', n) - (text + pos)) + 1);
			goto out;
		}
		rc = parse_line(l, &cap, name, line, text + pos, n);
		if (rc < 0)
			goto out;
		pos += n + (nl ? 1 : 0);
	}
out:
	if (rc < 0) {
		hostfile__free(l);
		return rc;
	}
	*out = l;
	return 0;
}

int hostfile__read(hostfile_list **out, const char *path)
{
	FILE *f;
	char *buf = NULL;
	size_t n;
	int rc;

	*out = NULL;
	f = fopen(path, "r");
	if (!f)
		return pvmmon_error_set(PVMMON_EIO, "%s: cannot read hostfile: %s", path,
					strerror(errno));
	/* One byte more than the limit tells a file at the limit from a bigger one. */
	buf = malloc(HOSTFILE_MAX_BYTES + 1);
	if (!buf) {
		rc = pvmmon_error_set(PVMMON_ENOMEM, "out of memory");
		goto out;
	}
	n = fread(buf, 1, HOSTFILE_MAX_BYTES + 1, f);
	if (ferror(f)) {
		rc = pvmmon_error_set(PVMMON_EIO, "%s: cannot read hostfile: %s", path,
				      strerror(errno));
		goto out;
	}
	rc = hostfile__parse(out, path, buf, n);
out:
	fclose(f);
	free(buf);
	return rc;
}

void hostfile__free(hostfile_list *list)
{
	size_t i;

	if (!list)
		return;
	for (i = 0; i < list->n; i++) {
		free(list->v[i].name);
		free(list->v[i].text);
	}
	free(list->v);
	free(list);
}
