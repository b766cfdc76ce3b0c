/*
 * The in-task runtime: lazy initialisation, finding (or starting) the monitor and
 * registering with it, the per-call entry and exit bookkeeping, the monitored-task
 * cache, spawn reporting, carrying the preload to children, and record flushes.
 */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pvm3.h>

#include "dyninst.h"
#include "hooks.h"
#include "mhf.h"
#include "preserve.h"
#include "records.h"
#include "rr.h"
#include "trace.h"
#include "pvmmon/errors.h"
#include "../common/pvmio.h"

hooks_state hooks__st;
__thread int hooks__guard;
hooks_real hooks__pvm;

/* How often the wrappers look for commands from the monitor: a command reaches a task
 * at its first PVM call at least this long after the last look. */
#define POLL_NS 10000000LL

/* Control answers normally take well under a millisecond; these bound a dead monitor. */
#define WELCOME_TIMEOUT_MS 10000
#define ANSWER_TIMEOUT_MS 5000
#define MONITOR_START_TIMEOUT_MS 10000

static pvmio_fns io;
static hooks_matcher std_matcher; /* libpvm3's matcher, captured at initialisation */

/* Matches nothing: only ever installed for the instant it takes to read back the
 * matcher it replaced. */
static int match_none(int mid, int tid, int tag)
{
	(void)mid;
	(void)tid;
	(void)tag;
	return 0;
}

/* pvm3.h declares pvm_recvf's result as a pointer to a function taking a matcher; it
 * is the previous matcher itself (PVM's source), hence the casts through void *. */
static hooks_matcher set_matcher(hooks_matcher m)
{
	return (hooks_matcher)(void *)pvm_recvf(m);
}

hooks_matcher hooks__matcher_default(void)
{
	return std_matcher ? set_matcher(std_matcher) : NULL;
}

void hooks__matcher_restore(hooks_matcher m)
{
	if (m)
		set_matcher(m);
}
static int64_t loaded_at; /* real time the library was loaded: the process's start */

/* The process's start, as near as a library can see it: the task's time origin, so
 * that work done before its first PVM call (probed procedures included) is its own. */
__attribute__((constructor)) static void loaded(void)
{
	loaded_at = pvmmon_clock_now();
}
static char *lib_path;        /* absolute path of this library, for children's preload */
static char *saved_preload;   /* LD_PRELOAD and PVM_EXPORT around a pvm_spawn */
static char *saved_export;
static int spawn_env_changed;

void *hooks__real(const char *name)
{
	void *f = dlsym(RTLD_NEXT, name);

	if (!f) {
		fprintf(stderr, "pvmmon: %s not found after libpvmhooks (is -lpvm3 linked?)\n",
			name);
		abort();
	}
	return f;
}

static void warn(const char *what)
{
	fprintf(stderr, "pvmmon: %s; this task runs unmonitored\n", what);
}

static void resolve_all(void)
{
	hooks__pvm.send = hooks__real("pvm_send");
	hooks__pvm.mcast = hooks__real("pvm_mcast");
	hooks__pvm.recv = hooks__real("pvm_recv");
	hooks__pvm.nrecv = hooks__real("pvm_nrecv");
	hooks__pvm.trecv = hooks__real("pvm_trecv");
	hooks__pvm.spawn = hooks__real("pvm_spawn");
	hooks__pvm.exit = hooks__real("pvm_exit");
	hooks__pvm.mytid = hooks__real("pvm_mytid");
	hooks__pvm.probe = hooks__real("pvm_probe");
	io.send = hooks__pvm.send;
	io.recv = hooks__pvm.recv;
	io.trecv = hooks__pvm.trecv;
}

/* Reads the monitor's mailbox entry; 0 when found. */
static int read_mailbox(wire_mailbox *mb)
{
	int rb = pvm_setrbuf(0), b, rc = PVMMON_ENOTFOUND;
	uint8_t *d = NULL;
	size_t len;

	b = pvm_recvinfo(WIRE_MAILBOX_NAME, 0, PvmMboxDefault);
	if (b > 0) {
		if (pvmio_unpack(b, &d, &len, NULL, NULL) == 0)
			rc = wire_mailbox_decode(mb, d, len);
		free(d);
		pvm_freebuf(b);
	}
	pvm_setrbuf(rb);
	return rc;
}

static const char *program_name(void)
{
	return program_invocation_short_name ? program_invocation_short_name : "task";
}

/* The monitor executable: $PVMMON_MONITOR, else beside this library in a build tree
 * (lib/../bin) or an installation (lib/pvmmon/../../bin). */
static char *monitor_path(void)
{
	const char *env = getenv("PVMMON_MONITOR");
	const char *rel[] = {"/../bin/pvmmon-monitor", "/../../bin/pvmmon-monitor"};
	char buf[PATH_MAX], *dir, *slash;
	size_t i;

	if (env && *env)
		return strdup(env);
	if (!lib_path)
		return NULL;
	dir = strdup(lib_path);
	if (!dir)
		return NULL;
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	for (i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
		snprintf(buf, sizeof(buf), "%s%s", dir, rel[i]);
		if (access(buf, X_OK) == 0) {
			free(dir);
			return realpath(buf, NULL);
		}
	}
	free(dir);
	return NULL;
}

/*
 * Starts a monitor for a program started without `pvmmon run` (for example from the
 * PVM console). The mailbox lock makes exactly one task do it; the others wait for
 * the monitor's entry.
 */
static int start_monitor(wire_mailbox *mb)
{
	int rb, lock, sb, rc = PVMMON_ENOTFOUND, tid = 0, waited;
	char logbuf[PATH_MAX], cwd[PATH_MAX - 64], *mon = NULL;
	char *argv[4];
	const char *log = getenv("PVMMON_LOG");

	if (getenv("PVMMON_NO_AUTOSTART"))
		return PVMMON_ENOTFOUND;
	sb = pvm_setsbuf(pvm_mkbuf(PvmDataDefault));
	lock = pvm_putinfo(WIRE_LOCK_NAME, pvm_getsbuf(), PvmMboxDefault);
	pvm_freebuf(pvm_setsbuf(sb));
	if (lock >= 0) {
		mon = monitor_path();
		if (!mon) {
			warn("cannot find pvmmon-monitor (set PVMMON_MONITOR)");
			return PVMMON_ENOTFOUND;
		}
		if (!log || !*log) {
			if (!getcwd(cwd, sizeof(cwd)))
				strcpy(cwd, "/tmp");
			snprintf(logbuf, sizeof(logbuf), "%s/%s.pvmmon.xml", cwd, program_name());
			log = logbuf;
		}
		argv[0] = "--auto";
		argv[1] = "--log";
		argv[2] = (char *)log;
		argv[3] = NULL;
		/* The monitor must not monitor itself: no preload reaches it. */
		hooks__spawn_env_begin("pvmmon-monitor");
		rc = hooks__pvm.spawn(mon, argv, PvmTaskDefault, NULL, 1, &tid);
		hooks__spawn_env_end();
		free(mon);
		if (rc != 1) {
			warn("cannot spawn pvmmon-monitor");
			return PVMMON_EPVM;
		}
	}
	for (waited = 0; waited < MONITOR_START_TIMEOUT_MS; waited += 10) {
		rb = read_mailbox(mb);
		if (rb == 0)
			return 0;
		usleep(10000);
	}
	warn("the monitor did not publish itself in time");
	return PVMMON_ETIMEOUT;
}

static void at_exit(void)
{
	/* A program that returns from main without pvm_exit still gets its records out. */
	if (hooks__st.state == HOOKS_ACTIVE && !hooks__guard) {
		hooks__guard = 1;
		hooks__flush(1);
		hooks__st.state = HOOKS_DONE;
		hooks__guard = 0;
	}
}

static int find_lib_path(void)
{
	Dl_info info;

	if (!dladdr((void *)hooks__init, &info) || !info.dli_fname)
		return -1;
	lib_path = realpath(info.dli_fname, NULL);
	return lib_path ? 0 : -1;
}

/* Messages up to this size get the round trip's estimate (latency dominates them). */
#define SEED_MAX_BYTES 1024

/* Round trips to the monitor at registration for the clock offset. On another host than
 * the monitor's the least delayed of 30 is within a few microseconds of symmetric in
 * most runs, against tens with 5 (doc/benchmarks.md, "Clock offsets between hosts");
 * on the monitor's own host the offset is 0 by definition and a few give the round
 * trip the transmission estimate is seeded with. Each costs one round trip. */
#define CLOCK_SAMPLES_REMOTE 30
#define CLOCK_SAMPLES_LOCAL 5

/* The keeper of a host re-estimates its offset this often, from this many round trips,
 * so that drift between the clocks is followed (the monitor fits a line to them). */
#define CLOCK_RESYNC_NS 1000000000LL
#define CLOCK_RESYNC_SAMPLES 5

/*
 * Round trips to the monitor (QUERYs about this task itself, answered at once with the
 * monitor's clock when it took the question and when it answered): Cristian's estimate
 * of this task's clock offset from the monitor's (vclock_offset_estimate) from count of
 * them, into *est. Returns 0, or a negative code when no round trip succeeded.
 */
static int clock_estimate(int count, wire_clock *est)
{
	vclock_sync_sample s[CLOCK_SAMPLES_REMOTE];
	wire_buf b;
	uint8_t *ans = NULL;
	size_t len;
	int n = 0, i, rc;

	if (count > CLOCK_SAMPLES_REMOTE)
		count = CLOCK_SAMPLES_REMOTE;
	wire_buf_init(&b);
	wire_query_encode(&b, &(wire_query){hooks__st.mytid});
	for (i = 0; i < count && !b.failed; i++) {
		wire_answer a;
		int64_t t0 = pvmmon_clock_now(), t1;

		if (pvmio_send(&io, hooks__st.ctx, hooks__st.monitor_tid, WIRE_TAG_QUERY, b.data,
			       b.len) != 0 ||
		    pvmio_recv(&io, hooks__st.ctx, hooks__st.monitor_tid, WIRE_TAG_ANSWER,
			       ANSWER_TIMEOUT_MS, &ans, &len, NULL, NULL) != 0)
			break;
		t1 = pvmmon_clock_now();
		s[n].t_send = t0;
		s[n].t_recv = t1;
		if (wire_answer_decode(&a, ans, len) == 0) {
			s[n].m_recv = a.m_recv;
			s[n].m_send = a.m_send;
			n++;
		}
		free(ans);
		ans = NULL;
	}
	wire_buf_free(&b);
	memset(est, 0, sizeof(*est));
	rc = vclock_offset_estimate(s, n, &est->offset, &est->uncertainty, &est->rtt, &est->at);
	est->tid = hooks__st.mytid;
	est->samples = (uint32_t)n;
	return rc;
}

static int clock_send(const wire_clock *est)
{
	wire_buf b;
	int rc = PVMMON_ENOMEM;

	wire_buf_init(&b);
	wire_clock_encode(&b, est);
	if (!b.failed)
		rc = pvmio_send(&io, hooks__st.ctx, hooks__st.monitor_tid, WIRE_TAG_CLOCK, b.data,
				b.len);
	wire_buf_free(&b);
	return rc;
}

void hooks__clock_set(const uint8_t *data, size_t len)
{
	wire_clockset set;

	if (wire_clockset_decode(&set, data, len) != 0) {
		hooks__st.counts.pb_bad++;
		return;
	}
	hooks__st.clock_model.offset = set.offset;
	hooks__st.clock_model.tref = set.tref;
	hooks__st.clock_model.rate = (double)set.rate_ppt * 1e-12;
	hooks__st.clock_uncertainty = set.uncertainty;
	hooks__st.clock_keeper = set.keeper;
}

/*
 * A first transmission estimate and this task's clock offset. Without the first, a
 * task's first message of a size class has only its queued delivery as a sample, which
 * counts the time the task took to start, or to be scheduled, as transmission. The
 * offset goes to the monitor, which answers with the clock model the whole host uses
 * (the first estimate made on that host, refined by its keeper's later ones, and
 * exactly 0 on the monitor's own host), so that times of tasks that share a clock still
 * compare exactly.
 */
static void clock_sync(void)
{
	wire_clock est;
	uint8_t *ans = NULL;
	size_t len;
	int local = pvm_tidtohost(hooks__st.mytid) == pvm_tidtohost(hooks__st.monitor_tid);

	hooks__st.clock_remote = !local;
	if (clock_estimate(local ? CLOCK_SAMPLES_LOCAL : CLOCK_SAMPLES_REMOTE, &est) != 0)
		return;
	vclock_seed(&hooks__st.clock, est.rtt / 2, SEED_MAX_BYTES);
	hooks__st.last_clock_sync = pvmmon_clock_now();
	if (clock_send(&est) == 0 &&
	    pvmio_recv(&io, hooks__st.ctx, hooks__st.monitor_tid, WIRE_TAG_CLOCKSET,
		       ANSWER_TIMEOUT_MS, &ans, &len, NULL, NULL) == 0) {
		hooks__clock_set(ans, len);
		free(ans);
	}
}

/* The keeper's periodic estimate; the monitor's new model comes back later, unasked, and
 * is taken where the other control messages are (hooks__poll, preserve mode's drain). */
static void clock_resync(int64_t now)
{
	wire_clock est;

	hooks__st.last_clock_sync = now;
	if (clock_estimate(CLOCK_RESYNC_SAMPLES, &est) == 0)
		clock_send(&est);
}

void hooks__init(void)
{
	wire_mailbox mb;
	wire_register reg;
	uint8_t *ans = NULL;
	size_t len;
	int64_t t_start = loaded_at ? loaded_at : pvmmon_clock_now();
	int64_t pre_intrusion, pre_local;
	const char *fl;

	hooks__st.state = HOOKS_PASSIVE;
	if (getenv("PVMMON_PASSIVE") || strcmp(program_name(), "pvmgs") == 0 ||
	    strcmp(program_name(), "pvmmon-monitor") == 0)
		return;
	resolve_all();
	find_lib_path();
	hooks__st.mytid = hooks__pvm.mytid();
	if (hooks__st.mytid < 0)
		return;
	/* pvm_recvf() returns the matcher it replaces: read libpvm3's own that way (a
	 * program that installed its own before its first PVM call keeps pvmmon on it). */
	std_matcher = set_matcher(match_none);
	set_matcher(std_matcher);
	if (read_mailbox(&mb) != 0 && start_monitor(&mb) != 0)
		return;
	hooks__st.ctx = mb.ctx;
	hooks__st.monitor_tid = mb.monitor_tid;
	hooks__st.token = mb.token;
	fl = getenv("PVMMON_FLUSH_MS");
	hooks__st.flush_period_ns = (int64_t)(fl && atoi(fl) > 0 ? atoi(fl) : (int)mb.flush_ms) *
				    1000000;
	if (hooks__st.flush_period_ns <= 0)
		hooks__st.flush_period_ns = 1000000000;
	/* Probes that ran before this point already charged their cost: keep it, so that
	 * virtual time does not jump at registration. */
	pre_intrusion = hooks__st.clock.intrusion;
	pre_local = hooks__st.clock.local;
	vclock_init(&hooks__st.clock);
	hooks__st.clock.intrusion = pre_intrusion;
	hooks__st.clock.local = pre_local;
	hooks__records_init();
	hooks__trace_init(mb.trace_events);
	wire_buf_init(&hooks__st.out);

	memset(&reg, 0, sizeof(reg));
	reg.tid = hooks__st.mytid;
	reg.parent_tid = pvm_parent();
	if (reg.parent_tid < 0)
		reg.parent_tid = 0;
	reg.pid = (int32_t)getpid();
	reg.dtid = pvm_tidtohost(hooks__st.mytid);
	reg.program = (char *)program_name();
	reg.rt_start = (uint64_t)t_start;
	reg.token = mb.token;
	wire_buf_reset(&hooks__st.out);
	wire_register_encode(&hooks__st.out, &reg);
	if (hooks__st.out.failed ||
	    pvmio_send(&io, hooks__st.ctx, hooks__st.monitor_tid, WIRE_TAG_REGISTER,
		       hooks__st.out.data, hooks__st.out.len) != 0) {
		warn("cannot register with the monitor");
		return;
	}
	/* The welcome gives this task's number; registration is synchronous so that the
	 * monitor knows every task before it can send anything. */
	if (pvmio_recv(&io, hooks__st.ctx, hooks__st.monitor_tid, WIRE_TAG_WELCOME,
		       WELCOME_TIMEOUT_MS, &ans, &len, NULL, NULL) != 0) {
		warn("the monitor did not answer the registration");
		return;
	}
	/* The clock offset first: the welcome's spawn time is on the monitor's clock. */
	clock_sync();
	{
		wire_welcome w;
		int rc = wire_welcome_decode(&w, ans, len);

		free(ans);
		if (rc < 0) {
			warn("the monitor's welcome is damaged");
			return;
		}
		hooks__st.index = w.index;
		free(hooks__st.lid);
		hooks__st.lid = w.lid;
		w.lid = NULL;
		/* Preserve mode or not; the switching rules so far (dynamic instrumentation). */
		hooks__preserve = w.preserve == 1;
		hooks__dyn_budget = w.budget / 10000.0;
		hooks__test_delay_init();
		hooks__dyn_rules(w.rules);
		/* The run's critical-path selection as it is now. */
		hooks__cp_configure(w.procs, w.exclusive, w.cp_gen);
		/* Record, replay, or neither. */
		rc = hooks__rr_init((hooks_rr_mode)w.rr);
		/* A spawned task's path continues its parent's, over the time the spawn
		 * took to start it; a root's starts here. */
		if (rc == 0 && w.collecting)
			hooks__cp_begin(
			    t_start, &w.from,
			    w.from.on && w.spawn_rt ? t_start - hooks__from_common(w.spawn_rt) : 0,
			    1);
		wire_welcome_clear(&w);
		if (rc < 0) {
			warn("the replay cannot start");
			return;
		}
	}
	/* pvmd tells this task when the monitor ends, so that a monitor that dies leaves
	 * the program running, unmonitored (hooks__poll). */
	{
		int oc = pvm_setcontext(hooks__st.ctx);

		pvm_notify(PvmTaskExit, WIRE_TAG_MONLOST, 1, &hooks__st.monitor_tid);
		pvm_setcontext(oc);
	}
	hooks__st.last_flush = hooks__st.last_poll = pvmmon_clock_now();
	hooks__st.records_start = t_start;
	hooks__st.state = HOOKS_ACTIVE;
	atexit(at_exit);
}

int hooks__activate(void)
{
	int64_t t0;

	if (__builtin_expect(hooks__st.state == HOOKS_ACTIVE, 1))
		return 1;
	if (hooks__st.state != HOOKS_UNINIT || hooks__guard)
		return 0;
	hooks__guard = 1;
	t0 = pvmmon_clock_now();
	hooks__init();
	hooks__guard = 0;
	if (hooks__st.state != HOOKS_ACTIVE)
		return 0;
	/* Registration is monitoring work: it counts as intrusion. */
	vclock_intrude(&hooks__st.clock, pvmmon_clock_now() - t0);
	/* Calibration charges its own time. */
	hooks__dyn_calibrate();
	hooks__dyn_next_tick = pvmmon_clock_now();
	/* Under a budget the monitor gets the task's cost at once, as the start of the
	 * interval its first rates are measured over. */
	if (hooks__dyn_budget > 0) {
		hooks__guard = 1;
		t0 = pvmmon_clock_now();
		hooks__flush(0);
		vclock_intrude(&hooks__st.clock, pvmmon_clock_now() - t0);
		hooks__guard = 0;
	}
	return 1;
}

/* Whether site is code of libpvm3 itself: it installs message handlers of its own
 * through its PLT (when it connects a task, and for pvm_catchout), which the preloaded
 * wrappers see. Those are PVM's, not the program's: they pass straight through. */
static int in_libpvm(void *site)
{
	static void *base;
	Dl_info info;

	if (!base && dladdr((void *)hooks__real("pvm_addmhf"), &info))
		base = info.dli_fbase;
	return base && dladdr(site, &info) && info.dli_fbase == base;
}

int hooks__begin(hooks_call *call, hooks_op op, void *site)
{
	/* Before anything else: libpvm3 installs its handlers while it connects the task
	 * (pvmbeatask), where starting pvmmon's registration would re-enter it. */
	if (__builtin_expect(op == HOOKS_OP_pvm_addmhf || op == HOOKS_OP_pvm_delmhf, 0) &&
	    in_libpvm(site))
		return 0;
	if (__builtin_expect(hooks__st.state != HOOKS_ACTIVE, 0) && !hooks__activate())
		return 0;
	hooks__guard = 1;
	call->op = op;
	call->site = site;
	/* Messages handlers took since the last wrapped call (in an unwrapped one, or
	 * before the first) are settled at the position they came at. */
	hooks__mhf_settle_due(call);
	hooks__st.ncalls++;
	hooks__st.cur_op = op;
	/* A replay gives a blocking receive the handler deliveries recorded in it before
	 * it waits: what it waits for may come only in answer to the handler's sends. */
	if (hooks__rr == HOOKS_RR_REPLAY) {
		pvmmon_event_op ev = hooks__event_op(op);

		if (ev == PVMMON_EV_RECV || ev == PVMMON_EV_TRECV || ev == PVMMON_EV_PRECV)
			hooks__mhf_settle(call);
		/* While a task is stopped for a debugger, the others hold at their next
		 * receive (they would soon wait for it anyway). */
		if (ev >= PVMMON_EV_RECV && ev <= PVMMON_EV_PROBE)
			hooks__rr_hold_point(call);
	}
	call->clock_done = 0;
	call->trace_first = -1;
	call->nondet = call->skip = call->ovr = 0;
	call->seq_delta = 0;
	call->t_wait = call->pr_held = call->pr_timeout_vt = 0;
	call->pr_reordered = 0;
	call->t0 = pvmmon_clock_now();
	call->v0 = vclock_virtual(&hooks__st.clock, call->t0);
	return 1;
}

void hooks__end(hooks_call *call)
{
	int64_t now = pvmmon_clock_now();

	if (!call->clock_done)
		vclock_intrude(&hooks__st.clock, (call->t1 - call->t0) + (now - call->t2));
	hooks__dyn_wrapped();
	if (hooks__tracing || call->trace_first >= 0)
		hooks__trace_end(call, now);
	/* A call the program's message handler made runs while libpvm3 may be reading
	 * messages in: nothing here may receive. */
	if (hooks__in_handler) {
		hooks__guard = 0;
		return;
	}
	/* In preserve mode the monitor's questions are answered at every call. */
	if (hooks__preserve && hooks__st.state == HOOKS_ACTIVE) {
		hooks__pr_poll();
		vclock_intrude(&hooks__st.clock, pvmmon_clock_now() - now);
		now = pvmmon_clock_now();
	}
	if (now - hooks__st.last_poll >= POLL_NS) {
		hooks__poll(now);
		vclock_intrude(&hooks__st.clock, pvmmon_clock_now() - now);
	}
	if (hooks__st.state == HOOKS_ACTIVE && now - hooks__st.last_flush >= hooks__st.flush_period_ns) {
		hooks__flush(0);
		vclock_intrude(&hooks__st.clock, pvmmon_clock_now() - now);
	}
	/* Messages handlers took during the call reach the program's handlers as it ends
	 * (their own time is the program's). */
	hooks__mhf_settle_due(call);
	hooks__guard = 0;
}

void hooks__poll(int64_t now)
{
	uint8_t *d = NULL;
	size_t len;
	wire_ctl c;

	hooks__st.last_poll = now;
	if (hooks__st.state != HOOKS_ACTIVE || hooks__st.monitor_lost)
		return;
	/* The monitor's end, told by pvmd: warn once and go on unmonitored (piggybacks
	 * still go out and are still taken, so that pairing stays right). */
	{
		/* libpvm3's matcher: one the program installed could take a piggyback here. */
		hooks_matcher m = hooks__matcher_default();
		int lost = pvmio_recv(&io, hooks__st.ctx, -1, WIRE_TAG_MONLOST, 0, &d, &len, NULL,
				      NULL) == 0;

		hooks__matcher_restore(m);
		if (lost) {
			free(d);
			hooks__monitor_gone();
			return;
		}
	}
	if (hooks__st.clock_keeper && now - hooks__st.last_clock_sync >= CLOCK_RESYNC_NS)
		clock_resync(now);
	/* New models go to other hosts than the monitor's only: on its own host the
	 * offset is 0 for good, and the poll spares itself a receive. */
	while (hooks__st.clock_remote &&
	       hooks__recv_control(WIRE_TAG_CLOCKSET, 0, &d, &len) == 0) {
		hooks__clock_set(d, len);
		free(d);
		d = NULL;
	}
	while (hooks__recv_control(WIRE_TAG_CTL, 0, &d, &len) == 0) {
		if (wire_ctl_decode(&c, d, len) == 0) {
			if (c.cmd == WIRE_CTL_ENABLE || c.cmd == WIRE_CTL_DISABLE)
				hooks__dyn_switch(c.cmd == WIRE_CTL_ENABLE, c.procs);
			else if (c.cmd == WIRE_CTL_STMT)
				hooks__records_stmt_switch(c.gen, c.exclusive);
			else if (c.cmd == WIRE_CTL_HOLD || c.cmd == WIRE_CTL_RELEASE)
				hooks__rr_hold(c.cmd == WIRE_CTL_HOLD);
			else
				hooks__cp_control(&c, vclock_virtual(&hooks__st.clock, now));
			free(c.procs);
		} else {
			hooks__st.counts.pb_bad++;
		}
		free(d);
		d = NULL;
	}
}

void hooks__monitor_gone(void)
{
	if (hooks__st.monitor_lost)
		return;
	hooks__st.monitor_lost = 1;
	hooks__tracing = 0;
	fprintf(stderr, "pvmmon: the monitor has gone; %s goes on unmonitored\n", program_name());
}

int hooks__user_matcher(void)
{
	hooks_matcher m = hooks__matcher_default();

	hooks__matcher_restore(m);
	return m && m != std_matcher;
}

void hooks__await_control(int64_t v)
{
	uint8_t *d = NULL;
	size_t len;
	wire_ctl c;

	if (hooks__recv_control(WIRE_TAG_CTL, ANSWER_TIMEOUT_MS, &d, &len) != 0)
		return;
	if (wire_ctl_decode(&c, d, len) == 0) {
		hooks__cp_control(&c, v);
		free(c.procs);
	}
	free(d);
}

int hooks__is_monitored(int tid)
{
	int64_t *known;
	wire_buf b;
	uint8_t *ans = NULL;
	size_t len;
	int monitored = 0;

	if (tid == hooks__st.mytid)
		return 1;
	/* pvmd and multicast addresses have the high bits set; they send no piggyback. */
	if (tid <= 0 || tid == hooks__st.monitor_tid)
		return 0;
	known = tidmap_find(&hooks__st.monitored, tid);
	if (known)
		return (int)*known;
	/* Without a monitor to ask, a task not met before counts as unmonitored: a task
	 * started after the monitor's end sends no piggybacks, and waiting for one from
	 * it would never end. */
	if (hooks__st.monitor_lost)
		return 0;
	wire_buf_init(&b);
	wire_query_encode(&b, &(wire_query){tid});
	/* A matcher the program installed must not pick the answer (it could take a
	 * piggyback for it). */
	if (!b.failed && pvmio_send(&io, hooks__st.ctx, hooks__st.monitor_tid, WIRE_TAG_QUERY,
				    b.data, b.len) == 0 &&
	    hooks__recv_control(WIRE_TAG_ANSWER, ANSWER_TIMEOUT_MS, &ans, &len) == 0) {
		wire_answer a;

		if (wire_answer_decode(&a, ans, len) == 0 && a.tid == tid)
			monitored = a.monitored ? 1 : 0;
		free(ans);
	}
	wire_buf_free(&b);
	known = tidmap_get(&hooks__st.monitored, tid, monitored);
	return monitored;
}

int hooks__send_control(int tag, const void *data, size_t len)
{
	if (hooks__st.monitor_lost)
		return PVMMON_ENOTFOUND;
	return pvmio_send(&io, hooks__st.ctx, hooks__st.monitor_tid, tag, data, len);
}

int hooks__recv_control(int tag, int timeout_ms, uint8_t **data, size_t *len)
{
	hooks_matcher m;

	if (hooks__st.monitor_lost)
		return PVMMON_ENOTFOUND;
	m = hooks__matcher_default();
	int rc = pvmio_recv(&io, hooks__st.ctx, hooks__st.monitor_tid, tag, timeout_ms, data, len,
			    NULL, NULL);

	hooks__matcher_restore(m);
	return rc;
}

void hooks__report_spawn(const int *tids, int n, int64_t rt)
{
	wire_spawned s = {hooks__st.spawn_index, (uint32_t)n, (int32_t *)tids, rt, hooks__st.cp.t};
	wire_buf b;

	wire_buf_init(&b);
	wire_spawned_encode(&b, &s);
	hooks__st.spawn_index += (uint32_t)n;
	if (!b.failed)
		pvmio_send(&io, hooks__st.ctx, hooks__st.monitor_tid, WIRE_TAG_SPAWNED, b.data,
			   b.len);
	wire_buf_free(&b);
}

void hooks__flush(int final)
{
	pvmmon_log_task *t = hooks__records_task();
	int64_t now = pvmmon_clock_now();

	if (hooks__st.state != HOOKS_ACTIVE || !t || hooks__st.monitor_lost)
		return;
	if (final)
		hooks__records_close_open(vclock_virtual(&hooks__st.clock, now));
	hooks__cp_sample(vclock_virtual(&hooks__st.clock, now), final);
	hooks__records_add_statics();
	hooks__records_update_counts();
	/* Events and the replay record go first: the monitor has them whole once the
	 * final records arrive. */
	hooks__trace_flush();
	hooks__rr_flush(final);
	/* The monitor must know every message sent before it counts the task as ended. */
	if (final)
		hooks__pr_report();
	t->tid = hooks__st.mytid;
	t->end_ns = now;
	t->virtual_ns = vclock_virtual(&hooks__st.clock, now) - hooks__st.records_start;
	t->intrusion_ns = hooks__st.clock.intrusion;
	t->raw_ns = now - hooks__st.records_start;
	t->local_ns = vclock_local(&hooks__st.clock, now) - hooks__st.records_start;
	t->has_raw = 1;
	t->msgs_sent = hooks__st.counts.msgs_sent;
	t->msgs_recv = hooks__st.counts.msgs_recv;
	t->bytes_sent = hooks__st.counts.bytes_sent;
	t->bytes_recv = hooks__st.counts.bytes_recv;
	t->unmonitored_recv = hooks__st.counts.unmonitored_recv;
	t->bad_piggybacks = hooks__st.counts.pb_bad;
	hooks__dyn_cost(&t->cost);
	wire_buf_reset(&hooks__st.out);
	wire_records_encode(&hooks__st.out, t, final);
	if (!hooks__st.out.failed)
		pvmio_send(&io, hooks__st.ctx, hooks__st.monitor_tid, WIRE_TAG_RECORDS,
			   hooks__st.out.data, hooks__st.out.len);
	hooks__st.counts.flushes++;
	hooks__st.last_flush = now;
}

/* Appends name to the colon-separated list in *list unless it is there already. */
static int list_add(char **list, const char *name)
{
	const char *p = *list ? *list : "";
	size_t n = strlen(name);
	char *s;

	while (*p) {
		const char *e = strchr(p, ':');
		size_t len = e ? (size_t)(e - p) : strlen(p);

		if (len == n && strncmp(p, name, n) == 0)
			return 0;
		p += len + (e ? 1 : 0);
	}
	if (asprintf(&s, "%s%s%s", *list && **list ? *list : "", *list && **list ? ":" : "",
		     name) < 0)
		return -1;
	free(*list);
	*list = s;
	return 0;
}

void hooks__spawn_env_begin(const char *file)
{
	extern char **environ;
	const char *pre = getenv("LD_PRELOAD"), *exp = getenv("PVM_EXPORT");
	const char *base = file ? strrchr(file, '/') : NULL;
	char *newexp = exp ? strdup(exp) : NULL, *newpre = pre ? strdup(pre) : NULL;
	int tools = 0;
	char **e;

	base = base ? base + 1 : file;
	/* The group server and the monitor are PVM's and pvmmon's own: never monitored. */
	if (base && (strcmp(base, "pvmgs") == 0 || strcmp(base, "pvmmon-monitor") == 0))
		tools = 1;
	saved_preload = pre ? strdup(pre) : NULL;
	saved_export = exp ? strdup(exp) : NULL;
	spawn_env_changed = 1;
	if (tools) {
		setenv("PVMMON_PASSIVE", "1", 1);
		list_add(&newexp, "PVMMON_PASSIVE");
		unsetenv("LD_PRELOAD");
	} else {
		if (lib_path)
			list_add(&newpre, lib_path);
#ifdef PVMMON_SANITIZER_RUNTIME
		/* A sanitized build of this library (make SANITIZE=1) only loads in a process
		 * whose first library is the sanitizer runtime: put it first for children
		 * that are not linked with it, as `pvmmon run` does for the program. */
		if (newpre && strncmp(newpre, PVMMON_SANITIZER_RUNTIME ":",
				      strlen(PVMMON_SANITIZER_RUNTIME ":")) != 0) {
			char *first = NULL;

			if (asprintf(&first, "%s:%s", PVMMON_SANITIZER_RUNTIME, newpre) >= 0) {
				free(newpre);
				newpre = first;
			}
		}
#endif
		if (newpre)
			setenv("LD_PRELOAD", newpre, 1);
		list_add(&newexp, "LD_PRELOAD");
		for (e = environ; *e; e++) {
			char name[128];
			const char *eq = strchr(*e, '=');

			if (strncmp(*e, "PVMMON_", 7) != 0 || !eq ||
			    (size_t)(eq - *e) >= sizeof(name))
				continue;
			/* A host's clock shift (tests only) belongs to the host, not to the
			 * task: a child on another host must keep that host's. */
			if (strncmp(*e, "PVMMON_TEST_CLOCK_OFFSET_NS=", 28) == 0)
				continue;
			memcpy(name, *e, (size_t)(eq - *e));
			name[eq - *e] = '\0';
			list_add(&newexp, name);
		}
	}
	if (newexp)
		setenv("PVM_EXPORT", newexp, 1);
	free(newexp);
	free(newpre);
}

void hooks__spawn_env_end(void)
{
	if (!spawn_env_changed)
		return;
	if (saved_preload)
		setenv("LD_PRELOAD", saved_preload, 1);
	else
		unsetenv("LD_PRELOAD");
	if (saved_export)
		setenv("PVM_EXPORT", saved_export, 1);
	else
		unsetenv("PVM_EXPORT");
	unsetenv("PVMMON_PASSIVE");
	free(saved_preload);
	free(saved_export);
	saved_preload = saved_export = NULL;
	spawn_env_changed = 0;
}
