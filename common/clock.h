/* Private to pvmmon: the real-time clock every component timestamps with. */
#ifndef PVMMON_COMMON_CLOCK_H
#define PVMMON_COMMON_CLOCK_H

#include <stdint.h>
#include <time.h>

/*
 * Nanoseconds of CLOCK_MONOTONIC: shared by all processes on one host (so a sender's
 * and a receiver's stamps compare directly), never stepped, about 30 ns a call via vDSO.
 */
static inline int64_t pvmmon_clock_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

#endif
