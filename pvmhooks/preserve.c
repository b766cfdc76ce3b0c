/*
 * Preserve mode in a task: piggybacks are taken off the private context as they
 * arrive (the stash, prstash.c), so that a nondeterministic receive can tell the
 * monitor every queued candidate with its virtual arrival; the monitor's decision is
 * then forced, or the task decides by its bounds (prlocal.c).
 */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include <pvm3.h>

#include "clocksync.h"
#include "dyninst.h"
#include "preserve.h"
#include "preserve_impl.h"
#include "prchoose.h"
#include "prlocal.h"
#include "pvmmon/errors.h"
#include "reach.h"
#include "records.h"
#include "sched.h"
#include "trace.h"

/* This file's state besides the request in progress (cur, grant, told below). */
static struct {
	int on; /* preserve mode (from the welcome) */
	/* Receives decided here, and block notices sent, so far (for the monitor's
	 * stats). */
	uint32_t nlocal, nnotices;
	/* Receives decided here whose wait for news ended on a timer (decide_here). */
	uint32_t ntimed;
	/* The wait reports' threshold (waits.c's setting, given at install): a receive
	 * blocked that long is reported; 0 until given. */
	int64_t (*threshold_of)(void);
	/* Why the last choice here (hooks__prc_choose) chose nothing (PRC_*), and the
	 * horizon it waits for. */
	int why;
	int64_t need;
} ps;

int hooks__pr_on(void) { return ps.on; }

void hooks__pr_enable(int enable) { ps.on = enable; }

/* How long one wait for the monitor or a message lasts at most before the task looks
 * at its user queue again. A wait ends at any input on PVM's sockets (channel.c), a
 * message from an unmonitored sender too, which brings no piggyback; this is the
 * safety net for input on a socket the wait did not know of yet (a new direct route). */
#define WAIT_STEP_US 50000

/* A task that told its source it blocks (a block notice) tells the monitor too only
 * when the monitor asks, or once the wait has lasted the wait threshold (waits.c), as
 * a task in plain mode reports its wait: its source decides without the monitor, and
 * a shorter wait is no hang. The report says how long it waited (wire_pwait.waited). */

/* The request in progress (if any), so that the monitor's questions during the wait
 * get the same answer, and the decision on it. */
static struct {
	uint32_t req;   /* last request number */
	uint32_t block; /* last blocked receive's number */
	int kind;       /* wire_pw_kind while waiting, WIRE_PW_RUNNING otherwise */
	int32_t src, tag;
	int64_t vt, deadline;
	const char *module;
	uint64_t offset;
	int local;       /* waiting to decide a receive here (see decide_here) */
	int asked;       /* the monitor asked meanwhile: it waits for this task */
	int watched;     /* told the monitor it runs: its next block is told at once */
	int reported;    /* the monitor knows of the current blocked receive */
	int64_t t_block; /* real time the current blocked receive began */
} cur;

static struct {
	uint32_t req;
	uint8_t verdict;
	int32_t src, tag;
} grant;

/* A receive decided here, told to the monitor in a traced run for the log's record of
 * decisions (wire_pwait.decided): what it took, the tie window, the least bound. */
static struct {
	int on;
	int32_t src, tag;
	int64_t window, horizon;
} told;

void hooks__pr_wait_threshold(int64_t (*threshold)(void)) { ps.threshold_of = threshold; }

static int64_t wait_threshold(void) { return ps.threshold_of ? ps.threshold_of() : 0; }

void hooks__pr_spawning(void) { hooks__prl_spawning(); }

int hooks__pr_deciding(void) { return ps.on && hooks__prl_valid(); }

int hooks__pr_watching(int32_t tid) { return hooks__prl_watching(tid); }

void hooks__pr_asked(int32_t tid) { hooks__prl_asked(tid); }

void hooks__pr_exiting(void)
{
	if (ps.on && !channel__lost())
		ps.nnotices +=
		    (uint32_t)hooks__prl_exiting(hooks__pr_sent_to_count, hooks__pr_alone_with);
}

/* Sends a request (req > 0), a blocked receive's report or a running report. */
static int send_report(uint32_t req, int kind, int64_t vt)
{
	wire_pwait w;
	wire_pcount *sent = NULL, *sn = NULL;
	wire_pcand *cand = NULL;
	wire_buf b;
	size_t i;
	int rc = PVMMON_ENOMEM;

	memset(&w, 0, sizeof(w));
	w.req = req;
	w.unc = hooks__dyn_uncertainty();
	w.kind = (uint8_t)kind;
	w.vt = vt;
	w.trans = vclock__trans_floor(hooks__clock());
	w.local = ps.nlocal;
	w.notices = ps.nnotices;
	w.timed = ps.ntimed;
	w.reach = hooks__reach_bits();
	/* How long it has waited before this report: a blocked receive's first, or a
	 * request from any source (which the monitor times only while it has no
	 * candidate, from its first report). */
	if (((kind == WIRE_PW_BLOCKED && !cur.reported) || kind == WIRE_PW_RECV) && cur.t_block)
		w.waited = pvmmon_clock_now() - cur.t_block;
	w.src = cur.src;
	w.tag = cur.tag;
	w.deadline = kind == WIRE_PW_RUNNING ? INT64_MAX : cur.deadline;
	if (kind != WIRE_PW_RUNNING) {
		w.module = (char *)cur.module;
		w.offset = cur.offset;
	}
	sent = calloc(hooks__prs.ndirty_sent ? hooks__prs.ndirty_sent : 1, sizeof(*sent));
	sn = calloc(hooks__prs.ndirty_seen ? hooks__prs.ndirty_seen : 1, sizeof(*sn));
	if (!sent || !sn)
		goto out;
	for (i = 0; i < hooks__prs.ndirty_sent; i++) {
		int64_t *s = tidmap__find(&hooks__prs.sent_to, hooks__prs.dirty_sent[i]);

		sent[w.nsent].tid = hooks__prs.dirty_sent[i];
		/* On the task's clock, as the report's other times (the monitor converts). */
		sent[w.nsent].vs = i < hooks__prs.cap_dirty_vs
		                       ? hooks__from_common(hooks__prs.dirty_vs[i])
		                       : INT64_MIN;
		sent[w.nsent++].n = s ? (uint32_t)*s : 0;
	}
	for (i = 0; i < hooks__prs.ndirty_seen; i++) {
		int64_t *s = tidmap__find(&hooks__prs.seen, hooks__prs.dirty_seen[i]);

		sn[w.nseen].tid = hooks__prs.dirty_seen[i];
		sn[w.nseen++].n = s ? (uint32_t)*s : 0;
	}
	w.sent = sent;
	w.seen = sn;
	if (told.on) {
		w.decided = 1;
		w.taken_src = told.src;
		w.taken_tag = told.tag;
		w.window = told.window;
		w.horizon = told.horizon;
	}
	/* Per sender, its first queued message that matches: messages of one sender are
	 * taken in its order, so only the first can be the next. */
	if ((kind >= WIRE_PW_RECV || told.on) && hooks__prs.nstash) {
		cand = calloc(hooks__prs.nstash, sizeof(*cand));
		if (!cand)
			goto out;
		w.ncand = hooks__pr_cands(cand, cur.src, cur.tag);
		w.cand = cand;
	}
	/* A blocked receive lists what its source has queued that it does not take (the
	 * hang rules' tag mismatch), up to what a wait report lists. */
	if (kind == WIRE_PW_BLOCKED && hooks__prs.nstash) {
		cand = calloc(hooks__prs.nstash, sizeof(*cand));
		if (!cand)
			goto out;
		for (i = 0; i < hooks__prs.nstash && w.ncand < WIRE_WAIT_MAX_QUEUED; i++) {
			if (hooks__prs.stash[i].src != cur.src)
				continue;
			cand[w.ncand].src = hooks__prs.stash[i].src;
			cand[w.ncand].tag = hooks__prs.stash[i].tag;
			cand[w.ncand].vs = hooks__prs.stash[i].vs;
			cand[w.ncand].va = hooks__prs.stash[i].vs;
			cand[w.ncand++].seq = hooks__prs.stash[i].seq;
		}
		w.cand = cand;
	}
	wire__buf_init(&b);
	wire__pwait_encode(&b, &w);
	rc = b.failed ? PVMMON_ENOMEM : channel__send(WIRE_TAG_PWAIT, b.data, b.len);
	if (rc == 0)
		hooks__prs.ndirty_sent = hooks__prs.ndirty_seen = 0;
	/* A report that the task waits is the news the monitor asked for. */
	if (rc == 0 && kind != WIRE_PW_RUNNING)
		cur.watched = 0;
	if (rc == 0 && kind == WIRE_PW_BLOCKED)
		cur.reported = 1;
	wire__buf_free(&b);
out:
	free(sent);
	free(sn);
	free(cand);
	return rc;
}

int hooks__pr_report(void)
{
	if (!ps.on || channel__lost())
		return 0;
	return send_report(0, WIRE_PW_RUNNING, vclock__virtual(hooks__clock(), pvmmon_clock_now()));
}

/* A message from the monitor with tag (d of len bytes). */
static void from_monitor(int tag, const uint8_t *d, size_t len)
{
	wire_pgrant g;
	wire_ctl c;

	switch (tag) {
	case WIRE_TAG_PGRANT:
		if (wire__pgrant_decode(&g, d, len) < 0)
			break;
		if (g.req == cur.req) {
			grant.req = g.req;
			grant.verdict = g.verdict;
			grant.src = g.src;
			grant.tag = g.tag;
			/* Without a table the bounds kept so far still hold. */
			if (g.table)
				hooks__prl_grant(&g, hooks__pr_seen_from);
		}
		wire__pgrant_clear(&g);
		break;
	case WIRE_TAG_PASK:
		if (wire__pask_decode(d, len) < 0)
			break;
		/* The answer is the state now: a waiting task repeats its request with what
		 * has arrived since; one about to decide a receive itself asks the monitor
		 * instead (decide_here: a decision waits for it, and the monitor knows more
		 * tasks than its bounds do); a running one gives its virtual time, and then
		 * tells its next block at once (wait_blocked, decide_here): the monitor,
		 * which asked, is waiting for that news. */
		if (cur.local) {
			cur.asked = 1;
		} else if (cur.kind == WIRE_PW_RUNNING) {
			hooks__pr_report();
			cur.watched = 1;
		} else
			send_report(cur.kind == WIRE_PW_BLOCKED ? cur.block : cur.req, cur.kind,
			            cur.vt);
		break;
	case WIRE_TAG_CTL:
		if (wire__ctl_decode(&c, d, len) == 0) {
			sched__control(&c, vclock__virtual(hooks__clock(), pvmmon_clock_now()));
			free(c.procs);
		}
		break;
	case WIRE_TAG_CLOCKSET:
		clocksync__set(d, len);
		break;
	default:
		hooks__count_bad();
	}
}

/* Tells source src that this task blocks on it, when src asked for it: 1 when told. */
static int tell_blocked(int src)
{
	if (!hooks__prl_tell(src, hooks__to_common(cur.vt), hooks__pr_seen_from(src),
	                     hooks__pr_sent_to_count(src), hooks__pr_alone_with(src)))
		return 0;
	ps.nnotices++;
	return 1;
}

/* Tells the tasks that wait for this task's news that it waits elsewhere (see
 * hooks__prl_tell_away): they ask the monitor then, instead of waiting for it. How
 * many were told: a send may read what came into libpvm3's queue, where it wakes no
 * wait, so the caller looks at the queue again before it waits. */
static int tell_away(void)
{
	int n = hooks__prl_tell_away(hooks__to_common(cur.vt), hooks__pr_seen_from,
	                             hooks__pr_sent_to_count);

	ps.nnotices += (uint32_t)n;
	return n;
}

/* A receive decided here is held by a task this task woke: asks it for its news
 * (PWATCH), once until the news comes. Without asking, the task would tell nobody
 * when it waits elsewhere (a notice to every source at every wait was 4,000 more
 * messages in the notify manager/worker's run, whose decisions rarely wait). */
static int watch_holder(void)
{
	int32_t tid;
	wire_buf b;
	int n = 0;

	wire__buf_init(&b);
	wire__pask_encode(&b);
	while (!b.failed && (tid = hooks__prl_watch(ps.need)) != 0)
		if (channel__pb_send(&tid, 1, WIRE_TAG_PWATCH, b.data, b.len) == 0)
			n++;
	wire__buf_free(&b);
	ps.nnotices += (uint32_t)n;
	return n;
}

/* src waits for this task's news (PWATCH): told by the wait this task is in, or its
 * next (tell_away in every wait's loop), unless a notice to src comes first. */
static void watched_by(int32_t src, const uint8_t *d, size_t len)
{
	if (wire__pask_decode(d, len) < 0)
		hooks__count_bad();
	else
		hooks__prl_watched(src);
}

/* Takes everything queued in the private context, waiting up to wait_us for the
 * first message; returns how many came. */
static int drain(long wait_us)
{
	uint8_t *d;
	size_t len;
	int n = 0, tag, src, rc;

	while (!channel__lost()) {
		d = NULL;
		rc = channel__take_any(&d, &len, &src, &tag, n == 0 ? wait_us : 0);
		if (rc == 0)
			break;
		n++;
		if (rc < 0)
			continue;
		if (src == channel__monitor_tid())
			from_monitor(tag, d, len);
		else if (tag == WIRE_TAG_PBLOCK) {
			if (hooks__prl_notice(src, d, len, hooks__pr_sent_to_count(src),
			                      hooks__pr_seen_from(src)) < 0)
				hooks__count_bad();
		} else if (tag == WIRE_TAG_PWATCH)
			watched_by(src, d, len);
		else if (tag == WIRE_TAG_MONLOST && (src & (int)0x80000000))
			channel__gone();
		else {
			hooks__pr_stash_add(src, tag, d, len);
			continue;
		}
		free(d);
	}
	return n;
}

void hooks__pr_poll(void) { drain(0); }

/* The first message the user's queue holds for the patterns is from an unmonitored
 * sender: the monitor cannot order it, so the receive goes its plain way. */
static int unmonitored_first(int tid, int tag, int *found)
{
	int b = hooks__pvm.probe(tid, tag), len, t, s;

	*found = b > 0;
	if (b <= 0 || pvm_bufinfo(b, &len, &t, &s) < 0)
		return 0;
	return !channel__is_monitored(s);
}

static void set_site(hooks_call *call)
{
	pvmmon_log_stmt *st = hooks__stmt(call->site, call->op);

	cur.module = st ? st->module : NULL;
	cur.offset = st ? st->offset : 0;
}

/* A blocked receive reports what arrived meanwhile (messages it does not take) at
 * most this often: the monitor's hang rule needs them counted, not each at once. */
#define REREPORT_NS 100000000LL

/* A deterministic receive with nothing queued: say so, and wait (answering the
 * monitor) until its message is there. */
static void wait_blocked(hooks_call *call, int tid, int tag)
{
	int found;
	uint64_t serial = hooks__prs.stash_serial;
	int64_t last;

	int64_t defer = wait_threshold();

	cur.kind = WIRE_PW_BLOCKED;
	cur.block++;
	cur.reported = 0;
	cur.t_block = call->t_wait = last = pvmmon_clock_now();
	if (!tell_blocked(tid) || cur.watched)
		send_report(cur.block, WIRE_PW_BLOCKED, cur.vt);
	while (!channel__lost()) {
		int64_t now = pvmmon_clock_now(), left = call->t_wait + defer - now;

		/* Looked at before every wait: the sends above, and each drain, read whatever
		 * the sockets held into libpvm3's queue, and a message already there wakes no
		 * wait. An unmonitored answer (the group server's) read in so waited out the
		 * whole step: 28 steps of 50 ms in 200 group bcast/reduce rounds (gredf). */
		tell_away();
		unmonitored_first(tid, tag, &found);
		if (found)
			break;
		drain(cur.reported || left >= WAIT_STEP_US * 1000LL
		          ? WAIT_STEP_US
		          : (long)(left > 0 ? left / 1000 + 1 : 1));
		now = pvmmon_clock_now();
		/* The records go at the flush period while the task waits, as in plain mode
		 * (waits.c): a hung or interrupted run's log has what it did before. */
		sched__waiting(now, call->t0, 0);
		if (!cur.reported && now - call->t_wait >= defer) {
			send_report(cur.block, WIRE_PW_BLOCKED, cur.vt);
			serial = hooks__prs.stash_serial;
			last = now;
		}
		if (hooks__prs.stash_serial != serial && now - last >= REREPORT_NS) {
			serial = hooks__prs.stash_serial;
			last = now;
			send_report(cur.block, WIRE_PW_BLOCKED, cur.vt);
		}
	}
	cur.kind = WIRE_PW_RUNNING;
	cur.t_block = 0;
}

static void tell_decided(int src, int tag);

/* Decides here (hooks__prc_choose) when it can: the choice becomes the grant. 1 when
 * decided. */
static int decided_here(void)
{
	const stash_entry *e = hooks__prc_choose(cur.src, cur.tag, cur.deadline, &ps.why, &ps.need);

	if (!e && ps.why != PRC_MISS)
		return 0;
	grant.verdict = e ? WIRE_PG_TAKE : WIRE_PG_NONE;
	grant.src = e ? e->src : -1;
	grant.tag = e ? e->tag : -1;
	ps.nlocal++;
	return 1;
}

/* Receives decided here: blocking ones from any source, and polls (pvm_nrecv,
 * pvm_probe), none under a matcher of the program's. */
static int local_kind(int kind)
{
	return (kind == WIRE_PW_RECV || kind == WIRE_PW_NRECV || kind == WIRE_PW_PROBE) &&
	       !hooks__prs.spy;
}

/* The receive goes its plain way, not decided (ask_monitor, decide_here): no failure. */
#define PLAIN_WAY (-1)

/* Asks the monitor to decide the receive and waits for its grant: 0, or PLAIN_WAY when the
 * receive goes its plain way (the monitor is lost, or an unmonitored message is first
 * in the queue). A blocking receive from any source with bounds still decides itself
 * when what arrives meanwhile allows (a block notice, a piggyback), and withdraws the
 * request: otherwise two tasks that once asked the monitor would keep asking it, each
 * waiting there for the other's next report. */
static int ask_monitor(hooks_call *call, int tid, int tag, int kind, int64_t *first_at)
{
	uint64_t serial;
	int found;

	cur.req++;
	cur.kind = kind;
	send_report(cur.req, kind, cur.vt);
	serial = hooks__prs.stash_serial;
	while (grant.req != cur.req) {
		int n;

		tell_away();
		/* An unmonitored message first in the queue: cancel the request with a report
		 * and let the receive go its plain way. Looked at before every wait (the
		 * request's send may have read it into libpvm3's queue, where it wakes no
		 * wait) and whenever nothing came for a while. */
		if (unmonitored_first(tid, tag, &found)) {
			cur.kind = WIRE_PW_RUNNING;
			hooks__pr_report();
			return PLAIN_WAY;
		}
		n = drain(WAIT_STEP_US);

		if (channel__lost()) {
			cur.kind = WIRE_PW_RUNNING;
			return PLAIN_WAY;
		}
		if (grant.req == cur.req)
			break;
		if (!*first_at && hooks__pr_first_match(tid, tag))
			*first_at = pvmmon_clock_now();
		if (n && local_kind(kind) && hooks__prl_valid() && decided_here()) {
			cur.kind = WIRE_PW_RUNNING;
			/* The running report withdraws the request; in a traced run it names
			 * the choice too, for the log's record of decisions. */
			if (hooks__trace_on() && grant.verdict == WIRE_PG_TAKE)
				tell_decided(grant.src, grant.tag);
			else
				send_report(0, WIRE_PW_RUNNING, cur.vt);
			return 0;
		}
		sched__waiting(pvmmon_clock_now(), call->t0, 0);
		/* New messages are new candidates, or show that one on its way has come. */
		if (hooks__prs.stash_serial != serial) {
			serial = hooks__prs.stash_serial;
			send_report(cur.req, kind, cur.vt);
		}
	}
	return 0;
}

/*
 * A timeout decided by virtual time ends at its virtual deadline, and the virtual clock
 * never runs ahead of real time (vclock.c): the task waits until its clock reaches the
 * deadline, as the unmonitored program waits out its timeout. Decided at once and
 * returned at once, a poller's timeouts took a round trip each, its virtual time
 * (clamped to real time) never reached its partners' deadlines, and a master polling
 * with pvm_trecv(0.1 s) gave up after 40 timeouts in 0.04 s where unmonitored its
 * worker's message came after 10 (1.01 s). The monitor holds the task at the deadline
 * meanwhile (it set it so at the grant); its questions get the deadline as the
 * task's virtual time: it sends nothing before.
 */
static void wait_deadline(hooks_call *call, int64_t deadline)
{
	int64_t left;

	cur.local = 1;
	cur.vt = deadline;
	while (!channel__lost()) {
		left = deadline - vclock__virtual(hooks__clock(), pvmmon_clock_now());
		if (left <= 0)
			break;
		tell_away();
		drain(left / 1000 < WAIT_STEP_US ? (long)(left / 1000) + 1 : WAIT_STEP_US);
		sched__waiting(pvmmon_clock_now(), call->t0, 0);
	}
	cur.local = 0;
}

/* Takes what was decided (grant): by source and tag, with libpvm3's own matcher. */
static void take(hooks_call *call, int tid, int tag, int kind, int64_t first_at)
{
	const stash_entry *plain, *taken;
	hooks_matcher matcher;
	int64_t now;

	cur.kind = WIRE_PW_RUNNING;
	now = pvmmon_clock_now();
	plain = hooks__pr_first_match(tid, tag);
	/* Held: waiting that the uninstrumented program would not have had. A blocking
	 * receive would have waited until a message came; the others not at all. */
	if (kind == WIRE_PW_RECV)
		call->pr_held = first_at ? now - first_at : 0;
	else
		call->pr_held = now - call->t_wait;
	if (grant.verdict == WIRE_PG_NONE) {
		call->pr_reordered = plain != NULL;
		call->skip = 1;
		call->skip_rc = 0;
		if (kind == WIRE_PW_TRECV) {
			call->pr_timeout_vt = cur.deadline;
			wait_deadline(call, cur.deadline);
		}
		return;
	}
	call->pr_reordered = !plain || plain->src != grant.src || plain->tag != grant.tag;
	/* What a receive from any source took: a relayed message found earlier is said. */
	if (tid == -1 && (taken = hooks__pr_first_match(grant.src, grant.tag)) != NULL)
		hooks__prl_taken(taken->vs + vclock__trans_estimate(hooks__clock(), taken->bytes));
	/* The chosen message is taken by source and tag with libpvm3's own matcher: a
	 * matcher the program installed has had its say in the candidates. */
	matcher = hooks__matcher_default();
	switch (call->op) {
	case HOOKS_OP_pvm_precv:
		call->ovr = 1;
		call->ovr_tid = grant.src;
		call->ovr_tag = grant.tag;
		break;
	case HOOKS_OP_pvm_probe:
		call->skip = 1;
		call->skip_rc = hooks__pvm.probe(grant.src, grant.tag);
		break;
	case HOOKS_OP_pvm_nrecv:
		call->skip = 1;
		call->skip_rc = hooks__pvm.nrecv(grant.src, grant.tag);
		break;
	default:
		/* The message is queued: this does not block. */
		call->skip = 1;
		call->skip_rc = hooks__pvm.recv(grant.src, grant.tag);
	}
	hooks__matcher_restore(matcher);
}

/* In a traced run, the monitor records a receive decided here too (a running report
 * at the receive's start, with its candidates): one control message a decision, only
 * when tracing. */
static void tell_decided(int src, int tag)
{
	told.on = 1;
	told.src = src;
	told.tag = tag;
	told.window = hooks__prl_umax();
	told.horizon = hooks__prl_horizon() == PRL_NEVER ? PRL_NEVER
	                                                  : hooks__from_common(hooks__prl_horizon());
	send_report(0, WIRE_PW_RUNNING, cur.vt);
	told.on = 0;
}

/*
 * A blocking receive from any source decided here, with no control message, waiting
 * (hooks__prl_until, from the first candidate's arrival) for the piggybacks, block
 * notices and board slots that would allow it: 1 with the choice in grant, or 0: ask
 * the monitor. It asks at once when only the monitor can decide (a candidate's sender
 * the bounds do not know; the least bound a task blocked on anyone) or when the
 * monitor asked (a decision there waits for this task). With no candidate it waits
 * for one as a blocked receive does: up to the wait threshold, after which the
 * monitor is told (waits.c). PLAIN_WAY: an unmonitored message came first.
 */
static int decide_here(hooks_call *call, int64_t *first_at)
{
	int64_t now, step, until;
	int found, timer = 0;

	cur.local = 1;
	cur.asked = 0;
	while (hooks__prl_valid() && !channel__lost()) {
		/* A message from an unmonitored sender (a pvmd's notify message) came first:
		 * the receive goes its plain way, as when it was there at the start. Looked at
		 * before every wait: one already read into libpvm3's queue wakes none. */
		if (unmonitored_first(cur.src, cur.tag, &found)) {
			cur.local = cur.asked = 0;
			return PLAIN_WAY;
		}
		if (decided_here()) {
			cur.local = 0;
			/* The monitor's question: this task runs from the receive's start on (in a
			 * traced run the report names the choice, for the log's record of it). */
			if (hooks__trace_on() && grant.verdict == WIRE_PG_TAKE)
				tell_decided(grant.src, grant.tag);
			else if (cur.asked)
				send_report(0, WIRE_PW_RUNNING, cur.vt);
			if (cur.asked)
				cur.watched = 1;
			cur.asked = 0;
			return 1;
		}
		if (ps.why == PRC_MONITOR || cur.asked || cur.watched)
			break;
		now = pvmmon_clock_now();
		if (ps.why == PRC_NONE) {
			until = call->t_wait + wait_threshold();
			step = until - now;
			timer = 0;
		} else {
			until = hooks__prl_until(ps.need, *first_at ? *first_at : call->t_wait, now,
			                         cur.deadline != INT64_MAX, wait_threshold(), &step, &timer);
		}
		if (now >= until) {
			/* A wait for news (not an immediate question to the monitor, not the wait
			 * for a first candidate) that its timer ended. */
			if (timer)
				ps.ntimed++;
			break;
		}
		/* Waiting here, it sends nothing: a task waiting for its news is told; and
		 * the tasks that may wait silently while they hold the choice (not the wait
		 * for a candidate) are asked for their news. Sent: the queue is looked at
		 * again before the wait. */
		if (tell_away() + (ps.why != PRC_NONE ? watch_holder() : 0) > 0)
			continue;
		drain(step / 1000 < WAIT_STEP_US ? (long)(step / 1000) + 1 : WAIT_STEP_US);
		if (!*first_at && hooks__pr_first_match(cur.src, cur.tag))
			*first_at = pvmmon_clock_now();
	}
	cur.local = 0;
	cur.asked = 0;
	return 0;
}

void hooks__pr_before(hooks_call *call, int tid, int tag, int nonblock, const struct timeval *tmout)
{
	int kind, found, here;
	int64_t first_at = 0;

	if (!ps.on || channel__lost())
		return;
	/* Under the program's own matcher, the matcher decides what a receive accepts:
	 * the monitor is told "any source, any tag" and the candidates are what the
	 * matcher accepts. pvm_precv narrows its source and tag itself: it goes its way. */
	hooks__prs.spy = hooks__user_matcher();
	if (hooks__prs.spy && call->op == HOOKS_OP_pvm_precv)
		return;
	drain(0);
	if (unmonitored_first(tid, tag, &found))
		return;
	hooks__prs.usrc = tid;
	hooks__prs.utag = tag;
	if (hooks__prs.spy)
		tid = tag = -1;
	cur.src = tid;
	cur.tag = tag;
	cur.vt = call->v0;
	cur.deadline = INT64_MAX;
	set_site(call);
	if (nonblock) {
		kind = call->op == HOOKS_OP_pvm_probe ? WIRE_PW_PROBE : WIRE_PW_NRECV;
		cur.deadline = call->v0;
	} else if (tmout) {
		kind = WIRE_PW_TRECV;
		cur.deadline =
		    call->v0 + (int64_t)tmout->tv_sec * 1000000000 + (int64_t)tmout->tv_usec * 1000;
	} else if (tid != -1) {
		/* Messages of one sender come in its order: a blocking receive from one source
		 * takes the same message in every run. It only has to say when it blocks. */
		if (!found)
			wait_blocked(call, tid, tag);
		return;
	} else {
		kind = WIRE_PW_RECV;
	}
	call->t_wait = pvmmon_clock_now();
	if (hooks__pr_first_match(tid, tag))
		first_at = call->t_wait;
	else if (kind == WIRE_PW_RECV && !hooks__prs.spy)
		/* Blocked on anyone: the tasks that decide by their bounds may learn from it
		 * that nothing moves but by their own sends (prlocal.c). */
		ps.nnotices +=
		    (uint32_t)hooks__prl_tell_any(hooks__to_common(cur.vt), hooks__pr_seen_from,
		                                  hooks__pr_sent_to_count, hooks__pr_alone_with);
	cur.t_block = kind == WIRE_PW_RECV ? call->t_wait : 0;
	/* A blocking receive from any source: decided here when the bounds allow. */
	here = local_kind(kind) ? decide_here(call, &first_at) : 0;
	if (here == PLAIN_WAY ||
	    (here == 0 && ask_monitor(call, tid, tag, kind, &first_at) == PLAIN_WAY)) {
		cur.t_block = 0;
		return;
	}
	cur.t_block = 0;
	take(call, tid, tag, kind, first_at);
}

void hooks__pr_after(hooks_call *call)
{
	pvmmon_log_stmt *st;

	if (!call->t_wait)
		return;
	st = hooks__stmt(call->site, call->op);
	recstmt__add_held(st, call->pr_reordered, call->pr_held);
	/* A timeout decided by virtual time ends at its virtual deadline. */
	if (call->pr_timeout_vt) {
		int64_t i = pvmmon_clock_now() - call->pr_timeout_vt;

		vclock__set_intrusion(hooks__clock(), i);
		call->clock_done = 1;
	}
}
