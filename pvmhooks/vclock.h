/*
 * Private to libpvmhooks: the virtual clock (doc/architecture.md, "The virtual clock").
 * Pure arithmetic on timestamps so that unit tests can drive it without PVM.
 */
#ifndef PVMMON_HOOKS_VCLOCK_H
#define PVMMON_HOOKS_VCLOCK_H

#include <stdint.h>

/* Internal to the library that links it (the archives are linked statically): its
 * names bind locally, with no GOT load or PLT call. */
#pragma GCC visibility push(hidden)

/* Message sizes are grouped into power-of-two classes for the estimators below. */
#define VCLOCK_SIZE_CLASSES 33
/* Transmissions kept per size class (the latest), and the quantile of them taken as
 * the class's transmission time, in VCLOCK_WAITED_KEEP-ths. */
#define VCLOCK_WAITED_KEEP 32
#define VCLOCK_WAITED_RANK 8

/* What every probe reads and writes comes first, in the struct's first 64-byte line
 * (the struct is aligned to it): intrusion, local, the last stamps and the board's
 * limit; the clamps' counts, which only a clamp adds to, next. */
typedef struct vclock {
	int64_t intrusion; /* I: accumulated monitoring intrusion, ns */
	/*
	 * L: this task's own monitoring time, ns: what I adds up, except that a receive adds
	 * only its wrapper's own time, never waiting, and nothing resets it. rt - L is local
	 * compensation (seed 002 section 2), which cannot see other tasks' monitoring.
	 * It is also the task's observed cost of monitoring (seed 004).
	 */
	int64_t local;
	/*
	 * Clamping (vclock__stamp): the last virtual and local times handed out, which no
	 * later stamp goes below, and the real time of the last stamp. Where a charge removed
	 * more than the real time that passed since the last stamp (a calibrated probe cost
	 * above what the probes really took there), the interval is 0 and the charge that
	 * could not be removed is given back: clamped adds it up, clamped_real adds up the
	 * real length of those intervals (their true unmonitored time lies between 0 and
	 * that), nclamped counts them. They survive vclock__restart.
	 */
	int64_t last_v, last_l, last_rt;
	/* Preserve mode's board (board.c) promises others that I stays at most pub_limit:
	 * before I grows past it, pub(c, new I) writes a new promise. INT64_MAX (or no
	 * pub, as in a clock not yet through vclock__init): none. */
	int64_t pub_limit;
	int64_t clamped, clamped_real;
	uint64_t nclamped;
	void (*pub)(struct vclock *c, int64_t intrusion);
	/*
	 * Minimum observed delivery time (receiver's receive end minus sender's send
	 * start) per size class: a message that waited in the queue shows a larger value,
	 * a message that arrived while the receiver waited shows the transmission itself,
	 * so the minimum converges on the transmission time. 0 means no sample yet.
	 */
	int64_t min_delivery[VCLOCK_SIZE_CLASSES];
	/*
	 * Transmissions measured on messages sent after the receive had begun: the
	 * receiver was already waiting, so the sample is a transmission time, not an
	 * upper bound that includes queueing. A class's estimate is the lower quartile of
	 * its latest VCLOCK_WAITED_KEEP samples, not their minimum: the least of thousands
	 * is a rare best case (the receiver woke at once, the pvmd was idle) that the
	 * unmonitored program does not get either, and taking it for every message counts
	 * the usual latency above it as intrusion. Until a class has a sample of its own,
	 * a larger class's estimate bounds it; once it has, its own estimate stands, even
	 * above a larger class's (whose messages may have found the receiver awake where
	 * this class's find it asleep, a wake-up the unmonitored program pays too).
	 * waited_est is 0 for a class without samples.
	 */
	int64_t waited_est[VCLOCK_SIZE_CLASSES];
	int64_t waited[VCLOCK_SIZE_CLASSES][VCLOCK_WAITED_KEEP];
	/* The same samples in ascending order, kept so as each one comes: the quantile is
	 * read off it, not sorted again on every receive. */
	int64_t waited_sorted[VCLOCK_SIZE_CLASSES][VCLOCK_WAITED_KEEP];
	uint32_t nwaited[VCLOCK_SIZE_CLASSES];
	/* Half the registration's round trip to the monitor (0: none), and the largest
	 * size class it bounds: a bound like a larger class's sample, never a sample. */
	int64_t seed;
	int seed_class;
	/* Minimum observed duration of the real receive call per size class: the cost the
	 * uninstrumented receive would also have paid once the message was there. */
	int64_t min_recv_cost[VCLOCK_SIZE_CLASSES];
	/* While set (calibration), stamps are plain rt - I: its probes are no part of the
	 * program's time and must not move the last stamp. saved: the stamp state at the
	 * pause, put back at its end. */
	int stamps_paused;
	struct {
		int64_t last_v, last_l, last_rt, clamped, clamped_real;
		uint64_t nclamped;
	} saved;
} __attribute__((aligned(64))) vclock;

/* What the clock concluded about one receive. */
typedef struct vclock_recv {
	int64_t v0;    /* virtual time when the receive started */
	int64_t va;    /* virtual arrival of the message: vs + transmission */
	int64_t trans; /* estimated transmission time */
	int64_t sync;  /* synchronisation delay: max(0, va - v0) */
	int64_t cost;  /* receive cost */
	int64_t vt;    /* virtual time after the receive */
} vclock_recv;

void vclock__init(vclock *c);

/* Starts c afresh but keeps what monitoring already charged (I and L): probes that
 * ran before registration keep their cost, so virtual time does not jump. */
void vclock__restart(vclock *c);

/* Sets the charges outright: a measurement that charges itself as one (calibration)
 * puts back I and L as they were plus its own duration. With rt > 0 (the real time
 * now), the stamps its own probes made are forgotten: the last stamp is rt's. */
void vclock__set_charges(vclock *c, int64_t intrusion, int64_t local, int64_t rt);

/* Sets I alone (a held receive's intrusion, never negative; L is unchanged). */
void vclock__set_intrusion(vclock *c, int64_t intrusion);

/* I: the monitoring intrusion accumulated (the delay a piggyback carries). */
static inline int64_t vclock__intrusion(const vclock *c) { return c->intrusion; }

/* L: the task's own monitoring time. */
static inline int64_t vclock__own(const vclock *c) { return c->local; }

/* vt = rt - I. */
static inline int64_t vclock__virtual(const vclock *c, int64_t rt) { return rt - c->intrusion; }

/*
 * The virtual time of real time rt for a record (a probe, a wrapped call's start, a
 * flush), never below the last one handed out: where I has grown by more than the real
 * time since the last stamp, I gives the excess back (and L likewise on the local
 * clock) and the clamp is counted. So no interval between two stamps is negative.
 * Inline: every probe stamps. vclock__stamp_first takes a paused clock and the first
 * stamp.
 */
int64_t vclock__stamp_first(vclock *c, int64_t rt);

static inline int64_t vclock__stamp(vclock *c, int64_t rt)
{
	int64_t v = rt - c->intrusion, l = rt - c->local;

	if (__builtin_expect(c->stamps_paused || c->last_rt == 0, 0))
		return vclock__stamp_first(c, rt);
	if (__builtin_expect(v < c->last_v, 0)) {
		c->intrusion -= c->last_v - v;
		c->clamped += c->last_v - v;
		c->clamped_real += rt > c->last_rt ? rt - c->last_rt : 0;
		c->nclamped++;
		v = c->last_v;
	}
	if (__builtin_expect(l < c->last_l, 0)) {
		c->local -= c->last_l - l;
		l = c->last_l;
	}
	c->last_v = v;
	c->last_l = l;
	if (rt > c->last_rt)
		c->last_rt = rt;
	return v;
}

/*
 * A probe's stamp and charge at once: vclock__stamp(c, rt), then vclock__intrude(c,
 * cost), in one pass for the probes' common case (cost >= 0). Returns the virtual time
 * and in *l the local time of rt. After a stamp I = rt - v and L = rt - l whether or not
 * it clamped (a clamp gives back exactly the excess), so the charge stores them plus
 * cost without reading them again. The first stamp (last_rt 0, and last_v and last_l 0
 * with it) has nothing to be below: it is told apart only where it would clamp. A
 * paused clock is not tested here: pausing saves the stamp state and resuming puts it
 * back (vclock__pause_stamps), so the probes calibration times are the probes the
 * program runs. The board's promise is left to the caller (vclock__pub_due).
 */
static inline int64_t vclock__probe_nopub(vclock *c, int64_t rt, int64_t cost, int64_t *l)
{
	int64_t v = rt - c->intrusion, lt = rt - c->local;

	/* Clamped, v is the last stamp and I = rt - v gives back the excess (L likewise);
	 * else I and L stay as they are and the stamp is the last one. Then the charge. */
	if (__builtin_expect(v < c->last_v, 0) && c->last_rt) {
		c->clamped += c->last_v - v;
		c->clamped_real += rt > c->last_rt ? rt - c->last_rt : 0;
		c->nclamped++;
		v = c->last_v;
		c->intrusion = rt - v;
	} else
		c->last_v = v;
	if (__builtin_expect(lt < c->last_l, 0) && c->last_rt) {
		lt = c->last_l;
		c->local = rt - lt;
	} else
		c->last_l = lt;
	/* A conditional move and a store, not a branch around the store: measured 1.5 ns
	 * less a probe pair. */
	c->last_rt = rt > c->last_rt ? rt : c->last_rt;
	c->intrusion += cost;
	c->local += cost;
	*l = lt;
	return v;
}

/* Whether the charge of vclock__probe_nopub took I past the board's promise: the
 * caller then calls vclock__pub (a promise is only read by other processes, so it may
 * come after the probe's record work, as long as it comes before anything else). */
static inline int vclock__pub_due(const vclock *c) { return c->intrusion > c->pub_limit; }

static inline void vclock__pub(vclock *c)
{
	if (c->intrusion > c->pub_limit && c->pub)
		c->pub(c, c->intrusion);
}

/* Pauses stamping (1) or resumes it (0): see stamps_paused. Probes (vclock__probe_nopub) go
 * on stamping while paused; resuming puts back the stamp state of the pause (the last
 * stamps and the clamps), so that they leave no trace either. */
void vclock__pause_stamps(vclock *c, int paused);

/* The local time of the last stamp (lt = rt - L, clamped as vclock__stamp clamps vt). */
static inline int64_t vclock__last_local(const vclock *c) { return c->last_l; }

/*
 * The uncertainty of the task's virtual time: the real length of the clamped intervals
 * (each one's true time lies between 0, what it was given, and its real length) plus
 * nprobes times per_probe_ns (how far a probe's charge may be from its true cost).
 */
int64_t vclock__uncertainty(const vclock *c, uint64_t nprobes, int64_t per_probe_ns);

/* lt = rt - L: the local clock. */
static inline int64_t vclock__local(const vclock *c, int64_t rt) { return rt - c->local; }

/* Adds measured monitoring time to I and to L: it is the task's own. */
static inline void vclock__intrude(vclock *c, int64_t d)
{
	if (d > 0) {
		if (__builtin_expect(c->intrusion + d > c->pub_limit, 0) && c->pub)
			c->pub(c, c->intrusion + d);
		c->intrusion += d;
		c->local += d;
	}
}

int vclock__size_class(uint64_t bytes);

/*
 * A first transmission estimate for messages up to max_bytes, from a measured round
 * trip (half of it): until a message of a size class arrives while its receiver waits,
 * its estimate is at most this, not the queueing that a first message may show.
 */
void vclock__seed(vclock *c, int64_t trans, uint64_t max_bytes);

/* The transmission time a message of `bytes` would be given now (0 before any
 * sample), without taking a sample: for comparing queued messages' arrivals. */
int64_t vclock__trans_estimate(const vclock *c, uint64_t bytes);

/* The least transmission time measured for any size (or the seed's, if less), 0
 * before any: preserve mode's floor under how long a message takes to reach the
 * task, whatever its size. */
int64_t vclock__trans_floor(const vclock *c);

/*
 * Applies a monitored receive: started at real t_start (virtual v0 = t_start - I), the
 * real receive ran from t1 to t2, the message of `bytes` was sent at the sender's
 * virtual time vs and real time rs; the wrapper ends at real t_end. Afterwards
 * vt = max(v0, va) + cost and I = t_end - vt: real waiting that the uninstrumented
 * program would not have had becomes intrusion, not synchronisation delay. L gains
 * only the wrapper's own time, (t1 - t_start) + (t_end - t2).
 */
void vclock__receive(vclock *c, int64_t t_start, int64_t t1, int64_t t2, int64_t t_end, int64_t vs,
                     int64_t rs, uint64_t bytes, vclock_recv *out);

/*
 * The same when more is known (preserve mode): the task began waiting for the message
 * at real t_wait (before t1; 0 if it did not) and saw it arrive at real `arrived` (0
 * if unknown; its trailing piggyback was taken off the queue then), so the sample of
 * the transmission is arrived - rs, and a transmission, not an upper bound, when the
 * message was sent during the wait. L then gains (t_wait - t_start) + (t_end - t2):
 * the wait for the monitor's permission is waiting, not the task's own work.
 */
void vclock__receive_seen(vclock *c, int64_t t_start, int64_t t_wait, int64_t t1, int64_t t2,
                          int64_t t_end, int64_t vs, int64_t rs, int64_t arrived, uint64_t bytes,
                          vclock_recv *out);

/*
 * One round trip to the monitor for the clock offset (real times): the task sent its
 * question at t_send and had the answer at t_recv, both on its own clock; the monitor
 * took the question at m_recv and answered at m_send, both on the monitor's clock.
 */
typedef struct vclock_sync_sample {
	int64_t t_send, m_recv, m_send, t_recv;
} vclock_sync_sample;

/*
 * Cristian's estimate of this task's clock offset from the monitor's (monitor time
 * minus task time) from n round trips: the sample with the least network delay,
 * (t_recv - t_send) - (m_send - m_recv), wins; its offset is the monitor's midpoint
 * minus the task's, ((m_recv - t_send) + (m_send - t_recv)) / 2, and the true offset
 * lies within half its delay of that (*uncertainty). *rtt is the least round trip
 * seen, t_recv - t_send; *at, unless NULL, the task's time in the middle of the
 * winning round trip (the moment the estimate is for, when clocks drift). Returns 0, or
 * PVMMON_EINVAL when no sample is usable.
 */
int vclock__offset_estimate(int64_t *offset, int64_t *uncertainty, int64_t *rtt, int64_t *at,
                            const vclock_sync_sample *s, int n);

#pragma GCC visibility pop

#endif
