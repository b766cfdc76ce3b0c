/* Unit tests for the log model, writer and reader (common/log_model.c, log_write.c,
 * log_read.c): round trips, atomic replacement, and one-line errors for damaged logs
 * (bad inputs and the fixture log: test_log_inputs.c). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <CUnit/CUnit.h>
#include <libxml/xmlmemory.h>

#include "../../../replay/replay.h"
#include "pvmmon/errors.h"
#include "pvmmon/log.h"

static char scratch[256];

static const char *scratch_dir(void)
{
	if (!scratch[0]) {
		const char *t = getenv("TMPDIR");

		snprintf(scratch, sizeof(scratch), "%s/pvmmon-unit.XXXXXX", t && *t ? t : "/tmp");
		if (!mkdtemp(scratch))
			scratch[0] = '\0';
	}
	return scratch;
}

/* The suite's cleanup: the scratch folder goes with whatever a failed test left in it
 * (a fatal assertion returns before the test's own unlink). */
int test_log_cleanup(void)
{
	DIR *d;
	struct dirent *e;

	if (!scratch[0] || !(d = opendir(scratch)))
		return 0;
	while ((e = readdir(d)) != NULL) {
		char p[600];

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(p, sizeof(p), "%s/%s", scratch, e->d_name);
		unlink(p);
	}
	closedir(d);
	rmdir(scratch);
	scratch[0] = '\0';
	return 0;
}

static char *path_in(const char *name)
{
	char *p = NULL;

	if (asprintf(&p, "%s/%s", scratch_dir(), name) < 0)
		return NULL;
	return p;
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
}

static char *read_text(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = calloc(1, 1 << 16);

	if (f) {
		size_t n = fread(buf, 1, (1 << 16) - 1, f);

		buf[n] = '\0';
		fclose(f);
	}
	return buf;
}

/* Task 0's two statements: a receive with its partners, and a bare send. */
static void fill_stmts(pvmmon_log_task *t)
{
	pvmmon_log_stmt *s;

	t->nstmts = 2;
	t->stmts = calloc(2, sizeof(*t->stmts));
	s = &t->stmts[0];
	s->id = 0;
	s->op = strdup("pvm_recv");
	s->module = strdup("/opt/app/matmul");
	s->offset = 0x1a2b;
	s->file = strdup("apps/matmul.c");
	s->line = 51;
	s->function = strdup("main");
	s->count = 20;
	s->time_ns = 999;
	s->sync_ns = 500;
	s->trans_ns = 400;
	s->bytes = 4096;
	s->unmonitored = 1;
	s->indirect = 7; /* 1.14: the online wait analysis's share of it */
	s->indirect_ns = 200;
	s->ncom = 2;
	s->com = calloc(2, sizeof(*s->com));
	s->com[0].partner_tid = 0x40002;
	s->com[0].partner_lid = strdup("0.0");
	s->com[0].count = 19;
	s->com[0].bytes = 4000;
	s->com[0].trans_ns = 400;
	s->com[0].sync_ns = 500;
	s->com[1].partner_tid = 0x80040000;
	s->com[1].count = 1;
	s->com[1].bytes = 96;
	s = &t->stmts[1];
	s->id = 1;
	s->op = strdup("pvm_send");
	s->offset = 0x10;
	s->count = 1;
}

/* Task 0's procedure, loop, cost, static table and events. */
static void fill_procs_loops_events(pvmmon_log_task *t)
{
	t->nprocs = 1;
	t->procs = calloc(1, sizeof(*t->procs));
	t->procs[0].name = strdup("multiply");
	t->procs[0].line = 12;
	t->procs[0].caller = strdup("main");
	t->procs[0].call_line = 40;
	t->procs[0].count = 3;
	t->procs[0].incl_ns = 30;
	t->procs[0].excl_ns = 20;
	t->procs[0].raw_incl_ns = 90;
	t->procs[0].raw_excl_ns = 50;
	t->procs[0].local_incl_ns = 45;
	t->procs[0].local_excl_ns = 28;
	t->procs[0].throttled_at_ns = 700;
	t->procs[0].throttle_call_ns = 10;
	t->procs[0].throttle_pair_ns = 66;
	t->has_raw = 1;
	t->raw_ns = 5000;
	t->local_ns = 4000;
	t->uncertainty_ns = 120;
	t->clamped_ns = 12;
	t->nloops = 1;
	t->loops = calloc(1, sizeof(*t->loops));
	t->loops[0].name = strdup("rows");
	t->loops[0].file = strdup("apps/matmul.c");
	t->loops[0].line = 40;
	t->loops[0].proc = strdup("multiply");
	t->loops[0].count = 2;
	t->loops[0].time_ns = 25;
	t->loops[0].disabled = 1;
	t->procs[0].disabled = 1;
	t->cost = (pvmmon_log_cost){1,  61,      57,      98,     10000, 27000, 12,
	                            5000000, 4000000, 151250, 1480,  2500000, 3, 52, 66, 262146};
	t->loops[0].raw_ns = 70;
	t->loops[0].local_ns = 33;
	t->nstatics = 2;
	t->statics = calloc(2, sizeof(*t->statics));
	t->statics[0].kind = PVMMON_STATIC_PROC;
	t->statics[0].name = strdup("main");
	t->statics[0].file = strdup("apps/matmul.c");
	t->statics[0].line = 62;
	t->statics[0].parent = -1;
	t->statics[1].kind = PVMMON_STATIC_COM;
	t->statics[1].name = strdup("pvm_mcast");
	t->statics[1].line = 116;
	t->statics[1].parent = 0;
	t->nevents = 3;
	t->events = calloc(3, sizeof(*t->events));
	t->events[0] = (pvmmon_log_event){PVMMON_EV_MCAST,      0x40002, 5,   800, 0, 1,
	                                  {100, 110, 150, 170}, 90,      130, 0,   0, 0, 0, 0};
	t->events[1] = (pvmmon_log_event){
	    PVMMON_EV_RECV, 0x40002, 6, 16, -1, 0, {-3, 200, 9000000000LL, 9000000010LL}, 180,
	    7000,           6500,    77,  1, -1, 6};
	t->events[2] = (pvmmon_log_event){PVMMON_EV_EXIT,       0,   1,   0, -1, 0,
	                                  {300, 300, 300, 300}, 250, 250, 0, 0, 0, 0, 0};
}

/* The run's critical path, trace summary, budget and switches. */
static void fill_run_extras(pvmmon_log *log)
{
	log->cp.enabled = 1;
	log->cp.exclusive = 1;
	log->cp.length_ns = 123456;
	log->cp.end_tid = 0x40002;
	log->cp.samples = 9;
	log->cp.nprocs = 2;
	log->cp.procs = calloc(2, sizeof(*log->cp.procs));
	log->cp.procs[0] = (pvmmon_log_cp_proc){strdup("create_seq"), 80000, 70000};
	log->cp.procs[1] = (pvmmon_log_cp_proc){strdup("do_rank"), 30000, 1000};
	log->trace = (pvmmon_log_trace){1, 16 << 20, 2, 5, 200, 2, NULL, 3};
	/* Preserve mode's decisions: one by the monitor with two candidates, a timeout. */
	log->trace.decisions = calloc(2, sizeof(*log->trace.decisions));
	log->trace.decisions[0] = (pvmmon_log_decision){
	    strdup("0.3"), strdup("task"), strdup("recv"), 1000, 2000, -1, strdup("0"), 43, 10,
	    2500, 2, calloc(2, sizeof(pvmmon_log_pcand))};
	log->trace.decisions[0].cands[0] = (pvmmon_log_pcand){strdup("0"), 43, 1, 2100};
	log->trace.decisions[0].cands[1] = (pvmmon_log_pcand){strdup("0.2"), 44, 0, 2300};
	log->trace.decisions[1] = (pvmmon_log_decision){
	    strdup("0"), strdup("monitor"), strdup("trecv"), 3000, 4000, 104000, NULL, 0, 0,
	    104000, 0, NULL};
	log->replayable = 1;
	log->budget_pct = 2.5;
	log->nswitches = 2;
	log->switches = calloc(2, sizeof(*log->switches));
	log->switches[0] = (pvmmon_log_switch){1000, 0, strdup("kind=loop"), strdup("budget"),
	                                       strdup("coarse first")};
	log->switches[1] =
	    (pvmmon_log_switch){2000000, 1, strdup("task=0.1,proc=solve"), strdup("user"), NULL};
}

/* Task 0's replay record: receives from two senders, a polling run and a spawn. */
static void fill_record(pvmmon_log_task *t)
{
	replay_entry in[] = {{PVMMON_EV_SPAWN, REPLAY_SPAWN, 0, 0, 0, 1, 0, NULL},
	                     {PVMMON_EV_RECV, REPLAY_MSG, 1, 5, 0, 0, 0, NULL},
	                     {PVMMON_EV_NRECV, REPLAY_NONE, 0, 0, 0, 0, 0, NULL},
	                     {PVMMON_EV_NRECV, REPLAY_NONE, 0, 0, 0, 0, 0, NULL},
	                     {PVMMON_EV_NRECV, REPLAY_MSG, 0, 6, 2, 0, 0, NULL}};
	replay_enc e;
	wire_buf b;

	replay__enc_init(&e);
	wire__buf_init(&b);
	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++)
		CU_ASSERT_EQUAL(replay__enc_add(&e, &in[i]), 0);
	CU_ASSERT_EQUAL(replay__enc_take(&e, &b), 0);
	replay__enc_free(&e);
	t->record = b.data;
	t->record_len = b.len;
	t->record_entries = sizeof(in) / sizeof(in[0]);
	t->record_nsenders = 2;
	t->record_senders = calloc(2, sizeof(char *));
	t->record_senders[0] = strdup("0.0");
	t->record_senders[1] = strdup("t80040000");
}

/* A model that uses every field, with the optional strings left NULL in places. */
static pvmmon_log *full_log(void)
{
	pvmmon_log *log = NULL;
	pvmmon_log_task *t;

	CU_ASSERT_EQUAL_FATAL(pvmmon_log_new(&log), 0);
	log->tool_version = strdup("0.1.0");
	log->program = strdup("/opt/app/matmul");
	log->nargs = 2;
	log->args = calloc(2, sizeof(char *));
	log->args[0] = strdup("-n");
	log->args[1] = strdup("<60 & \"more\">");
	log->mode = strdup("observe");
	log->started = strdup("2026-11-22T10:00:00Z");
	log->wall_ns = 123456789012LL;
	log->exit_code = 3;
	log->nsettings = 1;
	log->settings = calloc(1, sizeof(*log->settings));
	log->settings[0].key = strdup("flush-ms");
	log->settings[0].value = strdup("1000");
	/* A hang the monitor said (1.3). */
	log->nhangs = 1;
	log->hangs = calloc(1, sizeof(*log->hangs));
	log->hangs[0].kind = strdup("deadlock");
	log->hangs[0].text = strdup("task 0.0 waits at c.c:4 for tag 2 from 0.1; task 0.1 "
	                            "waits at c.c:9 for tag 1 from 0.0");
	log->hangs[0].delay_ns = 100000000;
	log->nfindings = 1;
	log->findings = calloc(1, sizeof(*log->findings));
	log->findings[0].kind = strdup("unpack");
	log->findings[0].task = strdup("0.4");
	log->findings[0].text = strdup("task 0.4 unpacked a string at node.c:215 from a message "
	                               "packed as 1 int at node.c:73 by task 0.1 (tag 1)");
	log->findings[0].count = 3;
	log->nhosts = 2;
	log->hosts = calloc(2, sizeof(*log->hosts));
	log->hosts[0].name = strdup("node1");
	log->hosts[0].arch = strdup("LINUX64");
	log->hosts[0].dtid = 0x40000;
	/* A host whose clock runs 5 ms ahead of the monitor's (offset -5 ms). */
	log->hosts[1].name = strdup("node2");
	log->hosts[1].dtid = 0x80000;
	log->hosts[1].clock_known = 1;
	log->hosts[1].clock_offset_ns = -5000123;
	log->hosts[1].clock_uncertainty_ns = 37000;
	/* ... and drifting 12.5 ppm, fitted to 7 estimates, the offset for 3.25 s. */
	log->hosts[1].clock_at_ns = 3250000000LL;
	log->hosts[1].clock_drift_ppb = -12500;
	log->hosts[1].clock_estimates = 7;
	log->ntasks = 2;
	log->tasks = calloc(2, sizeof(*log->tasks));
	t = &log->tasks[0];
	t->tid = 0x40001;
	t->lid = strdup("0");
	t->host = strdup("node1");
	t->pid = 4242;
	t->program = strdup("matmul");
	t->status = PVMMON_TASK_EXITED;
	t->waiting = strdup("at m.c:12 for tag 7 from any task");
	t->clock = strdup("tsc");
	t->start_ns = 5;
	t->end_ns = 6000000000LL;
	t->virtual_ns = 5900000000LL;
	t->intrusion_ns = 1000;
	t->flushes = 7;
	t->msgs_sent = 10;
	t->msgs_recv = 11;
	t->bytes_sent = 1ull << 40;
	t->bytes_recv = 13;
	t->unmonitored_recv = 1;
	fill_stmts(t);
	fill_procs_loops_events(t);
	fill_record(t);
	fill_run_extras(log);
	/* The online wait analysis (1.14): task 0 waited for 0.0's computation before its
	 * statement 1, and through it for its own before statement 0. */
	t->nblames = 2;
	t->blames = calloc(2, sizeof(*t->blames));
	t->blames[0] = (pvmmon_log_blame){0x40002, 1, 300, 0, 19};
	t->blames[1] = (pvmmon_log_blame){0x40001, 0, 0, 200, 7};
	t = &log->tasks[1];
	t->tid = 0x40002;
	t->lid = strdup("0.0");
	t->parent_tid = 0x40001;
	t->status = PVMMON_TASK_CRASHED;
	return log;
}

/* Events compared field by field: struct padding is not part of the value. */
static int same_event(const pvmmon_log_event *a, const pvmmon_log_event *b)
{
	return a->op == b->op && a->peer == b->peer && a->tag == b->tag && a->bytes == b->bytes &&
	       a->seq == b->seq && a->stmt == b->stmt && !memcmp(a->rt, b->rt, sizeof(a->rt)) &&
	       a->vt0 == b->vt0 && a->vt1 == b->vt1 && a->sync == b->sync && a->trans == b->trans && a->nd == b->nd &&
	       a->want_peer == b->want_peer && a->want_tag == b->want_tag;
}

#define SAME_STR(a, b) CU_ASSERT((a) == NULL ? (b) == NULL : ((b) != NULL && !strcmp((a), (b))))

/* The tasks read back: every field the model sets, statement by statement. */
static void check_tasks(const pvmmon_log *a, const pvmmon_log *b)
{
	size_t i, j, k;

	CU_ASSERT_EQUAL_FATAL(b->ntasks, 2);
	for (i = 0; i < 2; i++) {
		const pvmmon_log_task *x = &a->tasks[i], *y = &b->tasks[i];

		CU_ASSERT_EQUAL(x->tid, y->tid);
		SAME_STR(x->lid, y->lid);
		SAME_STR(x->host, y->host);
		SAME_STR(x->program, y->program);
		CU_ASSERT_EQUAL(x->parent_tid, y->parent_tid);
		CU_ASSERT_EQUAL(x->pid, y->pid);
		CU_ASSERT_EQUAL(x->status, y->status);
		CU_ASSERT_EQUAL(x->end_ns, y->end_ns);
		CU_ASSERT_EQUAL(x->virtual_ns, y->virtual_ns);
		CU_ASSERT_EQUAL(x->flushes, y->flushes);
		CU_ASSERT_EQUAL(x->bytes_sent, y->bytes_sent);
		CU_ASSERT_EQUAL(x->unmonitored_recv, y->unmonitored_recv);
		CU_ASSERT_EQUAL_FATAL(x->nstmts, y->nstmts);
		for (j = 0; j < x->nstmts; j++) {
			const pvmmon_log_stmt *s = &x->stmts[j], *u = &y->stmts[j];

			SAME_STR(s->op, u->op);
			SAME_STR(s->module, u->module);
			SAME_STR(s->file, u->file);
			SAME_STR(s->function, u->function);
			CU_ASSERT_EQUAL(s->offset, u->offset);
			CU_ASSERT_EQUAL(s->line, u->line);
			CU_ASSERT_EQUAL(s->count, u->count);
			CU_ASSERT_EQUAL(s->time_ns, u->time_ns);
			CU_ASSERT_EQUAL(s->sync_ns, u->sync_ns);
			CU_ASSERT_EQUAL(s->trans_ns, u->trans_ns);
			CU_ASSERT_EQUAL(s->unmonitored, u->unmonitored);
			CU_ASSERT_EQUAL(s->indirect, u->indirect);
			CU_ASSERT_EQUAL(s->indirect_ns, u->indirect_ns);
			CU_ASSERT_EQUAL_FATAL(s->ncom, u->ncom);
			for (k = 0; k < s->ncom; k++) {
				CU_ASSERT_EQUAL(s->com[k].partner_tid, u->com[k].partner_tid);
				SAME_STR(s->com[k].partner_lid, u->com[k].partner_lid);
				CU_ASSERT_EQUAL(s->com[k].bytes, u->com[k].bytes);
				CU_ASSERT_EQUAL(s->com[k].sync_ns, u->com[k].sync_ns);
			}
		}
		CU_ASSERT_EQUAL_FATAL(x->nprocs, y->nprocs);
		CU_ASSERT_EQUAL_FATAL(x->nloops, y->nloops);
		CU_ASSERT_EQUAL_FATAL(x->nevents, y->nevents);
		for (j = 0; j < x->nevents; j++)
			CU_ASSERT(same_event(&x->events[j], &y->events[j]));
		CU_ASSERT_EQUAL_FATAL(x->record_len, y->record_len);
		CU_ASSERT(x->record_len == 0 || !memcmp(x->record, y->record, x->record_len));
		CU_ASSERT_EQUAL(x->record_entries, y->record_entries);
		CU_ASSERT_EQUAL_FATAL(x->record_nsenders, y->record_nsenders);
		for (j = 0; j < x->record_nsenders; j++)
			SAME_STR(x->record_senders[j], y->record_senders[j]);
		CU_ASSERT_EQUAL_FATAL(x->nblames, y->nblames);
		for (j = 0; j < x->nblames; j++)
			CU_ASSERT(!memcmp(&x->blames[j], &y->blames[j], sizeof(x->blames[j])));
	}
	CU_ASSERT_EQUAL(b->tasks[0].nblames, 2);
	CU_ASSERT_EQUAL(b->tasks[0].stmts[0].indirect, 7);
}

/* Dynamic instrumentation (switched-off records, cost, budget, switches) and the raw
 * and local times read back. */
static void check_dynamic_and_raw(const pvmmon_log *a, const pvmmon_log *b)
{
	CU_ASSERT_EQUAL(b->tasks[0].loops[0].disabled, 1);
	CU_ASSERT_EQUAL(b->tasks[0].procs[0].disabled, 1);
	CU_ASSERT_EQUAL(b->tasks[1].cost.known, 0);
	{
		const pvmmon_log_cost *x = &a->tasks[0].cost, *y = &b->tasks[0].cost;

		CU_ASSERT(y->known == 1 && y->proc_pair_ns == x->proc_pair_ns &&
		          y->loop_pair_ns == x->loop_pair_ns && y->wrapper_ns == x->wrapper_ns &&
		          y->pb_send_ns == x->pb_send_ns && y->pb_recv_ns == x->pb_recv_ns &&
		          y->wrapped_calls == x->wrapped_calls &&
		          y->observed_ns == x->observed_ns && y->predicted_ns == x->predicted_ns);
		/* The in-place costs and the static estimate, optional, round trip too. */
		CU_ASSERT_EQUAL(y->site_on_ps, 151250);
		CU_ASSERT_EQUAL(y->site_off_ps, 1480);
		CU_ASSERT_EQUAL(y->static_ns, 2500000);
		CU_ASSERT_EQUAL(b->tasks[1].cost.site_off_ps, 0);
		/* And the calibration's re-checks (1.7). */
		CU_ASSERT_EQUAL(y->rechecks, 3);
		CU_ASSERT_EQUAL(y->recheck_min_ns, 52);
		CU_ASSERT_EQUAL(y->recheck_max_ns, 66);
		CU_ASSERT_EQUAL(b->tasks[1].cost.rechecks, 0);
		/* And whose calibration it took (1.8); none: its own. */
		CU_ASSERT_EQUAL(y->calibrated_by, 262146);
		CU_ASSERT_EQUAL(b->tasks[1].cost.calibrated_by, 0);
	}
	CU_ASSERT_DOUBLE_EQUAL(b->budget_pct, 2.5, 1e-9);
	CU_ASSERT_EQUAL_FATAL(b->nswitches, 2);
	CU_ASSERT_EQUAL(b->switches[0].time_ns, 1000);
	CU_ASSERT_EQUAL(b->switches[0].on, 0);
	CU_ASSERT_EQUAL(b->switches[1].on, 1);
	SAME_STR(a->switches[0].reason, b->switches[0].reason);
	SAME_STR(a->switches[1].resource, b->switches[1].resource);
	SAME_STR(a->switches[1].by, b->switches[1].by);
	CU_ASSERT_PTR_NULL(b->switches[1].reason);
	/* The raw and local times come back with their flag. */
	CU_ASSERT_EQUAL(b->tasks[0].has_raw, 1);
	CU_ASSERT_EQUAL(b->tasks[0].raw_ns, 5000);
	CU_ASSERT_EQUAL(b->tasks[0].local_ns, 4000);
	CU_ASSERT_EQUAL(b->tasks[0].procs[0].raw_incl_ns, 90);
	CU_ASSERT_EQUAL(b->tasks[0].procs[0].raw_excl_ns, 50);
	CU_ASSERT_EQUAL(b->tasks[0].procs[0].local_incl_ns, 45);
	CU_ASSERT_EQUAL(b->tasks[0].procs[0].local_excl_ns, 28);
	/* Since 1.4: the uncertainty, the clamped charges and a throttled procedure. */
	CU_ASSERT_EQUAL(b->tasks[0].uncertainty_ns, 120);
	CU_ASSERT_EQUAL(b->tasks[0].clamped_ns, 12);
	CU_ASSERT_EQUAL(b->tasks[0].procs[0].throttled_at_ns, 700);
	CU_ASSERT_EQUAL(b->tasks[0].procs[0].throttle_call_ns, 10);
	CU_ASSERT_EQUAL(b->tasks[0].procs[0].throttle_pair_ns, 66);
	CU_ASSERT_EQUAL(b->tasks[0].loops[0].raw_ns, 70);
	CU_ASSERT_EQUAL(b->tasks[0].loops[0].local_ns, 33);
}

static void test_round_trip(void)
{
	pvmmon_log *a = full_log(), *b = NULL;
	char *path = path_in("round.xml");

	CU_ASSERT_EQUAL(pvmmon_log_write(a, path), 0);
	CU_ASSERT_EQUAL(pvmmon_log_validate(path), 0);
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&b, path), 0);
	CU_ASSERT_EQUAL(b->version_major, 1);
	SAME_STR(a->tool_version, b->tool_version);
	SAME_STR(a->program, b->program);
	CU_ASSERT_EQUAL_FATAL(b->nargs, 2);
	SAME_STR(a->args[1], b->args[1]);
	SAME_STR(a->started, b->started);
	CU_ASSERT_EQUAL(a->wall_ns, b->wall_ns);
	CU_ASSERT_EQUAL(b->exit_code, 3);
	CU_ASSERT_EQUAL_FATAL(b->nsettings, 1);
	SAME_STR(a->settings[0].value, b->settings[0].value);
	CU_ASSERT_EQUAL_FATAL(b->nhangs, 1);
	SAME_STR(a->hangs[0].kind, b->hangs[0].kind);
	SAME_STR(a->hangs[0].text, b->hangs[0].text);
	CU_ASSERT_EQUAL(b->hangs[0].delay_ns, 100000000);
	/* The usage checks' findings (1.9). */
	CU_ASSERT_EQUAL_FATAL(b->nfindings, 1);
	SAME_STR(a->findings[0].kind, b->findings[0].kind);
	SAME_STR(a->findings[0].task, b->findings[0].task);
	SAME_STR(a->findings[0].text, b->findings[0].text);
	CU_ASSERT_EQUAL(b->findings[0].count, 3);
	SAME_STR(a->tasks[0].waiting, b->tasks[0].waiting);
	CU_ASSERT_PTR_NOT_NULL(b->tasks[0].waiting);
	/* The clock a task read is optional: said for the first task only. */
	SAME_STR(a->tasks[0].clock, b->tasks[0].clock);
	CU_ASSERT_PTR_NOT_NULL(b->tasks[0].clock);
	CU_ASSERT_PTR_NULL(b->tasks[1].clock);
	SAME_STR(a->hosts[0].arch, b->hosts[0].arch);
	CU_ASSERT_EQUAL(b->hosts[0].dtid, 0x40000);
	/* Clock offsets are optional per host: absent stays unknown. */
	CU_ASSERT_EQUAL(b->hosts[0].clock_known, 0);
	CU_ASSERT_EQUAL(b->hosts[1].clock_known, 1);
	CU_ASSERT_EQUAL(b->hosts[1].clock_offset_ns, -5000123);
	CU_ASSERT_EQUAL(b->hosts[1].clock_uncertainty_ns, 37000);
	CU_ASSERT_EQUAL(b->hosts[1].clock_at_ns, 3250000000LL);
	CU_ASSERT_EQUAL(b->hosts[1].clock_drift_ppb, -12500);
	CU_ASSERT_EQUAL(b->hosts[1].clock_estimates, 7);
	CU_ASSERT_EQUAL(b->hosts[0].clock_estimates, 0);
	SAME_STR(a->hosts[1].name, b->hosts[1].name);
	check_tasks(a, b);
	CU_ASSERT_EQUAL(b->replayable, 1);
	CU_ASSERT_EQUAL(b->tasks[0].record_entries, 5);
	CU_ASSERT_PTR_NULL(b->tasks[1].record);
	CU_ASSERT_EQUAL(b->trace.enabled, 1);
	CU_ASSERT_EQUAL(b->trace.limit_bytes, 16 << 20);
	CU_ASSERT_EQUAL(b->trace.kept, 2);
	CU_ASSERT_EQUAL(b->trace.dropped, 5);
	CU_ASSERT_EQUAL(b->trace.complete_until_ns, 200);
	CU_ASSERT_EQUAL(b->trace.decisions_dropped, 3);
	CU_ASSERT_EQUAL_FATAL(b->trace.ndecisions, 2);
	{
		const pvmmon_log_decision *d = &b->trace.decisions[0], *e = &b->trace.decisions[1];

		CU_ASSERT_STRING_EQUAL(d->task, "0.3");
		CU_ASSERT_STRING_EQUAL(d->by, "task");
		CU_ASSERT_STRING_EQUAL(d->kind, "recv");
		CU_ASSERT_EQUAL(d->at_ns, 1000);
		CU_ASSERT_EQUAL(d->vt_ns, 2000);
		CU_ASSERT_EQUAL(d->deadline_ns, -1);
		CU_ASSERT_STRING_EQUAL(d->taken, "0");
		CU_ASSERT_EQUAL(d->taken_tag, 43);
		CU_ASSERT_EQUAL(d->window_ns, 10);
		CU_ASSERT_EQUAL(d->horizon_ns, 2500);
		CU_ASSERT_EQUAL_FATAL(d->ncands, 2);
		CU_ASSERT_STRING_EQUAL(d->cands[1].from, "0.2");
		CU_ASSERT_EQUAL(d->cands[1].tag, 44);
		CU_ASSERT_EQUAL(d->cands[1].va_ns, 2300);
		CU_ASSERT_EQUAL(d->cands[0].seq, 1);
		CU_ASSERT_STRING_EQUAL(e->by, "monitor");
		CU_ASSERT_STRING_EQUAL(e->kind, "trecv");
		CU_ASSERT_EQUAL(e->deadline_ns, 104000);
		CU_ASSERT_PTR_NULL(e->taken);
		CU_ASSERT_EQUAL(e->ncands, 0);
	}
	CU_ASSERT(b->cp.enabled && b->cp.exclusive && b->cp.length_ns == 123456);
	CU_ASSERT(b->cp.end_tid == 0x40002 && b->cp.samples == 9);
	CU_ASSERT_EQUAL_FATAL(b->cp.nprocs, 2);
	CU_ASSERT_STRING_EQUAL(b->cp.procs[1].name, "do_rank");
	CU_ASSERT(b->cp.procs[0].share_ns == 80000 && b->cp.procs[0].zero_ns == 70000);
	CU_ASSERT_STRING_EQUAL(pvmmon_event_op_name(PVMMON_EV_PRECV), "pvm_precv");
	CU_ASSERT_EQUAL(pvmmon_event_op_parse("pvm_probe"), PVMMON_EV_PROBE);
	CU_ASSERT_EQUAL(pvmmon_event_op_parse("pvm_exit"), 0);
	CU_ASSERT_PTR_NULL(pvmmon_event_op_name((pvmmon_event_op)0));
	CU_ASSERT_EQUAL_FATAL(b->tasks[0].nstatics, 2);
	CU_ASSERT_EQUAL(b->tasks[0].statics[0].kind, PVMMON_STATIC_PROC);
	CU_ASSERT_EQUAL(b->tasks[0].statics[0].parent, -1);
	SAME_STR(a->tasks[0].statics[0].file, b->tasks[0].statics[0].file);
	CU_ASSERT_EQUAL(b->tasks[0].statics[1].kind, PVMMON_STATIC_COM);
	CU_ASSERT_EQUAL(b->tasks[0].statics[1].parent, 0);
	CU_ASSERT_EQUAL(b->tasks[0].statics[1].line, 116);
	SAME_STR(a->tasks[0].statics[1].name, b->tasks[0].statics[1].name);
	CU_ASSERT_PTR_NULL(b->tasks[0].statics[1].file);
	CU_ASSERT_STRING_EQUAL(pvmmon_static_kind_name(PVMMON_STATIC_CALL), "call");
	CU_ASSERT_EQUAL(pvmmon_static_kind_parse("loop"), PVMMON_STATIC_LOOP);
	CU_ASSERT_EQUAL(pvmmon_static_kind_parse("nonsense"), 0);
	SAME_STR(a->tasks[0].procs[0].name, b->tasks[0].procs[0].name);
	CU_ASSERT_EQUAL(b->tasks[0].procs[0].excl_ns, 20);
	SAME_STR(a->tasks[0].procs[0].caller, b->tasks[0].procs[0].caller);
	CU_ASSERT_EQUAL(b->tasks[0].procs[0].call_line, 40);
	SAME_STR(a->tasks[0].loops[0].proc, b->tasks[0].loops[0].proc);
	CU_ASSERT_EQUAL(b->tasks[0].loops[0].time_ns, 25);
	check_dynamic_and_raw(a, b);
	pvmmon_log_free(a);
	pvmmon_log_free(b);
	unlink(path);
	free(path);
}

/* Writes log, replaces the first `from` in its text by `to`, and expects the reader to
 * refuse the result with one line naming the file, task 0 and what. */
static void expect_damaged_record(const char *from, const char *to, int code, const char *what)
{
	pvmmon_log *a = full_log(), *b = NULL;
	char *path = path_in("record.xml"), *text = NULL, *hit, *changed = NULL;
	size_t len;

	CU_ASSERT_EQUAL_FATAL(pvmmon_log_format(&text, &len, a), 0);
	hit = strstr(strstr(text, "<record"), from);
	CU_ASSERT_PTR_NOT_NULL_FATAL(hit);
	*hit = '\0';
	CU_ASSERT_FATAL(asprintf(&changed, "%s%s%s", text, to, hit + strlen(from)) > 0);
	write_text(path, changed);
	free(changed);
	CU_ASSERT_EQUAL(pvmmon_log_read(&b, path), code);
	CU_ASSERT_PTR_NULL(b);
	CU_ASSERT_PTR_NOT_NULL(strstr(pvmmon_error_last(), path));
	CU_ASSERT_PTR_NOT_NULL(strstr(pvmmon_error_last(), what));
	CU_ASSERT_PTR_NULL(strchr(pvmmon_error_last(), '\n'));
	free(text);
	pvmmon_log_free(a);
	unlink(path);
	free(path);
}

static void test_damaged_record(void)
{
	pvmmon_log *a = full_log();
	char *text = NULL, *at, orig[8], flipped[8];
	size_t len;

	/* The first base64 character of the record, changed to another valid one. */
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_format(&text, &len, a), 0);
	at = strchr(strstr(text, "<record"), '>');
	CU_ASSERT_PTR_NOT_NULL_FATAL(at);
	snprintf(orig, sizeof(orig), ">%c", at[1]);
	snprintf(flipped, sizeof(flipped), ">%c", at[1] == 'A' ? 'B' : 'A');
	expect_damaged_record(orig, flipped, PVMMON_EPARSE,
	                      ": task 0: replay record damaged (hash mismatch)");
	expect_damaged_record("bytes=\"", "bytes=\"9", PVMMON_EPARSE,
	                      "task 0: replay record damaged (byte count mismatch)");
	expect_damaged_record(orig, ">!", PVMMON_EPARSE, "replay record damaged (bad base64)");
	expect_damaged_record("entries=\"5", "entries=\"4", PVMMON_EPARSE,
	                      "replay record damaged (entry count mismatch)");
	expect_damaged_record("senders=\"0.0 t80040000", "senders=\"0.0          ", PVMMON_EPARSE,
	                      "replay record damaged (undecodable)");
	expect_damaged_record("hash=\"", "hash=\"X", PVMMON_ESCHEMA, "does not match");
	free(text);
	pvmmon_log_free(a);
}

/* A budget that is no percentage (NaN, out of range) fails the schema, naming the
 * file. */
static void test_bad_budget_refused(void)
{
	static const char *const bad[] = {"NaN", "INF", "0", "150", "-5"};
	pvmmon_log *a = full_log(), *b = NULL;
	char *path = path_in("budget.xml"), *text = NULL, *hit, *changed = NULL;
	size_t len, i;

	CU_ASSERT_EQUAL_FATAL(pvmmon_log_format(&text, &len, a), 0);
	hit = strstr(text, "budget-pct=\"2.5\"");
	CU_ASSERT_PTR_NOT_NULL_FATAL(hit);
	*hit = '\0';
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CU_ASSERT_FATAL(asprintf(&changed, "%sbudget-pct=\"%s\"%s", text, bad[i],
		                         hit + strlen("budget-pct=\"2.5\"")) > 0);
		write_text(path, changed);
		free(changed);
		CU_ASSERT_EQUAL(pvmmon_log_read(&b, path), PVMMON_ESCHEMA);
		CU_ASSERT_PTR_NULL(b);
		CU_ASSERT_PTR_NOT_NULL(strstr(pvmmon_error_last(), path));
	}
	free(text);
	pvmmon_log_free(a);
	unlink(path);
	free(path);
}

static void test_symlink_refused(void)
{
	pvmmon_log *log = full_log();
	char *target = path_in("target.txt"), *link = path_in("link.xml");

	write_text(target, "keep me\n");
	CU_ASSERT_EQUAL_FATAL(symlink(target, link), 0);
	CU_ASSERT_EQUAL(pvmmon_log_write(log, link), PVMMON_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(pvmmon_error_last(), "symbolic link"));
	{
		char *text = read_text(target);

		CU_ASSERT_STRING_EQUAL(text, "keep me\n");
		free(text);
	}
	pvmmon_log_free(log);
	unlink(link);
	unlink(target);
	free(link);
	free(target);
}

static void test_failed_write_keeps_old_file(void)
{
	pvmmon_log *log = full_log();
	char *path = path_in("old.xml"), *text;

	write_text(path, "previous log\n");
	/* A folder cannot be written into once read-only; root ignores that, so the
	 * failure comes from a missing folder instead. */
	CU_ASSERT(pvmmon_log_write(log, "/nonexistent-pvmmon-dir/x.xml") < 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(pvmmon_error_last(), "/nonexistent-pvmmon-dir/x.xml"));
	/* Replacing works and leaves no temporary file behind. */
	CU_ASSERT_EQUAL(pvmmon_log_write(log, path), 0);
	text = read_text(path);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "<pvmmon-log"));
	free(text);
	pvmmon_log_free(log);
	unlink(path);
	free(path);
}

/* libxml2's reallocations while a test formats a log (through xmlMemSetup). */
static size_t xml_reallocs;
static xmlReallocFunc xml_realloc;

static void *counting_realloc(void *p, size_t n)
{
	xml_reallocs++;
	return xml_realloc(p, n);
}

/*
 * A large log is formatted with a buffer that grows geometrically: libxml2's default
 * grows it by each 4K chunk written, whose copying is quadratic in the log's size
 * wherever realloc copies (it made a monitor under ASan fall behind a traced run).
 */
static void test_large_log_formats_in_few_reallocations(void)
{
	pvmmon_log *log = full_log();
	pvmmon_log_task *t = &log->tasks[0];
	pvmmon_log_event *ev = calloc(20000, sizeof(*ev));
	xmlFreeFunc f;
	xmlMallocFunc m;
	xmlReallocFunc r;
	xmlStrdupFunc s;
	char *text = NULL;
	size_t len = 0;
	int rc;

	CU_ASSERT_PTR_NOT_NULL_FATAL(ev);
	for (size_t i = 0; i < 20000; i++) {
		ev[i] = t->events[1];
		ev[i].rt[0] += (int64_t)i;
	}
	free(t->events);
	t->events = ev;
	t->nevents = 20000;
	CU_ASSERT_EQUAL_FATAL(xmlMemGet(&f, &m, &r, &s), 0);
	xml_realloc = r;
	xml_reallocs = 0;
	xmlMemSetup(f, m, counting_realloc, s);
	rc = pvmmon_log_format(&text, &len, log);
	xmlMemSetup(f, m, r, s);
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT(len > 2000000);
	/* Doubling from a few kilobytes to megabytes is some ten reallocations; growing
	 * by each chunk was some five hundred. */
	if (xml_reallocs >= 64)
		fprintf(stderr, "\n  %zu reallocations for %zu bytes ", xml_reallocs, len);
	CU_ASSERT(xml_reallocs < 64);
	free(text);
	pvmmon_log_free(log);
}

CU_TestInfo test_log_tests[] = {
    {"write, validate, read back every field", test_round_trip},
    {"a budget that is no percentage is refused", test_bad_budget_refused},
    {"a damaged replay record is refused, naming the task", test_damaged_record},
    {"a symlink is never written through", test_symlink_refused},
    {"failed writes name the file; replacing works", test_failed_write_keeps_old_file},
    {"a large log formats in few reallocations", test_large_log_formats_in_few_reallocations},
    CU_TEST_INFO_NULL,
};
