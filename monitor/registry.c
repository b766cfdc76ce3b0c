/* The registration protocol at the monitor: tasks registering and being welcomed with
 * their logical ids, parents' spawn reports, questions about tids, flushes of records,
 * and exits. The task table itself is tasks.c's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/clock.h"
#include "../common/log_fields.h"
#include "../common/wire.h"
#include "calib.h"
#include "capacity.h"
#include "clocks.h"
#include "cost.h"
#include "histmerge.h"
#include "pvmmon/errors.h"
#include "findings.h"
#include "registry.h"
#include "rrmon.h"
#include "tasks.h"

/* A child whose parent never reports the spawn gets a provisional id after this. */
#define PENDING_TIMEOUT_NS 2000000000LL

static void welcome(mon_run *run, mon_task *t)
{
	const mon_spawn *sp = tasks__spawn_of(run, t);
	/* Where the child's critical path starts: its parent's at the spawn; the
	 * critical-path selection as it is now (tasks started later join it); record,
	 * replay (the record follows) or neither; the rules of dynamic instrumentation so
	 * far and the budget, in hundredths of a percent (0: none). */
	wire_welcome w = {t->index,
	                  t->rec.lid,
	                  sp ? sp->rt : 0,
	                  {0},
	                  run->cp_gen,
	                  run->cp_collecting ? 1 : 0,
	                  run->cp_exclusive ? 1 : 0,
	                  run->cp_procs,
	                  (uint8_t)run->rr_mode,
	                  run->preserve ? 1 : 0,
	                  NULL,
	                  (uint32_t)(run->budget_pct * 100 + 0.5),
	                  run->hist_buckets,
	                  run->hist_width_ns,
	                  run->hist_hottest,
	                  !run->hist_off,
	                  run->hist_run,
	                  run->hist_ctl,
	                  {0},
	                  (uint8_t)(run->sample_ctl ? 1 : 0),
	                  run->sample_hz};
	wire_buf b;

	if (sp)
		w.from = sp->cp;
	calib__of_host(&w.cal, run, t->dtid);
	wire__buf_init(&b);
	if (cost__rules_text(&w.rules, run) < 0)
		b.failed = 1;
	wire__welcome_encode(&b, &w);
	tasks__send(run, t->rec.tid, WIRE_TAG_WELCOME, &b);
	free(w.rules);
	wire__buf_free(&b);
	t->welcomed = 1;
	t->pending_since = 0;
	rrmon__welcomed(run, t);
	/* pvmd tells us when the task ends, whether it says goodbye or crashes (asked
	 * already if its spawn report came before it registered). */
	if (!tasks__spawn_exit_asked(run, t->rec.tid))
		run->io.notify_exit(t->rec.tid);
}

/* Gives t its logical id if its place is known; returns 1 when assigned. */
static int assign_lid(mon_run *run, mon_task *t, int force)
{
	mon_task *parent = t->rec.parent_tid ? tasks__find(run, t->rec.parent_tid) : NULL;
	const mon_spawn *sp;
	char buf[256];

	if (!parent) {
		snprintf(buf, sizeof(buf), "%u", run->nroots++);
	} else {
		sp = tasks__spawn_of(run, t);
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

/*
 * A process that called pvm_exit and enrolled again registers with a new tid and names
 * its earlier one (earlier): the new task is a task of its own (a root: PVM gives it
 * no parent), noted with the earlier tid and said on stderr.
 */
static void earlier_incarnation(mon_run *run, mon_task *t, int32_t earlier)
{
	const mon_task *o = earlier ? tasks__find(run, earlier) : NULL;

	if (!earlier)
		return;
	t->rec.earlier_tid = earlier;
	/* A parent it names (PVMEPID, from its spawn) has no spawn of this tid. */
	t->rec.parent_tid = 0;
	fprintf(stderr, "pvmmon: task t%x (%s) enrolled again after pvm_exit as t%x\n",
	        (unsigned)earlier, o && o->rec.lid ? o->rec.lid : "?", (unsigned)t->rec.tid);
	fflush(stderr);
}

int registry__register(mon_run *run, int src, const uint8_t *data, size_t len)
{
	wire_register r;
	mon_task *t;

	if (wire__register_decode(&r, data, len) != 0 || r.tid != src) {
		run->bad_messages++;
		wire__register_clear(&r);
		return 0;
	}
	if (r.token != run->token) {
		wire__register_clear(&r);
		return PVMMON_EINVAL;
	}
	if (tasks__add(&t, run, r.tid) < 0) {
		wire__register_clear(&r);
		return 0;
	}
	free(t->exe);
	t->exe = r.exe;
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
	earlier_incarnation(run, t, r.earlier_tid);
	if (assign_lid(run, t, 0))
		welcome(run, t);
	else
		t->pending_since = run->t_last_change;
	capacity__check(run, run->t_last_change);
	return 0;
}

void registry__spawned(mon_run *run, int src, const uint8_t *data, size_t len)
{
	wire_spawned s;
	uint32_t i;
	size_t k;
	int64_t rt;

	if (wire__spawned_decode(&s, data, len) < 0) {
		run->bad_messages++;
		return;
	}
	rt = s.rt;
	/* The spawn time goes to the children on the monitor's clock; each takes its own
	 * host's offset off. */
	{
		const mon_task *parent = tasks__find(run, src);

		if (parent && rt)
			rt = clocks__to_monitor(run, parent, rt);
	}
	for (i = 0; i < s.n; i++) {
		mon_spawn sp = {src, s.tids[i], s.base + i, rt, s.cp, pvmmon_clock_now(), 0, 0};

		/* A child not registered yet: its exit is asked for now, so that the run
		 * waits for it and learns if it ends without registering. */
		if (sp.child > 0 && !tasks__find(run, sp.child) &&
		    run->io.notify_exit(sp.child) >= 0)
			sp.exit_asked = 1;
		if (tasks__spawn_add(run, &sp) < 0) {
			wire__spawned_clear(&s);
			return;
		}
	}
	wire__spawned_clear(&s);
	/* Children that registered before this report can be welcomed now. */
	for (k = 0; k < tasks__count(run); k++) {
		mon_task *t = tasks__at(run, k);

		if (!t->welcomed && t->pending_since && t->rec.parent_tid == src &&
		    assign_lid(run, t, 0))
			welcome(run, t);
	}
	capacity__check(run, pvmmon_clock_now());
}

void registry__pending_timeout(mon_run *run, int64_t now)
{
	size_t k;

	for (k = 0; k < tasks__count(run); k++) {
		mon_task *t = tasks__at(run, k);

		if (!t->welcomed && t->pending_since &&
		    now - t->pending_since > PENDING_TIMEOUT_NS) {
			assign_lid(run, t, 1);
			welcome(run, t);
		}
	}
}

void registry__query(mon_run *run, int src, const uint8_t *data, size_t len)
{
	wire_query q;
	wire_answer a;
	wire_buf b;

	int64_t m_recv = pvmmon_clock_now();

	if (wire__query_decode(&q, data, len) < 0) {
		run->bad_messages++;
		return;
	}
	/* The monitor's clock when it took the question and when it answers: the asker's
	 * clock offset sample. */
	a = (wire_answer){q.tid, tasks__find(run, q.tid) ? 1 : 0, m_recv, pvmmon_clock_now()};
	wire__buf_init(&b);
	wire__answer_encode(&b, &a);
	tasks__send(run, src, WIRE_TAG_ANSWER, &b);
	wire__buf_free(&b);
}

/* Makes room in *a (of size-byte entries) for total entries, the new ones zeroed. */
static int room(void **a, size_t n, size_t total, size_t size)
{
	void *g;

	if (total <= n)
		return 0;
	g = realloc(*a, total * size);
	if (!g)
		return -1;
	memset((char *)g + n * size, 0, (total - n) * size);
	*a = g;
	return 0;
}

/*
 * A delta flush's proc and loop records into the task's (wire_records_delta): each
 * carried record takes its place, and the one it replaces goes to fresh, which the
 * caller clears. Every record beyond the task's earlier ones must come, and none may
 * go: -1 otherwise (the flush is then refused whole, and the records stay as they were).
 */
static int merge_delta(pvmmon_log_task *have, pvmmon_log_task *fresh, const wire_records_delta *d)
{
	size_t i, newp = 0, newl = 0;

	if (d->nprocs < have->nprocs || d->nloops < have->nloops)
		return -1;
	for (i = 0; i < d->npidx; i++)
		newp += d->pidx[i] >= have->nprocs;
	for (i = 0; i < d->nlidx; i++)
		newl += d->lidx[i] >= have->nloops;
	if (newp != d->nprocs - have->nprocs || newl != d->nloops - have->nloops ||
	    room((void **)&have->procs, have->nprocs, d->nprocs, sizeof(*have->procs)) ||
	    room((void **)&have->loops, have->nloops, d->nloops, sizeof(*have->loops)))
		return -1;
	have->nprocs = d->nprocs;
	have->nloops = d->nloops;
	for (i = 0; i < d->npidx; i++) {
		pvmmon_log_proc p = have->procs[d->pidx[i]];

		have->procs[d->pidx[i]] = fresh->procs[i];
		fresh->procs[i] = p;
	}
	for (i = 0; i < d->nlidx; i++) {
		pvmmon_log_loop l = have->loops[d->lidx[i]];

		have->loops[d->lidx[i]] = fresh->loops[i];
		fresh->loops[i] = l;
	}
	return 0;
}

/* Swaps two arrays and their counts. */
#define SWAP_ARRAY(a, na, b, nb)                                                           \
	do {                                                                               \
		void *p_ = (a);                                                            \
		size_t n_ = (na);                                                          \
		(a) = (b);                                                                 \
		(na) = (nb);                                                               \
		(b) = p_;                                                                  \
		(nb) = n_;                                                                 \
	} while (0)

/* The statement, proc and loop records of a whole flush replace the task's; a delta's
 * are merged (merge_delta). The static tables, which never change, come once
 * (records_send.c): a flush without them keeps the last ones. What is replaced ends
 * up in fresh, which is cleared of it. -1: a bad delta. */
static int take_records(pvmmon_log_task *have, pvmmon_log_task *fresh, const wire_records_delta *d)
{
	pvmmon_log_task old;

	if (d->delta && merge_delta(have, fresh, d) < 0)
		return -1;
	if (fresh->nstatics > 0)
		SWAP_ARRAY(have->statics, have->nstatics, fresh->statics, fresh->nstatics);
	SWAP_ARRAY(have->stmts, have->nstmts, fresh->stmts, fresh->nstmts);
	if (!d->delta) {
		SWAP_ARRAY(have->procs, have->nprocs, fresh->procs, fresh->nprocs);
		SWAP_ARRAY(have->loops, have->nloops, fresh->loops, fresh->nloops);
	}
	old = (pvmmon_log_task){.statics = fresh->statics,
	                        .nstatics = fresh->nstatics,
	                        .stmts = fresh->stmts,
	                        .nstmts = fresh->nstmts,
	                        .procs = fresh->procs,
	                        .nprocs = fresh->nprocs,
	                        .loops = fresh->loops,
	                        .nloops = fresh->nloops};
	wire__task_clear(&old);
	fresh->statics = NULL;
	fresh->stmts = NULL;
	fresh->procs = NULL;
	fresh->loops = NULL;
	fresh->nstatics = fresh->nstmts = fresh->nprocs = fresh->nloops = 0;
	return 0;
}

void registry__records(mon_run *run, int src, const uint8_t *data, size_t len)
{
	mon_task *t = tasks__find(run, src);
	pvmmon_log_task fresh;
	wire_records_delta d;
	int final = 0, rc;

	if (!t)
		rc = -1;
	else if ((rc = wire__records_decode_delta(&fresh, &final, &d, data, len)) == 0) {
		rc = fresh.tid == src ? take_records(&t->rec, &fresh, &d) : -1;
		wire__records_delta_clear(&d);
		if (rc < 0)
			wire__task_clear(&fresh);
	}
	if (rc < 0) {
		run->bad_messages++;
		return;
	}
	/* The samples are cumulative too; a flush without them keeps the last ones. */
	if (fresh.samples) {
		pvmmon_log_samples_free(t->rec.samples);
		t->rec.samples = fresh.samples;
		fresh.samples = NULL;
	}
	/* So is the online wait analysis's table (the task's waits so far): the fresh one
	 * when the flush has one, else the last. */
	if (fresh.nblames > 0) {
		free(t->rec.blames);
		t->rec.blames = fresh.blames;
		t->rec.nblames = fresh.nblames;
	}
	/* The task's own figures (the list's COPY fields); its end in the monitor's time. */
	log__task_copy(&t->rec, &fresh);
	t->rec.end_ns = clocks__to_monitor(run, t, fresh.end_ns) - run->t_start;
	t->rec.cost = fresh.cost;
	free(t->rec.clock);
	t->rec.clock = fresh.clock;
	fresh.clock = NULL;
	histmerge__take(run, t, &fresh);
	t->rec.flushes++;
	t->rec.records_bytes += len;
	if (final) {
		t->final = 1;
		findings__task_final(run, src);
		if (!t->rec.signal)
			t->rec.status = PVMMON_TASK_EXITED;
	}
	cost__records(run, t);
	run->t_last_change = pvmmon_clock_now();
}

void registry__task_exit(mon_run *run, int32_t tid)
{
	mon_task *t = tasks__find(run, tid);

	if (!t) {
		/* A spawned child that ended without registering. */
		if (tasks__spawn_exited(run, tid))
			run->t_last_change = pvmmon_clock_now();
		return;
	}
	/* gone first: the host's next keeper is chosen among the others. */
	tasks__gone(t);
	clocks__task_gone(run, t);
	/* Its unspawned children can no longer come: a replay waiting for one goes on. */
	rrmon__lids_unreachable(run);
	run->t_last_change = pvmmon_clock_now();
}
