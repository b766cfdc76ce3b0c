/* A fake transport for the monitor's unit tests: captures what the monitor sends (tid,
 * tag, bytes), the exits it asks to be told of and the signals it sends, with no pvmd. */
#ifndef PVMMON_TESTS_MONITOR_FAKEIO_H
#define PVMMON_TESTS_MONITOR_FAKEIO_H

#include "../../../monitor/monitor.h"

typedef struct fake_msg {
	int tid, tag;
	uint8_t *data;
	size_t len;
} fake_msg;

#define FAKE_MAX 256

extern fake_msg fake_sent[FAKE_MAX];
extern size_t fake_nsent;
extern int32_t fake_notified[FAKE_MAX];
extern size_t fake_nnotified;
/* The signals the monitor sent, to whom. */
extern int32_t fake_killed[FAKE_MAX];
extern int fake_killed_sig[FAKE_MAX];
extern size_t fake_nkilled;

/* A run (its defaults) on the fake transport, the monitor on host myhost; what was
 * captured before is forgotten. */
void fake_run(mon_run *run, int32_t myhost);
/* Forgets what was captured. */
void fake_reset(void);
/* The n-th (from 0) message sent to tid with tag, NULL when there are fewer. */
const fake_msg *fake_find(int tid, int tag, size_t n);
/* How many messages went to tid (-1: anyone) with tag. */
size_t fake_count(int tid, int tag);
/* Frees the run and what was captured. */
void fake_done(mon_run *run);

#endif
