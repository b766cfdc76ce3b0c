/*
 * pvmmon explore's analysis: which other outcome each nondeterministic event of a traced
 * run could have had, and the replay records that force one. A message M from B could
 * have been taken by receive R of task T when R asked for B and M's tag, T took M later,
 * and M's send began before R ended in virtual time: virtual time grows along every
 * chain of messages (each costs a latency), so such a send is not caused by R, and B
 * sends M whatever R takes (the rule DAMPI applies with Lamport clocks).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../replay/replay.h"
#include "explore.h"
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

static const pvmmon_log_task *by_tid(const pvmmon_log *log, int32_t tid)
{
	for (size_t i = 0; i < log->ntasks; i++)
		if (log->tasks[i].tid == tid && log->tasks[i].lid)
			return &log->tasks[i];
	return NULL;
}

static const char *sender_lid(const pvmmon_log_task *t, int32_t idx)
{
	return idx >= 0 && (size_t)idx < t->record_nsenders ? t->record_senders[idx] : NULL;
}

/* The virtual start of B's send of the message of sequence seq to tid, -1 if not
 * traced. */
static int64_t send_vt(const pvmmon_log_task *b, int32_t to, int64_t seq)
{
	for (size_t i = 0; i < b->nevents; i++) {
		const pvmmon_log_event *e = &b->events[i];

		if ((e->op == PVMMON_EV_SEND || e->op == PVMMON_EV_PSEND || e->op == PVMMON_EV_MCAST) &&
		    e->peer == to && e->seq == seq)
			return e->vt0;
	}
	return -1;
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

/* The alternatives of event k of d (see the file's comment); counts into c. */
static int event_alts(expl_alt **v, size_t *n, size_t *cap, expl_count *c, const pvmmon_log *log,
                      const task_nd *d, size_t k, char ***seen_from, size_t *nseen)
{
	const pvmmon_log_task *t = d->t;
	const replay_entry *taken = &d->ent[d->ent_at[k]];
	const pvmmon_log_event *r = &t->events[d->ev_at[k]];
	const char *taken_lid = taken->kind == REPLAY_MSG ? sender_lid(t, taken->sender) : NULL;
	const char **done = NULL;
	size_t ndone = 0;
	int rc = 0;

	if (taken->kind == REPLAY_NOTIFY)
		return 0;
	done = calloc(log->ntasks + 1, sizeof(*done));
	if (!done)
		return pvmmon_error_set(PVMMON_ENOMEM, "explore: out of memory");
	for (size_t i = d->ev_at[k] + 1; i < t->nevents && rc == 0; i++) {
		const pvmmon_log_event *m = &t->events[i];
		const pvmmon_log_task *b;
		size_t j;
		int64_t svt;

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
		svt = send_vt(b, t->tid, m->seq);
		if (svt < 0 || svt >= r->vt1)
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

int expl__alternatives(expl_alt **out, size_t *n, expl_count *count, const pvmmon_log *log,
                       const char *task, size_t nd, int64_t after_vt)
{
	size_t cap = 0;
	int rc = 0;

	*out = NULL;
	*n = 0;
	memset(count, 0, sizeof(*count));
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
			rc = event_alts(out, n, &cap, count, log, &d, k, &seen, &nseen);
		}
		free(seen);
		nd_free(&d);
	}
	if (rc == 0 && *n > 1)
		qsort(*out, *n, sizeof(**out), by_vt);
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
