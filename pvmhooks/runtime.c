/*
 * The in-task runtime: the task's core state, lazy initialisation (finding or
 * starting the monitor and registering with it), the per-call entry and exit
 * bookkeeping, and carrying the preload to children.
 */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pvm3.h>

#include "../common/pvmio.h"
#include "board.h"
#include "callsite.h"
#include "clocksync.h"
#include "fatal.h"
#include "features.h"
#include "hooks.h"
#include "mhf.h"
#include "piggyback.h"
#include "preempt.h"
#include "preserve.h"
#include "probes.h"
#include "pvmmon/errors.h"
#include "records.h"
#include "rr.h"
#include "sched.h"
#include "spawnenv.h"
#include "trace.h"
#include "waits.h"

/* Control answers normally take well under a millisecond; these bound a dead monitor. */
#define WELCOME_TIMEOUT_MS 10000
#define MONITOR_START_TIMEOUT_MS 10000

static int64_t loaded_at;
static int exit_handler; /* at_exit is registered */ /* real time the library was loaded: the process's start */

/* The process's start, as near as a library can see it: the task's time origin, so
 * that work done before its first PVM call (probed procedures included) is its own. */
static int activate(void);
static void probe_enrol(void);
static int probe_unwatched(void);

/* Before the library's other constructors: the runtime's part the layers below it call
 * (hooks.h, hooks__set_runtime). */
__attribute__((constructor(101))) static void give_runtime(void)
{
	static const hooks_runtime_ops ops = {activate, probe_enrol, probe_unwatched};

	hooks__set_runtime(&ops);
}

__attribute__((constructor)) static void loaded(void)
{
	loaded_at = pvmmon_clock_now();
	/* The TSC's calibration starts here: by registration its baseline is long. */
	pvmmon__clock_mark();
}

static void warn(const char *what)
{
	fprintf(stderr, "pvmmon: %s; this task runs unmonitored\n", what);
}

/* Reads the monitor's mailbox entry; 0 when found. */
static int read_mailbox(wire_mailbox *mb)
{
	int rb = pvm_setrbuf(0), b, rc = PVMMON_ENOTFOUND;
	uint8_t *d = NULL;
	size_t len;

	b = pvm_recvinfo(WIRE_MAILBOX_NAME, 0, PvmMboxDefault);
	if (b > 0) {
		if (pvmio__unpack(b, &d, &len, NULL, NULL) == 0)
			rc = wire__mailbox_decode(mb, d, len);
		free(d);
		hooks__pvm.freebuf(b);
	}
	pvm_setrbuf(rb);
	return rc;
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
	if (!hooks__lib_path())
		return NULL;
	dir = strdup(hooks__lib_path());
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
	sb = pvm_setsbuf(hooks__pvm.mkbuf(PvmDataDefault));
	lock = pvm_putinfo(WIRE_LOCK_NAME, pvm_getsbuf(), PvmMboxDefault);
	hooks__pvm.freebuf(pvm_setsbuf(sb));
	if (lock >= 0) {
		mon = monitor_path();
		if (!mon) {
			warn("cannot find pvmmon-monitor (set PVMMON_MONITOR)");
			return PVMMON_ENOTFOUND;
		}
		if (!log || !*log) {
			if (!getcwd(cwd, sizeof(cwd)))
				strcpy(cwd, "/tmp");
			snprintf(logbuf, sizeof(logbuf), "%s/%s.pvmmon.xml", cwd,
			         channel__program());
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

/*
 * The process ends without pvm_exit (a return from main, exit(), a Fortran STOP): the
 * task's final report, as pvm_exit's wrapper would send it, and the monitor told
 * (fatal.c). Registered with atexit at registration, so that it runs before every
 * library's destructors (ld.so's _dl_fini was registered before main): libpvm3's
 * connection and pvmmon's records are whole here. Not inside a wrapped call (an exit
 * from a message handler or from a signal handler that interrupted one: the records
 * may be mid-change and libpvm3 cannot be re-entered; the task then keeps its last
 * flush), and not in a child after fork, which inherits this handler and the parent's
 * state but is no task of its own.
 */
static void at_exit(void)
{
	if (hooks__state() != HOOKS_ACTIVE || hooks__guard)
		return;
	if (!hooks__registered_here()) {
		hooks__set_state(HOOKS_PASSIVE);
		return;
	}
	hooks__guard = 1;
	hooks__fatal_noexit();
	hooks__set_state(HOOKS_DONE);
	hooks__guard = 0;
}

/* The flush period: $PVMMON_FLUSH_MS, else the mailbox's, else a second. */
static int64_t flush_period(const wire_mailbox *mb)
{
	const char *fl = getenv("PVMMON_FLUSH_MS");
	int64_t ns = (int64_t)(fl && atoi(fl) > 0 ? atoi(fl) : (int)mb->flush_ms) * 1000000;

	return ns > 0 ? ns : 1000000000;
}

/* Sends REGISTER and waits for the WELCOME into *ans (heap) and *len: 0, or a
 * negative code. Registration is synchronous so that the monitor knows every task
 * before it can send anything. */
static int register_task(uint8_t **ans, size_t *len, const wire_mailbox *mb, int64_t t_start)
{
	wire_register reg;
	wire_buf out;
	int rc;

	memset(&reg, 0, sizeof(reg));
	reg.tid = hooks__mytid();
	reg.parent_tid = pvm_parent();
	if (reg.parent_tid < 0)
		reg.parent_tid = 0;
	reg.pid = (int32_t)hooks__pid();
	reg.dtid = pvm_tidtohost(hooks__mytid());
	reg.program = (char *)channel__program();
	reg.rt_start = (uint64_t)t_start;
	reg.token = mb->token;
	reg.earlier_tid = hooks__earlier_tid();
	/* Findings name statements of other tasks by their offset in their main program
	 * (checks.c): the monitor resolves them there. */
	reg.exe = realpath("/proc/self/exe", NULL);
	wire__buf_init(&out);
	wire__register_encode(&out, &reg);
	free(reg.exe);
	rc = out.failed ? PVMMON_ENOMEM : channel__send(WIRE_TAG_REGISTER, out.data, out.len);
	wire__buf_free(&out);
	if (rc != 0) {
		warn("cannot register with the monitor");
		return rc;
	}
	rc = channel__recv(ans, len, WIRE_TAG_WELCOME, WELCOME_TIMEOUT_MS);
	if (rc != 0)
		warn("the monitor did not answer the registration");
	return rc;
}

int hooks__init(void)
{
	wire_mailbox mb;
	uint8_t *ans = NULL;
	size_t len;
	int64_t t_start = loaded_at ? loaded_at : pvmmon_clock_now();
	int mytid, rc;

	hooks__set_state(HOOKS_PASSIVE);
	if (getenv("PVMMON_PASSIVE") || strcmp(channel__program(), "pvmgs") == 0 ||
	    strcmp(channel__program(), "pvmmon-monitor") == 0)
		return 0;
	/* The task's clock before anything is timed: registration, the clock offset and
	 * calibration then measure on the clock the probes will read. */
	pvmmon__clock_start();
	channel__resolve();
	hooks__find_lib_path();
	mytid = hooks__pvm.mytid();
	if (mytid < 0)
		return PVMMON_EPVM;
	rc = read_mailbox(&mb);
	if (rc != 0 && (rc = start_monitor(&mb)) != 0)
		return rc;
	channel__open(mytid, mb.monitor_tid, mb.ctx);
	hooks__set_task(mytid, mb.token);
	/* Probes that ran before this point already charged their cost: keep it, so that
	 * virtual time does not jump at registration. */
	vclock__restart(hooks__clock());
	hooks__records_init();
	hooks__trace_init(mb.trace_events);
	rc = register_task(&ans, &len, &mb, t_start);
	if (rc != 0)
		return rc;
	/* The clock offset first: the welcome's spawn time is on the monitor's clock. */
	clocksync__init();
	features__install();
	rc = features__welcome(ans, len, t_start);
	free(ans);
	if (rc != 0)
		return rc;
	/* pvmd tells this task when the monitor ends, so that a monitor that dies leaves
	 * the program running, unmonitored. */
	channel__watch();
	sched__begin(flush_period(&mb));
	hooks__set_start(t_start);
	hooks__set_state(HOOKS_ACTIVE);
	/* Once: a task that enrols again (pvm_exit, then pvm_mytid) registers again. */
	if (!exit_handler++)
		atexit(at_exit);
	return 0;
}

/* How long a task under `pvmmon run` may compute before its first PVM call registers
 * it; after that its next probe enrols it, and at the latest its exit does. A program
 * that calls PVM at once (most do, in main's first lines, well within 100 ms even on a
 * loaded machine) registers there as it always did, its registration and calibration
 * inside main's time and charged to it (the path the compensation tests measure); one
 * that computes without PVM is monitored from 100 ms on (or at its exit, if its probes
 * were all throttled or it ended sooner), with what its probes recorded before. */
#define ENROL_AFTER_NS 100000000LL

static void enrol_at_exit(void)
{
	if (hooks__state() == HOOKS_UNINIT && !hooks__guard && activate())
		at_exit();
}

static int enrol_decided, under_run;

/* Nobody monitors a process run under --raw, or run directly: neither under `pvmmon
 * run` nor spawned by a pvmd, which sets PVMEPID. */
static int nobody_monitors(void)
{
	return getenv("PVMMON_PASSIVE") || (!getenv("PVMMON_NO_AUTOSTART") && !getenv("PVMEPID"));
}

static void probe_enrol(void)
{
	if (hooks__state() != HOOKS_UNINIT || hooks__guard)
		return;
	if (!enrol_decided) {
		enrol_decided = 1;
		under_run = getenv("PVMMON_NO_AUTOSTART") != NULL;
		if (nobody_monitors()) {
			hooks__set_state(HOOKS_PASSIVE);
			return;
		}
		if (under_run)
			atexit(enrol_at_exit);
	}
	if (under_run && pvmmon_clock_now() - loaded_at >= ENROL_AFTER_NS)
		activate();
}

static int probe_unwatched(void)
{
	/* Decided as the first probe would: the process is passive from now on. (Under
	 * the guard, registration is under way: passive there is its first step.) */
	if (hooks__guard)
		return 0;
	if (hooks__state() == HOOKS_UNINIT && nobody_monitors())
		hooks__set_state(HOOKS_PASSIVE);
	return hooks__state() == HOOKS_PASSIVE;
}

static int activate(void)
{
	int64_t t0;

	if (__builtin_expect(hooks__state() == HOOKS_ACTIVE, 1))
		return 1;
	if (hooks__state() != HOOKS_UNINIT || hooks__guard)
		return 0;
	hooks__guard = 1;
	t0 = pvmmon_clock_now();
	hooks__init();
	hooks__guard = 0;
	if (hooks__state() != HOOKS_ACTIVE)
		return 0;
	/* Registration is monitoring work: it counts as intrusion. */
	vclock__intrude(hooks__clock(), pvmmon_clock_now() - t0);
	sched__start();
	/* Probes run the periodic work from now on too. */
	hooks__probe_tick_at(pvmmon_clock_now());
	return 1;
}

/*
 * A PVM call after pvm_exit enrols the process again, with a new tid (a Fortran
 * program's second pvmfmytid after pvmfexit, a C program's pvm_mytid): the new task
 * registers as a task of its own (the monitor sees the same process, REGISTER's pid,
 * and says so), with its statement records, counters and per-pair sequences started
 * anew (the earlier incarnation's went with its final flush). Only the program's own
 * wrapped calls do it, never a probe: a process that left PVM is not enrolled by
 * pvmmon. pvm_exit itself enrols nobody. 1 when the task is monitored again.
 */
static int reenrol(hooks_op op)
{
	if (hooks__state() != HOOKS_DONE || hooks__guard || op == HOOKS_OP_pvm_exit ||
	    !hooks__registered_here())
		return 0;
	hooks__records_stmt_restart();
	hooks__records_send_restart();
	hooks__pairs_restart();
	hooks__counts_restart();
	hooks__set_earlier_tid(hooks__mytid());
	hooks__set_state(HOOKS_UNINIT);
	if (activate())
		return 1;
	/* Registration failed: the process goes on unmonitored, as any task would. */
	if (hooks__state() == HOOKS_UNINIT)
		hooks__set_state(HOOKS_PASSIVE);
	return 0;
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

/*
 * A preemption's time taken out of virtual time only as far as the virtual clock can
 * go back at rt without passing the last stamp it handed out: the switched-out time
 * overlaps time already charged (a wait, the wrapper's own), and the excess would be
 * clamped back, each clamp adding its whole interval to the task's uncertainty
 * (vclock__stamp). A worker of apps/notifymw reached 5.8 ms of uncertainty that way,
 * and preserve mode's tie window, the spread of the uncertainties, with it.
 */
static int64_t preempt_room(const vclock *c, int64_t rt, int64_t off)
{
	int64_t room = rt - vclock__intrusion(c) - c->last_v;

	if (!c->last_rt)
		return off;
	return off < room ? off : room;
}


int hooks__begin(hooks_call *call, hooks_op op, void *site)
{
	/* Before anything else: libpvm3 installs its handlers while it connects the task
	 * (pvmbeatask), where starting pvmmon's registration would re-enter it. */
	if (__builtin_expect(op == HOOKS_OP_pvm_addmhf || op == HOOKS_OP_pvm_delmhf, 0) &&
	    in_libpvm(site))
		return 0;
	/* libgpvm3 starts the group server when it finds none: that spawn is PVM's own. */
	if (__builtin_expect(op == HOOKS_OP_pvm_spawn, 0) && callsite__grouped())
		return 0;
	if (__builtin_expect(hooks__state() != HOOKS_ACTIVE, 0) && !activate() &&
	    !reenrol(op))
		return 0;
	hooks__guard = 1;
	call->op = op;
	/* A program's message handler runs inside any call, a group call's too: its calls
	 * are its own statements. */
	call->inner = callsite__grouped() && !hooks__mhf_in_handler();
	call->site = call->inner ? callsite__group_site() : callsite__user(site);
	site = call->site;
	/* A reported polling wait ends before any other call does anything: the monitor
	 * must not take a task that sends for one that still polls. */
	if (__builtin_expect(waits__polling, 0) && op != HOOKS_OP_pvm_nrecv &&
	    op != HOOKS_OP_pvm_probe && op != HOOKS_OP_pvm_trecv)
		waits__poll_end(pvmmon_clock_now());
	/* Messages handlers took since the last wrapped call (in an unwrapped one, or
	 * before the first) are settled at the position they came at. */
	hooks__mhf_settle_due(call);
	hooks__count_call(op, site);
	/* A replay gives a blocking receive the handler deliveries recorded in it before
	 * it waits: what it waits for may come only in answer to the handler's sends. */
	if (hooks__rr_mode() == HOOKS_RR_REPLAY) {
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
	call->sync = 0;
	call->t_wait = call->pr_held = call->pr_timeout_vt = 0;
	call->skip_t1 = call->skip_t2 = 0;
	call->pr_reordered = 0;
	call->t0 = pvmmon_clock_now();
	/* Preserve mode: a preemption since the last call is no part of virtual time, as
	 * far as the board's promise allows (preempt.c). */
	if (hooks__pr_on()) {
		vclock *c = hooks__clock();
		int64_t off = hooks__preempt_enter(call->t0);

		if (c->pub_limit != INT64_MAX && off > c->pub_limit - vclock__intrusion(c))
			off = c->pub_limit - vclock__intrusion(c);
		off = preempt_room(c, call->t0, off);
		if (off > 0)
			vclock__intrude(c, off);
	}
	call->v0 = vclock__stamp(hooks__clock(), call->t0);
	hooks__board_freeze(op, call->v0);
	return 1;
}

void hooks__end(hooks_call *call)
{
	int64_t now = pvmmon_clock_now();

	if (!call->clock_done)
		vclock__intrude(hooks__clock(), (call->t1 - call->t0) + (now - call->t2));
	/* Preserve mode: nor is a preemption during the real call (a receive's cost is
	 * its least measured already). */
	if (hooks__pr_on()) {
		int64_t off = hooks__preempt_leave(now, call->clock_done ? 0 : call->t2 - call->t1);

		off = preempt_room(hooks__clock(), now, off);
		if (off > 0)
			vclock__intrude(hooks__clock(), off);
	}
	sched__call_end(call, now);
	/* A call the program's message handler made runs while libpvm3 may be reading
	 * messages in: nothing here may receive. */
	if (hooks__mhf_in_handler()) {
		hooks__guard = 0;
		return;
	}
	if (hooks__state() == HOOKS_ACTIVE)
		sched__run(now);
	/* Messages handlers took during the call reach the program's handlers as it ends
	 * (their own time is the program's). */
	hooks__mhf_settle_due(call);
	hooks__board_run();
	hooks__guard = 0;
}
