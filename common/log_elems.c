/* The log's elements as the reader builds the model from them: one table entry per
 * element (its parent, its handlers) and one field table per element's attributes. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../replay/replay.h"
#include "log_bind.h"
#include "log_elems.h"
#include "pvmmon/errors.h"
#include "pvmmon/log.h"

#define F(T, member, name, type)                                                                   \
	{                                                                                          \
		name, type, offsetof(T, member), 0, NULL                                           \
	}
#define FN(T, member, name, fn)                                                                    \
	{                                                                                          \
		name, LOG_F_FN, offsetof(T, member), 0, fn                                         \
	}

/* The open task, statement: the last ones appended (their children come before the
 * next one starts). */
static pvmmon_log_task *task(log_rd *r) { return &r->log->tasks[r->log->ntasks - 1]; }

static pvmmon_log_stmt *stmt(log_rd *r)
{
	pvmmon_log_task *t = task(r);

	return &t->stmts[t->nstmts - 1];
}

/* Pushes a zeroed element onto a model array and binds its attributes. */
#define PUSH_BIND(r, arr, n, fields)                                                               \
	do {                                                                                       \
		void *e_ = log__push((void **)&(arr), &(n), sizeof(*(arr)));                       \
		if (!e_)                                                                           \
			return PVMMON_ENOMEM;                                                      \
		return log__bind(r, e_, LOG_FIELDS(fields));                                       \
	} while (0)

/* Value conversions the field tables name. */
static void is_yes(const char *v, void *f) { *(int *)f = !strcmp(v, "yes"); }
static void is_exclusive(const char *v, void *f) { *(int *)f = !strcmp(v, "exclusive"); }
static void is_enable(const char *v, void *f) { *(int *)f = !strcmp(v, "enable"); }
static void signal_of(const char *v, void *f) { *(int32_t *)f = pvmmon_signal_number(v); }

static void static_kind(const char *v, void *f)
{
	*(pvmmon_static_kind *)f = pvmmon_static_kind_parse(v);
}

static void event_op(const char *v, void *f) { *(pvmmon_event_op *)f = pvmmon_event_op_parse(v); }

static void status_of(const char *v, void *f)
{
	pvmmon_task_status s = PVMMON_TASK_RUNNING;

	if (!strcmp(v, "exited"))
		s = PVMMON_TASK_EXITED;
	else if (!strcmp(v, "crashed"))
		s = PVMMON_TASK_CRASHED;
	else if (!strcmp(v, "killed"))
		s = PVMMON_TASK_KILLED;
	else if (!strcmp(v, "stopped"))
		s = PVMMON_TASK_STOPPED;
	else if (!strcmp(v, "exited-without-pvm-exit"))
		s = PVMMON_TASK_NOEXIT;
	*(pvmmon_task_status *)f = s;
}

/* <pvmmon-log>, <run> and its <arg>s, <settings>, <hosts>. */
static int root_start(log_rd *r)
{
	static const log_field f[] = {
	    F(pvmmon_log, tool_version, "tool-version", LOG_F_STR),
	};
	xmlChar *v = xmlGetProp(r->node, BAD_CAST "version");

	/* The reader has checked that it is there, with a major version it reads. */
	if (v)
		sscanf((const char *)v, "%d.%d", &r->log->version_major, &r->log->version_minor);
	xmlFree(v);
	return log__bind(r, r->log, LOG_FIELDS(f));
}

static int run_start(log_rd *r)
{
	static const log_field f[] = {
	    F(pvmmon_log, program, "program", LOG_F_STR),
	    F(pvmmon_log, mode, "mode", LOG_F_STR),
	    F(pvmmon_log, started, "started", LOG_F_STR),
	    F(pvmmon_log, wall_ns, "wall-ns", LOG_F_I64),
	    F(pvmmon_log, exit_code, "exit-code", LOG_F_I32),
	    FN(pvmmon_log, replayable, "replayable", is_yes),
	};

	return log__bind(r, r->log, LOG_FIELDS(f));
}

static int arg_end(log_rd *r)
{
	char **a = log__push((void **)&r->log->args, &r->log->nargs, sizeof(char *));

	if (!a || !(*a = strdup(r->text)))
		return pvmmon_error_set(PVMMON_ENOMEM, "out of memory reading the log");
	return 0;
}

static int setting_start(log_rd *r)
{
	static const log_field f[] = {
	    F(pvmmon_log_setting, key, "key", LOG_F_STR),
	    F(pvmmon_log_setting, value, "value", LOG_F_STR),
	};

	PUSH_BIND(r, r->log->settings, r->log->nsettings, f);
}

static int host_start(log_rd *r)
{
	static const log_field f[] = {
	    F(pvmmon_log_host, name, "name", LOG_F_STR),
	    F(pvmmon_log_host, arch, "arch", LOG_F_STR),
	    F(pvmmon_log_host, dtid, "dtid", LOG_F_I32),
	    F(pvmmon_log_host, clock_known, "clock-offset-ns", LOG_F_HAS),
	    F(pvmmon_log_host, clock_offset_ns, "clock-offset-ns", LOG_F_I64),
	    F(pvmmon_log_host, clock_uncertainty_ns, "clock-uncertainty-ns", LOG_F_I64),
	    F(pvmmon_log_host, clock_at_ns, "clock-at-ns", LOG_F_I64),
	    F(pvmmon_log_host, clock_drift_ppb, "clock-drift-ppb", LOG_F_I64),
	    F(pvmmon_log_host, clock_estimates, "clock-estimates", LOG_F_U32),
	};

	PUSH_BIND(r, r->log->hosts, r->log->nhosts, f);
}

/* A record's attributes read as its list's kinds say (common/log_task_fields.def,
 * log_stmt_fields.def): T's member m from attribute x. */
#define READ_I32(T, m, x) F(T, m, x, LOG_F_I32)
#define READ_U32(T, m, x) F(T, m, x, LOG_F_U32)
#define READ_I64(T, m, x) F(T, m, x, LOG_F_I64)
#define READ_U64(T, m, x) F(T, m, x, LOG_F_U64)
#define READ_HEX64(T, m, x) F(T, m, x, LOG_F_U64)
#define READ_STR(T, m, x) F(T, m, x, LOG_F_STR)
#define READ_CLOCK(T, m, x) F(T, m, x, LOG_F_STR)
#define READ_HAS(T, m, x) F(T, m, x, LOG_F_HAS)
#define READ_OFF(T, m, x) F(T, m, x, LOG_F_HAS)
#define READ_STATUS(T, m, x) FN(T, m, x, status_of)
#define READ_SIGNAL(T, m, x) FN(T, m, x, signal_of)

/* <task> and its children. */
static int task_start(log_rd *r)
{
	static const log_field f[] = {
#define TASK_FIELD(member, kind, wire, xml, when, col, column, monitor)                            \
	READ_##kind(pvmmon_log_task, member, xml),
#include "log_task_fields.def"
#undef TASK_FIELD
	};

	PUSH_BIND(r, r->log->tasks, r->log->ntasks, f);
}

static int stmt_start(log_rd *r)
{
	static const log_field f[] = {
#define STMT_FIELD(member, kind, wire, xml, when, col, column)                                     \
	READ_##kind(pvmmon_log_stmt, member, xml),
#include "log_stmt_fields.def"
#undef STMT_FIELD
	};
	pvmmon_log_task *t = task(r);

	PUSH_BIND(r, t->stmts, t->nstmts, f);
}

static int com_start(log_rd *r)
{
	static const log_field f[] = {
	    F(pvmmon_log_com, partner_tid, "partner-tid", LOG_F_I32),
	    F(pvmmon_log_com, partner_lid, "partner-lid", LOG_F_STR),
	    F(pvmmon_log_com, count, "count", LOG_F_U64),
	    F(pvmmon_log_com, bytes, "bytes", LOG_F_U64),
	    F(pvmmon_log_com, trans_ns, "trans-ns", LOG_F_I64),
	    F(pvmmon_log_com, sync_ns, "sync-ns", LOG_F_I64),
	};
	pvmmon_log_stmt *s = stmt(r);

	PUSH_BIND(r, s->com, s->ncom, f);
}

static int proc_start(log_rd *r)
{
	static const log_field f[] = {
	    F(pvmmon_log_proc, name, "name", LOG_F_STR),
	    F(pvmmon_log_proc, file, "file", LOG_F_STR),
	    F(pvmmon_log_proc, line, "line", LOG_F_I32),
	    F(pvmmon_log_proc, caller, "caller", LOG_F_STR),
	    F(pvmmon_log_proc, call_line, "call-line", LOG_F_I32),
	    F(pvmmon_log_proc, count, "count", LOG_F_U64),
	    F(pvmmon_log_proc, incl_ns, "incl-ns", LOG_F_I64),
	    F(pvmmon_log_proc, excl_ns, "excl-ns", LOG_F_I64),
	    F(pvmmon_log_proc, raw_incl_ns, "raw-incl-ns", LOG_F_I64),
	    F(pvmmon_log_proc, raw_excl_ns, "raw-excl-ns", LOG_F_I64),
	    F(pvmmon_log_proc, local_incl_ns, "local-incl-ns", LOG_F_I64),
	    F(pvmmon_log_proc, local_excl_ns, "local-excl-ns", LOG_F_I64),
	    F(pvmmon_log_proc, counted, "timed", LOG_F_HAS),
	    F(pvmmon_log_proc, disabled, "enabled", LOG_F_HAS),
	    F(pvmmon_log_proc, throttled_at_ns, "throttled-at-ns", LOG_F_I64),
	    F(pvmmon_log_proc, throttle_call_ns, "throttle-call-ns", LOG_F_I64),
	    F(pvmmon_log_proc, throttle_pair_ns, "throttle-pair-ns", LOG_F_I64),
	};
	pvmmon_log_task *t = task(r);

	PUSH_BIND(r, t->procs, t->nprocs, f);
}

static int loop_start(log_rd *r)
{
	static const log_field f[] = {
	    F(pvmmon_log_loop, name, "name", LOG_F_STR),
	    F(pvmmon_log_loop, file, "file", LOG_F_STR),
	    F(pvmmon_log_loop, line, "line", LOG_F_I32),
	    F(pvmmon_log_loop, proc, "proc", LOG_F_STR),
	    F(pvmmon_log_loop, count, "count", LOG_F_U64),
	    F(pvmmon_log_loop, time_ns, "time-ns", LOG_F_I64),
	    F(pvmmon_log_loop, disabled, "enabled", LOG_F_HAS),
	    F(pvmmon_log_loop, raw_ns, "raw-ns", LOG_F_I64),
	    F(pvmmon_log_loop, local_ns, "local-ns", LOG_F_I64),
	    F(pvmmon_log_loop, throttled_at_ns, "throttled-at-ns", LOG_F_I64),
	    F(pvmmon_log_loop, throttle_call_ns, "throttle-call-ns", LOG_F_I64),
	    F(pvmmon_log_loop, throttle_pair_ns, "throttle-pair-ns", LOG_F_I64),
	};
	pvmmon_log_task *t = task(r);

	PUSH_BIND(r, t->loops, t->nloops, f);
}

static int cost_start(log_rd *r)
{
	static const log_field f[] = {
	    F(pvmmon_log_cost, proc_pair_ns, "proc-pair-ns", LOG_F_I64),
	    F(pvmmon_log_cost, loop_pair_ns, "loop-pair-ns", LOG_F_I64),
	    F(pvmmon_log_cost, wrapper_ns, "wrapper-ns", LOG_F_I64),
	    F(pvmmon_log_cost, pb_send_ns, "pb-send-ns", LOG_F_I64),
	    F(pvmmon_log_cost, pb_recv_ns, "pb-recv-ns", LOG_F_I64),
	    F(pvmmon_log_cost, wrapped_calls, "wrapped-calls", LOG_F_U64),
	    F(pvmmon_log_cost, observed_ns, "observed-ns", LOG_F_I64),
	    F(pvmmon_log_cost, predicted_ns, "predicted-ns", LOG_F_I64),
	    F(pvmmon_log_cost, site_on_ps, "site-on-ps", LOG_F_I64),
	    F(pvmmon_log_cost, site_off_ps, "site-off-ps", LOG_F_I64),
	    F(pvmmon_log_cost, static_ns, "static-ns", LOG_F_I64),
	    /* Since 1.7: the calibration's re-checks. */
	    F(pvmmon_log_cost, rechecks, "rechecks", LOG_F_U32),
	    F(pvmmon_log_cost, recheck_min_ns, "recheck-min-ns", LOG_F_I64),
	    F(pvmmon_log_cost, recheck_max_ns, "recheck-max-ns", LOG_F_I64),
	    /* Since 1.8: the task whose calibration this one took. */
	    F(pvmmon_log_cost, calibrated_by, "calibrated-by", LOG_F_I32),
	};
	pvmmon_log_task *t = task(r);

	t->cost.known = 1;
	return log__bind(r, &t->cost, LOG_FIELDS(f));
}

static int static_start(log_rd *r)
{
	static const log_field f[] = {
	    FN(pvmmon_log_static, kind, "kind", static_kind),
	    F(pvmmon_log_static, name, "name", LOG_F_STR),
	    F(pvmmon_log_static, file, "file", LOG_F_STR),
	    F(pvmmon_log_static, line, "line", LOG_F_I32),
	    F(pvmmon_log_static, parent, "parent", LOG_F_I32),
	};
	pvmmon_log_task *t = task(r);
	pvmmon_log_static *e = log__push((void **)&t->statics, &t->nstatics, sizeof(*e));

	if (!e)
		return PVMMON_ENOMEM;
	e->parent = -1; /* none unless said */
	return log__bind(r, e, LOG_FIELDS(f));
}

/* An event as written: its times as lists, and the procedure of enter and exit. */
typedef struct ev_in {
	pvmmon_log_event e;
	int64_t vt[2];
	int64_t want[2];
	int32_t proc;
} ev_in;

static int ev_start(log_rd *r)
{
	static const log_field f[] = {
	    FN(ev_in, e.op, "op", event_op),
	    F(ev_in, e.stmt, "stmt", LOG_F_U32),
	    {"rt", LOG_F_LIST, offsetof(ev_in, e.rt), 4, NULL},
	    {"vt", LOG_F_LIST, offsetof(ev_in, vt), 2, NULL},
	    F(ev_in, e.peer, "peer", LOG_F_I32),
	    F(ev_in, e.tag, "tag", LOG_F_I32),
	    F(ev_in, e.bytes, "bytes", LOG_F_U32),
	    F(ev_in, e.seq, "seq", LOG_F_I64),
	    F(ev_in, e.sync, "sync", LOG_F_I64),
	    F(ev_in, e.trans, "trans", LOG_F_I64),
	    F(ev_in, proc, "proc", LOG_F_I32),
	    {"want", LOG_F_LIST, offsetof(ev_in, want), 2, NULL},
	};
	pvmmon_log_task *t = task(r);
	ev_in in = {.e = {.seq = -1}, .want = {INT64_MIN, INT64_MIN}};
	pvmmon_log_event *e;
	int rc = log__bind(r, &in, LOG_FIELDS(f));

	if (rc < 0)
		return rc;
	e = log__push((void **)&t->events, &t->nevents, sizeof(*e));
	if (!e)
		return PVMMON_ENOMEM;
	*e = in.e;
	e->vt0 = in.vt[0];
	e->vt1 = in.vt[1];
	/* The schema has checked that both are ints. */
	if (in.want[0] != INT64_MIN && in.want[1] != INT64_MIN) {
		e->nd = 1;
		e->want_peer = (int32_t)in.want[0];
		e->want_tag = (int32_t)in.want[1];
	}
	/* Procedure entries and exits, critical-path starts and stops keep their
	 * procedure (or selection) in tag. */
	if (e->op == PVMMON_EV_ENTER || e->op == PVMMON_EV_EXIT || e->op == PVMMON_EV_CPSTART ||
	    e->op == PVMMON_EV_CPSTOP)
		e->tag = in.proc;
	return 0;
}

typedef struct record_in {
	uint64_t entries, bytes;
	char *hash;
	char *senders;
} record_in;

/* Splits the space-separated logical ids of a record's senders attribute. */
static int split_senders(pvmmon_log_task *t, const char *list)
{
	const char *p = list;

	/* The schema's list allows any XML whitespace between ids. */
	while (*p) {
		size_t n;
		char **s;

		p += strspn(p, " \t\n\r");
		n = strcspn(p, " \t\n\r");
		if (!n)
			break;
		s = log__push((void **)&t->record_senders, &t->record_nsenders, sizeof(char *));
		if (!s || !(*s = strndup(p, n)))
			return pvmmon_error_set(PVMMON_ENOMEM, "out of memory reading the log");
		p += n;
	}
	return 0;
}

static int record_start(log_rd *r)
{
	static const log_field f[] = {
	    F(record_in, entries, "entries", LOG_F_U64),
	    F(record_in, bytes, "bytes", LOG_F_U64),
	    F(record_in, hash, "hash", LOG_F_STR),
	    F(record_in, senders, "senders", LOG_F_STR),
	};
	pvmmon_log_task *t = task(r);
	record_in in = {0};
	int rc = log__bind(r, &in, LOG_FIELDS(f));

	t->record_entries = in.entries;
	r->rec_bytes = in.bytes;
	free(r->rec_hash);
	r->rec_hash = in.hash;
	if (rc == 0 && in.senders)
		rc = split_senders(t, in.senders);
	free(in.senders);
	return rc;
}

/*
 * Decodes a task's replay record and checks it against its byte count, hash and entry
 * count, so that a record damaged in the file (or pasted from another run) is refused
 * here, with the task named, rather than misleading a replay.
 */
static int record_end(log_rd *r)
{
	pvmmon_log_task *t = task(r);
	const char *what = NULL;
	uint64_t entries = 0;
	size_t k = 0;
	int rc;

	/* Whitespace is no part of base64: it may come from an editor or pretty-printer. */
	for (const char *p = r->text; *p; p++)
		if (*p != ' ' && *p != '\t' && *p != '\n' && *p != '\r')
			r->text[k++] = *p;
	r->text[k] = '\0';
	rc = replay__b64_decode(r->text, &t->record, &t->record_len);
	if (rc == PVMMON_ENOMEM)
		return rc;
	if (rc < 0)
		what = "bad base64";
	else if (t->record_len != r->rec_bytes)
		what = "byte count mismatch";
	else if (!r->rec_hash ||
	         strtoull(r->rec_hash, NULL, 16) != replay__hash(t->record, t->record_len))
		what = "hash mismatch";
	else if (replay__check(t->record, t->record_len, t->record_nsenders, &entries) < 0)
		what = "undecodable";
	else if (entries != t->record_entries)
		what = "entry count mismatch";
	if (what)
		return pvmmon_error_set(PVMMON_EPARSE, "%s: task %s: replay record damaged (%s)",
		                        r->path, t->lid ? t->lid : "?", what);
	return 0;
}

/* Time histograms (log 1.6): a task's own (task, procedure, loop and statement foci)
 * and the run's merged ones (program and host), in <histograms> with the settings. */
static void hist_metric(const char *v, void *f)
{
	*(pvmmon_hist_metric *)f = pvmmon_hist_metric_parse(v);
}

static void hist_focus(const char *v, void *f)
{
	*(pvmmon_hist_focus *)f = pvmmon_hist_focus_parse(v);
}

static void hist_axis(const char *v, void *f)
{
	*(pvmmon_hist_axis *)f = !strcmp(v, "real") ? PVMMON_AXIS_REAL : PVMMON_AXIS_VIRTUAL;
}

static int hist_start(log_rd *r, pvmmon_log_hist **arr, size_t *n)
{
	static const log_field f[] = {
	    FN(pvmmon_log_hist, metric, "metric", hist_metric),
	    FN(pvmmon_log_hist, focus, "focus", hist_focus),
	    FN(pvmmon_log_hist, axis, "axis", hist_axis),
	    F(pvmmon_log_hist, name, "name", LOG_F_STR),
	    F(pvmmon_log_hist, stmt, "stmt", LOG_F_U32),
	    F(pvmmon_log_hist, start_ns, "start-ns", LOG_F_I64),
	    F(pvmmon_log_hist, width_ns, "width-ns", LOG_F_I64),
	    F(pvmmon_log_hist, doublings, "doublings", LOG_F_U32),
	    F(pvmmon_log_hist, from_ns, "from-ns", LOG_F_I64),
	    F(pvmmon_log_hist, to_ns, "to-ns", LOG_F_I64),
	    F(pvmmon_log_hist, requested, "requested", LOG_F_STR),
	};
	pvmmon_log_hist *h = log__push((void **)arr, n, sizeof(*h));
	xmlChar *enc;

	if (!h)
		return PVMMON_ENOMEM;
	enc = xmlGetProp(r->node, BAD_CAST "encoding");
	r->cur = h;                /* stays put: nothing is pushed onto arr before its end */
	r->hist_b64 = enc != NULL; /* the schema allows one value: le64-base64 */
	xmlFree(enc);
	return log__bind(r, h, LOG_FIELDS(f));
}

static int task_hist_start(log_rd *r) { return hist_start(r, &task(r)->hists, &task(r)->nhists); }

static int run_hist_start(log_rd *r) { return hist_start(r, &r->log->hists, &r->log->nhists); }

/* Values in base64 of little-endian int64 (encoding="le64-base64"), whitespace
 * ignored; a length that is not whole values is refused naming the histogram. */
static int hist_b64_values(log_rd *r, pvmmon_log_hist *h)
{
	uint8_t *raw = NULL;
	size_t k = 0, len = 0;
	int rc;

	for (const char *p = r->text; *p; p++)
		if (*p != ' ' && *p != '\t' && *p != '\n' && *p != '\r')
			r->text[k++] = *p;
	r->text[k] = '\0';
	rc = replay__b64_decode(r->text, &raw, &len);
	if (rc == PVMMON_ENOMEM)
		return rc;
	if (rc < 0 || len % 8) {
		free(raw);
		return pvmmon_error_set(PVMMON_EPARSE,
		                        "%s: a %s histogram's values are damaged (%s)", r->path,
		                        pvmmon_hist_metric_name(h->metric),
		                        rc < 0 ? "bad base64" : "not whole 8-byte values");
	}
	if (len) {
		h->values = calloc(len / 8, sizeof(*h->values));
		if (!h->values) {
			free(raw);
			return pvmmon_error_set(PVMMON_ENOMEM, "out of memory reading the log");
		}
	}
	for (; h->nbuckets < len / 8; h->nbuckets++) {
		uint64_t v = 0;

		for (int b = 7; b >= 0; b--)
			v = v << 8 | raw[h->nbuckets * 8 + (size_t)b];
		h->values[h->nbuckets] = (int64_t)v;
	}
	free(raw);
	return 0;
}

/* Its text: the buckets' values, in base64 (what pvmmon writes) or decimal separated by
 * spaces (hand-made logs). */
static int hist_end(log_rd *r)
{
	pvmmon_log_hist *h = r->cur;
	const char *p = r->text, *end;
	size_t n = 0;

	if (r->hist_b64)
		return hist_b64_values(r, h);
	for (log__i64(p, &end); end != p; log__i64(p, &end)) {
		n++;
		p = end;
	}
	if (!n)
		return 0;
	h->values = calloc(n, sizeof(*h->values));
	if (!h->values)
		return pvmmon_error_set(PVMMON_ENOMEM, "out of memory reading the log");
	for (p = r->text; h->nbuckets < n; p = end)
		h->values[h->nbuckets++] = log__i64(p, &end);
	return 0;
}

static int histograms_start(log_rd *r)
{
	static const log_field f[] = {
	    F(pvmmon_log_histcfg, buckets, "buckets", LOG_F_U32),
	    F(pvmmon_log_histcfg, initial_width_ns, "initial-width-ns", LOG_F_I64),
	    F(pvmmon_log_histcfg, hottest, "hottest", LOG_F_U32),
	};

	r->log->hist.enabled = 1;
	return log__bind(r, &r->log->hist, LOG_FIELDS(f));
}

/* The run's sections after the tasks. */
static int cp_start(log_rd *r)
{
	static const log_field f[] = {
	    FN(pvmmon_log_cp, exclusive, "mode", is_exclusive),
	    F(pvmmon_log_cp, length_ns, "length-ns", LOG_F_I64),
	    F(pvmmon_log_cp, end_tid, "end-tid", LOG_F_I32),
	    F(pvmmon_log_cp, samples, "samples", LOG_F_U64),
	    F(pvmmon_log_cp, generation, "generation", LOG_F_U32),
	    FN(pvmmon_log_cp, collecting, "collecting", is_yes),
	    F(pvmmon_log_cp, from_ns, "from-ns", LOG_F_I64),
	    F(pvmmon_log_cp, to_ns, "to-ns", LOG_F_I64),
	    F(pvmmon_log_cp, top_m, "top-m", LOG_F_U32),
	    F(pvmmon_log_cp, phases, "phases", LOG_F_U32),
	    F(pvmmon_log_cp, found, "found", LOG_F_STR),
	};

	r->log->cp.enabled = 1;
	r->log->cp.to_ns = -1; /* to the end unless said */
	return log__bind(r, &r->log->cp, LOG_FIELDS(f));
}

static int cp_proc_start(log_rd *r)
{
	static const log_field f[] = {
	    F(pvmmon_log_cp_proc, name, "name", LOG_F_STR),
	    F(pvmmon_log_cp_proc, share_ns, "share-ns", LOG_F_I64),
	    F(pvmmon_log_cp_proc, zero_ns, "zero-ns", LOG_F_I64),
	};

	PUSH_BIND(r, r->log->cp.procs, r->log->cp.nprocs, f);
}

static int instrumentation_start(log_rd *r)
{
	static const log_field f[] = {
	    F(pvmmon_log, budget_pct, "budget-pct", LOG_F_DBL),
	};

	return log__bind(r, r->log, LOG_FIELDS(f));
}

static int switch_start(log_rd *r)
{
	static const log_field f[] = {
	    F(pvmmon_log_switch, time_ns, "time-ns", LOG_F_I64),
	    FN(pvmmon_log_switch, on, "action", is_enable),
	    F(pvmmon_log_switch, resource, "resource", LOG_F_STR),
	    F(pvmmon_log_switch, by, "by", LOG_F_STR),
	    F(pvmmon_log_switch, reason, "reason", LOG_F_STR),
	};

	PUSH_BIND(r, r->log->switches, r->log->nswitches, f);
}

static int hang_start(log_rd *r)
{
	static const log_field f[] = {
	    F(pvmmon_log_hang, kind, "kind", LOG_F_STR),
	    F(pvmmon_log_hang, text, "text", LOG_F_STR),
	    F(pvmmon_log_hang, delay_ns, "delay-ns", LOG_F_I64),
	};

	PUSH_BIND(r, r->log->hangs, r->log->nhangs, f);
}

static int finding_start(log_rd *r)
{
	static const log_field f[] = {
	    F(pvmmon_log_finding, kind, "kind", LOG_F_STR),
	    F(pvmmon_log_finding, task, "task", LOG_F_STR),
	    F(pvmmon_log_finding, count, "count", LOG_F_U64),
	    F(pvmmon_log_finding, text, "text", LOG_F_STR),
	};

	PUSH_BIND(r, r->log->findings, r->log->nfindings, f);
}

static int trace_start(log_rd *r)
{
	static const log_field f[] = {
	    F(pvmmon_log_trace, limit_bytes, "limit-bytes", LOG_F_U64),
	    F(pvmmon_log_trace, kept, "kept", LOG_F_U64),
	    F(pvmmon_log_trace, dropped, "dropped", LOG_F_U64),
	    F(pvmmon_log_trace, complete_until_ns, "complete-until-ns", LOG_F_I64),
	    F(pvmmon_log_trace, decisions_dropped, "decisions-dropped", LOG_F_U64),
	};

	r->log->trace.enabled = 1;
	return log__bind(r, &r->log->trace, LOG_FIELDS(f));
}

static int decision_start(log_rd *r)
{
	static const log_field f[] = {
	    F(pvmmon_log_decision, task, "task", LOG_F_STR),
	    F(pvmmon_log_decision, by, "by", LOG_F_STR),
	    F(pvmmon_log_decision, kind, "kind", LOG_F_STR),
	    F(pvmmon_log_decision, at_ns, "at-ns", LOG_F_I64),
	    F(pvmmon_log_decision, vt_ns, "vt-ns", LOG_F_I64),
	    F(pvmmon_log_decision, deadline_ns, "deadline-ns", LOG_F_I64),
	    F(pvmmon_log_decision, taken, "taken", LOG_F_STR),
	    F(pvmmon_log_decision, taken_tag, "taken-tag", LOG_F_I32),
	    F(pvmmon_log_decision, window_ns, "window-ns", LOG_F_I64),
	    F(pvmmon_log_decision, horizon_ns, "horizon-ns", LOG_F_I64),
	};
	pvmmon_log_trace *t = &r->log->trace;
	pvmmon_log_decision *d = log__push((void **)&t->decisions, &t->ndecisions, sizeof(*d));

	if (!d)
		return PVMMON_ENOMEM;
	d->deadline_ns = -1;
	return log__bind(r, d, LOG_FIELDS(f));
}

static int pcand_start(log_rd *r)
{
	static const log_field f[] = {
	    F(pvmmon_log_pcand, from, "from", LOG_F_STR),
	    F(pvmmon_log_pcand, tag, "tag", LOG_F_I32),
	    F(pvmmon_log_pcand, seq, "seq", LOG_F_U32),
	    F(pvmmon_log_pcand, va_ns, "va-ns", LOG_F_I64),
	};
	pvmmon_log_trace *t = &r->log->trace;
	pvmmon_log_decision *d;

	if (!t->ndecisions)
		return PVMMON_EPARSE;
	d = &t->decisions[t->ndecisions - 1];
	PUSH_BIND(r, d->cands, d->ncands, f);
}

/* Call-path samples (log 1.13): the task's <samples>, its modules and its tree's nodes,
 * each node after its caller and naming a module already read. */
static int samples_start(log_rd *r)
{
	static const log_field f[] = {
	    F(pvmmon_log_samples, hz, "hz", LOG_F_U32),
	    F(pvmmon_log_samples, total, "total", LOG_F_U64),
	    F(pvmmon_log_samples, truncated, "truncated", LOG_F_U64),
	    F(pvmmon_log_samples, cost_ns, "cost-ns", LOG_F_I64),
	};
	pvmmon_log_task *t = task(r);

	pvmmon_log_samples_free(t->samples);
	t->samples = calloc(1, sizeof(*t->samples));
	if (!t->samples)
		return pvmmon_error_set(PVMMON_ENOMEM, "out of memory reading the log");
	return log__bind(r, t->samples, LOG_FIELDS(f));
}

static int smodule_start(log_rd *r)
{
	pvmmon_log_samples *s = task(r)->samples;
	xmlChar *path = xmlGetProp(r->node, BAD_CAST "path");
	char **m = log__push((void **)&s->modules, &s->nmodules, sizeof(*m));

	if (m)
		*m = strdup(path ? (const char *)path : "?");
	xmlFree(path);
	if (!m || !*m)
		return pvmmon_error_set(PVMMON_ENOMEM, "out of memory reading the log");
	return 0;
}

static int snode_start(log_rd *r)
{
	static const log_field f[] = {
	    F(pvmmon_log_snode, parent, "parent", LOG_F_I32),
	    F(pvmmon_log_snode, module, "module", LOG_F_U32),
	    F(pvmmon_log_snode, offset, "offset", LOG_F_U64),
	    F(pvmmon_log_snode, self[PVMMON_SAMPLE_COMPUTE], "compute", LOG_F_U64),
	    F(pvmmon_log_snode, self[PVMMON_SAMPLE_PVM], "pvm", LOG_F_U64),
	    F(pvmmon_log_snode, self[PVMMON_SAMPLE_MONITOR], "monitor", LOG_F_U64),
	};
	pvmmon_log_samples *s = task(r)->samples;
	pvmmon_log_snode *n = log__push((void **)&s->nodes, &s->nnodes, sizeof(*n));
	int rc;

	if (!n)
		return PVMMON_ENOMEM;
	n->parent = -1;
	rc = log__bind(r, n, LOG_FIELDS(f));
	if (rc == 0 && (n->parent < -1 || n->parent >= (int64_t)s->nnodes - 1 ||
	                n->module >= s->nmodules))
		rc = pvmmon_error_set(PVMMON_EPARSE,
		                      "%s: task %s: sample node %zu names a caller or module "
		                      "not before it",
		                      r->path, task(r)->lid ? task(r)->lid : "?", s->nnodes - 1);
	return rc;
}

/* The online wait analysis's table (log 1.14): one <blame> per computation. */
static int blame_start(log_rd *r)
{
	static const log_field f[] = {
	    F(pvmmon_log_blame, tid, "tid", LOG_F_I32),
	    F(pvmmon_log_blame, stmt, "stmt", LOG_F_U32),
	    F(pvmmon_log_blame, short_ns, "short-ns", LOG_F_I64),
	    F(pvmmon_log_blame, long_ns, "long-ns", LOG_F_I64),
	    F(pvmmon_log_blame, waits, "waits", LOG_F_U64),
	};
	pvmmon_log_task *t = task(r);

	PUSH_BIND(r, t->blames, t->nblames, f);
}

/* Every element the model reads: its parent ("" for the root), its name, what to do
 * at its start and at its end, and whether it keeps its text. A new element is one
 * line here and a handler above. */
const log_elem log__elems[] = {
    {"", "pvmmon-log", root_start, NULL, 0},
    {"pvmmon-log", "run", run_start, NULL, 0},
    {"run", "arg", NULL, arg_end, 1},
    {"settings", "setting", setting_start, NULL, 0},
    {"hosts", "host", host_start, NULL, 0},
    {"tasks", "task", task_start, NULL, 0},
    {"task", "stmt", stmt_start, NULL, 0},
    {"stmt", "com", com_start, NULL, 0},
    {"task", "proc", proc_start, NULL, 0},
    {"task", "loop", loop_start, NULL, 0},
    {"task", "cost", cost_start, NULL, 0},
    {"task", "static", static_start, NULL, 0},
    {"task", "ev", ev_start, NULL, 0},
    {"task", "record", record_start, record_end, 1},
    {"task", "histogram", task_hist_start, hist_end, 1},
    {"task", "samples", samples_start, NULL, 0},
    {"samples", "sample-module", smodule_start, NULL, 0},
    {"samples", "snode", snode_start, NULL, 0},
    {"task", "blame", blame_start, NULL, 0},
    {"pvmmon-log", "critical-path", cp_start, NULL, 0},
    {"critical-path", "cp-proc", cp_proc_start, NULL, 0},
    {"pvmmon-log", "instrumentation", instrumentation_start, NULL, 0},
    {"instrumentation", "switch", switch_start, NULL, 0},
    {"hangs", "hang", hang_start, NULL, 0},
    {"findings", "finding", finding_start, NULL, 0},
    {"pvmmon-log", "histograms", histograms_start, NULL, 0},
    {"histograms", "histogram", run_hist_start, hist_end, 1},
    {"pvmmon-log", "trace", trace_start, NULL, 0},
    {"trace", "decision", decision_start, NULL, 0},
    {"decision", "cand", pcand_start, NULL, 0},
};
const size_t log__nelems = sizeof(log__elems) / sizeof(log__elems[0]);
