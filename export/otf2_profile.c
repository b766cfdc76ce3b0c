/* `pvmmon export --otf2` of a run without an event trace: its profile as OTF2 metrics,
 * one sample per task and region (statement, procedure, loop) naming the region. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <otf2/otf2.h>

#include "otf2_archive.h"
#include "otf2_profile.h"
#include "pvmmon/errors.h"

/*
 * OTF2 has no profile records (profiles are CUBE's): a task's totals become one Metric
 * event per region it ran, at its end, carrying time (ns), calls and bytes, with an
 * attribute "region" naming the region's definition. Readers (otf2-print, python3-otf2)
 * get the region from the attribute and the values from the metric's three members.
 */

/* Fixed string ids; regions' and tasks' names follow. */
enum {
	S_EMPTY = 0,
	S_MACHINE = EXPORT__OTF2_S_MACHINE,
	S_NODE = EXPORT__OTF2_S_NODE,
	S_MACHINE_NAME = EXPORT__OTF2_S_MACHINE_NAME,
	S_REGION,
	S_REGION_DESC,
	S_TIME,
	S_TIME_DESC,
	S_SECONDS,
	S_CALLS,
	S_CALLS_DESC,
	S_CALLS_UNIT,
	S_BYTES,
	S_BYTES_DESC,
	S_BYTES_UNIT,
	S_FIXED,
};

/* The regions of the profile: statements (by source place), procedures and loops by
 * name, the same name in several tasks one region. */
typedef struct region {
	char *name;
	char *file; /* NULL if unknown */
	int32_t line;
	int stmt;
} region;

typedef struct regions {
	region *at;
	size_t n, cap;
	size_t *hash; /* index + 1, 0 empty; hcap slots */
	size_t hcap;
} regions;

static size_t hash_of(const char *s)
{
	size_t h = 1469598103934665603u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211u;
	return h;
}

static int rehash(regions *rs)
{
	size_t cap = rs->hcap ? rs->hcap * 2 : 256, *h = calloc(cap, sizeof(*h));

	if (!h)
		return PVMMON_ENOMEM;
	for (size_t i = 0; i < rs->n; i++) {
		size_t k = hash_of(rs->at[i].name) & (cap - 1);

		while (h[k])
			k = (k + 1) & (cap - 1);
		h[k] = i + 1;
	}
	free(rs->hash);
	rs->hash = h;
	rs->hcap = cap;
	return 0;
}

/* The region named name (made when new); *out gets its index. */
static int intern(regions *rs, const char *name, const char *file, int32_t line, int stmt,
                  uint32_t *out)
{
	size_t k;

	if ((rs->n + 1) * 2 > rs->hcap && rehash(rs) < 0)
		return pvmmon_error_set(PVMMON_ENOMEM, "export: out of memory");
	for (k = hash_of(name) & (rs->hcap - 1); rs->hash[k]; k = (k + 1) & (rs->hcap - 1))
		if (!strcmp(rs->at[rs->hash[k] - 1].name, name)) {
			*out = (uint32_t)(rs->hash[k] - 1);
			return 0;
		}
	if (rs->n == rs->cap) {
		size_t cap = rs->cap ? rs->cap * 2 : 64;
		region *p = realloc(rs->at, cap * sizeof(*p));

		if (!p)
			return pvmmon_error_set(PVMMON_ENOMEM, "export: out of memory");
		rs->at = p;
		rs->cap = cap;
	}
	rs->at[rs->n] = (region){strdup(name), file ? strdup(file) : NULL, line, stmt};
	if (!rs->at[rs->n].name || (file && !rs->at[rs->n].file)) {
		free(rs->at[rs->n].name);
		free(rs->at[rs->n].file);
		return pvmmon_error_set(PVMMON_ENOMEM, "export: out of memory");
	}
	rs->hash[k] = rs->n + 1;
	*out = (uint32_t)rs->n++;
	return 0;
}

static void regions_free(regions *rs)
{
	for (size_t i = 0; i < rs->n; i++) {
		free(rs->at[i].name);
		free(rs->at[i].file);
	}
	free(rs->at);
	free(rs->hash);
}

/* Statement s of task t by its source place: its own file:line, else its static
 * table's (a pvmmon-cc build without -g), else module+offset; with the call. */
static void stmt_name(char *buf, size_t len, const pvmmon_log_task *t, const pvmmon_log_stmt *s,
                      const char **file, int32_t *line)
{
	long e = s->file ? -1 : pvmmon_log_stmt_static(t, s, NULL);
	const char *m = s->module ? strrchr(s->module, '/') : NULL;

	*file = s->file;
	*line = s->line;
	if (e >= 0) {
		*file = t->statics[e].file;
		*line = t->statics[e].line;
	}
	if (*file)
		snprintf(buf, len, "%s %s:%d", s->op ? s->op : "?", *file, (int)*line);
	else
		snprintf(buf, len, "%s %s+0x%llx", s->op ? s->op : "?",
		         m           ? m + 1
		         : s->module ? s->module
		                     : "?",
		         (unsigned long long)s->offset);
}

/* One sample: region r's time, calls and bytes on task w's location at time ts. */
static OTF2_ErrorCode sample(OTF2_EvtWriter *w, OTF2_AttributeList *al, uint64_t ts, uint32_t r,
                             int64_t time, uint64_t calls, uint64_t bytes)
{
	static const OTF2_Type types[3] = {OTF2_TYPE_INT64, OTF2_TYPE_UINT64, OTF2_TYPE_UINT64};
	OTF2_MetricValue v[3];

	v[0].signed_int = time;
	v[1].unsigned_int = calls;
	v[2].unsigned_int = bytes;
	if (OTF2_AttributeList_AddRegionRef(al, 0, r) != OTF2_SUCCESS)
		return OTF2_ERROR_MEM_ALLOC_FAILED;
	return OTF2_EvtWriter_Metric(w, al, ts, 0, 3, types, v);
}

/* The time a task's samples carry: its end on the chosen clock. */
static uint64_t end_of(const pvmmon_log_task *t, int real)
{
	int64_t e = real ? t->end_ns : t->virtual_ns;

	return e > 0 ? (uint64_t)e : 0;
}

/* Task i's samples: a statement's virtual time, a procedure's inclusive and a loop's
 * time (real with real, when the log has real times for them). */
static int write_task(OTF2_Archive *ar, const pvmmon_log *log, size_t i, int real, regions *rs,
                      export_otf2_ctxs *cx, uint64_t *count, uint64_t *ctx_samples)
{
	const pvmmon_log_task *t = &log->tasks[i];
	OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(ar, i);
	OTF2_AttributeList *al = OTF2_AttributeList_New();
	OTF2_ErrorCode err = OTF2_SUCCESS;
	uint64_t ts = end_of(t, real);
	int raw = real && t->has_raw, rc = 0;
	char name[600];
	uint32_t r;

	*count = 0;
	if (!w || !al) {
		rc = pvmmon_error_set(PVMMON_EIO, "export: OTF2 cannot open the events of task %zu",
		                      i);
		goto out;
	}
	for (size_t k = 0; k < t->nstmts && rc == 0 && err == OTF2_SUCCESS; k++) {
		const pvmmon_log_stmt *s = &t->stmts[k];
		const char *file;
		int32_t line;

		stmt_name(name, sizeof(name), t, s, &file, &line);
		if ((rc = intern(rs, name, file, line, 1, &r)) == 0)
			err = sample(w, al, ts, r, s->time_ns, s->count, s->bytes);
	}
	for (size_t k = 0; k < t->nprocs && rc == 0 && err == OTF2_SUCCESS; k++) {
		const pvmmon_log_proc *p = &t->procs[k];

		snprintf(name, sizeof(name), "%s", p->name ? p->name : "?");
		if ((rc = intern(rs, name, p->file, p->line, 0, &r)) == 0)
			err = sample(w, al, ts, r, raw ? p->raw_incl_ns : p->incl_ns, p->count, 0);
	}
	for (size_t k = 0; k < t->nloops && rc == 0 && err == OTF2_SUCCESS; k++) {
		const pvmmon_log_loop *l = &t->loops[k];

		snprintf(name, sizeof(name), "loop %s", l->name ? l->name : "?");
		if ((rc = intern(rs, name, l->file, l->line, 0, &r)) == 0)
			err = sample(w, al, ts, r, raw ? l->raw_ns : l->time_ns, l->count, 0);
	}
	*count = t->nstmts + t->nprocs + t->nloops;
	if (rc == 0 && err == OTF2_SUCCESS) {
		rc = export__otf2_samples(w, cx, t, ts, ctx_samples);
		*count += *ctx_samples;
	}
	if (rc == 0 && err != OTF2_SUCCESS)
		rc = pvmmon_error_set(PVMMON_EIO,
		                      "export: OTF2 cannot write the profile of task %zu: %s", i,
		                      OTF2_Error_GetDescription(err));
out:
	if (al)
		OTF2_AttributeList_Delete(al);
	if (w && OTF2_Archive_CloseEvtWriter(ar, w) != OTF2_SUCCESS && rc == 0)
		rc = pvmmon_error_set(PVMMON_EIO,
		                      "export: OTF2 cannot write the profile of task %zu", i);
	return rc;
}

/* The metric: time, calls, bytes; and the attribute that names a sample's region. */
static void write_metric_defs(OTF2_GlobalDefWriter *g)
{
	static const OTF2_MetricMemberRef members[3] = {0, 1, 2};

	OTF2_GlobalDefWriter_WriteString(g, S_REGION, "region");
	OTF2_GlobalDefWriter_WriteString(g, S_REGION_DESC, "the region the profile values are of");
	OTF2_GlobalDefWriter_WriteString(g, S_TIME, "time");
	OTF2_GlobalDefWriter_WriteString(g, S_TIME_DESC,
	                                 "time in the region over the run (statements: virtual; "
	                                 "procedures: inclusive)");
	OTF2_GlobalDefWriter_WriteString(g, S_SECONDS, "s");
	OTF2_GlobalDefWriter_WriteString(g, S_CALLS, "calls");
	OTF2_GlobalDefWriter_WriteString(g, S_CALLS_DESC, "executions of the region over the run");
	OTF2_GlobalDefWriter_WriteString(g, S_CALLS_UNIT, "#");
	OTF2_GlobalDefWriter_WriteString(g, S_BYTES, "bytes");
	OTF2_GlobalDefWriter_WriteString(g, S_BYTES_DESC, "message payload bytes (statements)");
	OTF2_GlobalDefWriter_WriteString(g, S_BYTES_UNIT, "bytes");
	OTF2_GlobalDefWriter_WriteAttribute(g, 0, S_REGION, S_REGION_DESC, OTF2_TYPE_REGION);
	/* Time in ns: seconds times 10^-9. */
	OTF2_GlobalDefWriter_WriteMetricMember(g, 0, S_TIME, S_TIME_DESC, OTF2_METRIC_TYPE_USER,
	                                       OTF2_METRIC_ACCUMULATED_START, OTF2_TYPE_INT64,
	                                       OTF2_BASE_DECIMAL, -9, S_SECONDS);
	OTF2_GlobalDefWriter_WriteMetricMember(g, 1, S_CALLS, S_CALLS_DESC, OTF2_METRIC_TYPE_USER,
	                                       OTF2_METRIC_ACCUMULATED_START, OTF2_TYPE_UINT64,
	                                       OTF2_BASE_DECIMAL, 0, S_CALLS_UNIT);
	OTF2_GlobalDefWriter_WriteMetricMember(g, 2, S_BYTES, S_BYTES_DESC, OTF2_METRIC_TYPE_USER,
	                                       OTF2_METRIC_ACCUMULATED_START, OTF2_TYPE_UINT64,
	                                       OTF2_BASE_DECIMAL, 0, S_BYTES_UNIT);
	OTF2_GlobalDefWriter_WriteMetricClass(g, 0, 3, members, OTF2_METRIC_ASYNCHRONOUS,
	                                      OTF2_RECORDER_KIND_ABSTRACT);
}

/* The global definitions: clock, system tree, a process and location per task, the
 * regions, the metric. */
static int write_defs(OTF2_Archive *ar, const pvmmon_log *log, const regions *rs, int real,
                      const uint64_t *counts, const export_otf2_ctxs *cx)
{
	OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(ar);
	size_t nh = log->nhosts ? log->nhosts : 1, nt = log->ntasks;
	uint32_t s_hosts = S_FIXED + 2 * (uint32_t)rs->n, s_tasks = s_hosts + (uint32_t)nh;
	uint64_t length = 0;
	OTF2_ErrorCode err;

	if (!g)
		return pvmmon_error_set(PVMMON_EIO, "export: OTF2 cannot write the definitions");
	for (size_t i = 0; i < nt; i++)
		length =
		    end_of(&log->tasks[i], real) > length ? end_of(&log->tasks[i], real) : length;
	err = OTF2_GlobalDefWriter_WriteClockProperties(g, 1000000000, 0, length + 1,
	                                                OTF2_UNDEFINED_TIMESTAMP);
	OTF2_GlobalDefWriter_WriteString(g, S_EMPTY, "");
	OTF2_GlobalDefWriter_WriteString(g, S_MACHINE, "machine");
	OTF2_GlobalDefWriter_WriteString(g, S_NODE, "node");
	OTF2_GlobalDefWriter_WriteString(g, S_MACHINE_NAME, "PVM virtual machine");
	write_metric_defs(g);
	for (size_t r = 0; r < rs->n; r++) {
		OTF2_GlobalDefWriter_WriteString(g, S_FIXED + 2 * (uint32_t)r, rs->at[r].name);
		OTF2_GlobalDefWriter_WriteString(g, S_FIXED + 2 * (uint32_t)r + 1,
		                                 rs->at[r].file ? rs->at[r].file : "");
	}
	export__otf2_names(g, log, s_hosts, s_tasks);
	for (size_t r = 0; r < rs->n; r++)
		OTF2_GlobalDefWriter_WriteRegion(
		    g, (uint32_t)r, S_FIXED + 2 * (uint32_t)r, S_FIXED + 2 * (uint32_t)r, S_EMPTY,
		    rs->at[r].stmt ? OTF2_REGION_ROLE_POINT2POINT : OTF2_REGION_ROLE_FUNCTION,
		    OTF2_PARADIGM_USER, OTF2_REGION_FLAG_NONE, S_FIXED + 2 * (uint32_t)r + 1,
		    rs->at[r].line > 0 ? (uint32_t)rs->at[r].line : 0, 0);
	if (err == OTF2_SUCCESS)
		err = export__otf2_system_tree(g, log, s_hosts, s_tasks, counts);
	/* The samples' strings and regions after all the others. */
	if (err == OTF2_SUCCESS)
		err = export__otf2_samples_defs(g, cx, s_tasks + (uint32_t)nt, (uint32_t)rs->n);
	if (err != OTF2_SUCCESS)
		return pvmmon_error_set(PVMMON_EIO, "export: OTF2 cannot write the definitions: %s",
		                        OTF2_Error_GetDescription(err));
	return 0;
}

int export__otf2_profile(OTF2_Archive *ar, const pvmmon_log *log, int real,
                         export_otf2_ctxs *cx, uint64_t *counts, uint64_t *samples,
                         uint64_t *ctx_samples)
{
	regions rs = {0};
	int rc = 0;

	*samples = 0;
	for (size_t i = 0; rc == 0 && i < log->ntasks; i++) {
		uint64_t k = 0;

		rc = write_task(ar, log, i, real, &rs, cx, &counts[i], &k);
		*samples += counts[i] - k;
		*ctx_samples += k;
	}
	export__otf2_close_events(ar, log->ntasks, rc == 0);
	if (rc == 0)
		rc = write_defs(ar, log, &rs, real, counts, cx);
	regions_free(&rs);
	return rc;
}
