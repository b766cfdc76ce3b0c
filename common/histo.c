/* Fixed-size time histograms that double their bucket width to cover any length of
 * run (common/histo.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "histo.h"
#include "pvmmon/errors.h"

int histo__init(histo *h, uint32_t cap, int64_t width, int64_t start)
{
	memset(h, 0, sizeof(*h));
	if (cap < 2 || width <= 0)
		return pvmmon_error_set(PVMMON_EINVAL, "histogram: %u buckets of %lld ns", cap,
		                        (long long)width);
	h->v = calloc(cap, sizeof(*h->v));
	if (!h->v)
		return pvmmon_error_set(PVMMON_ENOMEM, NULL);
	h->cap = cap;
	h->width = width;
	h->start = start;
	return 0;
}

void histo__free(histo *h)
{
	free(h->v);
	memset(h, 0, sizeof(*h));
}

void histo__zero(histo *h)
{
	if (h->v)
		memset(h->v, 0, (size_t)h->cap * sizeof(*h->v));
	h->used = 0;
	h->hi = h->lo = 0;
}

/* Doubles the width once: bucket i takes the old 2i and 2i + 1. */
static void double_width(histo *h)
{
	uint32_t i, n = (h->used + 1) / 2;

	for (i = 0; i < n; i++)
		h->v[i] = h->v[2 * i] + (2 * i + 1 < h->used ? h->v[2 * i + 1] : 0);
	for (; i < h->used; i++)
		h->v[i] = 0;
	h->used = n;
	h->width *= 2;
	h->doublings++;
	h->hi = h->lo = 0;
}

void histo__fit(histo *h, int64_t t)
{
	/* The end of the last bucket; checked as a difference so that no product
	 * overflows (widths stay far below 2^62 / cap for any real run). */
	while (t - h->start >= h->width * (int64_t)h->cap && h->width < INT64_MAX / 4 / h->cap)
		double_width(h);
}

/* The bucket of time t (after histo__fit(h, t)). */
static uint32_t bucket_of(histo *h, int64_t t)
{
	int64_t i;

	if (t >= h->lo && t < h->hi)
		return h->last;
	i = t <= h->start ? 0 : (t - h->start) / h->width;
	if (i >= (int64_t)h->cap)
		return h->cap - 1;
	h->last = (uint32_t)i;
	h->lo = i == 0 ? INT64_MIN : h->start + i * h->width;
	h->hi = h->start + (i + 1) * h->width;
	return h->last;
}

int histo__locate(histo *h, int64_t t)
{
	if (!h->v || t - h->start >= h->width * (int64_t)h->cap)
		return 0;
	bucket_of(h, t);
	return 1;
}

static void put(histo *h, uint32_t i, int64_t value)
{
	h->v[i] += value;
	if (i + 1 > h->used)
		h->used = i + 1;
}

void histo__add_point(histo *h, int64_t t, int64_t value)
{
	if (!h->v || value == 0)
		return;
	if (histo__put_cached(h, t, t, value))
		return;
	histo__fit(h, t);
	put(h, bucket_of(h, t), value);
}

void histo__add_interval(histo *h, int64_t t0, int64_t t1, int64_t value)
{
	uint32_t i, last;
	int64_t len, given = 0;

	if (!h->v || value == 0)
		return;
	if (t1 <= t0) {
		histo__add_point(h, t0, value);
		return;
	}
	if (histo__put_cached(h, t0, t1 - 1, value))
		return;
	histo__fit(h, t1 - 1);
	/* A part of the interval before the axis counts in bucket 0. */
	len = t1 - t0;
	i = bucket_of(h, t0);
	last = bucket_of(h, t1 - 1);
	/* Most intervals (a call, the time between two calls) lie in one bucket. */
	if (i == last) {
		put(h, i, value);
		return;
	}
	for (; i <= last; i++) {
		int64_t end = i == last ? t1 : h->start + (int64_t)(i + 1) * h->width;
		int64_t cum = end - t0;

		/* The cumulative share, rounded down, so that the parts add up exactly; a
		 * time interval's value is its length, whose shares are the overlaps. */
		if (value != len)
			cum = (int64_t)((__int128)value * cum / len);
		put(h, i, cum - given);
		given = cum;
	}
}

void histo__merge(histo *dst, const histo *src)
{
	if (!dst->v || !src->v)
		return;
	while (dst->width < src->width && dst->width < INT64_MAX / 4 / dst->cap)
		double_width(dst);
	for (uint32_t i = 0; i < src->used; i++) {
		int64_t a = src->start + (int64_t)i * src->width;

		histo__add_interval(dst, a, a + src->width, src->v[i]);
	}
}

int64_t histo__total(const histo *h)
{
	int64_t s = 0;

	for (uint32_t i = 0; i < h->used; i++)
		s += h->v[i];
	return s;
}

int histo__to_log(pvmmon_log_hist *l, const histo *h)
{
	int64_t *v = NULL;

	if (h->used) {
		v = malloc((size_t)h->used * sizeof(*v));
		if (!v)
			return pvmmon_error_set(PVMMON_ENOMEM, NULL);
		memcpy(v, h->v, (size_t)h->used * sizeof(*v));
	}
	free(l->values);
	l->values = v;
	l->nbuckets = h->used;
	l->start_ns = h->start;
	l->width_ns = h->width;
	l->doublings = h->doublings;
	return 0;
}

int histo__from_log(histo *h, const pvmmon_log_hist *l, uint32_t cap)
{
	int rc;

	if (l->nbuckets > cap)
		return pvmmon_error_set(PVMMON_EINVAL, "histogram: %zu buckets, at most %u",
		                        l->nbuckets, cap);
	rc = histo__init(h, cap, l->width_ns, l->start_ns);
	if (rc < 0)
		return rc;
	if (l->nbuckets)
		memcpy(h->v, l->values, l->nbuckets * sizeof(*h->v));
	h->used = (uint32_t)l->nbuckets;
	h->doublings = l->doublings;
	return 0;
}

int histo__task_metric(pvmmon_hist_metric m)
{
	return m >= PVMMON_HIST_COMPUTE && m <= PVMMON_HIST_BYTES_RECV;
}

int histo__spec_parse(pvmmon_hist_metric *m, pvmmon_hist_focus *f, const char *spec, size_t n)
{
	char buf[64], *colon;

	*m = 0;
	*f = 0;
	if (n == 0 || n >= sizeof(buf))
		return pvmmon_error_set(PVMMON_EINVAL, "histogram '%.*s': want METRIC:FOCUS",
		                        (int)n, spec);
	memcpy(buf, spec, n);
	buf[n] = 0;
	colon = strchr(buf, ':');
	if (!colon)
		return pvmmon_error_set(PVMMON_EINVAL, "histogram '%s': want METRIC:FOCUS", buf);
	*colon = 0;
	*m = pvmmon_hist_metric_parse(buf);
	*f = pvmmon_hist_focus_parse(colon + 1);
	if (!*m || *m == PVMMON_HIST_CP)
		return pvmmon_error_set(PVMMON_EINVAL,
		                        "histogram '%s:%s': unknown metric (compute, wait, pvm, "
		                        "overhead, msgs-sent, bytes-sent, msgs-recv, bytes-recv, "
		                        "calls, time)",
		                        buf, colon + 1);
	if (!*f)
		return pvmmon_error_set(PVMMON_EINVAL,
		                        "histogram '%s:%s': unknown focus (program, host, task, "
		                        "proc, loop, stmt)",
		                        buf, colon + 1);
	if (histo__task_metric(*m) != (*f <= PVMMON_FOCUS_TASK))
		return pvmmon_error_set(PVMMON_EINVAL, "histogram '%s:%s': %s goes with %s", buf,
		                        colon + 1, buf,
		                        histo__task_metric(*m) ? "the program, host and task foci"
		                                               : "the proc, loop and stmt foci");
	return 0;
}

int histo__spec_check(const char *list, size_t max, int task_only)
{
	pvmmon_hist_metric m;
	pvmmon_hist_focus f;
	size_t n = 0;
	int rc;

	if (!list || !*list)
		return pvmmon_error_set(PVMMON_EINVAL, "histogram: want METRIC:FOCUS[,...]");
	for (const char *p = list; *p;) {
		size_t len = strcspn(p, ",");

		rc = histo__spec_parse(&m, &f, p, len);
		if (rc < 0)
			return rc;
		if (task_only && !histo__task_metric(m))
			return pvmmon_error_set(PVMMON_EINVAL,
			                        "histogram '%.*s': a running program takes the "
			                        "program, host and task foci only",
			                        (int)len, p);
		if (++n > max)
			return pvmmon_error_set(PVMMON_EINVAL, "histogram: at most %zu at a time",
			                        max);
		p += len;
		p += *p == ',';
	}
	return 0;
}
