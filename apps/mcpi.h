/* Message tags and the per-chunk sampler shared by the mcpi master and its workers. */
#ifndef PVMMON_APPS_MCPI_H
#define PVMMON_APPS_MCPI_H

#include <stdint.h>
#include <time.h>

/* Monotonic time in nanoseconds: the programs' own reference times (-T). */
static inline int64_t mcpi_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

#define MCPI_TAG_REQUEST 21 /* worker -> master: hits of its last chunk (or -1), asks for more */
#define MCPI_TAG_CHUNK 22   /* master -> worker: chunk id and samples, or -1 to stop */
#define MCPI_TAG_TIME 23    /* worker -> master (with -T): the worker's own elapsed time */

/*
 * Counts the samples of one chunk that fall in the unit quarter circle. Each chunk has
 * its own generator seeded by its id, so the total does not depend on which worker
 * took which chunk.
 */
static inline long mcpi_chunk_hits(int chunk, long samples)
{
	uint64_t x = 0x9e3779b97f4a7c15ull * (uint64_t)(chunk + 1);
	long hits = 0;

	for (long i = 0; i < samples; i++) {
		double u, v;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		u = (double)(x >> 11) / 9007199254740992.0;
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		v = (double)(x >> 11) / 9007199254740992.0;
		hits += u * u + v * v <= 1.0;
	}
	return hits;
}

#endif
