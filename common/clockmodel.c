/* Fitting a host clock's offset and drift to the round-trip estimates made on it. */
#include "clockmodel.h"

#include "pvmmon/errors.h"

int clockmodel_fit(const clockmodel_point *p, size_t n, int64_t min_span_ns, clockmodel *out,
		   int64_t *uncertainty_out)
{
	size_t best = 0, last = 0;
	double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0, den;
	int64_t lo, hi;

	if (n == 0)
		return PVMMON_EINVAL;
	lo = hi = p[0].at;
	for (size_t i = 1; i < n; i++) {
		if (p[i].uncertainty < p[best].uncertainty)
			best = i;
		if (p[i].at > p[last].at)
			last = i;
		lo = p[i].at < lo ? p[i].at : lo;
		hi = p[i].at > hi ? p[i].at : hi;
	}
	out->offset = p[best].offset;
	out->tref = p[best].at;
	out->rate = 0;
	*uncertainty_out = p[best].uncertainty;
	if (n < 3 || hi - lo < min_span_ns)
		return 0;
	/* Relative to the latest estimate, in microseconds, so that the sums of squares stay
	 * well inside a double's precision over runs of days. */
	for (size_t i = 0; i < n; i++) {
		double x = (double)(p[i].at - p[last].at) / 1e3;
		double y = (double)(p[i].offset - p[best].offset) / 1e3;
		double u = (double)p[i].uncertainty / 1e3 + 1.0;
		double w = 1.0 / (u * u);

		sw += w;
		sx += w * x;
		sy += w * y;
		sxx += w * x * x;
		sxy += w * x * y;
	}
	den = sw * sxx - sx * sx;
	if (den <= 0)
		return 0;
	out->rate = (sw * sxy - sx * sy) / den;
	out->tref = p[last].at;
	out->offset = p[best].offset + (int64_t)((sy - out->rate * sx) / sw * 1e3);
	/* The least uncertain estimate bounds the true offset at its own time; the line
	 * passes at some distance from it there, which the line's uncertainty adds to (the
	 * fit alone is no bound: a CI run's fitted offset was 26 us off with the best
	 * estimate's 25 us reported). */
	{
		double at_best = (double)out->offset + out->rate * (double)(p[best].at - out->tref);
		double d = at_best - (double)p[best].offset;

		*uncertainty_out = p[best].uncertainty + (int64_t)(d < 0 ? -d : d);
	}
	return 0;
}
