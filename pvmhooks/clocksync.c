/*
 * This task's clock against the monitor's (pvmhooks/clocksync.h): Cristian's estimate
 * from round trips to the monitor, the host's clock model it answers with, and the
 * keeper's periodic resynchronisation.
 */
#include <stdlib.h>
#include <string.h>

#include <pvm3.h>

#include "../common/clockmodel.h"
#include "clocksync.h"
#include "hooks.h"
#include "pvmmon/errors.h"

/* Control answers normally take well under a millisecond; this bounds a dead monitor. */
#define ANSWER_TIMEOUT_MS 5000

/* The monitor's clock minus this host's, as a line over time (the host's model, which
 * every task of the host shares; 0 on the monitor's host), its uncertainty, whether
 * this task keeps the host's estimate up to date, and when it last did. */
static struct {
	clockmodel model;
	int64_t uncertainty;
	int keeper;
	int remote; /* on another host than the monitor's: models may change */
	int64_t last_sync;
} cs;

int64_t hooks__to_common(int64_t t) { return clockmodel__to_common(&cs.model, t); }

int64_t hooks__from_common(int64_t t) { return clockmodel__from_common(&cs.model, t); }

/* Messages up to this size get the round trip's estimate (latency dominates them). */
#define SEED_MAX_BYTES 1024

/* Round trips to the monitor at registration for the clock offset. On another host than
 * the monitor's the least delayed of 30 is within a few microseconds of symmetric in
 * most runs, against tens with 5 (doc/benchmarks.md, "Clock offsets between hosts");
 * on the monitor's own host the offset is 0 by definition and a few give the round
 * trip the transmission estimate is seeded with. Each costs one round trip. */
#define CLOCK_SAMPLES_REMOTE 30
#define CLOCK_SAMPLES_LOCAL 5

/* The keeper of a host re-estimates its offset this often, from this many round trips,
 * so that drift between the clocks is followed (the monitor fits a line to them). */
#define CLOCK_RESYNC_NS 1000000000LL
#define CLOCK_RESYNC_SAMPLES 5

/*
 * Round trips to the monitor (QUERYs about this task itself, answered at once with the
 * monitor's clock when it took the question and when it answered): Cristian's estimate
 * of this task's clock offset from the monitor's (vclock__offset_estimate) from count of
 * them, into *est. Returns 0, or a negative code when no round trip succeeded.
 */
static int clock_estimate(int count, wire_clock *est)
{
	vclock_sync_sample s[CLOCK_SAMPLES_REMOTE];
	wire_buf b;
	uint8_t *ans = NULL;
	size_t len;
	int n = 0, i, rc;

	if (count > CLOCK_SAMPLES_REMOTE)
		count = CLOCK_SAMPLES_REMOTE;
	wire__buf_init(&b);
	wire__query_encode(&b, &(wire_query){hooks__mytid()});
	for (i = 0; i < count && !b.failed; i++) {
		wire_answer a;
		int64_t t0 = pvmmon_clock_now(), t1;

		if (channel__send(WIRE_TAG_QUERY, b.data, b.len) != 0 ||
		    channel__recv(&ans, &len, WIRE_TAG_ANSWER, ANSWER_TIMEOUT_MS) != 0)
			break;
		t1 = pvmmon_clock_now();
		s[n].t_send = t0;
		s[n].t_recv = t1;
		if (wire__answer_decode(&a, ans, len) == 0) {
			s[n].m_recv = a.m_recv;
			s[n].m_send = a.m_send;
			n++;
		}
		free(ans);
		ans = NULL;
	}
	wire__buf_free(&b);
	memset(est, 0, sizeof(*est));
	rc = vclock__offset_estimate(&est->offset, &est->uncertainty, &est->rtt, &est->at, s, n);
	est->tid = hooks__mytid();
	est->samples = (uint32_t)n;
	return rc;
}

static int clock_send(const wire_clock *est)
{
	wire_buf b;
	int rc = PVMMON_ENOMEM;

	wire__buf_init(&b);
	wire__clock_encode(&b, est);
	if (!b.failed)
		rc = channel__send(WIRE_TAG_CLOCK, b.data, b.len);
	wire__buf_free(&b);
	return rc;
}

int clocksync__set(const uint8_t *data, size_t len)
{
	wire_clockset set;

	if (wire__clockset_decode(&set, data, len) != 0) {
		hooks__count_bad();
		return PVMMON_EPARSE;
	}
	cs.model.offset = set.offset;
	cs.model.tref = set.tref;
	cs.model.rate = (double)set.rate_ppt * 1e-12;
	cs.uncertainty = set.uncertainty;
	cs.keeper = set.keeper;
	return 0;
}

/*
 * A first transmission estimate and this task's clock offset. Without the first, a
 * task's first message of a size class has only its queued delivery as a sample, which
 * counts the time the task took to start, or to be scheduled, as transmission. The
 * offset goes to the monitor, which answers with the clock model the whole host uses
 * (the first estimate made on that host, refined by its keeper's later ones, and
 * exactly 0 on the monitor's own host), so that times of tasks that share a clock still
 * compare exactly.
 */
int clocksync__init(void)
{
	wire_clock est;
	uint8_t *ans = NULL;
	size_t len;
	int local = pvm_tidtohost(hooks__mytid()) == pvm_tidtohost(channel__monitor_tid());
	int rc;

	cs.remote = !local;
	rc = clock_estimate(local ? CLOCK_SAMPLES_LOCAL : CLOCK_SAMPLES_REMOTE, &est);
	if (rc != 0)
		return rc;
	vclock__seed(hooks__clock(), est.rtt / 2, SEED_MAX_BYTES);
	cs.last_sync = pvmmon_clock_now();
	rc = clock_send(&est);
	if (rc == 0)
		rc = channel__recv(&ans, &len, WIRE_TAG_CLOCKSET, ANSWER_TIMEOUT_MS);
	if (rc == 0) {
		rc = clocksync__set(ans, len);
		free(ans);
	}
	return rc;
}

/* The keeper's periodic estimate; the monitor's new model comes back later, unasked, and
 * is taken where the other control messages are (clocksync__tick, preserve mode's
 * drain). */
static void clock_resync(int64_t now)
{
	wire_clock est;

	cs.last_sync = now;
	if (clock_estimate(CLOCK_RESYNC_SAMPLES, &est) == 0)
		clock_send(&est);
}

void clocksync__tick(int64_t now)
{
	uint8_t *d = NULL;
	size_t len;

	if (cs.keeper && now - cs.last_sync >= CLOCK_RESYNC_NS)
		clock_resync(now);
	/* New models go to other hosts than the monitor's only: on its own host the
	 * offset is 0 for good, and the poll spares itself a receive. */
	while (cs.remote && channel__recv(&d, &len, WIRE_TAG_CLOCKSET, 0) == 0) {
		clocksync__set(d, len);
		free(d);
		d = NULL;
	}
}
