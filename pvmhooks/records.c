/*
 * The task's dynamic records (seed 000 Figure 10), kept directly in the log model: proc
 * records per (procedure, caller, call line) and loop records, with the probe stacks
 * that time them and the probes' common case (statement and com records: recstmt.c;
 * counted and throttled sites' counts: recstatic.c). Their number is bounded by the
 * program's sites and partners, never by its run length.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "critpath.h"
#include "hooks.h"
#include "probes.h"
#include "procindex.h"
#include "pvmmon/errors.h"
#include "records.h"

/* Procedure entries and exits before registration, kept for critical-path collection;
 * a program that makes that many calls before its first PVM call starts its path at
 * registration instead. */
#define PRE_MAX 4096

/* This file's state apart from what the probes' common case reads (the record store,
 * the keys, the stacks and the throttling's last records below stay plain statics, as
 * section 4 of make bench was measured with them). */
static struct {
	size_t proc_cap, loop_cap; /* room in the store's procs and loops (and keys, sites) */
	/* The entries and exits before registration (PRE_MAX at most). */
	hooks_pre_event pre[PRE_MAX];
	size_t npre;
	int pre_overflow;
	/* The callee time of the innermost open procedure, kept over calibration. */
	int64_t cal_child_ns;
	int64_t cal_child_raw, cal_child_local; /* the same on the other clocks */
	size_t cal_nprocs, cal_nloops;
} rk;

static pvmmon_log_task rec;
static proc_key *proc_keys;
/* The records' index by key (procindex.c): the search when a site's last record misses. */
static proc_index proc_idx;

/* Probe stacks: the open procedures and loops of this task. */
#define STACK_MAX 256
typedef struct frame {
	pvmmon_probe_site *site;
	size_t record;   /* proc or loop record index */
	int64_t v_enter; /* virtual time at entry */
	int64_t r_enter; /* real time at entry */
	int64_t l_enter; /* local time at entry */
	/* Inclusive time of callees (procs only) on each clock: a procedure's exclusive
	 * time is its inclusive time minus its callees' on the same clock, so that the
	 * callees' probe cost is neither charged to it nor removed from it twice. */
	int64_t child_ns, child_raw, child_local;
} frame;
static unsigned made; /* records made so far: probes that make one are timed */
/* The proc and loop records the last exits closed, for throttling ((size_t)-1: none). */
static size_t last_proc = (size_t)-1, last_loop = (size_t)-1;

/* The procedures' frames from index 0 up, with one frame below them whose site is NULL:
 * the probes' common case takes the innermost frame's caller, and an exit its parent
 * (whose callees' sums it adds to), without a test of the depth. */
static frame proc_frames[STACK_MAX + 1] __attribute__((aligned(64)));
static frame *const proc_stack = proc_frames + 1;
static frame loop_stack[STACK_MAX] __attribute__((aligned(64)));
static int proc_depth, loop_depth;
/* The probe site of each loop record (to mark the switched-off ones), and its count
 * and time when throttling last looked at it. */
typedef struct loop_key {
	pvmmon_probe_site *site;
	uint64_t count;
	int64_t time;
} loop_key;
static loop_key *loop_keys;

static void note_pre(pvmmon_probe_site *site, int enter, int64_t v)
{
	if (hooks__state() != HOOKS_UNINIT)
		return;
	if (rk.npre == PRE_MAX) {
		rk.pre_overflow = 1;
		return;
	}
	rk.pre[rk.npre++] = (hooks_pre_event){site, enter, v};
}

const hooks_pre_event *hooks__records_pre_events(size_t *n)
{
	*n = rk.npre;
	return rk.pre_overflow ? NULL : rk.pre;
}

void hooks__records_init(void)
{
	/* Records start zeroed (static storage) and are kept as they are here: probes of
	 * procedures and loops entered before the task registered (main) already hold
	 * records and slots that must stay valid. */
}

pvmmon_log_task *hooks__records_task(void) { return &rec; }

const pvmmon_log_task *hooks__records_view(void) { return &rec; }

/* Makes room for one more proc record and its keys; 0 or PVMMON_ENOMEM. */
static int proc_grow(void)
{
	size_t old = rk.proc_cap;

	if (hooks__ensure((void **)&rec.procs, &rk.proc_cap, rec.nprocs + 1, sizeof(*rec.procs)) <
	    0)
		return PVMMON_ENOMEM;
	if (rk.proc_cap != old) {
		proc_key *k = realloc(proc_keys, rk.proc_cap * sizeof(*k));

		if (!k) {
			/* The records array is larger than proc_cap says; the next call grows
			 * the keys again. */
			rk.proc_cap = old;
			return PVMMON_ENOMEM;
		}
		proc_keys = k;
	}
	return 0;
}

/* The critical-path selection index of an open frame's procedure, CP_INDEX_NONE if none. */
static int frame_cp(const frame *f)
{
	return f->record != (size_t)-1 ? proc_keys[f->record].cp : CP_INDEX_NONE;
}

static int key_is(const proc_key *k, const void *site, const void *caller, int32_t call_line)
{
	return k->site == site && k->caller == caller && k->call_line == call_line;
}

/* Whether site has an open activation among the frames 0 .. depth - 1 (inline: the
 * exit's common case asks it). */
static inline int open_below(const pvmmon_probe_site *site, int depth)
{
	const frame *g = proc_stack, *end = proc_stack + depth;

	while (g < end && g->site != site)
		g++;
	return g < end;
}

/*
 * The proc record of site called from caller (the enclosing procedure's site, or NULL)
 * at call_line. The site remembers its last record, which is nearly always the one
 * wanted (a procedure is usually called from one place in a loop); the search, in the
 * records' hash index, is for the procedures called from several places.
 */
static __attribute__((noinline)) size_t
proc_record_find(pvmmon_probe_site *site, pvmmon_probe_site *caller, int32_t call_line)
{
	size_t i;
	pvmmon_log_proc *p;

	i = hooks__procindex_find(&proc_idx, proc_keys, rec.nprocs, site, caller, call_line);
	if (i != (size_t)-1) {
		site->slot = (int)i;
		return i;
	}
	if (proc_grow() < 0)
		return (size_t)-1;
	p = &rec.procs[rec.nprocs];
	memset(p, 0, sizeof(*p));
	p->name = strdup(site->name ? site->name : "?");
	p->file = site->file ? strdup(site->file) : NULL;
	p->line = site->line;
	p->caller = caller && caller->name ? strdup(caller->name) : NULL;
	p->call_line = call_line;
	proc_keys[rec.nprocs].site = site;
	proc_keys[rec.nprocs].caller = caller;
	proc_keys[rec.nprocs].call_line = call_line;
	proc_keys[rec.nprocs].cp = hooks__cp_index(p->name);
	site->slot = (int)rec.nprocs;
	made++;
	return rec.nprocs++;
}

/* The site's last record, inline (every entry probe asks), else the search. */
static inline size_t proc_record(pvmmon_probe_site *site, pvmmon_probe_site *caller,
                                 int32_t call_line)
{
	size_t slot = (size_t)(ptrdiff_t)site->slot;

	/* A negative slot (none yet) is a size beyond any count. */
	if (slot < rec.nprocs && key_is(&proc_keys[slot], site, caller, call_line))
		return slot;
	return proc_record_find(site, caller, call_line);
}

static size_t loop_record(pvmmon_probe_site *site)
{
	pvmmon_log_loop *l;

	if (site->slot >= 0)
		return (size_t)site->slot;
	{
		size_t old = rk.loop_cap;

		if (hooks__ensure((void **)&rec.loops, &rk.loop_cap, rec.nloops + 1,
		                  sizeof(*rec.loops)) < 0)
			return (size_t)-1;
		if (rk.loop_cap != old) {
			loop_key *lk = realloc(loop_keys, rk.loop_cap * sizeof(*lk));

			if (!lk) {
				rk.loop_cap = old;
				return (size_t)-1;
			}
			loop_keys = lk;
		}
	}
	loop_keys[rec.nloops] = (loop_key){site, 0, 0};
	l = &rec.loops[rec.nloops];
	l->name = strdup(site->name ? site->name : "loop");
	l->file = site->file ? strdup(site->file) : NULL;
	l->line = site->line;
	l->proc = proc_depth > 0 && proc_stack[proc_depth - 1].site->name
	              ? strdup(proc_stack[proc_depth - 1].site->name)
	              : NULL;
	site->slot = (int32_t)rec.nloops;
	made++;
	return rec.nloops++;
}

/* A record's count just reached a point where throttling looks at it (the
 * HOOKS_THROTTLE_MIN-th call and every power of two after): one test on the exit's path. */
static inline int check_due(uint64_t n)
{
	return n >= HOOKS_THROTTLE_MIN && (n & (n - 1)) == 0 ? HOOKS_REC_CHECK : 0;
}

int hooks__proc_enter_at(pvmmon_probe_site *site, int32_t call_line, int64_t t, int64_t v,
                         int64_t l)
{
	frame *f = &proc_stack[proc_depth];
	pvmmon_probe_site *caller;
	unsigned before = made;
	size_t r;

	if (__builtin_expect(proc_depth >= STACK_MAX, 0))
		return 0;
	if (__builtin_expect(hooks__state() == HOOKS_UNINIT, 0))
		note_pre(site, 1, v);
	caller = proc_depth > 0 ? f[-1].site : NULL;
	/* A call line only means something within a caller. */
	r = proc_record(site, caller, caller ? call_line : 0);
	f->site = site;
	f->record = r;
	f->v_enter = v;
	f->r_enter = t;
	f->l_enter = l;
	f->child_ns = f->child_raw = f->child_local = 0;
	proc_depth++;
	if (hooks__cp_selected())
		hooks__cp_proc_at(1, frame_cp(f), v, t);
	return made != before ? HOOKS_REC_MADE : 0;
}

/* An exit whose site is not the innermost open procedure: an exit without its entry
 * (the site was switched on between the two) ends nothing; else the frames whose exit
 * was skipped (longjmp, or an exit probe missing) are unwound. 1: site is now on top. */
static __attribute__((noinline)) int proc_unwind(pvmmon_probe_site *site, int64_t t, int64_t v)
{
	if (!hooks__proc_active(site))
		return 0;
	while (proc_depth > 0 && proc_stack[proc_depth - 1].site != site) {
		proc_depth--;
		if (hooks__cp_selected())
			hooks__cp_proc_at(0, frame_cp(&proc_stack[proc_depth]), v, t);
	}
	return proc_depth > 0;
}

int hooks__proc_exit_at(pvmmon_probe_site *site, int64_t t, int64_t v, int64_t l)
{
	frame *f;
	int64_t incl, raw, local;

	if (__builtin_expect(proc_depth == 0 || proc_stack[proc_depth - 1].site != site, 0) &&
	    !proc_unwind(site, t, v))
		return 0;
	if (__builtin_expect(hooks__state() == HOOKS_UNINIT, 0))
		note_pre(site, 0, v);
	f = &proc_stack[--proc_depth];
	if (hooks__cp_selected())
		hooks__cp_proc_at(0, frame_cp(f), v, t);
	incl = v - f->v_enter;
	raw = t - f->r_enter;
	local = l - f->l_enter;
	if (proc_depth > 0) {
		f[-1].child_ns += incl;
		f[-1].child_raw += raw;
		f[-1].child_local += local;
	}
	if (f->record != (size_t)-1) {
		pvmmon_log_proc *p = &rec.procs[f->record];

		/* Recursion: only the outermost activation adds inclusive time, so that a
		 * procedure's time is not counted once per level (seed 000 Figure 11). */
		if (!hooks__proc_active(site)) {
			p->incl_ns += incl;
			p->raw_incl_ns += raw;
			p->local_incl_ns += local;
		}
		p->excl_ns += incl - f->child_ns;
		p->raw_excl_ns += raw - f->child_raw;
		p->local_excl_ns += local - f->child_local;
		last_proc = f->record;
		return check_due(++p->count);
	}
	return 0;
}

/*
 * The procedure probes (pvmmon/probe.h), whole here in their common case: an active
 * task, a known enabled site, a calibrated cost, the TSC within its map's limit (or
 * CLOCK_MONOTONIC, in a copy of their own); an entry whose site's last record is the
 * one for this caller and line, the exit of the innermost open procedure. A probe is
 * then one call: the clock read once, stamped and charged in one pass
 * (vclock__probe_nopub), the frame pushed or the records updated in place; what
 * little may follow (the board's promise, the critical path, the scheduler's tick,
 * throttling) is one test, and the call that does it comes last, so that the common
 * case keeps nothing across a call. Anything else goes to probes.c's rare path, which
 * does the same through the functions above.
 */
/* Without pairing the frame's and the records' 8-byte fields into 16-byte loads: a
 * 16-byte load of two fields the entry stored one by one waits for both stores to
 * complete (no store forwarding), which costs more than the instructions it saves. */
#pragma GCC push_options
#pragma GCC optimize("no-tree-slp-vectorize")
/* What may follow a common-case probe, after one test (above): the board's promise
 * first (it may follow the record work: board.c's headroom is microseconds, and nothing
 * was seen from outside meanwhile), a procedure's critical-path part (cp_enter 1 or 0;
 * -1: a loop), the scheduler's tick, throttling's check of the record just closed. */
static __attribute__((noinline)) void after(pvmmon_probe_site *site, int cp_enter, int cp,
                                            int64_t v, int64_t t, int due)
{
	vclock__pub(hooks__clock());
	if (cp_enter >= 0 && hooks__cp_selected())
		hooks__cp_proc_at(cp_enter, cp, v, t);
	if (t >= hooks__probe.next_tick)
		hooks__probe_tick(t);
	if (due)
		hooks__probe_check(site);
}

/*
 * The procedure entry's common case. The frame's site, record and callees' sums are
 * stored before the clock is read and the depth raised (a probe that then goes to the
 * rare path, which pushes its own frame, puts the depth back), so that the stamp and
 * the charge, which need most registers, keep nothing but the frame across them.
 */
static inline __attribute__((always_inline)) void proc_enter_on(pvmmon_probe_site *site,
                                                                const pvmmon__clock_map *m)
{
	int d = proc_depth, line;
	size_t r = (size_t)(ptrdiff_t)site->slot;
	pvmmon_probe_site *caller;
	const proc_key *k;
	frame *f;
	int64_t t, v, l;

	if (__builtin_expect(hooks__guard || hooks__probe.slow || !site->enabled || !site->seen ||
	                         d >= STACK_MAX || r >= rec.nprocs,
	                     0))
		goto rare;
	f = &proc_stack[d];
	caller = f[-1].site; /* NULL below the outermost frame */
	k = &proc_keys[r];
	/* A call line only means something within a caller. */
	line = caller ? pvmmon_call_line : 0;
	if (__builtin_expect(!key_is(k, site, caller, line), 0))
		goto rare;
	f->site = site;
	f->record = r;
	f->child_ns = f->child_raw = f->child_local = 0;
	proc_depth = d + 1;
	if (__builtin_expect(!pvmmon__clock_probe(m, &t), 0)) {
		proc_depth = d;
		goto rare;
	}
	/* The line is consumed so that a procedure entered later from code that sets no
	 * line (an uninstrumented library calling back) does not inherit it. */
	pvmmon_call_line = 0;
	v = vclock__probe_nopub(hooks__clock(), t, hooks__probe.cost, &l);
	hooks__probe.charged++;
	f->v_enter = v;
	f->r_enter = t;
	f->l_enter = l;
	if (__builtin_expect(vclock__pub_due(hooks__clock()) | (t >= hooks__probe.next_tick), 0))
		after(f->site, 1, frame_cp(f), v, t, 0);
	return;
rare:
	hooks__probe_proc_enter_rare(site);
}

/* The procedure exit's common case: the depth is lowered before the clock is read (and
 * put back if the probe then goes to the rare path), so that the frame alone is kept
 * across the stamp. */
static inline __attribute__((always_inline)) void proc_exit_on(pvmmon_probe_site *site,
                                                               const pvmmon__clock_map *m)
{
	int d = proc_depth - 1;
	frame *f = &proc_stack[d]; /* below the stack, the frame whose site is NULL */
	int64_t t, v, l, incl, raw, local;
	pvmmon_log_proc *p;
	uint64_t n = 3; /* the record's count: no power of two without a record */
	size_t r;

	/* An exit with no open frame (d < 0) finds the frame below the stack, whose NULL
	 * site only an exit of NULL would match. */
	if (__builtin_expect(hooks__guard || hooks__probe.slow || f->site != site || d < 0, 0))
		goto rare;
	proc_depth = d;
	if (__builtin_expect(!pvmmon__clock_probe(m, &t), 0)) {
		proc_depth = d + 1;
		goto rare;
	}
	v = vclock__probe_nopub(hooks__clock(), t, hooks__probe.cost, &l);
	hooks__probe.charged++;
	incl = v - f->v_enter;
	raw = t - f->r_enter;
	local = l - f->l_enter;
	/* The caller's callees' sums (below the outermost frame, unused ones). */
	f[-1].child_ns += incl;
	f[-1].child_raw += raw;
	f[-1].child_local += local;
	r = f->record;
	if (__builtin_expect(r != (size_t)-1, 1)) {
		p = &rec.procs[r];
		/* Recursion: the outermost activation alone adds inclusive time (the depth
		 * is already d: the frames below this one). */
		if (!open_below(site, d)) {
			p->incl_ns += incl;
			p->raw_incl_ns += raw;
			p->local_incl_ns += local;
		}
		p->excl_ns += incl - f->child_ns;
		p->raw_excl_ns += raw - f->child_raw;
		p->local_excl_ns += local - f->child_local;
		last_proc = r;
		n = ++p->count;
	}
	/* A power of two: after() looks whether throttling's check is due (check_due). */
	if (__builtin_expect(!(n & (n - 1)) || t >= hooks__probe.next_tick ||
	                         vclock__pub_due(hooks__clock()),
	                     0))
		after(f->site, 0, frame_cp(f), v, t, check_due(n));
	return;
rare:
	hooks__probe_proc_exit_rare(site);
}

/* The loop probes' common case, as the procedures' (an entry of a site that has its
 * record, the exit of the innermost open loop). */
static inline __attribute__((always_inline)) void loop_enter_on(pvmmon_probe_site *site,
                                                                const pvmmon__clock_map *m)
{
	int d = loop_depth;
	vclock *c = hooks__clock();
	int64_t t, v, l;
	frame *f;

	if (__builtin_expect(hooks__guard || hooks__probe.slow || !site->enabled || !site->seen ||
	                         d >= STACK_MAX || site->slot < 0,
	                     0))
		goto rare;
	if (__builtin_expect(!pvmmon__clock_probe(m, &t), 0))
		goto rare;
	v = vclock__probe_nopub(c, t, hooks__probe.cost, &l);
	hooks__probe.charged++;
	f = &loop_stack[d];
	f->site = site;
	f->record = (size_t)site->slot;
	f->v_enter = v;
	f->r_enter = t;
	f->l_enter = l;
	loop_depth = d + 1;
	if (__builtin_expect(vclock__pub_due(c) | (t >= hooks__probe.next_tick), 0))
		after(site, -1, -1, v, t, 0);
	return;
rare:
	hooks__probe_loop_enter_rare(site);
}

static inline __attribute__((always_inline)) void loop_exit_on(pvmmon_probe_site *site,
                                                               const pvmmon__clock_map *m)
{
	int d = loop_depth - 1, due = 0;
	vclock *c = hooks__clock();
	int64_t t, v, l;
	frame *f;

	if (__builtin_expect(
	        hooks__guard || hooks__probe.slow || d < 0 || loop_stack[d].site != site, 0))
		goto rare;
	if (__builtin_expect(!pvmmon__clock_probe(m, &t), 0))
		goto rare;
	v = vclock__probe_nopub(c, t, hooks__probe.cost, &l);
	hooks__probe.charged++;
	loop_depth = d;
	f = &loop_stack[d];
	if (__builtin_expect(f->record != (size_t)-1, 1)) {
		pvmmon_log_loop *lp = &rec.loops[f->record];

		lp->time_ns += v - f->v_enter;
		lp->raw_ns += t - f->r_enter;
		lp->local_ns += l - f->l_enter;
		last_loop = f->record;
		due = check_due(++lp->count);
	}
	if (__builtin_expect(vclock__pub_due(c) | (t >= hooks__probe.next_tick) | due, 0))
		after(site, -1, -1, v, t, due);
	return;
rare:
	hooks__probe_loop_exit_rare(site);
}

/* Each public probe: its common case on the TSC's map, inline, or a copy of it on
 * CLOCK_MONOTONIC, out of line. */
#define PROBE_PUBLIC(name)                                                                         \
	static __attribute__((noinline)) void name##_mono(pvmmon_probe_site *site)                 \
	{                                                                                          \
		name##_on(site, NULL);                                                             \
	}                                                                                          \
	void pvmmon_probe_##name(pvmmon_probe_site *site)                                          \
	{                                                                                          \
		const pvmmon__clock_map *m =                                                       \
		    __atomic_load_n(&pvmmon__clock_tsc, __ATOMIC_ACQUIRE);                         \
		if (__builtin_expect(!m, 0))                                                       \
			name##_mono(site);                                                         \
		else                                                                               \
			name##_on(site, m);                                                        \
	}
PROBE_PUBLIC(proc_enter)
PROBE_PUBLIC(proc_exit)
PROBE_PUBLIC(loop_enter)
PROBE_PUBLIC(loop_exit)

#pragma GCC pop_options

/* The open part of each stack's outermost activations (recursion counts once). */
static void open_parts(const frame *st, int depth, int loop, int64_t v, hooks_running_fn fn,
                       void *arg)
{
	for (int i = 0, j; i < depth; i++) {
		for (j = 0; j < i && st[j].site != st[i].site; j++)
			;
		if (j == i && v > st[i].v_enter)
			fn(loop, st[i].record, v - st[i].v_enter, 0, arg);
	}
}

void hooks__records_running(int64_t v, hooks_running_fn fn, void *arg)
{
	size_t i;

	for (i = 0; i < rec.nprocs; i++)
		fn(0, i, rec.procs[i].incl_ns, rec.procs[i].count, arg);
	for (i = 0; i < rec.nloops; i++)
		fn(1, i, rec.loops[i].time_ns, rec.loops[i].count, arg);
	open_parts(proc_stack, proc_depth, 0, v, fn, arg);
	open_parts(loop_stack, loop_depth, 1, v, fn, arg);
}

int hooks__proc_active(pvmmon_probe_site *site) { return open_below(site, proc_depth); }

int hooks__loop_enter_at(pvmmon_probe_site *site, int64_t t, int64_t v, int64_t l)
{
	unsigned before = made;
	frame *f = &loop_stack[loop_depth];

	if (loop_depth >= STACK_MAX)
		return 0;
	f->site = site;
	f->record = loop_record(site);
	f->v_enter = v;
	f->r_enter = t;
	f->l_enter = l;
	loop_depth++;
	return made != before ? HOOKS_REC_MADE : 0;
}

int hooks__loop_exit_at(pvmmon_probe_site *site, int64_t t, int64_t v, int64_t l)
{
	frame *f;
	int i;

	for (i = loop_depth - 1; i >= 0 && loop_stack[i].site != site; i--)
		;
	if (i < 0)
		return 0;
	loop_depth = i;
	f = &loop_stack[loop_depth];
	if (f->record != (size_t)-1) {
		pvmmon_log_loop *lp = &rec.loops[f->record];

		lp->time_ns += v - f->v_enter;
		lp->raw_ns += t - f->r_enter;
		lp->local_ns += l - f->l_enter;
		last_loop = f->record;
		return check_due(++lp->count);
	}
	return 0;
}

int hooks__records_last_exit(pvmmon_probe_site *site, uint64_t *total, uint64_t *count,
                             int64_t *time)
{
	if (site->kind == PVMMON_PROBE_LOOP) {
		loop_key *m;

		if (last_loop == (size_t)-1 || last_loop >= rec.nloops ||
		    loop_keys[last_loop].site != site)
			return 0;
		m = &loop_keys[last_loop];
		*total = rec.loops[last_loop].count;
		*count = *total - m->count;
		*time = rec.loops[last_loop].time_ns - m->time;
		m->count = *total;
		m->time = rec.loops[last_loop].time_ns;
		return 1;
	}
	if (last_proc == (size_t)-1 || last_proc >= rec.nprocs || proc_keys[last_proc].site != site)
		return 0;
	*total = *count = rec.procs[last_proc].count;
	*time = rec.procs[last_proc].incl_ns;
	return 1;
}

size_t hooks__records_count_only(pvmmon_probe_site *site)
{
	size_t r = proc_record(site, NULL, -2);

	if (r != (size_t)-1) {
		rec.procs[r].counted = 1;
		rec.procs[r].call_line = 0;
	}
	return r;
}

void hooks__records_throttle_mark(pvmmon_probe_site *site, int64_t at, int64_t call_ns,
                                  int64_t pair_ns)
{
	for (size_t i = 0; i < rec.nprocs; i++)
		if (proc_keys[i].site == site) {
			rec.procs[i].throttled_at_ns = at;
			rec.procs[i].throttle_call_ns = call_ns;
			rec.procs[i].throttle_pair_ns = pair_ns;
		}
}

const char *hooks__records_top_proc(void)
{
	return proc_depth > 0 ? proc_stack[proc_depth - 1].site->name : NULL;
}

void hooks__records_touch(pvmmon_probe_site *site)
{
	if (site->kind == PVMMON_PROBE_LOOP)
		loop_record(site);
	else
		proc_record(site, proc_depth > 0 ? proc_stack[proc_depth - 1].site : NULL, 0);
}

void hooks__records_calibration_begin(void)
{
	rk.cal_child_ns = proc_depth > 0 ? proc_stack[proc_depth - 1].child_ns : 0;
	rk.cal_child_raw = proc_depth > 0 ? proc_stack[proc_depth - 1].child_raw : 0;
	rk.cal_child_local = proc_depth > 0 ? proc_stack[proc_depth - 1].child_local : 0;
	rk.cal_nprocs = rec.nprocs;
	rk.cal_nloops = rec.nloops;
}

void hooks__records_calibration_end(pvmmon_probe_site *const *sites, size_t n)
{
	/* On every clock: the calibration's calls are none of the caller's callees. */
	if (proc_depth > 0) {
		proc_stack[proc_depth - 1].child_ns = rk.cal_child_ns;
		proc_stack[proc_depth - 1].child_raw = rk.cal_child_raw;
		proc_stack[proc_depth - 1].child_local = rk.cal_child_local;
	}
	/* Calibration made only its own records, the last ones: drop them (and the index,
	 * rebuilt at its next search). */
	if (rec.nprocs > rk.cal_nprocs)
		hooks__procindex_free(&proc_idx);
	while (rec.nprocs > rk.cal_nprocs) {
		pvmmon_log_proc *p = &rec.procs[--rec.nprocs];

		free(p->name);
		free(p->file);
		free(p->caller);
		memset(p, 0, sizeof(*p));
	}
	while (rec.nloops > rk.cal_nloops) {
		pvmmon_log_loop *l = &rec.loops[--rec.nloops];

		free(l->name);
		free(l->file);
		free(l->proc);
		memset(l, 0, sizeof(*l));
	}
	while (n-- > 0)
		sites[n]->slot = -1;
}

/* Marks the records of switched-off sites, whose counts are frozen. */
static void mark_disabled(void)
{
	size_t i;

	for (i = 0; i < rec.nprocs; i++)
		if (!rec.procs[i].counted) {
			const pvmmon_probe_site *s = proc_keys[i].site;

			/* A throttled site is off but counts on. */
			rec.procs[i].disabled =
			    s && !s->enabled && rec.procs[i].throttle_pair_ns == 0;
		}
	for (i = 0; i < rec.nloops; i++)
		rec.loops[i].disabled = loop_keys[i].site && !loop_keys[i].site->enabled &&
		                        rec.loops[i].throttle_pair_ns == 0;
}

pvmmon_log_proc *hooks__records_counted_new(const void *entry, size_t *index)
{
	pvmmon_log_proc *p;

	if (proc_grow() < 0)
		return NULL;
	p = &rec.procs[rec.nprocs];
	memset(p, 0, sizeof(*p));
	p->counted = 1;
	proc_keys[rec.nprocs].site = entry;
	proc_keys[rec.nprocs].caller = entry;
	proc_keys[rec.nprocs].call_line = -1;
	*index = rec.nprocs++;
	return p;
}

void hooks__records_update_counts(void)
{
	mark_disabled();
	hooks__records_statics_count();
}

void hooks__records_close_open(int64_t v)
{
	while (proc_depth > 0)
		hooks__proc_exit(proc_stack[proc_depth - 1].site, v);
	while (loop_depth > 0)
		hooks__loop_exit(loop_stack[loop_depth - 1].site, v);
}

void hooks__records_cp_refresh(void)
{
	size_t i;

	/* Open frames take their index from their record's key. */
	for (i = 0; i < rec.nprocs; i++)
		proc_keys[i].cp = hooks__cp_index(rec.procs[i].name);
}

int hooks__records_open_cp(int *out, int max)
{
	int d, n = 0;

	for (d = 0; d < proc_depth && n < max; d++)
		out[n++] = frame_cp(&proc_stack[d]);
	return n;
}

void hooks__records_reset(void)
{
	hooks__records_send_restart();
	hooks__records_stmt_reset();
	wire__task_clear(&rec);
	hooks__records_statics_reset();
	free(proc_keys);
	proc_keys = NULL;
	hooks__procindex_free(&proc_idx);
	free(loop_keys);
	loop_keys = NULL;
	rk.proc_cap = rk.loop_cap = 0;
	proc_depth = loop_depth = 0;
}

void hooks__records_prepare(int final, int64_t v)
{
	if (final)
		hooks__records_close_open(v);
	hooks__records_add_statics();
	hooks__records_update_counts();
}
