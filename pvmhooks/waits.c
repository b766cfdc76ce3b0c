/*
 * Wait reports (pvmhooks/waits.h): a blocking receive waits in slices of the real
 * pvm_trecv. The first slice is the threshold; a message in it costs nothing more than
 * the plain call. After it the task sends WAIT (what it waits for, at which
 * statement, what it sent to and received from each partner, what is queued from the
 * awaited source that the receive does not take), then waits on in slices, flushing its
 * records when due and taking the monitor's commands, re-sending WAIT when the queue
 * changes, and sends WAITEND when the receive completes. A slice that times out is
 * invisible to the program: pvm_trecv, like pvm_recv, frees the current receive buffer
 * at its start and uses the current matcher, and the last slice's result is returned.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pvm3.h>

#include "clocksync.h"
#include "pvmmon/errors.h"
#include "piggyback.h"
#include "sched.h"
#include "slicetimer.h"
#include "vclock.h"
#include "waits.h"

#define DEFAULT_THRESHOLD_NS 100000000LL
/* Slices after the first: short enough that a message the awaited source queues with
 * another tag is reported well within the monitor's second, long enough to cost
 * nothing measurable. */
#define SLICE_NS 100000000LL

static struct {
	int64_t threshold; /* -1: not read yet */
	uint32_t seq;      /* waits reported */
	uint64_t reports;  /* WAIT and WAITEND sent */
	pvmmon_log_stmt *(*stmt)(void *site, hooks_op op);
} ws = {.threshold = -1};

void waits__configure(int64_t threshold_ns) { ws.threshold = threshold_ns; }

int64_t waits__threshold(void)
{
	if (ws.threshold < 0) {
		const char *e = getenv("PVMMON_WAIT_MS");

		ws.threshold = e && *e ? atoll(e) * 1000000LL : DEFAULT_THRESHOLD_NS;
		if (ws.threshold < 0)
			ws.threshold = DEFAULT_THRESHOLD_NS;
	}
	return ws.threshold;
}

void waits__set_stmt(pvmmon_log_stmt *(*stmt)(void *site, hooks_op op)) { ws.stmt = stmt; }

uint64_t waits__reports(void) { return ws.reports; }

/* The wait being reported: its report, as sent last. */
typedef struct wait_state {
	wire_wait w;
	wire_wqueued queued[WIRE_WAIT_MAX_QUEUED];
	int sent;          /* a WAIT went out */
	uint64_t nsent_at; /* the task's messages sent when its counts were taken */
	int64_t at, v0;    /* the call's start (real, virtual): flushes give the records
	                    * as of then, the wait's virtual start */
} wait_state;

static int send_wait(wait_state *st)
{
	wire_buf b;
	int rc = PVMMON_ENOMEM;

	wire__buf_init(&b);
	wire__wait_encode(&b, &st->w);
	if (!b.failed)
		rc = channel__send(WIRE_TAG_WAIT, b.data, b.len);
	wire__buf_free(&b);
	if (rc == 0)
		ws.reports++;
	return rc;
}

/* Looks at what is queued from the awaited source; 1 when it differs from the last
 * report's. */
static int look_at_queue(wait_state *st)
{
	wire_wqueued q[WIRE_WAIT_MAX_QUEUED];
	int total = channel__queued(q, WIRE_WAIT_MAX_QUEUED, st->w.src);
	int n = total < 0 ? 0 : total > WIRE_WAIT_MAX_QUEUED ? WIRE_WAIT_MAX_QUEUED : total;

	if (total < 0)
		total = 0;
	if ((uint32_t)n == st->w.nqueued && (uint32_t)total == st->w.queued_total &&
	    !memcmp(q, st->queued, sizeof(*q) * (size_t)n))
		return 0;
	memcpy(st->queued, q, sizeof(*q) * (size_t)n);
	st->w.nqueued = (uint32_t)n;
	st->w.queued_total = (uint32_t)total;
	return 1;
}

/* The report of the wait that began at t_start: the statement, the counts, the
 * queue. The report names the call site itself, so no flush is forced here: the
 * records go at the flush period, while the task waits too. Whatever runs between
 * slices delays a message that arrives meanwhile, which the virtual clock would take
 * for transmission, so it is kept to the commands, a queue walk and the report. */
static void first_report(wait_state *st, hooks_call *call, int op, int tid, int tag,
                         int64_t t_start, int64_t deadline)
{
	pvmmon_log_stmt *s = ws.stmt ? ws.stmt(call->site, call->op) : NULL;
	int64_t at = st->at, v0 = st->v0;

	/* The state is cleared here, for the waits that come to a report: a receive that
	 * completes within the threshold clears none of its (half a kilobyte). */
	memset(st, 0, sizeof(*st));
	st->at = at;
	st->v0 = v0;
	sched__waiting(pvmmon_clock_now(), st->at, 0);
	st->w.seq = ++ws.seq;
	st->w.op = (uint8_t)op;
	st->w.src = tid;
	st->w.tag = tag;
	st->w.ctx = hooks__pvm.getcontext ? hooks__pvm.getcontext() : 0;
	st->w.stmt = s ? s->id : 0;
	st->w.module = s ? s->module : NULL;
	st->w.offset = s ? s->offset : 0;
	st->w.rt_start = hooks__to_common(t_start);
	st->w.vt_start = st->v0;
	st->w.deadline = deadline ? hooks__to_common(deadline) : 0;
	st->w.npeers = (uint32_t)hooks__pair_counts(&st->w.peers);
	st->nsent_at = hooks__counts()->msgs_sent;
	st->w.queued = st->queued;
	look_at_queue(st);
	st->sent = send_wait(st) == 0;
}

static int slice(int tid, int tag, int64_t ns)
{
	struct timeval tv = {(time_t)(ns / 1000000000LL), (suseconds_t)(ns % 1000000000LL / 1000)};
	int rc;

	slicetimer__begin();
	rc = hooks__pvm.trecv(tid, tag, &tv);
	slicetimer__end();
	return rc;
}

/* Each slice after the first: the monitor's commands, the flush when due, and a new
 * report when the queue or the task's sent counts changed. */
static void between_slices(wait_state *st, int64_t now)
{
	int changed;

	sched__waiting(now, st->at, 0);
	changed = look_at_queue(st);
	/* A message handler may have sent while the task waits: the monitor must have the
	 * counts as they are. */
	if (hooks__counts()->msgs_sent != st->nsent_at) {
		free(st->w.peers);
		st->w.npeers = (uint32_t)hooks__pair_counts(&st->w.peers);
		st->nsent_at = hooks__counts()->msgs_sent;
		changed = 1;
	}
	if (changed && st->sent)
		send_wait(st);
}

/* The wait is over at real time t: WAITEND when a WAIT went. */
static void wait_over(wait_state *st, int64_t t)
{
	/* Never reported: nothing went out, nothing was allocated. */
	if (!st->w.seq)
		return;
	if (st->sent) {
		wire_buf b;

		wire__buf_init(&b);
		wire__waitend_encode(&b, &(wire_waitend){st->w.seq, hooks__to_common(t)});
		if (!b.failed && channel__send(WIRE_TAG_WAITEND, b.data, b.len) == 0)
			ws.reports++;
		wire__buf_free(&b);
	}
	free(st->w.peers);
	memset(st, 0, sizeof(*st));
}

/* The sliced wait from t_start (until deadline, 0: none): the last slice's result, and
 * its stamps in *s1, *s2. */
static int wait_slices(hooks_call *call, int tid, int tag, int64_t t_start, int64_t deadline,
                       int64_t *s1, int64_t *s2)
{
	int64_t len = waits__threshold();
	wait_state st;
	int rc;

	/* What a report needs is set by first_report. */
	st.w.seq = 0;
	st.at = call->t0;
	st.v0 = call->v0;
	for (;;) {
		*s1 = pvmmon_clock_now();
		if (deadline && deadline - *s1 < len)
			len = deadline - *s1 > 0 ? deadline - *s1 : 0;
		rc = slice(tid, tag, len);
		*s2 = pvmmon_clock_now();
		if (rc != 0 || (deadline && *s2 >= deadline))
			break;
		if (!st.w.seq)
			first_report(&st, call, deadline ? WIRE_WAIT_TRECV : WIRE_WAIT_RECV, tid,
			             tag, t_start, deadline);
		else
			between_slices(&st, *s2);
		len = SLICE_NS;
	}
	wait_over(&st, *s2);
	return rc;
}

static int may_wait(const hooks_call *call)
{
	return waits__threshold() > 0 && !call->skip && !call->ovr &&
	       hooks__state() == HOOKS_ACTIVE && !channel__lost();
}

/*
 * Polling waits. A task polls while its wrapped calls are empty polls (pvm_nrecv,
 * pvm_probe, or pvm_trecv with a timeout within the threshold, finding nothing) of one
 * statement with one source, tag and context, one right after the other: no other
 * wrapped call between them (a message handler's included) and no gap between one
 * poll's end and the next one's start longer than the threshold (a task that goes
 * away for that long between polls is doing something else). Once such a run of
 * polls has lasted longer than the threshold, the task sends WAIT (WIRE_WAIT_POLL);
 * the next wrapped call of any other kind, before it does anything (hooks__begin), a
 * poll that finds something or one of another pattern ends it with WAITEND. An empty
 * poll costs a few comparisons and pvm_getcontext (no system call); the queue is
 * looked at once per SLICE_NS while a reported poll goes on.
 */
int waits__polling;
static struct {
	int on;                   /* a run of empty polls is under way */
	void *site;               /* its statement */
	int tid, tag, ctx;        /* its pattern */
	uint64_t ncalls;          /* the wrapped calls begun, as of its last poll */
	int64_t t_start, v_start; /* its first poll's entry */
	int64_t t_last;           /* its last poll's end */
	int64_t t_look;           /* the last look at the queue */
	wait_state st;            /* its report (st.w.seq: reported) */
} polls;

void waits__poll_end(int64_t now)
{
	wait_over(&polls.st, now);
	memset(&polls, 0, sizeof(polls));
	waits__polling = 0;
}

void waits__poll(hooks_call *call, int rc, int tid, int tag)
{
	int ctx;

	if (rc != 0 || !may_wait(call)) {
		if (polls.on)
			waits__poll_end(call->t2);
		return;
	}
	ctx = hooks__pvm.getcontext ? hooks__pvm.getcontext() : 0;
	if (!polls.on || call->site != polls.site || tid != polls.tid || tag != polls.tag ||
	    ctx != polls.ctx || hooks__ncalls() != polls.ncalls + 1 ||
	    call->t0 - polls.t_last > waits__threshold()) {
		if (polls.on)
			waits__poll_end(call->t0);
		polls.on = 1;
		polls.site = call->site;
		polls.tid = tid;
		polls.tag = tag;
		polls.ctx = ctx;
		polls.t_start = call->t0;
		polls.v_start = call->v0;
	}
	polls.ncalls = hooks__ncalls();
	polls.t_last = call->t2;
	if (!polls.st.w.seq) {
		if (call->t2 - polls.t_start < waits__threshold())
			return;
		/* Records flushed meanwhile are as of this poll's start. */
		polls.st.at = call->t0;
		polls.st.v0 = polls.v_start;
		first_report(&polls.st, call, WIRE_WAIT_POLL, tid, tag, polls.t_start, 0);
		polls.t_look = call->t2;
		waits__polling = polls.st.sent;
	} else if (call->t2 - polls.t_look >= SLICE_NS) {
		/* Only the queue can change while the task polls: a send would have ended
		 * the run. */
		polls.t_look = call->t2;
		if (look_at_queue(&polls.st) && polls.st.sent)
			send_wait(&polls.st);
	}
}

int waits__receive(hooks_call *call, int tid, int tag, const struct timeval *tmout)
{
	int64_t t_start = pvmmon_clock_now(), deadline = 0, ns = 0, s1, s2;
	int rc;

	if (tmout) {
		ns = (int64_t)tmout->tv_sec * 1000000000LL + (int64_t)tmout->tv_usec * 1000;
		/* A pvm_trecv within the threshold is the wrapper's, and may be a poll. */
		if (ns <= waits__threshold())
			return 0;
	}
	/* A blocking receive is no poll, whether it waits in slices or not. */
	if (polls.on)
		waits__poll_end(t_start);
	if (!may_wait(call))
		return 0;
	if (tmout)
		deadline = t_start + ns;
	rc = wait_slices(call, tid, tag, t_start, deadline, &s1, &s2);
	call->skip = 1;
	call->skip_rc = rc;
	/* The wait began at the first slice; a message is received by the last slice (its
	 * stamps are the receive's own), nothing by the whole wait. */
	call->t_wait = t_start;
	call->skip_t1 = rc > 0 ? s1 : t_start;
	call->skip_t2 = s2;
	return 1;
}

/*
 * pvm_precv: libpvm3's pvm_precv keeps the program's receive buffer and takes the
 * message with its own pvm_recv, which reaches the wrapper re-entered. The wait takes
 * the message first, with the program's buffer set aside as pvm_precv sets it, and
 * hands it to that pvm_recv (waits__handoff).
 */
int waits__pending;
static struct {
	int tid, tag, rc;
} handoff;

int waits__precv(hooks_call *call, int tid, int tag)
{
	int64_t t_start, s1, s2;
	int rb, rc;

	if (polls.on)
		waits__poll_end(pvmmon_clock_now());
	if (!may_wait(call) || !hooks__pvm.setrbuf)
		return 0;
	t_start = pvmmon_clock_now();
	rb = hooks__pvm.setrbuf(0);
	rc = wait_slices(call, tid, tag, t_start, 0, &s1, &s2);
	/* The message's buffer stays, inactive, for pvm_precv's own receive. */
	hooks__pvm.setrbuf(rb);
	handoff.tid = tid;
	handoff.tag = tag;
	handoff.rc = rc;
	waits__pending = 1;
	call->t_wait = t_start;
	return 1;
}

int waits__handoff(int op, ...)
{
	va_list ap;
	int tid, tag, old;

	if (op != HOOKS_OP_pvm_recv || !waits__pending)
		return WAITS_NO_HANDOFF;
	va_start(ap, op);
	tid = va_arg(ap, int);
	tag = va_arg(ap, int);
	va_end(ap);
	if (tid != handoff.tid || tag != handoff.tag)
		return WAITS_NO_HANDOFF;
	waits__pending = 0;
	if (handoff.rc > 0) {
		/* As pvm_recv does: the message's buffer becomes the receive buffer, and the
		 * one before it (pvm_precv has set none) is freed. */
		old = hooks__pvm.setrbuf(handoff.rc);
		if (old > 0 && hooks__pvm.freebuf)
			hooks__pvm.freebuf(old);
	}
	return handoff.rc;
}

void waits__precv_end(void)
{
	/* pvm_precv returned without receiving (its arguments refused): the message it
	 * would have taken is freed, which the program cannot tell from a message never
	 * taken only if it receives again; said once. */
	if (waits__pending) {
		static int said;

		waits__pending = 0;
		if (handoff.rc > 0 && hooks__pvm.freebuf)
			hooks__pvm.freebuf(handoff.rc);
		if (!said++)
			fprintf(stderr, "pvmmon: pvm_precv returned without taking the message "
			                "pvmmon waited for\n");
	}
}

/*
 * A replay's forced waits (rr.c, mhf.c): one at a time (they never nest: a message
 * handler cannot receive). Reported as a blocking receive is, so that the monitor, which
 * sees every task's wait, can tell when the recorded message can never come
 * (WIRE_CTL_CANNOT_COME, kept here as the verdict on this wait).
 */

/* A forced receive's step: a blocking receive's slice. */
#define FORCED_STEP_MS 100
/* A forced probe's look at the queue: short, a probe returns at once when the message
 * is there. */
#define PROBE_STEP_US 1000
/* How long a forced wait whose sender has ended waits for the monitor's verdict, which
 * names how it ended (the monitor decides as it learns of the end, and of a crash
 * 500 ms after). */
#define VERDICT_WAIT_NS 1000000000LL
/* A forced wait whose sender has not ended, and whose message the monitor has not found
 * impossible, waits as long as it takes, as the recorded run did (a sender may compute
 * for hours before it sends); after this long it says once what it waits for, so that
 * a user can tell a long wait from a stuck replay. */
#define NOTE_MS 30000

/* NOTE_MS, or PVMMON_TEST_REPLAY_NOTE_MS (tests only, whole steps). */
static int note_ms(void)
{
	static int ms;

	if (!ms) {
		const char *e = getenv("PVMMON_TEST_REPLAY_NOTE_MS");
		int v = e && *e ? atoi(e) : 0;

		ms = v <= 0               ? NOTE_MS
		     : v < FORCED_STEP_MS ? FORCED_STEP_MS
		                          : v / FORCED_STEP_MS * FORCED_STEP_MS;
	}
	return ms;
}

static struct {
	wait_state st;
	int on;             /* a forced wait is under way */
	int64_t t_start;    /* its start */
	int64_t last;       /* its last look between steps */
	uint32_t verdict;   /* the wait number the monitor's verdict names (0: none) */
	char why[768];      /* the verdict's words */
	char said_why[768]; /* the last finished wait's verdict, for its caller's report */
} fw;

void waits__forced_tick(hooks_call *call, int src, int tag)
{
	int64_t now = pvmmon_clock_now();

	if (!fw.on) {
		/* A handler delivery may wait at a call's very start, before its stamps: the
		 * wait's own start stands for them. */
		memset(&fw.st, 0, sizeof(fw.st));
		fw.st.at = now;
		fw.st.v0 = vclock__virtual(hooks__clock(), now);
		fw.on = 1;
		fw.verdict = 0;
		fw.t_start = fw.last = now;
		return;
	}
	if (waits__threshold() <= 0 || hooks__state() != HOOKS_ACTIVE || channel__lost())
		return;
	/* Callers look every millisecond (a handler's delivery, a probe) or every step of a
	 * forced receive: the report and the commands go at the slices' pace. */
	if (!fw.st.w.seq) {
		if (now - fw.t_start >= waits__threshold()) {
			first_report(&fw.st, call, WIRE_WAIT_FORCED, src, tag, fw.t_start, 0);
			fw.last = now;
		}
	} else if (now - fw.last >= SLICE_NS) {
		between_slices(&fw.st, now);
		fw.last = now;
	}
}

const char *waits__forced_verdict(void)
{
	return fw.on && fw.st.w.seq && fw.verdict == fw.st.w.seq ? fw.why : NULL;
}

void waits__forced_end(void)
{
	if (!fw.on)
		return;
	wait_over(&fw.st, pvmmon_clock_now());
	fw.on = 0;
	fw.verdict = 0;
}

int waits__control(const wire_ctl *c)
{
	if (c->cmd != WIRE_CTL_CANNOT_COME)
		return 0;
	/* A verdict on a wait that is over (its message came meanwhile) is stale. */
	if (fw.on && fw.st.w.seq && c->gen == fw.st.w.seq) {
		snprintf(fw.why, sizeof(fw.why), "%s", c->procs ? c->procs : "it cannot come");
		fw.verdict = c->gen;
	}
	return 1;
}

/* Whether task src has ended (pvmd no longer knows it). */
static int ended(int src) { return hooks__pvm.pstat && hooks__pvm.pstat(src) != PvmOk; }

int waits__forced(hooks_call *call, int src, int tag, int take, const char *who, uint64_t event,
                  const char **why)
{
	struct timeval tv = {0, FORCED_STEP_MS * 1000};
	int64_t t0 = pvmmon_clock_now(), gone_at = 0, looked = t0, now;
	int b = 0, noted = 0;
	/* The recorded message is named by source and tag: a matcher the program installed
	 * with pvm_recvf() must not pick another (what it picked then is what was
	 * recorded). */
	hooks_matcher m = hooks__matcher_default();

	*why = NULL;
	waits__forced_tick(call, src, tag);
	for (;;) {
		if (take)
			b = hooks__pvm.trecv(src, tag, &tv);
		else if ((b = hooks__pvm.probe(src, tag)) == 0)
			usleep(PROBE_STEP_US);
		if (b != 0)
			break;
		now = pvmmon_clock_now();
		waits__forced_tick(call, src, tag);
		if (waits__forced_verdict()) {
			snprintf(fw.said_why, sizeof(fw.said_why), "%s", fw.why);
			*why = fw.said_why;
			break;
		}
		/* pvm_pstat asks pvmd: a probe's 1 ms steps look at a receive's pace. */
		if (!gone_at && (take || now - looked >= FORCED_STEP_MS * 1000000LL)) {
			looked = now;
			if (ended(src))
				gone_at = now;
		}
		/* A sender that has ended: when the monitor knows of this wait, a moment for
		 * its verdict, which says how the sender ended; then one more look. */
		if (gone_at && (!fw.st.sent || now - gone_at > VERDICT_WAIT_NS)) {
			b = take ? hooks__pvm.nrecv(src, tag) : hooks__pvm.probe(src, tag);
			break;
		}
		if (!noted && now - t0 >= (int64_t)note_ms() * 1000000) {
			noted = 1;
			fprintf(
			    stderr,
			    "pvmmon: replay: task %s has waited %.1f s at event %" PRIu64
			    " for the recorded message from %s (tag %d); %s has not ended and "
			    "nothing shows yet that the message cannot come, so the replay waits "
			    "for it\n",
			    hooks__lid() ? hooks__lid() : "?", note_ms() / 1000.0, event, who, tag,
			    who);
		}
	}
	hooks__matcher_restore(m);
	waits__forced_end();
	return b;
}
