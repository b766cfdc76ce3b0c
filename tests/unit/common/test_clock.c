/* Unit tests for common/clock.c: whether the TSC may be used (from fake kernel and CPU
 * inputs), its scale's fit, the map from ticks to ns and the re-fit that steers it. */
#include <stdlib.h>

#include "../../../common/clock.h"
#include "../unit.h"
#include "pvmmon/errors.h"

/* /proc/cpuinfo as a KVM guest shows it (this project's machines), and as bare metal. */
#define GUEST_FLAGS                                                                                \
	"processor\t: 0\nmodel name\t: Intel(R) Xeon(R) Processor\n"                               \
	"flags\t\t: fpu tsc msr rdtscp constant_tsc nonstop_tsc tsc_known_freq "                   \
	"hypervisor tsc_adjust\nbogomips\t: 4600.00\n"
#define METAL_FLAGS "flags\t\t: fpu tsc msr rdtscp constant_tsc nonstop_tsc tsc_known_freq\n"

static int decide(const char *env, const char *cur, const char *avail, const char *cpuinfo)
{
	const char *why = NULL;
	int r = pvmmon__clock_decide(env, cur, avail, cpuinfo, &why);

	/* Every answer says why. */
	CU_ASSERT_PTR_NOT_NULL(why);
	return r;
}

static void test_decide(void)
{
#if defined(__x86_64__)
	/* The kernel's own clocksource is the TSC: used, guest or not. */
	CU_ASSERT_EQUAL(decide(NULL, "tsc\n", "tsc kvm-clock \n", GUEST_FLAGS), 1);
	CU_ASSERT_EQUAL(decide("auto", "tsc\n", "tsc kvm-clock \n", GUEST_FLAGS), 1);
	/* Forced off, or set to something unknown: CLOCK_MONOTONIC. */
	CU_ASSERT_EQUAL(decide("monotonic", "tsc\n", "tsc kvm-clock \n", GUEST_FLAGS), 0);
	CU_ASSERT_EQUAL(decide("rdtsc", "tsc\n", "tsc kvm-clock \n", GUEST_FLAGS), 0);
	/* A guest whose kernel chose kvm-clock although the flags say invariant found its
	 * TSC unstable (kvm-clock ranks below an invariant, stable TSC). */
	CU_ASSERT_EQUAL(decide(NULL, "kvm-clock\n", "tsc kvm-clock \n", GUEST_FLAGS), 0);
	CU_ASSERT_EQUAL(decide(NULL, NULL, NULL, GUEST_FLAGS), 0);
	/* ... unless the kernel was told the TSC is reliable. */
	CU_ASSERT_EQUAL(decide(NULL, "kvm-clock\n", "kvm-clock tsc\n",
	                       "flags : tsc constant_tsc nonstop_tsc tsc_reliable hypervisor\n"),
	                1);
	/* Bare metal: the flags suffice where the clocksource cannot be read, not where the
	 * watchdog fell back to hpet, nor where the kernel offers no tsc clocksource. */
	CU_ASSERT_EQUAL(decide(NULL, NULL, NULL, METAL_FLAGS), 1);
	CU_ASSERT_EQUAL(decide(NULL, "hpet\n", "tsc hpet acpi_pm\n", METAL_FLAGS), 0);
	CU_ASSERT_EQUAL(decide(NULL, "acpi_pm\n", "hpet acpi_pm\n", METAL_FLAGS), 0);
	CU_ASSERT_EQUAL(decide(NULL, NULL, "hpet acpi_pm\n", METAL_FLAGS), 0);
	/* Not invariant: a TSC that stops or changes rate is no clock. */
	CU_ASSERT_EQUAL(decide(NULL, NULL, NULL, "flags : tsc constant_tsc tsc_known_freq\n"), 0);
	CU_ASSERT_EQUAL(decide(NULL, NULL, NULL, "flags : tsc constant_tsc nonstop_tsc\n"), 0);
	/* A flag's name inside another word does not count. */
	CU_ASSERT_EQUAL(
	    decide(NULL, NULL, NULL, "flags : tsc xconstant_tsc nonstop_tsc tsc_known_freq\n"), 0);
	/* No TSC, or no flags at all. */
	CU_ASSERT_EQUAL(decide(NULL, "tsc\n", NULL, "flags : fpu msr\n"), 0);
	CU_ASSERT_EQUAL(decide(NULL, "tsc\n", NULL, NULL), 0);
	CU_ASSERT_EQUAL(decide(NULL, "tsc\n", NULL, "model name : x\n"), 0);
#else
	CU_ASSERT_EQUAL(decide(NULL, "tsc\n", "tsc\n", METAL_FLAGS), 0);
#endif
}

/* A 2.3 GHz TSC: ns a tick. */
#define SCALE (1.0 / 2.3)

static void test_fit(void)
{
	pvmmon__clock_pair a = {1000, 1000000, 40}, b = {1001000, 3300000, 60};
	double s, err;

	CU_ASSERT_EQUAL_FATAL(pvmmon__clock_fit(&s, &err, &a, &b), 0);
	CU_ASSERT_DOUBLE_EQUAL(s, SCALE, 1e-12);
	/* Half the widths over the baseline: 50 ns in 1 ms. */
	CU_ASSERT_DOUBLE_EQUAL(err, 5e-5, 1e-12);
	CU_ASSERT_EQUAL(pvmmon__clock_fit(&s, &err, &b, &a), PVMMON_EINVAL);
	CU_ASSERT_EQUAL(pvmmon__clock_fit(&s, NULL, &a, &a), PVMMON_EINVAL);
}

static void test_in_step(void)
{
	pvmmon__clock_pair a = {1000000, 2300000, 40};
	pvmmon__clock_pair p[3] = {
	    {1010000, 2323000, 40}, {1020100, 2346000, 30}, {1030000, 2369000, 50}};

	/* 100 ns off, within 2 us: in step. */
	CU_ASSERT_TRUE(pvmmon__clock_in_step(&a, SCALE, p, 3, 2000));
	/* A CPU 5 us ahead is not. */
	p[1].ns += 5000;
	CU_ASSERT_FALSE(pvmmon__clock_in_step(&a, SCALE, p, 3, 2000));
	CU_ASSERT_TRUE(pvmmon__clock_in_step(&a, SCALE, p, 0, 2000));
}

static void test_map(void)
{
	pvmmon__clock_map m;
	uint64_t t0 = 1000000;

	pvmmon__clock_map_set(&m, t0, 5000000, 0.5);
	/* 10 ms of 2 GHz ticks before a re-fit. */
	CU_ASSERT_EQUAL(m.limit, 20000000);
	CU_ASSERT_EQUAL(pvmmon__clock_map_ns(&m, t0 + 2000), 5001000);
	/* Never before the anchor. */
	CU_ASSERT_EQUAL(pvmmon__clock_map_ns(&m, t0 - 10), 5000000);
	/* Past the limit the plain scale continues from the corrected one's end. */
	m.mult = m.mult_plain / 2;
	CU_ASSERT_EQUAL(pvmmon__clock_map_ns(&m, t0 + m.limit), 5000000 + 5000000);
	CU_ASSERT_EQUAL(pvmmon__clock_map_ns(&m, t0 + m.limit + 2000), 5000000 + 5000000 + 1000);
}

/* The next map from a map that is err ns off CLOCK_MONOTONIC 10 ms after its anchor. */
static int next(pvmmon__clock_map *out, int64_t *e, double map_scale, double tsc_scale, int64_t err)
{
	pvmmon__clock_pair first = {0, 0, 40}, prev = {1000000000, 0, 40}, now;
	pvmmon__clock_map cur;
	const char *why = NULL;
	int rc;

	prev.tsc = (uint64_t)(1000000000 / tsc_scale);
	now = (pvmmon__clock_pair){1010000000, (uint64_t)(1010000000 / tsc_scale), 40};
	pvmmon__clock_map_set(&cur, prev.tsc, prev.ns + err, map_scale);
	rc = pvmmon__clock_next_map(out, e, &why, &cur, &first, &prev, &now, SCALE);
	CU_ASSERT(rc == 0 ? why == NULL : why != NULL);
	return rc;
}

static void test_refit(void)
{
	pvmmon__clock_map m;
	int64_t e;
	uint64_t t1;

	/* On time: the map carries on, continuous and with the same scale. */
	CU_ASSERT_EQUAL_FATAL(next(&m, &e, SCALE, SCALE, 0), 0);
	CU_ASSERT(e >= -1 && e <= 1);
	CU_ASSERT_EQUAL(m.ns, 1010000000 + e);
	CU_ASSERT(llabs((int64_t)(m.mult - m.mult_plain)) <= (int64_t)(m.mult_plain / 1000000));
	/* 500 ns ahead: continuous at the re-fit (no step back), slowed so that 10 ms
	 * later it reads CLOCK_MONOTONIC again. */
	CU_ASSERT_EQUAL_FATAL(next(&m, &e, SCALE, SCALE, 500), 0);
	CU_ASSERT(e >= 499 && e <= 501);
	CU_ASSERT_EQUAL(m.ns, 1010000000 + e);
	t1 = m.tsc + (uint64_t)(10000000 / SCALE);
	CU_ASSERT(llabs(pvmmon__clock_map_ns(&m, t1) - 1020000000) <= 2);
	/* 300 ns behind: sped up the same way. */
	CU_ASSERT_EQUAL_FATAL(next(&m, &e, SCALE, SCALE, -300), 0);
	CU_ASSERT(llabs(pvmmon__clock_map_ns(&m, t1) - 1020000000) <= 2);
	/* 5 us behind: stepped forward at once. */
	CU_ASSERT_EQUAL_FATAL(next(&m, &e, SCALE, SCALE, -5000), 0);
	CU_ASSERT_EQUAL(m.ns, 1010000000);
	/* A map 0.05% off in scale (NTP's largest slew) is re-fitted... */
	CU_ASSERT_EQUAL_FATAL(next(&m, &e, SCALE * 1.0005, SCALE, 0), 0);
	CU_ASSERT(e >= 4990 && e <= 5010);
	/* ... but a TSC whose rate left CLOCK_MONOTONIC's by 0.2% over the run is not
	 * used on. */
	CU_ASSERT_NOT_EQUAL(next(&m, &e, SCALE, SCALE * 1.002, 0), 0);
}

/* pvmmon_clock_now reads a map once one is published, and CLOCK_MONOTONIC again
 * without (as the monitor always does). */
static void test_now_reads_the_map(void)
{
#if defined(__x86_64__)
	pvmmon__clock_map m;
	int64_t a, b, mono;

	CU_ASSERT_STRING_EQUAL(pvmmon__clock_name(), "monotonic");
	pvmmon__clock_map_set(&m, __builtin_ia32_rdtsc(), 1000000, SCALE);
	pvmmon__clock_tsc = &m;
	CU_ASSERT_STRING_EQUAL(pvmmon__clock_name(), "tsc");
	a = pvmmon_clock_now();
	b = pvmmon_clock_now();
	pvmmon__clock_tsc = NULL;
	mono = pvmmon_clock_now();
	/* Read within microseconds of the anchor, far within its 10 ms. */
	CU_ASSERT(a >= 1000000 && a < 1000000 + 10000000);
	CU_ASSERT(b >= a);
	CU_ASSERT(mono > 10000000);
	CU_ASSERT_STRING_EQUAL(pvmmon__clock_name(), "monotonic");
#endif
}

CU_TestInfo test_clock_tests[] = {
    {"pvmmon_clock_now reads the published map, else CLOCK_MONOTONIC", test_now_reads_the_map},
    {"the TSC is used where the kernel or the flags allow", test_decide},
    {"scale fitted from two pairs with its error", test_fit},
    {"CPUs in step within their pairs' widths", test_in_step},
    {"ticks to ns, never before the anchor", test_map},
    {"re-fit: continuous, steered, stepped forward, refused past 0.1%", test_refit},
    CU_TEST_INFO_NULL,
};
