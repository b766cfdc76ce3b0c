/*
 * A blocking receive's slice timed by a POSIX timer instead of libpvm3's timed selects
 * (pvmhooks/slicetimer.h).
 *
 * Why: a wait slice is a pvm_trecv with the slice's length as its timeout, and with a
 * timeout libpvm3's read loop (mxfer in lpvm.c) reads the clock and arms a timed select
 * between any two fragments of a message: one per 4 KiB fragment, about 150 ns more
 * each than an untimed one on this kernel, 260 a 1 MiB message. The bare trailing
 * message receives with an untimed pvm_recv and pays none of it (doc/benchmarks.md,
 * "The wrappers beyond the trailing message").
 *
 * How: libpvmhooks defines select(), which libpvm3 calls through its PLT. Outside a slice,
 * or in a thread other than the one in the slice, it is libc's select and nothing else
 * (one test of a thread-local flag). In a slice, the first timed select (the wait for the
 * message to begin) passes as it is: a message of one fragment never meets another, so
 * small messages pay nothing. From the second on, the slice arms a one-shot timer for
 * the time libpvm3 asked, aimed at this thread with signal PVMMON_SLICE_SIGNAL, and
 * the selects wait untimed; the signal interrupts the select at the deadline and the
 * interposed select answers "timed out", as the timed one would have. At the slice's
 * end the timer is disarmed and the signal's disposition put back; so it is while a
 * program's message handler runs inside the slice (pvmhooks/mhf.c), whose own selects
 * and sleeps must see neither the signal nor the interposed select's conversion.
 *
 * What the program could see, and why it does not: the handler is installed only for
 * the rest of that one receive and only when the program left the signal at its default
 * and unblocked (otherwise the slice keeps libpvm3's timed selects); the timer exists
 * from the first large receive on (timer_create; /proc/PID/timers lists it). A signal
 * of that number sent from outside during such a receive would be taken as the
 * deadline instead of ending the process. PVMMON_SLICE_TIMER=0 turns all of it off.
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "slicetimer.h"
#include "pvmmon/errors.h"

typedef int (*select_fn)(int, fd_set *, fd_set *, fd_set *, struct timeval *);

static select_fn real_select;
/* -1: not read yet, 0: off (PVMMON_SLICE_TIMER=0), 1: on. */
static int enabled = -1;
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* One thread's slice. The state is per thread: another thread's select is the
 * program's, never a slice's, and the timer is aimed at the thread that armed it. */
typedef struct slice_state {
	int active;     /* in a slice (slicetimer__begin .. _end) */
	int nselects;   /* timed selects seen in it */
	int armed;      /* the timer runs and the handler is ours */
	int unusable;   /* this slice keeps libpvm3's timed selects */
	int have_timer; /* timer below was created by this thread */
	timer_t timer;
	struct sigaction old; /* the disposition put back at the end */
} slice_state;

static __thread slice_state st __attribute__((tls_model("initial-exec")));
static __thread volatile sig_atomic_t fired __attribute__((tls_model("initial-exec")));

static void on_signal(int sig)
{
	(void)sig;
	fired = 1;
}

/* A forked child has no timers (POSIX): the inherited state must not name one. */
static void after_fork_child(void) { st.have_timer = 0; }

static void init_once(void)
{
	const char *e = getenv("PVMMON_SLICE_TIMER");

	real_select = (select_fn)dlsym(RTLD_NEXT, "select");
	enabled = !(e && strcmp(e, "0") == 0);
	pthread_atfork(NULL, NULL, after_fork_child);
}

static void init(void)
{
	if (__builtin_expect(!real_select, 0))
		pthread_once(&once, init_once);
}

void slicetimer__begin(void)
{
	init();
	st.active = enabled > 0;
	st.nselects = 0;
	st.armed = 0;
	st.unusable = 0;
}

/* Takes the signal and starts the timer for tv; 0, or with nothing changed
 * PVMMON_ESTATE (the signal is blocked or the program's own) or PVMMON_ERROR (a system
 * call failed). */
static int arm(const struct timeval *tv)
{
	struct sigaction sa;
	struct itimerspec its;
	sigset_t cur;
	int sig = PVMMON_SLICE_SIGNAL;

	if (pthread_sigmask(SIG_BLOCK, NULL, &cur) != 0 || sigismember(&cur, sig))
		return PVMMON_ESTATE;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* Reads and writes inside libpvm3's loop go on; select never restarts. */
	sa.sa_flags = SA_RESTART;
	if (sigaction(sig, &sa, &st.old) != 0)
		return PVMMON_ERROR;
	if (st.old.sa_handler != SIG_DFL || (st.old.sa_flags & SA_SIGINFO)) {
		/* The program's own use of the signal: leave it as it was. */
		sigaction(sig, &st.old, NULL);
		return PVMMON_ESTATE;
	}
	if (!st.have_timer) {
		struct sigevent sev;

		memset(&sev, 0, sizeof(sev));
		sev.sigev_notify = SIGEV_THREAD_ID;
		sev.sigev_signo = sig;
		sev._sigev_un._tid = (pid_t)syscall(SYS_gettid);
		if (timer_create(CLOCK_MONOTONIC, &sev, &st.timer) != 0) {
			sigaction(sig, &st.old, NULL);
			return PVMMON_ERROR;
		}
		st.have_timer = 1;
	}
	fired = 0;
	memset(&its, 0, sizeof(its));
	its.it_value.tv_sec = tv->tv_sec;
	its.it_value.tv_nsec = (long)tv->tv_usec * 1000;
	if (its.it_value.tv_sec == 0 && its.it_value.tv_nsec == 0)
		its.it_value.tv_nsec = 1;
	if (timer_settime(st.timer, 0, &its, NULL) != 0) {
		sigaction(sig, &st.old, NULL);
		return PVMMON_ERROR;
	}
	st.armed = 1;
	return 0;
}

static void disarm(void)
{
	if (st.armed) {
		struct itimerspec zero;

		memset(&zero, 0, sizeof(zero));
		/* Disarmed first: no expiry comes after the disposition is put back. */
		timer_settime(st.timer, 0, &zero, NULL);
		sigaction(PVMMON_SLICE_SIGNAL, &st.old, NULL);
		st.armed = 0;
	}
}

void slicetimer__end(void)
{
	disarm();
	st.active = 0;
}

int slicetimer__pause(void)
{
	int was = st.active;

	disarm();
	st.active = 0;
	return was;
}

/* libpvm3 gives each select the time left by its own clock, so the next one re-arms
 * with what is left after the handler. */
void slicetimer__resume(int was) { st.active = was; }

/* A select of libpvm3's in a slice, after its first timed one. */
__attribute__((noinline)) static int slice_select(int n, fd_set *r, fd_set *w, fd_set *e,
                                                  struct timeval *tv)
{
	struct timeval zero = {0, 0};
	int rc;

	if (++st.nselects < 2 || st.unusable || (tv->tv_sec == 0 && tv->tv_usec == 0))
		return real_select(n, r, w, e, tv);
	if (!st.armed && arm(tv) != 0) {
		st.unusable = 1;
		return real_select(n, r, w, e, tv);
	}
	/* The deadline passed between two selects: a last look, as a timed select
	 * given no time left makes. */
	if (fired)
		return real_select(n, r, w, e, &zero);
	rc = real_select(n, r, w, e, NULL);
	if (rc == -1 && errno == EINTR && fired) {
		/* Timed out: nothing is ready, as select says on a timeout. */
		if (r)
			FD_ZERO(r);
		if (w)
			FD_ZERO(w);
		if (e)
			FD_ZERO(e);
		return 0;
	}
	return rc;
}

__attribute__((visibility("default"))) int select(int n, fd_set *r, fd_set *w, fd_set *e,
                                                  struct timeval *tv)
{
	init();
	if (__builtin_expect(!st.active || !tv, 1))
		return real_select(n, r, w, e, tv);
	return slice_select(n, r, w, e, tv);
}
