/* Unit tests for monitor/rrmon.c against a fake transport: in a replay a task gets the
 * record of its logical id, a task the recording lacks is a divergence, questions for a
 * logical id are answered once it registers, and record chunks are kept in order. */
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "../../../monitor/rrmon.h"
#include "../../../monitor/run.h"
#include "../../../monitor/tasks.h"
#include "fakeio.h"

#define HOST 0x40000

/* A replay of a recording whose tasks have logical ids lids (each with the record
 * 1, 2, 3 from sender "0.1"). */
static void replay_of(mon_run *run, const char *const *lids, size_t n)
{
	pvmmon_log *log = NULL;

	fake_run(run, HOST);
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_new(&log), 0);
	log->tasks = calloc(n, sizeof(*log->tasks));
	for (size_t i = 0; i < n; i++) {
		pvmmon_log_task *r = &log->tasks[i];

		r->lid = strdup(lids[i]);
		r->record = malloc(3);
		memcpy(r->record, (uint8_t[]){1, 2, 3}, 3);
		r->record_len = 3;
		r->record_senders = calloc(1, sizeof(char *));
		r->record_senders[0] = strdup("0.1");
		r->record_nsenders = 1;
	}
	log->ntasks = n;
	run->replay_log = log;
	run->rr_mode = 2;
}

static void reg(mon_run *run, int32_t tid)
{
	wire_register r = {tid, 0, 100, HOST, "prog", 1000, run->token};
	wire_buf b;

	wire_buf_init(&b);
	wire_register_encode(&b, &r);
	run__dispatch(run, tid, WIRE_TAG_REGISTER, b.data, b.len);
	wire_buf_free(&b);
}

static void test_replay_data_for_lid(void)
{
	static const char *const lids[] = {"0"};
	mon_run run;
	const fake_msg *m;
	wire_in in;
	char *sender;

	replay_of(&run, lids, 1);
	run.stop_lid = strdup("0");
	run.stop_event = 7;
	reg(&run, 0x40001);
	m = fake_find(0x40001, WIRE_TAG_REPLAYDATA, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	wire_in_init(&in, m->data, m->len);
	CU_ASSERT_EQUAL(wire_get_u8(&in), 0);  /* stop at a divergence */
	CU_ASSERT_EQUAL(wire_get_u64(&in), 7); /* --stop-at's event */
	CU_ASSERT_EQUAL(wire_get_u32(&in), 1);
	sender = wire_get_str(&in, 64);
	CU_ASSERT_STRING_EQUAL(sender, "0.1");
	free(sender);
	CU_ASSERT_EQUAL(in.left, 3);
	CU_ASSERT_EQUAL(memcmp(in.p, (uint8_t[]){1, 2, 3}, 3), 0);
	CU_ASSERT_TRUE(tasks__find(&run, 0x40001)->replayed);
	CU_ASSERT_EQUAL(run.diverged, 0);
	fake_done(&run);
}

static void test_unrecorded_task_diverges(void)
{
	static const char *const lids[] = {"5"};
	mon_run run;

	replay_of(&run, lids, 1);
	reg(&run, 0x40001);
	CU_ASSERT_EQUAL(run.diverged, 1);
	CU_ASSERT_EQUAL(fake_count(0x40001, WIRE_TAG_REPLAYDATA), 1);
	CU_ASSERT_FALSE(tasks__find(&run, 0x40001)->replayed);
	fake_done(&run);
}

static void test_recorded_task_missing_at_end_diverges(void)
{
	static const char *const lids[] = {"0", "1"};
	mon_run run;

	replay_of(&run, lids, 2);
	reg(&run, 0x40001);
	CU_ASSERT_EQUAL(run.diverged, 0);
	rrmon__end(&run);
	CU_ASSERT_EQUAL(run.diverged, 1);
	fake_done(&run);
}

/* A question for a logical id that has not registered is answered when it does. */
static void test_lid_answered_when_registered(void)
{
	static const char *const lids[] = {"0", "1"};
	mon_run run;
	const fake_msg *m;
	wire_in in;
	wire_buf b;

	replay_of(&run, lids, 2);
	reg(&run, 0x40001);
	wire_buf_init(&b);
	wire_put_str(&b, "1");
	run__dispatch(&run, 0x40001, WIRE_TAG_LID, b.data, b.len);
	wire_buf_free(&b);
	CU_ASSERT_EQUAL(fake_count(0x40001, WIRE_TAG_LIDTID), 0);
	reg(&run, 0x40002);
	m = fake_find(0x40001, WIRE_TAG_LIDTID, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	wire_in_init(&in, m->data, m->len);
	CU_ASSERT_EQUAL(wire_get_u32(&in), 0x40002);
	CU_ASSERT_EQUAL(run.npending_lids, 0);
	fake_done(&run);
}

static void test_record_chunks_kept_in_order(void)
{
	mon_run run;
	mon_task *t;

	fake_run(&run, HOST);
	reg(&run, 0x40001);
	for (uint8_t k = 0; k < 2; k++) {
		wire_buf b;

		wire_buf_init(&b);
		wire_put_u32(&b, WIRE_VERSION);
		wire_put_u32(&b, 0x40001);
		wire_put_u8(&b, (uint8_t)(10 + k));
		wire_put_u8(&b, (uint8_t)(20 + k));
		run__dispatch(&run, 0x40001, WIRE_TAG_RECORD, b.data, b.len);
		wire_buf_free(&b);
	}
	t = tasks__find(&run, 0x40001);
	CU_ASSERT_EQUAL_FATAL(t->record.len, 4);
	CU_ASSERT_EQUAL(memcmp(t->record.data, (uint8_t[]){10, 20, 11, 21}, 4), 0);
	fake_done(&run);
}

CU_TestInfo test_rrmon_tests[] = {
    {"replay data for lid", test_replay_data_for_lid},
    {"unrecorded task diverges", test_unrecorded_task_diverges},
    {"recorded task missing at end diverges", test_recorded_task_missing_at_end_diverges},
    {"lid answered when registered", test_lid_answered_when_registered},
    {"record chunks kept in order", test_record_chunks_kept_in_order},
    CU_TEST_INFO_NULL,
};
