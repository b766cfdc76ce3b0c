/* The virtual clock: vt = rt - intrusion, the local clock lt = rt - L, and their update
 * at monitored receives. */
#include <string.h>

#include "pvmmon/errors.h"
#include "vclock.h"

void vclock__init(vclock *c)
{
	memset(c, 0, sizeof(*c));
	c->pub_limit = INT64_MAX;
}

void vclock__restart(vclock *c)
{
	vclock keep = *c;

	vclock__init(c);
	vclock__set_charges(c, keep.intrusion, keep.local, 0);
	c->last_v = keep.last_v;
	c->last_l = keep.last_l;
	c->last_rt = keep.last_rt;
	c->clamped = keep.clamped;
	c->clamped_real = keep.clamped_real;
	c->nclamped = keep.nclamped;
	c->pub_limit = keep.pub ? keep.pub_limit : INT64_MAX;
	c->pub = keep.pub;
}

int64_t vclock__stamp_first(vclock *c, int64_t rt)
{
	int64_t v = rt - c->intrusion, l = rt - c->local;

	if (c->stamps_paused)
		return v;
	/* The first stamp has nothing to be below. */
	c->last_rt = rt;
	c->last_v = v;
	c->last_l = l;
	return v;
}

void vclock__pause_stamps(vclock *c, int paused)
{
	if (paused && !c->stamps_paused) {
		c->saved.last_v = c->last_v;
		c->saved.last_l = c->last_l;
		c->saved.last_rt = c->last_rt;
		c->saved.clamped = c->clamped;
		c->saved.clamped_real = c->clamped_real;
		c->saved.nclamped = c->nclamped;
	} else if (!paused && c->stamps_paused) {
		c->last_v = c->saved.last_v;
		c->last_l = c->saved.last_l;
		c->last_rt = c->saved.last_rt;
		c->clamped = c->saved.clamped;
		c->clamped_real = c->saved.clamped_real;
		c->nclamped = c->saved.nclamped;
	}
	c->stamps_paused = paused;
}

int64_t vclock__uncertainty(const vclock *c, uint64_t nprobes, int64_t per_probe_ns)
{
	return c->clamped_real + (per_probe_ns > 0 ? (int64_t)nprobes * per_probe_ns : 0);
}

void vclock__set_charges(vclock *c, int64_t intrusion, int64_t local, int64_t rt)
{
	if (intrusion > c->pub_limit && c->pub)
		c->pub(c, intrusion);
	c->intrusion = intrusion;
	c->local = local;
	if (rt > 0 && c->last_rt) {
		c->last_v = rt - intrusion;
		c->last_l = rt - local;
		c->last_rt = rt;
	}
}

void vclock__set_intrusion(vclock *c, int64_t intrusion)
{
	if (intrusion > c->pub_limit && c->pub)
		c->pub(c, intrusion);
	c->intrusion = intrusion > 0 ? intrusion : 0;
}

int vclock__size_class(uint64_t bytes)
{
	int k = 0;

	while (bytes > 1 && k < VCLOCK_SIZE_CLASSES - 1) {
		bytes >>= 1;
		k++;
	}
	return k;
}

/* Keeps the minimum positive sample in *slot and returns it. */
static int64_t keep_min(int64_t *slot, int64_t sample)
{
	if (sample < 0)
		sample = 0;
	if (*slot == 0 || sample < *slot)
		*slot = sample;
	return *slot;
}

void vclock__seed(vclock *c, int64_t trans, uint64_t max_bytes)
{
	if (trans > 0 && (c->seed == 0 || trans < c->seed)) {
		c->seed = trans;
		c->seed_class = vclock__size_class(max_bytes);
	}
}

/* Adds a measured transmission to class k and takes the quantile of the kept ones
 * again: the sample it replaces (the oldest, once VCLOCK_WAITED_KEEP are kept) leaves
 * the ascending copy and the new one goes in at its place, a few dozen moves where
 * sorting the window again cost hundreds on every receive. */
static void add_waited(vclock *c, int k, int64_t sample)
{
	int64_t *v = c->waited_sorted[k], x = sample > 0 ? sample : 1;
	uint32_t slot = c->nwaited[k] % VCLOCK_WAITED_KEEP;
	int n = c->nwaited[k] < VCLOCK_WAITED_KEEP ? (int)c->nwaited[k] : VCLOCK_WAITED_KEEP;
	int i;

	if (n == VCLOCK_WAITED_KEEP) {
		/* The oldest sample leaves: any equal value in v stands for it. */
		int64_t old = c->waited[k][slot];

		for (i = 0; i < n - 1 && v[i] != old; i++)
			;
		for (; i < n - 1; i++)
			v[i] = v[i + 1];
		n--;
	}
	c->waited[k][slot] = x;
	c->nwaited[k]++;
	for (i = n; i > 0 && v[i - 1] > x; i--)
		v[i] = v[i - 1];
	v[i] = x;
	n++;
	c->waited_est[k] = v[(n - 1) * VCLOCK_WAITED_RANK / VCLOCK_WAITED_KEEP];
}

/*
 * The transmission of a message of class k whose least delivery time is t (0: none):
 * the class's own measured estimate when it has one; otherwise t bounded by the
 * larger classes' estimates and, up to the seed's class, by the seed.
 */
static int64_t bound_trans(const vclock *c, int k, int64_t t)
{
	if (c->waited_est[k] > 0)
		return c->waited_est[k];
	for (int j = k + 1; j < VCLOCK_SIZE_CLASSES; j++)
		if (c->waited_est[j] > 0 && (t == 0 || c->waited_est[j] < t))
			t = c->waited_est[j];
	if (c->seed > 0 && k <= c->seed_class && (t == 0 || c->seed < t))
		t = c->seed;
	return t;
}

int64_t vclock__trans_estimate(const vclock *c, uint64_t bytes)
{
	int k = vclock__size_class(bytes);

	return bound_trans(c, k, c->min_delivery[k]);
}

int64_t vclock__trans_floor(const vclock *c)
{
	int64_t t = c->seed > 0 ? c->seed : 0;

	for (int k = 0; k < VCLOCK_SIZE_CLASSES; k++)
		if (c->min_delivery[k] > 0 && (t == 0 || c->min_delivery[k] < t))
			t = c->min_delivery[k];
	return t;
}

void vclock__receive(vclock *c, int64_t t_start, int64_t t1, int64_t t2, int64_t t_end, int64_t vs,
                     int64_t rs, uint64_t bytes, vclock_recv *out)
{
	vclock__receive_seen(c, t_start, 0, t1, t2, t_end, vs, rs, 0, bytes, out);
}

void vclock__receive_seen(vclock *c, int64_t t_start, int64_t t_wait, int64_t t1, int64_t t2,
                          int64_t t_end, int64_t vs, int64_t rs, int64_t arrived, uint64_t bytes,
                          vclock_recv *out)
{
	int k = vclock__size_class(bytes);
	int64_t seen = arrived ? arrived : t2;
	int64_t own = ((t_wait ? t_wait : t1) - t_start) + (t_end - t2);

	/* Local compensation knows nothing of other tasks: the wrapper's own time is
	 * removed, the waiting stays, whatever caused it. */
	if (own > 0)
		c->local += own;

	out->v0 = t_start - c->intrusion;
	out->trans = keep_min(&c->min_delivery[k], seen - rs);
	if (rs > (t_wait ? t_wait : t1))
		add_waited(c, k, seen - rs);
	/* Queued messages give only upper bounds; a measured transmission of this size or
	 * larger is a better one. */
	out->trans = bound_trans(c, k, out->trans);
	/* A message sent after the real receive began made it block: its duration is
	 * mostly waiting, not receive cost, so it is no sample for the cost. */
	if (rs <= t1)
		out->cost = keep_min(&c->min_recv_cost[k], t2 - t1);
	else
		out->cost = c->min_recv_cost[k];
	out->va = vs + out->trans;
	out->sync = out->va > out->v0 ? out->va - out->v0 : 0;
	out->vt = (out->va > out->v0 ? out->va : out->v0) + out->cost;
	/* Inside a wrapped call the board's promise is off (frozen); a fake clock in a
	 * test may receive outside one. */
	if (t_end - out->vt > c->pub_limit && c->pub)
		c->pub(c, t_end - out->vt);
	c->intrusion = t_end - out->vt;
	/* Virtual time never runs ahead of real time: the uninstrumented program cannot
	 * be later than the instrumented one at the same point. */
	if (c->intrusion < 0) {
		c->intrusion = 0;
		out->vt = t_end;
		/* Nor did the receive wait longer than its clock moved: a sender's stamp
		 * later than this task's real time (a sender on a loaded machine whose
		 * clock ran ahead) gave a delay the time histograms, which take a call's
		 * virtual span, could not hold (948 ms against 42 ms). */
		if (out->sync > out->vt - out->v0)
			out->sync = out->vt > out->v0 ? out->vt - out->v0 : 0;
	}
	/* Nor does it go back past a stamp already handed out. */
	if (c->last_rt && out->vt < c->last_v) {
		c->clamped += c->last_v - out->vt;
		c->nclamped++;
		out->vt = c->last_v;
		c->intrusion = t_end - out->vt;
	}
	if (c->last_rt) {
		c->last_v = out->vt;
		if (t_end - c->local > c->last_l)
			c->last_l = t_end - c->local;
		else
			c->local = t_end - c->last_l;
		if (t_end > c->last_rt)
			c->last_rt = t_end;
	}
}

int vclock__offset_estimate(int64_t *offset, int64_t *uncertainty, int64_t *rtt, int64_t *at,
                            const vclock_sync_sample *s, int n)
{
	int best = -1;
	int64_t best_delay = 0, min_rtt = 0;

	for (int i = 0; i < n; i++) {
		int64_t round = s[i].t_recv - s[i].t_send, held = s[i].m_send - s[i].m_recv;
		int64_t delay;

		/* A sample whose stamps run backwards on either side is damaged. */
		if (round < 0 || held < 0)
			continue;
		/* Two clocks' rates differ by parts per million at most, so the monitor's hold
		 * can exceed the task's round trip only by rounding: no delay to speak of. */
		delay = round > held ? round - held : 0;
		if (best < 0 || delay < best_delay) {
			best = i;
			best_delay = delay;
		}
		if (min_rtt == 0 || round < min_rtt)
			min_rtt = round;
	}
	if (best < 0)
		return PVMMON_EINVAL;
	/* Halving each difference before adding keeps the sum far from overflow whatever
	 * the two clocks' origins. */
	*offset = (s[best].m_recv - s[best].t_send) / 2 + (s[best].m_send - s[best].t_recv) / 2;
	*uncertainty = (best_delay + 1) / 2;
	*rtt = min_rtt;
	if (at)
		*at = s[best].t_send + (s[best].t_recv - s[best].t_send) / 2;
	return 0;
}
