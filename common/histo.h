/*
 * Private to pvmmon: fixed-size time histograms (seed 001 section 2.2): a metric's
 * values over successive equal intervals (buckets) of a time axis; when a value falls
 * past the last bucket the width doubles and the values are re-bucketed two into one,
 * so the size never grows with the run's length. Tasks fill them (pvmhooks/histos.c);
 * the monitor merges them onto the run's axis (monitor/histmerge.c).
 */
#ifndef PVMMON_COMMON_HISTO_H
#define PVMMON_COMMON_HISTO_H

#include <stdint.h>

#include "pvmmon/log.h"

/* Bucket i covers [start + i * width, start + (i + 1) * width). */
typedef struct histo {
	uint32_t cap;       /* the fixed bucket count */
	uint32_t used;      /* buckets up to the last one touched (values beyond are 0) */
	uint32_t doublings; /* times the width has doubled since the initial width */
	int64_t start;      /* the axis time of bucket 0's start */
	int64_t width;      /* the current bucket width, ns (> 0) */
	int64_t *v;         /* cap values (heap) */
	/* The last bucket found and its span [lo, hi): most values fall in it, which
	 * spares a division (hi <= lo: none). */
	uint32_t last;
	int64_t lo, hi;
} histo;

/* Sets up *h with cap buckets (at least 2) of initial width ns from start: 0, or
 * PVMMON_EINVAL / PVMMON_ENOMEM (then *h is empty). */
int histo__init(histo *h, uint32_t cap, int64_t width, int64_t start);
/* Frees what h holds, leaving it zeroed. */
void histo__free(histo *h);
/* Empties h (values 0, used 0), keeping its width and doublings. */
void histo__zero(histo *h);

/* Doubles the width (pair-summing the values) until time t lies before the last
 * bucket's end; times before start are no reason to double. */
void histo__fit(histo *h, int64_t t);
/* Adds value at time point t (a count, or time with no extent): a t before start goes
 * into bucket 0. */
void histo__add_point(histo *h, int64_t t, int64_t value);

/* Adds value to the last bucket found when [t0, t_last] lies within it (such a bucket
 * is within the axis: nothing to fit, nothing to split): 1 when added, 0 when the
 * caller must take histo__add_point or histo__add_interval (value 0: nothing to add). */
static inline int histo__put_cached(histo *h, int64_t t0, int64_t t_last, int64_t value)
{
	if (t0 < h->lo || t_last >= h->hi || value == 0)
		return 0;
	h->v[h->last] += value;
	if (h->last + 1 > h->used)
		h->used = h->last + 1;
	return 1;
}
/* Makes the bucket of time t the one histo__put_cached adds to, when t lies within the
 * axis (no doubling): 1, or 0 when it does not (nothing changed). */
int histo__locate(histo *h, int64_t t);
/* Spreads value over [t0, t1) in proportion to each bucket's share of the interval;
 * the parts add up to value exactly. An empty interval adds value at t0. */
void histo__add_interval(histo *h, int64_t t0, int64_t t1, int64_t value);
/* Adds src's values onto dst's axis (each of src's buckets spread over the buckets of
 * dst it covers), after doubling dst to at least src's width: totals add exactly. */
void histo__merge(histo *dst, const histo *src);
/* The sum of the values. */
int64_t histo__total(const histo *h);

/* The values of h into the log histogram l's axis fields and values (nbuckets = used;
 * the values heap): 0 or PVMMON_ENOMEM. The metric, focus and names are left alone. */
int histo__to_log(pvmmon_log_hist *l, const histo *h);
/* A log histogram as a histo of cap buckets (cap >= l->nbuckets): 0, PVMMON_EINVAL, or
 * PVMMON_ENOMEM. */
int histo__from_log(histo *h, const pvmmon_log_hist *l, uint32_t cap);

/* One METRIC:FOCUS of a histogram request (`pvmmon run --histogram`, `pvmmon ctl
 * histogram`) of n bytes at spec: the metrics of a task's time and messages (compute,
 * wait, pvm, overhead, msgs-sent, bytes-sent, msgs-recv, bytes-recv) go with the
 * program, host and task foci, calls and time with proc, loop and stmt. 0, or
 * PVMMON_EINVAL with a message naming what is wrong. */
int histo__spec_parse(pvmmon_hist_metric *m, pvmmon_hist_focus *f, const char *spec, size_t n);
/* Checks a comma-separated list of them (at most max items); 0 or PVMMON_EINVAL. With
 * task_only, only the task-level metrics (what `pvmmon ctl histogram` can switch). */
int histo__spec_check(const char *list, size_t max, int task_only);
/* Whether m is one of a task's own metrics (time states, messages): kept per task and
 * merged by the monitor into program and host foci. */
int histo__task_metric(pvmmon_hist_metric m);

#endif
