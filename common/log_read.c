/* Reading a run's XML log back: well-formedness, version, schema, then the model. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/relaxng.h>
#include <libxml/tree.h>

#include "pvmmon/errors.h"
#include "pvmmon/log.h"
#include "../replay/replay.h"

/* The first libxml2 error of an operation, kept so the user sees one precise line. */
typedef struct first_error {
	int seen;
	int line;
	char msg[256];
} first_error;

static void capture(void *ctx, xmlErrorPtr e)
{
	first_error *fe = ctx;
	size_t n;

	if (fe->seen || !e)
		return;
	fe->seen = 1;
	fe->line = e->line;
	snprintf(fe->msg, sizeof(fe->msg), "%s", e->message ? e->message : "unknown error");
	n = strlen(fe->msg);
	while (n > 0 && (fe->msg[n - 1] == '\n' || fe->msg[n - 1] == ' '))
		fe->msg[--n] = '\0';
}

/* Parses path, or len bytes at data (named path) when data is given; every failure
 * becomes one line naming the file. */
static int parse(xmlDocPtr *out, const char *path, const char *data, size_t len)
{
	first_error fe = {0, 0, ""};
	struct stat st;
	xmlDocPtr doc;

	if (data) {
		xmlSetStructuredErrorFunc(&fe, capture);
		doc = xmlReadMemory(data, (int)len, path, NULL, XML_PARSE_NONET | XML_PARSE_NOBLANKS);
		xmlSetStructuredErrorFunc(NULL, NULL);
		goto parsed;
	}
	if (stat(path, &st) < 0) {
		if (errno == ENOENT)
			return pvmmon_error_set(PVMMON_ENOTFOUND, "%s: no such file", path);
		return pvmmon_error_set(PVMMON_EIO, "%s: cannot read: %s", path, strerror(errno));
	}
	if (S_ISDIR(st.st_mode))
		return pvmmon_error_set(PVMMON_EIO, "%s: is a folder, not a log file", path);
	if (access(path, R_OK) < 0)
		return pvmmon_error_set(PVMMON_EIO, "%s: cannot read: %s", path, strerror(errno));
	xmlSetStructuredErrorFunc(&fe, capture);
	doc = xmlReadFile(path, NULL, XML_PARSE_NONET | XML_PARSE_NOBLANKS);
	xmlSetStructuredErrorFunc(NULL, NULL);
parsed:
	if (!doc || fe.seen) {
		if (doc)
			xmlFreeDoc(doc);
		return pvmmon_error_set(PVMMON_EPARSE, "%s: not a well-formed XML file (line %d: %s)",
					path, fe.line, fe.seen ? fe.msg : "empty document");
	}
	*out = doc;
	return 0;
}

/* Checks the root and the format version before the schema, so that a log of a newer
 * format is reported as such and not as a schema mismatch. */
static int check_version(xmlDocPtr doc, const char *path)
{
	xmlNodePtr root = xmlDocGetRootElement(doc);
	xmlChar *v;
	int major = -1, rc = 0;

	if (!root || xmlStrcmp(root->name, BAD_CAST "pvmmon-log"))
		return pvmmon_error_set(PVMMON_ESCHEMA, "%s: not a pvmmon log (root element is <%s>)",
					path, root ? (const char *)root->name : "none");
	v = xmlGetProp(root, BAD_CAST "version");
	if (!v)
		return pvmmon_error_set(PVMMON_EVERSION, "%s: log has no format version", path);
	if (sscanf((const char *)v, "%d.", &major) != 1 || major != PVMMON_LOG_VERSION_MAJOR)
		rc = pvmmon_error_set(PVMMON_EVERSION,
				      "%s: log format version %s is not supported (this pvmmon reads %d.x)",
				      path, (const char *)v, PVMMON_LOG_VERSION_MAJOR);
	xmlFree(v);
	return rc;
}

static int check_schema(xmlDocPtr doc, const char *path)
{
	first_error fe = {0, 0, ""};
	const char *schema = pvmmon_log_schema();
	xmlRelaxNGParserCtxtPtr pctx;
	xmlRelaxNGPtr rng = NULL;
	xmlRelaxNGValidCtxtPtr vctx = NULL;
	int rc = 0, v;

	xmlSetStructuredErrorFunc(&fe, capture);
	pctx = xmlRelaxNGNewMemParserCtxt(schema, (int)strlen(schema));
	rng = pctx ? xmlRelaxNGParse(pctx) : NULL;
	if (pctx)
		xmlRelaxNGFreeParserCtxt(pctx);
	if (!rng) {
		rc = pvmmon_error_set(PVMMON_ERROR, "the built-in log schema does not load: %s",
				      fe.msg);
		goto out;
	}
	vctx = xmlRelaxNGNewValidCtxt(rng);
	if (!vctx) {
		rc = pvmmon_error_set(PVMMON_ENOMEM, "%s: out of memory validating", path);
		goto out;
	}
	xmlRelaxNGSetValidStructuredErrors(vctx, capture, &fe);
	v = xmlRelaxNGValidateDoc(vctx, doc);
	if (v != 0)
		rc = pvmmon_error_set(PVMMON_ESCHEMA, "%s: does not match the log schema (line %d: %s)",
				      path, fe.line, fe.seen ? fe.msg : "invalid");
out:
	xmlSetStructuredErrorFunc(NULL, NULL);
	if (vctx)
		xmlRelaxNGFreeValidCtxt(vctx);
	if (rng)
		xmlRelaxNGFree(rng);
	return rc;
}

static int load_checked(xmlDocPtr *out, const char *path, const char *data, size_t len)
{
	xmlDocPtr doc = NULL;
	int rc;

	if (!path)
		return pvmmon_error_set(PVMMON_EINVAL, "log: no file name");
	rc = parse(&doc, path, data, len);
	if (rc < 0)
		return rc;
	rc = check_version(doc, path);
	if (rc == 0)
		rc = check_schema(doc, path);
	if (rc < 0) {
		xmlFreeDoc(doc);
		return rc;
	}
	*out = doc;
	return 0;
}

int pvmmon_log_validate(const char *path)
{
	xmlDocPtr doc = NULL;
	int rc = load_checked(&doc, path, NULL, 0);

	if (rc == 0)
		xmlFreeDoc(doc);
	return rc;
}

/* Attribute accessors: the schema has already checked presence and types. */
static char *str_attr(xmlNodePtr n, const char *name)
{
	xmlChar *v = xmlGetProp(n, BAD_CAST name);
	char *s;

	if (!v)
		return NULL;
	s = strdup((const char *)v);
	xmlFree(v);
	return s;
}

static int64_t i64_attr(xmlNodePtr n, const char *name)
{
	xmlChar *v = xmlGetProp(n, BAD_CAST name);
	int64_t r = v ? strtoll((const char *)v, NULL, 0) : 0;

	xmlFree(v);
	return r;
}

static uint64_t u64_attr(xmlNodePtr n, const char *name)
{
	xmlChar *v = xmlGetProp(n, BAD_CAST name);
	uint64_t r = v ? strtoull((const char *)v, NULL, 0) : 0;

	xmlFree(v);
	return r;
}

static int is(xmlNodePtr n, const char *name)
{
	return n->type == XML_ELEMENT_NODE && !xmlStrcmp(n->name, BAD_CAST name);
}

static size_t count_children(xmlNodePtr parent, const char *name)
{
	size_t n = 0;

	for (xmlNodePtr c = parent->children; c; c = c->next)
		n += is(c, name);
	return n;
}

/* Allocates an array for the children of parent called name; 0 on success. */
static int alloc_for(void **arr, size_t *n, size_t size, xmlNodePtr parent, const char *name)
{
	*n = count_children(parent, name);
	*arr = NULL;
	if (*n == 0)
		return 0;
	*arr = calloc(*n, size);
	if (!*arr) {
		*n = 0;
		return pvmmon_error_set(PVMMON_ENOMEM, "out of memory reading the log");
	}
	return 0;
}

static int load_stmt(pvmmon_log_stmt *s, xmlNodePtr n)
{
	size_t k = 0;
	int rc;

	s->id = (uint32_t)u64_attr(n, "id");
	s->op = str_attr(n, "op");
	s->module = str_attr(n, "module");
	s->offset = u64_attr(n, "offset");
	s->file = str_attr(n, "file");
	s->line = (int32_t)i64_attr(n, "line");
	s->function = str_attr(n, "function");
	s->count = u64_attr(n, "count");
	s->time_ns = i64_attr(n, "time-ns");
	s->sync_ns = i64_attr(n, "sync-ns");
	s->trans_ns = i64_attr(n, "trans-ns");
	s->bytes = u64_attr(n, "bytes");
	s->unmonitored = u64_attr(n, "unmonitored");
	s->reordered = u64_attr(n, "reordered");
	s->held_ns = i64_attr(n, "held-ns");
	s->disabled = xmlHasProp(n, BAD_CAST "enabled") != NULL;
	rc = alloc_for((void **)&s->com, &s->ncom, sizeof(*s->com), n, "com");
	if (rc < 0)
		return rc;
	for (xmlNodePtr c = n->children; c; c = c->next) {
		pvmmon_log_com *m;

		if (!is(c, "com"))
			continue;
		m = &s->com[k++];
		m->partner_tid = (int32_t)i64_attr(c, "partner-tid");
		m->partner_lid = str_attr(c, "partner-lid");
		m->count = u64_attr(c, "count");
		m->bytes = u64_attr(c, "bytes");
		m->trans_ns = i64_attr(c, "trans-ns");
		m->sync_ns = i64_attr(c, "sync-ns");
	}
	return 0;
}

static pvmmon_task_status status_of(xmlNodePtr n)
{
	xmlChar *v = xmlGetProp(n, BAD_CAST "status");
	pvmmon_task_status s = PVMMON_TASK_RUNNING;

	if (v && !xmlStrcmp(v, BAD_CAST "exited"))
		s = PVMMON_TASK_EXITED;
	else if (v && !xmlStrcmp(v, BAD_CAST "crashed"))
		s = PVMMON_TASK_CRASHED;
	else if (v && !xmlStrcmp(v, BAD_CAST "killed"))
		s = PVMMON_TASK_KILLED;
	else if (v && !xmlStrcmp(v, BAD_CAST "stopped"))
		s = PVMMON_TASK_STOPPED;
	xmlFree(v);
	return s;
}

/* Reads up to n whitespace-separated integers of attribute name; returns how many. */
/* A double attribute the schema has checked; 0 when absent. */
static double dbl_attr(xmlNodePtr n, const char *name)
{
	xmlChar *v = xmlGetProp(n, BAD_CAST name);
	double d = v ? strtod((const char *)v, NULL) : 0;

	xmlFree(v);
	return d;
}

static int i64_list_attr(xmlNodePtr node, const char *name, int64_t *out, int n)
{
	xmlChar *v = xmlGetProp(node, BAD_CAST name);
	const char *p = (const char *)v;
	int k = 0;

	while (p && k < n) {
		char *end;
		long long x = strtoll(p, &end, 10);

		if (end == p)
			break;
		out[k++] = x;
		p = end;
	}
	xmlFree(v);
	return k;
}

static void load_event(pvmmon_log_event *e, xmlNodePtr c)
{
	xmlChar *op = xmlGetProp(c, BAD_CAST "op");
	int64_t vt[2] = {0, 0};

	e->op = pvmmon_event_op_parse((const char *)op);
	xmlFree(op);
	e->stmt = (uint32_t)u64_attr(c, "stmt");
	i64_list_attr(c, "rt", e->rt, 4);
	i64_list_attr(c, "vt", vt, 2);
	e->vt0 = vt[0];
	e->vt1 = vt[1];
	e->peer = (int32_t)i64_attr(c, "peer");
	e->tag = (int32_t)i64_attr(c, "tag");
	e->bytes = (uint32_t)u64_attr(c, "bytes");
	e->seq = xmlHasProp(c, BAD_CAST "seq") ? i64_attr(c, "seq") : -1;
	e->sync = i64_attr(c, "sync");
	e->trans = i64_attr(c, "trans");
	if (e->op == PVMMON_EV_ENTER || e->op == PVMMON_EV_EXIT || e->op == PVMMON_EV_CPSTART ||
	    e->op == PVMMON_EV_CPSTOP)
		e->tag = (int32_t)i64_attr(c, "proc");
}

/* Splits the space-separated logical ids of a record's senders attribute. */
static int load_senders(pvmmon_log_task *t, xmlNodePtr c)
{
	xmlChar *v = xmlGetProp(c, BAD_CAST "senders");
	char *copy = v ? strdup((const char *)v) : NULL, *save = NULL, *tok;
	size_t n = 0;
	int rc = 0;

	xmlFree(v);
	if (!copy)
		return 0;
	/* The schema's list allows any XML whitespace between ids. */
	for (const char *p = copy; *p; p++)
		n += (p == copy || strchr(" \t\n\r", p[-1])) && !strchr(" \t\n\r", *p);
	if (n) {
		t->record_senders = calloc(n, sizeof(char *));
		if (!t->record_senders) {
			rc = pvmmon_error_set(PVMMON_ENOMEM, "out of memory reading the log");
			goto out;
		}
	}
	for (tok = strtok_r(copy, " \t\n\r", &save); tok && t->record_nsenders < n;
	     tok = strtok_r(NULL, " \t\n\r", &save)) {
		t->record_senders[t->record_nsenders] = strdup(tok);
		if (!t->record_senders[t->record_nsenders]) {
			rc = pvmmon_error_set(PVMMON_ENOMEM, "out of memory reading the log");
			goto out;
		}
		t->record_nsenders++;
	}
out:
	free(copy);
	return rc;
}

/*
 * Loads a task's replay record and checks it against its byte count, hash and entry
 * count, so that a record damaged in the file (or pasted from another run) is refused
 * here, with the task named, rather than misleading a replay.
 */
static int load_record(pvmmon_log_task *t, xmlNodePtr c, const char *path)
{
	xmlChar *content = xmlNodeGetContent(c);
	xmlChar *hash_text = xmlGetProp(c, BAD_CAST "hash");
	const char *lid = t->lid ? t->lid : "?";
	const char *what = NULL;
	char *text = NULL;
	uint64_t want_bytes = u64_attr(c, "bytes"), entries = 0;
	size_t k = 0;
	int rc;

	t->record_entries = u64_attr(c, "entries");
	rc = load_senders(t, c);
	if (rc < 0)
		goto out;
	/* Whitespace is no part of base64: it may come from an editor or pretty-printer. */
	text = strdup(content ? (const char *)content : "");
	if (!text) {
		rc = pvmmon_error_set(PVMMON_ENOMEM, "out of memory reading the log");
		goto out;
	}
	for (const char *p = text; *p; p++)
		if (*p != ' ' && *p != '\t' && *p != '\n' && *p != '\r')
			text[k++] = *p;
	text[k] = '\0';
	rc = replay__b64_decode(text, &t->record, &t->record_len);
	if (rc == PVMMON_ENOMEM)
		goto out;
	if (rc < 0)
		what = "bad base64";
	else if (t->record_len != want_bytes)
		what = "byte count mismatch";
	else if (!hash_text ||
		 strtoull((const char *)hash_text, NULL, 16) != replay__hash(t->record, t->record_len))
		what = "hash mismatch";
	else if (replay__check(t->record, t->record_len, t->record_nsenders, &entries) < 0)
		what = "undecodable";
	else if (entries != t->record_entries)
		what = "entry count mismatch";
	if (what)
		rc = pvmmon_error_set(PVMMON_EPARSE, "%s: task %s: replay record damaged (%s)", path,
				      lid, what);
out:
	free(text);
	xmlFree(content);
	xmlFree(hash_text);
	return rc;
}

static int load_task(pvmmon_log_task *t, xmlNodePtr n, const char *path)
{
	size_t is_ = 0, ip = 0, il = 0, ie = 0, iv = 0;
	int rc;

	t->tid = (int32_t)i64_attr(n, "tid");
	t->lid = str_attr(n, "lid");
	t->parent_tid = (int32_t)i64_attr(n, "parent-tid");
	t->host = str_attr(n, "host");
	t->pid = (int32_t)i64_attr(n, "pid");
	t->program = str_attr(n, "program");
	t->status = status_of(n);
	{
		char *sig = str_attr(n, "signal");

		t->signal = pvmmon_signal_number(sig);
		free(sig);
	}
	t->last_stmt = (uint32_t)u64_attr(n, "last-stmt");
	t->ended = str_attr(n, "ended");
	t->start_ns = i64_attr(n, "start-ns");
	t->end_ns = i64_attr(n, "end-ns");
	t->virtual_ns = i64_attr(n, "virtual-ns");
	t->intrusion_ns = i64_attr(n, "intrusion-ns");
	/* Raw and local times are optional: logs before version 1.2 have virtual times
	 * only. */
	t->has_raw = xmlHasProp(n, BAD_CAST "raw-ns") != NULL;
	t->raw_ns = i64_attr(n, "raw-ns");
	t->local_ns = i64_attr(n, "local-ns");
	/* Since 1.4; 0 (unknown) in older logs. */
	t->uncertainty_ns = i64_attr(n, "uncertainty-ns");
	t->clamped_ns = i64_attr(n, "clamped-ns");
	t->flushes = u64_attr(n, "flushes");
	t->msgs_sent = u64_attr(n, "msgs-sent");
	t->msgs_recv = u64_attr(n, "msgs-recv");
	t->bytes_sent = u64_attr(n, "bytes-sent");
	t->bytes_recv = u64_attr(n, "bytes-recv");
	t->unmonitored_recv = u64_attr(n, "unmonitored-recv");
	t->bad_piggybacks = u64_attr(n, "bad-piggybacks");
	t->waiting = str_attr(n, "waiting");
	if ((rc = alloc_for((void **)&t->statics, &t->nstatics, sizeof(*t->statics), n,
			    "static")) < 0 ||
	    (rc = alloc_for((void **)&t->stmts, &t->nstmts, sizeof(*t->stmts), n, "stmt")) < 0 ||
	    (rc = alloc_for((void **)&t->procs, &t->nprocs, sizeof(*t->procs), n, "proc")) < 0 ||
	    (rc = alloc_for((void **)&t->loops, &t->nloops, sizeof(*t->loops), n, "loop")) < 0 ||
	    (rc = alloc_for((void **)&t->events, &t->nevents, sizeof(*t->events), n, "ev")) < 0)
		return rc;
	for (xmlNodePtr c = n->children; c; c = c->next) {
		if (is(c, "stmt")) {
			rc = load_stmt(&t->stmts[is_++], c);
			if (rc < 0)
				return rc;
		} else if (is(c, "proc")) {
			pvmmon_log_proc *p = &t->procs[ip++];

			p->name = str_attr(c, "name");
			p->file = str_attr(c, "file");
			p->line = (int32_t)i64_attr(c, "line");
			p->caller = str_attr(c, "caller");
			p->call_line = (int32_t)i64_attr(c, "call-line");
			p->count = u64_attr(c, "count");
			p->incl_ns = i64_attr(c, "incl-ns");
			p->excl_ns = i64_attr(c, "excl-ns");
			p->raw_incl_ns = i64_attr(c, "raw-incl-ns");
			p->raw_excl_ns = i64_attr(c, "raw-excl-ns");
			p->local_incl_ns = i64_attr(c, "local-incl-ns");
			p->local_excl_ns = i64_attr(c, "local-excl-ns");
			p->counted = xmlHasProp(c, BAD_CAST "timed") != NULL;
			p->disabled = xmlHasProp(c, BAD_CAST "enabled") != NULL;
			p->throttled_at_ns = i64_attr(c, "throttled-at-ns");
			p->throttle_call_ns = i64_attr(c, "throttle-call-ns");
			p->throttle_pair_ns = i64_attr(c, "throttle-pair-ns");
		} else if (is(c, "cost")) {
			t->cost.known = 1;
			t->cost.proc_pair_ns = i64_attr(c, "proc-pair-ns");
			t->cost.loop_pair_ns = i64_attr(c, "loop-pair-ns");
			t->cost.wrapper_ns = i64_attr(c, "wrapper-ns");
			t->cost.pb_send_ns = i64_attr(c, "pb-send-ns");
			t->cost.pb_recv_ns = i64_attr(c, "pb-recv-ns");
			t->cost.wrapped_calls = u64_attr(c, "wrapped-calls");
			t->cost.observed_ns = i64_attr(c, "observed-ns");
			t->cost.predicted_ns = i64_attr(c, "predicted-ns");
			t->cost.site_on_ps = i64_attr(c, "site-on-ps");
			t->cost.site_off_ps = i64_attr(c, "site-off-ps");
			t->cost.static_ns = i64_attr(c, "static-ns");
		} else if (is(c, "static")) {
			pvmmon_log_static *e = &t->statics[ie++];
			xmlChar *k = xmlGetProp(c, BAD_CAST "kind");

			e->kind = pvmmon_static_kind_parse((const char *)k);
			xmlFree(k);
			e->name = str_attr(c, "name");
			e->file = str_attr(c, "file");
			e->line = (int32_t)i64_attr(c, "line");
			e->parent = xmlHasProp(c, BAD_CAST "parent") ? (int32_t)i64_attr(c, "parent")
								      : -1;
		} else if (is(c, "ev")) {
			load_event(&t->events[iv++], c);
		} else if (is(c, "record")) {
			rc = load_record(t, c, path);
			if (rc < 0)
				return rc;
		} else if (is(c, "loop")) {
			pvmmon_log_loop *l = &t->loops[il++];

			l->name = str_attr(c, "name");
			l->file = str_attr(c, "file");
			l->line = (int32_t)i64_attr(c, "line");
			l->proc = str_attr(c, "proc");
			l->count = u64_attr(c, "count");
			l->time_ns = i64_attr(c, "time-ns");
			l->disabled = xmlHasProp(c, BAD_CAST "enabled") != NULL;
			l->raw_ns = i64_attr(c, "raw-ns");
			l->local_ns = i64_attr(c, "local-ns");
			l->throttled_at_ns = i64_attr(c, "throttled-at-ns");
			l->throttle_call_ns = i64_attr(c, "throttle-call-ns");
			l->throttle_pair_ns = i64_attr(c, "throttle-pair-ns");
		}
	}
	return 0;
}

static int load_run(pvmmon_log *log, xmlNodePtr n)
{
	size_t k = 0;
	int rc;

	log->program = str_attr(n, "program");
	log->mode = str_attr(n, "mode");
	log->started = str_attr(n, "started");
	log->wall_ns = i64_attr(n, "wall-ns");
	log->exit_code = (int32_t)i64_attr(n, "exit-code");
	{
		xmlChar *r = xmlGetProp(n, BAD_CAST "replayable");

		log->replayable = r && !xmlStrcmp(r, BAD_CAST "yes");
		xmlFree(r);
	}
	rc = alloc_for((void **)&log->args, &log->nargs, sizeof(char *), n, "arg");
	if (rc < 0)
		return rc;
	for (xmlNodePtr c = n->children; c; c = c->next)
		if (is(c, "arg")) {
			xmlChar *v = xmlNodeGetContent(c);

			log->args[k++] = strdup(v ? (const char *)v : "");
			xmlFree(v);
		}
	return 0;
}

static int load(pvmmon_log *log, xmlNodePtr root, const char *path)
{
	xmlChar *v = xmlGetProp(root, BAD_CAST "version");
	int rc = 0;

	if (v) {
		sscanf((const char *)v, "%d.%d", &log->version_major, &log->version_minor);
		xmlFree(v);
	}
	log->tool_version = str_attr(root, "tool-version");
	for (xmlNodePtr n = root->children; n && rc == 0; n = n->next) {
		size_t k = 0;

		if (is(n, "run")) {
			rc = load_run(log, n);
		} else if (is(n, "settings")) {
			rc = alloc_for((void **)&log->settings, &log->nsettings,
				       sizeof(*log->settings), n, "setting");
			for (xmlNodePtr c = n->children; c && rc == 0; c = c->next)
				if (is(c, "setting")) {
					log->settings[k].key = str_attr(c, "key");
					log->settings[k++].value = str_attr(c, "value");
				}
		} else if (is(n, "hosts")) {
			rc = alloc_for((void **)&log->hosts, &log->nhosts, sizeof(*log->hosts), n,
				       "host");
			for (xmlNodePtr c = n->children; c && rc == 0; c = c->next)
				if (is(c, "host")) {
					log->hosts[k].name = str_attr(c, "name");
					log->hosts[k].arch = str_attr(c, "arch");
					log->hosts[k].dtid = (int32_t)i64_attr(c, "dtid");
					if (xmlHasProp(c, BAD_CAST "clock-offset-ns")) {
						log->hosts[k].clock_known = 1;
						log->hosts[k].clock_offset_ns =
						    i64_attr(c, "clock-offset-ns");
						log->hosts[k].clock_uncertainty_ns =
						    i64_attr(c, "clock-uncertainty-ns");
					}
					if (xmlHasProp(c, BAD_CAST "clock-estimates")) {
						log->hosts[k].clock_at_ns =
						    i64_attr(c, "clock-at-ns");
						log->hosts[k].clock_drift_ppb =
						    i64_attr(c, "clock-drift-ppb");
						log->hosts[k].clock_estimates =
						    (uint32_t)i64_attr(c, "clock-estimates");
					}
					k++;
				}
		} else if (is(n, "tasks")) {
			rc = alloc_for((void **)&log->tasks, &log->ntasks, sizeof(*log->tasks), n,
				       "task");
			for (xmlNodePtr c = n->children; c && rc == 0; c = c->next)
				if (is(c, "task"))
					rc = load_task(&log->tasks[k++], c, path);
		} else if (is(n, "critical-path")) {
			xmlChar *m = xmlGetProp(n, BAD_CAST "mode");

			log->cp.enabled = 1;
			log->cp.exclusive = m && !xmlStrcmp(m, BAD_CAST "exclusive");
			xmlFree(m);
			log->cp.length_ns = i64_attr(n, "length-ns");
			log->cp.end_tid = (int32_t)i64_attr(n, "end-tid");
			log->cp.samples = u64_attr(n, "samples");
			log->cp.generation = (uint32_t)u64_attr(n, "generation");
			m = xmlGetProp(n, BAD_CAST "collecting");
			log->cp.collecting = m && !xmlStrcmp(m, BAD_CAST "yes");
			xmlFree(m);
			log->cp.from_ns = i64_attr(n, "from-ns");
			log->cp.to_ns = xmlHasProp(n, BAD_CAST "to-ns") ? i64_attr(n, "to-ns") : -1;
			log->cp.top_m = (uint32_t)u64_attr(n, "top-m");
			log->cp.phases = (uint32_t)u64_attr(n, "phases");
			log->cp.found = str_attr(n, "found");
			rc = alloc_for((void **)&log->cp.procs, &log->cp.nprocs, sizeof(*log->cp.procs),
				       n, "cp-proc");
			for (xmlNodePtr c = n->children; c && rc == 0; c = c->next)
				if (is(c, "cp-proc")) {
					log->cp.procs[k].name = str_attr(c, "name");
					log->cp.procs[k].share_ns = i64_attr(c, "share-ns");
					log->cp.procs[k++].zero_ns = i64_attr(c, "zero-ns");
				}
		} else if (is(n, "instrumentation")) {
			log->budget_pct = xmlHasProp(n, BAD_CAST "budget-pct") ? dbl_attr(n, "budget-pct")
									   : 0;
			rc = alloc_for((void **)&log->switches, &log->nswitches,
				       sizeof(*log->switches), n, "switch");
			for (xmlNodePtr c = n->children; c && rc == 0; c = c->next)
				if (is(c, "switch")) {
					pvmmon_log_switch *w = &log->switches[k++];
					xmlChar *a = xmlGetProp(c, BAD_CAST "action");

					w->time_ns = i64_attr(c, "time-ns");
					w->on = a && !xmlStrcmp(a, BAD_CAST "enable");
					xmlFree(a);
					w->resource = str_attr(c, "resource");
					w->by = str_attr(c, "by");
					w->reason = str_attr(c, "reason");
				}
		} else if (is(n, "hangs")) {
			rc = alloc_for((void **)&log->hangs, &log->nhangs, sizeof(*log->hangs), n,
				       "hang");
			for (xmlNodePtr c = n->children; c && rc == 0; c = c->next)
				if (is(c, "hang")) {
					log->hangs[k].kind = str_attr(c, "kind");
					log->hangs[k].text = str_attr(c, "text");
					log->hangs[k++].delay_ns = i64_attr(c, "delay-ns");
				}
		} else if (is(n, "trace")) {
			log->trace.enabled = 1;
			log->trace.limit_bytes = u64_attr(n, "limit-bytes");
			log->trace.kept = u64_attr(n, "kept");
			log->trace.dropped = u64_attr(n, "dropped");
			log->trace.complete_until_ns = i64_attr(n, "complete-until-ns");
		}
	}
	return rc;
}

static int read_any(pvmmon_log **out, const char *path, const char *data, size_t len)
{
	xmlDocPtr doc = NULL;
	pvmmon_log *log = NULL;
	int rc;

	rc = load_checked(&doc, path, data, len);
	if (rc < 0)
		return rc;
	rc = pvmmon_log_new(&log);
	if (rc < 0)
		goto out;
	rc = load(log, xmlDocGetRootElement(doc), path);
	if (rc < 0) {
		pvmmon_log_free(log);
		log = NULL;
		goto out;
	}
	*out = log;
out:
	xmlFreeDoc(doc);
	return rc;
}

int pvmmon_log_read(pvmmon_log **out, const char *path)
{
	return read_any(out, path, NULL, 0);
}

int pvmmon_log_parse(pvmmon_log **out, const char *data, size_t len, const char *name)
{
	if (!data)
		return pvmmon_error_set(PVMMON_EINVAL, "%s: no data", name ? name : "log");
	return read_any(out, name ? name : "log", data, len);
}
