/*
 * Writes a synthetic log of a large run for the report benchmark: TASKS tasks (a master
 * and workers) with STMTS communication statements in all, spread over a few dozen
 * functions, each statement talking to a few partners. Usage: biglog OUT [TASKS STMTS].
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

int main(int argc, char **argv)
{
	int ntasks = argc > 2 ? atoi(argv[2]) : 64, nstmts = argc > 3 ? atoi(argv[3]) : 500;
	static const char *const ops[] = {"pvm_send", "pvm_recv", "pvm_mcast", "pvm_nrecv"};
	pvmmon_log *log = NULL;
	int s = 0;

	if (argc < 2 || ntasks < 2 || nstmts < ntasks) {
		fprintf(stderr, "usage: biglog OUT [TASKS>=2 STMTS>=TASKS]\n");
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
	if (pvmmon_log_write(log, argv[1]) < 0) {
		fprintf(stderr, "biglog: %s\n", pvmmon_error_last());
		pvmmon_log_free(log);
		return 1;
	}
	pvmmon_log_free(log);
	return 0;
}
