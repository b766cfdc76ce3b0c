/* Unit tests for common/wire_task.c: welcome, spawn reports, queries and answers (the
 * registration, mailbox and clock messages are in test_wire.c). */
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "../../../common/wire.h"
#include "pvmmon/errors.h"

static void test_welcome_round_trip(void)
{
	wire_welcome w = {7,  "0.2",        98765, {0}, 3,        1, 1, "main,work", 2,
	                  1,  "off work\n", 250,   128, 10000000, 8, 1, "time:loop", "wait:program",
	                  {0}, 1,   997};
	wire_welcome out;
	wire_buf b;

	w.cal = (wire_calib){0x40002, 2, 44, 40, 56, 2700, 2600, 114000, 0};
	w.from.on = 1;
	w.from.gen = 3;
	w.from.n = 1;
	w.from.longest = 4242;
	w.from.share[0] = 42;
	wire__buf_init(&b);
	wire__welcome_encode(&b, &w);
	CU_ASSERT_EQUAL_FATAL(wire__welcome_decode(&out, b.data, b.len), 0);
	CU_ASSERT_EQUAL(out.index, 7);
	CU_ASSERT_STRING_EQUAL(out.lid, "0.2");
	CU_ASSERT_EQUAL(out.spawn_rt, 98765);
	CU_ASSERT_EQUAL(out.from.on, 1);
	CU_ASSERT_EQUAL(out.from.longest, 4242);
	CU_ASSERT_EQUAL(out.from.share[0], 42);
	CU_ASSERT_EQUAL(out.cp_gen, 3);
	CU_ASSERT_EQUAL(out.collecting, 1);
	CU_ASSERT_EQUAL(out.exclusive, 1);
	CU_ASSERT_STRING_EQUAL(out.procs, "main,work");
	CU_ASSERT_EQUAL(out.rr, 2);
	CU_ASSERT_EQUAL(out.preserve, 1);
	CU_ASSERT_STRING_EQUAL(out.rules, "off work\n");
	CU_ASSERT_EQUAL(out.budget, 250);
	CU_ASSERT_EQUAL(out.hist_buckets, 128);
	CU_ASSERT_EQUAL(out.hist_width, 10000000);
	CU_ASSERT_EQUAL(out.hist_hottest, 8);
	CU_ASSERT_EQUAL(out.hist_defaults, 1);
	CU_ASSERT_STRING_EQUAL(out.hist_run, "time:loop");
	CU_ASSERT_STRING_EQUAL(out.hist_ctl, "wait:program");
	/* The host's calibration (wire 14 on). */
	CU_ASSERT_EQUAL(out.cal.tid, 0x40002);
	CU_ASSERT_EQUAL(out.cal.clock, 2);
	CU_ASSERT_EQUAL(out.cal.proc_pair_ns, 44);
	CU_ASSERT_EQUAL(out.cal.loop_pair_ns, 40);
	CU_ASSERT_EQUAL(out.cal.wrapper_ns, 56);
	CU_ASSERT_EQUAL(out.cal.pb_send_ns, 2700);
	CU_ASSERT_EQUAL(out.cal.pb_recv_ns, 2600);
	CU_ASSERT_EQUAL(out.cal.site_on_ps, 114000);
	CU_ASSERT_EQUAL(out.cal.site_off_ps, 0);
	/* pvmmon ctl sample's setting (wire 19 on). */
	CU_ASSERT_EQUAL(out.sample_ctl, 1);
	CU_ASSERT_EQUAL(out.sample_hz, 997);
	wire__welcome_clear(&out);
	CU_ASSERT_PTR_NULL(out.lid);
	/* Off is a setting too; a rate without one, or above the most, is damage. */
	w.sample_hz = 0;
	wire__buf_free(&b);
	wire__buf_init(&b);
	wire__welcome_encode(&b, &w);
	CU_ASSERT_EQUAL_FATAL(wire__welcome_decode(&out, b.data, b.len), 0);
	CU_ASSERT_EQUAL(out.sample_ctl, 1);
	CU_ASSERT_EQUAL(out.sample_hz, 0);
	wire__welcome_clear(&out);
	w.sample_ctl = 0;
	w.sample_hz = 199;
	wire__buf_free(&b);
	wire__buf_init(&b);
	wire__welcome_encode(&b, &w);
	CU_ASSERT_EQUAL(wire__welcome_decode(&out, b.data, b.len), PVMMON_EPARSE);
	w.sample_ctl = 1;
	w.sample_hz = WIRE_SAMPLE_MAX_HZ + 1;
	wire__buf_free(&b);
	wire__buf_init(&b);
	wire__welcome_encode(&b, &w);
	CU_ASSERT_EQUAL(wire__welcome_decode(&out, b.data, b.len), PVMMON_EPARSE);
	w.sample_hz = 997;
	/* No selection, no tuple: NULL strings stay NULL. */
	w.procs = NULL;
	w.from.on = 0;
	wire__buf_reset(&b);
	wire__welcome_encode(&b, &w);
	CU_ASSERT_EQUAL_FATAL(wire__welcome_decode(&out, b.data, b.len), 0);
	CU_ASSERT_PTR_NULL(out.procs);
	CU_ASSERT_EQUAL(out.from.on, 0);
	wire__welcome_clear(&out);
	/* A record/replay mode that is none of the three is damage. */
	w.rr = 3;
	wire__buf_reset(&b);
	wire__welcome_encode(&b, &w);
	CU_ASSERT_EQUAL(wire__welcome_decode(&out, b.data, b.len), PVMMON_EPARSE);
	CU_ASSERT_PTR_NULL(out.rules);
	/* So is a histogram of one bucket, or of no width. */
	w.rr = 0;
	w.hist_buckets = 1;
	wire__buf_reset(&b);
	wire__welcome_encode(&b, &w);
	CU_ASSERT_EQUAL(wire__welcome_decode(&out, b.data, b.len), PVMMON_EPARSE);
	w.hist_buckets = 128;
	w.hist_width = 0;
	wire__buf_reset(&b);
	wire__welcome_encode(&b, &w);
	CU_ASSERT_EQUAL(wire__welcome_decode(&out, b.data, b.len), PVMMON_EPARSE);
	wire__buf_free(&b);
}

/* A task's calibration (CALIB): round trip; no task, an unknown clock or a negative
 * cost is damage, and so is a welcome's calibration with a task and no clock. */
static void test_calib_round_trip(void)
{
	wire_calib k = {0x40003, 1, 61, 57, 98, 10000, 27000, 151250, 1480}, out;
	wire_welcome w = {0}, wout;
	wire_buf b;

	wire__buf_init(&b);
	wire__calib_encode(&b, &k);
	CU_ASSERT_EQUAL_FATAL(wire__calib_decode(&out, b.data, b.len), 0);
	CU_ASSERT(out.tid == k.tid && out.clock == k.clock && out.proc_pair_ns == 61 &&
	          out.loop_pair_ns == 57 && out.wrapper_ns == 98 && out.pb_send_ns == 10000 &&
	          out.pb_recv_ns == 27000 && out.site_on_ps == 151250 && out.site_off_ps == 1480);
	k.tid = 0;
	wire__buf_reset(&b);
	wire__calib_encode(&b, &k);
	CU_ASSERT_EQUAL(wire__calib_decode(&out, b.data, b.len), PVMMON_EPARSE);
	k.tid = 0x40003;
	k.clock = 3;
	wire__buf_reset(&b);
	wire__calib_encode(&b, &k);
	CU_ASSERT_EQUAL(wire__calib_decode(&out, b.data, b.len), PVMMON_EPARSE);
	k.clock = 2;
	k.pb_recv_ns = -1;
	wire__buf_reset(&b);
	wire__calib_encode(&b, &k);
	CU_ASSERT_EQUAL(wire__calib_decode(&out, b.data, b.len), PVMMON_EPARSE);
	CU_ASSERT_EQUAL(out.tid, 0);
	/* A welcome without a host calibration: all zero. */
	wire__buf_reset(&b);
	wire__welcome_encode(&b, &w);
	CU_ASSERT_EQUAL_FATAL(wire__welcome_decode(&wout, b.data, b.len), 0);
	CU_ASSERT_EQUAL(wout.cal.tid, 0);
	wire__welcome_clear(&wout);
	w.cal.tid = 0x40003;
	wire__buf_reset(&b);
	wire__welcome_encode(&b, &w);
	CU_ASSERT_EQUAL(wire__welcome_decode(&wout, b.data, b.len), PVMMON_EPARSE);
	wire__buf_free(&b);
}

static void test_spawned_round_trip(void)
{
	int32_t tids[2] = {0x40002, 0x80003};
	wire_spawned s = {5, 2, tids, 123456789, {0}}, out;
	wire_buf b;

	wire__buf_init(&b);
	wire__spawned_encode(&b, &s);
	CU_ASSERT_EQUAL_FATAL(wire__spawned_decode(&out, b.data, b.len), 0);
	CU_ASSERT_EQUAL(out.base, 5);
	CU_ASSERT_EQUAL_FATAL(out.n, 2);
	CU_ASSERT_EQUAL(out.tids[0], 0x40002);
	CU_ASSERT_EQUAL(out.tids[1], 0x80003);
	CU_ASSERT_EQUAL(out.rt, 123456789);
	CU_ASSERT_EQUAL(out.cp.on, 0);
	wire__spawned_clear(&out);
	/* A count beyond the bytes that follow allocates nothing on trust. */
	b.data[8] = 0xff;
	b.data[9] = 0xff;
	CU_ASSERT_EQUAL(wire__spawned_decode(&out, b.data, b.len), PVMMON_EPARSE);
	CU_ASSERT_PTR_NULL(out.tids);
	/* A spawn of no task is still a report. */
	s.n = 0;
	wire__buf_reset(&b);
	wire__spawned_encode(&b, &s);
	CU_ASSERT_EQUAL(wire__spawned_decode(&out, b.data, b.len), 0);
	CU_ASSERT_EQUAL(out.n, 0);
	wire__spawned_clear(&out);
	wire__buf_free(&b);
}

static void test_query_answer_round_trip(void)
{
	wire_query q;
	wire_answer a = {0x40003, 1, -5, 1000500}, aout;
	wire_buf b;

	wire__buf_init(&b);
	wire__query_encode(&b, &(wire_query){0x40003});
	CU_ASSERT_EQUAL(wire__query_decode(&q, b.data, b.len), 0);
	CU_ASSERT_EQUAL(q.tid, 0x40003);
	wire__buf_reset(&b);
	wire__answer_encode(&b, &a);
	CU_ASSERT_EQUAL(wire__answer_decode(&aout, b.data, b.len), 0);
	CU_ASSERT_EQUAL(aout.tid, 0x40003);
	CU_ASSERT_EQUAL(aout.monitored, 1);
	CU_ASSERT_EQUAL(aout.m_recv, -5);
	CU_ASSERT_EQUAL(aout.m_send, 1000500);
	/* The flag is 0 or 1. */
	b.data[8] = 2;
	CU_ASSERT_EQUAL(wire__answer_decode(&aout, b.data, b.len), PVMMON_EPARSE);
	wire__buf_free(&b);
}

static void test_fatal_round_trip(void)
{
	wire_fatal f = {11, 7, WIRE_FATAL_PVM, 1}, out;
	wire_buf b;

	wire__buf_init(&b);
	wire__fatal_encode(&b, &f);
	CU_ASSERT_EQUAL_FATAL(wire__fatal_decode(&out, b.data, b.len), 0);
	CU_ASSERT_EQUAL(out.sig, 11);
	CU_ASSERT_EQUAL(out.stmt, 7);
	CU_ASSERT_EQUAL(out.where, WIRE_FATAL_PVM);
	CU_ASSERT_EQUAL(out.records, 1);
	/* Where is one of three places, and the records flag is 0 or 1. */
	b.data[b.len - 2] = 3;
	CU_ASSERT_EQUAL(wire__fatal_decode(&out, b.data, b.len), PVMMON_EPARSE);
	b.data[b.len - 2] = WIRE_FATAL_HOOKS;
	b.data[b.len - 1] = 2;
	CU_ASSERT_EQUAL(wire__fatal_decode(&out, b.data, b.len), PVMMON_EPARSE);
	/* Signal 0 is an exit without pvm_exit, with its last send; no negative signal,
	 * and nothing cut short. */
	wire__buf_reset(&b);
	wire__fatal_encode(&b, &(wire_fatal){0, 3, 0, 1});
	CU_ASSERT_EQUAL(wire__fatal_decode(&out, b.data, b.len), 0);
	CU_ASSERT_EQUAL(out.sig, 0);
	CU_ASSERT_EQUAL(out.stmt, 3);
	wire__buf_reset(&b);
	wire__fatal_encode(&b, &(wire_fatal){-1, 0, 0, 0});
	CU_ASSERT_EQUAL(wire__fatal_decode(&out, b.data, b.len), PVMMON_EPARSE);
	wire__buf_reset(&b);
	wire__fatal_encode(&b, &f);
	CU_ASSERT_EQUAL(wire__fatal_decode(&out, b.data, b.len - 1), PVMMON_EPARSE);
	wire__buf_free(&b);
}

CU_TestInfo test_wire_task_tests[] = {
    {"fatal report round trip and damage", test_fatal_round_trip},
    {"welcome round trip and damage", test_welcome_round_trip},
    {"spawn report round trip and damage", test_spawned_round_trip},
    {"calibration round trip and damage", test_calib_round_trip},
    {"query and answer round trip", test_query_answer_round_trip},
    CU_TEST_INFO_NULL,
};
