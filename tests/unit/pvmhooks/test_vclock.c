/* Unit tests for pvmhooks/vclock.c: virtual and local time, sync delay and intrusion at
 * receives. */
#include <CUnit/CUnit.h>

#include "../../../pvmhooks/vclock.h"
#include "pvmmon/errors.h"

static void test_virtual_is_real_minus_intrusion(void)
{
	vclock c;

	vclock__init(&c);
	vclock__intrude(&c, 300);
	vclock__intrude(&c, -5); /* negative measurements never reduce intrusion */
	CU_ASSERT_EQUAL(c.intrusion, 300);
	CU_ASSERT_EQUAL(vclock__virtual(&c, 1000), 700);
}

/* The receiver was early: it waits in virtual time for the message (sync delay). */
static void test_early_receiver_has_sync_delay(void)
{
	vclock c;
	vclock_recv r;

	vclock__init(&c);
	c.intrusion = 100;
	/* Receive starts at real 1000 (virtual 900); sender sent at virtual 1500, real
	 * 1600; the message arrives at real 1700 (transmission 100). */
	vclock__receive(&c, 1000, 1010, 1720, 1750, 1500, 1600, 8, &r);
	CU_ASSERT_EQUAL(r.v0, 900);
	CU_ASSERT_EQUAL(r.trans, 120);
	CU_ASSERT_EQUAL(r.va, 1620);
	CU_ASSERT_EQUAL(r.sync, 720);
	/* The receive blocked (the message was sent after it began): no cost sample. */
	CU_ASSERT_EQUAL(r.cost, 0);
	CU_ASSERT_EQUAL(r.vt, 1620);
	CU_ASSERT_EQUAL(c.intrusion, 1750 - 1620);
}

/*
 * The receiver was late in real time only because of its own intrusion, and the
 * message was there long before: no sync delay; the real waiting on top is intrusion.
 */
static void test_late_message_no_sync(void)
{
	vclock c;
	vclock_recv r;

	vclock__init(&c);
	/* Calibrate the estimators with a blocked receive: delivery 50, cost 5. */
	c.min_delivery[vclock__size_class(8)] = 50;
	c.min_recv_cost[vclock__size_class(8)] = 5;
	c.intrusion = 1000;
	vclock__receive(&c, 10000, 10010, 10020, 10030, 2000, 2500, 8, &r);
	CU_ASSERT_EQUAL(r.v0, 9000);
	CU_ASSERT_EQUAL(r.trans, 50); /* queued for long: the minimum is kept */
	CU_ASSERT_EQUAL(r.sync, 0);
	CU_ASSERT_EQUAL(r.vt, 9005);
	/* I = t_end - vt: everything but the receive cost is intrusion now. */
	CU_ASSERT_EQUAL(c.intrusion, 10030 - 9005);
}

/* Real waiting caused by the sender's intrusion is not sync delay of the receiver. */
static void test_wait_caused_by_sender_intrusion_is_intrusion(void)
{
	vclock c;
	vclock_recv r;

	vclock__init(&c);
	c.min_delivery[vclock__size_class(8)] = 100;
	c.min_recv_cost[vclock__size_class(8)] = 10;
	/* Receiver starts at virtual 5000 (no intrusion). The sender sent at virtual
	 * 4000 but real 9000 (5000 of its own intrusion); the receiver waited real
	 * 5000..9110. Uninstrumented, the message was there at 4100: no waiting. */
	vclock__receive(&c, 5000, 5001, 9110, 9120, 4000, 9000, 8, &r);
	CU_ASSERT_EQUAL(r.sync, 0);
	CU_ASSERT_EQUAL(r.vt, 5010);
	CU_ASSERT_EQUAL(c.intrusion, 9120 - 5010);
}

/*
 * A queued message's delivery time is only an upper bound on its transmission; a
 * transmission measured while the receiver waited, for the same or a larger size,
 * replaces it, and one of its own size is the estimate from then on.
 */
static void test_queued_message_uses_measured_transmission(void)
{
	vclock c;
	vclock_recv r;

	vclock__init(&c);
	/* A 64 KiB message sent while the receiver waited: transmission 300. */
	vclock__receive(&c, 1000, 1000, 1400, 1400, 1000, 1100, 65536, &r);
	CU_ASSERT_EQUAL(r.trans, 300);
	CU_ASSERT_EQUAL(c.waited_est[vclock__size_class(65536)], 300);
	/* A 1 KiB message that sat in the queue 50000 before the receive: the larger
	 * transfer bounds it, so no transmission of 50000 is invented. */
	vclock__receive(&c, 60000, 60000, 60010, 60010, 9000, 10000, 1024, &r);
	CU_ASSERT_EQUAL(r.trans, 300);
	CU_ASSERT_EQUAL(r.sync, 0);
	/* Once 1 KiB messages have a measured transmission of their own, it is theirs. */
	vclock__receive(&c, 70000, 70000, 70501, 70501, 70001, 70001, 1024, &r);
	CU_ASSERT_EQUAL(r.trans, 500);
	CU_ASSERT_EQUAL(vclock__trans_estimate(&c, 1024), 500);
	CU_ASSERT_EQUAL(vclock__trans_estimate(&c, 512), 300);
	/* Without any measured transfer of its size or larger, the bound is all there is. */
	vclock__init(&c);
	vclock__receive(&c, 60000, 60000, 60010, 60010, 9000, 10000, 1024, &r);
	CU_ASSERT_EQUAL(r.trans, 50010);
	CU_ASSERT_EQUAL(c.waited_est[vclock__size_class(1024)], 0);
}

/* A round trip at registration seeds the estimate of small messages: the first one,
 * queued while its receiver was starting, is not given its queueing as transmission;
 * larger messages keep their own samples, and a class's own measured transmission
 * replaces the seed, smaller or larger. */
static void test_seeded_transmission(void)
{
	vclock c;
	vclock_recv r;

	vclock__init(&c);
	vclock__seed(&c, 200, 1024);
	CU_ASSERT_EQUAL(vclock__trans_estimate(&c, 12), 200);
	CU_ASSERT_EQUAL(vclock__trans_estimate(&c, 1024), 200);
	CU_ASSERT_EQUAL(vclock__trans_estimate(&c, 4096), 0);
	/* A 12-byte message sent at 10000, taken at 60000 by a receiver that started late. */
	vclock__receive(&c, 60000, 60000, 60010, 60010, 9000, 10000, 12, &r);
	CU_ASSERT_EQUAL(r.trans, 200);
	/* One that arrived while the receiver waited shows 120: it replaces the seed. */
	vclock__receive_seen(&c, 70000, 70000, 80000, 80010, 80010, 75000, 75000, 75120, 12, &r);
	CU_ASSERT_EQUAL(r.trans, 120);
	CU_ASSERT_EQUAL(vclock__trans_estimate(&c, 12), 120);
	/* A seed of nothing (a failed round trip) changes nothing. */
	vclock__seed(&c, 0, 1024);
	CU_ASSERT_EQUAL(vclock__trans_estimate(&c, 12), 120);
	/* A class whose own messages take longer than the seed (their receiver slept, say)
	 * keeps its own measurement; a class without one still has the seed. */
	vclock__receive_seen(&c, 90000, 90000, 91000, 91300, 91300, 90500, 90500, 90800, 300, &r);
	CU_ASSERT_EQUAL(r.trans, 300);
	CU_ASSERT_EQUAL(vclock__trans_estimate(&c, 300), 300);
	CU_ASSERT_EQUAL(vclock__trans_estimate(&c, 40), 200);
}

/* A class's transmission is the lower quartile of its latest 32 measured ones: the
 * least of many is a best case the unmonitored program does not get either, and old
 * samples give way to new ones. */
static void test_transmission_quartile(void)
{
	vclock c;
	vclock_recv r;

	vclock__init(&c);
	/* 32 transmissions of 100, 200, ... 3200 (in a scrambled order), each sent
	 * after its receive began. */
	for (int i = 0; i < 32; i++) {
		int64_t t0 = 1000000 * (i + 1), d = 100 * (((i * 13) % 32) + 1);

		vclock__receive(&c, t0, t0, t0 + 10 + d, t0 + 10 + d, t0 + 10, t0 + 10, 8, &r);
		CU_ASSERT_EQUAL(r.trans, c.waited_est[vclock__size_class(8)]);
	}
	/* Index 7 of the 32 sorted: 800. */
	CU_ASSERT_EQUAL(vclock__trans_estimate(&c, 8), 800);
	/* 32 newer ones of 5000 each push all of those out. */
	for (int i = 0; i < 32; i++) {
		int64_t t0 = 100000000 + 1000000 * i;

		vclock__receive(&c, t0, t0, t0 + 5010, t0 + 5010, t0 + 10, t0 + 10, 8, &r);
	}
	CU_ASSERT_EQUAL(vclock__trans_estimate(&c, 8), 5000);
	/* A smaller class without samples of its own is bounded by it. */
	CU_ASSERT_EQUAL(vclock__trans_estimate(&c, 2), 5000);
}

/* The quartile kept as samples come equals the quartile of the latest 32 sorted
 * afresh, over a long run of values with many repeats (the window's ties). */
static void test_transmission_quartile_matches_sorting(void)
{
	vclock c;
	vclock_recv r;
	int64_t seen[400];
	unsigned x = 12345;

	vclock__init(&c);
	for (int i = 0; i < 400; i++) {
		int64_t t0 = 1000000 * (int64_t)(i + 1), v[VCLOCK_WAITED_KEEP], d;
		int n = i + 1 < VCLOCK_WAITED_KEEP ? i + 1 : VCLOCK_WAITED_KEEP;

		x = x * 1103515245u + 12345u;
		d = 10 * (int64_t)((x >> 16) % 40) + 1;
		seen[i] = d;
		vclock__receive(&c, t0, t0, t0 + 10 + d, t0 + 10 + d, t0 + 10, t0 + 10, 8, &r);
		for (int j = 0; j < n; j++) {
			int64_t y = seen[i - j], k = j;

			for (; k > 0 && v[k - 1] > y; k--)
				v[k] = v[k - 1];
			v[k] = y;
		}
		CU_ASSERT_EQUAL(c.waited_est[vclock__size_class(8)],
		                v[(n - 1) * VCLOCK_WAITED_RANK / VCLOCK_WAITED_KEEP]);
	}
}

static void test_size_classes(void)
{
	CU_ASSERT_EQUAL(vclock__size_class(0), 0);
	CU_ASSERT_EQUAL(vclock__size_class(1), 0);
	CU_ASSERT_EQUAL(vclock__size_class(8), 3);
	CU_ASSERT_EQUAL(vclock__size_class(1024), 10);
	CU_ASSERT_EQUAL(vclock__size_class(UINT64_MAX), VCLOCK_SIZE_CLASSES - 1);
}

static void test_virtual_never_ahead_of_real(void)
{
	vclock c;
	vclock_recv r;

	vclock__init(&c);
	/* A sender whose virtual send time is later than our real end (clock skew). */
	vclock__receive(&c, 100, 110, 120, 130, 1000, 50, 8, &r);
	CU_ASSERT_EQUAL(c.intrusion, 0);
	CU_ASSERT_EQUAL(r.vt, 130);
	/* Nor did it wait longer than its clock moved: the delay is the receive's span
	 * (130 - 100), not the sender's stamp's 900 past its start. */
	CU_ASSERT_EQUAL(r.v0, 100);
	CU_ASSERT_EQUAL(r.sync, 30);
}

/* Builds a round trip: the task's clock is the monitor's minus `off`; the question
 * takes `up` ns to the monitor, which holds it `hold` ns; the answer takes `down`. */
static vclock_sync_sample trip(int64_t t_send, int64_t off, int64_t up, int64_t hold,
			       int64_t down)
{
	vclock_sync_sample s;

	s.t_send = t_send;
	s.m_recv = t_send + off + up;
	s.m_send = s.m_recv + hold;
	s.t_recv = t_send + up + hold + down;
	return s;
}

/* Symmetric delays: the estimate is exact, whatever the monitor held the question. */
static void test_offset_symmetric_is_exact(void)
{
	vclock_sync_sample s[1] = {trip(1000, 5000000, 40000, 7000, 40000)};
	int64_t off = 0, unc = 0, rtt = 0;

	CU_ASSERT_EQUAL(vclock__offset_estimate(&off, &unc, &rtt, NULL, s, 1), 0);
	CU_ASSERT_EQUAL(off, 5000000);
	CU_ASSERT_EQUAL(unc, 40000);
	CU_ASSERT_EQUAL(rtt, 87000);
}

/* The sample with the least delay wins; the true offset is within its uncertainty
 * even when its delays were one-sided. */
static void test_offset_least_delay_wins(void)
{
	vclock_sync_sample s[4] = {
	    trip(0, -3000000, 900000, 0, 100000),   /* slow and lopsided */
	    trip(2000000, -3000000, 30000, 2000000, 10000), /* held long, short delays */
	    trip(5000000, -3000000, 500000, 0, 500000),
	    trip(9000000, -3000000, 60000, 0, 60000),
	};
	int64_t off = 0, unc = 0, rtt = 0, at = 0;

	CU_ASSERT_EQUAL(vclock__offset_estimate(&off, &unc, &rtt, &at, s, 4), 0);
	/* The best round trip's middle on the task's clock: 2 ms + (30 + 2000 + 10) / 2 us. */
	CU_ASSERT_EQUAL(at, 2000000 + 1020000);
	/* The second: delay 40 us, midpoint error (30 - 10) / 2 = 10 us. */
	CU_ASSERT_EQUAL(unc, 20000);
	CU_ASSERT_EQUAL(off, -3000000 + 10000);
	CU_ASSERT(off - unc <= -3000000 && -3000000 <= off + unc);
	CU_ASSERT_EQUAL(rtt, 120000);
}

/* On one clock (offset 0) the estimate is 0 within rounding. */
static void test_offset_same_clock(void)
{
	vclock_sync_sample s[3] = {trip(100, 0, 20001, 5, 20001), trip(50000, 0, 25000, 0, 25000),
				   trip(90000, 0, 19999, 3, 20001)};
	int64_t off = 1, unc = 0, rtt = 0;

	CU_ASSERT_EQUAL(vclock__offset_estimate(&off, &unc, &rtt, NULL, s, 3), 0);
	CU_ASSERT(off >= -1 && off <= 1);
	CU_ASSERT_EQUAL(unc, 20000);
}

/* Samples whose stamps run backwards are ignored; none usable is an error. */
static void test_offset_bad_samples(void)
{
	vclock_sync_sample s[2] = {{100, 500, 400, 200}, {100, 500, 600, 50}};
	int64_t off = 7, unc = 7, rtt = 7;

	CU_ASSERT_EQUAL(vclock__offset_estimate(&off, &unc, &rtt, NULL, s, 2), PVMMON_EINVAL);
	CU_ASSERT_EQUAL(vclock__offset_estimate(&off, &unc, &rtt, NULL, s, 0), PVMMON_EINVAL);
	CU_ASSERT_EQUAL(off, 7);
	s[1].t_recv = 700;
	CU_ASSERT_EQUAL(vclock__offset_estimate(&off, &unc, &rtt, NULL, s, 2), 0);
	/* round 600, held 100: delay 500; offset (400 + (-100)) / 2. */
	CU_ASSERT_EQUAL(off, 200 + (-50));
	CU_ASSERT_EQUAL(unc, 250);
	CU_ASSERT_EQUAL(rtt, 600);
}

/* L follows every measured intrusion, so lt = vt until a receive happens. */
static void test_local_follows_intrusion(void)
{
	vclock c;

	vclock__init(&c);
	vclock__intrude(&c, 300);
	vclock__intrude(&c, -5);
	vclock__intrude(&c, 20);
	CU_ASSERT_EQUAL(c.local, 320);
	CU_ASSERT_EQUAL(vclock__local(&c, 1000), 680);
	CU_ASSERT_EQUAL(vclock__local(&c, 1000), vclock__virtual(&c, 1000));
}

/*
 * seed 002 Figure 1: the receiver (a master) waited because its sender (a worker) was
 * slowed by its own monitoring. Parallel compensation takes the waiting that the
 * sender's intrusion caused out of I; local compensation only removes the receiver's
 * own wrapper time, so the waiting stays in its local clock.
 */
static void test_local_keeps_waiting_for_sender_intrusion(void)
{
	vclock c;
	vclock_recv r;

	vclock__init(&c);
	vclock__intrude(&c, 100);
	/* The wrapper starts at real 1000, the real receive runs 1010..5020 (the worker
	 * sent at real 5000 after 3000 of its own intrusion: virtual 2000), the wrapper
	 * ends at 5030. */
	vclock__receive(&c, 1000, 1010, 5020, 5030, 2000, 5000, 8, &r);
	CU_ASSERT_EQUAL(r.va, 2020);
	CU_ASSERT_EQUAL(r.vt, 2020);
	CU_ASSERT_EQUAL(c.intrusion, 5030 - 2020);
	/* The wrapper's own 10 + 10 only. */
	CU_ASSERT_EQUAL(c.local, 100 + 20);
	CU_ASSERT_EQUAL(vclock__local(&c, 5030), 5030 - 120);
	/* Later intrusion is added to both. */
	vclock__intrude(&c, 7);
	CU_ASSERT_EQUAL(c.local, 127);
	CU_ASSERT_EQUAL(c.intrusion, 5030 - 2020 + 7);
}

/* A receive whose real time was mostly spent before the real call (preserve mode's
 * wait for the monitor's permission) adds only the time before that wait. */
static void test_local_preserve_wait_is_waiting(void)
{
	vclock c;
	vclock_recv r;

	vclock__init(&c);
	vclock__receive_seen(&c, 1000, 1004, 1900, 1910, 1915, 500, 600, 700, 8, &r);
	CU_ASSERT_EQUAL(c.local, 4 + 5);
}

/* Nothing resets L: a receive that lowers I (the message was late in virtual time)
 * leaves the local clock's earlier charges in place. */
static void test_local_is_never_reset(void)
{
	vclock c;
	vclock_recv r;

	vclock__init(&c);
	vclock__intrude(&c, 5000);
	/* The sender's virtual send time is late: the receiver waits in virtual time and
	 * I becomes small, while L keeps its 5000. */
	vclock__receive(&c, 10000, 10001, 10100, 10102, 9900, 10050, 8, &r);
	CU_ASSERT(c.intrusion < 5000);
	CU_ASSERT_EQUAL(c.local, 5000 + 1 + 2);
}

/* Probe charges above the real time that passed are clamped: virtual and local time
 * never go back, the excess is given back and counted, and the real length of the
 * clamped intervals is the uncertainty. */
static void test_stamp_clamps(void)
{
	vclock c;
	int64_t v1, v2, v3;

	vclock__init(&c);
	v1 = vclock__stamp(&c, 1000);
	CU_ASSERT_EQUAL(v1, 1000);
	vclock__intrude(&c, 80);      /* a probe charged 80 ns ... */
	v2 = vclock__stamp(&c, 1050); /* ... where only 50 ns passed */
	CU_ASSERT_EQUAL(v2, v1);
	CU_ASSERT_EQUAL(c.clamped, 30);
	CU_ASSERT_EQUAL(c.clamped_real, 50);
	CU_ASSERT_EQUAL(c.nclamped, 1);
	CU_ASSERT_EQUAL(c.intrusion, 50);
	CU_ASSERT_EQUAL(c.local, 50);
	CU_ASSERT_EQUAL(vclock__last_local(&c), 1000);
	/* An interval the charge fits in is not clamped. */
	vclock__intrude(&c, 80);
	v3 = vclock__stamp(&c, 1200);
	CU_ASSERT_EQUAL(v3, 1200 - 130);
	CU_ASSERT_EQUAL(c.nclamped, 1);
	CU_ASSERT_EQUAL(vclock__uncertainty(&c, 10, 3), 50 + 30);
	CU_ASSERT_EQUAL(vclock__uncertainty(&c, 10, 0), 50);
	/* Restart keeps what was clamped and the last stamp. */
	vclock__restart(&c);
	CU_ASSERT_EQUAL(c.clamped, 30);
	CU_ASSERT_EQUAL(vclock__stamp(&c, 1201), v3 + 1);
}

/* A receive never ends before a stamp already handed out, even when its estimate says
 * so (a sender whose virtual send time is far behind). */
static void test_receive_after_stamp_is_clamped(void)
{
	vclock c;
	vclock_recv r;

	vclock__init(&c);
	vclock__stamp(&c, 1000);
	vclock__intrude(&c, 500);
	CU_ASSERT_EQUAL(vclock__stamp(&c, 1600), 1100);
	/* v0 = 1600 - 500 = 1100; the message arrived long ago. */
	vclock__receive(&c, 1600, 1610, 1620, 1630, 10, 20, 8, &r);
	CU_ASSERT(r.vt >= 1100);
	CU_ASSERT(vclock__stamp(&c, 1631) >= r.vt);
}

CU_TestInfo test_vclock_tests[] = {
    {"offset: symmetric delays are exact", test_offset_symmetric_is_exact},
    {"offset: the least delay wins", test_offset_least_delay_wins},
    {"offset: one clock gives 0", test_offset_same_clock},
    {"offset: damaged samples", test_offset_bad_samples},
    {"virtual is real minus intrusion", test_virtual_is_real_minus_intrusion},
    {"local follows intrusion", test_local_follows_intrusion},
    {"local keeps waiting for sender intrusion", test_local_keeps_waiting_for_sender_intrusion},
    {"local: preserve wait is waiting", test_local_preserve_wait_is_waiting},
    {"local is never reset", test_local_is_never_reset},
    {"early receiver has sync delay", test_early_receiver_has_sync_delay},
    {"late message: no sync delay", test_late_message_no_sync},
    {"wait caused by sender intrusion is intrusion",
     test_wait_caused_by_sender_intrusion_is_intrusion},
    {"queued message uses a measured transmission", test_queued_message_uses_measured_transmission},
    {"seeded transmission for a first message", test_seeded_transmission},
    {"transmission is the lower quartile of the latest", test_transmission_quartile},
    {"transmission quartile kept equals sorting", test_transmission_quartile_matches_sorting},
    {"size classes", test_size_classes},
    {"virtual never ahead of real", test_virtual_never_ahead_of_real},
    {"stamps clamp charges above the real time", test_stamp_clamps},
    {"a receive never ends before a stamp", test_receive_after_stamp_is_clamped},
    CU_TEST_INFO_NULL,
};
