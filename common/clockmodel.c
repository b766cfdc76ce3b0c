/* Fitting a host clock's offset and drift to the round-trip estimates made on it. */
#include "clockmodel.h"

#include "pvmmon/errors.h"

int clockmodel__fit(const clockmodel_point *p, size_t n, int64_t min_span_ns, clockmodel *out,
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
	/* The latest estimate bounds the true offset at its own time, tref; the line
	 * passes at some distance from it there, which the line's uncertainty adds to. The
	 * fit alone is no bound (a spurious rate fitted over a few noisy seconds moves it:
	 * CI runs of the hosts suite saw fitted offsets 26 and 28 us off with the least
	 * uncertain estimate's 20 to 25 us reported). */
	{
		int64_t d = out->offset - p[last].offset;

		*uncertainty_out = p[last].uncertainty + (d < 0 ? -d : d);
	}
	return 0;
}
