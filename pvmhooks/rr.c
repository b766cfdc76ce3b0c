/*
 * Record and replay in a task: each outcome of a call that can differ between runs
 * (which message a wildcard receive took, whether pvm_nrecv / pvm_probe found one,
 * whether pvm_trecv timed out, how many children pvm_spawn started, which task a pvmd
 * notify message names, which message a pvm_addmhf handler took during which call; group
 * answers in rrgroup.c) is appended to a compact stream (replay/) that goes to the
 * monitor with each flush. A
 * replay takes the task's recorded stream from the monitor and forces each outcome: a
 * recorded message is received from exactly its sender and tag (blocking until it is
 * there), a recorded miss or timeout is answered without touching what has arrived
 * since; every outcome is checked, and the first difference stops the run with a
 * report.
 */
#include <dlfcn.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pvm3.h>

#include "rr.h"
#include "rrstop.h"
#include "sources.h"
#include "sched.h"
#include "trace.h"
#include "waits.h"
#include "pvmmon/errors.h"
#include "../replay/replay.h"

#define LID_TIMEOUT_MS 30000

/* The record and replay state of this task. */
static struct {
	hooks_rr_mode mode_now;
	/* Whether message handlers took a message the record never had them take (mhf.c's
	 * test, given at install: the handlers' code is above the replay's). */
	int (*unexpected_by)(int *src, int *tag);
	replay_enc enc;
	wire_buf chunk;
	/* The replay: the recorded entries, the next one, and the senders' logical ids
	 * with the tids they have in this run (0 until asked). */
	replay_entry *rec, cur; /* cur: the entry the current call is replaying */
	size_t nrec, next;
	/* The record's handler deliveries apart (mhf.c makes them at their positions),
	 * the next one, and each entry's number in the whole record (counted from 1), by
	 * which reports and --stop-at name events. */
	replay_entry *hrec;
	size_t nhrec, hnext;
	uint64_t *rec_no, *hrec_no;
	uint64_t at_event; /* the number of the event being replayed */
	/* Notify messages a forced receive took while looking for another one of the same
	 * sender and tag: the receives they were recorded for take them from here. */
	int *held_notes;
	size_t nheld_notes, cap_notes;
	char **lids;
	int32_t *lid_tids;
	size_t nlids;
	int diverged;
	int keep_going; /* on a divergence, go on recording instead of stopping */
} rs;

hooks_rr_mode hooks__rr_mode(void) { return rs.mode_now; }

void hooks__rr_unexpected_by(int (*unexpected)(int *src, int *tag))
{
	rs.unexpected_by = unexpected;
}

/* The number of the event after the record's last (clock and pid reads included). */
static uint64_t end_event(void) { return rs.nrec + rs.nhrec + hooks__src_count() + 1; }

/* The name of a task for a report: a recorded id (an index into the logical ids), or a
 * tid of this run (by_tid), by its logical id when the record knows it. */
void hooks__rr_name_of(char *buf, size_t len, int32_t id, int by_tid)
{
	if (by_tid) {
		for (size_t k = 0; k < rs.nlids; k++)
			if (rs.lid_tids[k] && rs.lid_tids[k] == id) {
				snprintf(buf, len, "task %s", rs.lids[k]);
				return;
			}
		snprintf(buf, len, "t%x", (unsigned)id);
	} else {
		snprintf(buf, len, "task %s", id >= 0 && (size_t)id < rs.nlids ? rs.lids[id] : "?");
	}
}

/* Describes entry e for a report, with senders by logical id. */
static void describe(char *buf, size_t len, const replay_entry *e, int by_tid)
{
	const char *op = pvmmon_event_op_name((pvmmon_event_op)e->op);
	char who[128], what[128];

	switch (e->kind) {
	case REPLAY_HANDLED:
		hooks__rr_name_of(who, sizeof(who), e->sender, by_tid);
		snprintf(buf, len, "a message handler took a message from %s with tag %d "
				   "(sequence %+d) during %s, call %d",
			 who, (int)e->tag, (int)e->seq_delta,
			 e->op == PVMMON_EV_OTHER ? "another PVM call" : op ? op : "?", (int)e->value);
		break;
	case REPLAY_NOTIFY:
		hooks__rr_name_of(who, sizeof(who), e->sender, by_tid);
		hooks__rr_name_of(what, sizeof(what), e->value, by_tid);
		snprintf(buf, len, "%s took a notify message from %s with tag %d about %s",
			 op ? op : "?", who, (int)e->tag, what);
		break;
	case REPLAY_MSG:
		/* An observed sender by its logical id when the record knows it. */
		hooks__rr_name_of(who, sizeof(who), e->sender, by_tid);
		snprintf(buf, len, "%s took a message from %s with tag %d (sequence %+d)",
			 op ? op : "?", who, (int)e->tag, (int)e->seq_delta);
		break;
	case REPLAY_NONE:
		snprintf(buf, len, "%s found no message", op ? op : "?");
		break;
	case REPLAY_TIMEOUT:
		snprintf(buf, len, "%s timed out", op ? op : "?");
		break;
	case REPLAY_SOURCE:
		snprintf(buf, len, "%s returned %" PRId64, replay__source_name(e->op), e->reading);
		break;
	case REPLAY_GROUP:
		hooks__rr_describe_group(buf, len, e, by_tid);
		break;
	case REPLAY_SPAWN:
		if (e->op == PVMMON_EV_JOINGROUP) /* as records of log version 1.8 have it */
			snprintf(buf, len, "pvm_joingroup gave instance %d", (int)e->value);
		else
			snprintf(buf, len, "%s started %d tasks", op ? op : "?", (int)e->value);
		break;
	}
}

/* Reports the first difference to the monitor, which stops the run, and waits to be
 * stopped: going on would only add consequences of the difference. */
static void diverge_at(void *site, const char *op, const char *expected, const char *observed)
{
	wire_diverged d;
	wire_buf b;
	Dl_info info;
	uint64_t off = 0;
	const char *module = NULL;
	int i;

	if (rs.diverged++)
		return;
	if (site && dladdr(site, &info) && info.dli_fname) {
		module = info.dli_fname;
		off = (uint64_t)((char *)site - (char *)info.dli_fbase);
	}
	d = (wire_diverged){rs.at_event, (char *)module,   off,
	                    (char *)op,  (char *)expected, (char *)observed};
	wire__buf_init(&b);
	wire__diverged_encode(&b, &d);
	if (!b.failed)
		channel__send(WIRE_TAG_DIVERGED, b.data, b.len);
	wire__buf_free(&b);
	if (rs.keep_going) {
		/* The rest of the run is a new recording (it has been recording all along). */
		rs.mode_now = HOOKS_RR_RECORD;
		return;
	}
	/* The monitor ends the run; a task left waiting that long, or told by pvmd that
	 * the monitor has ended (it stops the tasks of a private virtual machine only),
	 * ends itself. */
	for (i = 0; i < 600 && !channel__check_lost_quietly(); i++)
		usleep(100000);
	_exit(3);
}

static void diverge(const hooks_call *call, const char *expected, const char *observed)
{
	/* Events are counted from 1, as the user reads them. Calls without an event op of
	 * their own (pvm_delmhf, pvm_exit) go by their name. */
	diverge_at(call ? call->site : NULL,
		   !call ? pvmmon_event_op_name(PVMMON_EV_OTHER)
		   : hooks__event_op(call->op) ? pvmmon_event_op_name(hooks__event_op(call->op))
					       : hooks__op_names[call->op],
		   expected, observed);
}

void hooks__rr_diverge_source(void *site, const char *call, uint64_t event, const replay_entry *exp,
			      const char *observed)
{
	char e[512];

	if (exp)
		describe(e, sizeof(e), exp, 0);
	else
		snprintf(e, sizeof(e), "no more reads of clocks or process ids");
	/* Reading past the record's end: the event after its last. */
	rs.at_event = event ? event : end_event();
	diverge_at(site, call, e, observed);
}

void hooks__rr_add(const replay_entry *e)
{
	if (rs.mode_now != HOOKS_RR_OFF)
		replay__enc_add(&rs.enc, e);
}

/* The tid in this run of recorded sender index k (asking the monitor once). */
static int32_t tid_of(int32_t k)
{
	uint8_t *ans = NULL;
	size_t len;
	wire_buf b;
	wire_lidtid lt;
	int32_t tid = 0;

	if (k < 0 || (size_t)k >= rs.nlids)
		return 0;
	if (rs.lid_tids[k])
		return rs.lid_tids[k];
	/* A sender that was no task of the run keeps its tid: pvmd's notify messages come
	 * from TIDPVMD (0x80000000) in every run; the console's tid may differ (its
	 * messages then diverge). */
	if (rs.lids[k][0] == 't') {
		rs.lid_tids[k] = (int32_t)strtoul(rs.lids[k] + 1, NULL, 16);
		return rs.lid_tids[k];
	}
	wire__buf_init(&b);
	wire__lid_encode(&b, &(wire_lid){rs.lids[k]});
	if (!b.failed && channel__send(WIRE_TAG_LID, b.data, b.len) == 0 &&
	    channel__recv(&ans, &len, WIRE_TAG_LIDTID, LID_TIMEOUT_MS) == 0 &&
	    wire__lidtid_decode(&lt, ans, len) == 0)
		tid = lt.tid;
	free(ans);
	wire__buf_free(&b);
	rs.lid_tids[k] = tid;
	return tid;
}

/* waits__forced for the recorded message from src with tag (at_event). */
static int forced_wait(hooks_call *call, int src, int tag, int take, const char **why)
{
	char who[64];

	hooks__rr_name_of(who, sizeof(who), src, 1);
	return waits__forced(call, src, tag, take, who, rs.at_event, why);
}

/* Reports that the recorded message from src with tag cannot come (why: the monitor's
 * words, or NULL). It returns only when the replay goes on past a divergence
 * (continue-recording): the call is then the program's own. */
static void cannot_come(hooks_call *call, int src, int tag, const char *why)
{
	char obs[1280], who[64];
	int b;

	hooks__rr_name_of(who, sizeof(who), src, 1);
	b = why || !src ? 0 : hooks__pvm.probe(src, -1);
	if (!src) { /* tid_of() found no such task in this run */
		hooks__rr_name_of(who, sizeof(who), rs.cur.sender, 0);
		snprintf(obs, sizeof(obs), "%s, the recorded sender, is not in this run (its parent "
		         "did not spawn it and no longer can, or it did not start in 30 s)", who);
	} else if (why) {
		snprintf(obs, sizeof(obs), "no message from %s with tag %d can come: %s", who, tag,
		         why);
	} else if (b > 0) {
		int bytes = 0, otag = 0, osrc = 0;

		pvm_bufinfo(b, &bytes, &otag, &osrc);
		snprintf(obs, sizeof(obs),
		         "no message with tag %d came from %s, which has ended; one with tag %d "
		         "is queued",
		         tag, who, otag);
	} else {
		snprintf(obs, sizeof(obs), "no message came from %s, which has ended", who);
	}
	hooks__rr_diverge_obs(call, obs);
}

/* What a replayed receive returns to the program when its recorded message cannot come
 * and the replay goes on past the divergence (continue-recording). */
#define CANNOT_COME (-1)

/* Receives the message from src with tag, or reports that it cannot come (CANNOT_COME). */
static int wait_message(hooks_call *call, int src, int tag)
{
	const char *why;
	int b = forced_wait(call, src, tag, 1, &why);

	if (b != 0)
		return b;
	cannot_come(call, src, tag, why);
	return CANNOT_COME;
}

/* The first integer of message b (a notify message names a tid there), read from a
 * copy so that the program still unpacks b from its start: whether it has one. */
static int first_int(int b, int32_t *v)
{
	int sb = hooks__pvm.mkbuf(PvmDataDefault), old, orb, c, x = 0, found = 0;

	if (sb < 0)
		return 0;
	old = pvm_setsbuf(sb);
	if (hooks__pvm.pkmesg(b) >= 0) {
		orb = pvm_setrbuf(sb);
		c = pvm_upkmesg();
		if (c > 0) {
			pvm_setrbuf(c);
			if (hooks__pvm.upkint(&x, 1, 1) >= 0) {
				*v = x;
				found = 1;
			}
			hooks__pvm.freebuf(c);
		}
		pvm_setrbuf(orb);
	}
	pvm_setsbuf(old);
	hooks__pvm.freebuf(sb);
	return found;
}

/* Makes kept message b the active receive buffer, freeing the current one as a
 * receive would. */
static int activate(int b)
{
	int old = pvm_setrbuf(b);

	if (old > 0 && old != b)
		hooks__pvm.freebuf(old);
	return b;
}

/* Receives the notify message from src (a pvmd) with tag that names task tid: pvmd
 * queues the notify messages of one tag in the order the events happened in this run,
 * so the one the record has may come after others, kept for their own receives. */
static int wait_notify(hooks_call *call, int src, int tag, int32_t tid)
{
	int32_t v;
	int b, bytes, t, s;

	for (size_t i = 0; i < rs.nheld_notes; i++)
		if (pvm_bufinfo(rs.held_notes[i], &bytes, &t, &s) >= 0 && s == src && t == tag &&
		    first_int(rs.held_notes[i], &v) && v == tid) {
			b = rs.held_notes[i];
			memmove(&rs.held_notes[i], &rs.held_notes[i + 1],
			        (rs.nheld_notes - i - 1) * sizeof(*rs.held_notes));
			rs.nheld_notes--;
			return activate(b);
		}
	for (;;) {
		b = wait_message(call, src, tag);
		if (b <= 0)
			return b;
		if (first_int(b, &v) && v == tid)
			return b;
		if (hooks__ensure((void **)&rs.held_notes, &rs.cap_notes, rs.nheld_notes + 1,
		                  sizeof(*rs.held_notes)) < 0)
			return b;
		/* Detached, it stays allocated until its own receive. */
		rs.held_notes[rs.nheld_notes++] = pvm_setrbuf(0);
	}
}

/* The recorded event the next call replays (the one after the record's last at its
 * end). */
static uint64_t next_event(void) { return rs.next < rs.nrec ? rs.rec_no[rs.next] : end_event(); }

void hooks__rr_stop_source(void *site, uint64_t event)
{
	hooks_call c;

	if (rs.mode_now != HOOKS_RR_REPLAY || rs.diverged || !rrstop__due(event))
		return;
	memset(&c, 0, sizeof(c));
	c.site = site;
	rrstop__here(&c, event);
}

void hooks__rr_hold(int on) { rrstop__hold(rs.mode_now == HOOKS_RR_REPLAY && on); }

void hooks__rr_hold_point(hooks_call *call)
{
	/* The hold comes with the control messages polled at wrapped calls (every 10 ms
	 * at most): looking for it at every receive would slow every replay. */
	if (!rs.diverged)
		rrstop__hold_point(call, next_event());
}

/* Drops an earlier init's sender ids and stream (a test's next case starts anew). */
static void forget_senders(void)
{
	while (rs.nlids)
		free(rs.lids[--rs.nlids]);
	free(rs.lids);
	free(rs.lid_tids);
	rs.lids = NULL;
	rs.lid_tids = NULL;
	hooks__rr_forget_groups();
	replay__enc_free(&rs.enc);
	wire__buf_free(&rs.chunk);
}

int hooks__rr_init(hooks_rr_mode mode)
{
	uint8_t *d = NULL;
	size_t len;
	wire_replaydata rd = {0};
	replay_dec dec;
	replay_entry e;
	uint64_t nsrc = 0;
	int rc = -1;

	rs.mode_now = mode;
	forget_senders();
	if (mode == HOOKS_RR_OFF)
		return 0;
	hooks__src_arm();
	/* A replay records too: what it observed is a record of its own, complete even
	 * when it goes on past a divergence. */
	replay__enc_init(&rs.enc);
	wire__buf_init(&rs.chunk);
	if (mode != HOOKS_RR_REPLAY)
		return 0;
	/* The record of this task follows the welcome. */
	if (channel__recv(&d, &len, WIRE_TAG_REPLAYDATA, 30000) != 0) {
		fprintf(stderr, "pvmmon: replay: the monitor sent no record for this task\n");
		goto out;
	}
	if (wire__replaydata_decode(&rd, d, len) < 0 ||
	    !(rs.lid_tids = calloc(rd.nsenders ? rd.nsenders : 1, sizeof(*rs.lid_tids)))) {
		fprintf(stderr, "pvmmon: replay: the record from the monitor is damaged\n");
		goto out;
	}
	rs.keep_going = rd.keep_going;
	rrstop__configure(rd.stop_at);
	/* The senders' ids are this task's from now on. */
	rs.lids = rd.senders;
	rs.nlids = rd.nsenders;
	rd.senders = NULL;
	replay__dec_init(&dec, rd.record, rd.record_len);
	while ((rc = replay__dec_next(&dec, &e)) == 1) {
		int h = e.kind == REPLAY_HANDLED;

		/* Clock and pid reads are replayed by sources.c, apart. */
		if (e.kind == REPLAY_SOURCE) {
			if (hooks__src_load(&e, rs.nrec + rs.nhrec + ++nsrc) < 0) {
				rc = -1;
				break;
			}
			continue;
		}
		if (e.kind == REPLAY_GROUP && !(e.group = hooks__rr_intern_group(e.group))) {
			rc = -1;
			break;
		}
		replay_entry **v = h ? &rs.hrec : &rs.rec;
		uint64_t **no = h ? &rs.hrec_no : &rs.rec_no;
		size_t *n = h ? &rs.nhrec : &rs.nrec;

		if (*n % 1024 == 0) {
			replay_entry *g = realloc(*v, (*n + 1024) * sizeof(*g));
			uint64_t *gn = g ? realloc(*no, (*n + 1024) * sizeof(*gn)) : NULL;

			if (g)
				*v = g;
			if (!gn) {
				rc = -1;
				break;
			}
			*no = gn;
		}
		(*v)[*n] = e;
		(*no)[(*n)++] = rs.nrec + rs.nhrec + nsrc + 1;
	}
	replay__dec_free(&dec);
	if (rc < 0) {
		fprintf(stderr, "pvmmon: replay: the record from the monitor is damaged\n");
		goto out;
	}
	rc = 0;
out:
	wire__replaydata_clear(&rd);
	free(d);
	if (rc < 0)
		rs.mode_now = HOOKS_RR_OFF;
	return rc;
}

void hooks__rr_before(hooks_call *call, int src, int tag)
{
	pvmmon_event_op op = hooks__event_op(call->op);
	char obs[512];
	int32_t s;

	(void)src, (void)tag;
	if (rs.mode_now != HOOKS_RR_REPLAY || rs.diverged)
		return;
	if (!hooks__rr_take(call, pvmmon_event_op_name(op)))
		return;
	if (rs.cur.op != op) {
		snprintf(obs, sizeof(obs), "a call of %s", pvmmon_event_op_name(op));
		hooks__rr_diverge_obs(call, obs);
		return;
	}
	switch (rs.cur.kind) {
	case REPLAY_MSG:
		if (!(s = tid_of(rs.cur.sender))) {
			cannot_come(call, 0, rs.cur.tag, NULL);
			break;
		}
		if (op == PVMMON_EV_PRECV) {
			const char *why;

			/* pvm_precv is narrowed to the recorded source and tag, and blocks in
			 * libpvm3: it is made once the message is there. */
			if (forced_wait(call, s, rs.cur.tag, 0, &why) == 0) {
				/* Going on past it (continue-recording), the program's own
				 * call is made. */
				cannot_come(call, s, rs.cur.tag, why);
				break;
			}
			call->ovr = 1;
			call->ovr_tid = s;
			call->ovr_tag = rs.cur.tag;
		} else if (op == PVMMON_EV_PROBE) {
			const char *why;
			/* A probe consumes nothing: wait until the message is there. */
			int b = forced_wait(call, s, rs.cur.tag, 0, &why);

			if (b == 0) {
				cannot_come(call, s, rs.cur.tag, why);
				break;
			}
			call->skip = 1;
			call->skip_rc = b;
		} else {
			const char *why;
			int b = forced_wait(call, s, rs.cur.tag, 1, &why);

			if (b == 0) {
				cannot_come(call, s, rs.cur.tag, why);
				break;
			}
			call->skip = 1;
			call->skip_rc = b;
		}
		break;
	case REPLAY_NOTIFY:
		call->skip = 1;
		call->skip_rc =
		    wait_notify(call, tid_of(rs.cur.sender), rs.cur.tag, tid_of(rs.cur.value));
		break;
	case REPLAY_NONE:
	case REPLAY_TIMEOUT:
		/* Whatever has arrived since stays queued for later calls. */
		call->skip = 1;
		call->skip_rc = 0;
		break;
	case REPLAY_SPAWN:
	case REPLAY_HANDLED:
	case REPLAY_SOURCE:
	case REPLAY_GROUP:
		break;
	}
}

int hooks__rr_replaying(void) { return rs.mode_now == HOOKS_RR_REPLAY && !rs.diverged; }

int hooks__rr_recording(void)
{
	return rs.mode_now != HOOKS_RR_OFF && (!rs.diverged || rs.mode_now == HOOKS_RR_RECORD);
}

const replay_entry *hooks__rr_take(hooks_call *call, const char *what)
{
	char obs[512];

	if (rs.next >= rs.nrec) {
		snprintf(obs, sizeof(obs), "%s, and the record has no more events", what);
		rs.at_event = end_event();
		diverge(call, "the end of the recorded run", obs);
		return NULL;
	}
	if (rrstop__due(rs.rec_no[rs.next]))
		rrstop__here(call, rs.rec_no[rs.next]);
	rs.at_event = rs.rec_no[rs.next];
	rs.cur = rs.rec[rs.next++];
	return &rs.cur;
}

void hooks__rr_diverge_obs(hooks_call *call, const char *observed)
{
	char exp[512];

	describe(exp, sizeof(exp), &rs.cur, 0);
	diverge(call, exp, observed);
}

int32_t hooks__rr_tid_of(int32_t k) { return tid_of(k); }

void hooks__rr_diverge_entry(hooks_call *call, const replay_entry *observed)
{
	char obs[512];

	describe(obs, sizeof(obs), observed, 1);
	hooks__rr_diverge_obs(call, obs);
}

void hooks__rr_after(hooks_call *call, int rc, int src, int tag)
{
	pvmmon_event_op op = hooks__event_op(call->op);
	replay_entry e;
	int delivered;

	/* After a divergence that goes on, recording goes on too. */
	if (rs.mode_now == HOOKS_RR_OFF || (rs.diverged && rs.mode_now != HOOKS_RR_RECORD))
		return;
	memset(&e, 0, sizeof(e));
	e.op = (uint8_t)op;
	delivered = op == PVMMON_EV_PRECV ? rc >= 0 : rc > 0;
	if (op == PVMMON_EV_SPAWN) {
		/* A count of children: checked, not forced. */
		e.kind = REPLAY_SPAWN;
		e.value = rc;
	} else if (delivered && ((uint32_t)src & 0x80000000u) &&
		   (op == PVMMON_EV_RECV || op == PVMMON_EV_NRECV || op == PVMMON_EV_TRECV) &&
		   first_int(rc, &e.value)) {
		/* From a pvmd (tids with the top bit set, PVM's TIDPVMD): a notify message,
		 * whose first integer names the task (or host) it is about. Which one comes
		 * first depends on timing, and the task's tid differs between runs: the
		 * monitor records it by logical id. */
		e.kind = REPLAY_NOTIFY;
		e.sender = src;
		e.tag = tag;
	} else if (delivered) {
		e.kind = REPLAY_MSG;
		e.sender = src;
		e.tag = tag;
		/* A probe consumes nothing, so its message has no sequence number yet. */
		e.seq_delta = op == PVMMON_EV_PROBE ? 0 : (int32_t)call->seq_delta;
	} else if (rc == 0 && (pvmmon_event_op_receives(op) || op == PVMMON_EV_PROBE)) {
		e.kind = op == PVMMON_EV_TRECV ? REPLAY_TIMEOUT : REPLAY_NONE;
	} else {
		/* An error is no outcome of timing. */
		return;
	}
	replay__enc_add(&rs.enc, &e);
	if (rs.mode_now == HOOKS_RR_RECORD)
		return;
	if (e.kind == REPLAY_MSG && rs.cur.kind == REPLAY_MSG &&
	    tid_of(rs.cur.sender) == e.sender && rs.cur.tag == e.tag &&
	    rs.cur.seq_delta == e.seq_delta)
		return;
	if (e.kind == REPLAY_NOTIFY && rs.cur.kind == REPLAY_NOTIFY &&
	    tid_of(rs.cur.sender) == e.sender && rs.cur.tag == e.tag &&
	    tid_of(rs.cur.value) == e.value)
		return;
	if (e.kind != REPLAY_MSG && e.kind != REPLAY_NOTIFY && e.kind == rs.cur.kind &&
	    e.value == rs.cur.value)
		return;
	hooks__rr_diverge_entry(call, &e);
}

/* At a replayed task's end, entries *pos..n - 1 of e (numbered by no) were never
 * replayed: the first is reported as the divergence. one/many name such entries. */
static void left_over(const replay_entry *e, const uint64_t *no, size_t *pos, size_t n,
		      const char *one, const char *many)
{
	char exp[512], obs[160];

	describe(exp, sizeof(exp), &e[*pos], 0);
	snprintf(obs, sizeof(obs), "the task ended with %zu %s left", n - *pos,
		 n - *pos == 1 ? one : many);
	rs.at_event = no[*pos];
	++*pos;
	diverge(NULL, exp, obs);
}

int hooks__rr_flush(int final)
{
	int rc = 0;

	if (rs.mode_now != HOOKS_RR_OFF) {
		/* The chunk's header, then the stream's new bytes. */
		wire__buf_reset(&rs.chunk);
		wire__rchunk_encode(&rs.chunk, &(wire_rchunk){hooks__mytid(), NULL, 0});
		replay__enc_take(&rs.enc, &rs.chunk);
		if (rs.chunk.failed)
			rc = PVMMON_ENOMEM;
		else if (rs.chunk.len > WIRE_RCHUNK_HEAD)
			rc = channel__send(WIRE_TAG_RECORD, rs.chunk.data, rs.chunk.len);
	}
	if (rs.mode_now == HOOKS_RR_REPLAY && final && !rs.diverged && rs.next < rs.nrec)
		left_over(rs.rec, rs.rec_no, &rs.next, rs.nrec, "recorded event",
		          "recorded events");
	if (rs.mode_now == HOOKS_RR_REPLAY && final && !rs.diverged)
		hooks__src_final();
	if (rs.mode_now == HOOKS_RR_REPLAY && final && !rs.diverged && rs.hnext < rs.nhrec)
		left_over(rs.hrec, rs.hrec_no, &rs.hnext, rs.nhrec, "recorded handler delivery",
		          "recorded handler deliveries");
	if (rs.mode_now == HOOKS_RR_REPLAY && final && !rs.diverged) {
		int src, tag;
		char who[128], obs[400];

		if (rs.unexpected_by && rs.unexpected_by(&src, &tag)) {
			hooks__rr_name_of(who, sizeof(who), src, 1);
			snprintf(obs, sizeof(obs), "a message handler took a message from %s with "
						   "tag %d that the recorded run's handlers never took",
				 who, tag);
			rs.at_event = end_event();
			diverge(NULL, "no more handler deliveries", obs);
		}
	}
	return rc;
}

int hooks__rr_handler_due(int *src, int *tag, uint64_t pos)
{
	if (rs.mode_now != HOOKS_RR_REPLAY || rs.diverged || rs.hnext >= rs.nhrec ||
	    (uint64_t)rs.hrec[rs.hnext].value > pos)
		return 0;
	*src = tid_of(rs.hrec[rs.hnext].sender);
	*tag = rs.hrec[rs.hnext].tag;
	return 1;
}

void hooks__rr_handled(hooks_call *call, int op, int src, int tag, int64_t seq, uint64_t pos)
{
	replay_entry e, x;
	char exp[512], obs[512];

	if (rs.mode_now == HOOKS_RR_OFF || (rs.diverged && rs.mode_now != HOOKS_RR_RECORD))
		return;
	memset(&e, 0, sizeof(e));
	e.op = (uint8_t)op;
	e.kind = REPLAY_HANDLED;
	e.sender = src;
	e.tag = tag;
	e.seq_delta = (int32_t)seq;
	e.value = (int32_t)pos;
	replay__enc_add(&rs.enc, &e);
	if (rs.mode_now == HOOKS_RR_RECORD)
		return;
	if (rs.hnext >= rs.nhrec) {
		/* mhf.c delivers only what is due: this cannot be, but say so if it is. */
		describe(obs, sizeof(obs), &e, 1);
		rs.at_event = end_event();
		diverge(call, "no more handler deliveries", obs);
		return;
	}
	x = rs.hrec[rs.hnext];
	rs.at_event = rs.hrec_no[rs.hnext++];
	if (tid_of(x.sender) == src && x.tag == tag && x.seq_delta == e.seq_delta &&
	    x.op == e.op && x.value == e.value)
		return;
	describe(exp, sizeof(exp), &x, 0);
	describe(obs, sizeof(obs), &e, 1);
	diverge(call, exp, obs);
}

void hooks__rr_handler_missing(hooks_call *call, const char *observed)
{
	char exp[512];

	if (rs.mode_now != HOOKS_RR_REPLAY || rs.diverged || rs.hnext >= rs.nhrec)
		return;
	describe(exp, sizeof(exp), &rs.hrec[rs.hnext], 0);
	rs.at_event = rs.hrec_no[rs.hnext++];
	diverge(call, exp, observed);
}
