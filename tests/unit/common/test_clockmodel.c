/* Unit tests for common/clockmodel.c: a host clock's offset and drift from estimates. */
#include <math.h>
#include <stdlib.h>

#include "../unit.h"
#include "pvmmon/errors.h"
#include "../../../common/clockmodel.h"

/* A host clock 5 ms ahead, running 200 ppm fast, estimated once a second for 10 s with
 * errors of up to 3 us: the line has the drift within 1 ppm and the offset at the latest
 * estimate within 3 us; converting there and back is exact to a nanosecond. */
static void test_fit_drift(void)
{
	clockmodel_point p[11];
	clockmodel m;
	int64_t unc = -1;
	const int64_t err[11] = {3000, -2000, 1000, 0, -3000, 2500, -1500, 500, 2000, -1000, 0};

	for (int i = 0; i < 11; i++) {
		p[i].at = 1000000000000LL + (int64_t)i * 1000000000;
		/* Monitor minus host: -5 ms, and the host gains 200 ns every ms. */
		p[i].offset = -5000000 - (int64_t)i * 200000 + err[i];
		p[i].uncertainty = 40000;
	}
	CU_ASSERT_EQUAL_FATAL(clockmodel__fit(p, 11, 2000000000, &m, &unc), 0);
	CU_ASSERT(fabs(m.rate + 200e-6) < 1e-6);
	CU_ASSERT_EQUAL(m.tref, p[10].at);
	CU_ASSERT(llabs(m.offset - (-7000000)) <= 3000);
	/* The latest estimate's 40 us, and the line's distance from it there (that point
	 * lies on the true line, which the fit passes within 3 us of). */
	CU_ASSERT(unc >= 40000 && unc <= 43000);
	CU_ASSERT(llabs(m.offset - (-7000000)) <= unc);
	for (int64_t t = p[0].at; t <= p[10].at + 60000000000LL; t += 7000000000LL) {
		int64_t back = clockmodel__from_common(&m, clockmodel__to_common(&m, t));

		CU_ASSERT(llabs(back - t) <= 1);
	}
}

/* Too few estimates, or too short a span, give no drift: the least uncertain estimate
 * is the offset. */
static void test_fit_too_little(void)
{
	clockmodel_point p[3] = {{1000, -500, 900}, {2000, -480, 300}, {3000, -530, 700}};
	clockmodel m;
	int64_t unc = 0;

	CU_ASSERT_EQUAL(clockmodel__fit(p, 3, 1000000, &m, &unc), 0);
	CU_ASSERT_EQUAL(m.rate, 0);
	CU_ASSERT_EQUAL(m.offset, -480);
	CU_ASSERT_EQUAL(m.tref, 2000);
	CU_ASSERT_EQUAL(unc, 300);
	CU_ASSERT_EQUAL(clockmodel__fit(p, 2, 0, &m, &unc), 0);
	CU_ASSERT_EQUAL(m.rate, 0);
	CU_ASSERT_EQUAL(clockmodel__fit(p, 0, 0, &m, &unc), PVMMON_EINVAL);
}

/* An estimate made while the network was busy (large uncertainty, far off) barely moves
 * the line. */
static void test_fit_weights(void)
{
	clockmodel_point p[6];
	clockmodel m;
	int64_t unc;

	for (int i = 0; i < 6; i++) {
		p[i].at = (int64_t)i * 1000000000;
		p[i].offset = 7000000;
		p[i].uncertainty = 5000;
	}
	p[3].offset = 7400000;
	p[3].uncertainty = 500000;
	CU_ASSERT_EQUAL_FATAL(clockmodel__fit(p, 6, 0, &m, &unc), 0);
	CU_ASSERT(fabs(m.rate) < 0.5e-6);
	CU_ASSERT(llabs(m.offset - 7000000) < 1000);
	/* Without the model (rate 0, offset 0) times pass unchanged. */
	m.offset = 0;
	m.rate = 0;
	CU_ASSERT_EQUAL(clockmodel__to_common(&m, 123456789), 123456789);
	CU_ASSERT_EQUAL(clockmodel__from_common(&m, 123456789), 123456789);
}

CU_TestInfo test_clockmodel_tests[] = {
    {"a drifting clock: drift and offset fitted", test_fit_drift},
    {"too few or too close estimates: no drift", test_fit_too_little},
    {"a busy network's estimate weighs little", test_fit_weights},
    CU_TEST_INFO_NULL,
};
