/* The test-only clock shift and drift of common/clock.h, read once from the environment. */
#include <stdlib.h>

#include "clock.h"

int64_t pvmmon__clock_offset;
int pvmmon__clock_offset_ready;
double pvmmon__clock_drift;
int64_t pvmmon__clock_epoch;
int (*pvmmon__clock_real)(clockid_t, struct timespec *);

void pvmmon__clock_offset_init(void)
{
	const char *s = getenv("PVMMON_TEST_CLOCK_OFFSET_NS");
	const char *d = getenv("PVMMON_TEST_CLOCK_DRIFT_PPB");
	const char *e = getenv("PVMMON_TEST_CLOCK_EPOCH_NS");

	/* A malformed value counts as no shift: this is a test knob, not a setting. */
	pvmmon__clock_offset = s && *s ? strtoll(s, NULL, 10) : 0;
	/* The drift needs the epoch every process of the host shares, or the processes of
	 * one host would not agree on the time. */
	if (d && *d && e && *e) {
		pvmmon__clock_drift = (double)strtoll(d, NULL, 10) * 1e-9;
		pvmmon__clock_epoch = strtoll(e, NULL, 10);
	}
	pvmmon__clock_offset_ready = 1;
}
