/* Message tags and the message values of the flood load demo, shared by master and workers. */
#ifndef PVMMON_APPS_FLOOD_H
#define PVMMON_APPS_FLOOD_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apputil.h"

#define FLOOD_TAG_SETUP 61  /* master -> worker: index, workers, own and left count, tids */
#define FLOOD_TAG_RING 62   /* worker -> right neighbour: round and value */
#define FLOOD_TAG_RESULT 63 /* worker -> master: index, received, hash, peak RSS in kB */

/*
 * The value worker index sends in round r. Every value is a function of the sender and
 * the round alone, so the master can compute what each worker must have received
 * without any message.
 */
static inline uint32_t flood_value(int index, int round)
{
	uint64_t h = ((uint64_t)(index + 1) << 32) ^ (uint32_t)round;

	h = APPUTIL_MIX(h, round);
	return APPUTIL_FOLD(APPUTIL_MIX(h, index));
}

/*
 * Adds a received value to a receiver's hash. The hash depends on the order of the
 * values, so it also checks that PVM kept the messages of one pair in order.
 */
static inline uint32_t flood_hash(uint32_t hash, uint32_t value)
{
	uint64_t h = ((uint64_t)hash << 32) | value;

	return APPUTIL_FOLD(APPUTIL_MIX(h, 1));
}

/*
 * Messages worker index sends in a run of total ring messages shared by workers:
 * total / workers each, and one more for the first total % workers, so that the
 * workers send exactly total between them.
 */
static inline int flood_count(long total, int workers, int index)
{
	return (int)(total / workers + (index < total % workers ? 1 : 0));
}

/*
 * The process's peak resident set size in kB (VmHWM of /proc/self/status), the
 * figure that shows whether memory stays bounded; -1 where it cannot be read.
 */
static inline long flood_peak_rss_kb(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kb = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "VmHWM:", 6)) {
			kb = strtol(line + 6, NULL, 10);
			break;
		}
	fclose(f);
	return kb;
}

#endif
