/* Unit tests for pvmhooks/preserve.c, the preserve-mode client, against a fake channel:
 * a nondeterministic receive asks the monitor and obeys its grant; a timeout ends at
 * its virtual deadline; preemption (preempt.c) is told from the program's own waits. */
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include <CUnit/CUnit.h>

#include "../../../common/clock.h"
#include "../../../pvmhooks/preempt.h"
#include "../../../pvmhooks/preserve.h"
#include "../../../pvmhooks/vclock.h"
#include "../../../pvmhooks/records.h"
#include "fake_channel.h"

#define ME 0x40001
#define PEER 0x40002
#define OTHER 0x40003
#define MONITOR 0x40009

/* The grant the fake monitor gives: verdict, source and tag. */
static uint8_t verdict;
static int32_t grant_src, grant_tag;
static wire_pwait asked; /* the request it answered */

/* The monitor: answers the task's last request when the task waits. */
static void monitor_answers(fake_channel *f)
{
	const fake_msg *m = fake_last_sent(WIRE_TAG_PWAIT);
	wire_buf b;

	(void)f;
	if (!m)
		return;
	wire__pwait_clear(&asked);
	if (wire__pwait_decode(&asked, m->data, m->len) != 0 || asked.req == 0)
		return;
	wire__buf_init(&b);
	wire__pgrant_encode(
	    &b, &(wire_pgrant){
	            .req = asked.req, .verdict = verdict, .src = grant_src, .tag = grant_tag});
	fake_any(MONITOR, WIRE_TAG_PGRANT, b.data, b.len);
	wire__buf_free(&b);
}

/* libpvm3's calls as the client makes them: nothing from an unmonitored sender is
 * queued; the granted message is. */
static int no_probe(int tid, int tag)
{
	(void)tid;
	(void)tag;
	return 0;
}

static int nrecv_src, nrecv_tag;
static int fake_nrecv(int tid, int tag)
{
	nrecv_src = tid;
	nrecv_tag = tag;
	return 0;
}

/* A piggyback PEER sent to this task with tag, arrived in the private context. */
static void arrive(int src, int tag)
{
	uint8_t enc[WIRE_PB_HEADER + 16];
	int32_t dest = ME;
	uint32_t seq = 0;
	wire_piggyback pb;

	memset(&pb, 0, sizeof(pb));
	pb.sender_tid = src;
	pb.token = hooks__token();
	pb.bytes = 10;
	pb.ndests = 1;
	pb.dest_tid = &dest;
	pb.seq = &seq;
	fake_any(src, tag, enc, wire__piggyback_encode(&pb, enc));
}

static void begin(hooks_real *saved)
{
	*saved = hooks__pvm;
	hooks__pvm.probe = no_probe;
	hooks__pvm.nrecv = fake_nrecv;
	fake_begin(ME, MONITOR);
	fake.on_idle = monitor_answers;
	hooks__records_reset();
	hooks__pr_enable(1);
}

static void end(const hooks_real *saved)
{
	uint8_t *d;
	size_t len;
	int64_t at;

	/* What is left in the stash goes, so that the next test starts empty. */
	while (hooks__pr_take(&d, &len, &at, PEER, 5) || hooks__pr_take(&d, &len, &at, OTHER, 6))
		free(d);
	hooks__pr_enable(0);
	hooks__records_reset();
	wire__pwait_clear(&asked);
	fake_end();
	hooks__pvm = *saved;
}

static void test_receive_obeys_grant(void)
{
	hooks_call call;
	hooks_real saved;

	begin(&saved);
	arrive(PEER, 5);
	arrive(OTHER, 6);
	/* The monitor chooses the second to arrive. */
	verdict = WIRE_PG_TAKE;
	grant_src = OTHER;
	grant_tag = 6;
	memset(&call, 0, sizeof(call));
	call.op = HOOKS_OP_pvm_precv;
	call.site = (void *)test_receive_obeys_grant;
	hooks__pr_before(&call, -1, -1, 0, NULL);
	/* It asked, naming both candidates... */
	CU_ASSERT_EQUAL(asked.kind, WIRE_PW_RECV);
	CU_ASSERT_EQUAL(asked.src, -1);
	CU_ASSERT_EQUAL(asked.ncand, 2);
	/* ...and the receive takes the one granted, which is not the queue's first. */
	CU_ASSERT_EQUAL(call.ovr, 1);
	CU_ASSERT_EQUAL(call.ovr_tid, OTHER);
	CU_ASSERT_EQUAL(call.ovr_tag, 6);
	CU_ASSERT_EQUAL(call.pr_reordered, 1);
	CU_ASSERT(call.t_wait > 0);
	end(&saved);
}

static void test_nrecv_obeys_none(void)
{
	hooks_call call;
	hooks_real saved;

	begin(&saved);
	arrive(PEER, 5);
	/* The monitor says the miss happened in the run it preserves. */
	verdict = WIRE_PG_NONE;
	memset(&call, 0, sizeof(call));
	call.op = HOOKS_OP_pvm_nrecv;
	call.site = (void *)test_nrecv_obeys_none;
	hooks__pr_before(&call, -1, -1, 1, NULL);
	CU_ASSERT_EQUAL(asked.kind, WIRE_PW_NRECV);
	CU_ASSERT_EQUAL(call.skip, 1);
	CU_ASSERT_EQUAL(call.skip_rc, 0);
	CU_ASSERT_EQUAL(call.pr_reordered, 1);
	/* Granted a message instead, the nrecv takes that one. */
	verdict = WIRE_PG_TAKE;
	grant_src = PEER;
	grant_tag = 5;
	memset(&call, 0, sizeof(call));
	call.op = HOOKS_OP_pvm_nrecv;
	call.site = (void *)test_nrecv_obeys_none;
	hooks__pr_before(&call, -1, -1, 1, NULL);
	CU_ASSERT_EQUAL(call.skip, 1);
	CU_ASSERT_EQUAL(nrecv_src, PEER);
	CU_ASSERT_EQUAL(nrecv_tag, 5);
	end(&saved);
}

/* A pvm_trecv the monitor times out returns once the task's virtual clock has reached
 * the deadline (the clock never runs ahead of real time), not at once: unmonitored the
 * program waits out its timeout, and so must its virtual time. */
static void test_trecv_timeout_waits_for_deadline(void)
{
	struct timeval tmout = {0, 30000};
	hooks_call call;
	hooks_real saved;
	int64_t t0;
	vclock clock = *hooks__clock();

	begin(&saved);
	/* A new task's clock (earlier tests leave theirs). */
	vclock__init(hooks__clock());
	verdict = WIRE_PG_NONE;
	memset(&call, 0, sizeof(call));
	call.op = HOOKS_OP_pvm_trecv;
	call.site = (void *)test_trecv_timeout_waits_for_deadline;
	t0 = pvmmon_clock_now();
	call.v0 = vclock__virtual(hooks__clock(), t0);
	hooks__pr_before(&call, -1, 1, 0, &tmout);
	CU_ASSERT_EQUAL(asked.kind, WIRE_PW_TRECV);
	CU_ASSERT_EQUAL(asked.deadline, call.v0 + 30000000);
	CU_ASSERT_EQUAL(call.skip, 1);
	CU_ASSERT_EQUAL(call.skip_rc, 0);
	CU_ASSERT_EQUAL(call.pr_timeout_vt, call.v0 + 30000000);
	/* Its virtual time reached the deadline before it returned. */
	CU_ASSERT(vclock__virtual(hooks__clock(), pvmmon_clock_now()) >= call.pr_timeout_vt);
	CU_ASSERT(pvmmon_clock_now() - t0 >= 30000000);
	*hooks__clock() = clock;
	end(&saved);
}

/* Only time off the processor with involuntary switches alone is preemption. */
static void test_preemption_told_from_waits(void)
{
	preempt_sample a = {1000000, 500000, 3, 7}, b = a;

	/* 80 us off the processor, switched out involuntarily: preempted. */
	b.rt += 100000;
	b.cpu += 20000;
	b.invol++;
	CU_ASSERT_EQUAL(preempt__off(&a, &b), 80000);
	/* A voluntary switch too (a sleep, a blocking call): the program's own time. */
	b.vol++;
	CU_ASSERT_EQUAL(preempt__off(&a, &b), 0);
	/* No switch at all: nothing, whatever the clocks' rounding says. */
	b = a;
	b.rt += 100000;
	b.cpu += 20000;
	CU_ASSERT_EQUAL(preempt__off(&a, &b), 0);
	/* CPU time ahead of real time (the counters' granularity): never negative. */
	b.invol++;
	b.cpu += 200000;
	CU_ASSERT_EQUAL(preempt__off(&a, &b), 0);
}

CU_TestInfo test_preserve_tests[] = {
    {"a trecv timed out by the monitor returns at its virtual deadline",
     test_trecv_timeout_waits_for_deadline},
    {"preemption is told from the program's own waits", test_preemption_told_from_waits},
    {"a wildcard receive asks the monitor and takes what it grants", test_receive_obeys_grant},
    {"an nrecv obeys a grant of nothing, or of a message", test_nrecv_obeys_none},
    CU_TEST_INFO_NULL,
};
