/* The test-only clock shift of common/clock.h, read once from the environment. */
#include <stdlib.h>

#include "clock.h"

int64_t pvmmon__clock_offset;
int pvmmon__clock_offset_ready;

void pvmmon__clock_offset_init(void)
{
	const char *s = getenv("PVMMON_TEST_CLOCK_OFFSET_NS");

	/* A malformed value counts as no shift: this is a test knob, not a setting. */
	pvmmon__clock_offset = s && *s ? strtoll(s, NULL, 10) : 0;
	pvmmon__clock_offset_ready = 1;
}
