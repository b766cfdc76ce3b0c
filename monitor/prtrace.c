/*
 * The record of why each preserve-mode receive took what it took, kept while the run
 * is traced: the candidates with their virtual arrivals, the tie window, and the
 * horizon that settled it, so that a user can check a doubtful decision in the log.
 */
#include <stdlib.h>
#include <string.h>

#include "../common/clock.h"
#include "prtrace.h"
#include "tasks.h"

static const char *kind_name(int kind)
{
	switch (kind) {
	case WIRE_PW_NRECV:
		return "nrecv";
	case WIRE_PW_PROBE:
		return "probe";
	case WIRE_PW_TRECV:
		return "trecv";
	default:
		return "recv";
	}
}

static char *lid_of(mon_run *run, int32_t tid)
{
	const mon_task *t = tasks__find(run, tid);

	return strdup(t && t->rec.lid ? t->rec.lid : "?");
}

/* A time on the monitor's clock, from the run's start (INT64_MAX stays: none). */
static int64_t rel(const mon_run *run, int64_t t)
{
	return t == INT64_MAX ? INT64_MAX : t - run->t_start;
}

void prtrace__add(mon_run *run, prtrace *p, int32_t tid, int by_task, int kind, int64_t vt,
                  int64_t deadline, int32_t taken_tid, int32_t taken_tag, int64_t window,
                  int64_t horizon, const wire_pcand *cand, uint32_t ncand)
{
	pvmmon_log_decision *d;

	if (!run->trace_bytes)
		return;
	if (p->n >= run->trace_events) {
		p->dropped++;
		return;
	}
	if (p->n == p->cap) {
		size_t nc = p->cap ? p->cap * 2 : 64;
		pvmmon_log_decision *n = realloc(p->d, nc * sizeof(*n));

		if (!n) {
			p->dropped++;
			return;
		}
		p->d = n;
		p->cap = nc;
	}
	d = &p->d[p->n];
	memset(d, 0, sizeof(*d));
	d->task = lid_of(run, tid);
	d->by = strdup(by_task ? "task" : "monitor");
	d->kind = strdup(kind_name(kind));
	d->at_ns = pvmmon_clock_now() - run->t_start;
	d->vt_ns = rel(run, vt);
	d->deadline_ns = deadline == INT64_MAX ? -1 : rel(run, deadline);
	d->taken = taken_tid ? lid_of(run, taken_tid) : NULL;
	d->taken_tag = taken_tag;
	d->window_ns = window;
	/* ORDER_NEVER: nothing could still send at all. */
	d->horizon_ns = horizon == INT64_MAX ? -1 : rel(run, horizon);
	d->cands = ncand ? calloc(ncand, sizeof(*d->cands)) : NULL;
	for (uint32_t k = 0; d->cands && k < ncand; k++) {
		d->cands[k].from = lid_of(run, cand[k].src);
		d->cands[k].tag = cand[k].tag;
		d->cands[k].seq = cand[k].seq;
		d->cands[k].va_ns = rel(run, cand[k].va);
		d->ncands++;
	}
	p->n++;
}

static char *dup_or_null(const char *s) { return s ? strdup(s) : NULL; }

void prtrace__to_log(const prtrace *p, pvmmon_log *log)
{
	pvmmon_log_decision *out;

	log->trace.decisions_dropped = p->dropped;
	if (!p->n || !(out = calloc(p->n, sizeof(*out))))
		return;
	for (size_t i = 0; i < p->n; i++) {
		const pvmmon_log_decision *s = &p->d[i];
		pvmmon_log_decision *d = &out[i];

		*d = *s;
		d->task = dup_or_null(s->task);
		d->by = dup_or_null(s->by);
		d->kind = dup_or_null(s->kind);
		d->taken = dup_or_null(s->taken);
		d->ncands = 0;
		d->cands = s->ncands ? calloc(s->ncands, sizeof(*d->cands)) : NULL;
		for (size_t k = 0; d->cands && k < s->ncands; k++) {
			d->cands[k] = s->cands[k];
			d->cands[k].from = dup_or_null(s->cands[k].from);
			d->ncands++;
		}
	}
	log->trace.decisions = out;
	log->trace.ndecisions = p->n;
}

void prtrace__free(prtrace *p)
{
	for (size_t i = 0; i < p->n; i++) {
		pvmmon_log_decision *d = &p->d[i];

		free(d->task);
		free(d->by);
		free(d->kind);
		free(d->taken);
		for (size_t k = 0; k < d->ncands; k++)
			free(d->cands[k].from);
		free(d->cands);
	}
	free(p->d);
	memset(p, 0, sizeof(*p));
}
