/* Private to pvmmon: a host clock's offset from the monitor's clock as a line (offset and
 * drift), fitted to the round-trip estimates made on that host during a run. */
#ifndef PVMMON_COMMON_CLOCKMODEL_H
#define PVMMON_COMMON_CLOCKMODEL_H

#include <stddef.h>
#include <stdint.h>

/*
 * The monitor's clock minus a host's at host time t is offset + rate * (t - tref): two
 * clocks that tick at different rates drift apart linearly over a run (tens of parts
 * per million for quartz). rate is dimensionless (ns of offset per ns of host time).
 */
typedef struct clockmodel {
	int64_t offset;
	int64_t tref;
	double rate;
} clockmodel;

/* One Cristian estimate: at host time at, the offset lay within uncertainty of offset. */
typedef struct clockmodel_point {
	int64_t at;
	int64_t offset;
	int64_t uncertainty;
} clockmodel_point;

/* A host time t on the monitor's clock. */
static inline int64_t clockmodel__to_common(const clockmodel *m, int64_t t)
{
	return t + m->offset + (int64_t)((double)(t - m->tref) * m->rate);
}

/* A monitor time c on the host's clock (the inverse, to a nanosecond). */
static inline int64_t clockmodel__from_common(const clockmodel *m, int64_t c)
{
	int64_t d = c - m->offset - m->tref;

	return m->tref + d - (int64_t)((double)d * m->rate / (1.0 + m->rate));
}

/*
 * Fits *out to the n estimates p: a straight line by least squares, each estimate
 * weighted by the inverse square of its uncertainty (an estimate made while the
 * network was busy counts little), evaluated at the latest estimate (tref). Fewer than
 * three estimates, or estimates spanning less than min_span_ns, give no rate: the
 * offset is then the least uncertain estimate's. *uncertainty_out gets the uncertainty
 * of the result: the least uncertain point's, or when a line is fitted the latest
 * point's plus how far the line passes from it at tref. Returns 0, or PVMMON_EINVAL
 * when n is 0.
 */
int clockmodel__fit(const clockmodel_point *p, size_t n, int64_t min_span_ns, clockmodel *out,
		   int64_t *uncertainty_out);

#endif
