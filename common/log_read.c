/* Reading a run's XML log back in one streaming pass: well-formedness, version and the
 * schema are checked while the model is built, element by element. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/relaxng.h>
#include <libxml/xmlreader.h>

#include "log_bind.h"
#include "log_elems.h"
#include "log_hist.h"
#include "pvmmon/errors.h"
#include "pvmmon/log.h"

/* The first libxml2 error of a kind, kept so the user sees one precise line. */
typedef struct first_error {
	int seen;
	int line;
	int code;
	int named; /* the attribute's name was added */
	char msg[256];
} first_error;

/* A read's first error of each kind: a file that is not XML is said to be so before
 * anything else; after that, one that does not match the schema. */
typedef struct read_errors {
	first_error parse, valid;
} read_errors;

static int from_validator(int domain)
{
	return domain == XML_FROM_RELAXNGV || domain == XML_FROM_DATATYPE ||
	       domain == XML_FROM_SCHEMASV || domain == XML_FROM_VALID;
}

static void trim(char *s)
{
	size_t n = strlen(s);

	while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == ' '))
		s[--n] = '\0';
}

/* The validator says a bad attribute in up to three errors of one element (the
 * value's type, "failed to validate attributes", then which attribute): the one
 * naming the attribute leads, the first follows in brackets. */
static void name_attribute(first_error *fe, xmlErrorPtr e)
{
	char named[sizeof(fe->msg)], first[sizeof(fe->msg)];

	if (fe->named || e->code != XML_RELAXNG_ERR_INVALIDATTR || e->line != fe->line ||
	    !e->message)
		return;
	fe->named = 1;
	snprintf(named, sizeof(named), "%s", e->message);
	trim(named);
	memcpy(first, fe->msg, sizeof(first));
	if (fe->code == XML_RELAXNG_ERR_ATTRVALID)
		snprintf(fe->msg, sizeof(fe->msg), "%s", named);
	else
		snprintf(fe->msg, sizeof(fe->msg), "%.120s (%.120s)", named, first);
}

static void capture(void *ctx, xmlErrorPtr e)
{
	read_errors *re = ctx;
	first_error *fe;

	if (!e)
		return;
	fe = from_validator(e->domain) ? &re->valid : &re->parse;
	if (fe->seen) {
		if (fe == &re->valid)
			name_attribute(fe, e);
		return;
	}
	fe->seen = 1;
	fe->line = e->line;
	fe->code = e->code;
	snprintf(fe->msg, sizeof(fe->msg), "%s", e->message ? e->message : "unknown error");
	trim(fe->msg);
}

/* The built-in schema, compiled once per process: compiling it costs more than
 * validating a small log, and `pvmmon top` reads a snapshot every second. */
static pthread_once_t schema_once = PTHREAD_ONCE_INIT;
static xmlRelaxNGPtr schema;
static char schema_error[256];

static void compile_schema(void)
{
	read_errors re = {0};
	const char *text = pvmmon_log_schema();
	xmlRelaxNGParserCtxtPtr pctx;

	xmlSetStructuredErrorFunc(&re, capture);
	pctx = xmlRelaxNGNewMemParserCtxt(text, (int)strlen(text));
	schema = pctx ? xmlRelaxNGParse(pctx) : NULL;
	if (pctx)
		xmlRelaxNGFreeParserCtxt(pctx);
	xmlSetStructuredErrorFunc(NULL, NULL);
	snprintf(schema_error, sizeof(schema_error), "%s",
	         re.parse.seen   ? re.parse.msg
	         : re.valid.seen ? re.valid.msg
	                         : "out of memory");
}

static int get_schema(xmlRelaxNGPtr *out)
{
	pthread_once(&schema_once, compile_schema);
	if (!schema)
		return pvmmon_error_set(PVMMON_ERROR, "the built-in log schema does not load: %s",
		                        schema_error);
	*out = schema;
	return 0;
}

/* The open elements: their names, and the table entries of those the model reads. */
#define MAX_DEPTH 16

typedef struct open_elem {
	const char *name;
	const log_elem *e;
	int line;
} open_elem;

/* The open elements, innermost last. */
typedef struct open_stack {
	open_elem at[MAX_DEPTH];
	int n;
} open_stack;

/* The table entry for name under parent ("" for the root); *last, the previous
 * match, is tried first: a task's elements come in runs of the same kind. */
static const log_elem *find(const char *parent, const char *name, const log_elem **last)
{
	if (*last && !strcmp((*last)->name, name) && !strcmp((*last)->parent, parent))
		return *last;
	for (size_t i = 0; i < log__nelems; i++)
		if (!strcmp(log__elems[i].name, name) && !strcmp(log__elems[i].parent, parent))
			return *last = &log__elems[i];
	return NULL;
}

static int append_text(log_rd *r, const char *s)
{
	size_t n = strlen(s);

	if (r->textlen + n + 1 > r->textcap) {
		size_t cap = (r->textlen + n + 1) * 2;
		char *p = realloc(r->text, cap);

		if (!p)
			return pvmmon_error_set(PVMMON_ENOMEM, "out of memory reading the log");
		r->text = p;
		r->textcap = cap;
	}
	memcpy(r->text + r->textlen, s, n + 1);
	r->textlen += n;
	return 0;
}

static int end_elem(log_rd *r, const log_elem *e)
{
	if (!e || !e->end)
		return 0;
	if (e->text && append_text(r, "") < 0) /* an empty element's text is "" */
		return PVMMON_ENOMEM;
	return e->end(r);
}

/* Checks the root and the format version before the schema, so that a log of a newer
 * format is reported as such and not as a schema mismatch. */
static int check_root(log_rd *r, xmlTextReaderPtr x)
{
	const char *name = (const char *)xmlTextReaderConstLocalName(x);
	xmlChar *v;
	int major = -1, rc = 0;

	if (!name || strcmp(name, "pvmmon-log") || xmlTextReaderConstPrefix(x))
		return pvmmon_error_set(PVMMON_ESCHEMA,
		                        "%s: not a pvmmon log (root element is <%s>)", r->path,
		                        (const char *)xmlTextReaderConstName(x));
	v = xmlTextReaderGetAttribute(x, BAD_CAST "version");
	if (!v)
		return pvmmon_error_set(PVMMON_EVERSION, "%s: log has no format version", r->path);
	if (sscanf((const char *)v, "%d.", &major) != 1 || major != PVMMON_LOG_VERSION_MAJOR)
		rc = pvmmon_error_set(
		    PVMMON_EVERSION,
		    "%s: log format version %s is not supported (this pvmmon reads %d.x)", r->path,
		    (const char *)v, PVMMON_LOG_VERSION_MAJOR);
	xmlFree(v);
	return rc;
}

/* One element started: its start handler, and its end at once when it is empty (an
 * element with content stays open on the stack until its end). */
static int start_elem(log_rd *r, xmlTextReaderPtr x, open_elem *stack, int depth,
                      const log_elem **last)
{
	const log_elem *e = find(depth ? stack[depth - 1].name : "", stack[depth].name, last);
	int rc;

	if (!e)
		return 0;
	r->textlen = 0;
	if (e->start) {
		r->node = xmlTextReaderCurrentNode(x);
		if (!r->node)
			return pvmmon_error_set(PVMMON_ENOMEM, "out of memory reading the log");
		rc = e->start(r);
		r->node = NULL;
		if (rc < 0)
			return rc;
	}
	if (xmlTextReaderIsEmptyElement(x))
		return end_elem(r, e);
	stack[depth].e = e;
	return 0;
}

/* Keeps the open elements' names and lines (for a file that ends too soon) and, while
 * the model is built, calls their handlers. */
static int visit(log_rd *r, xmlTextReaderPtr x, open_stack *st, int build, const log_elem **last)
{
	int type = xmlTextReaderNodeType(x), depth = xmlTextReaderDepth(x);
	open_elem *at = st->at;

	if (depth < 0 || depth >= MAX_DEPTH)
		return 0;
	if (type == XML_READER_TYPE_ELEMENT) {
		xmlNodePtr n = xmlTextReaderCurrentNode(x);

		at[depth].name = (const char *)xmlTextReaderConstLocalName(x);
		at[depth].e = NULL;
		at[depth].line = n ? n->line : 0;
		st->n = depth + !xmlTextReaderIsEmptyElement(x);
		return build ? start_elem(r, x, at, depth, last) : 0;
	}
	if (type == XML_READER_TYPE_END_ELEMENT) {
		const log_elem *e = at[depth].e;

		st->n = depth;
		at[depth].e = NULL;
		return build ? end_elem(r, e) : 0;
	}
	if ((type == XML_READER_TYPE_TEXT || type == XML_READER_TYPE_CDATA ||
	     type == XML_READER_TYPE_WHITESPACE ||
	     type == XML_READER_TYPE_SIGNIFICANT_WHITESPACE) &&
	    build && depth > 0 && at[depth - 1].e && at[depth - 1].e->text) {
		const xmlChar *v = xmlTextReaderConstValue(x);

		return append_text(r, v ? (const char *)v : "");
	}
	return 0;
}

/* A file that is not XML: libxml2's first error as one line naming the file. */
static int report_parse(log_rd *r, first_error *fe, const open_stack *st)
{
	/* The streaming parser says "Document is empty" of text, "Extra content" of an
	 * empty file and of one that ends too soon: say what the whole-file parser says. */
	if (fe->seen && (fe->code == XML_ERR_DOCUMENT_EMPTY || fe->code == XML_ERR_DOCUMENT_END)) {
		if (r->empty)
			snprintf(fe->msg, sizeof(fe->msg), "Document is empty");
		else if (fe->code == XML_ERR_DOCUMENT_EMPTY)
			snprintf(fe->msg, sizeof(fe->msg), "Start tag expected, '<' not found");
		else if (r->root_seen && st && st->n > 0)
			snprintf(fe->msg, sizeof(fe->msg),
			         "Premature end of data in tag %.100s line %d",
			         st->at[st->n - 1].name, st->at[st->n - 1].line);
	}
	return pvmmon_error_set(PVMMON_EPARSE, "%s: not a well-formed XML file (line %d: %s)",
	                        r->path, fe->line, fe->seen ? fe->msg : "empty document");
}

/* libxml2's streaming validator (2.9) prints the literal word "TODO" in its message
 * where it should name the element whose text is not allowed ("element  TODO
 * content ..."); this puts the open element's name in its place. It is libxml2's
 * wording, matched here, not unfinished work of ours. */
#define LIBXML_NAME_HOLE " TODO "

static void name_element(first_error *fe, const open_stack *st)
{
	char *hole = strstr(fe->msg, LIBXML_NAME_HOLE);
	char rest[sizeof(fe->msg)];

	if (!hole || st->n <= 0)
		return;
	snprintf(rest, sizeof(rest), "%s", hole + strlen(LIBXML_NAME_HOLE));
	snprintf(hole, sizeof(fe->msg) - (size_t)(hole - fe->msg), "%s%s", st->at[st->n - 1].name,
	         rest);
}

/* Keeps an error the reader finds itself (in the root, rank 2, or in the model, rank
 * 1) until the end: a file that is not XML, or does not match the schema, is said to
 * be so first, as when the whole file was checked before the model was built. */
static void defer(log_rd *r, int rc, int rank)
{
	if (r->deferred && r->deferred_rank >= rank)
		return;
	r->deferred = rc;
	r->deferred_rank = rank;
	snprintf(r->deferred_msg, sizeof(r->deferred_msg), "%s", pvmmon_error_last());
}

/* The reader's nodes in document order: elements to their handlers, text to the open
 * element that keeps it. The model stops growing at the first error, libxml2's or
 * its own; the rest of the file is read for an error that comes before it. */
static int walk(log_rd *r, xmlTextReaderPtr x, read_errors *re, int build)
{
	open_stack st = {.n = 0};
	const log_elem *last = NULL;
	int ret, rc;

	while ((ret = xmlTextReaderRead(x)) == 1 && !re->parse.seen) {
		if (xmlTextReaderNodeType(x) == XML_READER_TYPE_ELEMENT &&
		    xmlTextReaderDepth(x) == 0 && !r->root_seen++ && (rc = check_root(r, x)) < 0)
			defer(r, rc, 2);
		if (re->valid.seen && build)
			name_element(&re->valid, &st);
		if (r->deferred || re->valid.seen)
			build = 0;
		rc = visit(r, x, &st, build, &last);
		if (rc == PVMMON_ENOMEM)
			return rc;
		if (rc < 0)
			defer(r, rc, 1);
	}
	if (re->parse.seen || ret < 0)
		return report_parse(r, &re->parse, &st);
	if (r->deferred_rank == 2)
		return pvmmon_error_set(r->deferred, "%s", r->deferred_msg);
	if (re->valid.seen || xmlTextReaderIsValid(x) != 1)
		return pvmmon_error_set(PVMMON_ESCHEMA,
		                        "%s: does not match the log schema (line %d: %s)", r->path,
		                        re->valid.line, re->valid.seen ? re->valid.msg : "invalid");
	if (r->deferred)
		return pvmmon_error_set(r->deferred, "%s", r->deferred_msg);
	return 0;
}

/* Refuses what cannot be read as a file, naming why; *empty says it has no bytes. */
static int check_file(const char *path, int *empty)
{
	struct stat st;

	if (stat(path, &st) < 0) {
		if (errno == ENOENT)
			return pvmmon_error_set(PVMMON_ENOTFOUND, "%s: no such file", path);
		return pvmmon_error_set(PVMMON_EIO, "%s: cannot read: %s", path, strerror(errno));
	}
	if (S_ISDIR(st.st_mode))
		return pvmmon_error_set(PVMMON_EIO, "%s: is a folder, not a log file", path);
	if (access(path, R_OK) < 0)
		return pvmmon_error_set(PVMMON_EIO, "%s: cannot read: %s", path, strerror(errno));
	*empty = st.st_size == 0;
	return 0;
}

/* Reads path, or len bytes at data (named path) when data is given, validating as it
 * goes; builds the model into *out unless out is NULL. */
static int read_any(pvmmon_log **out, const char *path, const char *data, size_t len)
{
	const int opts = XML_PARSE_NONET | XML_PARSE_NOBLANKS;
	read_errors re = {0};
	log_rd r = {0};
	xmlTextReaderPtr x = NULL;
	xmlRelaxNGPtr rng = NULL;
	int rc;

	if (!path)
		return pvmmon_error_set(PVMMON_EINVAL, "log: no file name");
	if ((rc = get_schema(&rng)) < 0 || (!data && (rc = check_file(path, &r.empty)) < 0))
		return rc;
	if (data)
		r.empty = len == 0;
	if (data && len > 0x7fffffff)
		return pvmmon_error_set(PVMMON_EPARSE, "%s: too large for the XML reader", path);
	r.path = path;
	if (out && (rc = pvmmon_log_new(&r.log)) < 0)
		return rc;
	xmlSetStructuredErrorFunc(&re, capture);
	x = data ? xmlReaderForMemory(data, (int)len, path, NULL, opts)
	         : xmlReaderForFile(path, NULL, opts);
	if (!x) {
		rc = re.parse.seen ? report_parse(&r, &re.parse, NULL)
		                   : pvmmon_error_set(PVMMON_EIO, "%s: cannot read: %s", path,
		                                      strerror(errno ? errno : ENOMEM));
		goto out;
	}
	/* Errors go to fe whether the parser or the validator finds them: the handler is
	 * set before the schema, which takes it over. */
	xmlTextReaderSetStructuredErrorHandler(x, capture, &re);
	if (xmlTextReaderRelaxNGSetSchema(x, rng) != 0) {
		rc = pvmmon_error_set(PVMMON_ENOMEM, "%s: out of memory validating", path);
		goto out;
	}
	rc = walk(&r, x, &re, out != NULL);
	/* The histograms' arithmetic needs the run's settings, which follow the tasks. */
	if (rc == 0 && r.log)
		rc = log__hists_check(r.log, path);
out:
	xmlSetStructuredErrorFunc(NULL, NULL);
	xmlFreeTextReader(x);
	free(r.text);
	free(r.rec_hash);
	if (rc < 0)
		pvmmon_log_free(r.log);
	else if (out)
		*out = r.log;
	return rc;
}

int pvmmon_log_validate(const char *path) { return read_any(NULL, path, NULL, 0); }

int pvmmon_log_read(pvmmon_log **out, const char *path)
{
	if (!out)
		return pvmmon_error_set(PVMMON_EINVAL, "log: nowhere to put %s",
		                        path ? path : "it");
	return read_any(out, path, NULL, 0);
}

int pvmmon_log_parse(pvmmon_log **out, const char *data, size_t len, const char *name)
{
	if (!data)
		return pvmmon_error_set(PVMMON_EINVAL, "%s: no data", name ? name : "log");
	if (!out)
		return pvmmon_error_set(PVMMON_EINVAL, "%s: nowhere to put it",
		                        name ? name : "log");
	return read_any(out, name ? name : "log", data, len);
}
