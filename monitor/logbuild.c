/* Builds the XML log of a run from the monitor's registry and writes it atomically. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <pvm3.h>

#include "../common/clock.h"
#include "clocks.h"
#include "ending.h"
#include "findings.h"
#include "hang.h"
#include "histmerge.h"
#include "logbuild.h"
#include "preserve.h"
#include "pvmmon/errors.h"
#include "rrmon.h"
#include "tasks.h"
#include "trace.h"

static char *dup_or_null(const char *s) { return s ? strdup(s) : NULL; }

/* The hosts of the virtual machine as the pvmd last listed them: a cache, so that a log
 * written after the pvmd died (a pvmd that reached its descriptor limit) still names
 * them; and how many of the task table's tasks have been checked against it. */
static struct {
	pvmmon_log_host *h;
	size_t n, tasks_seen;
} known;

/* Reads the hosts from the pvmd into the cache; 0, PVMMON_EPVM when the pvmd cannot
 * say (the cache is kept), PVMMON_ENOMEM. */
static int read_hosts(void)
{
	struct pvmhostinfo *hosts;
	int nhost = 0, narch = 0, info;
	pvmmon_log_host *h;

	if ((info = pvm_config(&nhost, &narch, &hosts)) < 0 || nhost <= 0)
		return pvmmon_error_set(PVMMON_EPVM, "monitor: pvm_config gives no hosts (%d)",
		                        info < 0 ? info : nhost);
	h = calloc((size_t)nhost, sizeof(*h));
	if (!h)
		return pvmmon_error_set(PVMMON_ENOMEM, "monitor: out of memory for the hosts");
	for (int i = 0; i < nhost; i++) {
		h[i].name = dup_or_null(hosts[i].hi_name);
		h[i].arch = dup_or_null(hosts[i].hi_arch);
		h[i].dtid = hosts[i].hi_tid;
	}
	for (size_t i = 0; i < known.n; i++) {
		free(known.h[i].name);
		free(known.h[i].arch);
	}
	free(known.h);
	known.h = h;
	known.n = (size_t)nhost;
	return 0;
}

void logbuild__note_hosts(const mon_run *run)
{
	int fresh = 0;

	for (; known.tasks_seen < tasks__count(run); known.tasks_seen++) {
		const mon_task *t = tasks__at(run, known.tasks_seen);
		size_t i;

		for (i = 0; i < known.n && known.h[i].dtid != t->dtid; i++)
			;
		fresh |= i == known.n;
	}
	if (fresh)
		read_hosts();
}

/* Fills the hosts of the virtual machine, with the clock offset each host's tasks
 * used; tasks name their host through these. Without the pvmd, the hosts it listed
 * last. */
static void add_hosts(pvmmon_log *log, const mon_run *run)
{
	read_hosts();
	if (!known.n)
		return;
	log->hosts = calloc(known.n, sizeof(*log->hosts));
	if (!log->hosts)
		return;
	for (size_t i = 0; i < known.n; i++) {
		const mon_host_clock *c = clocks__host(run, known.h[i].dtid);

		log->hosts[i].name = dup_or_null(known.h[i].name);
		log->hosts[i].arch = dup_or_null(known.h[i].arch);
		log->hosts[i].dtid = known.h[i].dtid;
		/* The monitor's own host is the reference: offset 0 exactly. */
		if (!c && known.h[i].dtid == run->myhost)
			log->hosts[i].clock_known = 1;
		if (c) {
			log->hosts[i].clock_known = 1;
			log->hosts[i].clock_offset_ns = c->model.offset;
			log->hosts[i].clock_uncertainty_ns = c->uncertainty;
			log->hosts[i].clock_estimates = (uint32_t)c->npts;
			log->hosts[i].clock_drift_ppb = (int64_t)(c->model.rate * 1e9);
			if (c->npts)
				log->hosts[i].clock_at_ns =
				    clockmodel__to_common(&c->model, c->model.tref) - run->t_start;
		}
	}
	log->nhosts = known.n;
}

/* The group server's tid (libgpvm3's pvmgs, an unmonitored PVM task), from the entry
 * it keeps in PVM's mailbox; 0 when there is none. Read when the log is built, so the
 * receive buffer the monitor holds is set aside and put back. */
static int group_server_tid(void)
{
	int rb = pvm_setrbuf(0), b, tid = 0;

	b = pvm_recvinfo("pvmgs", 0, PvmMboxDefault);
	if (b > 0) {
		pvm_setrbuf(b);
		if (pvm_upkint(&tid, 1, 1) < 0 || tid <= 0)
			tid = 0;
		pvm_freebuf(b);
	}
	pvm_setrbuf(rb);
	return tid;
}

/* Names each statement's partners: a task by its logical id, the group server as
 * such. */
static void name_partners(mon_run *run, pvmmon_log_stmt *s, int gs)
{
	for (size_t k = 0; k < s->ncom; k++) {
		pvmmon_log_com *c = &s->com[k];
		mon_task *p = tasks__find(run, c->partner_tid);

		if (c->partner_lid)
			continue;
		if (p && p->rec.lid)
			c->partner_lid = strdup(p->rec.lid);
		else if (gs && c->partner_tid == gs)
			c->partner_lid = strdup(PVMMON_LOG_GROUP_SERVER);
	}
}

static const char *host_of(const pvmmon_log *log, int32_t dtid)
{
	size_t i;

	for (i = 0; i < log->nhosts; i++)
		if (log->hosts[i].dtid == dtid)
			return log->hosts[i].name;
	return "unknown";
}

static void add_setting(pvmmon_log *log, const char *key, const char *value);

/* add_setting for modules that do not know the log model. */
static void setting_cb(void *log, const char *key, const char *value)
{
	add_setting(log, key, value);
}

static void add_setting(pvmmon_log *log, const char *key, const char *value)
{
	pvmmon_log_setting *s = realloc(log->settings, (log->nsettings + 1) * sizeof(*s));

	if (!s)
		return;
	log->settings = s;
	s[log->nsettings].key = strdup(key);
	s[log->nsettings].value = strdup(value);
	log->nsettings++;
}

/* Fills the log's trace summary, the kept trace cut to the size limit first. */
static void trace_summary(mon_run *run, pvmmon_log *log)
{
	trace__limit(run);
	log->trace.enabled = 1;
	log->trace.limit_bytes = run->trace_bytes;
	log->trace.kept = run->trace_kept;
	log->trace.dropped = run->trace_dropped;
	log->trace.complete_until_ns =
	    run->trace_cut < log->wall_ns ? run->trace_cut : log->wall_ns;
}

/*
 * The run's critical path from the tasks' latest tuples (seed 003 Figure 4): the
 * longest path is the longest of any task; each procedure's share is its share of that
 * path; its zeroing value is how much shorter the longest path gets when the
 * procedure's own time is taken out of every path (Figure 5's net lengths).
 */
static void cp_results(const mon_run *run, pvmmon_log *log)
{
	const char *p = run->cp_procs;
	const mon_task *best = NULL;
	size_t i, n = 0;

	log->cp.enabled = 1;
	log->cp.exclusive = run->cp_exclusive;
	log->cp.samples = run->cp_samples;
	log->cp.generation = run->cp_gen;
	log->cp.collecting = run->cp_collecting;
	log->cp.from_ns = run->cp_from_ns;
	log->cp.to_ns = run->cp_collecting ? -1 : run->cp_to_ns;
	for (i = 0; i < tasks__count(run); i++) {
		const mon_task *t = tasks__at(run, i);

		if (t->cp.on && (!best || t->cp.longest > best->cp.longest))
			best = t;
	}
	if (best) {
		log->cp.length_ns = best->cp.longest;
		log->cp.end_tid = best->rec.tid;
	}
	log->cp.procs = calloc(WIRE_CP_MAX, sizeof(*log->cp.procs));
	while (log->cp.procs && p && *p && n < WIRE_CP_MAX) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		int64_t net = 0;

		if (len == 0) {
			p += 1;
			continue;
		}
		log->cp.procs[n].name = strndup(p, len);
		for (i = 0; i < tasks__count(run); i++) {
			const wire_cp *c = &tasks__at(run, i)->cp;

			if (c->on && n < c->n && c->zlong[n] - c->zshare[n] > net)
				net = c->zlong[n] - c->zshare[n];
		}
		if (best && n < best->cp.n) {
			log->cp.procs[n].share_ns = best->cp.share[n];
			log->cp.procs[n].zero_ns = log->cp.length_ns - net;
		}
		n++;
		p += len + (e ? 1 : 0);
	}
	log->cp.nprocs = log->cp.procs ? n : 0;
}

/*
 * Builds the log of the run so far into *out. The tasks are lent to the log (their
 * records stay the monitor's): release() takes them back before the log is freed.
 * Without with_events the tasks' traces are left out.
 */
/* The wait reports received and the hangs said so far (hang.c), copied: the log frees
 * what it holds. */
static void add_hangs(mon_run *run, pvmmon_log *log)
{
	size_t n = hang__count(run);
	char num[32];

	snprintf(num, sizeof(num), "%llu", (unsigned long long)hang__reports(run));
	add_setting(log, "wait-reports", num);

	if (!n)
		return;
	log->hangs = calloc(n, sizeof(*log->hangs));
	for (size_t i = 0; log->hangs && i < n; i++) {
		log->hangs[i].kind = dup_or_null(hang__kind(run, i));
		log->hangs[i].text = dup_or_null(hang__text(run, i));
		log->hangs[i].delay_ns = hang__delay(run, i);
	}
	log->nhangs = log->hangs ? n : 0;
}

/* The budget and its switches, copied: the log frees what it holds. */
static void copy_switches(const mon_run *run, pvmmon_log *log)
{
	log->budget_pct = run->budget_pct;
	if (!run->nswitches)
		return;
	log->switches = calloc(run->nswitches, sizeof(*log->switches));
	for (size_t i = 0; log->switches && i < run->nswitches; i++) {
		const pvmmon_log_switch *w = &run->switches[i];

		log->switches[i] = *w;
		log->switches[i].resource = dup_or_null(w->resource);
		log->switches[i].by = dup_or_null(w->by);
		log->switches[i].reason = dup_or_null(w->reason);
	}
	log->nswitches = log->switches ? run->nswitches : 0;
}

static int build(mon_run *run, int with_events, pvmmon_log **out)
{
	pvmmon_log *log = NULL;
	char num[32];
	size_t i, j;
	int rc, gs;

	rc = pvmmon_log_new(&log);
	if (rc < 0)
		return rc;
	log->tool_version = strdup(PVMMON_VERSION);
	log->program = dup_or_null(run->program        ? run->program
	                           : tasks__count(run) ? tasks__at(run, 0)->rec.program
	                                               : "unknown");
	if (run->nargs) {
		log->args = calloc(run->nargs, sizeof(char *));
		for (i = 0; log->args && i < run->nargs; i++)
			log->args[i] = strdup(run->args[i]);
		log->nargs = log->args ? run->nargs : 0;
	}
	log->mode = strdup(run->rr_mode == 2 ? "replay" : run->preserve ? "preserve" : "observe");
	/* A replay records what it observed too, so its log can be replayed in turn. */
	log->replayable = run->rr_mode != 0;
	log->started = strdup(run->started);
	log->wall_ns = (run->ended ? run->t_ended : pvmmon_clock_now()) - run->t_start;
	log->exit_code = run->ended ? run->exit_code : -1;
	snprintf(num, sizeof(num), "%u", run->flush_ms);
	add_setting(log, "flush-ms", num);
	add_setting(log, "start", run->auto_mode ? "auto" : "pvmmon run");
	add_setting(log, "pvm-version", pvm_version());
	snprintf(num, sizeof(num), "%llu", (unsigned long long)run->bad_messages);
	add_setting(log, "rejected-control-messages", num);
	snprintf(num, sizeof(num), "%llu", (unsigned long long)run->refused);
	add_setting(log, "refused-control-messages", num);
	/*
	 * The monitor's peak memory so far, so that a log shows whether the monitor stays
	 * bounded on a long run. ru_maxrss (kB on Linux) also covers the child of pvmmon
	 * run between its fork and the exec, but that holds only the pages copied at the
	 * fork: measured, ru_maxrss stays at or below the monitor's own VmHWM.
	 */
	{
		struct rusage ru;

		if (getrusage(RUSAGE_SELF, &ru) == 0) {
			snprintf(num, sizeof(num), "%ld", ru.ru_maxrss);
			add_setting(log, "monitor-peak-rss-kb", num);
		}
	}
	if (run->trace_bytes) {
		snprintf(num, sizeof(num), "%llu", (unsigned long long)run->trace_bytes);
		add_setting(log, "trace-bytes", num);
	}
	if (run->pr)
		preserve__settings(run, setting_cb, log);
	/* The most tasks one host held at once (monitor/capacity.c). */
	snprintf(num, sizeof(num), "%zu", run->host_tasks_peak);
	add_setting(log, "host-tasks-peak", num);
	add_hosts(log, run);

	if (run->trace_bytes && with_events) {
		trace_summary(run, log);
		preserve__trace(run, log);
	}
	if (run->cp_procs) {
		add_setting(log, "cp", run->cp_procs);
		cp_results(run, log);
	}
	copy_switches(run, log);
	add_hangs(run, log);
	findings__to_log(run, log);
	if (run->cp_top_m) {
		log->cp.top_m = run->cp_top_m;
		log->cp.phases = run->cp_phases;
		log->cp.found = run->cp_found ? strdup(run->cp_found) : NULL;
	}
	log->tasks = calloc(tasks__count(run) ? tasks__count(run) : 1, sizeof(*log->tasks));
	if (!log->tasks) {
		pvmmon_log_free(log);
		return pvmmon_error_set(PVMMON_ENOMEM, NULL);
	}
	gs = group_server_tid();
	for (i = 0; i < tasks__count(run); i++) {
		mon_task *t = tasks__at(run, i);

		if (!t->rec.host)
			t->rec.host = dup_or_null(host_of(log, t->dtid));
		if (!t->rec.lid)
			t->rec.lid = strdup("?");
		for (j = 0; j < t->rec.nstmts; j++) {
			pvmmon_log_stmt *s = &t->rec.stmts[j];

			tasks__resolve_stmt(s);
			name_partners(run, s, gs);
		}
		ending__describe(run, t);
		log->tasks[i] = t->rec;
		/* Lent by hang.c like the rest. */
		log->tasks[i].waiting = (char *)hang__waiting(run, t->rec.tid);
		/* The record is made for the log (senders as logical ids) and is its own. */
		if (with_events && run->rr_mode != 0)
			rrmon__fill(&log->tasks[i], run, t);
		if (!with_events) {
			log->tasks[i].nevents = 0;
			log->tasks[i].events = NULL;
		}
	}
	log->ntasks = tasks__count(run);
	histmerge__build(run, log);
	*out = log;
	return 0;
}

/* Takes the lent tasks back and frees the rest of log. */
static void release(pvmmon_log *log)
{
	for (size_t i = 0; i < log->ntasks; i++) {
		pvmmon_log_task *t = &log->tasks[i];

		free(t->record);
		for (size_t k = 0; k < t->record_nsenders; k++)
			free(t->record_senders[k]);
		free(t->record_senders);
	}
	free(log->tasks);
	log->tasks = NULL;
	log->ntasks = 0;
	pvmmon_log_free(log);
}

int logbuild__write(mon_run *run)
{
	pvmmon_log *log = NULL;
	int rc = build(run, 1, &log);

	if (rc < 0)
		return rc;
	rc = pvmmon_log_write(log, run->log_path);
	release(log);
	return rc;
}

int logbuild__snapshot(char **out, size_t *len, mon_run *run)
{
	pvmmon_log *log = NULL;
	int rc = build(run, 0, &log);

	if (rc < 0)
		return rc;
	rc = pvmmon_log_format(out, len, log);
	release(log);
	return rc;
}
