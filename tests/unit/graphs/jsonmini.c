/* A small JSON reader for the graphs unit tests (jsonmini.h): a recursive descent over RFC 8259. */
#include <stdlib.h>
#include <string.h>

#include "jsonmini.h"

/* Where the reader is, and how deep (a bound against runaway nesting). */
typedef struct reader {
	const char *p;
	int depth;
} reader;

static int value(reader *r, jm *v);

static void blank(reader *r)
{
	while (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r')
		r->p++;
}

static int hex4(const char *p, unsigned *out)
{
	*out = 0;
	for (int i = 0; i < 4; i++) {
		char c = p[i];

		*out <<= 4;
		if (c >= '0' && c <= '9')
			*out |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			*out |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			*out |= (unsigned)(c - 'A' + 10);
		else
			return -1;
	}
	return 0;
}

/* A string at r->p (its opening quote) into a new heap copy, NULL if malformed. */
static char *string(reader *r)
{
	size_t cap = 16, n = 0;
	char *s = malloc(cap);

	if (!s || *r->p++ != '"')
		goto bad;
	for (;;) {
		char c = *r->p++;

		if (c == '\0' || (unsigned char)c < 0x20)
			goto bad;
		if (c == '"')
			break;
		if (c == '\\') {
			static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
			const char *k = *r->p ? strchr(from, *r->p) : NULL;
			unsigned u;

			if (k) {
				c = to[k - from];
				r->p++;
			} else if (*r->p == 'u' && hex4(r->p + 1, &u) == 0) {
				c = u < 0x80 ? (char)u : '?';
				r->p += 5;
			} else {
				goto bad;
			}
		}
		if (n + 2 > cap) {
			char *t = realloc(s, cap *= 2);

			if (!t)
				goto bad;
			s = t;
		}
		s[n++] = c;
	}
	s[n] = '\0';
	return s;
bad:
	free(s);
	return NULL;
}

static int number(reader *r, jm *v)
{
	const char *p = r->p;
	char *end;

	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (*p >= '1' && *p <= '9')
		while (*p >= '0' && *p <= '9')
			p++;
	else
		return -1;
	if (*p == '.') {
		if (!(*++p >= '0' && *p <= '9'))
			return -1;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (!(*p >= '0' && *p <= '9'))
			return -1;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	v->type = JM_NUM;
	v->num = strtod(r->p, &end);
	if (end != p)
		return -1;
	r->p = p;
	return 0;
}

/* An array's or object's members up to its closing bracket. */
static int members(reader *r, jm *v, int object)
{
	size_t cap = 0;

	v->type = object ? JM_OBJ : JM_ARR;
	r->p++;
	blank(r);
	if (*r->p == (object ? '}' : ']')) {
		r->p++;
		return 0;
	}
	for (;;) {
		jm *kid;

		if (v->n == cap) {
			jm *k = realloc(v->kids, (cap = cap ? cap * 2 : 8) * sizeof(*k));

			if (!k)
				return -1;
			v->kids = k;
		}
		kid = &v->kids[v->n++];
		memset(kid, 0, sizeof(*kid));
		blank(r);
		if (object) {
			if (*r->p != '"' || !(kid->key = string(r)))
				return -1;
			blank(r);
			if (*r->p++ != ':')
				return -1;
		}
		if (value(r, kid) < 0)
			return -1;
		blank(r);
		if (*r->p == ',') {
			r->p++;
			continue;
		}
		return *r->p++ == (object ? '}' : ']') ? 0 : -1;
	}
}

static int value(reader *r, jm *v)
{
	int rc;

	blank(r);
	if (++r->depth > 64)
		return -1;
	if (*r->p == '{' || *r->p == '[')
		rc = members(r, v, *r->p == '{');
	else if (*r->p == '"')
		rc = (v->type = JM_STR, v->str = string(r)) ? 0 : -1;
	else if (!strncmp(r->p, "true", 4) || !strncmp(r->p, "null", 4))
		rc = (v->type = *r->p == 't' ? JM_BOOL : JM_NULL, v->num = *r->p == 't', r->p += 4,
		      0);
	else if (!strncmp(r->p, "false", 5))
		rc = (v->type = JM_BOOL, r->p += 5, 0);
	else
		rc = number(r, v);
	r->depth--;
	return rc;
}

static void clear(jm *v)
{
	for (size_t i = 0; i < v->n; i++)
		clear(&v->kids[i]);
	free(v->kids);
	free(v->str);
	free(v->key);
}

jm *jm_parse(const char *text)
{
	reader r = {text, 0};
	jm *v = calloc(1, sizeof(*v));

	if (!v)
		return NULL;
	if (value(&r, v) < 0 || (blank(&r), *r.p != '\0')) {
		jm_free(v);
		return NULL;
	}
	return v;
}

void jm_free(jm *v)
{
	if (v)
		clear(v);
	free(v);
}

const jm *jm_get(const jm *o, const char *key)
{
	for (size_t i = 0; o && o->type == JM_OBJ && i < o->n; i++)
		if (!strcmp(o->kids[i].key, key))
			return &o->kids[i];
	return NULL;
}

const char *jm_str(const jm *o, const char *key)
{
	const jm *v = jm_get(o, key);

	return v && v->type == JM_STR ? v->str : NULL;
}
