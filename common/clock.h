/* Private to pvmmon: the real-time clock every component timestamps with. */
#ifndef PVMMON_COMMON_CLOCK_H
#define PVMMON_COMMON_CLOCK_H

#include <stdint.h>
#include <time.h>

/*
 * A fixed shift of this process's clock (tests only): PVMMON_TEST_CLOCK_OFFSET_NS, read
 * once. The hosts test harness sets it per namespace host, so that one machine can
 * play hosts whose clocks disagree. pvmmon__clock_offset_ready is 0 until it was read.
 */
extern int64_t pvmmon__clock_offset;
extern int pvmmon__clock_offset_ready;
void pvmmon__clock_offset_init(void);

/*
 * Nanoseconds of CLOCK_MONOTONIC: shared by all processes on one host (so a sender's
 * and a receiver's stamps compare directly), never stepped, about 30 ns a call via vDSO.
 * Other hosts' clocks differ by an offset that tasks estimate (doc/architecture.md,
 * "The virtual clock across hosts").
 */
static inline int64_t pvmmon_clock_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	if (__builtin_expect(!pvmmon__clock_offset_ready, 0))
		pvmmon__clock_offset_init();
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec + pvmmon__clock_offset;
}

#endif
