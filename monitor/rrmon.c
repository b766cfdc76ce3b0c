/*
 * The monitor's side of record and replay: collecting each task's record while a run
 * is recorded, and in a replay handing each task the record of the task with the same
 * logical id, telling tasks the tids that recorded logical ids have in this run, and
 * reporting the first divergence a task finds.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/clock.h"
#include "../common/symbols.h"
#include "../replay/replay.h"
#include "pvmmon/errors.h"
#include "rrmon.h"
#include "tasks.h"

void rrmon__record(mon_run *run, int src, const uint8_t *data, size_t len)
{
	mon_task *t = tasks__find(run, src);
	wire_rchunk c;

	if (!t || wire__rchunk_decode(&c, data, len) < 0 || c.tid != src) {
		run->bad_messages++;
		return;
	}
	/* Chunks are pieces of one stream: they only need to be kept in order. */
	if (!t->record.data)
		wire__buf_init(&t->record);
	wire__buf_append(&t->record, c.data, c.len);
}

/* The recorded task with logical id lid, or NULL. */
static const pvmmon_log_task *recorded_task(const mon_run *run, const char *lid)
{
	for (size_t i = 0; run->replay_log && lid && i < run->replay_log->ntasks; i++)
		if (run->replay_log->tasks[i].lid && !strcmp(run->replay_log->tasks[i].lid, lid))
			return &run->replay_log->tasks[i];
	return NULL;
}

/* Ends a replay that diverged: says so once (the run then stops). */
static void divergence(mon_run *run, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void divergence(mon_run *run, const char *fmt, ...)
{
	va_list ap;

	/* With --on-divergence=continue-recording every divergence is said and the run
	 * goes on; otherwise the first one stops it. */
	if (run->diverged && !run->rr_continue)
		return;
	if (run->rr_continue)
		run->divergences++;
	else
		run->diverged++;
	fputs("pvmmon: replay diverged: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs(run->rr_continue ? " (going on, recording)\n" : "\n", stderr);
}

static void answer_lid(mon_run *run, int asker, int32_t tid)
{
	wire_buf b;

	wire__buf_init(&b);
	wire__lidtid_encode(&b, &(wire_lidtid){tid});
	tasks__send(run, asker, WIRE_TAG_LIDTID, &b);
	wire__buf_free(&b);
}

void rrmon__welcomed(mon_run *run, mon_task *t)
{
	const pvmmon_log_task *r;
	wire_replaydata d = {0};
	wire_buf b;

	if (run->rr_mode != 2)
		return;
	r = recorded_task(run, t->rec.lid);
	d.keep_going = run->rr_continue ? 1 : 0;
	d.stop_at =
	    run->stop_lid && t->rec.lid && !strcmp(run->stop_lid, t->rec.lid) ? run->stop_event : 0;
	if (!r) {
		divergence(run, "task %s (t%x, %s) was not in the recorded run", t->rec.lid,
		           (unsigned)t->rec.tid, t->rec.program ? t->rec.program : "?");
	} else {
		d.nsenders = (uint32_t)r->record_nsenders;
		d.senders = r->record_senders;
		d.record = r->record;
		d.record_len = r->record_len;
		t->replayed = 1;
	}
	wire__buf_init(&b);
	wire__replaydata_encode(&b, &d);
	tasks__send(run, t->rec.tid, WIRE_TAG_REPLAYDATA, &b);
	wire__buf_free(&b);
	/* Tasks waiting to learn this task's tid can go on. */
	for (size_t i = 0; i < run->npending_lids;) {
		mon_lid_wait *w = &run->pending_lids[i];

		if (!strcmp(w->lid, t->rec.lid)) {
			answer_lid(run, w->asker, t->rec.tid);
			free(w->lid);
			*w = run->pending_lids[--run->npending_lids];
		} else {
			i++;
		}
	}
}

void rrmon__lid(mon_run *run, int src, const uint8_t *data, size_t len)
{
	wire_lid l;
	char *lid;
	mon_lid_wait *w;
	const mon_task *t;

	if (wire__lid_decode(&l, data, len) < 0) {
		run->bad_messages++;
		return;
	}
	lid = l.lid;
	if ((t = tasks__find_lid(run, lid))) {
		answer_lid(run, src, t->rec.tid);
		free(lid);
		return;
	}
	/* Not registered yet: answered when it is. */
	w = realloc(run->pending_lids, (run->npending_lids + 1) * sizeof(*w));
	if (!w) {
		free(lid);
		return;
	}
	run->pending_lids = w;
	w[run->npending_lids++] = (mon_lid_wait){src, lid};
	rrmon__lids_unreachable(run);
}

/*
 * Whether logical id lid ("0.2": the third child spawned by task 0), asked for by task
 * asker, can no longer register: its parent reported no spawn of that index and can
 * spawn no more, as it has ended or is the asker, blocked in the question. A task
 * reports each spawn as it returns, before any later message of its own, so such a
 * parent's reports are all in. A root id ("1": started from outside, by a script or
 * the console) can always still come.
 */
static int lid_unreachable(const mon_run *run, const char *lid, int asker)
{
	const char *dot = strrchr(lid, '.');
	char parent_lid[256];
	const mon_task *parent;
	unsigned long index;
	char *end;

	if (!dot || (size_t)(dot - lid) >= sizeof(parent_lid))
		return 0;
	index = strtoul(dot + 1, &end, 10);
	if (end == dot + 1 || *end)
		return 0;
	memcpy(parent_lid, lid, (size_t)(dot - lid));
	parent_lid[dot - lid] = '\0';
	parent = tasks__find_lid(run, parent_lid);
	if (!parent || !(parent->gone || parent->rec.tid == asker))
		return 0;
	for (size_t i = 0; i < tasks__spawn_count(run); i++) {
		const mon_spawn *sp = tasks__spawn_at(run, i);

		if (sp->parent == parent->rec.tid && sp->index == index)
			return 0;
	}
	return 1;
}

void rrmon__lids_unreachable(mon_run *run)
{
	for (size_t i = 0; i < run->npending_lids;) {
		mon_lid_wait *w = &run->pending_lids[i];

		if (lid_unreachable(run, w->lid, w->asker)) {
			answer_lid(run, w->asker, 0);
			free(w->lid);
			*w = run->pending_lids[--run->npending_lids];
		} else {
			i++;
		}
	}
}

void rrmon__diverged(mon_run *run, int src, const uint8_t *data, size_t len)
{
	mon_task *t = tasks__find(run, src);
	wire_diverged d;
	pvmmon_log_stmt s = {0};
	char where[512] = "", place[256];

	if (wire__diverged_decode(&d, data, len) < 0) {
		run->bad_messages++;
		return;
	}
	if (t) {
		/* Its place by debug information, else by the task's static table. */
		s.module = d.module;
		s.offset = d.offset;
		s.op = d.op ? strdup(d.op) : NULL;
		if (d.module && tasks__stmt_place(run, src, &s, place, sizeof(place)))
			snprintf(where, sizeof(where), " at %s%s%s (%s)", place,
			         s.function ? " in " : "", s.function ? s.function : "",
			         d.op ? d.op : "?");
		else if (d.module)
			snprintf(where, sizeof(where), " at %s+0x%" PRIx64 " (%s)", d.module,
			         d.offset, d.op ? d.op : "?");
		divergence(run, "task %s (t%x), event %" PRIu64 "%s: expected %s; observed %s",
		           t->rec.lid ? t->rec.lid : "?", (unsigned)src, d.index, where,
		           d.expected ? d.expected : "?", d.observed ? d.observed : "?");
	} else {
		run->bad_messages++;
	}
	wire__diverged_clear(&d);
	free(s.file);
	free(s.function);
	free(s.op);
}

/* Says what a STOPPED message tells, and has the other tasks hold at their next receive
 * while a task is stopped for a debugger, and go on when it goes on. */
static void stopped(mon_run *run, const mon_task *t, int kind, uint64_t event, uint32_t pid,
                    const char *place)
{
	const char *lid = t->rec.lid ? t->rec.lid : "?";
	unsigned tid = (unsigned)t->rec.tid;
	wire_ctl c = {WIRE_CTL_HOLD, 0, 0, NULL, 0};

	switch (kind) {
	case WIRE_STOP_STOPPED:
		fprintf(stderr,
		        "pvmmon: task %s (t%x) is stopped before event %" PRIu64 " at %s: pid %u; "
		        "attach a debugger (gdb -p %u), and let it go on with kill -CONT %u; the "
		        "other tasks hold at their next receive\n",
		        lid, tid, event, place, pid, pid, pid);
		/* The run waits for it, however long the debugging takes. */
		run->linger_ns = INT64_MAX / 2;
		run->stopped_tid = t->rec.tid;
		tasks__tell(run, &c, t->rec.tid);
		break;
	case WIRE_STOP_CONTINUED:
		fprintf(stderr, "pvmmon: task %s (t%x) goes on; so do the others\n", lid, tid);
		run->stopped_tid = 0;
		c.cmd = WIRE_CTL_RELEASE;
		tasks__tell(run, &c, t->rec.tid);
		break;
	case WIRE_STOP_HOLDING:
		fprintf(stderr, "pvmmon: task %s (t%x) holds before event %" PRIu64 " at %s\n", lid,
		        tid, event, place);
		/* The stopped task went on before this one heard of it. */
		if (!run->stopped_tid) {
			c.cmd = WIRE_CTL_RELEASE;
			tasks__tell(run, &c, 0);
		}
		break;
	default:
		run->bad_messages++;
	}
}

void rrmon__stopped(mon_run *run, int src, const uint8_t *data, size_t len)
{
	mon_task *t = tasks__find(run, src);
	wire_stopped s;
	pvmmon_log_stmt at = {0};
	char place[256];

	/* What happened: stopped, continued, or another task holding at a receive while
	 * one is stopped. */
	if (!t || wire__stopped_decode(&s, data, len) < 0) {
		run->bad_messages++;
		return;
	}
	/* Its place by debug information, else by the task's static table (the call
	 * taken from the task's record of the same site). */
	at.module = s.module;
	at.offset = s.offset;
	tasks__stmt_place(run, src, &at, place, sizeof(place));
	stopped(run, t, s.kind, s.event, s.pid, place);
	wire__stopped_clear(&s);
	free(at.file);
	free(at.function);
	free(at.op);
}

void rrmon__end(mon_run *run)
{
	if (run->rr_mode != 2 || run->diverged || !run->replay_log)
		return;
	/* A recorded task that never came is a divergence too. */
	for (size_t i = 0; i < run->replay_log->ntasks; i++) {
		const pvmmon_log_task *r = &run->replay_log->tasks[i];
		int seen = 0;

		for (size_t j = 0; j < tasks__count(run) && !seen; j++) {
			const char *lid = tasks__at(run, j)->rec.lid;

			seen = lid && r->lid && !strcmp(lid, r->lid);
		}
		if (!seen) {
			divergence(run, "task %s (%s) of the recorded run did not start", r->lid,
			           r->program ? r->program : "?");
			return;
		}
	}
}

/* The logical id of tid in this run, for the record's sender table. */
typedef struct lid_map {
	mon_run *run;
	char **names;
	int32_t *tids;
	size_t n;
	int failed; /* out of memory: an id was mapped to INDEX_FAILED */
} lid_map;

/* What to_index gives a tid it has no room for; the map then fails (rrmon__fill). */
#define INDEX_FAILED (-1)

static int32_t to_index(void *ctx, int32_t tid)
{
	lid_map *m = ctx;
	mon_task *t;
	char buf[32], *name;
	char **names;
	int32_t *tids;

	for (size_t i = 0; i < m->n; i++)
		if (m->tids[i] == tid)
			return (int32_t)i;
	t = tasks__find(m->run, tid);
	if (t && t->rec.lid) {
		name = strdup(t->rec.lid);
	} else {
		snprintf(buf, sizeof(buf), "t%x", (unsigned)tid);
		name = strdup(buf);
	}
	names = realloc(m->names, (m->n + 1) * sizeof(*names));
	tids = names ? realloc(m->tids, (m->n + 1) * sizeof(*tids)) : NULL;
	if (names)
		m->names = names;
	if (!name || !names || !tids) {
		free(name);
		m->failed = 1;
		return INDEX_FAILED;
	}
	m->tids = tids;
	m->names[m->n] = name;
	m->tids[m->n] = tid;
	return (int32_t)m->n++;
}

int rrmon__fill(pvmmon_log_task *out, mon_run *run, mon_task *t)
{
	lid_map m = {run, NULL, NULL, 0, 0};
	wire_buf b;
	uint64_t n = 0;
	int rc;

	if (!t->record.len)
		return 0;
	wire__buf_init(&b);
	rc = replay__remap(t->record.data, t->record.len, to_index, &m, &b, &n);
	if (rc == 0 && m.failed)
		rc = pvmmon_error_set(PVMMON_ENOMEM,
		                      "monitor: out of memory for the senders of "
		                      "task t%x's replay record",
		                      (unsigned)t->rec.tid);
	if (rc == 0 && !b.failed) {
		out->record = b.data;
		out->record_len = b.len;
		out->record_entries = n;
		out->record_senders = m.names;
		out->record_nsenders = m.n;
		m.names = NULL;
		m.n = 0;
	} else {
		wire__buf_free(&b);
	}
	for (size_t i = 0; i < m.n; i++)
		free(m.names[i]);
	free(m.names);
	free(m.tids);
	return rc;
}

void rrmon__free(mon_run *run)
{
	for (size_t i = 0; i < tasks__count(run); i++)
		wire__buf_free(&tasks__at(run, i)->record);
	for (size_t i = 0; i < run->npending_lids; i++)
		free(run->pending_lids[i].lid);
	free(run->pending_lids);
	run->pending_lids = NULL;
	run->npending_lids = 0;
	pvmmon_log_free(run->replay_log);
	run->replay_log = NULL;
}
