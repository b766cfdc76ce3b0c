/* The monitor's registry: task registration, logical ids, spawn reports, exits, records. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pvm3.h>

#include "pvmmon/errors.h"
#include "../common/clock.h"
#include "../common/pvmio.h"
#include "../common/wire.h"
#include "monitor.h"

/* A child whose parent never reports the spawn gets a provisional id after this. */
#define PENDING_TIMEOUT_NS 2000000000LL

static const pvmio_fns io = {pvm_send, pvm_recv, pvm_trecv};

mon_task *mon_find(mon_run *run, int32_t tid)
{
	size_t i;

	for (i = 0; i < run->ntasks; i++)
		if (run->tasks[i].rec.tid == tid)
			return &run->tasks[i];
	return NULL;
}

static const mon_spawn *spawn_of(const mon_run *run, const mon_task *t)
{
	size_t i;

	for (i = 0; i < run->nspawns; i++)
		if (run->spawns[i].child == t->rec.tid && run->spawns[i].parent == t->rec.parent_tid)
			return &run->spawns[i];
	return NULL;
}

static void welcome(mon_run *run, mon_task *t)
{
	const mon_spawn *sp = spawn_of(run, t);
	static const wire_cp none;
	wire_buf b;

	wire_buf_init(&b);
	wire_put_u32(&b, WIRE_VERSION);
	wire_put_u32(&b, t->index);
	wire_put_str(&b, t->rec.lid);
	/* Where the child's critical path starts: its parent's at the spawn. */
	wire_put_u64(&b, sp ? (uint64_t)sp->rt : 0);
	wire_cp_put(&b, sp ? &sp->cp : &none);
	/* The critical-path selection as it is now (tasks started later join it). */
	wire_put_u32(&b, run->cp_gen);
	wire_put_u8(&b, run->cp_collecting ? 1 : 0);
	wire_put_u8(&b, run->cp_exclusive ? 1 : 0);
	wire_put_str(&b, run->cp_procs);
	/* Record, replay (the record follows), or neither. */
	wire_put_u8(&b, (uint8_t)run->rr_mode);
	wire_put_u8(&b, (uint8_t)(run->preserve ? 1 : 0));
	/* The rules of dynamic instrumentation so far. */
	{
		char *rules = mon_rules_text(run);

		if (!rules)
			b.failed = 1;
		wire_put_str(&b, rules ? rules : "");
		free(rules);
		/* The budget, in hundredths of a percent (0: none). */
		wire_put_u32(&b, (uint32_t)(run->budget_pct * 100 + 0.5));
	}
	if (!b.failed)
		pvmio_send(&io, run->ctx, t->rec.tid, WIRE_TAG_WELCOME, b.data, b.len);
	wire_buf_free(&b);
	t->welcomed = 1;
	t->pending_since = 0;
	mon_rr_welcomed(run, t);
	/* pvmd tells us when the task ends, whether it says goodbye or crashes. */
	pvm_notify(PvmTaskExit, WIRE_TAG_TASKEXIT, 1, &t->rec.tid);
}

/* Gives t its logical id if its place is known; returns 1 when assigned. */
static int assign_lid(mon_run *run, mon_task *t, int force)
{
	mon_task *parent = t->rec.parent_tid ? mon_find(run, t->rec.parent_tid) : NULL;
	const mon_spawn *sp;
	char buf[256];

	if (!parent) {
		snprintf(buf, sizeof(buf), "%u", run->nroots++);
	} else {
		sp = spawn_of(run, t);
		if (sp)
			snprintf(buf, sizeof(buf), "%s.%u", parent->rec.lid, sp->index);
		else if (force)
			snprintf(buf, sizeof(buf), "%s.t%x", parent->rec.lid, t->rec.tid);
		else
			return 0;
	}
	free(t->rec.lid);
	t->rec.lid = strdup(buf);
	return 1;
}

int mon_register(mon_run *run, int src, const uint8_t *data, size_t len)
{
	wire_register r;
	mon_task *t;

	if (wire_register_decode(&r, data, len) != 0 || r.tid != src) {
		run->bad_messages++;
		free(r.program);
		return 0;
	}
	if (r.token != run->token) {
		free(r.program);
		return -1;
	}
	t = mon_find(run, r.tid);
	if (!t) {
		if (run->ntasks == run->cap_tasks) {
			size_t cap = run->cap_tasks ? run->cap_tasks * 2 : 16;
			mon_task *a = realloc(run->tasks, cap * sizeof(*a));

			if (!a) {
				free(r.program);
				return 0;
			}
			run->tasks = a;
			run->cap_tasks = cap;
		}
		t = &run->tasks[run->ntasks];
		memset(t, 0, sizeof(*t));
		t->index = (uint32_t)run->ntasks++;
	}
	t->rec.tid = r.tid;
	t->rec.parent_tid = r.parent_tid;
	t->rec.pid = r.pid;
	free(t->rec.program);
	t->rec.program = r.program;
	t->rec.status = PVMMON_TASK_RUNNING;
	t->dtid = r.dtid;
	t->rt_start = (int64_t)r.rt_start;
	t->rec.start_ns = t->rt_start - run->t_start;
	/* On the task's own clock until its CLOCK report comes. */
	t->clock_done = 0;
	t->rec.end_ns = t->rec.start_ns;
	run->t_last_change = pvmmon_clock_now();
	if (assign_lid(run, t, 0))
		welcome(run, t);
	else
		t->pending_since = run->t_last_change;
	return 0;
}

void mon_spawned(mon_run *run, int src, const uint8_t *data, size_t len)
{
	wire_in in, tail;
	uint32_t base, n, i;
	size_t k;
	int64_t rt;
	wire_cp cp;

	wire_in_init(&in, data, len);
	base = wire_get_u32(&in);
	n = wire_get_u32(&in);
	if (in.failed || (size_t)n * 4 > in.left) {
		run->bad_messages++;
		return;
	}
	/* After the tids: the parent's spawn time and critical-path tuple. */
	wire_in_init(&tail, in.p + (size_t)n * 4, in.left - (size_t)n * 4);
	rt = (int64_t)wire_get_u64(&tail);
	wire_cp_get(&tail, &cp);
	if (tail.failed || tail.left) {
		run->bad_messages++;
		return;
	}
	/* The spawn time goes to the children on the monitor's clock; each takes its own
	 * host's offset off. */
	{
		const mon_task *parent = mon_find(run, src);

		if (parent && rt)
			rt = mon_to_monitor(run, parent, rt);
	}
	for (i = 0; i < n; i++) {
		int32_t child = (int32_t)wire_get_u32(&in);

		if (run->nspawns == run->cap_spawns) {
			size_t cap = run->cap_spawns ? run->cap_spawns * 2 : 16;
			mon_spawn *a = realloc(run->spawns, cap * sizeof(*a));

			if (!a)
				return;
			run->spawns = a;
			run->cap_spawns = cap;
		}
		run->spawns[run->nspawns].parent = src;
		run->spawns[run->nspawns].child = child;
		run->spawns[run->nspawns].index = base + i;
		run->spawns[run->nspawns].rt = rt;
		run->spawns[run->nspawns].cp = cp;
		run->nspawns++;
	}
	/* Children that registered before this report can be welcomed now. */
	for (k = 0; k < run->ntasks; k++) {
		mon_task *t = &run->tasks[k];

		if (!t->welcomed && t->pending_since && t->rec.parent_tid == src &&
		    assign_lid(run, t, 0))
			welcome(run, t);
	}
}

void mon_pending_timeout(mon_run *run, int64_t now)
{
	size_t k;

	for (k = 0; k < run->ntasks; k++) {
		mon_task *t = &run->tasks[k];

		if (!t->welcomed && t->pending_since && now - t->pending_since > PENDING_TIMEOUT_NS) {
			assign_lid(run, t, 1);
			welcome(run, t);
		}
	}
}

void mon_query(mon_run *run, int src, const uint8_t *data, size_t len)
{
	wire_in in;
	wire_buf b;
	int32_t tid;
	mon_task *t;

	int64_t m_recv = pvmmon_clock_now();

	wire_in_init(&in, data, len);
	tid = (int32_t)wire_get_u32(&in);
	if (in.failed) {
		run->bad_messages++;
		return;
	}
	t = mon_find(run, tid);
	wire_buf_init(&b);
	wire_put_u32(&b, (uint32_t)tid);
	wire_put_u8(&b, t ? 1 : 0);
	/* The monitor's clock when it took the question and when it answers: the asker's
	 * clock offset sample (older readers stop after the flag). */
	wire_put_u64(&b, (uint64_t)m_recv);
	wire_put_u64(&b, (uint64_t)pvmmon_clock_now());
	if (!b.failed)
		pvmio_send(&io, run->ctx, src, WIRE_TAG_ANSWER, b.data, b.len);
	wire_buf_free(&b);
}

void mon_records(mon_run *run, int src, const uint8_t *data, size_t len)
{
	mon_task *t = mon_find(run, src);
	pvmmon_log_task fresh;
	int final = 0;

	if (!t || wire_records_decode(&fresh, &final, data, len) != 0 || fresh.tid != src) {
		run->bad_messages++;
		return;
	}
	/* A flush replaces the previous one: records are cumulative in the task. */
	wire_task_clear(&(pvmmon_log_task){
	    .stmts = t->rec.stmts, .nstmts = t->rec.nstmts, .procs = t->rec.procs,
	    .nprocs = t->rec.nprocs, .loops = t->rec.loops, .nloops = t->rec.nloops,
	    .statics = t->rec.statics, .nstatics = t->rec.nstatics});
	t->rec.statics = fresh.statics;
	t->rec.nstatics = fresh.nstatics;
	t->rec.stmts = fresh.stmts;
	t->rec.nstmts = fresh.nstmts;
	t->rec.procs = fresh.procs;
	t->rec.nprocs = fresh.nprocs;
	t->rec.loops = fresh.loops;
	t->rec.nloops = fresh.nloops;
	t->rec.virtual_ns = fresh.virtual_ns;
	t->rec.intrusion_ns = fresh.intrusion_ns;
	t->rec.raw_ns = fresh.raw_ns;
	t->rec.local_ns = fresh.local_ns;
	t->rec.has_raw = fresh.has_raw;
	t->rec.end_ns = mon_to_monitor(run, t, fresh.end_ns) - run->t_start;
	t->rec.msgs_sent = fresh.msgs_sent;
	t->rec.msgs_recv = fresh.msgs_recv;
	t->rec.bytes_sent = fresh.bytes_sent;
	t->rec.bytes_recv = fresh.bytes_recv;
	t->rec.unmonitored_recv = fresh.unmonitored_recv;
	t->rec.bad_piggybacks = fresh.bad_piggybacks;
	t->rec.cost = fresh.cost;
	t->rec.flushes++;
	if (final) {
		t->final = 1;
		t->rec.status = PVMMON_TASK_EXITED;
	}
	mon_cost_records(run, t);
	run->t_last_change = pvmmon_clock_now();
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/* Drops every kept event that began at or after real time cut (from the run start):
 * the trace is then whole up to cut for every task. */
static void trace_cut_at(mon_run *run, int64_t cut)
{
	size_t i, n;

	if (cut >= run->trace_cut)
		return;
	run->trace_cut = cut;
	for (i = 0; i < run->ntasks; i++) {
		pvmmon_log_task *t = &run->tasks[i].rec;

		/* A task's events are in time order: what goes is a suffix. */
		for (n = t->nevents; n > 0 && t->events[n - 1].rt[0] >= cut; n--)
			;
		run->trace_kept -= t->nevents - n;
		run->trace_dropped += t->nevents - n;
		t->nevents = n;
	}
}

void mon_trace_limit(mon_run *run)
{
	int64_t *starts;
	size_t i, k, n = 0;

	if (run->trace_kept <= run->trace_events)
		return;
	starts = malloc(run->trace_kept * sizeof(*starts));
	if (!starts) {
		trace_cut_at(run, INT64_MIN);
		return;
	}
	for (i = 0; i < run->ntasks; i++)
		for (k = 0; k < run->tasks[i].rec.nevents; k++)
			starts[n++] = run->tasks[i].rec.events[k].rt[0];
	qsort(starts, n, sizeof(*starts), cmp_i64);
	/* Keep the earliest trace_events events (fewer when several start at once). */
	trace_cut_at(run, starts[run->trace_events]);
	free(starts);
}

void mon_trace(mon_run *run, int src, const uint8_t *data, size_t len)
{
	mon_task *t = mon_find(run, src);
	pvmmon_log_event *ev = NULL;
	int32_t tid = 0;
	size_t n = 0, i;

	if (!t || wire_trace_decode(&tid, &ev, &n, data, len) != 0 || tid != src) {
		free(ev);
		run->bad_messages++;
		return;
	}
	for (i = 0; i < n; i++) {
		pvmmon_log_event *e = &ev[i];
		int k;

		/* Times in the log count from the run's start on the monitor's clock, as task
		 * start and end do. */
		for (k = 0; k < 4; k++)
			e->rt[k] = mon_to_monitor(run, t, e->rt[k]) - run->t_start;
		e->vt0 = mon_to_monitor(run, t, e->vt0) - run->t_start;
		e->vt1 = mon_to_monitor(run, t, e->vt1) - run->t_start;
		t->trace_received++;
		if (e->rt[0] >= run->trace_cut) {
			run->trace_dropped++;
			continue;
		}
		if (t->rec.nevents == t->cap_events) {
			size_t cap = t->cap_events ? t->cap_events * 2 : 1024;
			pvmmon_log_event *g = realloc(t->rec.events, cap * sizeof(*g));

			if (!g) {
				run->trace_dropped++;
				trace_cut_at(run, e->rt[0]);
				continue;
			}
			t->rec.events = g;
			t->cap_events = cap;
		}
		t->rec.events[t->rec.nevents++] = *e;
		run->trace_kept++;
	}
	/* A task stops tracing after trace_events events: nothing of it exists after its
	 * last one, so the whole trace can only be complete up to there. */
	if (n && t->trace_received >= run->trace_events)
		trace_cut_at(run, ev[n - 1].rt[0] + 1);
	/* Holding up to twice the limit keeps the monitor's memory bounded while sparing
	 * a sort for every chunk. */
	if (run->trace_kept > 2 * run->trace_events)
		mon_trace_limit(run);
	free(ev);
	run->t_last_change = pvmmon_clock_now();
}

void mon_cp_sample(mon_run *run, int src, const uint8_t *data, size_t len)
{
	mon_task *t = mon_find(run, src);
	wire_in in;
	wire_cp cp;
	int32_t tid;

	wire_in_init(&in, data, len);
	if (wire_get_u32(&in) != WIRE_VERSION) {
		run->bad_messages++;
		return;
	}
	tid = (int32_t)wire_get_u32(&in);
	wire_get_u8(&in);  /* final: the task's final records say so too */
	wire_get_u64(&in); /* the sample's virtual time */
	wire_cp_get(&in, &cp);
	if (in.failed || in.left || !t || tid != src) {
		run->bad_messages++;
		return;
	}
	/* A sample of an earlier selection belongs to a collection that is over. */
	if (!cp.on || cp.gen != run->cp_gen)
		return;
	/* A task's path only grows, so its latest sample is its best (Figure 4). */
	t->cp = cp;
	run->cp_samples++;
}

void mon_tell_tasks(mon_run *run, const wire_ctl *c, int32_t except)
{
	wire_buf b;
	size_t i;

	wire_buf_init(&b);
	wire_ctl_encode(&b, c);
	for (i = 0; i < run->ntasks && !b.failed; i++)
		if (run->tasks[i].welcomed && !run->tasks[i].gone && run->tasks[i].rec.tid != except)
			pvmio_send(&io, run->ctx, run->tasks[i].rec.tid, WIRE_TAG_CTL, b.data, b.len);
	wire_buf_free(&b);
}

void mon_cp_start(mon_run *run, const char *procs, int exclusive)
{
	wire_ctl c = {WIRE_CTL_CP_START, 0, exclusive, NULL, 0};
	size_t i;
	char *p = procs ? strdup(procs) : NULL;

	if (!p)
		return;
	free(run->cp_procs);
	run->cp_procs = p;
	run->cp_exclusive = exclusive;
	run->cp_gen++;
	run->cp_collecting = 1;
	run->cp_from_ns = pvmmon_clock_now() - run->t_start;
	run->cp_to_ns = -1;
	run->cp_samples = 0;
	for (i = 0; i < run->ntasks; i++)
		memset(&run->tasks[i].cp, 0, sizeof(run->tasks[i].cp));
	c.gen = run->cp_gen;
	c.procs = run->cp_procs;
	mon_tell_tasks(run, &c, 0);
}

void mon_cp_stop(mon_run *run)
{
	wire_ctl c = {WIRE_CTL_CP_STOP, 0, 0, NULL, 0};

	if (!run->cp_collecting)
		return;
	c.gen = run->cp_gen;
	run->cp_collecting = 0;
	run->cp_to_ns = pvmmon_clock_now() - run->t_start;
	mon_tell_tasks(run, &c, 0);
}

int mon_status(mon_run *run, int src, const uint8_t *data, size_t len)
{
	wire_ctl c;
	char *xml = NULL;
	size_t n = 0;

	if (wire_ctl_decode(&c, data, len) != 0) {
		run->bad_messages++;
		return 0;
	}
	if (c.token != run->token) {
		free(c.procs);
		return -1;
	}
	if (c.cmd == WIRE_CTL_CP_START && c.procs && *c.procs)
		mon_cp_start(run, c.procs, c.exclusive);
	else if (c.cmd == WIRE_CTL_CP_STOP)
		mon_cp_stop(run);
	else if ((c.cmd == WIRE_CTL_ENABLE || c.cmd == WIRE_CTL_DISABLE) && c.procs &&
		 mon_switch(run, c.cmd == WIRE_CTL_ENABLE, c.procs, 0, NULL) < 0)
		run->bad_messages++;
	free(c.procs);
	if (mon_snapshot(run, &xml, &n) == 0)
		pvmio_send(&io, run->ctx, src, WIRE_TAG_SNAPSHOT, xml, n);
	free(xml);
	return 0;
}

void mon_task_exit(mon_run *run, int32_t tid)
{
	mon_task *t = mon_find(run, tid);

	if (!t)
		return;
	t->gone = 1;
	mon_clock_task_gone(run, t);
	/* Without a final flush the task died without saying goodbye. The final flush is
	 * sent before pvm_exit, so it is already here when the exit is. */
	t->rec.status = t->final ? PVMMON_TASK_EXITED : PVMMON_TASK_CRASHED;
	run->t_last_change = pvmmon_clock_now();
}

int mon_all_done(const mon_run *run)
{
	size_t i;

	for (i = 0; i < run->ntasks; i++)
		if (!run->tasks[i].gone)
			return 0;
	return 1;
}

void mon_free(mon_run *run)
{
	size_t i;

	for (i = 0; i < run->ntasks; i++) {
		wire_task_clear(&run->tasks[i].rec);
		wire_buf_free(&run->tasks[i].record);
		mon_cost_free(&run->tasks[i]);
	}
	mon_rules_free(run);
	for (i = 0; i < run->npending_lids; i++)
		free(run->pending_lids[i].lid);
	free(run->pending_lids);
	pvmmon_log_free(run->replay_log);
	free(run->tasks);
	free(run->spawns);
	mon_clocks_free(run);
	run->tasks = NULL;
	run->spawns = NULL;
	run->ntasks = run->nspawns = 0;
}
