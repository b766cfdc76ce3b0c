/*
 * The monitor's side of preserve mode: the tasks' states and message counts, the
 * decisions on nondeterministic receives (order.c's rule), questions to the tasks
 * that hold a decision back, and the report of a program's own deadlock.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/clock.h"
#include "../common/symbols.h"
#include "clocks.h"
#include "order.h"
#include "preserve.h"
#include "pvmmon/errors.h"
#include "tasks.h"

/* A decision that must wait asks the tasks holding it back for fresher reports only
 * after this long: in the common case their news (a report as they block, or the
 * message they were about to send) is already on its way. */
#define ASK_DELAY_NS 2000000LL

/* A program is called deadlocked when nothing could move for this long: reports that
 * race with each other settle well within it. */
#define DEADLOCK_GRACE_NS 300000000LL

/* What the monitor knows of one task (same index as the task table). */
typedef struct pr_task {
	int kind;         /* wire_pw_kind of its last report, -1 before any */
	uint32_t req;     /* its pending request, 0 when none */
	int32_t src, tag; /* what it waits for */
	int64_t vt, deadline;
	char *module; /* the call site it waits at */
	uint64_t offset;
	wire_pcand *cand;
	uint32_t ncand;
	int asked;        /* a PASK is on its way and unanswered */
	int64_t t_req;    /* real time its pending request arrived */
	uint32_t msgs;    /* control messages spent on its pending request */
	int64_t t_change; /* real time its request last changed */
} pr_task;

/* Message counts of one ordered pair of tasks, in an open-addressing table. */
typedef struct pr_pair {
	uint64_t key; /* src tid << 32 | dst tid; 0 for an empty slot */
	uint32_t sent, seen;
} pr_pair;

struct mon_pr {
	pr_task *t;
	size_t cap;
	pr_pair *pairs;
	size_t npairs, cap_pairs;
	/* dst tid -> pairs towards it with messages not yet seen: same table, keyed with
	 * the top bit set. */
	order_task *ot;
	order_cand *oc;
	int32_t *extra_tid; /* spawned tasks not registered yet, after the registered ones */
	size_t cap_ot, cap_oc, nextra;
	order_scratch s;
	/* Statistics for the log. */
	uint64_t decisions, asks, msgs_in, msgs_out, max_msgs_per_receive;
	int64_t eval_ns_sum, eval_ns_max, wait_ns_sum;
	uint64_t evals;
	size_t waiting; /* requests left waiting by the last evaluation */
	int64_t deadlock_since;
	int64_t last_blocked; /* real time the last report of a blocked receive came */
	int deadlock_reported;
	char *deadlock_text;
};

static uint64_t hash64(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	return k;
}

static pr_pair *pair_get(struct mon_pr *p, uint64_t key, int create)
{
	size_t i;

	if (create && (p->npairs + 1) * 2 > p->cap_pairs) {
		size_t nc = p->cap_pairs ? p->cap_pairs * 2 : 256;
		pr_pair *n = calloc(nc, sizeof(*n));

		if (!n)
			return NULL;
		for (i = 0; i < p->cap_pairs; i++) {
			if (!p->pairs[i].key)
				continue;
			size_t j = hash64(p->pairs[i].key) & (nc - 1);

			while (n[j].key)
				j = (j + 1) & (nc - 1);
			n[j] = p->pairs[i];
		}
		free(p->pairs);
		p->pairs = n;
		p->cap_pairs = nc;
	}
	if (!p->cap_pairs)
		return NULL;
	for (i = hash64(key) & (p->cap_pairs - 1); p->pairs[i].key;
	     i = (i + 1) & (p->cap_pairs - 1))
		if (p->pairs[i].key == key)
			return &p->pairs[i];
	if (!create)
		return NULL;
	p->pairs[i].key = key;
	p->npairs++;
	return &p->pairs[i];
}

static uint64_t pair_key(int32_t src, int32_t dst)
{
	return (uint64_t)(uint32_t)src << 32 | (uint32_t)dst;
}

/* Pairs towards dst with unseen messages are counted under this key. */
static uint64_t pend_key(int32_t dst) { return 1ULL << 63 | (uint32_t)dst; }

static int pending(struct mon_pr *p, int32_t src, int32_t dst)
{
	pr_pair *e = pair_get(p, pair_key(src, dst), 0);

	return e && e->sent > e->seen;
}

static int pending_in(struct mon_pr *p, int32_t dst)
{
	pr_pair *e = pair_get(p, pend_key(dst), 0);

	return e && e->sent > 0;
}

/* Sets a pair's count and keeps the per-destination count of pending pairs. */
static void pair_set(struct mon_pr *p, int32_t src, int32_t dst, int sent, uint32_t n)
{
	pr_pair *e = pair_get(p, pair_key(src, dst), 1), *d;
	int before, after;

	if (!e)
		return;
	before = e->sent > e->seen;
	if (sent && n > e->sent)
		e->sent = n;
	else if (!sent && n > e->seen)
		e->seen = n;
	after = e->sent > e->seen;
	if (before == after)
		return;
	d = pair_get(p, pend_key(dst), 1);
	if (d)
		d->sent = after ? d->sent + 1 : d->sent - 1;
}

static int reserve(mon_run *run)
{
	struct mon_pr *p = run->pr;
	size_t n = tasks__count(run) + tasks__spawn_count(run) + 1;

	if (n > p->cap) {
		pr_task *t = realloc(p->t, n * sizeof(*t));

		if (!t)
			return -1;
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
			return -1;
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
	return 0;
}

static void send_to(mon_run *run, int tid, int tag, const wire_buf *b)
{
	if (tasks__send(run, tid, tag, b) == 0)
		run->pr->msgs_out++;
}

static void ask(mon_run *run, size_t i)
{
	struct mon_pr *p = run->pr;
	wire_buf b;

	if (p->t[i].asked || i >= tasks__count(run))
		return;
	wire__buf_init(&b);
	wire__pask_encode(&b);
	send_to(run, tasks__at(run, i)->rec.tid, WIRE_TAG_PASK, &b);
	wire__buf_free(&b);
	p->t[i].asked = 1;
	p->asks++;
}

static void grant(mon_run *run, size_t i, int verdict, int32_t src, int32_t tag)
{
	struct mon_pr *p = run->pr;
	pr_task *t = &p->t[i];
	wire_buf b;

	wire__buf_init(&b);
	wire__pgrant_encode(&b, &(wire_pgrant){t->req, (uint8_t)verdict, src, tag});
	send_to(run, tasks__at(run, i)->rec.tid, WIRE_TAG_PGRANT, &b);
	wire__buf_free(&b);
	t->msgs++;
	if (t->msgs > p->max_msgs_per_receive)
		p->max_msgs_per_receive = t->msgs;
	p->decisions++;
	p->wait_ns_sum += pvmmon_clock_now() - t->t_req;
	t->req = 0;
	t->msgs = 0;
	t->ncand = 0;
	t->kind = WIRE_PW_RUNNING;
}

/* The index of tid among the tasks the rule sees, -1 when it is none of them. */
static int32_t index_of(mon_run *run, int32_t tid)
{
	struct mon_pr *p = run->pr;
	mon_task *t = tasks__find(run, tid);

	if (t)
		return (int32_t)t->index;
	for (size_t k = 0; k < p->nextra; k++)
		if (p->extra_tid[k] == tid)
			return (int32_t)(tasks__count(run) + k);
	return -1;
}

/* The rule's view of every task (registered, then spawned but not registered). */
static void build(mon_run *run)
{
	struct mon_pr *p = run->pr;
	size_t i;

	p->nextra = 0;
	for (i = 0; i < tasks__spawn_count(run); i++) {
		int32_t child = tasks__spawn_at(run, i)->child;

		if (!tasks__find(run, child))
			p->extra_tid[p->nextra++] = child;
	}
	for (i = 0; i < tasks__count(run); i++) {
		mon_task *mt = tasks__at(run, i);
		pr_task *t = &p->t[i];
		order_task *o = &p->ot[i];

		o->incoming = 0;
		o->cand_va = ORDER_NEVER;
		o->wait_src = -1;
		o->vt = t->vt;
		if (mt->gone || mt->final) {
			o->state = ORDER_EXITED;
			continue;
		}
		if (t->kind <= WIRE_PW_RUNNING) {
			/* Before its first report a task may send at any time. */
			o->state = ORDER_RUNNING;
			if (t->kind < 0)
				o->vt = 0;
			continue;
		}
		o->state = ORDER_BLOCKED;
		o->incoming =
		    t->src == -1 ? pending_in(p, mt->rec.tid) : pending(p, t->src, mt->rec.tid);
		for (uint32_t k = 0; k < t->ncand; k++)
			if (t->cand[k].va < o->cand_va)
				o->cand_va = t->cand[k].va;
		/* A nonblocking request goes on by its deadline whatever happens. */
		if (t->req && t->deadline < o->cand_va)
			o->cand_va = t->deadline;
	}
	/* wait_src needs the extra tasks' indices too. */
	for (i = 0; i < tasks__count(run); i++)
		if (p->ot[i].state == ORDER_BLOCKED && p->t[i].src != -1)
			p->ot[i].wait_src = index_of(run, p->t[i].src);
	for (i = 0; i < p->nextra; i++) {
		order_task *o = &p->ot[tasks__count(run) + i];

		o->state = ORDER_RUNNING;
		o->vt = 0;
		o->wait_src = -1;
		o->incoming = 0;
		o->cand_va = ORDER_NEVER;
	}
}

/* Decides the pending request of task i, if it can be decided now. */
static void decide(mon_run *run, size_t i)
{
	struct mon_pr *p = run->pr;
	pr_task *t = &p->t[i];
	size_t n = tasks__count(run) + p->nextra, nc = 0, best = 0, k;
	int32_t tid = tasks__at(run, i)->rec.tid, src;
	int inflight;
	order_verdict v;
	int64_t t0 = pvmmon_clock_now(), d;

	if (t->ncand > p->cap_oc) {
		order_cand *oc = realloc(p->oc, t->ncand * sizeof(*oc));

		if (!oc)
			return;
		p->oc = oc;
		p->cap_oc = t->ncand;
	}
	for (k = 0; k < t->ncand; k++) {
		int32_t s = index_of(run, t->cand[k].src);

		if (s < 0 || (size_t)s >= tasks__count(run))
			continue;
		p->oc[nc].src = s;
		p->oc[nc].va = t->cand[k].va;
		p->oc[nc].key = tasks__at(run, (size_t)s)->rec.lid;
		p->oc[nc].seq = t->cand[k].seq;
		nc++;
	}
	src = t->src == -1 ? -1 : index_of(run, t->src);
	inflight = t->src == -1 ? pending_in(p, tid) : pending(p, t->src, tid);
	if (t->src != -1 && src < 0) {
		/* It waits on a task that is no task of the run: only that task can answer. */
		return;
	}
	v = order__decide(p->ot, n, i, src, p->oc, nc, t->deadline, inflight, &p->s, &best);
	d = pvmmon_clock_now() - t0;
	p->evals++;
	p->eval_ns_sum += d;
	if (d > p->eval_ns_max)
		p->eval_ns_max = d;
	switch (v) {
	case ORDER_TAKE: {
		const order_cand *c = &p->oc[best];
		int32_t ctag = 0;

		for (k = 0; k < t->ncand; k++)
			if (t->cand[k].src == tasks__at(run, (size_t)c->src)->rec.tid)
				ctag = t->cand[k].tag;
		grant(run, i, WIRE_PG_TAKE, tasks__at(run, (size_t)c->src)->rec.tid, ctag);
		t->vt = c->va > t->vt ? c->va : t->vt;
		break;
	}
	case ORDER_NONE:
		if (t->deadline != ORDER_NEVER && t->deadline > t->vt)
			t->vt = t->deadline;
		grant(run, i, WIRE_PG_NONE, -1, -1);
		break;
	case ORDER_WAIT:
		/* Ask the tasks that hold it back for fresher reports; with no candidate and
		 * no deadline, only more messages can help, and they wake the request. */
		p->waiting++;
		if ((nc || t->deadline != ORDER_NEVER) && t0 - t->t_change >= ASK_DELAY_NS)
			for (k = 0; k < tasks__count(run); k++)
				if (p->s.low[k] &&
				    (p->ot[k].state == ORDER_RUNNING || p->ot[k].incoming) &&
				    !p->t[k].asked) {
					ask(run, k);
					t->msgs += 2;
				}
		return;
	case ORDER_STUCK:
		return;
	}
	p->ot[i].state = ORDER_RUNNING;
	p->ot[i].vt = t->vt;
}

/* Every task blocked, none about to run, no message on its way: the program itself is
 * deadlocked (its uninstrumented run would wait forever too). */
static int all_stuck(mon_run *run)
{
	struct mon_pr *p = run->pr;
	size_t i, blocked = 0;

	if (p->nextra)
		return 0;
	for (i = 0; i < tasks__count(run); i++) {
		const order_task *o = &p->ot[i];

		if (o->state == ORDER_EXITED)
			continue;
		if (o->state != ORDER_BLOCKED || o->incoming || o->cand_va != ORDER_NEVER ||
		    p->t[i].ncand)
			return 0;
		blocked++;
	}
	return blocked > 0;
}

static void describe(mon_run *run, size_t i, char *buf, size_t size)
{
	pr_task *t = &run->pr->t[i];
	mon_task *src = t->src == -1 ? NULL : tasks__find(run, t->src);
	char from[96], tag[32], where[600] = "";
	char *file = NULL, *function = NULL;
	int32_t line = 0;
	pvmmon_symbols *syms = NULL;

	if (t->src == -1)
		snprintf(from, sizeof(from), "any task");
	else
		snprintf(from, sizeof(from), "task %s (t%x)",
		         src && src->rec.lid ? src->rec.lid : "?", (unsigned)t->src);
	if (t->tag == -1)
		snprintf(tag, sizeof(tag), "any tag");
	else
		snprintf(tag, sizeof(tag), "tag %d", (int)t->tag);
	if (t->module && pvmmon_symbols_new(&syms) == 0) {
		pvmmon_symbols_resolve(syms, t->module, t->offset, &file, &line, &function);
		pvmmon_symbols_free(syms);
	}
	if (file)
		snprintf(where, sizeof(where), " at %s:%d%s%s", file, (int)line,
		         function ? " in " : "", function ? function : "");
	else if (t->module)
		snprintf(where, sizeof(where), " at %s+0x%" PRIx64, t->module, t->offset);
	snprintf(buf, size, "task %s (t%x) waits for a message from %s with %s%s",
	         tasks__at(run, i)->rec.lid ? tasks__at(run, i)->rec.lid : "?",
	         (unsigned)tasks__at(run, i)->rec.tid, from, tag, where);
	free(file);
	free(function);
}

static void report_deadlock(mon_run *run)
{
	struct mon_pr *p = run->pr;
	size_t i, n = tasks__count(run), cur = n, steps;
	char line[1024];
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	uint8_t *on = calloc(n ? n : 1, 1);

	if (!f || !on) {
		if (f)
			fclose(f);
		free(text);
		free(on);
		return;
	}
	fprintf(f,
	        "deadlock: every task of the program waits and no message can come (said %" PRId64
	        " ms after the last task blocked)\n",
	        (pvmmon_clock_now() - p->last_blocked) / 1000000);
	for (i = 0; i < n; i++) {
		if (p->ot[i].state != ORDER_BLOCKED)
			continue;
		if (cur == n)
			cur = i;
		describe(run, i, line, sizeof(line));
		fprintf(f, "  %s\n", line);
	}
	/* The wait-for cycle: follow what each task waits on (for a task that waits on
	 * anyone, the next blocked task) until a task comes round again. */
	for (steps = 0; cur < n && !on[cur] && steps <= n; steps++) {
		int32_t next = p->ot[cur].wait_src;

		on[cur] = 1;
		if (next < 0 || (size_t)next >= n || p->ot[next].state != ORDER_BLOCKED) {
			next = -1;
			for (i = 1; i <= n; i++) {
				size_t j = (cur + i) % n;

				if (j != cur && p->ot[j].state == ORDER_BLOCKED) {
					next = (int32_t)j;
					break;
				}
			}
		}
		if (next < 0)
			break;
		cur = (size_t)next;
	}
	if (cur < n && on[cur]) {
		size_t start = cur;

		fprintf(f, "  cycle: %s",
		        tasks__at(run, start)->rec.lid ? tasks__at(run, start)->rec.lid : "?");
		do {
			int32_t next = p->ot[cur].wait_src;

			if (next < 0 || (size_t)next >= n || p->ot[next].state != ORDER_BLOCKED) {
				for (i = 1; i <= n; i++)
					if (p->ot[(cur + i) % n].state == ORDER_BLOCKED &&
					    (cur + i) % n != cur) {
						next = (int32_t)((cur + i) % n);
						break;
					}
			}
			cur = (size_t)next;
			fprintf(f, " -> %s",
			        tasks__at(run, cur)->rec.lid ? tasks__at(run, cur)->rec.lid : "?");
		} while (cur != start);
		fprintf(f, "\n");
	}
	fclose(f);
	fprintf(stderr, "pvmmon: %s", text);
	fflush(stderr);
	free(p->deadlock_text);
	p->deadlock_text = text;
	free(on);
}

void preserve__evaluate(mon_run *run)
{
	struct mon_pr *p = run->pr;
	int64_t now;

	if (!p || reserve(run) < 0)
		return;
	build(run);
	p->waiting = 0;
	for (size_t i = 0; i < tasks__count(run); i++)
		if (p->t[i].req && p->ot[i].state == ORDER_BLOCKED)
			decide(run, i);
	now = pvmmon_clock_now();
	if (!all_stuck(run)) {
		p->deadlock_since = 0;
		return;
	}
	if (!p->deadlock_since)
		p->deadlock_since = now;
	else if (!p->deadlock_reported && now - p->deadlock_since >= DEADLOCK_GRACE_NS) {
		p->deadlock_reported = 1;
		report_deadlock(run);
		if (run->on_deadlock_abort)
			run->deadlocked = 1;
	}
}

void preserve__message(mon_run *run, int src, const uint8_t *data, size_t len)
{
	struct mon_pr *p = run->pr;
	mon_task *mt = tasks__find(run, src);
	wire_pwait w;
	pr_task *t;
	uint32_t k;

	if (!p || !mt || reserve(run) < 0 || wire__pwait_decode(&w, data, len) != 0) {
		run->bad_messages++;
		return;
	}
	p->msgs_in++;
	t = &p->t[mt->index];
	/* Virtual times of tasks on different hosts compare on the monitor's clock. */
	w.vt = clocks__to_monitor(run, mt, w.vt);
	if (w.deadline != INT64_MAX)
		w.deadline = clocks__to_monitor(run, mt, w.deadline);
	for (k = 0; k < w.ncand; k++) {
		w.cand[k].va = clocks__to_monitor(run, mt, w.cand[k].va);
		w.cand[k].vs = clocks__to_monitor(run, mt, w.cand[k].vs);
	}
	for (k = 0; k < w.nsent; k++)
		pair_set(p, src, w.sent[k].tid, 1, w.sent[k].n);
	for (k = 0; k < w.nseen; k++)
		pair_set(p, w.seen[k].tid, src, 0, w.seen[k].n);
	t->asked = 0;
	t->vt = w.vt;
	t->kind = w.kind;
	if (w.kind == WIRE_PW_RUNNING) {
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
		p->last_blocked = pvmmon_clock_now();
		if (w.kind == WIRE_PW_BLOCKED) {
			t->req = 0;
			t->ncand = 0;
		} else {
			if (w.req != t->req) {
				t->req = w.req;
				t->t_req = pvmmon_clock_now();
				t->msgs = 0;
			}
			t->msgs++;
			t->t_change = pvmmon_clock_now();
			free(t->cand);
			t->cand = w.cand;
			t->ncand = w.ncand;
			w.cand = NULL;
			/* A candidate's send time is no bound for its sender: what it sent to
			 * other tasks since its last report is not counted yet, and those tasks
			 * may wake earlier than the candidate (so the bound stays the report's). */
		}
	}
	wire__pwait_clear(&w);
	preserve__evaluate(run);
}

void preserve__settings(mon_run *run, void (*add)(void *, const char *, const char *), void *ctx)
{
	struct mon_pr *p = run->pr;
	char num[64];

	if (!p)
		return;
	add(ctx, "mode", "preserve");
	snprintf(num, sizeof(num), "%" PRIu64, p->decisions);
	add(ctx, "preserve-decisions", num);
	snprintf(num, sizeof(num), "%" PRIu64, p->msgs_in + p->msgs_out);
	add(ctx, "preserve-control-messages", num);
	snprintf(num, sizeof(num), "%.2f",
	         p->decisions ? (double)(p->msgs_in + p->msgs_out) / (double)p->decisions : 0.0);
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
	if (p->deadlock_text)
		add(ctx, "deadlock", p->deadlock_text);
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
	}
	free(p->t);
	free(p->pairs);
	free(p->ot);
	free(p->oc);
	free(p->extra_tid);
	order__scratch_free(&p->s);
	free(p->deadlock_text);
	free(p);
	run->pr = NULL;
}
