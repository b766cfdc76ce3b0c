/* `pvmmon export --perfetto`: a traced run in the Trace Event Format of ui.perfetto.dev and
 * chrome://tracing. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export_sink.h"
#include "figures.h"
#include "pvmmon/cpath.h"
#include "pvmmon/errors.h"
#include "pvmmon/export.h"

/* No flow at an event. */
#define NO_FLOW 0

/* One export: the log, where it goes, and what was derived from the trace. */
typedef struct writer {
	const pvmmon_log *log;
	FILE *out;
	int real;
	int64_t base;     /* subtracted from every time: the earliest one when before 0 */
	size_t nwritten;  /* trace events written (the separating comma) */
	size_t *off;      /* task i's events are [off[i], off[i + 1]) of the arrays below */
	int64_t *t0, *t1; /* each event's start and end as written (held monotonic) */
	uint64_t *flow;   /* the flow id of a paired send or receive, NO_FLOW if none */
	size_t *close;    /* a procedure entry's exit (its global index), SIZE_MAX: none */
	pvmmon_perfetto_counts *n;
} writer;

/* The process of task i: its host's place in the log plus one; the hosts not named in
 * the log's host list share the process after them. */
static int pid_of(const writer *w, size_t i)
{
	const char *h = w->log->tasks[i].host;

	for (size_t k = 0; h && k < w->log->nhosts; k++)
		if (w->log->hosts[k].name && !strcmp(w->log->hosts[k].name, h))
			return (int)k + 1;
	return (int)w->log->nhosts + 1;
}

/* The critical path's process and thread: after every host's and task's. */
static int cp_pid(const writer *w) { return (int)w->log->nhosts + 2; }

static int cp_tid(const writer *w) { return (int)w->log->ntasks + 1; }

/* ns as microseconds with their fraction, which the format's ts and dur are. */
static void put_us(FILE *f, int64_t ns)
{
	if (ns < 0) {
		fputc('-', f);
		ns = -ns;
	}
	fprintf(f, "%" PRId64 ".%03" PRId64, ns / 1000, ns % 1000);
}

/* Opens one trace event: its phase, name, process, thread and time; the caller adds
 * the rest of its fields and closes it with end(). */
static void begin(writer *w, const char *ph, const char *name, int pid, int tid, int64_t ts)
{
	fputs(w->nwritten++ ? ",\n  {\"ph\": " : "\n  {\"ph\": ", w->out);
	graphs__json_string(w->out, ph);
	fputs(", \"name\": ", w->out);
	graphs__json_string(w->out, name);
	fprintf(w->out, ", \"pid\": %d, \"tid\": %d, \"ts\": ", pid, tid);
	put_us(w->out, ts - w->base);
}

static void end(writer *w) { fputc('}', w->out); }

/* A metadata event ("M"): name is process_name, thread_name or a sort index. */
static void meta(writer *w, const char *name, int pid, int tid, const char *value, long sort)
{
	begin(w, "M", name, pid, tid, w->base);
	if (value) {
		fputs(", \"args\": {\"name\": ", w->out);
		graphs__json_string(w->out, value);
		fputs("}", w->out);
	} else {
		fprintf(w->out, ", \"args\": {\"sort_index\": %ld}", sort);
	}
	end(w);
}

/* A task's name as the reports write it: its logical id, or its tid in hex. */
static const char *who(char *buf, size_t len, const pvmmon_log_task *t)
{
	if (t->lid)
		snprintf(buf, len, "%s", t->lid);
	else
		snprintf(buf, len, "t%x", (unsigned)t->tid);
	return buf;
}

/* The names of the processes (hosts, critical path) and threads (tasks). */
static void names(writer *w)
{
	const pvmmon_log *log = w->log;
	int other = 0;
	char buf[512], id[32];

	for (size_t k = 0; k < log->nhosts; k++) {
		snprintf(buf, sizeof(buf), "host %s",
		         log->hosts[k].name ? log->hosts[k].name : "?");
		meta(w, "process_name", (int)k + 1, 0, buf, 0);
		meta(w, "process_sort_index", (int)k + 1, 0, NULL, (long)k);
	}
	for (size_t i = 0; i < log->ntasks; i++) {
		const pvmmon_log_task *t = &log->tasks[i];
		int pid = pid_of(w, i);

		other |= pid == (int)log->nhosts + 1;
		snprintf(buf, sizeof(buf), "%s %s (t%x)", who(id, sizeof(id), t),
		         t->program ? graphs__base_name(t->program) : "?", (unsigned)t->tid);
		meta(w, "thread_name", pid, (int)i + 1, buf, 0);
		meta(w, "thread_sort_index", pid, (int)i + 1, NULL, (long)i);
	}
	if (other)
		meta(w, "process_name", (int)log->nhosts + 1, 0, "host unknown", 0);
}

/* Whether event e is a PVM call (not a procedure's entry or exit, not a marker). */
static int is_call(const pvmmon_log_event *e)
{
	return e->op >= PVMMON_EV_SEND && e->op <= PVMMON_EV_LAST && e->op != PVMMON_EV_ENTER &&
	       e->op != PVMMON_EV_EXIT && e->op != PVMMON_EV_CPSTART && e->op != PVMMON_EV_CPSTOP;
}

/* Whether event e carries a message that can be paired with its other end. */
static int is_message(const pvmmon_log_event *e)
{
	return e->peer != 0 && e->seq >= 0 &&
	       (pvmmon_event_op_sends(e->op) || pvmmon_event_op_receives(e->op));
}

/* One PVM call as a complete event with what it did as args. */
static void put_call(writer *w, size_t i, size_t k)
{
	const pvmmon_log_task *t = &w->log->tasks[i];
	const pvmmon_log_event *e = &t->events[k];
	const pvmmon_log_stmt *s = graphs__stmt_of(t, (e)->stmt);
	const pvmmon_log_task *p = e->peer ? graphs__task_by_tid(w->log, e->peer) : NULL;
	size_t g = w->off[i] + k;
	char buf[1024], id[32];

	begin(w, "X", pvmmon_event_op_name(e->op), pid_of(w, i), (int)i + 1, w->t0[g]);
	fputs(", \"dur\": ", w->out);
	put_us(w->out, w->t1[g] - w->t0[g]);
	fputs(", \"cat\": \"pvm\", \"args\": {", w->out);
	fprintf(w->out, "\"statement\": ");
	graphs__json_string(w->out, s ? graphs__stmt_name(buf, sizeof(buf), t, s) : "?");
	if (e->peer) {
		if (p)
			who(id, sizeof(id), p);
		else
			snprintf(id, sizeof(id), "t%x", (unsigned)e->peer);
		fputs(e->op == PVMMON_EV_SPAWN ? ", \"child\": " : ", \"peer\": ", w->out);
		graphs__json_string(w->out, id);
		if (e->op != PVMMON_EV_SPAWN)
			fprintf(w->out, ", \"tag\": %" PRId32 ", \"bytes\": %" PRIu32, e->tag,
			        e->bytes);
		if (e->seq >= 0 && e->op != PVMMON_EV_SPAWN)
			fprintf(w->out, ", \"seq\": %" PRId64, e->seq);
	}
	if (pvmmon_event_op_receives(e->op) || e->op == PVMMON_EV_PROBE)
		fprintf(w->out, ", \"wait_ns\": %" PRId64, e->sync);
	fputs("}", w->out);
	end(w);
	w->n->slices++;
	if (w->flow[g] != NO_FLOW) {
		/* The send's arrow leaves at its start; it arrives at the receive's start,
		 * bound to the receive's slice ("bp": "e", the enclosing slice). */
		int send = pvmmon_event_op_sends(e->op);

		begin(w, send ? "s" : "f", "message", pid_of(w, i), (int)i + 1, w->t0[g]);
		fprintf(w->out, ", \"cat\": \"message\", \"id\": %" PRIu64 "%s", w->flow[g],
		        send ? "" : ", \"bp\": \"e\"");
		end(w);
		w->n->flows += send;
	}
}

/* A procedure's entry as a complete event to its exit (or the task's last event). */
static void put_proc(writer *w, size_t i, size_t k)
{
	const pvmmon_log_event *e = &w->log->tasks[i].events[k];
	size_t g = w->off[i] + k, x = w->close[g];
	int64_t stop = x != SIZE_MAX ? w->t0[x] : w->t1[w->off[i + 1] - 1];
	const char *name =
	    e->tag >= 0 && (size_t)e->tag < w->log->cp.nprocs && w->log->cp.procs[e->tag].name
	        ? w->log->cp.procs[e->tag].name
	        : "procedure (not selected)";

	begin(w, "X", name, pid_of(w, i), (int)i + 1, w->t0[g]);
	fputs(", \"dur\": ", w->out);
	put_us(w->out, stop > w->t0[g] ? stop - w->t0[g] : 0);
	fputs(", \"cat\": \"procedure\"}", w->out);
	w->n->slices++;
}

/* Each event's times on the chosen clock, held monotonic per task (a clock step back
 * is written at the last time, as a viewer wants a thread's slices in order), and
 * each procedure entry's exit. */
static int times(writer *w)
{
	const pvmmon_log *log = w->log;
	size_t *stack = NULL, depth = 0, cap = 0;

	for (size_t i = 0; i < log->ntasks; i++) {
		const pvmmon_log_task *t = &log->tasks[i];
		int64_t last = INT64_MIN;

		depth = 0;
		for (size_t k = 0; k < t->nevents; k++) {
			const pvmmon_log_event *e = &t->events[k];
			size_t g = w->off[i] + k;
			int64_t a = w->real ? e->rt[1] : e->vt0, b = w->real ? e->rt[2] : e->vt1;

			w->t0[g] = a < last ? last : a;
			w->t1[g] = b < w->t0[g] ? w->t0[g] : b;
			last = w->t0[g];
			w->close[g] = SIZE_MAX;
			if (e->op == PVMMON_EV_ENTER) {
				if (depth == cap) {
					size_t *s =
					    realloc(stack, (cap ? cap * 2 : 64) * sizeof(*s));

					if (!s) {
						free(stack);
						return pvmmon_error_set(PVMMON_ENOMEM,
						                        "export: out of memory");
					}
					stack = s;
					cap = cap ? cap * 2 : 64;
				}
				stack[depth++] = g;
			} else if (e->op == PVMMON_EV_EXIT && depth > 0) {
				w->close[stack[--depth]] = g;
			}
		}
	}
	free(stack);
	return 0;
}

/* The flows: each send to the receive of the same receiver, sender and sequence
 * number (the first one not yet taken), both given the same id. */
static int flows(writer *w)
{
	const pvmmon_log *log = w->log;
	size_t nrecv = 0, k = 0;
	graphs_recv_key *keys;
	uint64_t next = 1;

	for (size_t i = 0; i < log->ntasks; i++)
		for (size_t j = 0; j < log->tasks[i].nevents; j++)
			nrecv += is_message(&log->tasks[i].events[j]) &&
			         pvmmon_event_op_receives(log->tasks[i].events[j].op);
	keys = calloc(nrecv ? nrecv : 1, sizeof(*keys));
	if (!keys)
		return pvmmon_error_set(PVMMON_ENOMEM, "export: out of memory");
	for (size_t i = 0; i < log->ntasks; i++)
		for (size_t j = 0; j < log->tasks[i].nevents; j++) {
			const pvmmon_log_event *e = &log->tasks[i].events[j];

			if (is_message(e) && pvmmon_event_op_receives(e->op))
				keys[k++] =
				    (graphs_recv_key){log->tasks[i].tid, e->peer, e->seq, i, j};
		}
	graphs__sort_receives(keys, nrecv);
	for (size_t i = 0; i < log->ntasks; i++) {
		int32_t me = log->tasks[i].tid;

		for (size_t j = 0; j < log->tasks[i].nevents; j++) {
			const pvmmon_log_event *e = &log->tasks[i].events[j];
			size_t lo;

			if (!is_message(e) || !pvmmon_event_op_sends(e->op))
				continue;
			lo = graphs__find_receive(keys, nrecv, e->peer, me, e->seq);
			for (; lo < nrecv && keys[lo].to == e->peer && keys[lo].from == me &&
			       keys[lo].seq == e->seq;
			     lo++) {
				size_t r = w->off[keys[lo].a] + keys[lo].b;

				if (w->flow[r] != NO_FLOW)
					continue;
				w->flow[r] = next;
				w->flow[w->off[i] + j] = next++;
				break;
			}
		}
	}
	free(keys);
	return 0;
}

/* A node of the critical path on the chosen clock: where it is reached (vt), or where
 * its task's next work starts (resume: after a receive's wait). */
static int64_t node_time(const writer *w, const pvmmon_cpath_node *nd, int resume)
{
	const pvmmon_log_task *t = &w->log->tasks[nd->task];

	if (!w->real)
		return resume ? nd->resume : nd->vt;
	if (nd->event == PVMMON_CPATH_NO_EVENT)
		return nd->kind == PVMMON_CPATH_START ? t->start_ns : t->end_ns;
	return w->t0[w->off[nd->task] + nd->event] +
	       (resume && nd->kind == PVMMON_CPATH_RECV
	            ? w->t1[w->off[nd->task] + nd->event] - w->t0[w->off[nd->task] + nd->event]
	            : 0);
}

/* One slice of the critical-path track. */
static void put_segment(writer *w, const char *name, const char *task, int64_t t0, int64_t t1,
                        int64_t L)
{
	begin(w, "X", name, cp_pid(w), cp_tid(w), t0);
	fputs(", \"dur\": ", w->out);
	put_us(w->out, t1 - t0);
	fputs(", \"cat\": \"critical\", \"args\": {\"task\": ", w->out);
	graphs__json_string(w->out, task);
	fprintf(w->out, ", \"path_length_ns\": %" PRId64 "}", L);
	end(w);
	w->n->cp_segments++;
}

/* The critical path as a track of its own: one slice per segment, a task's work
 * between the nodes where the path arrives and leaves (its successive local arcs
 * merged, but not over a receive's wait, which is no part of the path), or a message
 * or spawn from one task to another. A log without one says
 * why in n->no_path. */
static int critical_path(writer *w)
{
	pvmmon_cpath *cp = NULL;
	int64_t last = INT64_MIN, w0 = 0, w1 = 0, wL = 0;
	size_t wtask = SIZE_MAX; /* the task whose work is pending, SIZE_MAX: none */
	char name[128], a[32], b[32];

	if (pvmmon_cpath_compute(&cp, w->log) < 0) {
		snprintf(w->n->no_path, sizeof(w->n->no_path), "%s", pvmmon_error_last());
		return 0;
	}
	meta(w, "process_name", cp_pid(w), 0, "critical path", 0);
	meta(w, "process_sort_index", cp_pid(w), 0, NULL, -1);
	meta(w, "thread_name", cp_pid(w), cp_tid(w), "critical path", 0);
	for (size_t i = 1; i <= cp->npath; i++) {
		const pvmmon_cpath_node *p = &cp->path[i - 1],
		                        *q = i < cp->npath ? &cp->path[i] : NULL;
		int local = q && q->via == PVMMON_CPATH_VIA_LOCAL;
		int64_t t0 = 0, t1 = 0;

		if (q) {
			t0 = node_time(w, p, local);
			t1 = node_time(w, q, !local);
			t0 = t0 < last ? last : t0;
			t1 = t1 < t0 ? t0 : t1;
			last = t0;
		}
		if (local && wtask == q->task && t0 == w1) {
			w1 = t1;
			wL = q->L;
			continue;
		}
		if (wtask != SIZE_MAX) {
			snprintf(name, sizeof(name), "task %s",
			         who(b, sizeof(b), &w->log->tasks[wtask]));
			put_segment(w, name, b, w0, w1, wL);
			wtask = SIZE_MAX;
		}
		if (local) {
			wtask = q->task;
			w0 = t0;
			w1 = t1;
			wL = q->L;
		} else if (q) {
			who(a, sizeof(a), &w->log->tasks[p->task]);
			who(b, sizeof(b), &w->log->tasks[q->task]);
			snprintf(name, sizeof(name), "%s %s -> %s",
			         q->via == PVMMON_CPATH_VIA_SPAWN ? "spawn" : "message", a, b);
			put_segment(w, name, b, t0, t1, q->L);
		}
	}
	w->n->no_path[0] = '\0';
	pvmmon_cpath_free(cp);
	return 0;
}

/* The document's metadata object: what it shows and on which clock. */
static void metadata(writer *w)
{
	const pvmmon_log *log = w->log;

	fputs("\n],\n\"displayTimeUnit\": \"ns\",\n\"metadata\": {\"format\": \"pvmmon-perfetto\", "
	      "\"program\": ",
	      w->out);
	graphs__json_string(w->out, log->program ? log->program : "");
	fprintf(w->out,
	        ", \"clock\": \"%s\", \"tasks\": %zu, \"trace_events\": %" PRIu64
	        ", \"trace_dropped\": %" PRIu64 ", \"critical_path\": ",
	        w->real ? "real" : "virtual", log->ntasks, (uint64_t)w->off[log->ntasks],
	        log->trace.dropped);
	graphs__json_string(w->out,
	                    w->n->no_path[0] ? w->n->no_path : "the thread \"critical path\"");
	fputs("}\n}\n", w->out);
}

int pvmmon_export_perfetto(const pvmmon_log *log, FILE *out, int real, pvmmon_perfetto_counts *n)
{
	pvmmon_perfetto_counts mine;
	writer w = {log, out, real, 0, 0, NULL, NULL, NULL, NULL, NULL, n ? n : &mine};
	size_t total = 0;
	int rc;

	memset(w.n, 0, sizeof(*w.n));
	if (!log || !out)
		return pvmmon_error_set(PVMMON_EINVAL, "export: no log or no output");
	if (!log->trace.enabled)
		return pvmmon_error_set(PVMMON_EINVAL, "the run has no event trace: record one "
		                                       "with pvmmon run --trace");
	for (size_t i = 0; i < log->ntasks; i++)
		total += log->tasks[i].nevents;
	if (total == 0)
		return pvmmon_error_set(PVMMON_EINVAL, "the run's trace holds no events");
	w.off = calloc(log->ntasks + 1, sizeof(*w.off));
	w.t0 = calloc(total, sizeof(*w.t0));
	w.t1 = calloc(total, sizeof(*w.t1));
	w.flow = calloc(total, sizeof(*w.flow));
	w.close = calloc(total, sizeof(*w.close));
	if (!w.off || !w.t0 || !w.t1 || !w.flow || !w.close) {
		rc = pvmmon_error_set(PVMMON_ENOMEM, "export: out of memory");
		goto out;
	}
	for (size_t i = 0; i < log->ntasks; i++)
		w.off[i + 1] = w.off[i] + log->tasks[i].nevents;
	rc = times(&w);
	if (rc == 0)
		rc = flows(&w);
	if (rc < 0)
		goto out;
	/* Times relative to the earliest when one lies before the run's start. */
	for (size_t g = 0; g < total; g++)
		w.base = w.t0[g] < w.base ? w.t0[g] : w.base;
	fputs("{\"traceEvents\": [", out);
	names(&w);
	for (size_t i = 0; i < log->ntasks; i++)
		for (size_t k = 0; k < log->tasks[i].nevents; k++) {
			const pvmmon_log_event *e = &log->tasks[i].events[k];

			if (e->op == PVMMON_EV_ENTER)
				put_proc(&w, i, k);
			else if (is_call(e))
				put_call(&w, i, k);
		}
	rc = critical_path(&w);
	if (rc < 0)
		goto out;
	metadata(&w);
	if (fflush(out) != 0 || ferror(out))
		rc = pvmmon_error_set(PVMMON_EIO, "export: could not write the trace");
out:
	free(w.off);
	free(w.t0);
	free(w.t1);
	free(w.flow);
	free(w.close);
	return rc;
}
