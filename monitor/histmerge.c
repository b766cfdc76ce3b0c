/*
 * The run's time histograms in the monitor (monitor/histmerge.h): each task keeps its
 * latest flush's histograms, moved from the task's own axis (virtual ns from its start)
 * to the run's (ns from the run's start, the host's clock offset removed through the
 * task's start); the program and host foci are merged from the tasks' task-focus
 * histograms when the log is built, so they cost nothing while the run goes on.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/histo.h"
#include "histmerge.h"
#include "pvmmon/errors.h"
#include "tasks.h"

/* Whether h keeps the run's settings: at most its bucket count, and a width that is the
 * initial width doubled h->doublings times. */
static int fits(const mon_run *run, const pvmmon_log_hist *h)
{
	return run->hist_buckets && h->nbuckets <= run->hist_buckets && h->doublings < 62 &&
	       h->width_ns == run->hist_width_ns << h->doublings;
}

void histmerge__take(mon_run *run, mon_task *t, pvmmon_log_task *fresh)
{
	size_t i, n = 0;

	for (i = 0; i < t->rec.nhists; i++)
		pvmmon_log_hist_clear(&t->rec.hists[i]);
	free(t->rec.hists);
	t->rec.hists = fresh->hists;
	for (i = 0; i < fresh->nhists; i++) {
		pvmmon_log_hist *h = &fresh->hists[i];

		if (!fits(run, h)) {
			run->bad_messages++;
			pvmmon_log_hist_clear(h);
			continue;
		}
		h->start_ns += t->rec.start_ns;
		/* The default ones and --histogram's collect over the whole run (from 0);
		 * pvmmon ctl's start (at the command, or at the task's start when it was on
		 * before) and end on the task's axis. */
		if (h->requested && !strcmp(h->requested, "ctl"))
			h->from_ns += t->rec.start_ns;
		if (h->to_ns >= 0)
			h->to_ns += t->rec.start_ns;
		t->rec.hists[n++] = *h;
	}
	t->rec.nhists = n;
	fresh->hists = NULL;
	fresh->nhists = 0;
}

/* Adds item (METRIC:FOCUS) to the list *list, or takes it out; 0 or PVMMON_ENOMEM. */
static int list_edit(char **list, const char *item, size_t n, int on)
{
	char *l = *list ? *list : "";
	size_t len = strlen(l);
	char *p, *out;

	for (p = l; *p;) {
		size_t k = strcspn(p, ",");

		if (k == n && !strncmp(p, item, n))
			break;
		p += k;
		p += *p == ',';
	}
	if (!on && !*p)
		return 0;
	if (on && *p)
		return 0;
	out = malloc(len + n + 2);
	if (!out)
		return pvmmon_error_set(PVMMON_ENOMEM, NULL);
	if (on) {
		sprintf(out, "%s%s%.*s", l, len ? "," : "", (int)n, item);
	} else {
		size_t at = (size_t)(p - l), k = strcspn(p, ",");

		memcpy(out, l, at);
		strcpy(out + at, p[k] ? p + k + 1 : "");
		len = strlen(out);
		if (len && out[len - 1] == ',')
			out[len - 1] = 0;
	}
	free(*list);
	*list = *out ? out : NULL;
	if (!*out)
		free(out);
	return 0;
}

int histmerge__request(mon_run *run, int on, const char *spec)
{
	wire_ctl c = {on ? WIRE_CTL_HIST_ON : WIRE_CTL_HIST_OFF, 0, 0, (char *)spec, 0};
	int rc = histo__spec_check(spec, 32, 1);

	if (rc < 0)
		return rc;
	for (const char *p = spec; *p && rc == 0;) {
		size_t n = strcspn(p, ",");

		rc = list_edit(&run->hist_ctl, p, n, on);
		p += n;
		p += *p == ',';
	}
	if (rc == 0 && run->hist_buckets)
		tasks__tell(run, &c, 0);
	return rc;
}

/* The merged histogram of (metric, requested) over the tasks of host (NULL: all) into
 * out; 0 when no task has one. */
static int merge_group(const mon_run *run, const pvmmon_log *log, const pvmmon_log_hist *key,
                       const char *host, pvmmon_log_hist *out)
{
	histo m, one;
	int found = 0;

	if (histo__init(&m, run->hist_buckets, run->hist_width_ns, 0) < 0)
		return 0;
	memset(out, 0, sizeof(*out));
	out->from_ns = INT64_MAX;
	for (size_t i = 0; i < log->ntasks; i++) {
		const pvmmon_log_task *t = &log->tasks[i];

		if (host && (!t->host || strcmp(t->host, host)))
			continue;
		for (size_t k = 0; k < t->nhists; k++) {
			const pvmmon_log_hist *h = &t->hists[k];

			if (h->focus != PVMMON_FOCUS_TASK || h->metric != key->metric ||
			    h->axis != key->axis || !h->requested != !key->requested ||
			    (h->requested && strcmp(h->requested, key->requested)))
				continue;
			if (histo__from_log(&one, h, run->hist_buckets) < 0)
				continue;
			histo__merge(&m, &one);
			histo__free(&one);
			out->from_ns = h->from_ns < out->from_ns ? h->from_ns : out->from_ns;
			out->to_ns =
			    !found || (out->to_ns >= 0 && (h->to_ns < 0 || h->to_ns > out->to_ns))
			        ? h->to_ns
			        : out->to_ns;
			found = 1;
		}
	}
	if (found && histo__to_log(out, &m) < 0)
		found = 0;
	histo__free(&m);
	if (!found)
		return 0;
	out->metric = key->metric;
	out->focus = host ? PVMMON_FOCUS_HOST : PVMMON_FOCUS_PROGRAM;
	out->axis = key->axis;
	out->name = host ? strdup(host) : NULL;
	out->requested = key->requested ? strdup(key->requested) : NULL;
	return 1;
}

/* Whether an earlier task-focus histogram of the tasks before (task ti, index ki) has
 * the same metric, axis and requester (a group merged already). */
static int seen(const pvmmon_log *log, size_t ti, size_t ki)
{
	const pvmmon_log_hist *h = &log->tasks[ti].hists[ki];

	for (size_t i = 0; i <= ti; i++)
		for (size_t k = 0; k < (i == ti ? ki : log->tasks[i].nhists); k++) {
			const pvmmon_log_hist *o = &log->tasks[i].hists[k];

			if (o->focus == PVMMON_FOCUS_TASK && o->metric == h->metric &&
			    o->axis == h->axis && !o->requested == !h->requested &&
			    (!o->requested || !strcmp(o->requested, h->requested)))
				return 1;
		}
	return 0;
}

/* Grows *arr (of *cap items) to hold n; 0 or PVMMON_ENOMEM. */
static int grow(pvmmon_log_hist **arr, size_t *cap, size_t n)
{
	pvmmon_log_hist *a;
	size_t c = *cap ? *cap * 2 : 16;

	if (n <= *cap)
		return 0;
	a = realloc(*arr, c * sizeof(*a));
	if (!a)
		return pvmmon_error_set(PVMMON_ENOMEM, NULL);
	*arr = a;
	*cap = c;
	return 0;
}

/* With one host, its focus would repeat the program's: host foci only for runs on
 * several hosts. */
void histmerge__build(const mon_run *run, pvmmon_log *log)
{
	size_t nhosts = log->nhosts > 1 ? log->nhosts : 0;

	size_t cap = 0;

	log->hist.enabled = run->hist_buckets > 0;
	log->hist.buckets = run->hist_buckets;
	log->hist.initial_width_ns = run->hist_width_ns;
	log->hist.hottest = run->hist_off ? 0 : run->hist_hottest;
	if (!run->hist_buckets)
		return;
	for (size_t ti = 0; ti < log->ntasks; ti++)
		for (size_t ki = 0; ki < log->tasks[ti].nhists; ki++) {
			const pvmmon_log_hist *h = &log->tasks[ti].hists[ki];

			if (h->focus != PVMMON_FOCUS_TASK || seen(log, ti, ki))
				continue;
			for (size_t hi = 0; hi <= nhosts; hi++) {
				const char *host = hi ? log->hosts[hi - 1].name : NULL;
				pvmmon_log_hist *a;

				if (grow(&log->hists, &cap, log->nhists + 1) < 0)
					return;
				a = &log->hists[log->nhists];
				if (merge_group(run, log, h, host, a))
					log->nhists++;
			}
		}
}
