/* Unit tests for cli/explalt.c: the other outcomes of a traced run's nondeterministic
 * receives (happened-before over its trace), the log that forces one, and the check
 * whether a log took it; on small logs of three tasks built here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "../../../cli/explalt.h"
#include "../../../replay/replay.h"
#include "cmd.h"
#include "pvmmon/errors.h"
#include "pvmmon/log.h"

/* The tasks: a master "0" and its children "0.0" and "0.1" (index = tid - M). */
#define M 0x40001
#define A 0x40002
#define B 0x40003

/* Statement ids of each task: where its receives, sends and probes are. */
enum { ST_RECV, ST_SEND, ST_PROBE };

static void *zalloc(size_t n, size_t sz)
{
	void *p = calloc(n, sz);

	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	return p;
}

static char *xdup(const char *s)
{
	char *d = strdup(s);

	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	return d;
}

static void stmt(pvmmon_log_stmt *s, uint32_t id, const char *op, int32_t line)
{
	s->id = id;
	s->op = xdup(op);
	s->file = xdup("apps/master.c");
	s->line = line;
	s->function = xdup("main");
	s->count = 1;
}

/* A log of a traced, recorded run of the three tasks without events or records yet,
 * with the fields the schema asks for. */
static pvmmon_log *new_log(void)
{
	static const char *const lids[] = {"0", "0.0", "0.1"};
	pvmmon_log *log = NULL;

	CU_ASSERT_EQUAL_FATAL(pvmmon_log_new(&log), 0);
	log->tool_version = xdup("0.1.0");
	log->program = xdup("/opt/app/race");
	log->mode = xdup("observe");
	log->started = xdup("2026-11-28T08:00:00Z");
	log->wall_ns = 1000000;
	log->replayable = 1;
	log->trace.enabled = 1;
	log->trace.limit_bytes = 1 << 20;
	log->nhosts = 1;
	log->hosts = zalloc(1, sizeof(*log->hosts));
	log->hosts[0].name = xdup("node1");
	log->hosts[0].dtid = 0x40000;
	log->ntasks = 3;
	log->tasks = zalloc(3, sizeof(*log->tasks));
	for (size_t i = 0; i < 3; i++) {
		pvmmon_log_task *t = &log->tasks[i];

		t->tid = M + (int32_t)i;
		t->lid = xdup(lids[i]);
		t->parent_tid = i ? M : 0;
		t->host = xdup("node1");
		t->program = xdup("race");
		t->status = PVMMON_TASK_EXITED;
		t->end_ns = 1000000;
		t->virtual_ns = 1000000;
		t->nstmts = 3;
		t->stmts = zalloc(3, sizeof(*t->stmts));
		stmt(&t->stmts[ST_RECV], ST_RECV, "pvm_recv", 30);
		stmt(&t->stmts[ST_SEND], ST_SEND, "pvm_send", 20);
		stmt(&t->stmts[ST_PROBE], ST_PROBE, "pvm_probe", 25);
	}
	return log;
}

static pvmmon_log_task *task(pvmmon_log *log, int32_t tid) { return &log->tasks[tid - M]; }

/* Appends to tid's trace an event of op with message (peer, tag, seq), between virtual
 * times vt0 and vt1; nd events asked for (want_peer, want_tag). */
static void event(pvmmon_log *log, int32_t tid, pvmmon_event_op op, int32_t peer, int32_t tag,
                  int64_t seq, int64_t vt0, int64_t vt1, int nd, int32_t want_peer,
                  int32_t want_tag)
{
	pvmmon_log_task *t = task(log, tid);
	pvmmon_log_event *g = realloc(t->events, (t->nevents + 1) * sizeof(*g)), *e;

	CU_ASSERT_PTR_NOT_NULL_FATAL(g);
	t->events = g;
	e = memset(&g[t->nevents++], 0, sizeof(*e));
	e->op = op;
	e->peer = peer;
	e->tag = tag;
	e->bytes = 4;
	e->seq = seq;
	e->stmt = op == PVMMON_EV_PROBE ? ST_PROBE : pvmmon_event_op_sends(op) ? ST_SEND : ST_RECV;
	e->rt[0] = e->rt[1] = vt0;
	e->rt[2] = e->rt[3] = vt1;
	e->vt0 = vt0;
	e->vt1 = vt1;
	e->nd = nd;
	e->want_peer = nd ? want_peer : 0;
	e->want_tag = nd ? want_tag : 0;
}

static void msg_send(pvmmon_log *log, int32_t from, int32_t to, int32_t tag, int64_t seq,
                     int64_t vt)
{
	event(log, from, PVMMON_EV_SEND, to, tag, seq, vt, vt + 10, 0, 0, 0);
}

/* A nondeterministic receive (or probe) by tid of the message (peer, tag, seq). */
static void nd_recv(pvmmon_log *log, int32_t tid, pvmmon_event_op op, int32_t peer, int32_t tag,
                    int64_t seq, int64_t vt0, int64_t vt1, int32_t want_peer, int32_t want_tag)
{
	event(log, tid, op, peer, tag, seq, vt0, vt1, 1, want_peer, want_tag);
}

/* Gives tid the replay record of the n entries in (senders: the lids their sender
 * indices point at). */
static void record(pvmmon_log *log, int32_t tid, const replay_entry *in, size_t n,
                   const char *const *senders, size_t nsenders)
{
	pvmmon_log_task *t = task(log, tid);
	replay_enc e;
	wire_buf b;

	replay__enc_init(&e);
	wire__buf_init(&b);
	for (size_t i = 0; i < n; i++)
		CU_ASSERT_EQUAL(replay__enc_add(&e, &in[i]), 0);
	CU_ASSERT_EQUAL_FATAL(replay__enc_take(&e, &b), 0);
	replay__enc_free(&e);
	t->record = b.data;
	t->record_len = b.len;
	t->record_entries = n;
	t->record_nsenders = nsenders;
	t->record_senders = nsenders ? zalloc(nsenders, sizeof(char *)) : NULL;
	for (size_t i = 0; i < nsenders; i++)
		t->record_senders[i] = xdup(senders[i]);
}

/* A message outcome of a call, and a per-run reading (an entry no explore rule uses). */
static replay_entry msg(pvmmon_event_op op, int32_t sender, int32_t tag)
{
	return (replay_entry){.op = (uint8_t)op, .kind = REPLAY_MSG, .sender = sender, .tag = tag};
}

static replay_entry source(replay_source src, int64_t reading)
{
	return (replay_entry){.op = (uint8_t)src, .kind = REPLAY_SOURCE, .reading = reading};
}

/*
 * The race: the master's wildcard receive R (vt 100..200) takes 0.0's message (tag 1);
 * after R it sends 0.0 a second job (tag 3) and 0.1 a message (tag 2); 0.1 sends its
 * message (tag 1) at vt 250, which the master's next receive takes. chain: 0.1 sends
 * only after it received the master's message (caused by R); else before (concurrent
 * with R, though later in virtual time). 0.0 receives its two jobs (tag 3) with
 * nondeterministic receives asking for the master's tag 3; 0.1 reads the clock only.
 */
static pvmmon_log *race_log(int chain)
{
	static const char *const m_senders[] = {"0.0", "0.1"}, *const a_senders[] = {"0"};
	const replay_entry m_rec[] = {source(REPLAY_SRC_GETPID, 4242), msg(PVMMON_EV_RECV, 0, 1),
	                              msg(PVMMON_EV_RECV, 1, 1)};
	const replay_entry a_rec[] = {msg(PVMMON_EV_RECV, 0, 3), msg(PVMMON_EV_RECV, 0, 3)};
	const replay_entry b_rec[] = {source(REPLAY_SRC_GETTIMEOFDAY, 1000)};
	pvmmon_log *log = new_log();

	msg_send(log, M, A, 3, 0, 10);
	nd_recv(log, M, PVMMON_EV_RECV, A, 1, 0, 100, 200, -1, -1);
	msg_send(log, M, A, 3, 1, 210);
	msg_send(log, M, B, 2, 0, 220);
	nd_recv(log, M, PVMMON_EV_RECV, B, 1, 0, 300, 400, -1, -1);
	msg_send(log, A, M, 1, 0, 50);
	nd_recv(log, A, PVMMON_EV_RECV, M, 3, 0, 60, 150, M, 3);
	nd_recv(log, A, PVMMON_EV_RECV, M, 3, 1, 230, 300, M, 3);
	if (chain) {
		event(log, B, PVMMON_EV_RECV, M, 2, 0, 230, 240, 0, 0, 0);
		msg_send(log, B, M, 1, 0, 250);
	} else {
		msg_send(log, B, M, 1, 0, 250);
		event(log, B, PVMMON_EV_RECV, M, 2, 0, 260, 270, 0, 0, 0);
	}
	record(log, M, m_rec, 3, m_senders, 2);
	record(log, A, a_rec, 2, a_senders, 1);
	record(log, B, b_rec, 1, NULL, 0);
	return log;
}

/* The master's receive R (vt 100..200, asking for want_peer and want_tag) takes 0.0's
 * message with tag 5, its next (a wildcard) 0.1's with tag 6, sent concurrently. */
static pvmmon_log *filter_log(int32_t want_peer, int32_t want_tag)
{
	static const char *const senders[] = {"0.0", "0.1"};
	const replay_entry rec[] = {msg(PVMMON_EV_RECV, 0, 5), msg(PVMMON_EV_RECV, 1, 6)};
	pvmmon_log *log = new_log();

	nd_recv(log, M, PVMMON_EV_RECV, A, 5, 0, 100, 200, want_peer, want_tag);
	nd_recv(log, M, PVMMON_EV_RECV, B, 6, 0, 300, 400, -1, -1);
	msg_send(log, A, M, 5, 0, 50);
	msg_send(log, B, M, 6, 0, 150);
	record(log, M, rec, 2, senders, 2);
	return log;
}

/* The master probes (asking for any sender and probe_tag) and finds 0.0's message
 * (tag 1), then receives it with a wildcard receive, then 0.1's (tag 1, concurrent). */
static pvmmon_log *probe_log(int32_t probe_tag)
{
	static const char *const senders[] = {"0.0", "0.1"};
	const replay_entry rec[] = {msg(PVMMON_EV_PROBE, 0, 1), msg(PVMMON_EV_RECV, 0, 1),
	                            msg(PVMMON_EV_RECV, 1, 1)};
	pvmmon_log *log = new_log();

	nd_recv(log, M, PVMMON_EV_PROBE, A, 1, 0, 100, 110, -1, probe_tag);
	nd_recv(log, M, PVMMON_EV_RECV, A, 1, 0, 110, 200, -1, -1);
	nd_recv(log, M, PVMMON_EV_RECV, B, 1, 0, 300, 400, -1, -1);
	msg_send(log, A, M, 1, 0, 50);
	msg_send(log, B, M, 1, 0, 150);
	record(log, M, rec, 3, senders, 2);
	return log;
}

/* The alternatives of log (whole), into *v; their count. */
static size_t alternatives(expl_alt **v, expl_count *c, const pvmmon_log *log)
{
	size_t n = 99;

	CU_ASSERT_EQUAL_FATAL(expl__alternatives(v, &n, c, log, NULL, 0, -1), 0);
	return n;
}

static void free_alts(expl_alt *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		expl__alt_free(&v[i]);
	free(v);
}

/* 1: a concurrent send, later in virtual time than R, is the one other outcome of R. */
static void test_concurrent_send(void)
{
	pvmmon_log *log = race_log(0);
	expl_alt *v = NULL;
	expl_count c;
	size_t n = alternatives(&v, &c, log);

	CU_ASSERT_EQUAL(c.nd, 4);
	CU_ASSERT_EQUAL(c.naive, 1);
	CU_ASSERT_EQUAL(c.alts, 1);
	CU_ASSERT_EQUAL_FATAL(n, 1);
	CU_ASSERT_STRING_EQUAL(v[0].task, "0");
	CU_ASSERT_EQUAL(v[0].nd, 0);
	CU_ASSERT_EQUAL(v[0].entry_no, 2); /* after the clock reading */
	CU_ASSERT_EQUAL(v[0].kind, REPLAY_MSG);
	CU_ASSERT_STRING_EQUAL(v[0].from, "0.1");
	CU_ASSERT_EQUAL(v[0].tag, 1);
	CU_ASSERT_EQUAL(v[0].taken_kind, REPLAY_MSG);
	CU_ASSERT_STRING_EQUAL(v[0].taken_from, "0.0");
	CU_ASSERT_EQUAL(v[0].taken_tag, 1);
	CU_ASSERT_EQUAL(v[0].vt, 200);
	CU_ASSERT_STRING_EQUAL(v[0].where, "master.c:30 (pvm_recv)");
	free_alts(v, n);
	/* Past the event itself (what a forced run adds), or past its virtual end: none. */
	CU_ASSERT_EQUAL(expl__alternatives(&v, &n, &c, log, "0", 0, -1), 0);
	CU_ASSERT_EQUAL(n, 0);
	CU_ASSERT_EQUAL(c.nd, 4);
	free_alts(v, n);
	CU_ASSERT_EQUAL(expl__alternatives(&v, &n, &c, log, NULL, 0, 200), 0);
	CU_ASSERT_EQUAL(n, 0);
	free_alts(v, n);
	CU_ASSERT_EQUAL(expl__alternatives(&v, &n, &c, log, "0.0", 1, 199), 0);
	CU_ASSERT_EQUAL(n, 1);
	free_alts(v, n);
	pvmmon_log_free(log);
}

/* 2: 0.1's send after it received what the master sent after R: caused by R, so no
 * alternative, though the naive count has it. */
static void test_causal_chain(void)
{
	pvmmon_log *log = race_log(1);
	expl_alt *v = NULL;
	expl_count c;
	size_t n = alternatives(&v, &c, log);

	CU_ASSERT_EQUAL(n, 0);
	CU_ASSERT_EQUAL(c.nd, 4);
	CU_ASSERT_EQUAL(c.naive, 1);
	CU_ASSERT_EQUAL(c.alts, 0);
	free_alts(v, n);
	pvmmon_log_free(log);
}

/* 3: R's filter decides: a message of another tag (or sender) than it asked for is no
 * outcome of it; a wildcard takes it. */
static void test_filter(void)
{
	static const struct {
		int32_t want_peer, want_tag;
		size_t n;
	} cases[] = {{-1, 5, 0}, {A, -1, 0}, {A, 5, 0}, {-1, -1, 1}};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		pvmmon_log *log = filter_log(cases[i].want_peer, cases[i].want_tag);
		expl_alt *v = NULL;
		expl_count c;
		size_t n = alternatives(&v, &c, log);

		CU_ASSERT_EQUAL(n, cases[i].n);
		CU_ASSERT_EQUAL(c.naive, cases[i].n);
		CU_ASSERT_EQUAL(c.alts, cases[i].n);
		CU_ASSERT_EQUAL(c.nd, 2);
		if (n == 1) {
			CU_ASSERT_EQUAL(v[0].nd, 0);
			CU_ASSERT_STRING_EQUAL(v[0].from, "0.1");
			CU_ASSERT_EQUAL(v[0].tag, 6);
			CU_ASSERT_EQUAL(v[0].taken_tag, 5);
		}
		free_alts(v, n);
		pvmmon_log_free(log);
	}
}

/* 4: a receive right after a probe with its filter that found a message takes that
 * message in every order: no alternative of its own (the probe has them: 0.1's
 * message, or nothing). With another filter than the probe's it has one. */
static void test_after_probe(void)
{
	for (int same = 1; same >= 0; same--) {
		pvmmon_log *log = probe_log(same ? -1 : 1);
		expl_alt *v = NULL;
		expl_count c;
		size_t n = alternatives(&v, &c, log), recv = 0, probe_msg = 0, probe_none = 0;

		for (size_t i = 0; i < n; i++) {
			if (v[i].nd == 1) {
				recv++;
				CU_ASSERT_EQUAL(v[i].kind, REPLAY_MSG);
				CU_ASSERT_STRING_EQUAL(v[i].from, "0.1");
			} else if (v[i].nd == 0 && v[i].kind == REPLAY_MSG) {
				probe_msg++;
				CU_ASSERT_STRING_EQUAL(v[i].from, "0.1");
				CU_ASSERT_STRING_EQUAL(v[i].where, "master.c:25 (pvm_probe)");
			} else if (v[i].nd == 0 && v[i].kind == REPLAY_NONE) {
				probe_none++;
			}
		}
		CU_ASSERT_EQUAL(recv, same ? 0 : 1);
		CU_ASSERT_EQUAL(probe_msg, 1);
		CU_ASSERT_EQUAL(probe_none, 1);
		CU_ASSERT_EQUAL(n, same ? 2 : 3);
		CU_ASSERT_EQUAL(c.alts, n);
		CU_ASSERT_EQUAL(c.nd, 3);
		free_alts(v, n);
		pvmmon_log_free(log);
	}
}

/* The master polls (pvm_nrecv, any sender and tag) twice finding nothing, then finds
 * 0.0's message, then polls again finding nothing (a second poll sequence); then
 * receives 0.1's, sent concurrently. */
static pvmmon_log *poll_log(void)
{
	static const char *const senders[] = {"0.0", "0.1"};
	const replay_entry none = {.op = PVMMON_EV_NRECV, .kind = REPLAY_NONE};
	const replay_entry rec[] = {none, none, msg(PVMMON_EV_NRECV, 0, 1), none,
	                            msg(PVMMON_EV_RECV, 1, 1)};
	pvmmon_log *log = new_log();

	nd_recv(log, M, PVMMON_EV_NRECV, 0, 0, -1, 100, 110, -1, -1);
	nd_recv(log, M, PVMMON_EV_NRECV, 0, 0, -1, 200, 210, -1, -1);
	nd_recv(log, M, PVMMON_EV_NRECV, A, 1, 0, 300, 310, -1, -1);
	nd_recv(log, M, PVMMON_EV_NRECV, 0, 0, -1, 350, 360, -1, -1);
	nd_recv(log, M, PVMMON_EV_RECV, B, 1, 0, 400, 500, -1, -1);
	msg_send(log, A, M, 1, 0, 50);
	msg_send(log, B, M, 1, 0, 150);
	record(log, M, rec, 5, senders, 2);
	return log;
}

/* A poll sequence: each sender's message is tried at the first poll it could meet
 * (not at every empty poll); the poll that found a message could have found the other
 * sender's, or nothing; a message taken starts a new sequence, whose first poll could
 * have found 0.1's message again. */
static void test_poll_sequence(void)
{
	pvmmon_log *log = poll_log();
	expl_alt *v = NULL;
	expl_count c;
	size_t n = alternatives(&v, &c, log), first[2] = {0}, third_msg = 0, third_none = 0;
	size_t fourth = 0;

	CU_ASSERT_EQUAL(c.nd, 5);
	/* Two senders at the first three polls, nothing at the third, 0.1 at the fourth. */
	CU_ASSERT_EQUAL(c.naive, 7);
	CU_ASSERT_EQUAL(c.alts, 5);
	CU_ASSERT_EQUAL(n, 5);
	for (size_t i = 0; i < n; i++) {
		CU_ASSERT_STRING_EQUAL(v[i].where, "master.c:30 (pvm_nrecv)");
		if (v[i].nd == 0) {
			CU_ASSERT_EQUAL(v[i].kind, REPLAY_MSG);
			CU_ASSERT_EQUAL(v[i].taken_kind, REPLAY_NONE);
			CU_ASSERT_PTR_NULL(v[i].taken_from);
			if (v[i].kind == REPLAY_MSG)
				first[!strcmp(v[i].from, "0.1")]++;
		} else if (v[i].nd == 2 && v[i].kind == REPLAY_MSG) {
			third_msg++;
			CU_ASSERT_STRING_EQUAL(v[i].from, "0.1");
			CU_ASSERT_STRING_EQUAL(v[i].taken_from, "0.0");
		} else if (v[i].nd == 2 && v[i].kind == REPLAY_NONE) {
			third_none++;
			CU_ASSERT_PTR_NULL(v[i].from);
		} else if (v[i].nd == 3) {
			fourth++;
			CU_ASSERT_EQUAL(v[i].kind, REPLAY_MSG);
			CU_ASSERT_STRING_EQUAL(v[i].from, "0.1");
		} else {
			CU_FAIL("an alternative of another event");
		}
	}
	CU_ASSERT_EQUAL(first[0], 1);
	CU_ASSERT_EQUAL(first[1], 1);
	CU_ASSERT_EQUAL(third_msg, 1);
	CU_ASSERT_EQUAL(third_none, 1);
	CU_ASSERT_EQUAL(fourth, 1);
	/* Messages first, earliest first: the first poll's come before the third's. */
	CU_ASSERT_EQUAL(v[0].nd, 0);
	CU_ASSERT_EQUAL(v[0].kind, REPLAY_MSG);
	free_alts(v, n);
	pvmmon_log_free(log);
}

/* The entries of t's record, with each message's sender lid (NULL elsewhere); their
 * number. */
static size_t decode(const pvmmon_log_task *t, replay_entry *out, const char **from, size_t max)
{
	replay_dec d;
	size_t n = 0;
	int rc;

	replay__dec_init(&d, t->record, t->record_len);
	while (n < max && (rc = replay__dec_next(&d, &out[n])) == 1) {
		from[n] = out[n].kind == REPLAY_MSG && out[n].sender >= 0 &&
		                  (size_t)out[n].sender < t->record_nsenders
		              ? t->record_senders[out[n].sender]
		              : NULL;
		n++;
	}
	CU_ASSERT_EQUAL(rc, 0);
	replay__dec_free(&d);
	return n;
}

/* The log read from path (the caller frees it). */
static pvmmon_log *read_log(const char *path)
{
	pvmmon_log *log = NULL;

	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&log, path), 0);
	return log;
}

/* 5: the forced log: the master's record up to R and R's entry changed to 0.1's
 * message; 0.0's cut at its first nondeterministic event ending at or after R's end
 * (its second receive, vt 300); 0.1's (no such event) whole; the trace as it was.
 * expl__took says the forced log took it, the first run not. */
static void test_force(void)
{
	char dir[40], base[80], forced[80];
	pvmmon_log *log = race_log(0), *f = NULL, *orig = NULL;
	replay_entry e[8];
	const char *from[8];
	expl_alt *v = NULL, bad;
	expl_count c;
	size_t n = alternatives(&v, &c, log), k;

	CU_ASSERT_EQUAL_FATAL(n, 1);
	cmd_tmpdir(dir);
	snprintf(base, sizeof(base), "%s/base.xml", dir);
	snprintf(forced, sizeof(forced), "%s/forced.xml", dir);
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_write(log, base), 0);
	CU_ASSERT_EQUAL_FATAL(expl__force(base, &v[0], forced), 0);
	f = read_log(forced);
	orig = read_log(base);
	CU_ASSERT_EQUAL_FATAL(f->ntasks, 3);
	/* The master: the clock reading, then 0.1's message at R, nothing after. */
	k = decode(&f->tasks[0], e, from, 8);
	CU_ASSERT_EQUAL(k, 2);
	CU_ASSERT_EQUAL(f->tasks[0].record_entries, 2);
	CU_ASSERT_EQUAL(e[0].kind, REPLAY_SOURCE);
	CU_ASSERT_EQUAL(e[0].op, REPLAY_SRC_GETPID);
	CU_ASSERT_EQUAL(e[0].reading, 4242);
	CU_ASSERT_EQUAL(e[1].kind, REPLAY_MSG);
	CU_ASSERT_EQUAL(e[1].op, PVMMON_EV_RECV);
	CU_ASSERT_PTR_NOT_NULL(from[1]);
	if (from[1])
		CU_ASSERT_STRING_EQUAL(from[1], "0.1");
	CU_ASSERT_EQUAL(e[1].tag, 1);
	CU_ASSERT_EQUAL(e[1].seq_delta, 0);
	/* 0.0: its first receive (ended at 150) kept, the second (ended at 300) cut. */
	k = decode(&f->tasks[1], e, from, 8);
	CU_ASSERT_EQUAL(k, 1);
	CU_ASSERT_EQUAL(f->tasks[1].record_entries, 1);
	CU_ASSERT_EQUAL(e[0].kind, REPLAY_MSG);
	CU_ASSERT_EQUAL(e[0].tag, 3);
	CU_ASSERT_PTR_NOT_NULL(from[0]);
	if (from[0])
		CU_ASSERT_STRING_EQUAL(from[0], "0");
	/* 0.1: no nondeterministic event, so its whole record. */
	k = decode(&f->tasks[2], e, from, 8);
	CU_ASSERT_EQUAL(k, 1);
	CU_ASSERT_EQUAL(e[0].kind, REPLAY_SOURCE);
	CU_ASSERT_EQUAL(e[0].reading, 1000);
	CU_ASSERT_EQUAL(f->tasks[0].nevents, log->tasks[0].nevents);
	CU_ASSERT_EQUAL(expl__took(f, &v[0]), 1);
	CU_ASSERT_EQUAL(expl__took(orig, &v[0]), 0);
	/* An alternative of another tag than the forced log took: not taken. */
	v[0].tag = 2;
	CU_ASSERT_EQUAL(expl__took(f, &v[0]), 0);
	v[0].tag = 1;
	/* An event the task does not have: refused, nothing written. */
	bad = v[0];
	bad.nd = 7;
	CU_ASSERT_EQUAL(unlink(forced), 0);
	CU_ASSERT_EQUAL(expl__force(base, &bad, forced), PVMMON_EINVAL);
	CU_ASSERT_NOT_EQUAL(access(forced, F_OK), 0);
	CU_ASSERT_EQUAL(expl__took(orig, &bad), 0);
	/* A base log that cannot be read: its error. */
	CU_ASSERT(expl__force("/nonexistent-pvmmon-dir/base.xml", &v[0], forced) < 0);
	pvmmon_log_free(f);
	pvmmon_log_free(orig);
	free_alts(v, n);
	pvmmon_log_free(log);
	cmd_remove(dir);
}

/* 5b: a probe's forced message is carried to its next receive with the same filter,
 * which takes it; a probe forced to find nothing ends the record there. */
static void test_force_probe(void)
{
	char dir[40], base[80], forced[80];
	pvmmon_log *log = probe_log(-1), *f;
	replay_entry e[8];
	const char *from[8];
	expl_alt *v = NULL;
	expl_count c;
	size_t n = alternatives(&v, &c, log), k;

	CU_ASSERT_EQUAL_FATAL(n, 2);
	cmd_tmpdir(dir);
	snprintf(base, sizeof(base), "%s/base.xml", dir);
	snprintf(forced, sizeof(forced), "%s/forced.xml", dir);
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_write(log, base), 0);
	for (size_t i = 0; i < n; i++) {
		CU_ASSERT_EQUAL_FATAL(expl__force(base, &v[i], forced), 0);
		f = read_log(forced);
		k = decode(&f->tasks[0], e, from, 8);
		CU_ASSERT_EQUAL(e[0].op, PVMMON_EV_PROBE);
		CU_ASSERT_EQUAL(e[0].kind, v[i].kind);
		if (v[i].kind == REPLAY_MSG) {
			CU_ASSERT_EQUAL(k, 2);
			CU_ASSERT_EQUAL(f->tasks[0].record_entries, 2);
			CU_ASSERT_EQUAL(e[1].op, PVMMON_EV_RECV);
			CU_ASSERT_EQUAL(e[1].kind, REPLAY_MSG);
			for (size_t j = 0; j < k; j++) {
				CU_ASSERT_PTR_NOT_NULL(from[j]);
				if (from[j])
					CU_ASSERT_STRING_EQUAL(from[j], "0.1");
			}
		} else {
			CU_ASSERT_EQUAL(v[i].kind, REPLAY_NONE);
			CU_ASSERT_EQUAL(k, 1);
		}
		CU_ASSERT_EQUAL(expl__took(f, &v[i]), 1);
		pvmmon_log_free(f);
	}
	free_alts(v, n);
	pvmmon_log_free(log);
	cmd_remove(dir);
}

/* 6: an outcome in words. */
static void test_outcome(void)
{
	char buf[64], small[12];

	expl__alt_outcome(buf, sizeof(buf), REPLAY_MSG, "0.2", 5);
	CU_ASSERT_STRING_EQUAL(buf, "the message from 0.2 with tag 5");
	expl__alt_outcome(buf, sizeof(buf), REPLAY_MSG, NULL, -3);
	CU_ASSERT_STRING_EQUAL(buf, "the message from ? with tag -3");
	expl__alt_outcome(buf, sizeof(buf), REPLAY_TIMEOUT, NULL, 0);
	CU_ASSERT_STRING_EQUAL(buf, "a timeout");
	expl__alt_outcome(buf, sizeof(buf), REPLAY_NOTIFY, "0.1", 9);
	CU_ASSERT_STRING_EQUAL(buf, "a notify message");
	expl__alt_outcome(buf, sizeof(buf), REPLAY_NONE, NULL, 0);
	CU_ASSERT_STRING_EQUAL(buf, "nothing");
	expl__alt_outcome(small, sizeof(small), REPLAY_MSG, "0.2", 5);
	CU_ASSERT_STRING_EQUAL(small, "the message");
}

CU_TestInfo test_explalt_tests[] = {
    {"a concurrent later send is the one other outcome", test_concurrent_send},
    {"a send caused by the receive is no outcome of it", test_causal_chain},
    {"the receive's filter decides which messages count", test_filter},
    {"a receive right after a probe with its filter has none", test_after_probe},
    {"a poll sequence tries each sender's message once", test_poll_sequence},
    {"the forced log cuts the records, took says so", test_force},
    {"a probe's forced message goes to its next receive", test_force_probe},
    {"outcomes in words", test_outcome},
    CU_TEST_INFO_NULL,
};
