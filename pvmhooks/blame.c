/*
 * The online wait analysis (blame.h): each late-sender wait charged, without a trace, to
 * the computations that made the sender late, as Böhme et al.'s delay analysis does
 * from a trace, by segment (the computation before a statement).
 *
 * A task keeps its recent pieces in a ring: each call's preceding computation (the
 * segment before the call's statement) and the waiting the call suffered, with that
 * waiting's root causes. For each partner it remembers where in the ring their last
 * message fell (sent or taken). A send carries the sender's pieces since its last
 * message with the receiver, summed by segment and by root cause, the largest few
 * (wire_pbblame). A receiver that waited compares them with its own pieces since the same
 * message: a segment of the sender's that is longer than the receiver's at the same
 * place in the same program is excess that delayed the message (short-term cost, a
 * direct cause); waiting of the sender's own is excess too, and passes the wait on to
 * its root causes (long-term cost; the wait is indirect when that is most of the
 * excess). The wait is shared among the excesses in proportion.
 *
 * Bounds, each an approximation the report owns up to: the ring holds RING pieces (a
 * partner last met longer ago is compared over them only), a summary carries
 * WIRE_PB_BLAME_MAX entries, a wait keeps its SHARES largest root causes (scaled to
 * the whole wait), and a task its MAX_CAUSES causes (more fall to the last one).
 */
#include <stdlib.h>
#include <string.h>

#include "blame.h"
#include "pvmmon/errors.h"
#include "records.h"
#include "vclock.h"

#define RING 64
#define SHARES 4
#define MARKS 512 /* a power of two */
#define AGG 16    /* distinct segments and causes a summary sums */
#define MAX_CAUSES 4096
#define NO_STMT UINT32_MAX

typedef struct share {
	int32_t tid;
	uint32_t stmt;
	int64_t ns;
} share;

typedef struct piece {
	uint32_t stmt, site;
	int64_t comp;
	uint8_t nsh;
	share sh[SHARES];
} piece;

typedef struct seg {
	uint32_t stmt, site;
	int64_t ns;
} seg;

struct blame_state {
	int32_t tid;
	uint32_t prog;
	piece ring[RING];
	uint64_t count; /* pieces ever pushed: the next one's number */
	int64_t last_v; /* the previous call's end */
	/* The current call's waiting and its root causes, until the call ends. */
	int64_t cur_wait;
	uint8_t cur_nsh;
	share cur_sh[SHARES];
	/* partner tid -> the number of the first piece after their last message (tid 0:
	 * an empty slot); a full table leaves new partners unmarked. */
	struct {
		int32_t tid;
		uint64_t at;
	} marks[MARKS];
	size_t nmarks;
	blame_cause *causes;
	size_t ncauses, capcauses;
};

int blame__new(blame_state **out, int32_t tid, uint32_t prog)
{
	blame_state *b = calloc(1, sizeof(*b));

	*out = NULL;
	if (!b)
		return pvmmon_error_set(PVMMON_ENOMEM, "out of memory");
	b->tid = tid;
	b->prog = prog;
	*out = b;
	return 0;
}

void blame__free(blame_state *b)
{
	if (!b)
		return;
	free(b->causes);
	free(b);
}

static size_t slot_of(int32_t tid) { return ((uint32_t)tid * 2654435761u) & (MARKS - 1); }

/* The first piece after the last message with tid (0: none yet), no older than the
 * ring holds. */
static uint64_t mark_get(const blame_state *b, int32_t tid)
{
	uint64_t at = 0;

	for (size_t i = slot_of(tid), k = 0; k < MARKS; i = (i + 1) & (MARKS - 1), k++) {
		if (b->marks[i].tid == tid) {
			at = b->marks[i].at;
			break;
		}
		if (b->marks[i].tid == 0)
			break;
	}
	return b->count - at > RING ? b->count - RING : at;
}

static void mark_set(blame_state *b, int32_t tid, uint64_t at)
{
	for (size_t i = slot_of(tid), k = 0; k < MARKS; i = (i + 1) & (MARKS - 1), k++) {
		if (b->marks[i].tid == tid) {
			b->marks[i].at = at;
			return;
		}
		if (b->marks[i].tid == 0) {
			if (b->nmarks >= MARKS * 3 / 4)
				return;
			b->marks[i].tid = tid;
			b->marks[i].at = at;
			b->nmarks++;
			return;
		}
	}
}

/* Adds ns for (tid, stmt) to v (*n of cap); when full, the new one takes the smallest's
 * place if it is larger. */
static void share_add(share *v, uint8_t *n, size_t cap, int32_t tid, uint32_t stmt, int64_t ns)
{
	size_t min = 0;

	for (size_t i = 0; i < *n; i++) {
		if (v[i].tid == tid && v[i].stmt == stmt) {
			v[i].ns += ns;
			return;
		}
		if (v[i].ns < v[min].ns)
			min = i;
	}
	if (*n < cap)
		v[(*n)++] = (share){tid, stmt, ns};
	else if (v[min].ns < ns)
		v[min] = (share){tid, stmt, ns};
}

static void seg_add(seg *v, size_t *n, uint32_t stmt, uint32_t site, int64_t ns)
{
	size_t min = 0;

	for (size_t i = 0; i < *n; i++) {
		if (v[i].stmt == stmt) {
			v[i].ns += ns;
			return;
		}
		if (v[i].ns < v[min].ns)
			min = i;
	}
	if (*n < AGG)
		v[(*n)++] = (seg){stmt, site, ns};
	else if (v[min].ns < ns)
		v[min] = (seg){stmt, site, ns};
}

void blame__call(blame_state *b, uint32_t stmt, uint32_t site, int64_t v0, int64_t v)
{
	piece *p = &b->ring[b->count % RING];
	int64_t kept = 0;

	p->stmt = stmt;
	p->site = site;
	p->comp = v0 > b->last_v ? v0 - b->last_v : 0;
	p->nsh = b->cur_nsh;
	for (uint8_t i = 0; i < b->cur_nsh; i++)
		kept += b->cur_sh[i].ns;
	/* The causes kept stand for the whole wait. */
	for (uint8_t i = 0; i < b->cur_nsh; i++) {
		p->sh[i] = b->cur_sh[i];
		if (kept > 0 && kept < b->cur_wait)
			p->sh[i].ns =
			    (int64_t)((double)p->sh[i].ns * (double)b->cur_wait / (double)kept);
	}
	b->count++;
	if (v > b->last_v)
		b->last_v = v;
	b->cur_wait = 0;
	b->cur_nsh = 0;
}

/* Writes the largest of v[n] (by ns) to the summary, at most max of them, skipping
 * index skip. */
static void put_largest_segs(wire_piggyback *pb, int32_t tid, seg *v, size_t n, size_t skip,
                             size_t max)
{
	for (size_t k = 0; k < max && pb->nblame < WIRE_PB_BLAME_MAX; k++) {
		size_t best = n;

		for (size_t i = 0; i < n; i++)
			if (i != skip && v[i].ns > 0 && (best == n || v[i].ns > v[best].ns))
				best = i;
		if (best == n)
			return;
		pb->blame[pb->nblame++] =
		    (wire_pbblame){0, tid, v[best].stmt, v[best].site, v[best].ns};
		v[best].ns = 0;
	}
}

void blame__sign(blame_state *b, uint32_t stmt, uint32_t site, int64_t v0, const int *tids, int n,
                 wire_piggyback *pb)
{
	seg segs[AGG];
	share inh[AGG];
	size_t nseg = 0;
	uint8_t ninh = 0;
	uint64_t from = b->count;

	for (int i = 0; i < n; i++) {
		uint64_t m = mark_get(b, tids[i]);

		if (m < from)
			from = m;
	}
	/* The send's own segment first: with no excess elsewhere, it is the one named. */
	segs[nseg++] = (seg){stmt, site, v0 > b->last_v ? v0 - b->last_v : 0};
	for (uint64_t k = from; k < b->count; k++) {
		const piece *p = &b->ring[k % RING];

		seg_add(segs, &nseg, p->stmt, p->site, p->comp);
		for (uint8_t j = 0; j < p->nsh; j++)
			share_add(inh, &ninh, AGG, p->sh[j].tid, p->sh[j].stmt, p->sh[j].ns);
	}
	pb->blame_prog = b->prog;
	pb->nblame = 0;
	pb->blame[pb->nblame++] = (wire_pbblame){0, b->tid, segs[0].stmt, segs[0].site, segs[0].ns};
	put_largest_segs(pb, b->tid, segs, nseg, 0, 2);
	for (size_t k = 0; k < AGG && pb->nblame < WIRE_PB_BLAME_MAX; k++) {
		size_t best = ninh;

		for (size_t i = 0; i < ninh; i++)
			if (inh[i].ns > 0 && (best == ninh || inh[i].ns > inh[best].ns))
				best = i;
		if (best == ninh)
			break;
		pb->blame[pb->nblame++] =
		    (wire_pbblame){1, inh[best].tid, inh[best].stmt, NO_STMT, inh[best].ns};
		inh[best].ns = 0;
	}
	/* This call's own piece is number count: the next interval starts after it. */
	for (int i = 0; i < n; i++)
		mark_set(b, tids[i], b->count + 1);
}

/* The cause (tid, stmt), made on first use; the last one when the table is full. */
static blame_cause *cause_of(blame_state *b, int32_t tid, uint32_t stmt)
{
	for (size_t i = b->ncauses; i > 0; i--)
		if (b->causes[i - 1].tid == tid && b->causes[i - 1].stmt == stmt)
			return &b->causes[i - 1];
	if (b->ncauses == b->capcauses) {
		size_t cap = b->capcauses ? 2 * b->capcauses : 16;
		blame_cause *c;

		if (b->ncauses >= MAX_CAUSES || !(c = realloc(b->causes, cap * sizeof(*c))))
			return b->ncauses ? &b->causes[b->ncauses - 1] : NULL;
		b->causes = c;
		b->capcauses = cap;
	}
	b->causes[b->ncauses] = (blame_cause){tid, stmt, 0, 0, 0};
	return &b->causes[b->ncauses++];
}

static void charge(blame_state *b, int32_t tid, uint32_t stmt, int64_t ns, int direct)
{
	blame_cause *c = cause_of(b, tid, stmt);

	if (c) {
		if (direct)
			c->short_ns += ns;
		else
			c->long_ns += ns;
		c->waits++;
	}
	share_add(b->cur_sh, &b->cur_nsh, SHARES, tid, stmt, ns);
}

/* The receiver's own computation at site since piece from, its current segment (stmt
 * at site, since the last call's end up to v0) included. */
static int64_t own_time(const blame_state *b, uint64_t from, uint32_t site, uint32_t my_site,
                        int64_t v0)
{
	int64_t ns = 0;

	if (site == NO_STMT)
		return 0;
	for (uint64_t k = from; k < b->count; k++)
		if (b->ring[k % RING].site == site)
			ns += b->ring[k % RING].comp;
	if (my_site == site && v0 > b->last_v)
		ns += v0 - b->last_v;
	return ns;
}

int64_t blame__receive(blame_state *b, int32_t src, uint32_t site, int64_t v0, int64_t sync,
                       const wire_piggyback *pb, int *indirect)
{
	uint64_t from = mark_get(b, src);
	int64_t ex[WIRE_PB_BLAME_MAX], total = 0, waited = 0, passed = 0, given = 0, left;
	int same;

	*indirect = 0;
	mark_set(b, src, b->count + 1);
	if (sync <= 0)
		return 0;
	b->cur_wait += sync;
	if (!pb || !pb->nblame) {
		/* A sender that said nothing of its time: its computation, unknown where. */
		charge(b, src, NO_STMT, sync, 1);
		return 0;
	}
	same = pb->blame_prog == b->prog;
	for (uint8_t i = 0; i < pb->nblame; i++) {
		const wire_pbblame *e = &pb->blame[i];
		int64_t x = e->ns;

		if (!e->inherited && same)
			x -= own_time(b, from, e->site, site, v0);
		ex[i] = x > 0 ? x : 0;
		total += ex[i];
		if (e->inherited)
			waited += ex[i];
	}
	if (total == 0) {
		/* No excess: the message itself was slow; the send's segment is named. */
		charge(b, pb->sender_tid, pb->blame[0].stmt, sync, 1);
		return 0;
	}
	left = total;
	for (uint8_t i = 0; i < pb->nblame; i++) {
		const wire_pbblame *e = &pb->blame[i];
		int64_t part;

		if (!ex[i])
			continue;
		/* The last share (its excess is all that is left) takes the rounding's
		 * remainder, so that the parts add up to the wait. */
		part = ex[i] == left ? sync - given
		                     : (int64_t)((double)sync * (double)ex[i] / (double)total);
		left -= ex[i];
		given += part;
		if (e->inherited) {
			passed += part;
			charge(b, e->tid, e->stmt, part, 0);
		} else {
			charge(b, pb->sender_tid, e->stmt, part, 1);
		}
	}
	*indirect = 2 * waited > total;
	return passed;
}

size_t blame__causes(const blame_state *b, const blame_cause **out)
{
	*out = b ? b->causes : NULL;
	return b ? b->ncauses : 0;
}

/* The task's own analysis: one per process, as the hooks are; NULL until registration
 * or when PVMMON_BLAME=0. The last statements looked up are cached by call site (a
 * lookup of the records' index and a hash of the module's name cost more than the
 * rest of a call's work here). */
#define SITE_CACHE 64 /* a power of two */
static struct {
	blame_state *st;
	struct {
		const void *site;
		uint32_t stmt, key;
	} cache[SITE_CACHE];
} hb;

void hooks__blame_start(int32_t tid, const char *program)
{
	const char *e = getenv("PVMMON_BLAME");

	blame__free(hb.st);
	hb.st = NULL;
	/* A task that enrols again has its statements numbered anew. */
	memset(hb.cache, 0, sizeof(hb.cache));
	if (e && !strcmp(e, "0"))
		return;
	if (blame__new(&hb.st, tid, hooks__str_hash(program)) < 0)
		hb.st = NULL;
}

/* The call's statement id and its site key (the module's name hashed with the offset,
 * the same in every task of one program); 0, or -1 when it has none. make: make its
 * record if it has none yet (a site's first send signs before the send's record is
 * made); a call end only looks (calls the records keep no statement of, pvm_mytid,
 * stay without one, and their time joins the next call's segment). */
static int stmt_of(const hooks_call *call, int make, uint32_t *stmt, uint32_t *site)
{
	size_t i = ((uintptr_t)call->site >> 2) & (SITE_CACHE - 1);
	const pvmmon_log_stmt *st;
	const pvmmon_log_task *rec;

	if (__builtin_expect(hb.cache[i].site == call->site && call->site, 1)) {
		*stmt = hb.cache[i].stmt;
		*site = hb.cache[i].key;
		return 0;
	}
	if (!make && hooks__records_stmt_id(call->site) < 0)
		return -1;
	if (!(st = hooks__stmt(call->site, call->op)))
		return -1;
	rec = hooks__records_task();
	*stmt = st->id;
	*site = st->id < rec->nstmts ? (hooks__str_hash(rec->stmts[st->id].module) ^
	                                (uint32_t)rec->stmts[st->id].offset) &
	                                   0xfffffffeu
	                             : NO_STMT;
	hb.cache[i].site = call->site;
	hb.cache[i].stmt = *stmt;
	hb.cache[i].key = *site;
	return 0;
}

void hooks__blame_call_end(hooks_call *call, int64_t now)
{
	uint32_t stmt, site;

	if (!hb.st || call->inner || stmt_of(call, 0, &stmt, &site) < 0)
		return;
	blame__call(hb.st, stmt, site, call->v0, vclock__virtual(hooks__clock(), now));
}

void hooks__blame_sign(hooks_call *call, const int *tids, int n, wire_piggyback *pb)
{
	uint32_t stmt, site;

	pb->nblame = 0;
	if (!hb.st || stmt_of(call, 1, &stmt, &site) < 0)
		return;
	blame__sign(hb.st, stmt, site, call->v0, tids, n, pb);
}

void hooks__blame_receive(hooks_call *call, pvmmon_log_stmt *st, int src, int64_t sync,
                          const wire_piggyback *pb)
{
	uint32_t stmt, site;
	int indirect = 0;
	int64_t passed;

	if (!hb.st || stmt_of(call, 1, &stmt, &site) < 0)
		return;
	passed = blame__receive(hb.st, src, site, call->v0, sync, pb, &indirect);
	/* The receive's statement says how much of its waiting was passed on. */
	if (st) {
		st->indirect += (uint64_t)indirect;
		st->indirect_ns += passed;
	}
}

size_t hooks__blame_causes(const blame_cause **out) { return blame__causes(hb.st, out); }
