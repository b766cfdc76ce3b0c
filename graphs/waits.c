/*
 * Why tasks wait (include/pvmmon/waits.h): every receive that waited, classified and
 * charged to the computation that made its sender late, by Böhme et al.'s delay rule
 * in virtual time; the run's efficiency; the "Why tasks wait" report section.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figures.h"
#include "pvmmon/errors.h"
#include "pvmmon/waits.h"
#include "waits_coll.h"
#include "waits_model.h"

/* A share of one wait's cost: a cause, its fraction, and whether it came directly. */
typedef struct share {
	size_t cause;
	double frac;
	int direct;
} share;

/* The analysis in progress: the causes so far and each wait's shares. */
typedef struct work {
	const wm_model *m;
	pvmmon_waits *w;
	size_t capcauses, capstates;
	share **shares; /* per state */
	size_t *nshares;
	size_t **state_of; /* per task and event: its state, WM_NONE */
	wm_barrier_wait *bar; /* the barrier waits, by task and event */
	size_t nbar;
} work;

static size_t cause_index(work *k, size_t task, const wm_key *key)
{
	pvmmon_waits *w = k->w;

	for (size_t i = 0; i < w->ncauses; i++) {
		const pvmmon_wait_cause *c = &w->causes[i];

		if (c->task == task && c->proc == key->proc && (key->proc >= 0 || c->stmt == key->stmt))
			return i;
	}
	if (w->ncauses == k->capcauses) {
		size_t cap = k->capcauses ? 2 * k->capcauses : 16;
		pvmmon_wait_cause *g = realloc(w->causes, cap * sizeof(*g));

		if (!g)
			return WM_NONE;
		w->causes = g;
		k->capcauses = cap;
	}
	w->causes[w->ncauses] = (pvmmon_wait_cause){task, key->proc, key->proc >= 0 ? 0 : key->stmt, 0, 0};
	return w->ncauses++;
}

static int add_share(share **v, size_t *n, size_t cause, double frac, int direct)
{
	share *g;

	for (size_t i = 0; i < *n; i++)
		if ((*v)[i].cause == cause && (*v)[i].direct == direct) {
			(*v)[i].frac += frac;
			return 0;
		}
	if (!(g = realloc(*v, (*n + 1) * sizeof(*g))))
		return pvmmon_error_set(PVMMON_ENOMEM, "out of memory");
	*v = g;
	g[(*n)++] = (share){cause, frac, direct};
	return 0;
}

/* The virtual time after the previous message between task x (its events before i) and
 * task y, on each side: *ax in x, *ay in y; both the tasks' starts if there is none. */
static void last_sync(const wm_model *m, size_t x, size_t i, size_t y, int64_t *ax, int64_t *ay)
{
	const wm_task *wx = &m->tasks[x];

	*ax = wx->vstart;
	*ay = m->tasks[y].vstart;
	for (size_t j = i; j > 0; j--)
		if (wx->peer_task[j - 1] == y) {
			*ax = wx->t->events[j - 1].vt1;
			*ay = m->tasks[y].t->events[wx->peer_event[j - 1]].vt1;
			return;
		}
}

/* The time of key in p (0 if absent). */
static int64_t time_of(const wm_profile *p, const wm_key *key)
{
	for (size_t i = 0; i < p->n; i++)
		if (waits__same_key(&p->key[i], key))
			return p->ns[i];
	return 0;
}

/* The time receiver x spent (profile px) in sender y's computation key: the same
 * procedure, or the segment before the same call site (statement ids are each task's
 * own, numbered as its call sites first ran: equal ids of two tasks say nothing). */
static int64_t receiver_time(const wm_model *m, size_t x, const wm_profile *px, size_t y,
                             const wm_key *key)
{
	const pvmmon_log_task *tx = m->tasks[x].t;
	const pvmmon_log_stmt *sy;
	wm_key kx = *key;

	if (key->wait)
		return 0;
	if (key->proc >= 0)
		return time_of(px, key);
	if (key->stmt == WM_NO_STMT || !(sy = graphs__stmt_of(m->tasks[y].t, key->stmt)))
		return 0;
	for (size_t i = 0; i < tx->nstmts; i++)
		if (waits__same_site(&tx->stmts[i], sy)) {
			kx.stmt = tx->stmts[i].id;
			return time_of(px, &kx);
		}
	return 0;
}

/* Charges state s (task x waiting from bx, task y late at by, event j) by y's excess
 * over x since their previous synchronisation, at ax in x and ay in y. */
static int blame_interval(work *k, size_t s, size_t x, int64_t ax, int64_t bx, size_t y,
                          int64_t ay, int64_t by, size_t j)
{
	const wm_model *m = k->m;
	const pvmmon_log_event *snd = &m->tasks[y].t->events[j];
	wm_profile px, py;
	int64_t total = 0, waited = 0;
	int rc;

	if ((rc = waits__profile(&px, m, x, ax, bx)) < 0)
		return rc;
	if ((rc = waits__profile(&py, m, y, ay, by)) < 0) {
		waits__profile_free(&px);
		return rc;
	}
	for (size_t q = 0; q < py.n; q++) {
		int64_t ex = py.ns[q] - receiver_time(m, x, &px, y, &py.key[q]);

		if (ex > 0) {
			total += ex;
			if (py.key[q].wait)
				waited += ex;
		}
	}
	for (size_t q = 0; q < py.n && rc == 0 && total > 0; q++) {
		int64_t ex = py.ns[q] - receiver_time(m, x, &px, y, &py.key[q]);
		double f = (double)ex / (double)total;
		size_t ws;

		if (ex <= 0)
			continue;
		if (!py.key[q].wait) {
			size_t c = cause_index(k, y, &py.key[q]);

			rc = c == WM_NONE ? pvmmon_error_set(PVMMON_ENOMEM, "out of memory")
			                  : add_share(&k->shares[s], &k->nshares[s], c, f, 1);
			continue;
		}
		/* The sender's own wait: its causes, indirectly. */
		ws = k->state_of[y][py.key[q].event];
		for (size_t z = 0; ws != WM_NONE && z < k->nshares[ws] && rc == 0; z++)
			rc = add_share(&k->shares[s], &k->nshares[s], k->shares[ws][z].cause,
			               f * k->shares[ws][z].frac, 0);
	}
	if (rc == 0 && total == 0) {
		/* No excess: the message itself was slow; its send's segment is named. */
		wm_key key = {0, m->tasks[y].proc[j], m->tasks[y].proc[j] >= 0 ? 0 : snd->stmt, WM_NONE};
		size_t c = cause_index(k, y, &key);

		rc = c == WM_NONE ? pvmmon_error_set(PVMMON_ENOMEM, "out of memory")
		                  : add_share(&k->shares[s], &k->nshares[s], c, 1.0, 1);
	}
	k->w->states[s].indirect = 2 * waited > total;
	waits__profile_free(&px);
	waits__profile_free(&py);
	return rc;
}

/* Charges state s: receive i of task x, waiting for task y's send j (since their previous
 * message), or x's wait at a barrier for its latecomer (since the previous barrier). */
static int blame(work *k, size_t s, size_t x, size_t i, size_t y, size_t j)
{
	const wm_model *m = k->m;
	const wm_barrier_wait *b = k->w->states[s].kind == PVMMON_WAIT_BARRIER
	                               ? waits__barrier_of(k->bar, k->nbar, x, i)
	                               : NULL;
	int64_t ax, ay;

	if (b)
		return blame_interval(k, s, x, b->a, b->b, b->late, b->late_a, b->late_b,
		                      b->late_event);
	last_sync(m, x, i, y, &ax, &ay);
	/* A poll's receiver waited from its first miss (first), not from the receive. */
	return blame_interval(k, s, x, ax, m->tasks[x].t->events[k->w->states[s].first].vt0, y,
	                      ay, m->tasks[y].t->events[j].vt0, j);
}

static int by_end(const void *pa, const void *pb, void *ctx)
{
	const pvmmon_wait_state *a = pa, *b = pb;
	const wm_model *m = ctx;
	const pvmmon_log_event *ea = &m->tasks[a->task].t->events[a->event];
	const pvmmon_log_event *eb = &m->tasks[b->task].t->events[b->event];
	int64_t x = a->kind == PVMMON_WAIT_POLL    ? ea->vt0
	            : a->kind == PVMMON_WAIT_ENDED ? ea->vt1
	                                           : ea->vt0 + a->wait_ns;
	int64_t y = b->kind == PVMMON_WAIT_POLL    ? eb->vt0
	            : b->kind == PVMMON_WAIT_ENDED ? eb->vt1
	                                           : eb->vt0 + b->wait_ns;

	return x < y ? -1 : x > y;
}

/* Whether receive i of task x, waiting for send snd, waited while a message sent
 * before it, which x took later, had arrived. The next receives are looked at. */
#define WRONG_ORDER_LOOKAHEAD 64
static int wrong_order(const wm_model *m, size_t x, size_t i, const pvmmon_log_event *snd)
{
	const wm_task *w = &m->tasks[x];
	const pvmmon_log_event *r = &w->t->events[i];

	for (size_t q = i + 1; q < w->t->nevents && q <= i + WRONG_ORDER_LOOKAHEAD; q++) {
		const pvmmon_log_event *e = &w->t->events[q], *s2;

		if (!pvmmon_event_op_receives(e->op) || w->peer_task[q] == WM_NONE)
			continue;
		s2 = &m->tasks[w->peer_task[q]].t->events[w->peer_event[q]];
		if (s2->vt1 < snd->vt0 && s2->vt1 + (e->trans > 0 ? e->trans : 0) <= r->vt0 + r->sync)
			return 1;
	}
	return 0;
}

static int add_state(work *k, pvmmon_wait_state st)
{
	pvmmon_waits *w = k->w;

	if (w->nstates == k->capstates) {
		size_t cap = k->capstates ? 2 * k->capstates : 64;
		pvmmon_wait_state *g = realloc(w->states, cap * sizeof(*g));

		if (!g)
			return pvmmon_error_set(PVMMON_ENOMEM, "out of memory");
		w->states = g;
		k->capstates = cap;
	}
	if (st.kind != PVMMON_WAIT_POLL && st.kind != PVMMON_WAIT_ENDED)
		st.first = st.event;
	w->states[w->nstates++] = st;
	w->total_wait_ns += st.kind == PVMMON_WAIT_POLL || st.kind == PVMMON_WAIT_ENDED ? st.wait_ns : 0;
	return 0;
}

/* Whether event e is a call that may find nothing and did (pvm_nrecv, pvm_probe,
 * pvm_trecv; a probe that found its message counts too: the receive after it takes it). */
static int missed(const pvmmon_log_event *e)
{
	return (e->op == PVMMON_EV_NRECV || e->op == PVMMON_EV_TRECV || e->op == PVMMON_EV_PROBE) &&
	       e->peer == 0;
}

/* Whether miss e of task x asked for a task that had ended (its index into *from), or
 * for any source when every other task had ended (the last to end into *from). */
static int asked_ended(const wm_model *m, size_t x, const pvmmon_log_event *e, size_t *from)
{
	int64_t last = INT64_MIN;

	*from = WM_NONE;
	if (e->want_peer > 0) {
		const pvmmon_log_task *t = graphs__task_by_tid(m->log, e->want_peer);
		size_t y = t ? (size_t)(t - m->log->tasks) : WM_NONE;

		if (y == WM_NONE || y == x || m->tasks[y].vend > e->vt0)
			return 0;
		*from = y;
		return 1;
	}
	if (e->want_peer != -1)
		return 0;
	for (size_t y = 0; y < m->ntasks; y++) {
		if (y == x)
			continue;
		if (m->tasks[y].vend > e->vt0)
			return 0;
		if (m->tasks[y].vend > last) {
			last = m->tasks[y].vend;
			*from = y;
		}
	}
	return *from != WM_NONE;
}

/* Task x's wait for ended task from: its misses first..last. */
static int ended_state(work *k, size_t x, size_t first, size_t last, size_t from)
{
	const pvmmon_log_event *ev = k->m->tasks[x].t->events;

	return add_state(k, (pvmmon_wait_state){x, last, from, PVMMON_WAIT_ENDED,
	                                        ev[last].vt1 - ev[first].vt0, 0, first});
}

/* Task x's polling waits (a run of misses, then the receive that took a monitored
 * sender's message: from the first miss to that receive) and its waits for ended
 * tasks (a run of misses that asked for them: from the first one's start to the last
 * one's end). Any other call ends a run. */
static int polls(work *k, size_t x)
{
	const wm_task *t = &k->m->tasks[x];
	const pvmmon_log_event *ev = t->t->events;
	size_t run = WM_NONE, ended = WM_NONE, last = 0, from = WM_NONE, y;
	int rc = 0;

	for (size_t i = 0; i < t->t->nevents && rc == 0; i++) {
		const pvmmon_log_event *e = &ev[i];

		if (!waits__is_call(e))
			continue;
		if (missed(e) && asked_ended(k->m, x, e, &y)) {
			/* Asking another ended task: the run so far is a wait of its own. */
			if (ended != WM_NONE && y != from)
				rc = ended_state(k, x, ended, last, from);
			if (ended == WM_NONE || y != from)
				ended = i;
			from = y;
			last = i;
			run = WM_NONE;
			continue;
		}
		if (ended != WM_NONE)
			rc = ended_state(k, x, ended, last, from);
		ended = WM_NONE;
		if (missed(e)) {
			run = run == WM_NONE ? i : run;
			continue;
		}
		if (rc == 0 && run != WM_NONE && pvmmon_event_op_receives(e->op) && e->peer != 0 &&
		    t->peer_task[i] != WM_NONE && e->vt0 > ev[run].vt0)
			rc = add_state(k, (pvmmon_wait_state){x, i, t->peer_task[i], PVMMON_WAIT_POLL,
			                                      e->vt0 - ev[run].vt0, 0, run});
		run = WM_NONE;
	}
	if (rc == 0 && ended != WM_NONE)
		rc = ended_state(k, x, ended, last, from);
	return rc;
}

/* A receive's kind: at a collective when the receive or its send is part of one (a
 * bcast member's receive of the root's message, a reduce or gather root's of a
 * contribution), else a late sender, in the wrong order or not. */
static pvmmon_wait_kind receive_kind(const wm_model *m, size_t x, size_t i)
{
	const wm_task *t = &m->tasks[x], *y = &m->tasks[t->peer_task[i]];
	const pvmmon_log_event *snd = &y->t->events[t->peer_event[i]];

	if (waits__collective(t->t, t->t->events[i].stmt) || waits__collective(y->t, snd->stmt))
		return PVMMON_WAIT_COLLECTIVE;
	return wrong_order(m, x, i, snd) ? PVMMON_WAIT_WRONG_ORDER : PVMMON_WAIT_LATE_SENDER;
}

/* Every receive that waited for a monitored sender, and every wait at a barrier, in the
 * order of its wait's end. */
static int collect(work *k)
{
	const wm_model *m = k->m;
	pvmmon_waits *w = k->w;
	int rc = 0;

	for (size_t x = 0; x < m->ntasks; x++) {
		const wm_task *t = &m->tasks[x];

		for (size_t i = 0; i < t->t->nevents; i++) {
			const pvmmon_log_event *e = &t->t->events[i];

			if (!pvmmon_event_op_receives(e->op) || e->sync <= 0)
				continue;
			w->total_wait_ns += e->sync;
			if (t->peer_task[i] == WM_NONE)
				continue;
			if ((rc = add_state(k, (pvmmon_wait_state){x, i, t->peer_task[i],
			                                           receive_kind(m, x, i), e->sync,
			                                           0, i})) < 0)
				return rc;
		}
		if ((rc = polls(k, x)) < 0)
			return rc;
	}
	for (size_t b = 0; b < k->nbar && rc == 0; b++) {
		const wm_barrier_wait *bw = &k->bar[b];

		w->total_wait_ns += bw->wait_ns;
		rc = add_state(k, (pvmmon_wait_state){bw->task, bw->event, bw->late,
		                                      PVMMON_WAIT_BARRIER, bw->wait_ns, 0, bw->event});
	}
	if (rc < 0)
		return rc;
	if (w->nstates > 1)
		qsort_r(w->states, w->nstates, sizeof(*w->states), by_end, (void *)m);
	return 0;
}

static void efficiency(const wm_model *m, pvmmon_waits *w, int64_t replay_ns)
{
	int64_t first = INT64_MAX, last = INT64_MIN, sum = 0, max = 0;

	for (size_t x = 0; x < m->ntasks; x++) {
		const wm_task *t = &m->tasks[x];
		int64_t calls = 0, useful;

		for (size_t i = 0; i < t->t->nevents; i++)
			if (waits__is_call(&t->t->events[i]) && t->t->events[i].vt1 > t->t->events[i].vt0)
				calls += t->t->events[i].vt1 - t->t->events[i].vt0;
		useful = t->vend - t->vstart - calls;
		if (useful < 0)
			useful = 0;
		sum += useful;
		if (useful > max)
			max = useful;
		if (t->vstart < first)
			first = t->vstart;
		if (t->vend > last)
			last = t->vend;
	}
	w->runtime_ns = m->ntasks ? last - first : 0;
	w->useful_max_ns = max;
	w->useful_avg_ns = m->ntasks ? sum / (int64_t)m->ntasks : 0;
	w->load_balance = max > 0 ? (double)w->useful_avg_ns / (double)max : 1.0;
	w->comm_efficiency = w->runtime_ns > 0 ? (double)max / (double)w->runtime_ns : 1.0;
	w->parallel_efficiency = w->load_balance * w->comm_efficiency;
	/* Transfer against the replay of the run as measured (replay_ns), not the run
	 * itself: the ideal run is the same model with free messages, so the model's own
	 * error cancels and transfer stays <= 1 (a replay that came out 0.6% longer than
	 * its run made free messages look slower under ASan). Without it, the run. */
	if (replay_ns <= 0)
		replay_ns = w->runtime_ns;
	w->transfer = replay_ns > 0 && w->ideal_ns > 0 ? (double)w->ideal_ns / (double)replay_ns
	                                               : 1.0;
	if (w->transfer > 1.0)
		w->transfer = 1.0;
	w->serialisation = w->transfer > 0 ? w->comm_efficiency / w->transfer : 1.0;
}

static int by_cost(const void *pa, const void *pb)
{
	const pvmmon_wait_cause *a = pa, *b = pb;
	int64_t x = a->short_ns + a->long_ns, y = b->short_ns + b->long_ns;

	return x > y ? -1 : x < y;
}

static int analyse(work *k)
{
	pvmmon_waits *w = k->w;
	const wm_model *m = k->m;
	int rc = collect(k);

	if (rc < 0)
		return rc;
	k->shares = calloc(w->nstates + 1, sizeof(*k->shares));
	k->nshares = calloc(w->nstates + 1, sizeof(*k->nshares));
	k->state_of = calloc(m->ntasks + 1, sizeof(*k->state_of));
	if (!k->shares || !k->nshares || !k->state_of)
		return pvmmon_error_set(PVMMON_ENOMEM, "out of memory");
	for (size_t x = 0; x < m->ntasks; x++) {
		if (!(k->state_of[x] = malloc((m->tasks[x].t->nevents + 1) * sizeof(size_t))))
			return pvmmon_error_set(PVMMON_ENOMEM, "out of memory");
		for (size_t i = 0; i <= m->tasks[x].t->nevents; i++)
			k->state_of[x][i] = WM_NONE;
	}
	/* A poll's and an ended wait's time is the task's own in its profile (no wait key):
	 * they pass no cost on, and a poll's receive may be a late sender's state too. */
	for (size_t s = 0; s < w->nstates; s++)
		if (w->states[s].kind != PVMMON_WAIT_POLL && w->states[s].kind != PVMMON_WAIT_ENDED)
			k->state_of[w->states[s].task][w->states[s].event] = s;
	for (size_t s = 0; s < w->nstates && rc == 0; s++) {
		const pvmmon_wait_state *st = &w->states[s];
		const wm_task *t = &m->tasks[st->task];

		if (st->kind == PVMMON_WAIT_ENDED) {
			w->ended_ns += st->wait_ns;
			continue;
		}
		rc = blame(k, s, st->task, st->event, st->from, t->peer_event[st->event]);
		if (st->kind == PVMMON_WAIT_POLL)
			w->poll_ns += st->wait_ns;
		else if (st->kind == PVMMON_WAIT_WRONG_ORDER)
			w->wrong_order_ns += st->wait_ns;
		else if (st->kind == PVMMON_WAIT_BARRIER)
			w->barrier_ns += st->wait_ns;
		else if (st->kind == PVMMON_WAIT_COLLECTIVE)
			w->collective_ns += st->wait_ns;
		else
			w->late_sender_ns += st->wait_ns;
		for (size_t z = 0; rc == 0 && z < k->nshares[s]; z++) {
			pvmmon_wait_cause *c = &w->causes[k->shares[s][z].cause];
			int64_t ns = (int64_t)((double)st->wait_ns * k->shares[s][z].frac + 0.5);

			if (k->shares[s][z].direct)
				c->short_ns += ns;
			else
				c->long_ns += ns;
		}
	}
	return rc;
}

int pvmmon_waits_compute(pvmmon_waits **out, const pvmmon_log *log)
{
	wm_model m;
	work k = {0};
	size_t nstates;
	int64_t replay_ns = 0;
	int rc;

	*out = NULL;
	if (!log)
		return pvmmon_error_set(PVMMON_EINVAL, "waits: no log");
	if ((rc = waits__model(&m, log)) < 0)
		return rc;
	k.m = &m;
	k.w = calloc(1, sizeof(*k.w));
	rc = k.w ? waits__barriers(&m, &k.bar, &k.nbar) : pvmmon_error_set(PVMMON_ENOMEM, "out of memory");
	if (rc == 0)
		rc = analyse(&k);
	if (rc == 0)
		rc = waits__replay(&k.w->ideal_ns, NULL, &m, 1, NULL, 0);
	if (rc == 0)
		rc = waits__replay(&replay_ns, NULL, &m, 0, NULL, 0);
	nstates = k.w ? k.w->nstates : 0;
	if (rc == 0) {
		efficiency(&m, k.w, replay_ns);
		if (k.w->ncauses > 1)
			qsort(k.w->causes, k.w->ncauses, sizeof(*k.w->causes), by_cost);
		*out = k.w;
		k.w = NULL;
	}
	for (size_t s = 0; k.shares && s < nstates; s++)
		free(k.shares[s]);
	for (size_t x = 0; k.state_of && x < m.ntasks; x++)
		free(k.state_of[x]);
	free(k.shares);
	free(k.nshares);
	free(k.state_of);
	free(k.bar);
	pvmmon_waits_free(k.w);
	waits__model_free(&m);
	return rc;
}

void pvmmon_waits_free(pvmmon_waits *w)
{
	if (!w)
		return;
	free(w->states);
	free(w->causes);
	free(w);
}

int pvmmon_waits_predict(int64_t *out_ns, const pvmmon_log *log, const pvmmon_wait_cause *c,
                         int pct)
{
	wm_model m;
	int rc;

	*out_ns = 0;
	if (pct < 0 || pct > 100)
		return pvmmon_error_set(PVMMON_EINVAL, "waits: %d%% faster is no percentage", pct);
	if ((rc = waits__model(&m, log)) < 0)
		return rc;
	rc = waits__replay(out_ns, NULL, &m, 0, c, pct);
	waits__model_free(&m);
	return rc;
}

int pvmmon_waits_predict_wait(int64_t *out_wait_ns, const pvmmon_log *log,
                              const pvmmon_wait_cause *c, int pct)
{
	wm_model m;
	int64_t len;
	int rc;

	*out_wait_ns = 0;
	if (pct < 0 || pct > 100)
		return pvmmon_error_set(PVMMON_EINVAL, "waits: %d%% faster is no percentage", pct);
	if ((rc = waits__model(&m, log)) < 0)
		return rc;
	rc = waits__replay(&len, out_wait_ns, &m, 0, c, pct);
	waits__model_free(&m);
	return rc;
}
