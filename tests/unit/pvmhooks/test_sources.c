/* Unit tests for pvmhooks/sources.c, the interposed clock and pid reads, in a replay
 * against a fake channel: the recorded values in order, pvmmon's own clock untouched. */
#include <string.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "../../../common/clock.h"
#include "../../../pvmhooks/rr.h"
#include "../../../pvmhooks/sources.h"
#include "../../../replay/replay.h"
#include "fake_channel.h"

#define ME 0x40001
#define MONITOR 0x40009

static void queue_reads(const replay_entry *e, int n) { fake_replaydata(NULL, 0, e, n); }

static replay_entry read_of(unsigned src, int64_t reading)
{
	replay_entry e;

	memset(&e, 0, sizeof(e));
	e.op = (uint8_t)src;
	e.kind = REPLAY_SOURCE;
	e.reading = reading;
	return e;
}

static void test_replay_returns_recorded_reads(void)
{
	replay_entry e[] = {read_of(REPLAY_SRC_GETTIMEOFDAY, 1000000123456),
	                    read_of(REPLAY_SRC_GETPID, 4242),
	                    read_of(REPLAY_SRC_GETPID, 4242),
	                    read_of(REPLAY_SRC_CLOCK + CLOCK_MONOTONIC, 5000000007),
	                    read_of(REPLAY_SRC_TIME, 77),
	                    read_of(REPLAY_SRC_GETRANDOM, 10),
	                    read_of(REPLAY_SRC_RANDOM_BYTES, 0x0807060504030201),
	                    read_of(REPLAY_SRC_RANDOM_BYTES, 0x0a09)};
	unsigned char rnd[16], want[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
	struct timeval tv;
	struct timespec ts;
	time_t t = 0;
	int64_t own;

	fake_begin(ME, MONITOR);
	queue_reads(e, 8);
	CU_ASSERT_EQUAL_FATAL(hooks__rr_init(HOOKS_RR_REPLAY), 0);
	CU_ASSERT_EQUAL(hooks__src_count(), 8);
	/* pvmmon's own clock is the real one and takes no recorded read. */
	own = pvmmon_clock_now();
	CU_ASSERT(own > 5000000007 || own < 5000000007);
	CU_ASSERT_EQUAL(gettimeofday(&tv, NULL), 0);
	CU_ASSERT_EQUAL(tv.tv_sec, 1000000);
	CU_ASSERT_EQUAL(tv.tv_usec, 123456);
	CU_ASSERT_EQUAL(getpid(), 4242);
	CU_ASSERT_EQUAL(getpid(), 4242);
	/* The CPU-time clocks are not replayed: the real value, no read taken. */
	CU_ASSERT_EQUAL(clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts), 0);
	CU_ASSERT_EQUAL(clock_gettime(CLOCK_MONOTONIC, &ts), 0);
	CU_ASSERT_EQUAL(ts.tv_sec, 5);
	CU_ASSERT_EQUAL(ts.tv_nsec, 7);
	CU_ASSERT_EQUAL(time(&t), 77);
	CU_ASSERT_EQUAL(t, 77);
	/* getrandom: the recorded count (10 of the 16 asked for) and bytes (past them the
	 * buffer is unspecified, as after any short read). */
	memset(rnd, 0xee, sizeof(rnd));
	CU_ASSERT_EQUAL(getrandom(rnd, sizeof(rnd), 0), 10);
	CU_ASSERT_EQUAL(memcmp(rnd, want, 10), 0);
	/* Every read matched: no divergence, and none left for the end. */
	CU_ASSERT_EQUAL(fake_count_sent(WIRE_TAG_DIVERGED), 0);
	hooks__rr_init(HOOKS_RR_OFF);
	hooks__src_disarm();
	/* Disarmed, a read is the real one. */
	CU_ASSERT_EQUAL(getpid(), (pid_t)syscall(SYS_getpid));
	fake_end();
}

CU_TestInfo test_src_reads_tests[] = {
    {"a replay returns the recorded reads; pvmmon's clock stays real",
     test_replay_returns_recorded_reads},
    CU_TEST_INFO_NULL,
};
