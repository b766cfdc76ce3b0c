/*
 * Preserve mode's stash in a task (pvmhooks/preserve_impl.h): the piggybacks taken off
 * the private context ahead of their messages, the message counts per partner that
 * the reports carry, and the program's own matcher run over the queue.
 */
#include <stdlib.h>
#include <string.h>

#include <pvm3.h>

#include "clocksync.h"
#include "hooks.h"
#include "preserve_impl.h"
#include "prlocal.h"
#include "prstash.h"
#include "pvmmon/errors.h"
#include "reach.h"

hooks_pr_stash hooks__prs;

/*
 * Receives under a matcher the program installed with pvm_recvf(): which queued
 * messages it accepts, in queue order, is found by running it over the queue through
 * a spy that records what it accepts and accepts nothing itself.
 */
static struct {
	hooks_matcher user_matcher;
	int spy_ctx;
} spy_st;

static int spy(int mid, int tid, int tag)
{
	struct pvmminfo mi;

	if (pvm_getminfo(mid, &mi) < 0 || mi.ctx != spy_st.spy_ctx ||
	    !spy_st.user_matcher(mid, tid, tag))
		return 0;
	if (hooks__prs.nhits == hooks__prs.cap_hits) {
		size_t nc = hooks__prs.cap_hits ? hooks__prs.cap_hits * 2 : 32;
		spy_hit *h = realloc(hooks__prs.hits, nc * sizeof(*h));

		if (!h)
			return 0;
		hooks__prs.hits = h;
		hooks__prs.cap_hits = nc;
	}
	hooks__prs.hits[hooks__prs.nhits].src = mi.src;
	hooks__prs.hits[hooks__prs.nhits++].tag = mi.tag;
	return 0;
}

void hooks__pr_spy_queue(void)
{
	int rb = pvm_setrbuf(0);

	hooks__prs.nhits = 0;
	spy_st.user_matcher = (hooks_matcher)(void *)pvm_recvf(spy);
	spy_st.spy_ctx = pvm_getcontext();
	/* Nothing matches, so this takes nothing: it only walks the queue. */
	hooks__pvm.nrecv(hooks__prs.usrc, hooks__prs.utag);
	pvm_recvf(spy_st.user_matcher);
	pvm_setrbuf(rb);
}

/* Puts tid on the list (once): 1 when it was not there, 0 when it was, PVMMON_ENOMEM
 * when it could not be added. */
static int mark(int32_t **list, size_t *n, size_t *cap, int32_t tid)
{
	for (size_t i = 0; i < *n; i++)
		if ((*list)[i] == tid)
			return 0;
	if (*n == *cap) {
		size_t nc = *cap ? *cap * 2 : 16;
		int32_t *l = realloc(*list, nc * sizeof(*l));

		if (!l)
			return PVMMON_ENOMEM;
		*list = l;
		*cap = nc;
	}
	(*list)[(*n)++] = tid;
	return 1;
}

int hooks__pr_sent(int tid, int64_t vs)
{
	int64_t *n = tidmap__get(&hooks__prs.sent_to, tid, 0);
	int first = mark(&hooks__prs.dirty_sent, &hooks__prs.ndirty_sent,
	                 &hooks__prs.cap_dirty_sent, tid);

	if (n)
		++*n;
	hooks__reach_sending(tid);
	/* The first send to tid since the last report: when its message left (the
	 * monitor's bound on the first one tid has not seen, wire_pcount.vs). */
	if (first > 0) {
		if (hooks__prs.cap_dirty_vs < hooks__prs.cap_dirty_sent) {
			int64_t *v = realloc(hooks__prs.dirty_vs,
			                     hooks__prs.cap_dirty_sent * sizeof(*v));

			if (v) {
				hooks__prs.dirty_vs = v;
				hooks__prs.cap_dirty_vs = hooks__prs.cap_dirty_sent;
			}
		}
		if (hooks__prs.ndirty_sent <= hooks__prs.cap_dirty_vs)
			hooks__prs.dirty_vs[hooks__prs.ndirty_sent - 1] = vs;
	}
	return hooks__prl_sent(tid, vs);
}

void hooks__pr_piggyback(int src, const wire_piggyback *pb) { hooks__prl_piggyback(src, pb); }

static uint32_t count_of(tidmap *m, int32_t tid)
{
	int64_t *n = tidmap__find(m, tid);

	return n ? (uint32_t)*n : 0;
}

uint32_t hooks__pr_seen_from(int32_t tid) { return count_of(&hooks__prs.seen, tid); }

uint32_t hooks__pr_sent_to_count(int32_t tid) { return count_of(&hooks__prs.sent_to, tid); }

/* Whether this task has sent to and seen from no monitored task but tid. */
int hooks__pr_alone_with(int32_t tid)
{
	tidmap *m[2] = {&hooks__prs.sent_to, &hooks__prs.seen};

	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < m[k]->cap; i++)
			if (m[k]->slots[i].tid && m[k]->slots[i].tid != tid && m[k]->slots[i].value)
				return 0;
	return 1;
}

void hooks__pr_seen(int src, int64_t next)
{
	int64_t *s = tidmap__get(&hooks__prs.seen, src, 0);

	if (s && next > *s) {
		*s = next;
		(void)mark(&hooks__prs.dirty_seen, &hooks__prs.ndirty_seen, &hooks__prs.cap_dirty_seen,
		     src);
	}
}

int hooks__pr_matches(const stash_entry *e, int src, int tag)
{
	return (src == -1 || e->src == src) && (tag == -1 || e->tag == tag);
}

const stash_entry *hooks__pr_first_of(int32_t src, int32_t tag)
{
	for (size_t i = 0; i < hooks__prs.nstash; i++)
		if (hooks__prs.stash[i].src == src && hooks__prs.stash[i].tag == tag)
			return &hooks__prs.stash[i];
	return NULL;
}

/* The first stashed message matching the patterns (or the program's matcher): what a
 * plain receive would take among the monitored messages queued (piggybacks arrive in
 * their messages' order). */
const stash_entry *hooks__pr_first_match(int src, int tag)
{
	if (hooks__prs.spy) {
		hooks__pr_spy_queue();
		for (size_t i = 0; i < hooks__prs.nhits; i++) {
			const stash_entry *e =
			    hooks__pr_first_of(hooks__prs.hits[i].src, hooks__prs.hits[i].tag);

			if (e)
				return e;
		}
		return NULL;
	}
	for (size_t i = 0; i < hooks__prs.nstash; i++)
		if (hooks__pr_matches(&hooks__prs.stash[i], src, tag))
			return &hooks__prs.stash[i];
	return NULL;
}

/* Stashes the piggyback d (len bytes, heap: the stash takes it) from src with tag. */
void hooks__pr_stash_add(int src, int tag, uint8_t *d, size_t len)
{
	wire_piggyback pb;
	stash_entry *e;

	if (len == 0) {
		free(d);
		return;
	}
	if (hooks__prs.nstash == hooks__prs.cap_stash) {
		size_t nc = hooks__prs.cap_stash ? hooks__prs.cap_stash * 2 : 32;
		stash_entry *n = realloc(hooks__prs.stash, nc * sizeof(*n));

		if (!n) {
			free(d);
			return;
		}
		hooks__prs.stash = n;
		hooks__prs.cap_stash = nc;
	}
	if (wire__piggyback_decode(&pb, d, len, hooks__mytid()) != 0 || pb.my_seq < 0 ||
	    pb.token != hooks__token()) {
		/* Damaged: the receive that pairs it will count it. */
		hooks__count_bad();
		free(d);
		return;
	}
	e = &hooks__prs.stash[hooks__prs.nstash++];
	e->src = src;
	e->tag = tag;
	e->seq = (uint32_t)pb.my_seq;
	e->vs = hooks__from_common(pb.vt_send);
	e->bytes = pb.bytes;
	e->data = d;
	e->len = len;
	e->arrived = pvmmon_clock_now();
	hooks__prs.stash_serial++;
	hooks__prl_premise(src, e->vs + vclock__trans_estimate(hooks__clock(), e->bytes));
	hooks__pr_seen(src, pb.my_seq + 1);
	hooks__pr_piggyback(src, &pb);
}

int hooks__pr_take(uint8_t **data, size_t *len, int64_t *arrived, int src, int tag)
{
	for (size_t i = 0; i < hooks__prs.nstash; i++) {
		if (hooks__prs.stash[i].src != src || hooks__prs.stash[i].tag != tag)
			continue;
		*data = hooks__prs.stash[i].data;
		*len = hooks__prs.stash[i].len;
		*arrived = hooks__prs.stash[i].arrived;
		memmove(&hooks__prs.stash[i], &hooks__prs.stash[i + 1],
		        (hooks__prs.nstash - i - 1) * sizeof(*hooks__prs.stash));
		hooks__prs.nstash--;
		return 1;
	}
	return 0;
}

uint32_t hooks__pr_cands(wire_pcand *cand, int32_t src, int32_t tag)
{
	uint32_t n = 0;

	if (hooks__prs.spy)
		hooks__pr_spy_queue();
	for (size_t i = 0; i < (hooks__prs.spy ? hooks__prs.nhits : hooks__prs.nstash); i++) {
		const stash_entry *e =
		    hooks__prs.spy ? hooks__pr_first_of(hooks__prs.hits[i].src, hooks__prs.hits[i].tag)
		                   : &hooks__prs.stash[i];
		uint32_t k;

		if (!e || (!hooks__prs.spy && !hooks__pr_matches(e, src, tag)))
			continue;
		for (k = 0; k < n && cand[k].src != e->src; k++)
			;
		if (k < n)
			continue;
		cand[n].src = e->src;
		cand[n].tag = e->tag;
		cand[n].va = e->vs + vclock__trans_estimate(hooks__clock(), e->bytes);
		cand[n].vs = e->vs;
		cand[n++].seq = e->seq;
	}
	return n;
}
