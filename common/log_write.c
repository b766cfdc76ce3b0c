/* Writing a run's log as XML with libxml2, atomically and never through a symlink. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libxml/xmlwriter.h>

#include "../replay/replay.h"
#include "log_fields.h"
#include "pvmmon/errors.h"
#include "pvmmon/log.h"

/* Counts libxml2 writer failures so that one check at the end covers every call. */
typedef struct writer {
	xmlTextWriterPtr w;
	int failed;
	uint32_t hist_buckets; /* the run's bucket count: every histogram writes as many */
} writer;

static void start(writer *wr, const char *name)
{
	if (xmlTextWriterStartElement(wr->w, BAD_CAST name) < 0)
		wr->failed++;
}

static void end(writer *wr)
{
	if (xmlTextWriterEndElement(wr->w) < 0)
		wr->failed++;
}

static void attr(writer *wr, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void attr(writer *wr, const char *name, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (xmlTextWriterWriteVFormatAttribute(wr->w, BAD_CAST name, fmt, ap) < 0)
		wr->failed++;
	va_end(ap);
}

/* Optional string attributes are left out when unknown rather than written empty. */
static void attr_str(writer *wr, const char *name, const char *value)
{
	if (value && xmlTextWriterWriteAttribute(wr->w, BAD_CAST name, BAD_CAST value) < 0)
		wr->failed++;
}

static void attr_i64(writer *wr, const char *name, int64_t v) { attr(wr, name, "%" PRId64, v); }

static void attr_u64(writer *wr, const char *name, uint64_t v) { attr(wr, name, "%" PRIu64, v); }

/* A record's own attributes: its list's fields in the list's order, each as its kind
 * and its when rule say (common/log_task_fields.def, log_stmt_fields.def); has_raw is
 * the task's. */
static void write_fields(writer *wr, const void *rec, const log_field_desc *fields, size_t n,
                         int has_raw)
{
	for (size_t i = 0; i < n; i++) {
		const log_field_desc *f = &fields[i];
		const void *p = log__field_cat(rec, f);

		if (!log__field_written(rec, f, has_raw))
			continue;
		switch (f->kind) {
		case LOG_FK_I32:
			attr(wr, f->xml, "%d", (int)*(const int32_t *)p);
			break;
		case LOG_FK_U32:
			attr(wr, f->xml, "%u", (unsigned)*(const uint32_t *)p);
			break;
		case LOG_FK_I64:
			attr_i64(wr, f->xml, *(const int64_t *)p);
			break;
		case LOG_FK_U64:
			attr_u64(wr, f->xml, *(const uint64_t *)p);
			break;
		case LOG_FK_HEX64:
			attr(wr, f->xml, "0x%" PRIx64, *(const uint64_t *)p);
			break;
		case LOG_FK_STR:
		case LOG_FK_CLOCK: {
			const char *v = *(char *const *)p;

			if (!v && f->when == LOG_FW_ALWAYS_Q)
				v = "?";
			else if (!v && f->when == LOG_FW_ALWAYS_UNKNOWN)
				v = "unknown";
			attr_str(wr, f->xml, v);
			break;
		}
		case LOG_FK_STATUS:
			attr_str(wr, f->xml, pvmmon_task_status_name(*(const pvmmon_task_status *)p));
			break;
		case LOG_FK_SIGNAL:
			attr_str(wr, f->xml, pvmmon_signal_name(*(const int32_t *)p));
			break;
		case LOG_FK_OFF:
			attr_str(wr, f->xml, "no");
			break;
		case LOG_FK_HAS:
			break;
		}
	}
}

static void write_stmt(writer *wr, const pvmmon_log_stmt *s)
{
	start(wr, "stmt");
	write_fields(wr, s, log__stmt_fields, LOG_SF_COUNT, 0);
	for (size_t k = 0; k < s->ncom; k++) {
		const pvmmon_log_com *c = &s->com[k];

		start(wr, "com");
		attr(wr, "partner-tid", "%d", (int)c->partner_tid);
		attr_str(wr, "partner-lid", c->partner_lid);
		attr_u64(wr, "count", c->count);
		attr_u64(wr, "bytes", c->bytes);
		attr_i64(wr, "trans-ns", c->trans_ns);
		attr_i64(wr, "sync-ns", c->sync_ns);
		end(wr);
	}
	end(wr);
}

static void write_event(writer *wr, const pvmmon_log_event *e)
{
	const char *op = pvmmon_event_op_name(e->op);

	start(wr, "ev");
	attr_str(wr, "op", op ? op : "other");
	attr(wr, "stmt", "%u", (unsigned)e->stmt);
	attr(wr, "rt", "%" PRId64 " %" PRId64 " %" PRId64 " %" PRId64, e->rt[0], e->rt[1], e->rt[2],
	     e->rt[3]);
	attr(wr, "vt", "%" PRId64 " %" PRId64, e->vt0, e->vt1);
	if (e->op == PVMMON_EV_ENTER || e->op == PVMMON_EV_EXIT || e->op == PVMMON_EV_CPSTART ||
	    e->op == PVMMON_EV_CPSTOP) {
		attr(wr, "proc", "%d", (int)e->tag);
	} else if (e->peer != 0) {
		attr(wr, "peer", "%d", (int)e->peer);
		attr(wr, "tag", "%d", (int)e->tag);
		attr(wr, "bytes", "%u", (unsigned)e->bytes);
		if (e->seq >= 0)
			attr_i64(wr, "seq", e->seq);
	}
	if (e->sync > 0)
		attr_i64(wr, "sync", e->sync);
	if (e->trans > 0)
		attr_i64(wr, "trans", e->trans);
	if (e->nd)
		attr(wr, "want", "%d %d", (int)e->want_peer, (int)e->want_tag);
	end(wr);
}

/* The task's replay record: its stream in base64, with the byte count and hash that
 * let the reader tell a damaged record from a good one, and the sender table that its
 * sender indices point into. */
static void write_record(writer *wr, const pvmmon_log_task *t)
{
	char *text = replay__b64_encode(t->record, t->record_len);
	char *senders = NULL;
	size_t n = 0, i;

	for (i = 0; i < t->record_nsenders; i++)
		n += strlen(t->record_senders[i] ? t->record_senders[i] : "?") + 1;
	senders = calloc(1, n + 1);
	if (!text || !senders) {
		wr->failed++;
		goto out;
	}
	for (i = 0, n = 0; i < t->record_nsenders; i++) {
		const char *lid = t->record_senders[i] ? t->record_senders[i] : "?";
		size_t k = strlen(lid);

		if (i)
			senders[n++] = ' ';
		memcpy(senders + n, lid, k);
		n += k;
	}
	start(wr, "record");
	attr_u64(wr, "entries", t->record_entries);
	attr_u64(wr, "bytes", (uint64_t)t->record_len);
	attr(wr, "hash", "%016" PRIx64, replay__hash(t->record, t->record_len));
	attr_str(wr, "senders", senders);
	if (xmlTextWriterWriteString(wr->w, BAD_CAST text) < 0)
		wr->failed++;
	end(wr);
out:
	free(text);
	free(senders);
}

/* A throttled proc's or loop's demotion (since 1.4): nothing when pair is 0. */
static void attr_throttle(writer *wr, int64_t at, int64_t call, int64_t pair)
{
	if (pair <= 0)
		return;
	attr_i64(wr, "throttled-at-ns", at);
	attr_i64(wr, "throttle-call-ns", call);
	attr_i64(wr, "throttle-pair-ns", pair);
}

static void write_hists_of(writer *wr, const pvmmon_log_hist *h, size_t n);
static void write_samples(writer *wr, const pvmmon_log_samples *s);

/* A task's cost record: calibrated costs, observed and predicted totals, the in-place
 * costs, the monitor's estimate for switched-off sites and (1.7) the re-checks. */
static void write_cost(writer *wr, const pvmmon_log_cost *c)
{
	start(wr, "cost");
	attr_i64(wr, "proc-pair-ns", c->proc_pair_ns);
	attr_i64(wr, "loop-pair-ns", c->loop_pair_ns);
	attr_i64(wr, "wrapper-ns", c->wrapper_ns);
	attr_i64(wr, "pb-send-ns", c->pb_send_ns);
	attr_i64(wr, "pb-recv-ns", c->pb_recv_ns);
	attr_u64(wr, "wrapped-calls", c->wrapped_calls);
	attr_i64(wr, "observed-ns", c->observed_ns);
	attr_i64(wr, "predicted-ns", c->predicted_ns);
	if (c->site_on_ps)
		attr_i64(wr, "site-on-ps", c->site_on_ps);
	if (c->site_off_ps)
		attr_i64(wr, "site-off-ps", c->site_off_ps);
	if (c->static_ns)
		attr_i64(wr, "static-ns", c->static_ns);
	if (c->rechecks) {
		attr_u64(wr, "rechecks", c->rechecks);
		attr_i64(wr, "recheck-min-ns", c->recheck_min_ns);
		attr_i64(wr, "recheck-max-ns", c->recheck_max_ns);
	}
	if (c->calibrated_by)
		attr(wr, "calibrated-by", "%d", (int)c->calibrated_by);
	end(wr);
}

static void write_task(writer *wr, const pvmmon_log_task *t)
{
	size_t i;

	start(wr, "task");
	write_fields(wr, t, log__task_fields, LOG_TF_COUNT, t->has_raw);
	if (t->cost.known)
		write_cost(wr, &t->cost);
	for (i = 0; i < t->nstmts; i++)
		write_stmt(wr, &t->stmts[i]);
	for (i = 0; i < t->nprocs; i++) {
		const pvmmon_log_proc *p = &t->procs[i];

		start(wr, "proc");
		attr_str(wr, "name", p->name ? p->name : "?");
		attr_str(wr, "file", p->file);
		attr(wr, "line", "%d", (int)p->line);
		attr_str(wr, "caller", p->caller);
		if (p->call_line > 0)
			attr(wr, "call-line", "%d", (int)p->call_line);
		attr_u64(wr, "count", p->count);
		attr_i64(wr, "incl-ns", p->incl_ns);
		attr_i64(wr, "excl-ns", p->excl_ns);
		if (t->has_raw && !p->counted) {
			attr_i64(wr, "raw-incl-ns", p->raw_incl_ns);
			attr_i64(wr, "raw-excl-ns", p->raw_excl_ns);
			attr_i64(wr, "local-incl-ns", p->local_incl_ns);
			attr_i64(wr, "local-excl-ns", p->local_excl_ns);
		}
		if (p->counted)
			attr_str(wr, "timed", "no");
		if (p->disabled)
			attr_str(wr, "enabled", "no");
		attr_throttle(wr, p->throttled_at_ns, p->throttle_call_ns, p->throttle_pair_ns);
		end(wr);
	}
	for (i = 0; i < t->nloops; i++) {
		const pvmmon_log_loop *l = &t->loops[i];

		start(wr, "loop");
		attr_str(wr, "name", l->name ? l->name : "?");
		attr_str(wr, "file", l->file);
		attr(wr, "line", "%d", (int)l->line);
		attr_str(wr, "proc", l->proc);
		attr_u64(wr, "count", l->count);
		attr_i64(wr, "time-ns", l->time_ns);
		if (l->disabled)
			attr_str(wr, "enabled", "no");
		if (t->has_raw) {
			attr_i64(wr, "raw-ns", l->raw_ns);
			attr_i64(wr, "local-ns", l->local_ns);
		}
		attr_throttle(wr, l->throttled_at_ns, l->throttle_call_ns, l->throttle_pair_ns);
		end(wr);
	}
	for (i = 0; i < t->nstatics; i++) {
		const pvmmon_log_static *e = &t->statics[i];
		const char *kind = pvmmon_static_kind_name(e->kind);

		start(wr, "static");
		attr(wr, "index", "%zu", i);
		attr_str(wr, "kind", kind ? kind : "call");
		attr_str(wr, "name", e->name ? e->name : "?");
		attr_str(wr, "file", e->file);
		attr(wr, "line", "%d", (int)e->line);
		if (e->parent >= 0)
			attr(wr, "parent", "%d", (int)e->parent);
		end(wr);
	}
	for (i = 0; i < t->nevents; i++)
		write_event(wr, &t->events[i]);
	if (t->record_len > 0)
		write_record(wr, t);
	write_hists_of(wr, t->hists, t->nhists);
	if (t->samples)
		write_samples(wr, t->samples);
	for (i = 0; i < t->nblames; i++) { /* the online wait analysis (1.14) */
		const pvmmon_log_blame *b = &t->blames[i];

		start(wr, "blame");
		attr(wr, "tid", "%d", (int)b->tid);
		attr_u64(wr, "stmt", b->stmt);
		attr_i64(wr, "short-ns", b->short_ns);
		attr_i64(wr, "long-ns", b->long_ns);
		attr_u64(wr, "waits", b->waits);
		end(wr);
	}
	end(wr);
}

/* The task's call-path samples (version 1.13): its modules, then its tree's nodes,
 * each after its caller's; a node lists its self samples by state where not 0. */
static void write_samples(writer *wr, const pvmmon_log_samples *s)
{
	size_t i;

	start(wr, "samples");
	attr_u64(wr, "hz", s->hz);
	attr_u64(wr, "total", s->total);
	attr_u64(wr, "truncated", s->truncated);
	attr_i64(wr, "cost-ns", s->cost_ns);
	for (i = 0; i < s->nmodules; i++) {
		start(wr, "sample-module");
		attr_str(wr, "path", s->modules[i]);
		end(wr);
	}
	for (i = 0; i < s->nnodes; i++) {
		const pvmmon_log_snode *n = &s->nodes[i];

		start(wr, "snode");
		if (n->parent >= 0)
			attr(wr, "parent", "%d", (int)n->parent);
		attr_u64(wr, "module", n->module);
		attr(wr, "offset", "0x%" PRIx64, n->offset);
		for (int k = 0; k < PVMMON_SAMPLE_NSTATES; k++)
			if (n->self[k])
				attr_u64(wr, pvmmon_sample_state_name(k), n->self[k]);
		end(wr);
	}
	end(wr);
}

/*
 * A time histogram (version 1.6): its axis and its bucket values, always the run's
 * bucket count of them (empty ones as 0) as little-endian int64 in base64
 * (encoding="le64-base64"): 1368 characters for 128 buckets, whatever the values, so a
 * log's size does not depend on how long the run was (decimal text grew by the digits
 * of wider buckets and by how many buckets were filled).
 */
static void write_hist(writer *wr, const pvmmon_log_hist *h)
{
	size_t n = h->nbuckets > wr->hist_buckets ? h->nbuckets : wr->hist_buckets;
	uint8_t *raw = calloc(n ? n : 1, 8);
	char *text = NULL;

	if (!raw) {
		wr->failed++;
		return;
	}
	for (size_t i = 0; i < h->nbuckets; i++)
		for (int b = 0; b < 8; b++)
			raw[i * 8 + (size_t)b] = (uint8_t)((uint64_t)h->values[i] >> (8 * b));
	text = replay__b64_encode(raw, n * 8);
	free(raw);
	if (!text) {
		wr->failed++;
		return;
	}
	start(wr, "histogram");
	attr_str(wr, "metric", pvmmon_hist_metric_name(h->metric));
	attr_str(wr, "focus", pvmmon_hist_focus_name(h->focus));
	attr_str(wr, "axis", h->axis == PVMMON_AXIS_REAL ? "real" : "virtual");
	attr_i64(wr, "start-ns", h->start_ns);
	attr_i64(wr, "width-ns", h->width_ns);
	attr_u64(wr, "doublings", h->doublings);
	attr_i64(wr, "from-ns", h->from_ns);
	attr_i64(wr, "to-ns", h->to_ns);
	attr_str(wr, "name", h->name);
	if (h->focus == PVMMON_FOCUS_STMT)
		attr_u64(wr, "stmt", h->stmt);
	attr_str(wr, "requested", h->requested);
	attr_str(wr, "encoding", "le64-base64");
	if (xmlTextWriterWriteString(wr->w, BAD_CAST text) < 0)
		wr->failed++;
	end(wr);
	free(text);
}

static void write_hists_of(writer *wr, const pvmmon_log_hist *h, size_t n)
{
	for (size_t i = 0; i < n; i++)
		write_hist(wr, &h[i]);
}

/* The run's histogram settings and its merged histograms, when it kept any. */
static void write_hists(writer *wr, const pvmmon_log *log)
{
	if (!log->hist.enabled)
		return;
	start(wr, "histograms");
	attr_u64(wr, "buckets", log->hist.buckets);
	attr_i64(wr, "initial-width-ns", log->hist.initial_width_ns);
	attr_u64(wr, "hottest", log->hist.hottest);
	write_hists_of(wr, log->hists, log->nhists);
	end(wr);
}

/* The PVM usage errors the checks found (version 1.9), when there were any. */
static void write_findings(writer *wr, const pvmmon_log *log)
{
	if (!log->nfindings)
		return;
	start(wr, "findings");
	for (size_t i = 0; i < log->nfindings; i++) {
		const pvmmon_log_finding *f = &log->findings[i];

		start(wr, "finding");
		attr_str(wr, "kind", f->kind ? f->kind : "unpack");
		attr_str(wr, "task", f->task ? f->task : "");
		attr_u64(wr, "count", f->count);
		attr_str(wr, "text", f->text ? f->text : "");
		end(wr);
	}
	end(wr);
}

/* The hangs the monitor said (version 1.3), when there were any. */
static void write_hangs(writer *wr, const pvmmon_log *log)
{
	if (!log->nhangs)
		return;
	start(wr, "hangs");
	for (size_t i = 0; i < log->nhangs; i++) {
		start(wr, "hang");
		attr_str(wr, "kind", log->hangs[i].kind ? log->hangs[i].kind : "deadlock");
		attr_str(wr, "text", log->hangs[i].text ? log->hangs[i].text : "");
		attr_i64(wr, "delay-ns", log->hangs[i].delay_ns);
		end(wr);
	}
	end(wr);
}

/* Preserve mode's decisions in a traced run (version 1.10): why each receive took
 * what it took. */
static void write_decisions(writer *wr, const pvmmon_log_trace *t)
{
	for (size_t i = 0; i < t->ndecisions; i++) {
		const pvmmon_log_decision *d = &t->decisions[i];

		start(wr, "decision");
		attr_str(wr, "task", d->task ? d->task : "");
		attr_str(wr, "by", d->by && !strcmp(d->by, "task") ? "task" : "monitor");
		attr_str(wr, "kind", d->kind ? d->kind : "recv");
		attr_i64(wr, "at-ns", d->at_ns);
		attr_i64(wr, "vt-ns", d->vt_ns);
		if (d->deadline_ns >= 0)
			attr_i64(wr, "deadline-ns", d->deadline_ns);
		if (d->taken) {
			attr_str(wr, "taken", d->taken);
			attr_i64(wr, "taken-tag", d->taken_tag);
		}
		attr_i64(wr, "window-ns", d->window_ns);
		attr_i64(wr, "horizon-ns", d->horizon_ns);
		for (size_t k = 0; k < d->ncands; k++) {
			start(wr, "cand");
			attr_str(wr, "from", d->cands[k].from ? d->cands[k].from : "");
			attr_i64(wr, "tag", d->cands[k].tag);
			attr_u64(wr, "seq", d->cands[k].seq);
			attr_i64(wr, "va-ns", d->cands[k].va_ns);
			end(wr);
		}
		end(wr);
	}
}

static void write_log(writer *wr, const pvmmon_log *log)
{
	size_t i;

	if (xmlTextWriterStartDocument(wr->w, NULL, "UTF-8", NULL) < 0)
		wr->failed++;
	start(wr, "pvmmon-log");
	attr(wr, "version", "%d.%d", log->version_major, log->version_minor);
	attr_str(wr, "tool-version", log->tool_version);

	start(wr, "run");
	attr_str(wr, "program", log->program ? log->program : "unknown");
	attr_str(wr, "mode", log->mode ? log->mode : "observe");
	attr_str(wr, "started", log->started);
	attr_i64(wr, "wall-ns", log->wall_ns);
	attr(wr, "exit-code", "%d", (int)log->exit_code);
	if (log->replayable)
		attr_str(wr, "replayable", "yes");
	for (i = 0; i < log->nargs; i++)
		if (xmlTextWriterWriteElement(wr->w, BAD_CAST "arg", BAD_CAST log->args[i]) < 0)
			wr->failed++;
	end(wr);

	start(wr, "settings");
	for (i = 0; i < log->nsettings; i++) {
		start(wr, "setting");
		attr_str(wr, "key", log->settings[i].key ? log->settings[i].key : "");
		attr_str(wr, "value", log->settings[i].value ? log->settings[i].value : "");
		end(wr);
	}
	end(wr);

	start(wr, "hosts");
	for (i = 0; i < log->nhosts; i++) {
		start(wr, "host");
		attr_str(wr, "name", log->hosts[i].name ? log->hosts[i].name : "?");
		attr_str(wr, "arch", log->hosts[i].arch);
		attr(wr, "dtid", "%d", (int)log->hosts[i].dtid);
		if (log->hosts[i].clock_known) {
			attr(wr, "clock-offset-ns", "%" PRId64, log->hosts[i].clock_offset_ns);
			attr(wr, "clock-uncertainty-ns", "%" PRId64,
			     log->hosts[i].clock_uncertainty_ns);
			if (log->hosts[i].clock_estimates) {
				attr(wr, "clock-at-ns", "%" PRId64, log->hosts[i].clock_at_ns);
				attr(wr, "clock-drift-ppb", "%" PRId64,
				     log->hosts[i].clock_drift_ppb);
				attr(wr, "clock-estimates", "%" PRIu32,
				     log->hosts[i].clock_estimates);
			}
		}
		end(wr);
	}
	end(wr);

	start(wr, "tasks");
	for (i = 0; i < log->ntasks; i++)
		write_task(wr, &log->tasks[i]);
	end(wr);

	if (log->cp.enabled) {
		start(wr, "critical-path");
		attr_str(wr, "mode", log->cp.exclusive ? "exclusive" : "inclusive");
		attr_i64(wr, "length-ns", log->cp.length_ns);
		attr(wr, "end-tid", "%d", (int)log->cp.end_tid);
		attr_u64(wr, "samples", log->cp.samples);
		attr(wr, "generation", "%u", (unsigned)log->cp.generation);
		attr_str(wr, "collecting", log->cp.collecting ? "yes" : "no");
		attr_i64(wr, "from-ns", log->cp.from_ns);
		attr_i64(wr, "to-ns", log->cp.to_ns);
		if (log->cp.top_m) {
			attr(wr, "top-m", "%u", (unsigned)log->cp.top_m);
			attr(wr, "phases", "%u", (unsigned)log->cp.phases);
			attr_str(wr, "found", log->cp.found);
		}
		for (i = 0; i < log->cp.nprocs; i++) {
			start(wr, "cp-proc");
			attr_str(wr, "name", log->cp.procs[i].name ? log->cp.procs[i].name : "?");
			attr_i64(wr, "share-ns", log->cp.procs[i].share_ns);
			attr_i64(wr, "zero-ns", log->cp.procs[i].zero_ns);
			end(wr);
		}
		end(wr);
	}

	if (log->budget_pct > 0 || log->nswitches) {
		start(wr, "instrumentation");
		if (log->budget_pct > 0)
			attr(wr, "budget-pct", "%g", log->budget_pct);
		for (i = 0; i < log->nswitches; i++) {
			const pvmmon_log_switch *w = &log->switches[i];

			start(wr, "switch");
			attr_i64(wr, "time-ns", w->time_ns);
			attr_str(wr, "action", w->on ? "enable" : "disable");
			attr_str(wr, "resource", w->resource ? w->resource : "all");
			attr_str(wr, "by", w->by && !strcmp(w->by, "budget") ? "budget" : "user");
			attr_str(wr, "reason", w->reason);
			end(wr);
		}
		end(wr);
	}

	write_hangs(wr, log);
	write_findings(wr, log);
	write_hists(wr, log);
	if (log->trace.enabled) {
		start(wr, "trace");
		attr_u64(wr, "limit-bytes", log->trace.limit_bytes);
		attr_u64(wr, "kept", log->trace.kept);
		attr_u64(wr, "dropped", log->trace.dropped);
		attr_i64(wr, "complete-until-ns", log->trace.complete_until_ns);
		if (log->trace.decisions_dropped)
			attr_u64(wr, "decisions-dropped", log->trace.decisions_dropped);
		write_decisions(wr, &log->trace);
		end(wr);
	}

	end(wr);
	if (xmlTextWriterEndDocument(wr->w) < 0)
		wr->failed++;
}

/* Writes all of data to fd, resuming after short writes and interrupted calls; 0, or
 * PVMMON_EIO with errno saying why. */
static int write_all(int fd, const char *data, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, data, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return PVMMON_EIO;
		data += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Writes log with text writer w (taken: freed here, which flushes it); 0, or 1 when a
 * write failed. */
static int emit(const pvmmon_log *log, xmlTextWriterPtr w)
{
	writer wr = {w, 0, log->hist.buckets};

	xmlTextWriterSetIndent(wr.w, 1);
	xmlTextWriterSetIndentString(wr.w, BAD_CAST " ");
	write_log(&wr, log);
	if (xmlTextWriterFlush(wr.w) < 0)
		wr.failed = 1;
	xmlFreeTextWriter(wr.w);
	return wr.failed;
}

/* Formats log into a new libxml2 buffer in *out; 0 or a negative code naming what. */
static int format(const pvmmon_log *log, const char *what, xmlBufferPtr *out)
{
	xmlBufferPtr buf = xmlBufferCreate();
	xmlTextWriterPtr w;

	/* libxml2 (2.9) grows a buffer by exactly what each write needs, so a log of n
	 * bytes costs n/4K reallocations: quadratic copying wherever realloc cannot move
	 * pages (under ASan or valgrind, which made the monitor fall minutes behind a
	 * traced run). Doubling makes it linear. */
	if (buf)
		xmlBufferSetAllocationScheme(buf, XML_BUFFER_ALLOC_DOUBLEIT);
	w = buf ? xmlNewTextWriterMemory(buf, 0) : NULL;
	if (!w) {
		if (buf)
			xmlBufferFree(buf);
		return pvmmon_error_set(PVMMON_ENOMEM, "%s: out of memory writing the log", what);
	}
	if (emit(log, w)) {
		xmlBufferFree(buf);
		return pvmmon_error_set(PVMMON_EIO, "%s: could not format the log", what);
	}
	*out = buf;
	return 0;
}

/* An open file the log streams into, and its first write error (errno). */
typedef struct sink {
	int fd;
	int err;
} sink;

/* What libxml2's output callback returns on an error (xmlOutputWriteCallback). */
#define SINK_FAILED (-1)

static int sink_write(void *ctx, const char *data, int len)
{
	sink *k = ctx;

	if (k->err)
		return SINK_FAILED;
	if (write_all(k->fd, data, (size_t)len) < 0) {
		k->err = errno ? errno : EIO;
		return SINK_FAILED;
	}
	return len;
}

/* Streams log into the open file fd: the file's bytes go out as they are formatted,
 * so the log is never held in memory whole (a 128-task log is megabytes, and a
 * doubling buffer's copies held twice that at the monitor's checkpoints). 0, or a
 * negative code naming path. */
static int stream(const pvmmon_log *log, const char *path, int fd)
{
	sink k = {fd, 0};
	xmlOutputBufferPtr out = xmlOutputBufferCreateIO(sink_write, NULL, &k, NULL);
	xmlTextWriterPtr w = out ? xmlNewTextWriter(out) : NULL;

	if (!w) {
		if (out)
			xmlOutputBufferClose(out);
		return pvmmon_error_set(PVMMON_ENOMEM, "%s: out of memory writing the log", path);
	}
	if (emit(log, w) || k.err)
		return pvmmon_error_set(PVMMON_EIO, "%s: cannot write: %s", path,
		                        strerror(k.err ? k.err : EIO));
	return 0;
}

int pvmmon_log_format(char **out, size_t *len, const pvmmon_log *log)
{
	xmlBufferPtr buf = NULL;
	int rc;

	if (!log || !out || !len)
		return pvmmon_error_set(PVMMON_EINVAL, "log: nothing to format");
	rc = format(log, "log", &buf);
	if (rc < 0)
		return rc;
	*len = (size_t)xmlBufferLength(buf);
	*out = malloc(*len + 1);
	if (!*out) {
		xmlBufferFree(buf);
		return pvmmon_error_set(PVMMON_ENOMEM, "log: out of memory");
	}
	memcpy(*out, xmlBufferContent(buf), *len);
	(*out)[*len] = '\0';
	xmlBufferFree(buf);
	return 0;
}

int pvmmon_log_write(const pvmmon_log *log, const char *path)
{
	char *tmp = NULL;
	struct stat st;
	int fd = -1, rc = 0;

	if (!log || !path || !*path)
		return pvmmon_error_set(PVMMON_EINVAL, "log: no log or no file name");
	/* Replacing a symlink would write wherever it points; refuse instead. */
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
		return pvmmon_error_set(PVMMON_EINVAL, "%s: is a symbolic link; not replacing it",
		                        path);
	/* A temporary file in the same folder makes the final rename atomic: readers see
	 * the old log or the new one, never half of one. */
	if (asprintf(&tmp, "%s.tmp.%ld", path, (long)getpid()) < 0) {
		tmp = NULL;
		rc = pvmmon_error_set(PVMMON_ENOMEM, "%s: out of memory", path);
		goto out;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		rc = pvmmon_error_set(PVMMON_EIO, "%s: cannot create %s: %s", path, tmp,
		                      strerror(errno));
		free(tmp);
		tmp = NULL;
		goto out;
	}
	if ((rc = stream(log, path, fd)) < 0)
		goto out;
	if (fsync(fd) < 0) {
		rc = pvmmon_error_set(PVMMON_EIO, "%s: cannot write: %s", path, strerror(errno));
		goto out;
	}
	if (close(fd) < 0) {
		fd = -1;
		rc = pvmmon_error_set(PVMMON_EIO, "%s: cannot write: %s", path, strerror(errno));
		goto out;
	}
	fd = -1;
	if (rename(tmp, path) < 0) {
		rc = pvmmon_error_set(PVMMON_EIO, "%s: cannot replace: %s", path, strerror(errno));
		goto out;
	}
	free(tmp);
	tmp = NULL;
out:
	if (fd >= 0)
		close(fd);
	if (tmp) {
		unlink(tmp);
		free(tmp);
	}
	return rc;
}
