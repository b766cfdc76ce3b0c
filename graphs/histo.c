/* Reading time histograms for reports: sums over intervals, the common grid, program states. */
#include <string.h>

#include "histo.h"
#include "pvmmon/errors.h"

/* Beyond this many columns the grid is made coarser: a picture of more is no clearer. */
#define MAX_COLS 1024

const char *graphs__state_name(int k)
{
	static const char *const names[GRAPHS_NSTATES] = {"compute", "wait", "pvm", "overhead"};

	return k >= 0 && k < GRAPHS_NSTATES ? names[k] : "?";
}

int64_t graphs__round(double x) { return (int64_t)(x < 0 ? x - 0.5 : x + 0.5); }

int64_t graphs__hist_end(const pvmmon_log_hist *h)
{
	return h->start_ns + (int64_t)h->nbuckets * h->width_ns;
}

int64_t graphs__hist_used_end(const pvmmon_log_hist *h)
{
	size_t n = h->nbuckets;

	while (n > 0 && h->values[n - 1] == 0)
		n--;
	return h->start_ns + (int64_t)n * h->width_ns;
}

double graphs__hist_sum(const pvmmon_log_hist *h, int64_t t0, int64_t t1)
{
	double sum = 0;
	int64_t i0, i1;

	if (!h || h->width_ns <= 0 || t1 <= t0 || !h->nbuckets)
		return 0;
	if (t0 < h->start_ns)
		t0 = h->start_ns;
	if (t1 > graphs__hist_end(h))
		t1 = graphs__hist_end(h);
	if (t1 <= t0)
		return 0;
	/* Only the buckets the interval touches: a bucket's value is spread evenly over
	 * its width, so a part of it counts for the part of the width covered. */
	i0 = (t0 - h->start_ns) / h->width_ns;
	i1 = (t1 - h->start_ns - 1) / h->width_ns;
	for (int64_t i = i0; i <= i1 && i < (int64_t)h->nbuckets; i++) {
		int64_t b0 = h->start_ns + i * h->width_ns, b1 = b0 + h->width_ns;
		int64_t lo = t0 > b0 ? t0 : b0, hi = t1 < b1 ? t1 : b1;

		if (hi > lo)
			sum += (double)h->values[i] * (double)(hi - lo) / (double)h->width_ns;
	}
	return sum;
}

const pvmmon_log_hist *graphs__hist_find(const pvmmon_log_hist *hs, size_t n, pvmmon_hist_metric m,
                                         pvmmon_hist_focus f, const char *name, uint32_t stmt,
                                         pvmmon_hist_axis axis)
{
	for (size_t i = 0; i < n; i++) {
		const pvmmon_log_hist *h = &hs[i];

		if (h->metric != m || h->focus != f || h->axis != axis)
			continue;
		if (f == PVMMON_FOCUS_STMT && h->stmt != stmt)
			continue;
		if ((f == PVMMON_FOCUS_HOST || f == PVMMON_FOCUS_PROC || f == PVMMON_FOCUS_LOOP) &&
		    (!name || !h->name || strcmp(name, h->name)))
			continue;
		return h;
	}
	return NULL;
}

static int is_state(const pvmmon_log_hist *h, pvmmon_hist_focus f)
{
	return h->focus == f && h->metric >= PVMMON_HIST_COMPUTE &&
	       h->metric <= PVMMON_HIST_OVERHEAD && h->width_ns > 0;
}

int graphs__hist_grid(const pvmmon_log *log, graphs_grid *g)
{
	int64_t span = 0, width = 0;
	int found[2] = {0, 0};

	for (size_t i = 0; i < log->ntasks; i++)
		for (size_t j = 0; j < log->tasks[i].nhists; j++)
			if (is_state(&log->tasks[i].hists[j], PVMMON_FOCUS_TASK))
				found[log->tasks[i].hists[j].axis == PVMMON_AXIS_REAL] = 1;
	if (!found[0] && !found[1])
		return PVMMON_ENOTFOUND;
	g->axis = found[0] ? PVMMON_AXIS_VIRTUAL : PVMMON_AXIS_REAL;
	for (size_t i = 0; i < log->ntasks; i++)
		for (size_t j = 0; j < log->tasks[i].nhists; j++) {
			const pvmmon_log_hist *h = &log->tasks[i].hists[j];

			if (!is_state(h, PVMMON_FOCUS_TASK) || h->axis != g->axis)
				continue;
			if (h->width_ns > width)
				width = h->width_ns;
			/* Up to the last bucket with time: a log holds every bucket, the
			 * ones after the task's last flush empty. */
			if (graphs__hist_used_end(h) > span)
				span = graphs__hist_used_end(h);
		}
	if (span <= 0)
		span = width;
	if (span / width > MAX_COLS)
		width = (span + MAX_COLS - 1) / MAX_COLS;
	g->width = width;
	g->n = (size_t)((span + width - 1) / width);
	return 0;
}

void graphs__task_states(const pvmmon_log_task *t, pvmmon_hist_axis axis, int64_t t0, int64_t t1,
                         double v[GRAPHS_NSTATES])
{
	for (int k = 0; k < GRAPHS_NSTATES; k++)
		v[k] = graphs__hist_sum(
		    graphs__hist_find(t->hists, t->nhists,
		                      (pvmmon_hist_metric)(PVMMON_HIST_COMPUTE + k),
		                      PVMMON_FOCUS_TASK, NULL, 0, axis),
		    t0, t1);
}

void graphs__program_states(const pvmmon_log *log, const graphs_grid *g,
                            double (*v)[GRAPHS_NSTATES])
{
	const pvmmon_log_hist *prog[GRAPHS_NSTATES];
	int have = 1;

	for (int k = 0; k < GRAPHS_NSTATES; k++) {
		prog[k] = graphs__hist_find(log->hists, log->nhists,
		                            (pvmmon_hist_metric)(PVMMON_HIST_COMPUTE + k),
		                            PVMMON_FOCUS_PROGRAM, NULL, 0, g->axis);
		/* Overhead may be kept per task only; the three others make the phases. */
		if (!prog[k] && k < 3)
			have = 0;
	}
	for (size_t c = 0; c < g->n; c++) {
		int64_t t0 = (int64_t)c * g->width, t1 = t0 + g->width;

		memset(v[c], 0, sizeof(v[c]));
		if (have) {
			for (int k = 0; k < GRAPHS_NSTATES; k++)
				v[c][k] = graphs__hist_sum(prog[k], t0, t1);
			continue;
		}
		for (size_t i = 0; i < log->ntasks; i++) {
			double s[GRAPHS_NSTATES];

			graphs__task_states(&log->tasks[i], g->axis, t0, t1, s);
			for (int k = 0; k < GRAPHS_NSTATES; k++)
				v[c][k] += s[k];
		}
	}
}
