/*
 * Hangs (monitor/hang.h): the monitor keeps each task's latest wait report and decides
 * only what is certain. A task is stuck when it waits in a blocking receive without a
 * deadline and nothing it waits for can come: its source (every other task, for a
 * wildcard source) is stuck too or has ended, and every message that source sent it
 * has been received or sits in its queue unmatched (the sent counts in the sources'
 * frozen wait reports, or an ended task's final records, against the waiter's received
 * counts and queue). A task that polls (pvm_nrecv, pvm_probe, a short pvm_trecv) of one
 * pattern from one statement, with no other PVM call between its polls, counts as
 * waiting in a blocking receive (pvmhooks/waits.c says when it polls), and is said to
 * poll. The stuck set is the largest one that satisfies this (a fixed
 * point from the waiting tasks down), so a task that computes, a pvm_trecv with a
 * deadline and a message in flight keep everyone that depends on them out of it. A
 * wildcard wait can be stuck once no task can join (the program has ended, or, in
 * all_wait, every process of its group is a waiting task) and nothing has changed for
 * the settle time; only a sender outside the monitored tasks could then end it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/clock.h"
#include "hang.h"
#include "hang_impl.h"
#include "pgroup.h"

/* A task that ended without its final flush may have sent after its last records:
 * what it sent is on its way for at most this long after pvmd reported its exit. */
#define CRASH_GRACE_NS 500000000LL
/* A wait for anyone is judged once no wait was reported and no task ended for this long:
 * pvmd's pvm_notify message of an exit reaches it, and its WAITEND the monitor, well
 * within it on a busy 2-CPU machine (with none, apps/allwait notify: 10 of 10 said). */
#define SETTLE_NS 1000000000LL
/* How often all_wait reads a group again that holds a process that is no task. */
#define GROUP_LOOK_NS 250000000LL

static struct mon_hang *state(mon_run *run)
{
	if (!run->hang)
		run->hang = calloc(1, sizeof(*run->hang));
	return run->hang;
}

static hang_task *find(struct mon_hang *h, int32_t tid, int add)
{
	long i = tidindex__find(&h->by_tid, tid);

	if (i >= 0)
		return &h->t[i];
	if (!add)
		return NULL;
	if (h->n == h->cap) {
		size_t nc = h->cap ? h->cap * 2 : 16;
		hang_task *t = realloc(h->t, nc * sizeof(*t));

		if (!t)
			return NULL;
		h->t = t;
		h->cap = nc;
	}
	if (tidindex__put(&h->by_tid, tid, h->n) < 0)
		return NULL;
	memset(&h->t[h->n], 0, sizeof(*h->t));
	h->t[h->n].tid = tid;
	return &h->t[h->n++];
}

/* The PVM call of a wait, when the kind of wait says it (a plain receive may be a
 * pvm_trecv without a timeout, a poll pvm_nrecv or pvm_probe: their records say). */
static const char *wait_call(const wire_wait *w)
{
	return w->op == WIRE_WAIT_PRECV ? "pvm_precv" : NULL;
}

/* The statement of t's report by its source place (debug information, or the task's
 * static table), or module+offset; *placed says whether a source place was found. */
static void resolve_where(const mon_run *run, hang_task *t, int *placed)
{
	pvmmon_log_stmt s;

	memset(&s, 0, sizeof(s));
	s.module = t->w.module;
	s.offset = t->w.offset;
	s.op = wait_call(&t->w) ? strdup(wait_call(&t->w)) : NULL;
	*placed = tasks__stmt_place(run, t->tid, &s, t->where, sizeof(t->where));
	if (*placed && strrchr(t->where, '/')) /* the file's base name, as said so far */
		memmove(t->where, strrchr(t->where, '/') + 1, strlen(strrchr(t->where, '/')));
	free(s.file);
	free(s.function);
	free(s.op);
}

/* Names t's statement again when it has no source place yet and the task has flushed
 * its static table since (the table comes with the records, at the flush period). */
static void place_again(const mon_run *run, hang_task *t)
{
	const mon_task *m = t->placed || !t->waiting ? NULL : tasks__find(run, t->tid);

	if (m && m->rec.nstatics && m->rec.flushes != t->tried) {
		t->tried = m->rec.flushes;
		resolve_where(run, t, &t->placed);
	}
}

/* Takes report w (its arrays and module become the module's) as task tid's wait. */
static void take(mon_run *run, int32_t tid, wire_wait *w)
{
	struct mon_hang *h = state(run);
	hang_task *t = h ? find(h, tid, 1) : NULL;
	int same;

	if (!t) {
		wire__wait_clear(w);
		return;
	}
	/* Resolving a call site reads debug information: a wait at the statement of the
	 * task's last wait (a loop's receive, or a repeat) keeps what was found. */
	same = t->where[0] && w->offset == t->w.offset &&
	       ((!w->module && !t->w.module) ||
	        (w->module && t->w.module && !strcmp(w->module, t->w.module)));
	wire__wait_clear(&t->w);
	t->w = *w;
	memset(w, 0, sizeof(*w));
	if (!same)
		resolve_where(run, t, &t->placed);
	t->waiting = 1;
	t->got_at = pvmmon_clock_now();
	place_again(run, t);
	h->any_wait = 1;
	hang__evaluate(run);
}

void hang__wait(mon_run *run, int src, const uint8_t *data, size_t len)
{
	wire_wait w;

	if (wire__wait_decode(&w, data, len) < 0) {
		run->bad_messages++;
		return;
	}
	if (state(run))
		run->hang->reports++;
	take(run, src, &w);
}

void hang__set(mon_run *run, int32_t tid, wire_wait *w) { take(run, tid, w); }

void hang__unset(mon_run *run, int32_t tid)
{
	hang_task *t = run->hang ? find(run->hang, tid, 0) : NULL;

	if (t)
		t->waiting = 0;
}

void hang__waitend(mon_run *run, int src, const uint8_t *data, size_t len)
{
	struct mon_hang *h = state(run);
	hang_task *t = h ? find(h, src, 0) : NULL;
	wire_waitend e;

	if (wire__waitend_decode(&e, data, len) < 0) {
		run->bad_messages++;
		return;
	}
	if (h)
		h->reports++;
	if (t && t->w.seq == e.seq)
		t->waiting = 0;
}

/* A count of messages that is not known (sent_to). */
#define SENT_UNKNOWN (-1)

/* Messages task s sent to tid p: from s's wait report while it waits, from its final
 * records once it has ended; SENT_UNKNOWN when neither is there. */
static int64_t sent_to(const mon_task *s, const hang_task *hs, int32_t p)
{
	int64_t n = 0;

	if (hs && hs->waiting && !s->gone) {
		for (uint32_t i = 0; i < hs->w.npeers; i++)
			if (hs->w.peers[i].tid == p)
				return hs->w.peers[i].sent;
		return 0;
	}
	if (!s->gone)
		return SENT_UNKNOWN;
	for (size_t i = 0; i < s->rec.nstmts; i++) {
		const pvmmon_log_stmt *st = &s->rec.stmts[i];

		if (!st->op || (strcmp(st->op, "pvm_send") && strcmp(st->op, "pvm_psend") &&
		                strcmp(st->op, "pvm_mcast")))
			continue;
		for (size_t k = 0; k < st->ncom; k++)
			if (st->com[k].partner_tid == p)
				n += (int64_t)st->com[k].count;
	}
	return n;
}

/* What s sent waiter p (*sent) and what p received or holds queued of it (*got); 0
 * when unknown. */
static int pair_counts(const mon_task *s, const hang_task *hs, const hang_task *p, int64_t *sent,
                       int64_t *got_out)
{
	int64_t got = 0, listed = 0;

	*sent = sent_to(s, hs, p->tid);
	/* A wait for s counts everything queued from it (a task's report gives the count
	 * beyond its list; preserve mode's list is whole); a wildcard's list names each
	 * message's source, when it holds them all. */
	if (*sent == SENT_UNKNOWN ||
	    (p->w.src != s->rec.tid && p->w.nqueued >= WIRE_WAIT_MAX_QUEUED))
		return 0;
	for (uint32_t i = 0; i < p->w.npeers; i++)
		if (p->w.peers[i].tid == s->rec.tid)
			got = p->w.peers[i].recv;
	for (uint32_t i = 0; i < p->w.nqueued; i++)
		listed += p->w.queued[i].src == s->rec.tid;
	if (p->w.src == s->rec.tid && p->w.queued_total > listed)
		got += p->w.queued_total;
	else
		got += listed;
	*got_out = got;
	return 1;
}

/*
 * Messages from s to waiter p that PVM lost: s exited without pvm_exit (it said so,
 * after its final records, so its sends are all counted), LOST_GRACE_NS have passed
 * since pvmd reported its exit, and p still waits with fewer of them received or
 * queued than s sent. Why that is sound: s waited for the monitor's answer after its
 * last send, so whatever pvmd had read of s by then was on its way before its exit; a
 * message pvmd holds reaches p within milliseconds, and p's next slice (100 ms) takes
 * it (its wait then ends) or sees it queued (a new report). What has not come after
 * the grace, pvmd dropped with s. 0 when nothing is lost (or not yet certain).
 */
#define LOST_GRACE_NS 1000000000LL
static int64_t lost_from(const mon_task *s, int64_t sent, int64_t got, int64_t now)
{
	if (!s->noexit || !s->final || !s->gone || now - s->gone_at < LOST_GRACE_NS)
		return 0;
	return sent > got ? sent - got : 0;
}

/* Whether nothing from s to waiter p is on its way: what s sent p was received or is
 * queued at p, unmatched, or was lost with s (lost_from). */
static int quiet(const mon_task *s, const hang_task *hs, const hang_task *p, int64_t now)
{
	int64_t sent, got;

	if (!pair_counts(s, hs, p, &sent, &got))
		return 0;
	/* A task that ended without its final flush may have sent more than its last
	 * records say: what came is then at least what they say. */
	if (!s->final && s->gone)
		return sent <= got;
	return sent == got || lost_from(s, sent, got, now) > 0;
}

/* Whether task s can no longer send: it ended (long enough ago, when it crashed) or it
 * is a candidate of the stuck set. */
static int silent(const mon_task *s, const hang_task *hs, int64_t now)
{
	if (s->gone)
		return s->final || now - s->gone_at >= CRASH_GRACE_NS;
	return hs && hs->stuck;
}

/* Whether a new task may still join the run: the program still runs (or, started from
 * the console, may start more) and all_wait has not found every process of it to be a
 * waiting task, or a spawned child has neither registered nor ended. */
static int may_join(const mon_run *run)
{
	if (run->auto_mode || (!run->ended && !run->hang->closed))
		return 1;
	for (size_t i = 0; i < tasks__spawn_count(run); i++) {
		const mon_spawn *sp = tasks__spawn_at(run, i);

		if (!tasks__find(run, sp->child) && !sp->exited)
			return 1;
	}
	return 0;
}

/* Whether no task reported a wait (that goes on) or ended for the settle time. */
static int settled(const mon_run *run, struct mon_hang *h, int64_t now)
{
	int64_t settle = run->hang_settle_ns > 0 ? run->hang_settle_ns : SETTLE_NS;

	for (size_t i = 0; i < tasks__count(run); i++) {
		const mon_task *t = tasks__at(run, i);
		const hang_task *w = t->gone ? NULL : find(h, t->rec.tid, 0);

		if (t->gone ? now - t->gone_at < settle
		            : w && w->waiting && now - w->got_at < settle)
			return 0;
	}
	return 1;
}

/* Whether p's report lists a queued message its receive takes: one that came between
 * two slices of its wait, as the task looked at its queue (a 16 MiB message that
 * libpvm3 finished reading in the look itself). Its next slice takes it at once, and
 * its wait ends: p is not stuck, whatever its sources do. Not a replay's forced wait,
 * which takes one message of the source's sequence only. */
static int takes_queued(const hang_task *p)
{
	if (p->w.op == WIRE_WAIT_FORCED)
		return 0;
	for (uint32_t i = 0; i < p->w.nqueued; i++) {
		const wire_wqueued *q = &p->w.queued[i];

		if ((p->w.src == -1 || q->src == p->w.src) &&
		    (p->w.tag == -1 || q->tag == p->w.tag) && q->ctx == p->w.ctx)
			return 1;
	}
	return 0;
}

/* Whether p, a candidate, stays in the stuck set. */
static int stays(mon_run *run, struct mon_hang *h, hang_task *p, int64_t now)
{
	if (takes_queued(p))
		return 0;
	if (p->w.src != -1) {
		const mon_task *s = tasks__find(run, p->w.src);
		hang_task *hs = find(h, p->w.src, 0);

		return s && silent(s, hs, now) && quiet(s, hs, p, now);
	}
	if (may_join(run) || !settled(run, h, now))
		return 0;
	for (size_t i = 0; i < tasks__count(run); i++) {
		const mon_task *s = tasks__at(run, i);
		hang_task *hs = find(h, s->rec.tid, 0);

		if (s->rec.tid != p->tid && (!silent(s, hs, now) || !quiet(s, hs, p, now)))
			return 0;
	}
	return 1;
}

/* Marks the largest stuck set; returns its size. */
static size_t stuck_set(mon_run *run, struct mon_hang *h, int64_t now)
{
	size_t n = 0;
	int changed = 1;

	for (size_t i = 0; i < h->n; i++) {
		const mon_task *t = tasks__find(run, h->t[i].tid);

		h->t[i].stuck =
		    h->t[i].waiting &&
		    (h->t[i].w.op == WIRE_WAIT_RECV || h->t[i].w.op == WIRE_WAIT_FORCED ||
		     h->t[i].w.op == WIRE_WAIT_POLL) &&
		    t && !t->gone;
	}
	while (changed) {
		changed = 0;
		for (size_t i = 0; i < h->n; i++)
			if (h->t[i].stuck && !stays(run, h, &h->t[i], now)) {
				h->t[i].stuck = 0;
				changed = 1;
			}
	}
	for (size_t i = 0; i < h->n; i++)
		n += (size_t)h->t[i].stuck;
	return n;
}

/* The cycle through stuck task p's sources, if p is on one: said once. */
static void cycle_from(mon_run *run, struct mon_hang *h, size_t p)
{
	size_t path[64], len = 0, start, lo;
	int64_t since = 0;
	hang_task *cur = &h->t[p];
	char *key = NULL, *text = NULL, line[800];
	size_t klen, tlen;
	FILE *kf, *tf;

	while (cur && cur->stuck && cur->w.src != -1 && len < 64) {
		size_t idx = (size_t)(cur - h->t);

		for (size_t i = 0; i < len; i++)
			if (path[i] == idx)
				goto found;
		path[len++] = idx;
		cur = find(h, cur->w.src, 0);
	}
	return;
found:
	start = (size_t)(cur - h->t);
	/* The cycle is path[i..len) from where cur is; start it at its lowest tid. */
	for (lo = 0; path[lo] != start; lo++)
		;
	start = lo;
	for (size_t i = start; i < len; i++)
		if (h->t[path[i]].tid < h->t[path[lo]].tid)
			lo = i;
	kf = open_memstream(&key, &klen);
	tf = open_memstream(&text, &tlen);
	if (!kf || !tf) {
		if (kf)
			fclose(kf);
		if (tf)
			fclose(tf);
		free(key);
		free(text);
		return;
	}
	fprintf(kf, "cycle:");
	for (size_t i = 0; i < len - start; i++) {
		const hang_task *t = &h->t[path[start + (lo - start + i) % (len - start)]];

		if (t->w.rt_start > since)
			since = t->w.rt_start;
		hang__key_add(kf, t);
		hang__describe(run, t, line, sizeof(line));
		fprintf(tf, "%s%s", i ? "; " : "", line);
	}
	fclose(kf);
	fclose(tf);
	if (!hang__said(h, key))
		hang__say(run, h, "deadlock", "deadlock", text, since);
	free(key);
	free(text);
}

/* "; 1 message it sent (its last send at f.c:23) never came: probably lost because
 * its sender exited without pvm_exit" when lost_from() finds s's messages to p lost,
 * into buf; the length written (0: none lost). */
static size_t lost_words(const mon_run *run, const mon_task *s, const hang_task *hs,
                         const hang_task *p, char *buf, size_t size)
{
	int64_t sent, got, lost;
	char place[600] = "";
	pvmmon_log_stmt st, *last;
	int w;

	if (!pair_counts(s, hs, p, &sent, &got) ||
	    !(lost = lost_from(s, sent, got, pvmmon_clock_now())))
		return 0;
	last = s->rec.last_stmt && s->rec.last_stmt <= s->rec.nstmts
	           ? &s->rec.stmts[s->rec.last_stmt - 1]
	           : NULL;
	if (last) {
		/* A copy: the place is found as for the waits (file base name). */
		memset(&st, 0, sizeof(st));
		st.module = last->module;
		st.offset = last->offset;
		st.op = last->op ? strdup(last->op) : NULL;
		if (tasks__stmt_place(run, s->rec.tid, &st, place, sizeof(place)) && strrchr(place, '/'))
			memmove(place, strrchr(place, '/') + 1, strlen(strrchr(place, '/')));
		free(st.file);
		free(st.function);
		free(st.op);
	}
	w = snprintf(buf, size, "; %" PRId64 " message%s it sent %s%s%snever came: probably lost "
	             "because its sender exited without pvm_exit",
	             lost, lost == 1 ? "" : "s", place[0] ? "(its last send at " : "", place,
	             place[0] ? ") " : "");
	return w < 0 ? 0 : (size_t)w >= size ? size - 1 : (size_t)w;
}

/* A stuck task whose source has ended, or that has the source's messages queued with
 * another tag or context. */
static void about_source(mon_run *run, struct mon_hang *h, const hang_task *p)
{
	const mon_task *s = tasks__find(run, p->w.src);
	const hang_task *hs = find(h, p->w.src, 0);
	char key[64], line[800], text[2000], how[128];
	size_t n;

	hang__describe(run, p, line, sizeof(line));
	if (s && s->gone) {
		/* A signal the task reported (FATAL) says how it ended, flush or not. */
		hang__ended_how(s, how, sizeof(how));
		snprintf(key, sizeof(key), "ended:%x:%u", (unsigned)p->tid, p->w.seq);
		n = (size_t)snprintf(text, sizeof(text), "%s, which has ended (%s)", line, how);
		if (n < sizeof(text))
			n += lost_words(run, s, hs, p, text + n, sizeof(text) - n);
		if (hs && hs->where[0] && n < sizeof(text))
			snprintf(text + n, sizeof(text) - n, "; its last wait was at %s",
			         hs->where);
		if (!hang__said(h, key))
			hang__say(run, h, "ended", "wait for an ended task", text, p->w.rt_start);
	}
	for (uint32_t i = 0; i < p->w.nqueued; i++) {
		const wire_wqueued *q = &p->w.queued[i];

		if (q->src != p->w.src)
			continue;
		snprintf(key, sizeof(key), "mismatch:%x:%u", (unsigned)p->tid, p->w.seq);
		snprintf(text, sizeof(text),
		         "%s; a message from %s with tag %d%s waits unreceived in its queue", line,
		         hang__lid_of(run, q->src), (int)q->tag,
		         q->ctx != p->w.ctx ? " in another context" : "");
		if (!hang__said(h, key))
			hang__say(run, h, "mismatch", "tag mismatch", text, p->w.rt_start);
		break;
	}
}

/* Every task that has not ended is stuck and none can join: said once. */
static void quiescent(mon_run *run, struct mon_hang *h, size_t nstuck)
{
	size_t alive = 0;
	char *key;

	for (size_t i = 0; i < tasks__count(run); i++)
		alive += !tasks__at(run, i)->gone;
	if (alive != nstuck || may_join(run))
		return;
	key = hang__all_key(h);
	if (key && !hang__said(h, key))
		hang__say_all(run, h);
	free(key);
}

/* A running program whose every task waits, one for anyone: its stuck set is judged
 * as after the program's end once every process of its group is one of those tasks (no
 * script can start another), and a whole one is said once. */
static void all_wait(mon_run *run, struct mon_hang *h, int64_t now)
{
	size_t alive = 0, n;
	int anyone = 0;
	char *key;

	if (run->auto_mode || run->ended || run->group <= 0)
		return;
	/* What costs little first; the group is read last, just before it is said. */
	for (size_t i = 0; i < tasks__count(run); i++) {
		const mon_task *t = tasks__at(run, i);
		const hang_task *w = t->gone ? NULL : find(h, t->rec.tid, 0);

		if (!t->gone && (!w || !w->waiting))
			return;
		alive += !t->gone;
		anyone |= w && w->w.src == -1;
	}
	if (!alive || !anyone || !settled(run, h, now))
		return;
	h->closed = 1;
	n = stuck_set(run, h, now);
	h->closed = 0;
	if (n != alive || !(key = hang__all_key(h)))
		return;
	if (!hang__known(h, key) && (h->others == 0 || now - h->looked_at >= GROUP_LOOK_NS)) {
		h->looked_at = now;
		h->others = pgroup__others(run);
		if (h->others == 0 && !hang__said(h, key))
			hang__say_all(run, h);
	}
	free(key);
}

/*
 * A replay's forced wait p that is stuck: its recorded message can never come. The task
 * is told (CANNOT_COME, naming its wait), with what the sender does in words, and
 * reports the divergence itself (it knows the event and what was expected). Once per
 * wait.
 */
static void tell_cannot_come(mon_run *run, struct mon_hang *h, const hang_task *p)
{
	const mon_task *s = tasks__find(run, p->w.src);
	const hang_task *hs = find(h, p->w.src, 0);
	char key[64], text[1500], line[800];
	size_t n = 0;
	wire_buf b;

	if (!s)
		return;
	if (s->gone) {
		char how[128];

		n = (size_t)snprintf(text, sizeof(text),
		                     "task %s has ended (%s) and nothing it sent is on its way",
		                     hang__lid_of(run, s->rec.tid), hang__ended_how(s, how, sizeof(how)));
	} else if (hs && hs->waiting) {
		hang__describe(run, hs, line, sizeof(line));
		n = (size_t)snprintf(text, sizeof(text), "%s, and nothing it waits for can come",
		                     line);
	} else {
		return;
	}
	for (uint32_t i = 0; i < p->w.nqueued && n < sizeof(text); i++)
		if (p->w.queued[i].src == p->w.src) {
			n += (size_t)snprintf(text + n, sizeof(text) - n,
			                      "; a message from it with tag %d%s is queued here, "
			                      "unreceived",
			                      (int)p->w.queued[i].tag,
			                      p->w.queued[i].ctx != p->w.ctx ? " in another context"
			                                                     : "");
			break;
		}
	snprintf(key, sizeof(key), "forced:%x:%u", (unsigned)p->tid, p->w.seq);
	if (hang__said(h, key))
		return;
	h->verdicts++;
	wire__buf_init(&b);
	wire__ctl_encode(&b, &(wire_ctl){WIRE_CTL_CANNOT_COME, p->w.seq, 0, text, 0});
	tasks__send(run, p->tid, WIRE_TAG_CTL, &b);
	wire__buf_free(&b);
}

void hang__evaluate(mon_run *run)
{
	struct mon_hang *h = run->hang;
	int64_t now = pvmmon_clock_now();
	size_t nstuck;

	/* Once the run is being stopped (an interrupt, or --on-hang=abort), tasks end by
	 * pvmmon's SIGTERM: a wait for one of them says nothing of the program. */
	if (!h || !h->any_wait || run->t_stopped || run->deadlocked)
		return;
	nstuck = stuck_set(run, h, now);
	if (!nstuck) {
		all_wait(run, h, now);
		return;
	}
	/* The replay's verdicts first: a hang that involves them ends as a divergence. */
	for (size_t i = 0; i < h->n; i++)
		if (h->t[i].stuck)
			place_again(run, &h->t[i]);
	for (size_t i = 0; i < h->n; i++)
		if (h->t[i].stuck && h->t[i].w.op == WIRE_WAIT_FORCED)
			tell_cannot_come(run, h, &h->t[i]);
	for (size_t i = 0; i < h->n; i++) {
		if (!h->t[i].stuck || h->t[i].w.src == -1)
			continue;
		cycle_from(run, h, i);
		about_source(run, h, &h->t[i]);
	}
	quiescent(run, h, nstuck);
	all_wait(run, h, now);
}

const char *hang__waiting(mon_run *run, int32_t tid)
{
	hang_task *t = run->hang ? find(run->hang, tid, 0) : NULL;
	char tag[32], ctx[48];

	if (!t || !t->waiting)
		return NULL;
	place_again(run, t);
	if (t->w.tag == -1)
		snprintf(tag, sizeof(tag), "any tag");
	else
		snprintf(tag, sizeof(tag), "tag %d", (int)t->w.tag);
	snprintf(t->status, sizeof(t->status), "at %s for %s from %s%s%s", t->where, tag,
	         t->w.src == -1 ? "any task" : hang__lid_of(run, t->w.src),
	         hang__ctx_words(ctx, sizeof(ctx), t->w.ctx),
	         t->w.op == WIRE_WAIT_TRECV  ? " (with a timeout)"
	         : t->w.op == WIRE_WAIT_POLL ? " (polling)"
	                                     : "");
	return t->status;
}

uint64_t hang__reports(const mon_run *run) { return run->hang ? run->hang->reports : 0; }

size_t hang__count(const mon_run *run) { return run->hang ? run->hang->ndiag : 0; }

const char *hang__kind(const mon_run *run, size_t i) { return run->hang->kinds[i]; }

const char *hang__text(const mon_run *run, size_t i) { return run->hang->texts[i]; }

int64_t hang__delay(const mon_run *run, size_t i) { return run->hang->delays[i]; }

void hang__free(mon_run *run)
{
	struct mon_hang *h = run->hang;

	if (!h)
		return;
	for (size_t i = 0; i < h->n; i++)
		wire__wait_clear(&h->t[i].w);
	for (size_t i = 0; i < h->nkeys; i++)
		free(h->keys[i]);
	for (size_t i = 0; i < h->ndiag; i++) {
		free(h->kinds[i]);
		free(h->texts[i]);
	}
	free(h->t);
	tidindex__free(&h->by_tid);
	free(h->keys);
	free(h->kinds);
	free(h->texts);
	free(h->delays);
	free(h);
	run->hang = NULL;
}
