/*
 * Preserve mode's choice by the bounds: which queued candidate a receive decided in
 * the task takes, or that it must wait or ask the monitor (prchoose.h).
 */
#include "prchoose.h"
#include "clocksync.h"
#include "preserve.h"
#include "prlocal.h"
#include "vclock.h"

/* The candidates' virtual arrival, as requests tell it. */
static int64_t arrival(const stash_entry *e)
{
	return e->vs + vclock__trans_estimate(hooks__clock(), e->bytes);
}

/* The patterns of the receive being decided (cand_sender is a callback of prlocal.c's,
 * which takes a tid alone). */
static struct {
	int32_t src, tag;
} pat;

/* Per sender, its first queued message that matches: the candidates. */
static int candidate(size_t i)
{
	return hooks__pr_matches(&hooks__prs.stash[i], pat.src, pat.tag) &&
	       hooks__pr_first_match(hooks__prs.stash[i].src, pat.tag) == &hooks__prs.stash[i];
}

/* What is sent at or after need - credit() arrives here at or after need: half this
 * task's least transmission, as the monitor credits it (monitor/order.h). */
static int64_t credit(void)
{
	int64_t f = vclock__trans_floor(hooks__clock());

	return f > 0 ? f / 2 : 0;
}

/* Whether tid has a candidate for the receive being decided. */
static int cand_sender(int32_t tid)
{
	for (size_t i = 0; i < hooks__prs.nstash; i++)
		if (hooks__prs.stash[i].src == tid && candidate(i))
			return 1;
	return 0;
}

const stash_entry *hooks__prc_choose(int32_t src, int32_t tag, int64_t deadline, int *why,
                                     int64_t *need)
{
	const stash_entry *e = NULL, *b;
	int64_t u = hooks__prl_umax(), va_e = 0;
	size_t i;

	pat.src = src;
	pat.tag = tag;
	*need = INT64_MIN;
	*why = PRC_NONE;
	hooks__prl_consider(cand_sender);
	for (i = 0; i < hooks__prs.nstash; i++) {
		if (!candidate(i))
			continue;
		*why = PRC_MONITOR;
		if (!hooks__prl_known(hooks__prs.stash[i].src))
			return NULL;
		if (!e || arrival(&hooks__prs.stash[i]) < va_e) {
			e = &hooks__prs.stash[i];
			va_e = arrival(e);
		}
	}
	/* A poll (deadline: its virtual time) with no candidate due by then finds nothing
	 * once no task can send before the deadline. */
	if ((!e || va_e > deadline) && deadline != INT64_MAX) {
		*need = hooks__to_common(deadline) - credit();
		*why = hooks__prl_horizon() >= *need ? PRC_MISS : PRC_WAIT;
		return NULL;
	}
	if (!e)
		return NULL;
	b = e;
	for (i = 0; i < hooks__prs.nstash; i++)
		if (&hooks__prs.stash[i] != b && candidate(i) &&
		    arrival(&hooks__prs.stash[i]) <= va_e + u &&
		    arrival(&hooks__prs.stash[i]) <= deadline &&
		    hooks__prl_rank(hooks__prs.stash[i].src) < hooks__prl_rank(b->src))
			b = &hooks__prs.stash[i];
	*need = hooks__to_common(va_e + u + (u > 0) < deadline ? va_e + u + (u > 0)
	                                                             : deadline) -
	          credit();
	*why = PRC_WAIT;
	return hooks__prl_horizon() >= *need ? b : NULL;
}

