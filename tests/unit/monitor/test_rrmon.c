/* Unit tests for monitor/rrmon.c against a fake transport: in a replay a task gets the
 * record of its logical id, a task the recording lacks is a divergence, questions for a
 * logical id are answered once it registers (or at once with 0 when it never can),
 * and record chunks are kept in order. */
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

static void reg_child(mon_run *run, int32_t tid, int32_t parent)
{
	wire_register r = {tid, parent, 100, HOST, "prog", 1000, run->token, 0, NULL};
	wire_buf b;

	wire__buf_init(&b);
	wire__register_encode(&b, &r);
	run__dispatch(run, tid, WIRE_TAG_REGISTER, b.data, b.len);
	wire__buf_free(&b);
}

static void reg(mon_run *run, int32_t tid) { reg_child(run, tid, 0); }

/* Task asker asks for the tid of logical id lid. */
static void ask_lid(mon_run *run, int32_t asker, const char *lid)
{
	wire_buf b;

	wire__buf_init(&b);
	wire__lid_encode(&b, &(wire_lid){(char *)lid});
	run__dispatch(run, asker, WIRE_TAG_LID, b.data, b.len);
	wire__buf_free(&b);
}

/* The tid in the k-th answer to asker, or -1 when there is none. */
static int32_t lid_answer(int32_t asker, size_t k)
{
	const fake_msg *m = fake_find(asker, WIRE_TAG_LIDTID, k);
	wire_lidtid lt;

	if (!m || wire__lidtid_decode(&lt, m->data, m->len) != 0)
		return -1;
	return lt.tid;
}

static void test_replay_data_for_lid(void)
{
	static const char *const lids[] = {"0"};
	mon_run run;
	const fake_msg *m;
	wire_replaydata d;

	replay_of(&run, lids, 1);
	run.stop_lid = strdup("0");
	run.stop_event = 7;
	reg(&run, 0x40001);
	m = fake_find(0x40001, WIRE_TAG_REPLAYDATA, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL_FATAL(wire__replaydata_decode(&d, m->data, m->len), 0);
	CU_ASSERT_EQUAL(d.keep_going, 0); /* stop at a divergence */
	CU_ASSERT_EQUAL(d.stop_at, 7);    /* --stop-at's event */
	CU_ASSERT_EQUAL_FATAL(d.nsenders, 1);
	CU_ASSERT_STRING_EQUAL(d.senders[0], "0.1");
	CU_ASSERT_EQUAL(d.record_len, 3);
	CU_ASSERT_EQUAL(memcmp(d.record, (uint8_t[]){1, 2, 3}, 3), 0);
	wire__replaydata_clear(&d);
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
	wire_lidtid lt;
	wire_buf b;

	replay_of(&run, lids, 2);
	reg(&run, 0x40001);
	wire__buf_init(&b);
	wire__lid_encode(&b, &(wire_lid){"1"});
	run__dispatch(&run, 0x40001, WIRE_TAG_LID, b.data, b.len);
	wire__buf_free(&b);
	CU_ASSERT_EQUAL(fake_count(0x40001, WIRE_TAG_LIDTID), 0);
	reg(&run, 0x40002);
	m = fake_find(0x40001, WIRE_TAG_LIDTID, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL_FATAL(wire__lidtid_decode(&lt, m->data, m->len), 0);
	CU_ASSERT_EQUAL(lt.tid, 0x40002);
	CU_ASSERT_EQUAL(run.npending_lids, 0);
	fake_done(&run);
}

/* A child its parent never spawned can never register: once the parent has ended, the
 * question is answered with tid 0 (the replaying task then reports the divergence at
 * once instead of waiting). A spawned child, and a root, may still come. */
static void test_lid_unreachable_after_parent_ends(void)
{
	static const char *const lids[] = {"0", "0.0", "0.1", "1"};
	mon_run run;

	replay_of(&run, lids, 4);
	reg(&run, 0x40001);
	CU_ASSERT_EQUAL(tasks__spawn_add(&run, &(mon_spawn){0x40001, 0x40002, 0, 0, {0}, 0, 0, 0}),
	                0);
	CU_ASSERT_EQUAL(tasks__spawn_add(&run, &(mon_spawn){0x40001, 0x40003, 1, 0, {0}, 0, 0, 0}),
	                0);
	reg_child(&run, 0x40002, 0x40001);
	CU_ASSERT_STRING_EQUAL(tasks__find(&run, 0x40002)->rec.lid, "0.0");
	ask_lid(&run, 0x40002, "0.1"); /* spawned, not yet registered */
	ask_lid(&run, 0x40002, "0.2"); /* never spawned */
	ask_lid(&run, 0x40002, "1");   /* a root: may be started from outside any time */
	CU_ASSERT_EQUAL(fake_count(0x40002, WIRE_TAG_LIDTID), 0);
	run__task_exit(&run, 0x40001);
	CU_ASSERT_EQUAL(fake_count(0x40002, WIRE_TAG_LIDTID), 1);
	CU_ASSERT_EQUAL(lid_answer(0x40002, 0), 0);
	CU_ASSERT_EQUAL(run.npending_lids, 2);
	reg_child(&run, 0x40003, 0x40001);
	CU_ASSERT_EQUAL(lid_answer(0x40002, 1), 0x40003);
	CU_ASSERT_EQUAL(run.npending_lids, 1);
	/* Asked after the parent ended: answered at once. */
	ask_lid(&run, 0x40003, "0.5");
	CU_ASSERT_EQUAL(lid_answer(0x40003, 0), 0);
	/* A parent asking for its own unspawned child: it cannot spawn while it waits. */
	ask_lid(&run, 0x40003, "0.1.0");
	CU_ASSERT_EQUAL(lid_answer(0x40003, 1), 0);
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

		wire__buf_init(&b);
		wire__rchunk_encode(&b, &(wire_rchunk){0x40001, (uint8_t[]){10 + k, 20 + k}, 2});
		run__dispatch(&run, 0x40001, WIRE_TAG_RECORD, b.data, b.len);
		wire__buf_free(&b);
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
    {"lid unreachable after its parent ends", test_lid_unreachable_after_parent_ends},
    {"record chunks kept in order", test_record_chunks_kept_in_order},
    CU_TEST_INFO_NULL,
};
