/*
 * pvmmon explore's analysis: which other outcome each nondeterministic event of a traced
 * run could have had, and the replay records that force one. A message M from B could
 * have been taken by receive R of task T when R asked for B and M's tag, T took M later,
 * and R did not happen before M's send (no chain of program order and messages leads
 * from R to it, by the trace): B then sends M whatever R takes, as DAMPI's rule has it
 * with piggybacked clocks, here computed after the run from the trace.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../replay/replay.h"
#include "explalt.h"
#include "pvmmon/errors.h"

/* A task's record decoded, and which entries and events are its nondeterministic
 * receives, aligned in order. */
typedef struct task_nd {
	const pvmmon_log_task *t;
	replay_dec dec;
	replay_entry *ent;
	size_t nent;
	size_t *ent_at; /* entry index of the k-th nondeterministic outcome */
	size_t *ev_at;  /* event index of the k-th nondeterministic event */
	size_t n;       /* aligned pairs */
} task_nd;

static int is_send(pvmmon_event_op op)
{
	return op == PVMMON_EV_SEND || op == PVMMON_EV_PSEND || op == PVMMON_EV_MCAST;
}

static int nd_entry(const replay_entry *e)
{
	return e->kind == REPLAY_MSG || e->kind == REPLAY_NONE || e->kind == REPLAY_TIMEOUT ||
	       e->kind == REPLAY_NOTIFY;
}

static void nd_free(task_nd *d)
{
	replay__dec_free(&d->dec);
	free(d->ent);
	free(d->ent_at);
	free(d->ev_at);
	memset(d, 0, sizeof(*d));
}

/* Decodes t's record and aligns its outcomes with its traced nondeterministic events
 * (the same calls in the same order); stops at the first that do not agree. */
static int nd_load(task_nd *d, const pvmmon_log_task *t)
{
	size_t ne = 0, nv = 0, cap = 0;
	replay_entry e;
	int rc;

	memset(d, 0, sizeof(*d));
	d->t = t;
	replay__dec_init(&d->dec, t->record, t->record_len);
	while ((rc = replay__dec_next(&d->dec, &e)) == 1) {
		if (d->nent == cap) {
			replay_entry *g = realloc(d->ent, (cap = cap ? 2 * cap : 64) * sizeof(*g));

			if (!g)
				return pvmmon_error_set(PVMMON_ENOMEM, "explore: out of memory");
			d->ent = g;
		}
		d->ent[d->nent++] = e;
	}
	if (rc < 0)
		return rc;
	d->ent_at = calloc(d->nent + 1, sizeof(size_t));
	d->ev_at = calloc(t->nevents + 1, sizeof(size_t));
	if (!d->ent_at || !d->ev_at)
		return pvmmon_error_set(PVMMON_ENOMEM, "explore: out of memory");
	for (size_t i = 0; i < d->nent; i++)
		if (nd_entry(&d->ent[i]))
			d->ent_at[ne++] = i;
	for (size_t i = 0; i < t->nevents; i++)
		if (t->events[i].nd)
			d->ev_at[nv++] = i;
	for (d->n = 0; d->n < ne && d->n < nv; d->n++)
		if (d->ent[d->ent_at[d->n]].op != (uint8_t)t->events[d->ev_at[d->n]].op)
			break;
	return 0;
}

/* The index in log->tasks of the task with tid, log->ntasks if none. */
static size_t task_index(const pvmmon_log *log, int32_t tid)
{
	for (size_t i = 0; i < log->ntasks; i++)
		if (log->tasks[i].tid == tid)
			return i;
	return log->ntasks;
}

/* The task with tid if it has a logical id, NULL otherwise. */
static const pvmmon_log_task *by_tid(const pvmmon_log *log, int32_t tid)
{
	size_t i = task_index(log, tid);

	return i < log->ntasks && log->tasks[i].lid ? &log->tasks[i] : NULL;
}

static const char *sender_lid(const pvmmon_log_task *t, int32_t idx)
{
	return idx >= 0 && (size_t)idx < t->record_nsenders ? t->record_senders[idx] : NULL;
}

static char *where_of(const pvmmon_log_task *t, const pvmmon_log_event *e)
{
	char buf[512];
	const char *op = pvmmon_event_op_name(e->op);

	for (size_t s = 0; s < t->nstmts; s++)
		if (t->stmts[s].id == e->stmt) {
			const char *f = t->stmts[s].file, *slash = f ? strrchr(f, '/') : NULL;

			snprintf(buf, sizeof(buf), "%s:%d (%s)", slash ? slash + 1 : f ? f : "?",
			         (int)t->stmts[s].line, op ? op : "?");
			return strdup(buf);
		}
	snprintf(buf, sizeof(buf), "(%s)", op ? op : "?");
	return strdup(buf);
}

static int push(expl_alt **v, size_t *n, size_t *cap, const expl_alt *a)
{
	if (*n == *cap) {
		expl_alt *g = realloc(*v, (*cap = *cap ? 2 * *cap : 16) * sizeof(*g));

		if (!g)
			return pvmmon_error_set(PVMMON_ENOMEM, "explore: out of memory");
		*v = g;
	}
	(*v)[(*n)++] = *a;
	return 0;
}

/* One alternative of event k of d into the list (strings copied). */
static int add_alt(expl_alt **v, size_t *n, size_t *cap, const task_nd *d, size_t k, int kind,
                   const char *from, int32_t tag)
{
	const replay_entry *taken = &d->ent[d->ent_at[k]];
	const pvmmon_log_event *e = &d->t->events[d->ev_at[k]];
	expl_alt a = {0};
	const char *tf = sender_lid(d->t, taken->sender);

	a.task = strdup(d->t->lid);
	a.nd = k;
	a.entry_no = d->ent_at[k] + 1;
	a.kind = kind;
	a.from = from ? strdup(from) : NULL;
	a.tag = tag;
	a.taken_kind = taken->kind;
	a.taken_from = taken->kind == REPLAY_MSG && tf ? strdup(tf) : NULL;
	a.taken_tag = taken->tag;
	a.vt = e->vt1;
	a.where = where_of(d->t, e);
	if (!a.task || !a.where || (from && !a.from)) {
		expl__alt_free(&a);
		return pvmmon_error_set(PVMMON_ENOMEM, "explore: out of memory");
	}
	return push(v, n, cap, &a);
}

/* A receive (send) event of a task, by the message's sender (receiver) and sequence
 * number. */
typedef struct rkey {
	int32_t peer;
	int64_t seq;
	size_t idx;
} rkey;

/* Happened-before over a traced run: each task's receives by (sender, sequence), to
 * follow a send to its receive, and its sends by (receiver, sequence), to find a
 * received message's send. */
typedef struct hb {
	const pvmmon_log *log;
	rkey **recv, **send;
	size_t *nrecv, *nsend;
	size_t *earliest; /* scratch: per task, its first event reached (nevents: none) */
} hb;

static int cmp_rkey(const void *pa, const void *pb)
{
	const rkey *a = pa, *b = pb;

	if (a->peer != b->peer)
		return a->peer < b->peer ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static void hb_free(hb *h)
{
	for (size_t i = 0; h->recv && i < h->log->ntasks; i++)
		free(h->recv[i]);
	for (size_t i = 0; h->send && i < h->log->ntasks; i++)
		free(h->send[i]);
	free(h->recv);
	free(h->send);
	free(h->nrecv);
	free(h->nsend);
	free(h->earliest);
}

static int hb_init(hb *h, const pvmmon_log *log)
{
	size_t n = log->ntasks;

	h->log = log;
	h->recv = calloc(n + 1, sizeof(*h->recv));
	h->send = calloc(n + 1, sizeof(*h->send));
	h->nrecv = calloc(n + 1, sizeof(*h->nrecv));
	h->nsend = calloc(n + 1, sizeof(*h->nsend));
	h->earliest = calloc(n + 1, sizeof(*h->earliest));
	if (!h->recv || !h->send || !h->nrecv || !h->nsend || !h->earliest)
		return pvmmon_error_set(PVMMON_ENOMEM, "explore: out of memory");
	for (size_t t = 0; t < n; t++) {
		const pvmmon_log_task *x = &log->tasks[t];

		h->recv[t] = calloc(x->nevents + 1, sizeof(rkey));
		h->send[t] = calloc(x->nevents + 1, sizeof(rkey));
		if (!h->recv[t] || !h->send[t])
			return pvmmon_error_set(PVMMON_ENOMEM, "explore: out of memory");
		for (size_t i = 0; i < x->nevents; i++) {
			const pvmmon_log_event *e = &x->events[i];

			if (!e->peer || e->seq < 0)
				continue;
			if (pvmmon_event_op_receives(e->op))
				h->recv[t][h->nrecv[t]++] = (rkey){e->peer, e->seq, i};
			else if (is_send(e->op))
				h->send[t][h->nsend[t]++] = (rkey){e->peer, e->seq, i};
		}
		qsort(h->recv[t], h->nrecv[t], sizeof(rkey), cmp_rkey);
		qsort(h->send[t], h->nsend[t], sizeof(rkey), cmp_rkey);
	}
	return 0;
}

/* Marks in h->earliest, per task, the first event that event i of task t happened
 * before (program order, then messages, to a fixed point). */
static void hb_after(hb *h, size_t t, size_t i)
{
	const pvmmon_log *log = h->log;
	int changed = 1;

	for (size_t k = 0; k < log->ntasks; k++)
		h->earliest[k] = log->tasks[k].nevents;
	h->earliest[t] = i;
	while (changed) {
		changed = 0;
		for (size_t x = 0; x < log->ntasks; x++) {
			const pvmmon_log_task *tx = &log->tasks[x];

			for (size_t j = h->earliest[x]; j < tx->nevents; j++) {
				const pvmmon_log_event *e = &tx->events[j];
				rkey key = {tx->tid, e->seq, 0}, *r;
				size_t y;

				if (!is_send(e->op) || e->seq < 0 ||
				    (y = task_index(log, e->peer)) >= log->ntasks)
					continue;
				r = bsearch(&key, h->recv[y], h->nrecv[y], sizeof(rkey), cmp_rkey);
				if (r && r->idx < h->earliest[y]) {
					h->earliest[y] = r->idx;
					changed = 1;
				}
			}
		}
	}
}

/* The event index of task b's send of the message of sequence seq to tid, or b's event
 * count when it was not traced. */
static size_t send_at(const hb *h, size_t b, int32_t to, int64_t seq)
{
	rkey key = {to, seq, 0}, *r = bsearch(&key, h->send[b], h->nsend[b], sizeof(rkey), cmp_rkey);

	return r ? r->idx : h->log->tasks[b].nevents;
}

/* Whether event k of d is a receive right after a probe with the same filter that found
 * a message: PVM's probe and receive take the queue's first match alike, and the queue
 * only grows at its end, so the receive takes the probed message in every order. */
static int probed_same(const task_nd *d, size_t k)
{
	const pvmmon_log_event *r = &d->t->events[d->ev_at[k]], *p;

	if (k == 0 || r->op == PVMMON_EV_PROBE)
		return 0;
	p = &d->t->events[d->ev_at[k - 1]];
	return p->op == PVMMON_EV_PROBE && d->ent[d->ent_at[k - 1]].kind == REPLAY_MSG &&
	       p->want_peer == r->want_peer && p->want_tag == r->want_tag;
}

/* The alternatives of event k of d (see the file's comment); counts into c. */
static int event_alts(expl_alt **v, size_t *n, size_t *cap, expl_count *c, hb *h,
                      const task_nd *d, size_t k, char ***seen_from, size_t *nseen)
{
	const pvmmon_log_task *t = d->t;
	const replay_entry *taken = &d->ent[d->ent_at[k]];
	const pvmmon_log_event *r = &t->events[d->ev_at[k]];
	const char *taken_lid = taken->kind == REPLAY_MSG ? sender_lid(t, taken->sender) : NULL;
	const pvmmon_log *log = h->log;
	const char **done = NULL;
	size_t ndone = 0;
	int rc = 0;

	if (taken->kind == REPLAY_NOTIFY) {
		*nseen = 0; /* a message taken ends the poll sequence */
		return 0;
	}
	if (probed_same(d, k))
		return 0;
	hb_after(h, (size_t)(t - log->tasks), d->ev_at[k]);
	done = calloc(log->ntasks + 1, sizeof(*done));
	if (!done)
		return pvmmon_error_set(PVMMON_ENOMEM, "explore: out of memory");
	for (size_t i = d->ev_at[k] + 1; i < t->nevents && rc == 0; i++) {
		const pvmmon_log_event *m = &t->events[i];
		const pvmmon_log_task *b;
		size_t j, at;

		if (!pvmmon_event_op_receives(m->op) || m->peer == 0 || m->seq < 0 ||
		    !(b = by_tid(log, m->peer)))
			continue;
		if ((r->want_peer != -1 && r->want_peer != m->peer) ||
		    (r->want_tag != -1 && r->want_tag != m->tag))
			continue;
		if (taken_lid && !strcmp(taken_lid, b->lid))
			continue; /* one sender's messages come in order */
		for (j = 0; j < ndone && strcmp(done[j], b->lid); j++)
			;
		if (j < ndone)
			continue; /* only the first of each sender can be taken */
		done[ndone++] = b->lid;
		c->naive++;
		at = send_at(h, (size_t)(b - log->tasks), t->tid, m->seq);
		if (at >= b->nevents || at >= h->earliest[b - log->tasks])
			continue; /* caused by R (or not traced): never a legal other match */
		/* A poll sequence: the message is tried at the first poll it could meet. */
		for (j = 0; j < *nseen && strcmp((*seen_from)[j], b->lid); j++)
			;
		if (taken->kind != REPLAY_MSG && j < *nseen)
			continue;
		if (taken->kind != REPLAY_MSG && j == *nseen) {
			char **g = realloc(*seen_from, (*nseen + 1) * sizeof(*g));

			if (!g) {
				rc = pvmmon_error_set(PVMMON_ENOMEM, "explore: out of memory");
				break;
			}
			*seen_from = g;
			g[(*nseen)++] = b->lid;
		}
		rc = add_alt(v, n, cap, d, k, REPLAY_MSG, b->lid, m->tag);
		c->alts++;
	}
	/* A poll or timed receive that found a message could have found none: tried once
	 * per sender's message, after the messages. */
	if (rc == 0 && taken->kind == REPLAY_MSG && r->op != PVMMON_EV_RECV &&
	    r->op != PVMMON_EV_PRECV) {
		c->naive++;
		c->alts++;
		rc = add_alt(v, n, cap, d, k, r->op == PVMMON_EV_TRECV ? REPLAY_TIMEOUT : REPLAY_NONE,
		             NULL, 0);
	}
	if (taken->kind == REPLAY_MSG && *nseen)
		*nseen = 0; /* a message taken ends the poll sequence */
	free(done);
	return rc;
}

static int by_vt(const void *pa, const void *pb)
{
	const expl_alt *a = pa, *b = pb;

	if ((a->kind == REPLAY_MSG) != (b->kind == REPLAY_MSG))
		return a->kind == REPLAY_MSG ? -1 : 1;
	if (a->vt != b->vt)
		return a->vt < b->vt ? -1 : 1;
	return strcmp(a->task, b->task);
}

/* An alternative's statement, for by_statement(). */
typedef struct site {
	const char *where;
	int msg;
	size_t i;
} site;

static int cmp_where(const site *a, const site *b)
{
	int c = strcmp(a->where, b->where);

	return c ? c : a->msg - b->msg;
}

static int cmp_site(const void *pa, const void *pb)
{
	const site *a = pa, *b = pb;
	int c = cmp_where(a, b);

	return c ? c : a->i < b->i ? -1 : a->i > b->i;
}

/* Interleaves v (earliest first) by statement: every statement's earliest alternative,
 * then every statement's second, and so on, so that the events of distinct statements
 * (a master's receive of results, a node's receive of its start) are tried before a
 * statement's hundredth event is. */
static int by_statement(expl_alt *v, size_t n)
{
	expl_alt *out = malloc(n * sizeof(*out));
	size_t *rank = calloc(n, sizeof(*rank)), done = 0;

	if (!out || !rank) {
		free(out);
		free(rank);
		return pvmmon_error_set(PVMMON_ENOMEM, "explore: out of memory");
	}
	{
		site *k = malloc(n * sizeof(*k));

		if (!k) {
			free(out);
			free(rank);
			return pvmmon_error_set(PVMMON_ENOMEM, "explore: out of memory");
		}
		for (size_t i = 0; i < n; i++)
			k[i] = (site){v[i].where, v[i].kind == REPLAY_MSG, i};
		qsort(k, n, sizeof(*k), cmp_site);
		for (size_t i = 1; i < n; i++)
			if (!cmp_where(&k[i], &k[i - 1]))
				rank[k[i].i] = rank[k[i - 1].i] + 1;
		free(k);
	}
	for (size_t r = 0; done < n; r++)
		for (size_t i = 0; i < n; i++)
			if (rank[i] == r)
				out[done++] = v[i];
	memcpy(v, out, n * sizeof(*v));
	free(out);
	free(rank);
	return 0;
}

int expl__alternatives(expl_alt **out, size_t *n, expl_count *count, const pvmmon_log *log,
                       const char *task, size_t nd, int64_t after_vt)
{
	size_t cap = 0;
	int rc = 0;

	hb h = {0};

	*out = NULL;
	*n = 0;
	memset(count, 0, sizeof(*count));
	rc = hb_init(&h, log);
	for (size_t i = 0; i < log->ntasks && rc == 0; i++) {
		const pvmmon_log_task *t = &log->tasks[i];
		task_nd d;
		char **seen = NULL;
		size_t nseen = 0;

		if (!t->lid || !t->record_len)
			continue;
		rc = nd_load(&d, t);
		count->nd += d.n;
		for (size_t k = 0; k < d.n && rc == 0; k++) {
			if (task && !strcmp(task, t->lid) && k <= nd)
				continue;
			if (t->events[d.ev_at[k]].vt1 <= after_vt)
				continue;
			rc = event_alts(out, n, &cap, count, &h, &d, k, &seen, &nseen);
		}
		free(seen);
		nd_free(&d);
	}
	hb_free(&h);
	if (rc == 0 && *n > 1) {
		qsort(*out, *n, sizeof(**out), by_vt);
		rc = by_statement(*out, *n);
	}
	return rc;
}

/* The index of lid in t's sender table, added when missing; negative on error. */
static int32_t sender_index(pvmmon_log_task *t, const char *lid)
{
	char **g;

	for (size_t i = 0; i < t->record_nsenders; i++)
		if (t->record_senders[i] && !strcmp(t->record_senders[i], lid))
			return (int32_t)i;
	g = realloc(t->record_senders, (t->record_nsenders + 1) * sizeof(*g));
	if (!g)
		return PVMMON_ENOMEM;
	t->record_senders = g;
	if (!(g[t->record_nsenders] = strdup(lid)))
		return PVMMON_ENOMEM;
	return (int32_t)t->record_nsenders++;
}

/* Replaces t's record by the first keep entries of d, and extra after them if any. */
static int rewrite(pvmmon_log_task *t, const task_nd *d, size_t keep, const replay_entry *extra)
{
	replay_enc enc;
	wire_buf b;
	int rc = 0;

	replay__enc_init(&enc);
	wire__buf_init(&b);
	for (size_t i = 0; i < keep && rc == 0; i++)
		rc = replay__enc_add(&enc, &d->ent[i]);
	if (rc == 0 && extra)
		rc = replay__enc_add(&enc, extra);
	if (rc == 0)
		rc = replay__enc_take(&enc, &b);
	if (rc == 0) {
		free(t->record);
		t->record = b.data;
		t->record_len = b.len;
		t->record_entries = keep + (extra != NULL);
		b.data = NULL;
	}
	wire__buf_free(&b);
	replay__enc_free(&enc);
	return rc;
}

/* The first receive after probe k of d with the probe's filter (d->n: none, or k is no
 * probe): in the forced run, the receive the program makes after the probe found its
 * message (in the first run it may have probed again first). */
static size_t next_same(const task_nd *d, size_t k)
{
	const pvmmon_log_event *p = &d->t->events[d->ev_at[k]];

	if (p->op != PVMMON_EV_PROBE)
		return d->n;
	for (size_t j = k + 1; j < d->n; j++) {
		const pvmmon_log_event *r = &d->t->events[d->ev_at[j]];

		if (r->op != PVMMON_EV_PROBE && r->want_peer == p->want_peer &&
		    r->want_tag == p->want_tag)
			return j;
	}
	return d->n;
}

/* Appends one entry to t's record (decoded and encoded again). */
static int rewrite_more(pvmmon_log_task *t, const replay_entry *extra)
{
	task_nd d;
	int rc = nd_load(&d, t);

	if (rc == 0)
		rc = rewrite(t, &d, d.nent, extra);
	nd_free(&d);
	return rc;
}

/* Cuts task t's record for alternative a whose event ended at virtual time vt. */
static int force_task(pvmmon_log_task *t, const expl_alt *a, int64_t vt)
{
	task_nd d;
	size_t keep, k, total = 0;
	int rc = nd_load(&d, t);

	if (rc < 0)
		goto out;
	for (size_t i = 0; i < d.nent; i++)
		total += nd_entry(&d.ent[i]);
	if (!strcmp(t->lid, a->task)) {
		replay_entry e;
		int32_t s = 0;

		if (a->nd >= d.n) {
			rc = pvmmon_error_set(PVMMON_EINVAL, "explore: task %s has no event %zu",
			                      a->task, a->nd + 1);
			goto out;
		}
		e = d.ent[d.ent_at[a->nd]];
		if (a->kind == REPLAY_MSG && (s = sender_index(t, a->from)) < 0) {
			rc = pvmmon_error_set(PVMMON_ENOMEM, "explore: out of memory");
			goto out;
		}
		e.kind = (replay_kind)a->kind;
		e.sender = a->kind == REPLAY_MSG ? s : 0;
		e.tag = a->kind == REPLAY_MSG ? a->tag : 0;
		e.seq_delta = 0;
		/* A probe's message is the one its next receive with the same filter takes
		 * (probed_same()): that receive is forced with it. */
		if (a->kind == REPLAY_MSG && (k = next_same(&d, a->nd)) < d.n) {
			replay_entry both[2] = {e, d.ent[d.ent_at[k]]};

			both[1].kind = REPLAY_MSG;
			both[1].sender = e.sender;
			both[1].tag = e.tag;
			both[1].seq_delta = 0;
			rc = rewrite(t, &d, d.ent_at[a->nd], &both[0]);
			if (rc == 0)
				rc = rewrite_more(t, &both[1]);
			goto out;
		}
		rc = rewrite(t, &d, d.ent_at[a->nd], &e);
		goto out;
	}
	for (k = 0; k < d.n && t->events[d.ev_at[k]].vt1 < vt; k++)
		;
	keep = k < d.n || d.n < total ? d.ent_at[k] : d.nent;
	rc = rewrite(t, &d, keep, NULL);
out:
	nd_free(&d);
	return rc;
}

int expl__force(const char *base, const expl_alt *a, const char *path)
{
	pvmmon_log *log = NULL;
	int64_t vt = a->vt;
	int rc = pvmmon_log_read(&log, base);

	for (size_t i = 0; rc == 0 && i < log->ntasks; i++)
		if (log->tasks[i].lid && log->tasks[i].record_len)
			rc = force_task(&log->tasks[i], a, vt);
	if (rc == 0)
		rc = pvmmon_log_write(log, path);
	pvmmon_log_free(log);
	return rc;
}

int expl__took(const pvmmon_log *log, const expl_alt *a)
{
	for (size_t i = 0; i < log->ntasks; i++) {
		const pvmmon_log_task *t = &log->tasks[i];
		task_nd d;
		int rc = 0;

		if (!t->lid || strcmp(t->lid, a->task))
			continue;
		if ((rc = nd_load(&d, t)) == 0 && a->nd < d.n) {
			const replay_entry *e = &d.ent[d.ent_at[a->nd]];
			const char *s = sender_lid(t, e->sender);

			rc = (int)e->kind == a->kind &&
			     (a->kind != REPLAY_MSG || (s && !strcmp(s, a->from) && e->tag == a->tag));
		}
		nd_free(&d);
		return rc;
	}
	return 0;
}

void expl__alt_free(expl_alt *a)
{
	free(a->task);
	free(a->from);
	free(a->taken_from);
	free(a->where);
	memset(a, 0, sizeof(*a));
}

void expl__alt_outcome(char *buf, size_t len, int kind, const char *from, int32_t tag)
{
	if (kind == REPLAY_MSG)
		snprintf(buf, len, "the message from %s with tag %d", from ? from : "?", (int)tag);
	else if (kind == REPLAY_TIMEOUT)
		snprintf(buf, len, "a timeout");
	else if (kind == REPLAY_NOTIFY)
		snprintf(buf, len, "a notify message");
	else
		snprintf(buf, len, "nothing");
}
