/*
 * Preserve mode's local decisions: the other tasks' bounds from the monitor's last
 * grant, kept true with what this task sends and receives.
 *
 * Each entry's bound covers the task's own next send and every task it spawns from
 * now on (a child's virtual time starts at its parent's spawn). Why each update holds:
 * - This task's send to T may wake T (dep SELF: T accepts from this task alone) or,
 *   through T, anyone waiting on others (dep ANY): their bounds fall to the send's
 *   time, never below their own virtual time (virtual time only grows). A running
 *   task (dep NONE) sends nothing before its virtual time, whatever it receives.
 * - A piggyback from T shows T's virtual time at the send. It raises T's bound only
 *   while T has spawned nothing since its last report (every message from it since
 *   carried the quiet flag, in sequence): its children would be covered by nothing.
 *   What T sent to others woke tasks whose own bounds already fell when this task's
 *   send woke T, or that run (their sends never precede their virtual time).
 * - A block notice from T (it accepts from this task alone, has seen all this task
 *   sent it, and this task has seen all it sent) makes T wait for this task again.
 * - A notice that T blocks on any source with nothing it takes queued does too when
 *   every task is so blocked or blocked on this task, each having exchanged messages
 *   with this task alone (close_any): nothing but this task's sends can wake them.
 *   Otherwise it only says that T will not move by itself (hooks__prl_held_by_woken).
 */
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "channel.h"
#include "prlocal.h"
#include "reach.h"
#include "tidmap.h"

typedef struct prl_entry {
	int32_t tid;
	uint8_t dep;
	int64_t bound; /* its next send, and its children's, are not earlier */
	int64_t vt;    /* its own virtual time is at least this */
	uint32_t next; /* the sequence number of its next message to this task */
	int spawned;   /* it may have spawned since its report: its bound stays */
	int woken;     /* this task has sent to it since the grant */
	int anyb;      /* blocked on any source by its latest notice, nothing sent since */
	int away;      /* waits elsewhere by its latest notice, no message from it since */
	int watched;   /* asked for its news (PWATCH, a watch flag), no notice from it since */
	int alone;     /* its latest notice: it exchanged messages with no task but this */
	int live;      /* its board slot raises the bound while its sends stay at sends */
	int slot;      /* its board slot (-1: not looked up) */
	uint64_t sends;
	uint32_t rank; /* its place in the monitor's tie order */
	uint8_t knows; /* it may address this task (the grant's, or this task sent to it) */
	uint8_t lone;  /* no task but this one may address it (the grant's) */
	uint8_t use;   /* how its bound counts now (USE_*, hooks__prl_consider) */
	int64_t trans; /* its least transmission (the grant's) */
} prl_entry;

/* How an entry's bound counts for the receive being decided. */
enum { USE_DIRECT = 0, USE_NONE };

static struct {
	int valid;
	int know;       /* the grant used the knowledge rule */
	int64_t umax;
	prl_entry *e;
	size_t n, cap;
} tab;

/* Spawns so far, and their count at the last send per destination (the quiet flag);
 * the sources that ask to be told when this task blocks on them; the tasks that may
 * wait for its news (owe: a PWATCH, or a message with the watch flag, came from them
 * since its last notice to them; told when it waits elsewhere, hooks__prl_tell_away). */
static int64_t spawns;
static tidmap spawns_at, notify, owe;
/* The tasks this one had to wait for as woken (hooks__prl_watch): its sends to them
 * ask for their news (wire_piggyback.watch), so that it need not ask again. */
static tidmap watch_next;
/* Each source's board send count at its latest message here (see board.c). */
static tidmap last_sends;
/* The latest virtual arrival (this task's clock) of a message a receive from any
 * source took: a relayed message arriving before it shows a choice may be wrong. */
static int64_t taken_va;

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

static prl_entry *holder(void);

void hooks__prl_grant(const wire_pgrant *g, uint32_t (*seen)(int32_t tid))
{
	tab.valid = 0;
	tab.n = 0;
	if (!g->table)
		return;
	if (g->nb > tab.cap) {
		prl_entry *e = realloc(tab.e, g->nb * sizeof(*e));

		if (!e)
			return;
		tab.e = e;
		tab.cap = g->nb;
	}
	for (uint32_t i = 0; i < g->nb; i++) {
		prl_entry *e = &tab.e[i];
		int64_t *last;

		e->tid = g->b[i].tid;
		e->dep = g->b[i].dep;
		e->bound = g->b[i].bound;
		e->vt = g->b[i].vt;
		e->next = g->b[i].seq;
		e->rank = g->b[i].rank;
		/* Messages it sent after its report that were seen before the grant were
		 * not checked for spawns. */
		e->spawned = seen(e->tid) != g->b[i].seq;
		e->woken = 0;
		e->anyb = 0;
		e->away = 0;
		e->watched = 0;
		e->alone = 0;
		e->slot = -1;
		e->knows = !g->know || (g->b[i].knows & WIRE_PB_KNOWS_REQ);
		e->lone = g->know && (g->b[i].knows & WIRE_PB_KNOWS_LONE);
		e->trans = g->b[i].trans;
		e->use = USE_DIRECT;
		/* Its board slot counts while it has sent nothing since its latest message. */
		last = tidmap__find(&last_sends, e->tid);
		e->live = !e->spawned && last;
		e->sends = last ? (uint64_t)*last : 0;
	}
	tab.n = g->nb;
	tab.know = g->know;
	tab.umax = g->umax;
	tab.valid = 1;
}

int hooks__prl_valid(void) { return tab.valid; }

static prl_entry *find(int32_t tid)
{
	for (size_t i = 0; i < tab.n; i++)
		if (tab.e[i].tid == tid)
			return &tab.e[i];
	return NULL;
}

void hooks__prl_spawning(void)
{
	spawns++;
	tab.valid = 0;
}

void hooks__prl_wants(int32_t src, int on)
{
	int64_t *want = tidmap__get(&notify, src, 0);

	if (want)
		*want = on;
}

/* Owed even when a notice of the wait this task is in went to src before: src may not
 * have been able to use it (a message of its own was on its way here), and that notice
 * ended its request, so it asks again and nothing else would answer (a group
 * program's root waited 100 ms a round so). */
void hooks__prl_watched(int32_t src)
{
	int64_t *o = tidmap__get(&owe, src, 0);

	if (o)
		*o = 1;
}

/* This task sent tid a notice: it owes tid nothing until tid asks again (a message
 * is no answer: tid may still wait for this task's next news). */
static void paid(int32_t tid)
{
	int64_t *o = tidmap__find(&owe, tid);

	if (o)
		*o = 0;
}

/* Sends src the notice k (its quiet flag set here): 1 when sent. */
static int send_notice(int32_t src, wire_pblock *k)
{
	int64_t *at = tidmap__find(&spawns_at, src);
	wire_buf b;
	int rc;

	k->quiet = (at ? *at : 0) == spawns;
	wire__buf_init(&b);
	wire__pblock_encode(&b, k);
	rc = !b.failed && channel__pb_send(&src, 1, WIRE_TAG_PBLOCK, b.data, b.len) == 0;
	wire__buf_free(&b);
	if (rc)
		paid(src);
	return rc;
}

int hooks__prl_tell(int32_t src, int64_t vt, uint32_t seen, uint32_t sent, int alone)
{
	int64_t *want = tidmap__find(&notify, src);
	wire_pblock k = {vt, seen, sent, 0, 0, hooks__board_sends(), 0, (uint8_t)alone, 0};

	if (!want || !*want)
		return 0;
	return send_notice(src, &k);
}

/* Sends the notice proto to every task of the map to (those with a value, or every
 * one with all), with its counts with that task (seen and alone may be NULL: 0).
 * Returns how many were told. */
static int tell_all(tidmap *to, int all, wire_pblock proto, uint32_t (*seen)(int32_t tid),
                    uint32_t (*sent_to)(int32_t tid), int (*alone)(int32_t tid))
{
	int n = 0;

	for (size_t i = 0; i < to->cap; i++) {
		int32_t tid = to->slots[i].tid;
		wire_pblock k = proto;

		if (!tid || (!all && !to->slots[i].value))
			continue;
		k.seen = seen ? seen(tid) : 0;
		k.sent = sent_to(tid);
		k.alone = alone ? (uint8_t)alone(tid) : 0;
		n += send_notice(tid, &k);
	}
	return n;
}

int hooks__prl_tell_any(int64_t vt, uint32_t (*seen)(int32_t tid),
                        uint32_t (*sent_to)(int32_t tid), int (*alone)(int32_t tid))
{
	return tell_all(&notify, 0, (wire_pblock){vt, 0, 0, 0, 0, hooks__board_sends(), 1, 0, 0},
	                seen, sent_to, alone);
}

int hooks__prl_tell_away(int64_t vt, uint32_t (*seen)(int32_t tid),
                         uint32_t (*sent_to)(int32_t tid))
{
	return tell_all(&owe, 0, (wire_pblock){vt, 0, 0, 0, 0, hooks__board_sends(), 0, 0, 1},
	                seen, sent_to, NULL);
}

int hooks__prl_exiting(uint32_t (*sent_to)(int32_t tid), int (*alone)(int32_t tid))
{
	/* Every task that ever asked (not only those whose latest message did): one that
	 * decides by its bounds again may wait for this task's news, and would ask a task
	 * that can no longer answer (PWATCH). */
	return tell_all(&notify, 1, (wire_pblock){0, 0, 0, 0, 1, UINT64_MAX, 0, 0, 0}, NULL,
	                sent_to, alone);
}

/* Half the least transmission of tid as the grant gave it (0: not in the table). */
static int64_t wake_credit(int32_t tid)
{
	const prl_entry *e = find(tid);

	return e && e->trans > 0 ? e->trans / 2 : 0;
}

int hooks__prl_sent(int32_t tid, int64_t vs)
{
	int64_t *at = tidmap__get(&spawns_at, tid, 0);
	int quiet = at && *at == spawns;

	if (at)
		*at = spawns;
	if (!tab.valid)
		return quiet;
	/* The task sent to moves no earlier than the message reaches it: the send + half
	 * its least transmission, as the monitor's wake bounds take it; a task woken
	 * through it, no earlier either. */
	vs += wake_credit(tid);
	for (size_t i = 0; i < tab.n; i++) {
		prl_entry *e = &tab.e[i];
		int64_t lo = max64(e->vt, vs);

		if (e->tid == tid)
			e->woken = 1, e->anyb = 0, e->knows = 1;
		if ((e->dep == WIRE_PB_DEP_ANY || (e->dep == WIRE_PB_DEP_SELF && e->tid == tid)) &&
		    lo < e->bound)
			e->bound = lo;
	}
	return quiet;
}

void hooks__prl_seen(int32_t src, uint32_t seq, int64_t vs, int quiet)
{
	prl_entry *e = tab.valid ? find(src) : NULL;

	if (!e)
		return;
	e->vt = max64(e->vt, vs);
	e->anyb = 0;
	e->away = 0;
	/* Messages from before its report: nothing new. One missed, or not quiet: it may
	 * have spawned. */
	if (seq + 1 <= e->next)
		return;
	if (seq != e->next || !quiet)
		e->spawned = 1;
	e->next = seq + 1;
	if (!e->spawned && vs > e->bound)
		e->bound = vs;
}

/*
 * Tasks blocked on any source wait for good when every task of the table is blocked
 * on anyone or on this task, or has ended, each by a notice saying it exchanged
 * messages with no task but this one (alone): then nothing is on its way between them
 * (a task woken by another after its notice would have been woken by this task's
 * send first, at the end of the chain, which ends that task's notice here), and none
 * of them can move before this task sends.
 */
static void close_any(void)
{
	for (size_t i = 0; i < tab.n; i++) {
		const prl_entry *e = &tab.e[i];

		if (!e->alone || (!e->anyb && e->bound != PRL_NEVER))
			return;
	}
	for (size_t i = 0; i < tab.n; i++)
		if (tab.e[i].anyb) {
			tab.e[i].bound = PRL_NEVER;
			tab.e[i].dep = WIRE_PB_DEP_ANY;
		}
}

void hooks__prl_blocked(int32_t src, const wire_pblock *k, uint32_t sent_to_src,
                        uint32_t seen_from_src)
{
	prl_entry *e = tab.valid ? find(src) : NULL;

	if (!e)
		return;
	e->vt = max64(e->vt, k->vt);
	e->watched = 0;
	/* It waits elsewhere: no news of it will come here until it runs again, and only
	 * the monitor can say when that is (hooks__prl_held_by_woken). Told so while it
	 * holds nothing here, the watch flag on this task's sends to it was not needed:
	 * they go without it until this task has to ask again (else each such send
	 * costs a notice: a manager whose workers once asked told them at its waits). */
	e->away = k->away;
	if (k->away) {
		int64_t *w = tidmap__find(&watch_next, src);

		if (w && holder() != e)
			*w = 0;
		return;
	}
	/* A message of its own on its way, or a spawn: it may move before this task does;
	 * one of this task's on its way to it wakes it (but not once it ends). */
	if (e->spawned || !k->quiet || k->sent != seen_from_src || k->sent != e->next ||
	    (!k->exiting && k->seen != sent_to_src)) {
		/* It ends: whatever is still on its way, no news of it will come after. */
		if (k->exiting)
			e->away = 1;
		return;
	}
	e->anyb = k->any;
	e->alone = k->alone;
	/* Blocked on anyone: only when no other task could wake it (see the top), or when
	 * no task but this one may address it and it exchanged messages with this one
	 * alone (nobody learned its tid from it), while this task teaches nobody whom to
	 * address. */
	if (k->any) {
		if (e->lone && k->alone && !(hooks__reach_bits() & WIRE_PW_REACH_TEACH)) {
			e->bound = PRL_NEVER;
			e->dep = WIRE_PB_DEP_SELF;
			e->live = 0;
			return;
		}
		close_any();
		return;
	}
	e->bound = PRL_NEVER;
	e->dep = k->exiting ? WIRE_PB_DEP_NONE : WIRE_PB_DEP_SELF;
	/* Nothing of its own on its way here: from now on, while it sends nothing, what
	 * its board slot says is a bound too (board.c). */
	e->live = !k->exiting && k->sends != UINT64_MAX;
	e->sends = k->sends;
}

int hooks__prl_notice(int32_t src, const uint8_t *d, size_t len, uint32_t sent_to_src,
                      uint32_t seen_from_src)
{
	wire_pblock k;
	int rc = wire__pblock_decode(&k, d, len);

	if (rc == 0)
		hooks__prl_blocked(src, &k, sent_to_src, seen_from_src);
	return rc;
}

void hooks__prl_piggyback(int32_t src, const wire_piggyback *pb)
{
	prl_entry *e;

	if (pb->my_seq >= 0) {
		hooks__prl_seen(src, (uint32_t)pb->my_seq, pb->vt_send, pb->quiet);
		/* Its latest message here: while its board count stays at this send's, it has
		 * nothing on its way here (messages of a pair come in order). */
		if (pb->sends != UINT64_MAX) {
			int64_t *last = tidmap__get(&last_sends, src, 0);

			if (last)
				*last = (int64_t)pb->sends;
			if ((e = tab.valid ? find(src) : NULL) != NULL && !e->spawned &&
			    (uint32_t)pb->my_seq + 1 == e->next) {
				e->live = 1;
				e->sends = pb->sends;
			}
		}
	}
	hooks__prl_wants(src, pb->notify);
	/* The message asks for this task's news itself, as a PWATCH would. */
	if (pb->watch)
		hooks__prl_watched(src);
}

void hooks__prl_asked(int32_t tid)
{
	prl_entry *e = tab.valid ? find(tid) : NULL;

	if (e)
		e->watched = 1;
}

int hooks__prl_watching(int32_t tid)
{
	int64_t *w = tidmap__find(&watch_next, tid);

	return w && *w;
}

int hooks__prl_known(int32_t tid) { return tab.valid && find(tid) != NULL; }

uint32_t hooks__prl_rank(int32_t tid)
{
	const prl_entry *e = tab.valid ? find(tid) : NULL;

	return e ? e->rank : UINT32_MAX;
}

void hooks__prl_consider(int (*is_cand)(int32_t tid))
{
	for (size_t i = 0; i < tab.n; i++) {
		prl_entry *e = &tab.e[i];

		e->use = tab.know && (!e->knows || (is_cand && is_cand(e->tid))) ? USE_NONE
		                                                               : USE_DIRECT;
	}
}

void hooks__prl_taken(int64_t va)
{
	if (va > taken_va)
		taken_va = va;
}

void hooks__prl_premise(int32_t src, int64_t va)
{
	prl_entry *e = tab.valid && tab.know ? find(src) : NULL;

	if (!e || e->knows)
		return;
	/* It could address this task after all (a relay): from now on it counts; had its
	 * message come earlier than one taken, that choice may be wrong. */
	e->knows = 1;
	if (va < taken_va)
		hooks__reach_misorder();
}

/* e's bound as it counts now (hooks__prl_consider), raised by its board slot where that
 * is known (now: board time). */
static int64_t bound_of(prl_entry *e, int64_t now)
{
	int64_t b = e->bound, l;
	int stale = 0;

	if (e->use == USE_NONE)
		return PRL_NEVER;
	if (e->live && b < PRL_NEVER) {
		l = hooks__board_bound(e->tid, &e->slot, e->sends, now, &stale);
		if (stale)
			e->live = 0;
		else if (l > b)
			b = l;
	}
	return b;
}

int64_t hooks__prl_horizon(void)
{
	int64_t h = PRL_NEVER, now = hooks__board_on() ? hooks__board_now() : 0, b;

	for (size_t i = 0; i < tab.n; i++)
		if ((b = bound_of(&tab.e[i], now)) < h)
			h = b;
	return h;
}

int64_t hooks__prl_live_eta(int64_t target, int *sure)
{
	int64_t now, eta = 0, t;

	*sure = 1;
	if (!tab.valid || !hooks__board_on())
		return PRL_ETA_UNKNOWN;
	now = hooks__board_now();
	for (size_t i = 0; i < tab.n; i++) {
		prl_entry *e = &tab.e[i];

		if (bound_of(e, now) >= target)
			continue;
		if (!e->live)
			return PRL_ETA_UNKNOWN;
		/* In a call (it may be waking from one): look again soon. */
		if ((t = hooks__board_eta(e->tid, &e->slot, target, now)) < 0) {
			t = PRL_LIVE_POLL_NS;
			*sure = 0;
		}
		if (t > eta)
			eta = t;
	}
	return eta;
}

int64_t hooks__prl_until(int64_t need, int64_t t_wait, int64_t now, int poll, int64_t woken_wait,
                         int64_t *step, int *timer)
{
	int held = hooks__prl_held_by_woken();

	/* A poll does not wait for an answer: the program polls again soon. */
	if (poll && held == PRL_HELD_WOKEN)
		held = 0;
	int64_t until = t_wait + (held == PRL_HELD_WOKEN ? woken_wait : PRL_WAIT_NS), eta;
	int sure = 0;

	*timer = held == PRL_HELD_WOKEN;
	/* The task that holds it blocks on anyone: no news of it will come here. */
	if (held == PRL_HELD_BLOCKED) {
		*step = 0;
		*timer = 0;
		return now;
	}
	/* Tasks that compute hold it: their board slots pass it with no message. */
	eta = need == INT64_MIN ? PRL_ETA_UNKNOWN : hooks__prl_live_eta(need, &sure);
	/* A holder still in a call when the board's look is over: its cap ends the wait. */
	if (eta >= 0 && !sure && now + eta >= t_wait + PRL_LIVE_WAIT_NS)
		*timer = 1;
	if (eta >= 0 && now + eta < t_wait + PRL_LIVE_WAIT_NS && now + eta + 1000 > until) {
		until = sure ? now + eta + 1000 : t_wait + PRL_LIVE_WAIT_NS;
		*timer = !sure;
	}
	*step = eta >= 0 && eta < until - now ? eta : until - now;
	return until;
}

/* The entry whose bound is least now (NULL: none holds). */
static prl_entry *holder(void)
{
	prl_entry *m = NULL;
	int64_t now = hooks__board_on() ? hooks__board_now() : 0, mb = PRL_NEVER, b;

	for (size_t i = 0; i < tab.n; i++)
		if ((b = bound_of(&tab.e[i], now)) < mb || !m) {
			m = &tab.e[i];
			mb = b;
		}
	return m && mb != PRL_NEVER ? m : NULL;
}

/* Whether e may wait in a call, silent, while it holds the horizon need: woken here,
 * or in a call by its board slot (computing, its slot will pass need). */
static int may_wait_silent(prl_entry *e, int64_t need, int64_t now)
{
	if (e->woken)
		return 1;
	return e->live && need != INT64_MIN && hooks__board_on() &&
	       hooks__board_eta(e->tid, &e->slot, need, now) == BOARD_ETA_UNKNOWN;
}

int32_t hooks__prl_watch(int64_t need)
{
	prl_entry *m = tab.valid ? holder() : NULL, *e;
	int64_t now = hooks__board_on() ? hooks__board_now() : 0, *w;

	if (!m)
		return 0;
	for (size_t i = 0; i < tab.n; i++) {
		e = &tab.e[i];
		/* The least bound's task, and every other below the horizon needed. */
		if (e != m && (need == INT64_MIN || bound_of(e, now) >= need))
			continue;
		if (e->anyb || e->away || e->watched || !may_wait_silent(e, need, now))
			continue;
		e->watched = 1;
		if (e->woken && (w = tidmap__get(&watch_next, e->tid, 1)) != NULL)
			*w = 1;
		return e->tid;
	}
	return 0;
}

int hooks__prl_held_by_woken(void)
{
	const prl_entry *m = holder();

	if (!m)
		return 0;
	return m->anyb || m->away ? PRL_HELD_BLOCKED : m->woken ? PRL_HELD_WOKEN : 0;
}

int64_t hooks__prl_umax(void) { return tab.umax; }
