/*
 * The wait analysis' view of a traced run: each task's events with the partner event of
 * every message, the procedure and segment each stretch of computation belongs to,
 * profiles of a task's time over an interval, and a replay of the activity graph in
 * which computation can be made faster and messages free.
 */
#include <stdlib.h>
#include <string.h>

#include "figures.h"
#include "pvmmon/errors.h"
#include "waits_model.h"

/* The deepest procedure nesting followed; deeper entries count as the innermost. */
#define WM_DEPTH 256

int waits__is_call(const pvmmon_log_event *e)
{
	return e->op != PVMMON_EV_ENTER && e->op != PVMMON_EV_EXIT && e->op != PVMMON_EV_CPSTART &&
	       e->op != PVMMON_EV_CPSTOP;
}

static int is_send(pvmmon_event_op op)
{
	return op == PVMMON_EV_SEND || op == PVMMON_EV_PSEND || op == PVMMON_EV_MCAST;
}

/* A message event by its partner's tid and sequence number. */
typedef struct mkey {
	int32_t peer;
	int64_t seq;
	size_t idx;
	int send;
} mkey;

static int cmp_mkey(const void *pa, const void *pb)
{
	const mkey *a = pa, *b = pb;

	if (a->send != b->send)
		return a->send - b->send;
	if (a->peer != b->peer)
		return a->peer < b->peer ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* The index in log->tasks of the task with tid, WM_NONE if none. */
static size_t task_of(const pvmmon_log *log, int32_t tid)
{
	const pvmmon_log_task *t = graphs__task_by_tid(log, tid);

	return t ? (size_t)(t - log->tasks) : WM_NONE;
}

static int message(const pvmmon_log_event *e)
{
	return e->peer != 0 && e->seq >= 0 && (is_send(e->op) || pvmmon_event_op_receives(e->op));
}

const char *waits__op_of(const pvmmon_log_task *t, uint32_t id)
{
	const pvmmon_log_stmt *s = graphs__stmt_of(t, id);

	return s ? s->op : NULL;
}

/* Task w's barrier calls: a call's events are a run of events of a pvm_barrier
 * statement up to its first receive (a call at the same site next begins after it). */
static int barrier_calls(wm_task *w)
{
	const pvmmon_log_task *t = w->t;
	size_t first = WM_NONE;

	for (size_t i = 0; i < t->nevents; i++) {
		const pvmmon_log_event *e = &t->events[i];
		const char *op;

		if (!waits__is_call(e) || !(op = waits__op_of(t, e->stmt)) ||
		    strcmp(op, "pvm_barrier") != 0) {
			first = WM_NONE;
			continue;
		}
		if (first == WM_NONE || t->events[first].stmt != e->stmt)
			first = i;
		if (!pvmmon_event_op_receives(e->op))
			continue;
		if (!w->nbar || (w->nbar & (w->nbar - 1)) == 0) {
			size_t cap = w->nbar ? 2 * w->nbar : 1;
			size_t *f = realloc(w->bfirst, cap * sizeof(size_t));

			if (f)
				w->bfirst = f;
			if (!f || !(f = realloc(w->brelease, cap * sizeof(size_t))))
				return pvmmon_error_set(PVMMON_ENOMEM, "out of memory");
			w->brelease = f;
		}
		w->bfirst[w->nbar] = first;
		w->brelease[w->nbar++] = i;
		first = WM_NONE;
	}
	return 0;
}

int64_t waits__bar_arrival(const wm_model *m, size_t x, size_t k)
{
	const wm_task *w = &m->tasks[x];
	const pvmmon_log_event *ev = w->t->events;

	return k ? ev[w->bfirst[k]].vt0 - ev[w->brelease[k - 1]].vt1 : ev[w->bfirst[k]].rt[0];
}

int64_t waits__bar_in_call(const wm_model *m, size_t x, size_t k)
{
	const wm_task *w = &m->tasks[x];

	return w->t->events[w->brelease[k]].vt1 - w->t->events[w->bfirst[k]].vt0;
}

/* The barrier instances of m's tasks' calls (wm_bar). */
static int barriers(wm_model *m)
{
	size_t most = 0;
	int rc = 0;

	for (size_t x = 0; x < m->ntasks && rc == 0; x++) {
		rc = barrier_calls(&m->tasks[x]);
		if (m->tasks[x].nbar > most)
			most = m->tasks[x].nbar;
	}
	if (rc < 0 || !most)
		return rc;
	if (!(m->bars = calloc(most, sizeof(*m->bars))))
		return pvmmon_error_set(PVMMON_ENOMEM, "out of memory");
	m->nbars = most;
	for (size_t k = 0; k < most; k++) {
		wm_bar *b = &m->bars[k];
		int64_t dmax = INT64_MIN, d;

		for (size_t x = 0; x < m->ntasks; x++) {
			if (m->tasks[x].nbar <= k)
				continue;
			b->members++;
			if ((d = waits__bar_arrival(m, x, k)) > dmax) {
				dmax = d;
				b->late = x;
			}
		}
		b->call_ns = waits__bar_in_call(m, b->late, k);
	}
	return 0;
}

/* Each task's procedure before every event and the next statement from it. */
static void nesting(wm_task *w)
{
	const pvmmon_log_task *t = w->t;
	int32_t stack[WM_DEPTH];
	size_t depth = 0;
	uint32_t next = WM_NO_STMT;

	for (size_t i = 0; i < t->nevents; i++) {
		const pvmmon_log_event *e = &t->events[i];

		w->proc[i] = -1;
		for (size_t d = depth; d > 0; d--)
			if (stack[d - 1] >= 0) {
				w->proc[i] = stack[d - 1];
				break;
			}
		if (e->op == PVMMON_EV_ENTER && depth < WM_DEPTH)
			stack[depth++] = (int32_t)e->tag;
		else if (e->op == PVMMON_EV_EXIT && depth > 0)
			depth--;
	}
	w->proc[t->nevents] = -1;
	for (size_t d = depth; d > 0; d--)
		if (stack[d - 1] >= 0) {
			w->proc[t->nevents] = stack[d - 1];
			break;
		}
	w->next_stmt[t->nevents] = WM_NO_STMT;
	for (size_t i = t->nevents; i > 0; i--) {
		if (waits__is_call(&t->events[i - 1]))
			next = t->events[i - 1].stmt;
		w->next_stmt[i - 1] = next;
	}
}

/* Each message event's partner, through every task's messages sorted by key. */
static int pair(wm_model *m, mkey **keys, size_t *nkeys)
{
	const pvmmon_log *log = m->log;

	for (size_t x = 0; x < m->ntasks; x++) {
		const pvmmon_log_task *t = &log->tasks[x];

		for (size_t i = 0; i < t->nevents; i++) {
			const pvmmon_log_event *e = &t->events[i];
			size_t y;
			mkey k, *hit;

			m->tasks[x].peer_task[i] = m->tasks[x].peer_event[i] = WM_NONE;
			if (!message(e) || (y = task_of(log, e->peer)) == WM_NONE)
				continue;
			/* The partner's event: a send's receive, a receive's send. */
			k = (mkey){t->tid, e->seq, 0, !is_send(e->op)};
			hit = bsearch(&k, keys[y], nkeys[y], sizeof(mkey), cmp_mkey);
			if (hit) {
				m->tasks[x].peer_task[i] = y;
				m->tasks[x].peer_event[i] = hit->idx;
			}
		}
	}
	return 0;
}

int waits__model(wm_model *m, const pvmmon_log *log)
{
	mkey **keys = NULL;
	size_t *nkeys = NULL;
	int rc = 0;

	memset(m, 0, sizeof(*m));
	m->log = log;
	if (!log->trace.enabled || log->trace.dropped)
		return pvmmon_error_set(PVMMON_EINVAL, "the wait analysis needs a whole trace "
		                                       "(pvmmon run --trace, nothing dropped)");
	m->ntasks = log->ntasks;
	m->tasks = calloc(log->ntasks + 1, sizeof(*m->tasks));
	keys = calloc(log->ntasks + 1, sizeof(*keys));
	nkeys = calloc(log->ntasks + 1, sizeof(*nkeys));
	if (!m->tasks || !keys || !nkeys) {
		rc = pvmmon_error_set(PVMMON_ENOMEM, "out of memory");
		goto out;
	}
	for (size_t x = 0; x < log->ntasks && rc == 0; x++) {
		const pvmmon_log_task *t = &log->tasks[x];
		wm_task *w = &m->tasks[x];
		size_t n = t->nevents + 1;

		w->t = t;
		w->vstart = t->start_ns;
		w->vend = t->start_ns + t->virtual_ns;
		if (t->nevents && t->events[t->nevents - 1].vt1 > w->vend)
			w->vend = t->events[t->nevents - 1].vt1;
		w->peer_task = calloc(n, sizeof(size_t));
		w->peer_event = calloc(n, sizeof(size_t));
		w->proc = calloc(n, sizeof(int32_t));
		w->next_stmt = calloc(n, sizeof(uint32_t));
		keys[x] = calloc(n, sizeof(mkey));
		if (!w->peer_task || !w->peer_event || !w->proc || !w->next_stmt || !keys[x]) {
			rc = pvmmon_error_set(PVMMON_ENOMEM, "out of memory");
			break;
		}
		nesting(w);
		for (size_t i = 0; i < t->nevents; i++)
			if (message(&t->events[i]))
				keys[x][nkeys[x]++] = (mkey){t->events[i].peer, t->events[i].seq, i,
				                             is_send(t->events[i].op)};
		qsort(keys[x], nkeys[x], sizeof(mkey), cmp_mkey);
	}
	if (rc == 0)
		rc = pair(m, keys, nkeys);
	if (rc == 0)
		rc = barriers(m);
out:
	for (size_t x = 0; keys && x < log->ntasks; x++)
		free(keys[x]);
	free(keys);
	free(nkeys);
	if (rc < 0)
		waits__model_free(m);
	return rc;
}

void waits__model_free(wm_model *m)
{
	for (size_t x = 0; m->tasks && x < m->ntasks; x++) {
		free(m->tasks[x].peer_task);
		free(m->tasks[x].peer_event);
		free(m->tasks[x].proc);
		free(m->tasks[x].next_stmt);
		free(m->tasks[x].gwait);
		free(m->tasks[x].bfirst);
		free(m->tasks[x].brelease);
	}
	free(m->tasks);
	free(m->bars);
	memset(m, 0, sizeof(*m));
}

/* Whether a and b (statements of two tasks) are the same call site. */
int waits__same_site(const pvmmon_log_stmt *a, const pvmmon_log_stmt *b)
{
	if (!a->op || !b->op || strcmp(a->op, b->op) != 0)
		return 0;
	if (a->file && b->file && a->line > 0 && b->line > 0)
		return a->line == b->line && strcmp(a->file, b->file) == 0;
	return a->module && b->module && a->offset == b->offset && strcmp(a->module, b->module) == 0;
}

int waits__same_key(const wm_key *a, const wm_key *b)
{
	if (a->wait != b->wait)
		return 0;
	if (a->wait)
		return a->event == b->event;
	return a->proc == b->proc && (a->proc >= 0 || a->stmt == b->stmt);
}

static int add(wm_profile *p, wm_key k, int64_t a, int64_t b, int64_t lo, int64_t hi)
{
	int64_t ns = (b < hi ? b : hi) - (a > lo ? a : lo);
	size_t i;

	if (ns <= 0)
		return 0;
	for (i = 0; i < p->n && !waits__same_key(&p->key[i], &k); i++)
		;
	if (i == p->n) {
		if (p->n == p->cap) {
			size_t cap = p->cap ? 2 * p->cap : 16;
			wm_key *gk = realloc(p->key, cap * sizeof(*gk));
			int64_t *gn;

			if (!gk)
				return pvmmon_error_set(PVMMON_ENOMEM, "out of memory");
			p->key = gk;
			if (!(gn = realloc(p->ns, cap * sizeof(*gn))))
				return pvmmon_error_set(PVMMON_ENOMEM, "out of memory");
			p->ns = gn;
			p->cap = cap;
		}
		p->key[i] = k;
		p->ns[i] = 0;
		p->n++;
	}
	p->ns[i] += ns;
	return 0;
}

wm_key waits__compute_key(const wm_task *w, size_t i, uint32_t stmt)
{
	return (wm_key){0, w->proc[i], w->proc[i] >= 0 ? 0 : stmt, WM_NONE};
}

int waits__profile(wm_profile *p, const wm_model *m, size_t x, int64_t a, int64_t b)
{
	const wm_task *w = &m->tasks[x];
	const pvmmon_log_task *t = w->t;
	int64_t prev = w->vstart;
	int rc = 0;
	size_t lo = 0, hi = t->nevents;

	memset(p, 0, sizeof(*p));
	/* The first event ending at or after a (events are in call order, so their ends
	 * grow): the profile costs the interval's events, not the task's whole past. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->events[mid].vt1 < a)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo > 0 && t->events[lo - 1].vt1 > prev)
		prev = t->events[lo - 1].vt1;
	for (size_t i = lo; i < t->nevents && rc == 0 && prev < b; i++) {
		const pvmmon_log_event *e = &t->events[i];
		int64_t sync = e->sync > 0 ? e->sync : w->gwait ? w->gwait[i] : 0;

		rc = add(p, waits__compute_key(w, i, w->next_stmt[i]), prev, e->vt0, a, b);
		if (rc == 0 && waits__is_call(e) && e->vt1 > e->vt0) {
			if (sync > e->vt1 - e->vt0)
				sync = e->vt1 - e->vt0;
			if (sync > 0)
				rc = add(p, (wm_key){1, -1, 0, i}, e->vt0, e->vt0 + sync, a, b);
			if (rc == 0)
				rc =
				    add(p, waits__compute_key(w, i, e->stmt), e->vt0 + sync, e->vt1, a, b);
		}
		if (e->vt1 > prev)
			prev = e->vt1;
	}
	if (rc == 0)
		rc = add(p, waits__compute_key(w, t->nevents, WM_NO_STMT), prev, w->vend, a, b);
	if (rc < 0)
		waits__profile_free(p);
	return rc;
}

void waits__profile_free(wm_profile *p)
{
	free(p->key);
	free(p->ns);
	memset(p, 0, sizeof(*p));
}

/* Whether the computation before event i of task x (key k) is cause c's. */
static int of_cause(const pvmmon_wait_cause *c, size_t x, const wm_key *k)
{
	if (c && c->task == x && c->proc == PVMMON_WAIT_ALL_COMPUTATION)
		return 1;
	return c && c->task == x && c->proc == k->proc && (c->proc >= 0 || c->stmt == k->stmt);
}

/* The replayed latency of a message: the modelled network's cost of its bytes, or
 * measured (the send's end to the receive's, capped as in replay_task). */
static int64_t arc(const wm_net *net, const pvmmon_log_event *s, const pvmmon_log_event *r,
                   int64_t measured)
{
	uint32_t bytes = s->bytes ? s->bytes : r->bytes;
	double ns;

	if (!net)
		return measured < 0 ? 0 : measured;
	ns = (double)net->lat_ns;
	if (net->bytes_per_ns > 0)
		ns += (double)bytes / net->bytes_per_ns;
	return (int64_t)(ns + 0.5);
}

static int64_t scaled(int64_t ns, int faster, int pct)
{
	if (ns < 0)
		return 0;
	return faster ? ns - ns * pct / 100 : ns;
}

/* The replay's barriers: per task its next call and arrival there, per instance how
 * many members have arrived and the latest arrival. */
typedef struct bar_state {
	size_t *next;     /* per task: its next barrier call */
	int64_t *arrived; /* per task: its arrival at that call (INT64_MIN: not yet) */
	uint32_t *count;  /* per instance */
	int64_t *latest;  /* per instance */
} bar_state;

/* Barrier bookkeeping at task x's event i: records its arrival at its next call; at
 * that call's release, 0 while members are still to arrive, else 1 with the release's
 * replayed end in *release and the task's wait there in *wait. -1: no barrier here. */
static int barrier_at(const wm_model *m, bar_state *b, size_t x, size_t i, int64_t start,
                      int64_t *release, int64_t *wait)
{
	const wm_task *w = &m->tasks[x];
	size_t k = b->next[x];

	if (k >= w->nbar || m->bars[k].members < 2)
		return -1;
	if (i == w->bfirst[k] && b->arrived[x] == INT64_MIN) {
		b->arrived[x] = start;
		b->count[k]++;
		if (start > b->latest[k])
			b->latest[k] = start;
	}
	if (i != w->brelease[k])
		return -1;
	if (b->count[k] < m->bars[k].members)
		return 0;
	/* All left at the group server's one answer: the latest arrival + its round trip. */
	*release = b->latest[k] + m->bars[k].call_ns;
	*wait = b->latest[k] - b->arrived[x];
	b->next[x]++;
	b->arrived[x] = INT64_MIN;
	return 1;
}

/* A replay that no longer moves: the earliest barrier instance some task waits at is
 * let go with the members it has (1), or none is waited at (0). */
static int force_barrier(const wm_model *m, bar_state *b)
{
	size_t best = SIZE_MAX;

	for (size_t x = 0; x < m->ntasks; x++)
		if (b->next[x] < m->tasks[x].nbar && b->next[x] < best &&
		    b->count[b->next[x]] < m->bars[b->next[x]].members)
			best = b->next[x];
	if (best == SIZE_MAX || b->count[best] == 0)
		return 0;
	b->count[best] = m->bars[best].members;
	return 1;
}

/* Replays task x from its cursor as far as its messages and barriers allow; 1 if it
 * moved. */
static int replay_task(const wm_model *m, size_t x, size_t *cur, int64_t *t, int64_t *prev,
                       int64_t **end, const wm_net *net, const pvmmon_wait_cause *c, int pct,
                       int64_t *waited, bar_state *bs)
{
	const wm_task *w = &m->tasks[x];
	const pvmmon_log_task *lt = w->t;
	int moved = 0;

	while (*cur < lt->nevents) {
		size_t i = *cur, pt = w->peer_task[i], pe = w->peer_event[i];
		const pvmmon_log_event *e = &lt->events[i];
		wm_key k = waits__compute_key(w, i, w->next_stmt[i]);
		int64_t gap = scaled(e->vt0 - *prev, of_cause(c, x, &k), pct),
		        dur = e->vt1 - e->vt0;
		int64_t release = 0, bwait = 0;
		int bar = barrier_at(m, bs, x, i, *t + gap, &release, &bwait);

		if (dur < 0)
			dur = 0;
		if (bar == 0)
			break; /* members still to arrive */
		if (bar == 1) {
			*t = *t + gap > release ? *t + gap : release;
			*waited += bwait > 0 ? bwait : 0;
		} else if (pvmmon_event_op_receives(e->op) && pt != WM_NONE) {
			const pvmmon_log_event *s = &m->tasks[pt].t->events[pe];
			int64_t sync = e->sync > 0 ? e->sync : 0, lat, start, arr;

			if (end[pt][pe] == INT64_MIN)
				break; /* its message is not replayed yet */
			/* A message waited for took what the wait shows; one that was queued
			 * took its estimated transmission at most (it may come sooner in the
			 * replay than the receive that took it began). */
			lat = e->vt0 + sync - s->vt1;
			if (!sync && e->trans >= 0 && e->trans < lat)
				lat = e->trans;
			lat = arc(net, s, e, lat);
			start = *t + gap;
			arr = end[pt][pe] + lat;
			if (arr > start)
				*waited += arr - start;
			*t = (start > arr ? start : arr) + (dur > sync ? dur - sync : 0);
		} else {
			*t += gap + dur;
		}
		end[x][i] = *t;
		if (e->vt1 > *prev)
			*prev = e->vt1;
		(*cur)++;
		moved = 1;
	}
	return moved;
}

int waits__replay(int64_t *out_ns, int64_t *out_wait_ns, const wm_model *m, int ideal,
                  const pvmmon_wait_cause *c, int pct)
{
	static const wm_net free_net = {0, 0.0};

	return waits__replay_net(out_ns, out_wait_ns, m, ideal ? &free_net : NULL, c, pct);
}

int waits__replay_net(int64_t *out_ns, int64_t *out_wait_ns, const wm_model *m, const wm_net *net,
                      const pvmmon_wait_cause *c, int pct)
{
	int64_t waited = 0;
	int64_t **end = calloc(m->ntasks + 1, sizeof(*end)), *t = calloc(m->ntasks + 1, sizeof(*t));
	int64_t *prev = calloc(m->ntasks + 1, sizeof(*prev)), first = INT64_MAX, last = INT64_MIN;
	size_t *cur = calloc(m->ntasks + 1, sizeof(*cur)), left = m->ntasks;
	bar_state bs = {
	    calloc(m->ntasks + 1, sizeof(size_t)), malloc((m->ntasks + 1) * sizeof(int64_t)),
	    calloc(m->nbars + 1, sizeof(uint32_t)), malloc((m->nbars + 1) * sizeof(int64_t))};
	int rc = 0;

	*out_ns = 0;
	if (!end || !t || !prev || !cur || !bs.next || !bs.arrived || !bs.count || !bs.latest) {
		rc = pvmmon_error_set(PVMMON_ENOMEM, "out of memory");
		goto out;
	}
	for (size_t x = 0; x < m->ntasks; x++)
		bs.arrived[x] = INT64_MIN;
	for (size_t k = 0; k < m->nbars; k++)
		bs.latest[k] = INT64_MIN;
	for (size_t x = 0; x < m->ntasks; x++) {
		size_t n = m->tasks[x].t->nevents + 1;

		if (!(end[x] = malloc(n * sizeof(int64_t)))) {
			rc = pvmmon_error_set(PVMMON_ENOMEM, "out of memory");
			goto out;
		}
		for (size_t i = 0; i < n; i++)
			end[x][i] = INT64_MIN;
		t[x] = prev[x] = m->tasks[x].vstart;
		if (m->tasks[x].vstart < first)
			first = m->tasks[x].vstart;
	}
	while (left > 0) {
		int moved = 0;

		for (size_t x = 0; x < m->ntasks; x++) {
			const wm_task *w = &m->tasks[x];
			size_t n = w->t->nevents;

			if (cur[x] > n)
				continue;
			moved |= replay_task(m, x, &cur[x], &t[x], &prev[x], end, net, c, pct,
			                     &waited, &bs);
			if (cur[x] == n) {
				wm_key k = waits__compute_key(w, n, WM_NO_STMT);

				t[x] += scaled(w->vend - prev[x], of_cause(c, x, &k), pct);
				if (t[x] > last)
					last = t[x];
				cur[x] = n + 1;
				left--;
				moved = 1;
			}
		}
		/* Barriers of groups that meet unequally often (the log does not name the
		 * group) can hold each other: the earliest such instance goes as measured. */
		if (!moved && !force_barrier(m, &bs)) {
			rc =
			    pvmmon_error_set(PVMMON_EINVAL, "the trace's messages do not replay (a "
			                                    "receive's message comes after it)");
			goto out;
		}
	}
	*out_ns = m->ntasks ? last - first : 0;
	if (out_wait_ns)
		*out_wait_ns = waited;
out:
	for (size_t x = 0; end && x < m->ntasks; x++)
		free(end[x]);
	free(end);
	free(t);
	free(prev);
	free(cur);
	free(bs.next);
	free(bs.arrived);
	free(bs.count);
	free(bs.latest);
	return rc;
}

/* A cause's name: here, below the report and the predictions, which both name causes. */
void pvmmon_waits_cause_name(char *buf, size_t len, const pvmmon_log *log,
                             const pvmmon_wait_cause *c)
{
	const pvmmon_log_task *t = c->task < log->ntasks ? &log->tasks[c->task] : NULL;
	const char *lid = t && t->lid ? t->lid : "?";
	char where[512];

	if (c->proc == PVMMON_WAIT_ALL_COMPUTATION) {
		snprintf(buf, len, "%s all its computation", lid);
		return;
	}
	if (c->proc >= 0 && (size_t)c->proc < log->cp.nprocs && log->cp.procs[c->proc].name) {
		snprintf(buf, len, "%s %s", lid, log->cp.procs[c->proc].name);
		return;
	}
	const pvmmon_log_stmt *st = t && c->stmt != UINT32_MAX ? graphs__stmt_of(t, c->stmt) : NULL;

	if (st) {
		snprintf(buf, len, "%s before %s", lid, graphs__stmt_name(where, sizeof(where), t, st));
		return;
	}
	snprintf(buf, len, "%s to its end", lid);
}
