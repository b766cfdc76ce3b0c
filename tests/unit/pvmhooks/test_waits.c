/* Unit tests for pvmhooks/waits.c against the fake channel and a fake pvm_trecv: a
 * receive within the threshold sends nothing; a longer one reports WAIT (with its
 * statement, counts and queue), flushes, re-reports when the queue changes and ends
 * with WAITEND; the program gets exactly the real call's result; a replay's forced wait
 * is reported as such and ends at the monitor's verdict that its message cannot come.
 * Polling: empty polls of one pattern, one right after the other, for longer than the
 * threshold report a polling wait; anything else in between starts over. */
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>
#include <pvm3.h>

#include "../../../pvmhooks/hooks.h"
#include "../../../pvmhooks/records.h"
#include "../../../pvmhooks/sched.h"
#include "../../../pvmhooks/waits.h"
#include "fake_channel.h"

#define ME 0x40001
#define MONITOR 0x40000
#define PEER 0x40002

/* The fake pvm_trecv: `empty` slices find nothing (each sleeps its timeout, as the
 * real one does), then it returns `result`; on_empty runs after each empty slice. */
static struct {
	int calls, empty, result;
	void (*on_empty)(int n);
} ft;

static int fake_trecv(int tid, int tag, struct timeval *tv)
{
	(void)tid;
	(void)tag;
	ft.calls++;
	if (ft.calls > ft.empty)
		return ft.result;
	usleep((useconds_t)(tv->tv_sec * 1000000 + tv->tv_usec));
	if (ft.on_empty)
		ft.on_empty(ft.calls);
	return 0;
}

static int (*saved_trecv)(int, int, struct timeval *);

static void begin(int empty, int result)
{
	fake_begin(ME, MONITOR);
	hooks__records_reset();
	memset(&ft, 0, sizeof(ft));
	ft.empty = empty;
	ft.result = result;
	saved_trecv = hooks__pvm.trecv;
	hooks__pvm.trecv = fake_trecv;
	waits__configure(2000000); /* 2 ms: the tests stay fast */
}

static void end(void)
{
	waits__poll_end(pvmmon_clock_now());
	hooks__pvm.trecv = saved_trecv;
	waits__configure(-1);
	hooks__records_reset();
	fake_end();
}

static void start_call(hooks_call *call, hooks_op op, void *site)
{
	memset(call, 0, sizeof(*call));
	call->op = op;
	call->site = site;
	call->trace_first = -1;
	call->t0 = pvmmon_clock_now();
	call->v0 = vclock__virtual(hooks__clock(), call->t0);
}

static void test_within_threshold_costs_nothing(void)
{
	hooks_call call;
	uint64_t before;

	begin(0, 7);
	before = waits__reports();
	start_call(&call, HOOKS_OP_pvm_recv, (void *)test_within_threshold_costs_nothing);
	CU_ASSERT_EQUAL(waits__receive(&call, PEER, 4, NULL), 1);
	CU_ASSERT_EQUAL(call.skip, 1);
	CU_ASSERT_EQUAL(call.skip_rc, 7);
	CU_ASSERT_EQUAL(ft.calls, 1);
	/* No control message at all: no report, no flush. */
	CU_ASSERT_EQUAL(fake.nsent, 0);
	CU_ASSERT_EQUAL(waits__reports(), before);
	/* The stamps are the one real call's. */
	CU_ASSERT(call.skip_t1 >= call.t0 && call.skip_t2 >= call.skip_t1);
	/* An error of the real call is returned as it is. */
	ft.calls = 0;
	ft.result = -2;
	start_call(&call, HOOKS_OP_pvm_recv, (void *)test_within_threshold_costs_nothing);
	waits__receive(&call, PEER, 4, NULL);
	CU_ASSERT_EQUAL(call.skip_rc, -2);
	CU_ASSERT_EQUAL(fake.nsent, 0);
	/* A pvm_trecv whose timeout is within the threshold is the wrapper's. */
	start_call(&call, HOOKS_OP_pvm_trecv, (void *)test_within_threshold_costs_nothing);
	CU_ASSERT_EQUAL(waits__receive(&call, PEER, 4, &(struct timeval){0, 1000}), 0);
	CU_ASSERT_EQUAL(call.skip, 0);
	end();
}

/* Worker 0x40003's message with tag 9 comes into the queue after the second slice. */
static void queue_other_tag(int n)
{
	if (n == 2) {
		fake.queued[0] = (wire_wqueued){PEER, 9, 0, 16};
		fake.nqueued = 1;
	}
}

static void test_long_wait_reports(void)
{
	hooks_call call;
	wire_wait w;
	wire_waitend e;
	const fake_msg *m;

	begin(4, 5);
	ft.on_empty = queue_other_tag;
	/* Records are flushed every millisecond: a waiting task flushes too. */
	sched__begin(1000000);
	start_call(&call, HOOKS_OP_pvm_recv, (void *)test_long_wait_reports);
	CU_ASSERT_EQUAL(waits__receive(&call, PEER, 4, NULL), 1);
	CU_ASSERT_EQUAL(call.skip_rc, 5);
	CU_ASSERT_EQUAL(ft.calls, 5);
	/* WAIT, and a second one when the queue changed; WAITEND. */
	CU_ASSERT_EQUAL(fake_count_sent(WIRE_TAG_WAIT), 2);
	CU_ASSERT_EQUAL(fake_count_sent(WIRE_TAG_WAITEND), 1);
	CU_ASSERT(fake_count_sent(WIRE_TAG_RECORDS) >= 1);
	m = fake_last_sent(WIRE_TAG_WAIT);
	CU_ASSERT_EQUAL_FATAL(wire__wait_decode(&w, m->data, m->len), 0);
	CU_ASSERT_EQUAL(w.op, WIRE_WAIT_RECV);
	CU_ASSERT_EQUAL(w.src, PEER);
	CU_ASSERT_EQUAL(w.tag, 4);
	CU_ASSERT_EQUAL(w.deadline, 0);
	CU_ASSERT_EQUAL(w.stmt, hooks__stmt((void *)test_long_wait_reports, HOOKS_OP_pvm_recv)->id);
	CU_ASSERT_EQUAL_FATAL(w.nqueued, 1);
	CU_ASSERT_EQUAL(w.queued[0].tag, 9);
	m = fake_last_sent(WIRE_TAG_WAITEND);
	CU_ASSERT_EQUAL_FATAL(wire__waitend_decode(&e, m->data, m->len), 0);
	CU_ASSERT_EQUAL(e.seq, w.seq);
	/* The receive's own stamps are the last slice's; the wait began at the first. */
	CU_ASSERT(call.t_wait > 0 && call.t_wait < call.skip_t1);
	wire__wait_clear(&w);
	end();
}

static void test_trecv_deadline(void)
{
	hooks_call call;
	wire_wait w;
	const fake_msg *m;

	/* Nothing ever comes: the wait ends at the timeout, 30 ms, with 0 as pvm_trecv's. */
	begin(1000, 5);
	start_call(&call, HOOKS_OP_pvm_trecv, (void *)test_trecv_deadline);
	CU_ASSERT_EQUAL(waits__receive(&call, PEER, 4, &(struct timeval){0, 30000}), 1);
	CU_ASSERT_EQUAL(call.skip_rc, 0);
	CU_ASSERT(call.skip_t2 - call.t_wait >= 30000000);
	CU_ASSERT_EQUAL(call.skip_t1, call.t_wait);
	m = fake_last_sent(WIRE_TAG_WAIT);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL_FATAL(wire__wait_decode(&w, m->data, m->len), 0);
	CU_ASSERT_EQUAL(w.op, WIRE_WAIT_TRECV);
	CU_ASSERT(w.deadline > w.rt_start);
	CU_ASSERT_EQUAL(fake_count_sent(WIRE_TAG_WAITEND), 1);
	wire__wait_clear(&w);
	end();
}

/* The fake receive buffer switch: the active buffer. */
static int active_rbuf = 4, freed;
static int fake_setrbuf(int b)
{
	int old = active_rbuf;

	active_rbuf = b;
	return old;
}
static int fake_freebuf(int b)
{
	freed = b;
	return 0;
}

static void test_precv_handoff(void)
{
	hooks_call call;
	int (*saved_set)(int) = hooks__pvm.setrbuf, (*saved_free)(int) = hooks__pvm.freebuf;

	begin(3, 9);
	hooks__pvm.setrbuf = fake_setrbuf;
	hooks__pvm.freebuf = fake_freebuf;
	active_rbuf = 4;
	start_call(&call, HOOKS_OP_pvm_precv, (void *)test_precv_handoff);
	CU_ASSERT_EQUAL(waits__precv(&call, PEER, 4), 1);
	/* The program's buffer is active again; the wait reported and ended. */
	CU_ASSERT_EQUAL(active_rbuf, 4);
	CU_ASSERT_EQUAL(call.skip, 0);
	CU_ASSERT_EQUAL(fake_count_sent(WIRE_TAG_WAIT), 1);
	CU_ASSERT_EQUAL(fake_count_sent(WIRE_TAG_WAITEND), 1);
	CU_ASSERT_EQUAL(waits__pending, 1);
	/* Another call, or a receive of another pattern, goes to libpvm3. */
	CU_ASSERT_EQUAL(waits__handoff(HOOKS_OP_pvm_send, PEER, 4), WAITS_NO_HANDOFF);
	CU_ASSERT_EQUAL(waits__handoff(HOOKS_OP_pvm_recv, PEER, 5), WAITS_NO_HANDOFF);
	/* pvm_precv's own receive (with the program's buffer set aside) gets it, active. */
	fake_setrbuf(0);
	CU_ASSERT_EQUAL(waits__handoff(HOOKS_OP_pvm_recv, PEER, 4), 9);
	CU_ASSERT_EQUAL(active_rbuf, 9);
	CU_ASSERT_EQUAL(waits__pending, 0);
	freed = 0;
	waits__precv_end();
	CU_ASSERT_EQUAL(freed, 0);
	hooks__pvm.setrbuf = saved_set;
	hooks__pvm.freebuf = saved_free;
	end();
}

/* A replay's forced waits (waits__forced): the sender is alive for pvm_pstat. */
static int fake_pstat_alive(int tid)
{
	(void)tid;
	return PvmOk;
}

static int fake_pstat_gone(int tid)
{
	(void)tid;
	return PvmNoTask;
}

static int fake_nrecv_none(int tid, int tag)
{
	(void)tid;
	(void)tag;
	return 0;
}

/* The monitor's verdict on the forced wait it was told of (once its WAIT came). */
static void verdict_after_wait(int n)
{
	const fake_msg *m = fake_last_sent(WIRE_TAG_WAIT);
	wire_wait w;
	wire_buf b;

	(void)n;
	if (!m || fake_count_sent(WIRE_TAG_WAIT) != 1 || ft.on_empty == NULL)
		return;
	CU_ASSERT_EQUAL_FATAL(wire__wait_decode(&w, m->data, m->len), 0);
	wire__buf_init(&b);
	wire__ctl_encode(&b, &(wire_ctl){WIRE_CTL_CANNOT_COME, w.seq, 0,
	                                 "task 0.0 waits at w.c:3 for tag 9 from 0", 0});
	fake_from_monitor(WIRE_TAG_CTL, b.data, b.len);
	wire__buf_free(&b);
	wire__wait_clear(&w);
	ft.on_empty = NULL;
}

static void test_forced_wait_verdict(void)
{
	hooks_call call;
	const char *why = "x";
	wire_wait w;
	int (*saved_pstat)(int) = hooks__pvm.pstat;

	/* The message comes: its buffer, no verdict. */
	begin(3, 42);
	hooks__pvm.pstat = fake_pstat_alive;
	start_call(&call, HOOKS_OP_pvm_recv, (void *)test_forced_wait_verdict);
	CU_ASSERT_EQUAL(waits__forced(&call, PEER, 8, 1, "task 0.0", 5, &why), 42);
	CU_ASSERT_PTR_NULL(why);
	end();
	/* It cannot come: reported as a forced wait for the recorded sender and tag, and
	 * ended by the monitor's verdict, whose words are the answer. */
	begin(1000, 42);
	hooks__pvm.pstat = fake_pstat_alive;
	ft.on_empty = verdict_after_wait;
	start_call(&call, HOOKS_OP_pvm_recv, (void *)test_forced_wait_verdict);
	CU_ASSERT_EQUAL(waits__forced(&call, PEER, 8, 1, "task 0.0", 5, &why), 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(why);
	CU_ASSERT_STRING_EQUAL(why, "task 0.0 waits at w.c:3 for tag 9 from 0");
	CU_ASSERT(ft.calls < 1000);
	CU_ASSERT_EQUAL_FATAL(fake_count_sent(WIRE_TAG_WAIT), 1);
	CU_ASSERT_EQUAL_FATAL(wire__wait_decode(&w, fake_last_sent(WIRE_TAG_WAIT)->data,
	                                        fake_last_sent(WIRE_TAG_WAIT)->len),
	                      0);
	CU_ASSERT_EQUAL(w.op, WIRE_WAIT_FORCED);
	CU_ASSERT_EQUAL(w.src, PEER);
	CU_ASSERT_EQUAL(w.tag, 8);
	CU_ASSERT_EQUAL(w.deadline, 0);
	wire__wait_clear(&w);
	CU_ASSERT_EQUAL(fake_count_sent(WIRE_TAG_WAITEND), 1);
	/* A verdict is about one wait: the next one does not see it. */
	CU_ASSERT_PTR_NULL(waits__forced_verdict());
	end();
	hooks__pvm.pstat = saved_pstat;
}

/* A sender that has ended, with reports off (the monitor cannot judge): one more look,
 * then 0 with no verdict, at once. */
static void test_forced_wait_sender_gone(void)
{
	hooks_call call;
	const char *why = "x";
	int (*saved_pstat)(int) = hooks__pvm.pstat, (*saved_nrecv)(int, int) = hooks__pvm.nrecv;
	int64_t t0;

	begin(1000, 42);
	waits__configure(0);
	hooks__pvm.pstat = fake_pstat_gone;
	hooks__pvm.nrecv = fake_nrecv_none;
	start_call(&call, HOOKS_OP_pvm_recv, (void *)test_forced_wait_sender_gone);
	t0 = pvmmon_clock_now();
	CU_ASSERT_EQUAL(waits__forced(&call, PEER, 8, 1, "task 0.0", 5, &why), 0);
	CU_ASSERT_PTR_NULL(why);
	/* One step of 100 ms, not the second that waits for a verdict. */
	CU_ASSERT(pvmmon_clock_now() - t0 < 900000000LL);
	CU_ASSERT_EQUAL(fake_count_sent(WIRE_TAG_WAIT), 0);
	hooks__pvm.pstat = saved_pstat;
	hooks__pvm.nrecv = saved_nrecv;
	end();
}

/* The polling tests' threshold, 20 ms: their polls come about every 100 us; a gap
 * longer than the threshold (a sleep overshooting 200-fold on a busy machine) starts
 * a run over, so the tests that want a report poll until it comes (poll_for). */
#define POLL_THRESHOLD 20000000

/* One wrapped empty-or-not poll (op at site, from PEER with tag) as the wrapper makes
 * it: counted as a call at its entry, stamped at its end. */
static void poll_once(hooks_op op, void *site, int tag, int rc)
{
	hooks_call call;

	start_call(&call, op, site);
	hooks__count_call(op, site);
	/* A short pvm_trecv goes through the blocking wait's entry first, which leaves it
	 * to the wrapper (and its run of polls alone). */
	if (op == HOOKS_OP_pvm_trecv)
		CU_ASSERT_EQUAL(waits__receive(&call, PEER, tag, &(struct timeval){0, 100}), 0);
	call.t1 = call.t2 = pvmmon_clock_now();
	waits__poll(&call, rc, PEER, tag);
}

/* Polls every 100 us for at least ms milliseconds, or (until_reports > 0) until that
 * many WAIT have gone, 2 s at most: a sleep that overshoots the threshold on a busy
 * machine starts the run over, and the next run is reported. */
static void poll_for(hooks_op op, void *site, int tag, int ms, int until_reports)
{
	int64_t until = pvmmon_clock_now() + (int64_t)(until_reports ? 2000 : ms) * 1000000;

	while (pvmmon_clock_now() < until &&
	       (!until_reports || fake_count_sent(WIRE_TAG_WAIT) < until_reports)) {
		poll_once(op, site, tag, 0);
		usleep(100); /* the program's pace between polls, bounded by the loop's time */
	}
	/* A few more polls: the run goes on after its report, and says nothing more. */
	for (int i = 0; until_reports && i < 50; i++)
		poll_once(op, site, tag, 0);
}

static void test_polls_within_threshold_cost_nothing(void)
{
	void *site = (void *)test_polls_within_threshold_cost_nothing;

	begin(0, 0);
	/* A 1 s threshold (no sleep overshoots it): 10 ms of empty polls, then one that
	 * finds a message: no control message. */
	waits__configure(1000000000);
	poll_for(HOOKS_OP_pvm_nrecv, site, 4, 10, 0);
	poll_once(HOOKS_OP_pvm_nrecv, site, 4, 3);
	CU_ASSERT_EQUAL(fake.nsent, 0);
	CU_ASSERT_EQUAL(waits__polling, 0);
	end();
}

static void test_polling_wait_reports(void)
{
	void *site = (void *)test_polling_wait_reports;
	wire_wait w;
	wire_waitend e;
	const fake_msg *m;

	begin(0, 0);
	waits__configure(POLL_THRESHOLD);
	/* Polling longer than the threshold is a polling wait, said once. */
	poll_for(HOOKS_OP_pvm_probe, site, 4, 0, 1);
	CU_ASSERT_EQUAL(fake_count_sent(WIRE_TAG_WAIT), 1);
	CU_ASSERT_EQUAL(fake_count_sent(WIRE_TAG_WAITEND), 0);
	CU_ASSERT_EQUAL(waits__polling, 1);
	m = fake_last_sent(WIRE_TAG_WAIT);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL_FATAL(wire__wait_decode(&w, m->data, m->len), 0);
	CU_ASSERT_EQUAL(w.op, WIRE_WAIT_POLL);
	CU_ASSERT_EQUAL(w.src, PEER);
	CU_ASSERT_EQUAL(w.tag, 4);
	CU_ASSERT_EQUAL(w.deadline, 0);
	CU_ASSERT_EQUAL(w.stmt, hooks__stmt(site, HOOKS_OP_pvm_probe)->id);
	/* The poll that finds something ends it. */
	poll_once(HOOKS_OP_pvm_probe, site, 4, 6);
	CU_ASSERT_EQUAL(fake_count_sent(WIRE_TAG_WAITEND), 1);
	CU_ASSERT_EQUAL(waits__polling, 0);
	m = fake_last_sent(WIRE_TAG_WAITEND);
	CU_ASSERT_EQUAL_FATAL(wire__waitend_decode(&e, m->data, m->len), 0);
	CU_ASSERT_EQUAL(e.seq, w.seq);
	wire__wait_clear(&w);
	/* Polling with a short pvm_trecv is polling too. */
	poll_for(HOOKS_OP_pvm_trecv, site, 4, 0, 2);
	CU_ASSERT_EQUAL(fake_count_sent(WIRE_TAG_WAIT), 2);
	CU_ASSERT_EQUAL(waits__polling, 1);
	poll_once(HOOKS_OP_pvm_trecv, site, 4, 6);
	CU_ASSERT_EQUAL(fake_count_sent(WIRE_TAG_WAITEND), 2);
	/* Ended from outside (another call begins, hooks__begin): WAITEND at once. */
	poll_for(HOOKS_OP_pvm_nrecv, site, 4, 0, 3);
	CU_ASSERT_EQUAL(fake_count_sent(WIRE_TAG_WAIT), 3);
	waits__poll_end(pvmmon_clock_now());
	CU_ASSERT_EQUAL(fake_count_sent(WIRE_TAG_WAITEND), 3);
	CU_ASSERT_EQUAL(waits__polling, 0);
	end();
}

/* Runs other(i) about every 100 us for ms milliseconds (a slower pace on a busy
 * machine only breaks the polls' run sooner: nothing is reported either way). */
static void alternate(void (*other)(int i), int ms)
{
	int64_t until = pvmmon_clock_now() + (int64_t)ms * 1000000;

	for (int i = 0; pvmmon_clock_now() < until; i++) {
		other(i);
		usleep(100);
	}
}

static void other_call(int i)
{
	/* Every third call is some other wrapped call (a send, say). */
	if (i % 3 == 2)
		hooks__count_call(HOOKS_OP_pvm_send, (void *)other_call);
	else
		poll_once(HOOKS_OP_pvm_nrecv, (void *)other_call, 4, 0);
}

static void other_pattern(int i)
{
	/* Two statements, or two tags, in turn: not one poll repeated. */
	poll_once(HOOKS_OP_pvm_nrecv, (void *)other_pattern, i % 2 ? 4 : 5, 0);
	poll_once(HOOKS_OP_pvm_nrecv, (void *)other_call, 4, 0);
}

static void test_polls_broken_are_no_wait(void)
{
	begin(0, 0);
	waits__configure(POLL_THRESHOLD);
	alternate(other_call, 40);
	alternate(other_pattern, 40);
	CU_ASSERT_EQUAL(fake.nsent, 0);
	/* A gap longer than the threshold between polls (work, or a sleep) starts over: the
	 * 25 ms gaps are what is tested, and a longer one only starts over more surely. */
	for (int i = 0; i < 4; i++) {
		poll_once(HOOKS_OP_pvm_nrecv, (void *)test_polls_broken_are_no_wait, 4, 0);
		usleep(25000);
	}
	CU_ASSERT_EQUAL(fake.nsent, 0);
	/* So do polls that fail (an error is not "nothing yet"); the 0.5 ms pace only
	 * spreads them over the threshold, and slower changes nothing. */
	for (int i = 0; i < 100; i++) {
		poll_once(HOOKS_OP_pvm_nrecv, (void *)test_polls_broken_are_no_wait, 4,
		          i % 2 ? -2 : 0);
		usleep(500);
	}
	CU_ASSERT_EQUAL(fake.nsent, 0);
	CU_ASSERT_EQUAL(waits__polling, 0);
	end();
}

CU_TestInfo test_waits_tests[] = {
    {"a replay's forced wait: reported, ended by the monitor's verdict", test_forced_wait_verdict},
    {"a replay's forced wait: a sender that has ended", test_forced_wait_sender_gone},
    {"pvm_precv: its own pvm_recv takes what the wait received", test_precv_handoff},
    {"a receive within the threshold sends nothing; errors pass",
     test_within_threshold_costs_nothing},
    {"a long wait: WAIT, a new WAIT when the queue changes, WAITEND", test_long_wait_reports},
    {"a pvm_trecv's deadline ends the wait with 0", test_trecv_deadline},
    {"polls within the threshold send nothing", test_polls_within_threshold_cost_nothing},
    {"a long run of empty polls: WAIT (polling), WAITEND", test_polling_wait_reports},
    {"polls with other calls, patterns or gaps between them are no wait",
     test_polls_broken_are_no_wait},
    CU_TEST_INFO_NULL,
};
