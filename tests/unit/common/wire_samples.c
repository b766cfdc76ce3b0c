/* A valid encoding of every message kind, for the protocol's unit tests and seeds. */
#include <stdint.h>
#include <string.h>

#include "wire_samples.h"

static void sample_cp(wire_cp *cp)
{
	memset(cp, 0, sizeof(*cp));
	cp->on = 1;
	cp->gen = 2;
	cp->n = 2;
	cp->longest = 123456789;
	cp->share[0] = 1000;
	cp->share[1] = 2000;
	cp->zlong[0] = 120000000;
	cp->zlong[1] = 110000000;
	cp->zshare[0] = 500;
	cp->zshare[1] = 700;
}

/* A task with one record of each array, the shape of a real flush. */
static void records(wire_buf *b)
{
	static pvmmon_log_com com[1] = {{0x40002, NULL, 3, 24, 1500, 900}};
	static pvmmon_log_stmt stmt[1] = {{0,      "pvm_recv", "/bin/app", 0x12f6, NULL, 0,  NULL,
	                                   4,      90000,      900,        2200,   32,   0,  1,
	                                   150000, 1,          com,        0,      1,    300}};
	static pvmmon_log_proc proc[1] = {
	    {.name = "main", .file = "app.c", .line = 10, .count = 1}};
	static pvmmon_log_loop loop[1] = {{.name = "for@20:3", .proc = "main", .count = 1}};
	static pvmmon_log_static stat[1] = {{PVMMON_STATIC_PROC, "main", "app.c", 10, -1}};
	static int64_t vals[2] = {9000000, 1000000};
	static pvmmon_log_hist hist[1] = {{.metric = PVMMON_HIST_COMPUTE,
	                                   .focus = PVMMON_FOCUS_TASK,
	                                   .width_ns = 10000000,
	                                   .to_ns = -1,
	                                   .nbuckets = 2,
	                                   .values = vals}};
	pvmmon_log_task t;

	memset(&t, 0, sizeof(t));
	t.tid = 0x40001;
	t.virtual_ns = 5000000;
	t.nstmts = 1;
	t.stmts = stmt;
	t.nprocs = 1;
	t.procs = proc;
	t.nloops = 1;
	t.loops = loop;
	t.nstatics = 1;
	t.statics = stat;
	t.nhists = 1;
	t.hists = hist;
	t.clock = "tsc";
	wire__records_encode(b, &t, 1);
}

static void trace(wire_buf *b)
{
	pvmmon_log_event ev[2] = {
	    {PVMMON_EV_SEND, 0x40002, 7, 8, 0, 1, {10, 11, 12, 13}, 5, 6, 0, 0, 0, 0, 0},
	    {PVMMON_EV_RECV, 0x40002, 8, 8, 0, 0, {20, 21, 29, 30}, 15, 22, 5, 2, 1, -1, 8},
	};

	wire__trace_encode(b, 0x40001, ev, 2);
}

/* The kinds of a task's life with the monitor. */
static int task(wire_buf *b, int kind)
{
	static int32_t tids[3] = {0x40002, 0x40003, 0x80004};
	wire_register r = {0x40001,
	                   0x40000,
	                   4242,
	                   0x40000,
	                   "/bin/app",
	                   1700000000000000000ULL,
	                   0x1122334455667788ULL,
	                   0x40009, "/usr/local/bin/app"};
	wire_finding f = {WIRE_CHECK_UNPACK, 2, 1, "/bin/app", 0x1234, 1, 0x4321, 0, 3, 1, 1, 0,
	                  "pvm_upkstr"};
	wire_welcome w = {3, "0.1",        98765, {0}, 2,        1, 0, "main,work", 2,
	                  1, "off work\n", 250,   128, 10000000, 8, 1, "time:proc", "wait:task",
	                  {0x40001, 2, 44, 40, 56, 2700, 2600, 114000, 0}, 1, 997};
	wire_calib k = {0x40001, 2, 44, 40, 56, 2700, 2600, 114000, 1500};
	wire_spawned s = {4, 3, tids, 12345678, {0}};
	wire_clock c = {0x40001, -1234567890123LL, 4500, 9000, 98765432100LL, 5};
	wire_clockset cs = {-1234567890123LL, 4500, 98765432100LL, -40000000, 1};

	sample_cp(&w.from);
	sample_cp(&s.cp);
	switch (kind) {
	case WIRE_KIND_REGISTER:
		wire__register_encode(b, &r);
		return 0;
	case WIRE_KIND_WELCOME:
		wire__welcome_encode(b, &w);
		return 0;
	case WIRE_KIND_SPAWNED:
		wire__spawned_encode(b, &s);
		return 0;
	case WIRE_KIND_QUERY:
		wire__query_encode(b, &(wire_query){0x40003});
		return 0;
	case WIRE_KIND_ANSWER:
		wire__answer_encode(b, &(wire_answer){0x40003, 1, 1000000, 1000500});
		return 0;
	case WIRE_KIND_CLOCK:
		wire__clock_encode(b, &c);
		return 0;
	case WIRE_KIND_CLOCKSET:
		wire__clockset_encode(b, &cs);
		return 0;
	case WIRE_KIND_FATAL:
		wire__fatal_encode(b, &(wire_fatal){11, 4, WIRE_FATAL_PROGRAM, 1});
		return 0;
	case WIRE_KIND_CALIB:
		wire__calib_encode(b, &k);
		return 0;
	case WIRE_KIND_FINDING:
		wire__finding_encode(b, &f);
		return 0;
	}
	return -1;
}

/* The kinds of record and replay. */
static int replay(wire_buf *b, int kind)
{
	static char *senders[3] = {"0", "0.1", "t80000000"};
	wire_replaydata rd = {1, 17, 3, senders, NULL, 0};
	wire_diverged d = {17,
	                   "/bin/app",
	                   0x1234,
	                   "pvm_recv",
	                   "a message from task 0.1",
	                   "a message from task 0.2"};
	wire_stopped s = {17, 4242, "/bin/app", 0x1234, WIRE_STOP_HOLDING};

	switch (kind) {
	case WIRE_KIND_RECORD:
		wire__rchunk_encode(b, &(wire_rchunk){0x40001, NULL, 0});
		return 1;
	case WIRE_KIND_REPLAYDATA:
		wire__replaydata_encode(b, &rd);
		return 1;
	case WIRE_KIND_LID:
		wire__lid_encode(b, &(wire_lid){"0.1"});
		return 0;
	case WIRE_KIND_LIDTID:
		wire__lidtid_encode(b, &(wire_lidtid){0x40003});
		return 0;
	case WIRE_KIND_DIVERGED:
		wire__diverged_encode(b, &d);
		return 0;
	case WIRE_KIND_STOPPED:
		wire__stopped_encode(b, &s);
		return 0;
	}
	return -1;
}

int wire_sample_encode(wire_buf *b, int kind)
{
	wire_pcount sent[2] = {{0x40003, 7, 2400000}, {0x40004, 1, INT64_MIN}},
	            seen[1] = {{0x40003, 5, INT64_MIN}};
	wire_pcand cand[1] = {{0x40003, 5, 3000000, 2900000, 4}};
	wire_pwait w = {
	    3, WIRE_PW_RECV, -1,   5,    2500000, INT64_MAX, "/bin/prog", 0x1234, 2,     1,
	    1, sent,         seen, cand, 30000,   2,         1,           0,      150000,
	    0, 0,            0,    0,    0,       0,         2};
	wire_pbound bounds[2] = {{0x40003, WIRE_PB_DEP_SELF, INT64_MAX, 5000, 7, 1, 1, 0},
	                         {0x40004, WIRE_PB_DEP_NONE, 8000, 8000, 0, 0, 1, 0}};
	wire_cpsample cps = {0x40001, 1, 4000000, {0}};
	wire_ctl c = {WIRE_CTL_CP_START, 3, 1, "main,work", 0x1122334455667788ULL};
	wire_wpeer peers[2] = {{0x40003, 4, 3}, {0x40004, 0, 1}};
	wire_wqueued queued[1] = {{0x40003, 9, 0, 16}};
	wire_wait wt = {2,       WIRE_WAIT_RECV, 0x40003, 5, 0, 7,     "/bin/prog", 0x1234,
	                5000000, 4000000,        0,       2, 1, peers, queued,      3};

	wire__buf_reset(b);
	sample_cp(&cps.cp);
	switch (kind) {
	case WIRE_KIND_RECORDS:
		records(b);
		return 0;
	case WIRE_KIND_TRACE:
		trace(b);
		return 0;
	case WIRE_KIND_CPSAMPLE:
		wire__cpsample_encode(b, &cps);
		return 0;
	case WIRE_KIND_CTL:
	case WIRE_KIND_STATUS:
		wire__ctl_encode(b, &c);
		return 0;
	case WIRE_KIND_SNAPSHOT:
		wire__snapshot_encode(b, &(wire_snapshot){"", 0});
		return 1;
	case WIRE_KIND_PWAIT:
		wire__pwait_encode(b, &w);
		return 0;
	case WIRE_KIND_PGRANT:
		wire__pgrant_encode(b,
		                    &(wire_pgrant){3, WIRE_PG_TAKE, 0x40003, 5, 1, 0, 250, 2, bounds});
		return 0;
	case WIRE_KIND_PASK:
	case WIRE_KIND_PWATCH:
		wire__pask_encode(b);
		return 0;
	case WIRE_KIND_PBLOCK:
		wire__pblock_encode(b, &(wire_pblock){2600000, 4, 5, 1, 0, 7, 0, 1, 1});
		return 0;
	case WIRE_KIND_WAIT:
		wire__wait_encode(b, &wt);
		return 0;
	case WIRE_KIND_WAITEND:
		wire__waitend_encode(b, &(wire_waitend){2, 7000000});
		return 0;
	case WIRE_KIND_TASKEXIT:
	case WIRE_KIND_MONLOST:
		return -1;
	}
	return task(b, kind) >= 0 ? 0 : replay(b, kind);
}
