/*
 * The monitor's side of preserve mode: the tasks' reports (their states and message
 * counts), which wake the decisions on nondeterministic receives (prdecide.c), and the
 * tasks' waits, which hang.c judges as it judges plain mode's wait reports (one
 * diagnosis for every mode).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/clock.h"
#include "clocks.h"
#include "hang.h"
#include "preserve.h"
#include "preserve_impl.h"
#include "pvmmon/errors.h"
#include "tasks.h"

/* A wait is handed to hang.c once it has lasted this long, as a task in plain mode
 * reports its wait after the threshold (PVMMON_WAIT_MS): short waits cost nothing. */
#define WAIT_DEFAULT_NS 100000000LL

/* Room for every task and spawn in the tables; 0, or PVMMON_ENOMEM. */
static int reserve(mon_run *run)
{
	struct mon_pr *p = run->pr;
	size_t n = tasks__count(run) + tasks__spawn_count(run) + 1;

	if (n > p->cap) {
		pr_task *t = realloc(p->t, n * sizeof(*t));

		if (!t)
			return pvmmon_error_set(PVMMON_ENOMEM,
			                        "preserve: out of memory for %zu tasks", n);
		for (size_t i = p->cap; i < n; i++) {
			memset(&t[i], 0, sizeof(t[i]));
			t[i].kind = -1;
		}
		p->t = t;
		p->cap = n;
	}
	if (n > p->cap_ot) {
		order_task *ot = realloc(p->ot, n * sizeof(*ot));
		int32_t *x = realloc(p->extra_tid, n * sizeof(*x));

		if (ot)
			p->ot = ot;
		if (x)
			p->extra_tid = x;
		if (!ot || !x)
			return pvmmon_error_set(PVMMON_ENOMEM,
			                        "preserve: out of memory for %zu tasks", n);
		p->cap_ot = n;
	}
	return 0;
}

int preserve__init(mon_run *run)
{
	run->pr = calloc(1, sizeof(*run->pr));
	if (!run->pr)
		return PVMMON_ENOMEM;
	/* Tests only: decide without the wait-dependency rule, to show the deadlocks the
	 * rule prevents (seed 000, Figure 4). */
	run->pr->s.naive = getenv("PVMMON_TEST_NO_WAITDEP") != NULL;
	{
		const char *e = getenv("PVMMON_WAIT_MS");

		run->pr->wait_ns = e && *e && atoll(e) > 0 ? atoll(e) * 1000000LL : WAIT_DEFAULT_NS;
	}
	return 0;
}

/* What task i's wait is, as hang.c sees waits: a blocking receive (from one source, or
 * a request with no candidate yet) or a pvm_trecv with a timeout. A request with a
 * candidate waits for the monitor's decision, not for a message: NO_WAIT. */
#define NO_WAIT (-1)
static int wait_op(const pr_task *t)
{
	if (t->kind == WIRE_PW_BLOCKED || (t->kind == WIRE_PW_RECV && !t->ncand))
		return WIRE_WAIT_RECV;
	if (t->kind == WIRE_PW_TRECV && !t->ncand)
		return WIRE_WAIT_TRECV;
	return NO_WAIT;
}

/* Task i's wait for hang.c: what it waits for, where, and its counts with every
 * partner (sent from the pair table; received = seen, the piggybacks it has taken off
 * its queue, so a message queued and not taken counts as received, which is what
 * hang.c's rule asks of a message that cannot match). */
static void tell(mon_run *run, size_t i, int op)
{
	struct mon_pr *p = run->pr;
	pr_task *t = &p->t[i];
	int32_t tid = tasks__at(run, i)->rec.tid;
	wire_wait w;
	size_t n = 0;

	memset(&w, 0, sizeof(w));
	w.seq = t->wseq;
	w.op = (uint8_t)op;
	w.src = t->src;
	w.tag = t->tag;
	w.module = t->module ? strdup(t->module) : NULL;
	w.offset = t->offset;
	w.rt_start = t->t_block;
	w.peers = calloc(p->npairs ? p->npairs : 1, sizeof(*w.peers));
	/* Without its counts the wait would look as if nothing were on its way: withdrawn
	 * rather than told. */
	if (!w.peers) {
		wire__wait_clear(&w);
		hang__unset(run, tid);
		t->told = 0;
		return;
	}
	for (size_t k = 0; k < p->cap_pairs; k++) {
		const pr_pair *e = &p->pairs[k];
		int32_t a = (int32_t)(uint32_t)(e->key >> 32), b = (int32_t)(uint32_t)e->key;
		int32_t other = a == tid ? b : a;
		size_t j;

		if (!e->key || (e->key >> 63) || (a != tid && b != tid) || n >= p->npairs)
			continue;
		for (j = 0; j < n && w.peers[j].tid != other; j++)
			;
		if (j == n) {
			w.peers[n].tid = other;
			n++;
		}
		if (a == tid)
			w.peers[j].sent = e->sent;
		if (b == tid)
			w.peers[j].recv = e->seen;
	}
	w.npeers = (uint32_t)n;
	/* Seen counts what is queued too; hang.c counts queued messages on their own. */
	if (t->kind == WIRE_PW_BLOCKED && t->nqueued) {
		w.queued = calloc(t->nqueued, sizeof(*w.queued));
		for (uint32_t q = 0; w.queued && q < t->nqueued; q++) {
			w.queued[w.nqueued].src = t->queued[q].src;
			w.queued[w.nqueued++].tag = t->queued[q].tag;
			for (size_t j = 0; j < n; j++)
				if (w.peers[j].tid == t->queued[q].src && w.peers[j].recv)
					w.peers[j].recv--;
		}
	}
	hang__set(run, tid, &w);
	wire__wait_clear(&w);
	t->told = 1;
}

/* Keeps hang.c's view of task i's wait current: told once the wait has lasted the
 * threshold, again when its counts or candidates change, withdrawn when it ends. */
static void follow(mon_run *run, size_t i, int64_t now, int changed)
{
	pr_task *t = &run->pr->t[i];
	int op = wait_op(t);

	if (op == NO_WAIT || !t->t_block) {
		if (t->told)
			hang__unset(run, tasks__at(run, i)->rec.tid);
		t->told = 0;
		return;
	}
	if ((!t->told || changed) && now - t->t_block >= run->pr->wait_ns)
		tell(run, i, op);
}

void preserve__evaluate(mon_run *run)
{
	struct mon_pr *p = run->pr;
	int64_t now;

	if (!p || reserve(run) < 0)
		return;
	preserve__build(run);
	p->waiting = 0;
	for (size_t i = 0; i < tasks__count(run); i++)
		if (p->t[i].req && p->ot[i].state == ORDER_BLOCKED)
			preserve__decide(run, i);
	now = pvmmon_clock_now();
	for (size_t i = 0; i < tasks__count(run); i++)
		if (p->t[i].t_block || p->t[i].told)
			follow(run, i, now, 0);
}

/* The pair counts a report of task mt (t: its state before the report) carries. */
static void counts(mon_run *run, mon_task *mt, const pr_task *t, const wire_pwait *w)
{
	int32_t src = mt->rec.tid;

	for (uint32_t k = 0; k < w->nsent; k++) {
		/* The first message since the last report left at its send time, which is at
		 * least the last report's virtual time (a message on its way to a task wakes
		 * it no earlier than that, prdecide.c). */
		int64_t lo = t->kind < 0 ? 0 : t->vt;

		if (w->sent[k].vs != INT64_MIN) {
			int64_t vs = clocks__to_monitor(run, mt, w->sent[k].vs);

			lo = vs > lo ? vs : lo;
		}
		preserve__pair_set(run->pr, src, w->sent[k].tid, 1, w->sent[k].n, lo);
	}
	for (uint32_t k = 0; k < w->nseen; k++)
		preserve__pair_set(run->pr, w->seen[k].tid, src, 0, w->seen[k].n, 0);
}

void preserve__message(mon_run *run, int src, const uint8_t *data, size_t len)
{
	struct mon_pr *p = run->pr;
	mon_task *mt = tasks__find(run, src);
	wire_pwait w;
	pr_task *t;
	uint32_t k;
	int was, fresh;
	int64_t waited;

	if (!p || !mt || reserve(run) < 0 || wire__pwait_decode(&w, data, len) != 0) {
		run->bad_messages++;
		return;
	}
	p->msgs_in++;
	t = &p->t[mt->index];
	waited = (w.kind == WIRE_PW_BLOCKED || w.kind == WIRE_PW_RECV) && w.waited < p->wait_ns * 10
	             ? w.waited
	             : 0;
	/* Virtual times of tasks on different hosts compare on the monitor's clock. */
	w.vt = clocks__to_monitor(run, mt, w.vt);
	if (w.deadline != INT64_MAX)
		w.deadline = clocks__to_monitor(run, mt, w.deadline);
	for (k = 0; k < w.ncand; k++) {
		w.cand[k].va = clocks__to_monitor(run, mt, w.cand[k].va);
		w.cand[k].vs = clocks__to_monitor(run, mt, w.cand[k].vs);
	}
	counts(run, mt, t, &w);
	t->trans = w.trans;
	t->unc = w.unc;
	preserve__know_report(run, mt->index, w.reach);
	/* Cumulative in the task: what is new since its last report. */
	if (w.local > t->local) {
		p->local += w.local - t->local;
		t->local = w.local;
	}
	if (w.notices > t->notices) {
		p->notices += w.notices - t->notices;
		t->notices = w.notices;
	}
	if (w.timed > t->timed) {
		p->timed += w.timed - t->timed;
		t->timed = w.timed;
	}
	t->t_still = w.kind == WIRE_PW_RUNNING && t->kind == WIRE_PW_RUNNING && w.vt == t->vt
	                 ? pvmmon_clock_now()
	                 : 0;
	t->asked = 0;
	t->vt = w.vt;
	was = t->t_block ? t->kind : -1;
	/* A new wait: a request or a blocked receive of its own number (a question's
	 * answer, or a report of what arrived meanwhile, repeats the wait it is in). */
	fresh = w.kind == WIRE_PW_BLOCKED
	            ? was != WIRE_PW_BLOCKED || w.req != t->block
	            : w.kind != WIRE_PW_RUNNING && (was < 0 || w.req != t->req);
	if (w.kind == WIRE_PW_BLOCKED)
		t->block = w.req;
	t->kind = w.kind;
	if (w.kind == WIRE_PW_RUNNING) {
		t->t_ran = pvmmon_clock_now();
		/* Also how a task withdraws a request it no longer waits on. */
		t->req = 0;
		t->ncand = 0;
	} else {
		t->src = w.src;
		t->tag = w.tag;
		t->deadline = w.deadline;
		if (w.module && (!t->module || strcmp(t->module, w.module) != 0)) {
			free(t->module);
			t->module = w.module;
			w.module = NULL;
		}
		t->offset = w.offset;
		if (w.kind == WIRE_PW_BLOCKED) {
			t->req = 0;
			t->ncand = 0;
			free(t->queued);
			t->queued = w.cand;
			t->nqueued = w.ncand;
			w.cand = NULL;
		} else {
			if (w.req != t->req) {
				t->req = w.req;
				t->t_req = pvmmon_clock_now();
				t->msgs = 0;
			}
			t->msgs++;
			free(t->cand);
			t->cand = w.cand;
			t->ncand = w.ncand;
			w.cand = NULL;
			/* A candidate's send time is no bound for its sender: what it sent to
			 * other tasks since its last report is not counted yet, and those tasks
			 * may wake earlier than the candidate (so the bound stays the report's). */
		}
	}
	/* A receive the task decided itself, told for the record (traced runs). */
	if (w.decided)
		prtrace__add(run, &p->tr, src, 1, WIRE_PW_RECV, w.vt, INT64_MAX, w.taken_src,
		             w.taken_tag, w.window,
		             w.horizon == INT64_MAX ? w.horizon : clocks__to_monitor(run, mt, w.horizon),
		             w.cand, w.ncand);
	wire__pwait_clear(&w);
	if (wait_op(t) == NO_WAIT)
		t->t_block = 0;
	else if (fresh || !t->t_block) {
		/* A report sent late (the task told its source first) says how long it waited. */
		t->t_block = pvmmon_clock_now() - waited;
		t->wseq++;
	}
	follow(run, mt->index, pvmmon_clock_now(), 1);
	preserve__evaluate(run);
}

void preserve__settings(mon_run *run, void (*add)(void *, const char *, const char *), void *ctx)
{
	struct mon_pr *p = run->pr;
	char num[64];

	if (!p)
		return;
	add(ctx, "mode", "preserve");
	/* Decisions: the monitor's and the tasks' own (with no control message). Control
	 * messages: to and from the monitor, and the tasks' block notices to each other. */
	snprintf(num, sizeof(num), "%" PRIu64, p->decisions + p->local);
	add(ctx, "preserve-decisions", num);
	snprintf(num, sizeof(num), "%" PRIu64, p->local);
	add(ctx, "preserve-decisions-local", num);
	snprintf(num, sizeof(num), "%" PRIu64, p->msgs_in + p->msgs_out + p->notices);
	add(ctx, "preserve-control-messages", num);
	snprintf(num, sizeof(num), "%" PRIu64, p->notices);
	add(ctx, "preserve-block-notices", num);
	/* The tasks' own decisions whose wait for news ended on a timer (issue 37: none
	 * should; each then went to the monitor). */
	snprintf(num, sizeof(num), "%" PRIu64, p->timed);
	add(ctx, "preserve-local-waits-timed", num);
	snprintf(num, sizeof(num), "%.2f",
	         p->decisions + p->local ? (double)(p->msgs_in + p->msgs_out + p->notices) /
	                                       (double)(p->decisions + p->local)
	                                 : 0.0);
	add(ctx, "preserve-control-messages-per-decision", num);
	snprintf(num, sizeof(num), "%" PRIu64, p->max_msgs_per_receive);
	add(ctx, "preserve-control-messages-max", num);
	snprintf(num, sizeof(num), "%" PRIu64, p->asks);
	add(ctx, "preserve-asks", num);
	snprintf(num, sizeof(num), "%" PRId64, p->evals ? p->eval_ns_sum / (int64_t)p->evals : 0);
	add(ctx, "preserve-evaluation-ns-mean", num);
	snprintf(num, sizeof(num), "%" PRId64, p->eval_ns_max);
	add(ctx, "preserve-evaluation-ns-max", num);
	snprintf(num, sizeof(num), "%" PRId64,
	         p->decisions ? p->wait_ns_sum / (int64_t)p->decisions : 0);
	add(ctx, "preserve-decision-wait-ns-mean", num);
	/* Whether receives from any source waited only for tasks that could address them. */
	add(ctx, "preserve-knowledge", p->kn_off ? p->kn_why : p->s.naive ? "off" : "used");
}

int preserve__busy(const mon_run *run) { return run->pr && run->pr->waiting; }

void preserve__free(mon_run *run)
{
	struct mon_pr *p = run->pr;

	if (!p)
		return;
	for (size_t i = 0; i < p->cap; i++) {
		free(p->t[i].module);
		free(p->t[i].cand);
		free(p->t[i].queued);
	}
	free(p->t);
	free(p->pairs);
	free(p->ot);
	free(p->oc);
	free(p->extra_tid);
	free(p->kn);
	order__scratch_free(&p->s);
	prtrace__free(&p->tr);
	free(p);
	run->pr = NULL;
}

void preserve__trace(mon_run *run, pvmmon_log *log)
{
	if (run->pr)
		prtrace__to_log(&run->pr->tr, log);
}
