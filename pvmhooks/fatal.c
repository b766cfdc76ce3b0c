/*
 * What a task keeps when a signal ends it (pvmhooks/fatal.h, doc/reliability.md): on
 * SIGSEGV, SIGBUS, SIGFPE, SIGILL or SIGABRT, and on SIGINT, SIGTERM or SIGHUP left at
 * their default, a handler sends the task's records (a final flush) and a FATAL message
 * (the signal, the last statement, where the signal found the task) to the monitor,
 * then lets the same signal end the process, so that its parent sees the status it
 * would have seen unmonitored.
 *
 * Async-signal-safety, honestly: the flush calls libpvm3 (pvm_mkbuf, pvm_pkbyte,
 * pvm_send) and malloc, none of which is async-signal-safe. It is acceptable here
 * because the process is dying anyway: nothing it computes afterwards can be wrong,
 * and the worst a non-reentrant call can do is deadlock (the signal came while
 * malloc or libpvm3 held their own state) or fault again. Both are bounded: a second
 * signal during the report ends the process with the first signal at once, and an
 * alarm of BOUND_S seconds (SIGALRM handled by us for that time only) ends it with
 * the first signal too. What the task keeps then is its last periodic flush, as with
 * SIGKILL.
 *
 * Records that may be mid-change: the wrappers keep pvmmon's guard set while they run,
 * and hooks__in_pvm while the real PVM call runs under it. A signal outside the guard
 * (the program's own code) finds the records whole: they are sent at once. Inside the
 * guard, two things stand in the way: pvmmon's records may be half updated (a
 * wrapper's bookkeeping, a probe, a flush), and libpvm3 cannot be re-entered (a send
 * made while it runs only waits in its queue, and a receive with a timeout fails with
 * PvmNotImpl). So a signal sent from outside (kill, pvm_sendsig, Ctrl-C: SIGTERM and
 * SIGINT above all) that comes inside the guard is deferred: the handler only notes
 * it, and the call's end (hooks__fatal_settle, the feature's poll: every wrapped
 * call's end, probe tick and slice of a long wait that runs the scheduler) reports it
 * and ends the task, with its records whole; another stop signal meanwhile, or while
 * that report is sent (the monitor's SIGTERM comes a moment after pvmmon run's), is
 * ignored. A
 * wait that never ends is bounded by an alarm of DEFER_S seconds: the task then ends
 * with the signal and keeps its last flush. A fault inside the guard (a real SIGSEGV
 * in libpvm3 or in pvmmon) cannot wait: only FATAL is tried (records = 0).
 *
 * The program's own handlers: a signal whose handler the program installed before
 * the task registered (or ignored) keeps it. For a handled signal ours runs first,
 * flushes the records (not as the final flush: the program may survive), puts the
 * program's handler back and raises the signal again for it. A handler the program
 * installs later simply replaces ours (nothing intercepts signal() or sigaction()):
 * the program always sees the disposition it set; the task then keeps its last
 * periodic flush for that signal.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "callsite.h"
#include "fatal.h"
#include "hooks.h"
#include "records.h"
#include "sched.h"

/* How long the report may take before the process dies anyway: a flush is a few
 * local sends (milliseconds); this only bounds a deadlock inside malloc or libpvm3. */
#define BOUND_S 2
/* How long a signal deferred inside a PVM call waits for the call's end: longer than
 * a slice of a long receive's wait, shorter than the monitor's wait for a stop. */
#define DEFER_S 2
/* The handler runs on its own stack: a stack overflow is a SIGSEGV too. PVM's send
 * path and the records' encoding need far less than this. */
#define ALT_STACK_SIZE (256 * 1024)

/* The signals handled: the fatal ones always, the stop signals only when the program
 * leaves them at their default (they end it without a core; pvmmon run's interrupt and
 * pvmd's halt use them). */
static const struct {
	int sig;
	int stop;
} handled[] = {{SIGSEGV, 0}, {SIGBUS, 0}, {SIGFPE, 0}, {SIGILL, 0},
               {SIGABRT, 0}, {SIGINT, 1}, {SIGTERM, 1}, {SIGHUP, 1}};
#define NHANDLED (sizeof(handled) / sizeof(handled[0]))

static struct sigaction prior[NHANDLED]; /* the program's dispositions at install */
static struct sigaction ours;            /* our handler, as installed */
static volatile sig_atomic_t dying;      /* the signal being reported, 0 when none */
/* A signal deferred to the end of the PVM call it came in, and where it came. */
static volatile sig_atomic_t deferred, deferred_where;
/* A deferred stop is being reported at its call's end (hooks__fatal_settle). */
static volatile sig_atomic_t settling;
static wire_buf out; /* the FATAL message, its room reserved at install */

#define SLOT_NONE (-1) /* slot_of: a signal not handled here */

static int slot_of(int sig)
{
	for (size_t i = 0; i < NHANDLED; i++)
		if (handled[i].sig == sig)
			return (int)i;
	return SLOT_NONE;
}

static int is_handler(const struct sigaction *sa)
{
	return (sa->sa_flags & SA_SIGINFO) ||
	       (sa->sa_handler != SIG_DFL && sa->sa_handler != SIG_IGN);
}

/* Ends the process with sig, at its default action. */
static void die_of(int sig)
{
	sigset_t set;

	signal(sig, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	raise(sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	/* Only a signal whose default is to be ignored gets here, and none of ours is. */
	_exit(128 + sig);
}

/* The report took too long: the first signal ends the process now. */
static void on_alarm(int a)
{
	(void)a;
	die_of(dying ? dying : SIGABRT);
}

/* Where the signal found the task: its records are whole unless it was inside
 * pvmmon's own code. */
static int where_now(void)
{
	/* The guard is off during a group call (groups.c), where libgpvm3 may be inside
	 * libpvm3: the program's code only when no group call runs. */
	if (!hooks__guard)
		return callsite__grouped() ? WIRE_FATAL_PVM : WIRE_FATAL_PROGRAM;
	return hooks__in_pvm ? WIRE_FATAL_PVM : WIRE_FATAL_HOOKS;
}

/* Waits for the monitor to answer a QUERY: PVM keeps order per pair, so the answer
 * means the monitor has what this task sent before. Without it the records could die
 * with the task: pvmd drops what it has not yet read from the socket of a task that
 * ended. */
static void await_monitor(wire_buf *b)
{
	uint8_t *ans = NULL;
	size_t len;

	wire__buf_reset(b);
	wire__query_encode(b, &(wire_query){hooks__mytid()});
	if (!b->failed && channel__send(WIRE_TAG_QUERY, b->data, b->len) == 0 &&
	    channel__recv(&ans, &len, WIRE_TAG_ANSWER, BOUND_S * 1000) == 0)
		free(ans);
}

/* Sends the records (final when the task dies now) and, when it dies, FATAL; waits
 * until the monitor has them. where: where the signal found the task; whole: whether
 * the records are whole now (not when it came inside pvmmon's code and was not
 * deferred). */
static void report(int sig, int final, int where, int whole)
{
	int records = 0;
	void *site = hooks__cur_site();
	int64_t id;

	/* A monitor that has gone (pvmd said so) would never answer. */
	if (hooks__state() != HOOKS_ACTIVE || channel__lost() || channel__check_lost())
		return;
	/* The flush's own PVM calls must pass through the wrappers. */
	hooks__guard = 1;
	hooks__in_pvm = 0;
	if (whole) {
		/* A call that died inside PVM at its statement's first use has no record
		 * yet: make it, so that the monitor can name where the task was. */
		if (where == WIRE_FATAL_PVM && site && hooks__event_op(hooks__cur_op()) != 0)
			hooks__stmt(site, hooks__cur_op());
		records = hooks__flush(final) == 0;
	}
	if (!final) {
		if (records)
			await_monitor(&out);
		return;
	}
	id = site ? hooks__records_stmt_id(site) : -1;
	wire__buf_reset(&out);
	wire__fatal_encode(&out, &(wire_fatal){sig, id >= 0 ? (uint32_t)id + 1 : 0, (uint8_t)where,
	                                       (uint8_t)records});
	if (!out.failed && channel__send(WIRE_TAG_FATAL, out.data, out.len) == 0)
		await_monitor(&out);
	hooks__set_state(HOOKS_DONE);
}

/* Whether sig was sent from outside (kill, raise, the terminal) rather than raised by
 * the instruction that faulted; abort() goes on to end the process once the handler
 * returns, so it cannot wait. */
static int sent(int sig, const siginfo_t *si)
{
	return sig != SIGABRT && (si->si_code <= 0 || si->si_code == SI_KERNEL);
}

static void on_signal(int sig, siginfo_t *si, void *uc)
{
	int i = slot_of(sig), saved = errno, chained, where = where_now();
	int guard = hooks__guard, in_pvm = hooks__in_pvm;
	struct sigaction al, old_al;
	unsigned left;

	(void)uc;
	/* Another stop while one waits for its call's end or is being reported there
	 * (the monitor's stop and pvmmon run's interrupt come together, the monitor's
	 * often while the first one's records are on their way): the first one settles.
	 * Ending the task at once here lost every record. */
	if ((deferred || settling) && i >= 0 && sent(sig, si)) {
		/* The handler was reset to the default on entry: a third one must find us. */
		sigaction(sig, &ours, NULL);
		errno = saved;
		return;
	}
	/* A signal during the report (a fault inside it): the first one ends the task. */
	if (dying || i < 0)
		die_of(dying ? dying : sig);
	dying = sig;
	chained = is_handler(&prior[i]);
	memset(&al, 0, sizeof(al));
	al.sa_handler = on_alarm;
	sigaction(SIGALRM, &al, &old_al);
	if (where != WIRE_FATAL_PROGRAM && !chained && sent(sig, si)) {
		/* Settled at the call's end (hooks__fatal_settle), or by the alarm. */
		deferred_where = where;
		deferred = sig;
		alarm(DEFER_S);
		/* The same signal again (pvmmon run's and the monitor's SIGTERM) must find
		 * us, not the default the handler was reset to. */
		sigaction(sig, &ours, NULL);
		errno = saved;
		return;
	}
	left = alarm(BOUND_S);
	report(sig, !chained, where, where != WIRE_FATAL_HOOKS);
	if (!chained)
		die_of(sig);
	/* The program handles this signal: it gets it as if we were not there. */
	alarm(0);
	sigaction(SIGALRM, &old_al, NULL);
	if (left)
		alarm(left);
	sigaction(sig, &prior[i], NULL);
	dying = 0;
	hooks__guard = guard;
	hooks__in_pvm = in_pvm;
	/* Pending until this handler returns (sig is blocked in it), then the program's. */
	raise(sig);
	errno = saved;
}

void hooks__fatal_settle(void)
{
	int sig = deferred;

	if (!sig)
		return;
	settling = 1;
	deferred = 0;
	alarm(BOUND_S);
	report(sig, 1, deferred_where, 1);
	die_of(sig);
}

void hooks__fatal_noexit(void)
{
	void *site = hooks__send_site();
	int64_t id;
	int records;
	wire_buf b;

	/* A monitor that has gone (pvmd said so) would never answer. */
	if (hooks__state() != HOOKS_ACTIVE || channel__lost() || channel__check_lost())
		return;
	records = hooks__flush(1) == 0;
	id = site ? hooks__records_stmt_id(site) : -1;
	wire__buf_init(&b);
	/* A program that made no PVM call of its own was enrolled by pvmmon (a probe or
	 * its exit registered it): its exit is an ordinary one. */
	if (hooks__ncalls() > 0)
		wire__fatal_encode(&b, &(wire_fatal){0, id >= 0 ? (uint32_t)id + 1 : 0,
		                                     WIRE_FATAL_PROGRAM, (uint8_t)records});
	if (!b.failed && (!b.len || channel__send(WIRE_TAG_FATAL, b.data, b.len) == 0))
		await_monitor(&b);
	wire__buf_free(&b);
}

int hooks__fatal_install(void)
{
	struct sigaction sa, cur;
	stack_t st;

	/* Once: a task that enrols again (runtime.c) must not take its own handlers for
	 * the program's. */
	if (ours.sa_sigaction || getenv("PVMMON_NO_SIGNALS"))
		return 0;
	/* Reserve the message's room now: the handler then needs no allocation for it. */
	wire__buf_init(&out);
	wire__fatal_encode(&out, &(wire_fatal){1, 1, 0, 0});
	if (sigaltstack(NULL, &st) == 0 && (st.ss_flags & SS_DISABLE)) {
		st.ss_sp = malloc(ALT_STACK_SIZE);
		st.ss_size = ALT_STACK_SIZE;
		st.ss_flags = 0;
		if (st.ss_sp && sigaltstack(&st, NULL) != 0)
			free(st.ss_sp);
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_signal;
	/* Other handled signals wait while one is reported. */
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < NHANDLED; i++)
		sigaddset(&sa.sa_mask, handled[i].sig);
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESETHAND;
	for (size_t i = 0; i < NHANDLED; i++) {
		if (sigaction(handled[i].sig, NULL, &cur) != 0)
			continue;
		/* Ignored signals stay ignored, and the program's stop handlers are its own. */
		if (cur.sa_handler == SIG_IGN && !(cur.sa_flags & SA_SIGINFO))
			continue;
		if (handled[i].stop && is_handler(&cur))
			continue;
		prior[i] = cur;
		sigaction(handled[i].sig, &sa, NULL);
	}
	ours = sa;
	return 0;
}
