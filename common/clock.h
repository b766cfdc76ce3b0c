/* Private to pvmmon: the real-time clock every component timestamps with. */
#ifndef PVMMON_COMMON_CLOCK_H
#define PVMMON_COMMON_CLOCK_H

#include <stdint.h>
#include <time.h>

/*
 * A fixed shift of this process's clock (tests only): PVMMON_TEST_CLOCK_OFFSET_NS, read
 * once. The hosts test harness sets it per namespace host, so that one machine can
 * play hosts whose clocks disagree. pvmmon__clock_offset_ready is 0 until it was read.
 * PVMMON_TEST_CLOCK_DRIFT_PPB makes the clock run fast (or slow, negative) by that many
 * parts per billion from PVMMON_TEST_CLOCK_EPOCH_NS on, as real clocks drift apart.
 */
extern int64_t pvmmon__clock_offset;
extern int pvmmon__clock_offset_ready;
extern double pvmmon__clock_drift;
extern int64_t pvmmon__clock_epoch;
void pvmmon__clock_offset_init(void);

/* libc's clock_gettime, set by libpvmhooks (pvmhooks/sources.c), which interposes
 * clock_gettime to record and replay the program's reads: pvmmon's own reads must
 * never be recorded or replayed. NULL elsewhere: the plain call. */
extern int (*pvmmon__clock_real)(clockid_t, struct timespec *);

/*
 * Nanoseconds of CLOCK_MONOTONIC: shared by all processes on one host (so a sender's
 * and a receiver's stamps compare directly), never stepped, about 30 ns a call via vDSO.
 * Other hosts' clocks differ by an offset that tasks estimate (doc/architecture.md,
 * "The virtual clock across hosts").
 */
static inline int64_t pvmmon_clock_now(void)
{
	struct timespec ts;
	int64_t t;

	if (pvmmon__clock_real)
		pvmmon__clock_real(CLOCK_MONOTONIC, &ts);
	else
		clock_gettime(CLOCK_MONOTONIC, &ts);
	if (__builtin_expect(!pvmmon__clock_offset_ready, 0))
		pvmmon__clock_offset_init();
	t = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
	if (__builtin_expect(pvmmon__clock_drift != 0, 0))
		t += (int64_t)((double)(t - pvmmon__clock_epoch) * pvmmon__clock_drift);
	return t + pvmmon__clock_offset;
}

#endif
