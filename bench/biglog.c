/*
 * Writes a synthetic log of a large run for the report benchmark: TASKS tasks (a master
 * and workers) with STMTS communication statements in all, spread over a few dozen
 * functions, each statement talking to a few partners, and with EVENTS > 0 an event trace
 * of a master/worker exchange: each worker sends EVENTS/2 requests to the master and
 * receives as many replies. Usage: biglog OUT [TASKS STMTS [EVENTS]].
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pvmmon/errors.h"
#include "pvmmon/log.h"

static char *fmt(const char *f, int a)
{
	char buf[128];

	snprintf(buf, sizeof(buf), f, a);
	return strdup(buf);
}

/* Appends an event to task k (arrays sized by the caller). */
static void add_event(pvmmon_log_task *k, pvmmon_event_op op, int32_t peer, int64_t seq,
		      int64_t t, int64_t wait, int64_t intrusion)
{
	pvmmon_log_event *e = &k->events[k->nevents++];

	e->op = op;
	e->peer = peer;
	e->tag = pvmmon_event_op_sends(op) ? 1 : 2;
	e->bytes = 8192;
	e->seq = seq;
	e->stmt = pvmmon_event_op_sends(op) ? 1 : 2;
	e->rt[0] = t;
	e->rt[1] = t + 2000;
	e->rt[2] = t + 2000 + wait + 5000;
	e->rt[3] = e->rt[2] + 2000;
	e->vt0 = t - intrusion;
	e->vt1 = e->vt0 + wait + 5000;
	e->sync = wait;
}

static int cmp_time(const void *a, const void *b)
{
	const pvmmon_log_event *x = a, *y = b;

	return x->rt[0] < y->rt[0] ? -1 : x->rt[0] > y->rt[0];
}

/*
 * A master/worker trace: worker w computes, sends request i to the master and waits
 * for its reply; the master receives requests in arrival order and answers each.
 * Times spread the workers over a 50 s run.
 */
static void add_trace(pvmmon_log *log, int events)
{
	int nw = (int)log->ntasks - 1, iters = events / 2;
	int64_t period = 50000000000LL / iters;
	pvmmon_log_task *m = &log->tasks[0];

	m->events = calloc((size_t)nw * (size_t)iters * 2, sizeof(*m->events));
	for (int w = 1; w <= nw; w++) {
		pvmmon_log_task *k = &log->tasks[w];

		k->events = calloc((size_t)iters * 2, sizeof(*k->events));
		for (int i = 0; i < iters; i++) {
			int64_t t = 1000000LL + i * period + w * (period / (nw + 1));
			int64_t intr = (int64_t)i * 20000;

			add_event(k, PVMMON_EV_SEND, m->tid, i, t, 0, intr);
			add_event(m, PVMMON_EV_RECV, k->tid, i, t + 60000, 0, intr);
			add_event(m, PVMMON_EV_SEND, k->tid, i, t + 80000, 0, intr);
			add_event(k, PVMMON_EV_RECV, m->tid, i, t + 20000, 100000, intr);
		}
	}
	qsort(m->events, m->nevents, sizeof(*m->events), cmp_time);
	log->trace.enabled = 1;
	log->trace.limit_bytes = 16u << 20;
	log->trace.kept = (uint64_t)nw * (uint64_t)iters * 4;
	log->trace.complete_until_ns = log->wall_ns;
}

int main(int argc, char **argv)
{
	int ntasks = argc > 2 ? atoi(argv[2]) : 64, nstmts = argc > 3 ? atoi(argv[3]) : 500;
	int events = argc > 4 ? atoi(argv[4]) : 0;
	static const char *const ops[] = {"pvm_send", "pvm_recv", "pvm_mcast", "pvm_nrecv"};
	pvmmon_log *log = NULL;
	int s = 0;

	if (argc < 2 || ntasks < 2 || nstmts < ntasks) {
		fprintf(stderr, "usage: biglog OUT [TASKS>=2 STMTS>=TASKS [EVENTS]]\n");
		return 2;
	}
	if (pvmmon_log_new(&log) < 0)
		return 1;
	log->program = strdup("/home/user/bin/solver");
	log->started = strdup("2026-11-22T12:00:00Z");
	log->mode = strdup("observe");
	log->wall_ns = 60000000000;
	log->nhosts = 1;
	log->hosts = calloc(1, sizeof(*log->hosts));
	log->hosts[0].name = strdup("node0");
	log->hosts[0].arch = strdup("LINUX64");
	log->hosts[0].dtid = 0x40000;
	log->ntasks = (size_t)ntasks;
	log->tasks = calloc((size_t)ntasks, sizeof(*log->tasks));
	for (int t = 0; t < ntasks; t++) {
		pvmmon_log_task *k = &log->tasks[t];
		int mine = nstmts / ntasks + (t < nstmts % ntasks);

		k->tid = 0x40001 + t;
		k->lid = t ? fmt("0.%d", t) : strdup("0");
		k->parent_tid = t ? 0x40001 : 0;
		k->host = strdup("node0");
		k->pid = 1000 + t;
		k->program = strdup(t ? "/home/user/bin/solver-worker" : "/home/user/bin/solver");
		k->status = PVMMON_TASK_EXITED;
		k->start_ns = 500000LL + t * 1000LL;
		k->end_ns = 52000000000LL;
		k->virtual_ns = 50000000000LL + t * 1000000LL;
		k->intrusion_ns = 100000000;
		k->nstmts = (size_t)mine;
		k->stmts = calloc((size_t)mine, sizeof(*k->stmts));
		for (int j = 0; j < mine; j++, s++) {
			pvmmon_log_stmt *st = &k->stmts[j];

			st->id = (uint32_t)j + 1;
			st->op = strdup(ops[s % 4]);
			st->file = strdup(t ? "solver-worker.c" : "solver.c");
			st->line = 100 + s * 3;
			st->function = fmt("phase%d", j % 24);
			st->count = 1000 + (uint64_t)(s * 37 % 5000);
			/* A few statements hold most of the time, as in real programs. */
			st->time_ns = (int64_t)(j % 10 == 0 ? 3000000000LL : 20000000LL) + s;
			st->sync_ns = st->time_ns / 2;
			st->trans_ns = st->time_ns / 10;
			st->bytes = st->count * 8192;
			st->ncom = 3;
			st->com = calloc(3, sizeof(*st->com));
			for (int c = 0; c < 3; c++) {
				st->com[c].partner_tid = 0x40001 + (t + 1 + c) % ntasks;
				st->com[c].partner_lid = NULL;
				st->com[c].count = st->count / 3;
				st->com[c].bytes = st->bytes / 3;
			}
		}
	}
	if (events > 1)
		add_trace(log, events);
	if (pvmmon_log_write(log, argv[1]) < 0) {
		fprintf(stderr, "biglog: %s\n", pvmmon_error_last());
		pvmmon_log_free(log);
		return 1;
	}
	pvmmon_log_free(log);
	return 0;
}
