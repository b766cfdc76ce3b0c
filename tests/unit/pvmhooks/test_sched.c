/* Unit tests for pvmhooks/sched.c, the scheduler and its table of features, against a
 * fake channel. */
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "../../../pvmhooks/critpath.h"
#include "../../../pvmhooks/records.h"
#include "../../../pvmhooks/sched.h"
#include "fake_channel.h"
#include "pvmmon/errors.h"

#define ME 0x40001
#define MONITOR 0x40009
#define MS 1000000LL

/* Queues the monitor's command to start critical-path collection for procs. */
static void queue_cp_start(char *procs)
{
	wire_ctl c;
	wire_buf b;

	memset(&c, 0, sizeof(c));
	c.cmd = WIRE_CTL_CP_START;
	c.gen = 1;
	c.procs = procs;
	wire__buf_init(&b);
	wire__ctl_encode(&b, &c);
	fake_from_monitor(WIRE_TAG_CTL, b.data, b.len);
	wire__buf_free(&b);
}

static int polls(void)
{
	int n = 0;

	for (int i = 0; i < fake.nrecvs; i++)
		n += fake.recvs[i] == WIRE_TAG_CTL;
	return n;
}

static void test_flush_and_poll_at_their_periods(void)
{
	int64_t t;

	fake_begin(ME, MONITOR);
	hooks__records_reset();
	sched__begin(5 * MS);
	t = pvmmon_clock_now();
	/* Too early for either. */
	sched__run(t + 1 * MS);
	CU_ASSERT_EQUAL(polls(), 0);
	CU_ASSERT_EQUAL(fake_count_sent(WIRE_TAG_RECORDS), 0);
	/* The flush period is over, the poll's not yet. */
	sched__run(t + 6 * MS);
	CU_ASSERT_EQUAL(polls(), 0);
	CU_ASSERT_EQUAL(fake_count_sent(WIRE_TAG_RECORDS), 1);
	/* Both: the command queued is read and carried out by its feature. */
	queue_cp_start("main");
	sched__run(t + 12 * MS);
	CU_ASSERT(polls() >= 1);
	CU_ASSERT_EQUAL(fake.ninbox, 0);
	CU_ASSERT_EQUAL(hooks__cp_selected(), 1);
	CU_ASSERT_EQUAL(fake_count_sent(WIRE_TAG_RECORDS), 2);
	/* With the critical path collected, a flush sends its sample before the records. */
	CU_ASSERT_EQUAL(fake_count_sent(WIRE_TAG_CPSAMPLE), 1);
	CU_ASSERT_EQUAL(fake.sent[fake.nsent - 1].tag, WIRE_TAG_RECORDS);
	/* Neither again until their periods are over. */
	sched__run(t + 13 * MS);
	CU_ASSERT_EQUAL(fake_count_sent(WIRE_TAG_RECORDS), 2);
	hooks__cp_configure(NULL, 0, 0);
	hooks__records_reset();
	fake_end();
}

static void test_final_flush_and_lost_monitor(void)
{
	fake_begin(ME, MONITOR);
	hooks__records_reset();
	sched__begin(1000 * MS);
	CU_ASSERT_EQUAL(hooks__flush(1), 0);
	CU_ASSERT_EQUAL(fake_count_sent(WIRE_TAG_RECORDS), 1);
	/* Without a monitor nothing is sent, and the flush says so. */
	channel__gone();
	CU_ASSERT_EQUAL(hooks__flush(1), PVMMON_ESTATE);
	CU_ASSERT_EQUAL(fake_count_sent(WIRE_TAG_RECORDS), 1);
	hooks__records_reset();
	fake_end();
}

/* The last RECORDS sent, decoded into *t and *d; 0 or -1. */
static int last_records(pvmmon_log_task *t, wire_records_delta *d)
{
	const fake_msg *m = fake_last_sent(WIRE_TAG_RECORDS);
	int final;

	return m ? wire__records_decode_delta(t, &final, d, m->data, m->len) : -1;
}

/* The first flush carries every record; the next only the records that changed or
 * are new, with their indices; a restart (a task that enrols again) whole again. The
 * records are counted ones (records.c keeps no probe keys for those). */
static void test_flush_sends_what_changed(void)
{
	pvmmon_log_task *rec, got;
	wire_records_delta d;

	fake_begin(ME, MONITOR);
	hooks__records_reset();
	rec = hooks__records_task();
	rec->procs = calloc(3, sizeof(*rec->procs));
	CU_ASSERT_PTR_NOT_NULL_FATAL(rec->procs);
	rec->nprocs = 2;
	rec->procs[0] = (pvmmon_log_proc){.name = strdup("a"), .count = 1, .counted = 1};
	rec->procs[1] = (pvmmon_log_proc){.name = strdup("b"), .count = 1, .counted = 1};
	sched__begin(1000 * MS);
	CU_ASSERT_EQUAL_FATAL(hooks__flush(0), 0);
	CU_ASSERT_EQUAL_FATAL(last_records(&got, &d), 0);
	CU_ASSERT_EQUAL(d.delta, 0);
	CU_ASSERT_EQUAL(got.nprocs, 2);
	wire__records_delta_clear(&d);
	wire__task_clear(&got);
	/* b counts a call and c is new. */
	rec->procs[1].count = 2;
	rec->procs[2] = (pvmmon_log_proc){.name = strdup("c"), .count = 1, .counted = 1};
	rec->nprocs = 3;
	CU_ASSERT_EQUAL_FATAL(hooks__flush(0), 0);
	CU_ASSERT_EQUAL_FATAL(last_records(&got, &d), 0);
	CU_ASSERT_EQUAL(d.delta, 1);
	CU_ASSERT_EQUAL(d.nprocs, 3);
	CU_ASSERT_EQUAL_FATAL(d.npidx, 2);
	CU_ASSERT_EQUAL(d.pidx[0], 1);
	CU_ASSERT_EQUAL(d.pidx[1], 2);
	CU_ASSERT_EQUAL(got.procs[0].count, 2);
	CU_ASSERT_STRING_EQUAL(got.procs[1].name, "c");
	wire__records_delta_clear(&d);
	wire__task_clear(&got);
	/* Nothing changed: none. */
	CU_ASSERT_EQUAL_FATAL(hooks__flush(0), 0);
	CU_ASSERT_EQUAL_FATAL(last_records(&got, &d), 0);
	CU_ASSERT_EQUAL(d.delta, 1);
	CU_ASSERT_EQUAL(d.npidx, 0);
	wire__records_delta_clear(&d);
	wire__task_clear(&got);
	hooks__records_send_restart();
	CU_ASSERT_EQUAL_FATAL(hooks__flush(1), 0);
	CU_ASSERT_EQUAL_FATAL(last_records(&got, &d), 0);
	CU_ASSERT_EQUAL(d.delta, 0);
	CU_ASSERT_EQUAL(got.nprocs, 3);
	wire__records_delta_clear(&d);
	wire__task_clear(&got);
	hooks__records_reset();
	fake_end();
}

static void test_tick_from_probes(void)
{
	int64_t t;

	fake_begin(ME, MONITOR);
	hooks__records_reset();
	sched__begin(5 * MS);
	t = pvmmon_clock_now();
	/* Inside a wrapper (the guard set) a probe's tick does nothing. */
	hooks__guard = 1;
	sched__tick(t + 20 * MS);
	hooks__guard = 0;
	CU_ASSERT_EQUAL(fake_count_sent(WIRE_TAG_RECORDS), 0);
	/* Outside, it runs the periodic work and leaves the guard as it was. */
	sched__tick(t + 20 * MS);
	CU_ASSERT_EQUAL(fake_count_sent(WIRE_TAG_RECORDS), 1);
	CU_ASSERT(polls() >= 1);
	CU_ASSERT_EQUAL(hooks__guard, 0);
	hooks__records_reset();
	fake_end();
}

static void test_monitor_end_told_at_poll(void)
{
	int64_t t;

	fake_begin(ME, MONITOR);
	hooks__records_reset();
	sched__begin(5 * MS);
	t = pvmmon_clock_now();
	/* pvmd says the monitor has ended: the poll notices, the task goes on without it. */
	fake.monitor_ended = 1;
	sched__run(t + 20 * MS);
	CU_ASSERT_EQUAL(channel__lost(), 1);
	CU_ASSERT_EQUAL(polls(), 0);
	CU_ASSERT_EQUAL(fake_count_sent(WIRE_TAG_RECORDS), 0);
	CU_ASSERT(channel__send(WIRE_TAG_TRACE, "x", 1) < 0);
	hooks__records_reset();
	fake_end();
}

CU_TestInfo test_sched_tests[] = {
    {"the scheduler flushes and polls at their periods", test_flush_and_poll_at_their_periods},
    {"a final flush, and none once the monitor has gone", test_final_flush_and_lost_monitor},
    {"a flush sends the records that changed since the last, with their indices",
     test_flush_sends_what_changed},
    {"a probe's tick runs the periodic work outside wrappers", test_tick_from_probes},
    {"the monitor's end, told by pvmd, is noticed at the poll", test_monitor_end_told_at_poll},
    CU_TEST_INFO_NULL,
};
