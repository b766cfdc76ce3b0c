/* Unit tests for pvmhooks/rr.c, the replay client, against a fake channel. */
#include <string.h>
#include <sys/time.h>

#include <CUnit/CUnit.h>

#include "../../../replay/replay.h"
#include "../../../pvmhooks/rr.h"
#include "fake_channel.h"

#define ME 0x40001
#define MONITOR 0x40009
#define SENDER 0x40005

/* The monitor's REPLAYDATA for this task: no flags, no stop, one sender ("t40005":
 * a tid that is its own name) and the entries. */
static void queue_record(const replay_entry *e, int n)
{
	char *senders[] = {"t40005"};

	fake_replaydata(senders, 1, e, n);
}

static int trecv_src, trecv_tag;

/* libpvm3's pvm_trecv as the forced receive calls it: the message is there. */
static int fake_trecv(int src, int tag, struct timeval *tv)
{
	(void)tv;
	trecv_src = src;
	trecv_tag = tag;
	return 42;
}

/* libpvm3's pvm_probe as a forced pvm_precv calls it first: the message is queued. */
static int fake_probe(int src, int tag)
{
	(void)src;
	(void)tag;
	return 41;
}

static void test_replay_forces_recorded_source(void)
{
	replay_entry e[2];
	hooks_call call;
	hooks_real saved = hooks__pvm;

	memset(e, 0, sizeof(e));
	e[0].op = PVMMON_EV_PRECV;
	e[0].kind = REPLAY_MSG;
	e[0].sender = 0;
	e[0].tag = 7;
	e[1].op = PVMMON_EV_RECV;
	e[1].kind = REPLAY_MSG;
	e[1].sender = 0;
	e[1].tag = 8;
	fake_begin(ME, MONITOR);
	queue_record(e, 2);
	CU_ASSERT_EQUAL_FATAL(hooks__rr_init(HOOKS_RR_REPLAY), 0);
	CU_ASSERT_EQUAL(hooks__rr_mode(), HOOKS_RR_REPLAY);
	/* A wildcard pvm_precv is narrowed to the recorded sender and tag, once the
	 * message is there. */
	hooks__pvm.probe = fake_probe;
	memset(&call, 0, sizeof(call));
	call.op = HOOKS_OP_pvm_precv;
	hooks__rr_before(&call, -1, -1);
	CU_ASSERT_EQUAL(call.ovr, 1);
	CU_ASSERT_EQUAL(call.ovr_tid, SENDER);
	CU_ASSERT_EQUAL(call.ovr_tag, 7);
	CU_ASSERT_EQUAL(call.skip, 0);
	/* A wildcard pvm_recv is done in its place: the recorded message is taken. */
	hooks__pvm.trecv = fake_trecv;
	memset(&call, 0, sizeof(call));
	call.op = HOOKS_OP_pvm_recv;
	hooks__rr_before(&call, -1, -1);
	CU_ASSERT_EQUAL(call.skip, 1);
	CU_ASSERT_EQUAL(call.skip_rc, 42);
	CU_ASSERT_EQUAL(trecv_src, SENDER);
	CU_ASSERT_EQUAL(trecv_tag, 8);
	/* No divergence was reported. */
	CU_ASSERT_EQUAL(fake_count_sent(WIRE_TAG_DIVERGED), 0);
	hooks__pvm = saved;
	hooks__rr_init(HOOKS_RR_OFF);
	fake_end();
}

/* A replay answers pvm_gettid, pvm_getinst and pvm_gsize as recorded, without calling
 * the group server: a member by its tid in this run, an error as the error. */
static void test_replay_gives_group_answers(void)
{
	replay_entry e[4];
	hooks_call call;
	const int ops[] = {HOOKS_OP_pvm_gettid, HOOKS_OP_pvm_gettid, HOOKS_OP_pvm_getinst,
	                   HOOKS_OP_pvm_gsize};
	const int gops[] = {REPLAY_GRP_GETTID, REPLAY_GRP_GETTID, REPLAY_GRP_GETINST,
	                    REPLAY_GRP_GSIZE};
	const int args[] = {1, 7, SENDER, 0}, want[] = {SENDER, -20, 3, 12};

	memset(e, 0, sizeof(e));
	for (int i = 0; i < 4; i++) {
		e[i].op = (uint8_t)gops[i];
		e[i].kind = REPLAY_GROUP;
		e[i].group = "g";
		e[i].sender = -1;
	}
	e[0].tag = 1;
	e[0].sender = 0; /* the recorded answer: sender 0 of the record */
	e[1].tag = 7;
	e[1].value = -20; /* PvmNoInst */
	e[2].sender = 0;  /* the task asked about */
	e[2].value = 3;
	e[3].value = 12;
	fake_begin(ME, MONITOR);
	queue_record(e, 4);
	CU_ASSERT_EQUAL_FATAL(hooks__rr_init(HOOKS_RR_REPLAY), 0);
	for (int i = 0; i < 4; i++) {
		memset(&call, 0, sizeof(call));
		call.op = (hooks_op)ops[i];
		hooks__rr_group_before(&call, gops[i], "g", args[i]);
		CU_ASSERT_EQUAL(call.skip, 1);
		CU_ASSERT_EQUAL(call.skip_rc, want[i]);
		hooks__rr_group_after(&call, gops[i], "g", args[i], call.skip_rc);
	}
	/* A call made inside another group call (libgpvm3's own) takes no entry. */
	memset(&call, 0, sizeof(call));
	call.op = HOOKS_OP_pvm_gsize;
	call.inner = 1;
	hooks__rr_group_before(&call, REPLAY_GRP_GSIZE, "g", 0);
	CU_ASSERT_EQUAL(call.skip, 0);
	CU_ASSERT_EQUAL(fake_count_sent(WIRE_TAG_DIVERGED), 0);
	hooks__rr_init(HOOKS_RR_OFF);
	fake_end();
}

static void test_replay_without_record(void)
{
	fake_begin(ME, MONITOR);
	/* The monitor sent nothing: the replay cannot start, and nothing is replayed. */
	CU_ASSERT(hooks__rr_init(HOOKS_RR_REPLAY) < 0);
	CU_ASSERT_EQUAL(hooks__rr_mode(), HOOKS_RR_OFF);
	fake_end();
}

CU_TestInfo test_rr_tests[] = {
    {"a replay forces the recorded source and tag", test_replay_forces_recorded_source},
    {"a replay without its record does not start", test_replay_without_record},
    {"a replay gives the recorded group answers", test_replay_gives_group_answers},
    CU_TEST_INFO_NULL,
};
