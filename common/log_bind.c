/* Binding an element's attributes to the model's fields by table, for the log reader's
 * element handlers (log_elems.c): the schema's number forms and growing arrays. */
#include <stdlib.h>
#include <string.h>

#include <libxml/tree.h>

#include "log_bind.h"
#include "pvmmon/errors.h"

uint64_t log__u64(const char *s, const char **end)
{
	const char *from = s, *digits;
	uint64_t v = 0;
	int neg = 0;

	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	if (*s == '-' || *s == '+')
		neg = *s++ == '-';
	digits = s;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') &&
	    ((s[2] >= '0' && s[2] <= '9') || ((s[2] | 0x20) >= 'a' && (s[2] | 0x20) <= 'f'))) {
		for (s += 2;; s++) {
			unsigned c = (unsigned char)*s, d;

			if (c >= '0' && c <= '9')
				d = c - '0';
			else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
				d = (c | 0x20) - 'a' + 10;
			else
				break;
			v = v * 16 + d;
		}
	} else {
		for (; *s >= '0' && *s <= '9'; s++)
			v = v * 10 + (uint64_t)(*s - '0');
	}
	if (end)
		*end = s == digits ? from : s; /* no number: nothing read, as strtoll says */
	return neg ? 0 - v : v;
}

int64_t log__i64(const char *s, const char **end) { return (int64_t)log__u64(s, end); }

/* An attribute's value as one string: libxml2 keeps it as a single text node unless
 * entities split it; *copy is set when the value had to be assembled. */
static const char *attr_value(xmlAttrPtr a, xmlChar **copy)
{
	*copy = NULL;
	if (!a->children)
		return "";
	if (!a->children->next && a->children->type == XML_TEXT_NODE && a->children->content)
		return (const char *)a->children->content;
	*copy = xmlNodeListGetString(a->doc, a->children, 1);
	return *copy ? (const char *)*copy : "";
}

static int store(const log_field *f, void *obj, const char *v)
{
	char *p = (char *)obj + f->off;

	switch (f->type) {
	case LOG_F_STR:
		free(*(char **)p);
		if (!(*(char **)p = strdup(v)))
			return pvmmon_error_set(PVMMON_ENOMEM, "out of memory reading the log");
		break;
	case LOG_F_I64:
		*(int64_t *)p = log__i64(v, NULL);
		break;
	case LOG_F_I32:
		*(int32_t *)p = (int32_t)log__i64(v, NULL);
		break;
	case LOG_F_U64:
		*(uint64_t *)p = log__u64(v, NULL);
		break;
	case LOG_F_U32:
		*(uint32_t *)p = (uint32_t)log__u64(v, NULL);
		break;
	case LOG_F_DBL:
		*(double *)p = strtod(v, NULL);
		break;
	case LOG_F_HAS:
		*(int *)p = 1;
		break;
	case LOG_F_FN:
		f->conv(v, p);
		break;
	case LOG_F_LIST:
		for (int k = 0; k < f->n; k++) {
			const char *end;
			int64_t x = log__i64(v, &end);

			if (end == v)
				break;
			((int64_t *)p)[k] = x;
			v = end;
		}
		break;
	}
	return 0;
}

int log__bind(log_rd *r, void *obj, const log_field *fields, size_t nfields)
{
	for (xmlAttrPtr a = r->node->properties; a; a = a->next) {
		const char *name = (const char *)a->name, *v = NULL;
		xmlChar *copy = NULL;
		int rc = 0;

		for (size_t i = 0; i < nfields && rc == 0; i++) {
			const log_field *f = &fields[i];

			if (f->name[0] != name[0] || strcmp(f->name, name))
				continue;
			if (!v)
				v = attr_value(a, &copy);
			rc = store(f, obj, v);
		}
		xmlFree(copy);
		if (rc < 0)
			return rc;
	}
	return 0;
}

void *log__push(void **arr, size_t *n, size_t size)
{
	char *p = *arr;

	/* The room is the count rounded up to a power of two (at least 4): grow when the
	 * count reaches it. */
	if (*n == 0 || (*n >= 4 && (*n & (*n - 1)) == 0)) {
		size_t room = *n ? *n * 2 : 4;

		p = realloc(*arr, room * size);
		if (!p) {
			pvmmon_error_set(PVMMON_ENOMEM, "out of memory reading the log");
			return NULL;
		}
		*arr = p;
	}
	p += (*n)++ * size;
	memset(p, 0, size);
	return p;
}
