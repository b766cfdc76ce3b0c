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
 */
#include <stdlib.h>
#include <string.h>

#include "channel.h"
#include "prlocal.h"
#include "tidmap.h"

typedef struct prl_entry {
	int32_t tid;
	uint8_t dep;
	int64_t bound; /* its next send, and its children's, are not earlier */
	int64_t vt;    /* its own virtual time is at least this */
	uint32_t next; /* the sequence number of its next message to this task */
	int spawned;   /* it may have spawned since its report: its bound stays */
	int woken;     /* this task has sent to it since the grant */
} prl_entry;

static struct {
	int valid;
	int64_t umax;
	prl_entry *e;
	size_t n, cap;
} tab;

/* Spawns so far, and their count at the last send per destination (the quiet flag);
 * the sources that ask to be told when this task blocks on them. */
static int64_t spawns;
static tidmap spawns_at, notify;

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

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

		e->tid = g->b[i].tid;
		e->dep = g->b[i].dep;
		e->bound = g->b[i].bound;
		e->vt = g->b[i].vt;
		e->next = g->b[i].seq;
		/* Messages it sent after its report that were seen before the grant were
		 * not checked for spawns. */
		e->spawned = seen(e->tid) != g->b[i].seq;
		e->woken = 0;
	}
	tab.n = g->nb;
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

int hooks__prl_tell(int32_t src, int64_t vt, uint32_t seen, uint32_t sent)
{
	int64_t *want = tidmap__find(&notify, src), *at = tidmap__find(&spawns_at, src);
	wire_pblock k = {vt, seen, sent, (at ? *at : 0) == spawns, 0};
	wire_buf b;
	int rc;

	if (!want || !*want)
		return 0;
	wire__buf_init(&b);
	wire__pblock_encode(&b, &k);
	rc = !b.failed && channel__pb_send(&src, 1, WIRE_TAG_PBLOCK, b.data, b.len) == 0;
	wire__buf_free(&b);
	return rc;
}

int hooks__prl_exiting(uint32_t (*sent_to)(int32_t tid))
{
	int n = 0;

	for (size_t i = 0; i < notify.cap; i++) {
		int32_t tid = notify.slots[i].tid;
		int64_t *at;
		wire_pblock k = {0, 0, 0, 0, 1};
		wire_buf b;

		if (!tid || !notify.slots[i].value)
			continue;
		at = tidmap__find(&spawns_at, tid);
		k.sent = sent_to(tid);
		k.quiet = (at ? *at : 0) == spawns;
		wire__buf_init(&b);
		wire__pblock_encode(&b, &k);
		if (!b.failed && channel__pb_send(&tid, 1, WIRE_TAG_PBLOCK, b.data, b.len) == 0)
			n++;
		wire__buf_free(&b);
	}
	return n;
}

int hooks__prl_sent(int32_t tid, int64_t vs)
{
	int64_t *at = tidmap__get(&spawns_at, tid, 0);
	int quiet = at && *at == spawns;

	if (at)
		*at = spawns;
	if (!tab.valid)
		return quiet;
	for (size_t i = 0; i < tab.n; i++) {
		prl_entry *e = &tab.e[i];
		int64_t lo = max64(e->vt, vs);

		if (e->tid == tid)
			e->woken = 1;
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

void hooks__prl_blocked(int32_t src, const wire_pblock *k, uint32_t sent_to_src,
                        uint32_t seen_from_src)
{
	prl_entry *e = tab.valid ? find(src) : NULL;

	if (!e)
		return;
	e->vt = max64(e->vt, k->vt);
	/* A message of its own on its way, or a spawn: it may move before this task does;
	 * one of this task's on its way to it wakes it (but not once it ends). */
	if (e->spawned || !k->quiet || k->sent != seen_from_src || k->sent != e->next ||
	    (!k->exiting && k->seen != sent_to_src))
		return;
	e->bound = PRL_NEVER;
	e->dep = k->exiting ? WIRE_PB_DEP_NONE : WIRE_PB_DEP_SELF;
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
	if (pb->my_seq >= 0)
		hooks__prl_seen(src, (uint32_t)pb->my_seq, pb->vt_send, pb->quiet);
	hooks__prl_wants(src, pb->notify);
}

int hooks__prl_known(int32_t tid) { return tab.valid && find(tid) != NULL; }

int64_t hooks__prl_horizon(void)
{
	int64_t h = PRL_NEVER;

	for (size_t i = 0; i < tab.n; i++)
		if (tab.e[i].bound < h)
			h = tab.e[i].bound;
	return h;
}

int hooks__prl_held_by_woken(void)
{
	const prl_entry *m = NULL;

	for (size_t i = 0; i < tab.n; i++)
		if (!m || tab.e[i].bound < m->bound)
			m = &tab.e[i];
	return m && m->woken && m->bound < PRL_NEVER;
}

int64_t hooks__prl_umax(void) { return tab.umax; }
