/* Unit tests for pvmhooks/vclock.c: virtual time, sync delay and intrusion at receives. */
#include <CUnit/CUnit.h>

#include "../../../pvmhooks/vclock.h"

static void test_virtual_is_real_minus_intrusion(void)
{
	vclock c;

	vclock_init(&c);
	vclock_intrude(&c, 300);
	vclock_intrude(&c, -5); /* negative measurements never reduce intrusion */
	CU_ASSERT_EQUAL(c.intrusion, 300);
	CU_ASSERT_EQUAL(vclock_virtual(&c, 1000), 700);
}

/* The receiver was early: it waits in virtual time for the message (sync delay). */
static void test_early_receiver_has_sync_delay(void)
{
	vclock c;
	vclock_recv r;

	vclock_init(&c);
	c.intrusion = 100;
	/* Receive starts at real 1000 (virtual 900); sender sent at virtual 1500, real
	 * 1600; the message arrives at real 1700 (transmission 100). */
	vclock_receive(&c, 1000, 1010, 1720, 1750, 1500, 1600, 8, &r);
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

	vclock_init(&c);
	/* Calibrate the estimators with a blocked receive: delivery 50, cost 5. */
	c.min_delivery[vclock_size_class(8)] = 50;
	c.min_recv_cost[vclock_size_class(8)] = 5;
	c.intrusion = 1000;
	vclock_receive(&c, 10000, 10010, 10020, 10030, 2000, 2500, 8, &r);
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

	vclock_init(&c);
	c.min_delivery[vclock_size_class(8)] = 100;
	c.min_recv_cost[vclock_size_class(8)] = 10;
	/* Receiver starts at virtual 5000 (no intrusion). The sender sent at virtual
	 * 4000 but real 9000 (5000 of its own intrusion); the receiver waited real
	 * 5000..9110. Uninstrumented, the message was there at 4100: no waiting. */
	vclock_receive(&c, 5000, 5001, 9110, 9120, 4000, 9000, 8, &r);
	CU_ASSERT_EQUAL(r.sync, 0);
	CU_ASSERT_EQUAL(r.vt, 5010);
	CU_ASSERT_EQUAL(c.intrusion, 9120 - 5010);
}

/*
 * A queued message's delivery time is only an upper bound on its transmission; a
 * transmission measured while the receiver waited, for the same or a larger size,
 * replaces it.
 */
static void test_queued_message_uses_measured_transmission(void)
{
	vclock c;
	vclock_recv r;

	vclock_init(&c);
	/* A 64 KiB message sent while the receiver waited: transmission 300. */
	vclock_receive(&c, 1000, 1000, 1400, 1400, 1000, 1100, 65536, &r);
	CU_ASSERT_EQUAL(r.trans, 300);
	CU_ASSERT_EQUAL(c.min_waited[vclock_size_class(65536)], 300);
	/* A 1 KiB message that sat in the queue 50000 before the receive: the larger
	 * transfer bounds it, so no transmission of 50000 is invented. */
	vclock_receive(&c, 60000, 60000, 60010, 60010, 9000, 10000, 1024, &r);
	CU_ASSERT_EQUAL(r.trans, 300);
	CU_ASSERT_EQUAL(r.sync, 0);
	/* Without any measured transfer of its size or larger, the bound is all there is. */
	vclock_init(&c);
	vclock_receive(&c, 60000, 60000, 60010, 60010, 9000, 10000, 1024, &r);
	CU_ASSERT_EQUAL(r.trans, 50010);
	CU_ASSERT_EQUAL(c.min_waited[vclock_size_class(1024)], 0);
}

/* A round trip at registration seeds the estimate of small messages: the first one,
 * queued while its receiver was starting, is not given its queueing as transmission;
 * larger messages keep their own samples, and a smaller real transmission wins. */
static void test_seeded_transmission(void)
{
	vclock c;
	vclock_recv r;

	vclock_init(&c);
	vclock_seed(&c, 200, 1024);
	CU_ASSERT_EQUAL(vclock_trans_estimate(&c, 12), 200);
	CU_ASSERT_EQUAL(vclock_trans_estimate(&c, 1024), 200);
	CU_ASSERT_EQUAL(vclock_trans_estimate(&c, 4096), 0);
	/* A 12-byte message sent at 10000, taken at 60000 by a receiver that started late. */
	vclock_receive(&c, 60000, 60000, 60010, 60010, 9000, 10000, 12, &r);
	CU_ASSERT_EQUAL(r.trans, 200);
	/* One that arrived while the receiver waited shows 120: it replaces the seed. */
	vclock_receive_seen(&c, 70000, 70000, 80000, 80010, 80010, 75000, 75000, 75120, 12, &r);
	CU_ASSERT_EQUAL(r.trans, 120);
	CU_ASSERT_EQUAL(vclock_trans_estimate(&c, 12), 120);
	/* A seed of nothing (a failed round trip) changes nothing. */
	vclock_seed(&c, 0, 1024);
	CU_ASSERT_EQUAL(vclock_trans_estimate(&c, 12), 120);
}

static void test_size_classes(void)
{
	CU_ASSERT_EQUAL(vclock_size_class(0), 0);
	CU_ASSERT_EQUAL(vclock_size_class(1), 0);
	CU_ASSERT_EQUAL(vclock_size_class(8), 3);
	CU_ASSERT_EQUAL(vclock_size_class(1024), 10);
	CU_ASSERT_EQUAL(vclock_size_class(UINT64_MAX), VCLOCK_SIZE_CLASSES - 1);
}

static void test_virtual_never_ahead_of_real(void)
{
	vclock c;
	vclock_recv r;

	vclock_init(&c);
	/* A sender whose virtual send time is later than our real end (clock skew). */
	vclock_receive(&c, 100, 110, 120, 130, 1000, 50, 8, &r);
	CU_ASSERT_EQUAL(c.intrusion, 0);
	CU_ASSERT_EQUAL(r.vt, 130);
}

CU_TestInfo test_vclock_tests[] = {
    {"virtual is real minus intrusion", test_virtual_is_real_minus_intrusion},
    {"early receiver has sync delay", test_early_receiver_has_sync_delay},
    {"late message: no sync delay", test_late_message_no_sync},
    {"wait caused by sender intrusion is intrusion",
     test_wait_caused_by_sender_intrusion_is_intrusion},
    {"queued message uses a measured transmission", test_queued_message_uses_measured_transmission},
    {"seeded transmission for a first message", test_seeded_transmission},
    {"size classes", test_size_classes},
    {"virtual never ahead of real", test_virtual_never_ahead_of_real},
    CU_TEST_INFO_NULL,
};
