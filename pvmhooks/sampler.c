/*
 * Call-path sampling of a task (pvmhooks/sampler.h): a CPU-time timer, the signal
 * handler that unwinds the interrupted stack into the task's tree, and the tree handed
 * to the task's records at each flush.
 *
 * When: from the library's constructor if PVMMON_SAMPLE asks for it (a rate, or "auto":
 * pvmmon run's default), so that computing before the first PVM call is sampled;
 * settled at registration ("auto" drops everything in a program with pvmmon-cc's
 * static tables, a `pvmmon ctl sample` setting from the welcome overrides), re-armed
 * or disarmed by the monitor's SAMPLE command, and started afresh in a child of fork.
 *
 * Why CPU time: the timer (timer_create on the thread's CPU-time clock) runs only
 * while the thread runs, so a sample's weight is CPU time whatever else the machine
 * does: a busy machine that deschedules the task stretches the run but not the
 * shares. Time the task spends blocked (a receive's wait) takes no samples at all.
 *
 * Why libunwind: Debian builds programs without frame pointers, so walking frame
 * records finds the first frame or two only; libunwind's local unwinder reads the
 * .eh_frame tables every gcc build has. It is started from the signal's own context
 * (UNW_INIT_SIGNAL_FRAME), so the first frame is the interrupted instruction, and used
 * with a per-thread cache: unw_init_local2, unw_step and unw_get_reg take no lock and
 * do not allocate then (libunwind documents them as async-signal-safe for local
 * unwinding). libunwind is opened at start with RTLD_LOCAL (dlopen), and only by a
 * task that samples: a preloaded library must not put libunwind's _Unwind_* in front
 * of libgcc's for the program's C++ or Fortran exceptions (Debian's archive of it is
 * not built for a shared library, so it cannot be linked in with its names hidden).
 *
 * What the program could see: the handler of PVMMON_SAMPLE_SIGNAL (installed with
 * SA_RESTART, only if the program left that signal at its default) and a timer in
 * /proc/PID/timers. A sample that comes in the CPU part of a system call just before it
 * sleeps may make a select or sleep return EINTR, as any timer signal can; libpvm3's
 * message loop (mxfer in lpvm.c) selects again on EINTR, and the wait slices' select
 * (slicetimer.c) takes only its own timer's signal for a timeout.
 */
#define UNW_LOCAL_ONLY
#include <dlfcn.h>
#include <errno.h>
#include <libunwind.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "../common/clock.h"
#include "../common/wire_control.h"
#include "hooks.h"
#include "records.h"
#include "sampler.h"
#include "sampletree.h"

/* libunwind's local unwinder, from dlopen (the names its header's macros stand for). */
typedef int (*unw_init_fn)(unw_cursor_t *, unw_context_t *, int);
typedef int (*unw_step_fn)(unw_cursor_t *);
typedef int (*unw_reg_fn)(unw_cursor_t *, unw_regnum_t, unw_word_t *);
typedef int (*unw_cache_fn)(unw_addr_space_t, unw_caching_policy_t);

static struct {
	unw_init_fn init;
	unw_step_fn step;
	unw_reg_fn get_reg;
} unw;

static struct {
	int on;
	uint32_t hz;
	pid_t tid; /* the sampled thread */
	timer_t timer;
	int have_timer;
	int handler_set; /* ours is the signal's handler */
	stree tree;
	pvmmon_log_samples *last; /* the latest export, freed at the next */
	int ctl_set;     /* pvmmon ctl sample set the rate (welcome) */
	uint32_t ctl_hz; /* and to this (0: off) */
} st;

/* What the task was doing: pvmmon's own code runs under the guard, the real PVM call
 * under in_pvm too; everything else is the program's. */
static int state_now(void)
{
	if (!hooks__guard)
		return PVMMON_SAMPLE_COMPUTE;
	return hooks__in_pvm ? PVMMON_SAMPLE_PVM : PVMMON_SAMPLE_MONITOR;
}

static void on_sample(int sig, siginfo_t *si, void *uc)
{
	int saved = errno, n = 0;
	uintptr_t pcs[SAMPLE_FRAMES_MAX];
	struct timespec t0, t1;
	unw_cursor_t cur;
	unw_word_t ip;

	(void)sig;
	/* Only our timer's signal, in the thread it samples. */
	if (si->si_code != SI_TIMER || syscall(SYS_gettid) != st.tid) {
		errno = saved;
		return;
	}
	/* The handler's own time, the sampling's cost (CLOCK_MONOTONIC: the vDSO's, no
	 * system call; a handler is too short to be descheduled often). libc's own
	 * clock_gettime: the program's reads are recorded for replay, never pvmmon's. */
	pvmmon__clock_real(CLOCK_MONOTONIC, &t0);
	if (unw.init(&cur, (unw_context_t *)uc, UNW_INIT_SIGNAL_FRAME) == 0) {
		do {
			if (unw.get_reg(&cur, UNW_REG_IP, &ip) < 0 || ip == 0)
				break;
			/* The innermost frame is the instruction itself: plus one, so that every
			 * frame's address minus one is inside its instruction (symbols.c). */
			pcs[n] = n == 0 ? (uintptr_t)ip + 1 : (uintptr_t)ip;
			n++;
		} while (n < SAMPLE_FRAMES_MAX && unw.step(&cur) > 0);
	}
	/* The kernel checks CPU-time timers at its clock tick (250 Hz on many kernels): a
	 * rate above it fires once a tick with the periods it missed as overruns, and the
	 * sample stands for all of them. */
	sampletree__add(&st.tree, pcs, n, state_now(),
	                1 + (uint64_t)(si->si_overrun > 0 ? si->si_overrun : 0));
	pvmmon__clock_real(CLOCK_MONOTONIC, &t1);
	st.tree.cost_ns += (t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec);
	errno = saved;
}

/* PVMMON_SAMPLE: the rate in Hz (1 to 10000), 0 or absent for none, or "auto" for the
 * default rate unless the program was built with pvmmon-cc (*autom set). */
static uint32_t rate_wanted(int *autom)
{
	const char *e = getenv("PVMMON_SAMPLE");
	char *end;
	long hz;

	*autom = 0;
	if (!e || !*e)
		return 0;
	if (!strcmp(e, "auto")) {
		*autom = 1;
		return WIRE_SAMPLE_DEFAULT_HZ;
	}
	hz = strtol(e, &end, 10);
	if (*end || hz < 0 || hz > WIRE_SAMPLE_MAX_HZ) {
		fprintf(stderr, "pvmmon: PVMMON_SAMPLE=%s is no rate from 0 to %d Hz (nor auto); "
		                "this task does not sample\n", e, WIRE_SAMPLE_MAX_HZ);
		return 0;
	}
	return (uint32_t)hz;
}

static int install_handler(void)
{
	struct sigaction sa, old;

	if (sigaction(PVMMON_SAMPLE_SIGNAL, NULL, &old) != 0 || old.sa_handler != SIG_DFL) {
		fprintf(stderr, "pvmmon: the program handles signal %d itself; this task does "
		                "not sample\n", PVMMON_SAMPLE_SIGNAL);
		return -1;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sample;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	return sigaction(PVMMON_SAMPLE_SIGNAL, &sa, NULL);
}

/* libunwind's entry points, and its per-thread cache; 0, or -1 (said on stderr). */
static int open_unwinder(void)
{
	void *h;
	unw_cache_fn cache;
	unw_addr_space_t *space;

	if (unw.init)
		return 0;
	h = dlopen("libunwind.so.8", RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		fprintf(stderr, "pvmmon: call-path sampling needs libunwind (%s)\n", dlerror());
		return -1;
	}
	unw.init = (unw_init_fn)dlsym(h, "_ULx86_64_init_local2");
	unw.step = (unw_step_fn)dlsym(h, "_ULx86_64_step");
	unw.get_reg = (unw_reg_fn)dlsym(h, "_ULx86_64_get_reg");
	cache = (unw_cache_fn)dlsym(h, "_ULx86_64_set_caching_policy");
	space = (unw_addr_space_t *)dlsym(h, "_ULx86_64_local_addr_space");
	if (!unw.init || !unw.step || !unw.get_reg || !cache || !space) {
		fprintf(stderr, "pvmmon: this libunwind has no local unwinder from a signal's "
		                "context (1.6 or later is needed)\n");
		unw.init = NULL;
		return -1;
	}
	/* The unwinder's caches per thread: no lock in the handler. */
	cache(*space, UNW_CACHE_PER_THREAD);
	return 0;
}

/* The timer's period: hz a second of CPU time (0: disarmed). */
static int arm(uint32_t hz)
{
	struct itimerspec its;
	long ns = hz ? 1000000000L / (long)hz : 0;

	its.it_interval.tv_sec = ns / 1000000000L;
	its.it_interval.tv_nsec = ns % 1000000000L;
	its.it_value = its.it_interval;
	return timer_settime(st.timer, 0, &its, NULL);
}

/* Everything taken back: no timer, the signal at its default, no tree. */
static void drop(void)
{
	sampler__stop();
	/* The program finds the signal as it left it. */
	if (st.handler_set)
		signal(PVMMON_SAMPLE_SIGNAL, SIG_DFL);
	st.handler_set = 0;
	sampletree__free(&st.tree);
	pvmmon_log_samples_free(st.last);
	st.last = NULL;
	st.on = 0;
	st.hz = 0;
}

/* Starts sampling at hz in the calling thread, or sets the running timer to hz. */
static void start(uint32_t hz)
{
	struct sigevent sev;

	if (st.on) {
		if (arm(hz) == 0)
			st.hz = hz;
		return;
	}
	if (open_unwinder() != 0)
		return;
	if (sampletree__init(&st.tree, SAMPLE_NODES_MAX) != 0 || install_handler() != 0)
		goto fail;
	st.handler_set = 1;
	st.tid = (pid_t)syscall(SYS_gettid);
	memset(&sev, 0, sizeof(sev));
	sev.sigev_notify = SIGEV_THREAD_ID;
	sev.sigev_signo = PVMMON_SAMPLE_SIGNAL;
	sev._sigev_un._tid = st.tid;
	if (timer_create(CLOCK_THREAD_CPUTIME_ID, &sev, &st.timer) != 0)
		goto fail;
	st.have_timer = 1;
	st.hz = hz;
	st.on = 1;
	if (arm(hz) != 0)
		goto fail;
	return;
fail:
	fprintf(stderr, "pvmmon: call-path sampling cannot start (%s); this task does not "
	                "sample\n", strerror(errno));
	drop();
}

/* A child of fork has no timer (POSIX timers are not inherited) and its parent's tree:
 * it starts its own, as a new process would, so that a child that registers as a task
 * of its own does not report its parent's samples. */
static void after_fork(void)
{
	int autom;
	uint32_t hz;

	st.have_timer = 0;
	drop();
	if ((hz = rate_wanted(&autom)) != 0)
		start(hz);
}

/*
 * Before the program's main: the computing a program does before its first PVM call
 * (reading its input, setting up) is sampled too, when the environment asks for it.
 * The program sees only what it would see later (a handler on a signal it left at its
 * default, a timer). A task whose program turns out to be built with pvmmon-cc (its
 * static tables register in its own constructors, after this library's) drops it all
 * at registration under "auto" (sampler__start).
 */
__attribute__((constructor)) static void sample_early(void)
{
	int autom;
	uint32_t hz = rate_wanted(&autom);

	pthread_atfork(NULL, NULL, after_fork);
	if (hz)
		start(hz);
}

int sampler__start(void)
{
	int autom;
	uint32_t hz = rate_wanted(&autom);

	/* pvmmon ctl sample, before this task registered: it says. */
	if (st.ctl_set)
		hz = st.ctl_hz;
	else if (autom && hooks__records_static_tables() > 0)
		hz = 0;
	/* Not to sample: the samples taken before registration (a pvmmon-cc build's, or
	 * before a `ctl sample off`) are not reported either. */
	if (!hz)
		drop();
	else if (!st.on || st.hz != hz)
		start(hz);
	return 0;
}

void sampler__welcome(int ctl_set, uint32_t hz)
{
	st.ctl_set = ctl_set;
	st.ctl_hz = hz;
}

void sampler__set(uint32_t hz)
{
	/* Off disarms the timer; the tree stays, with what it counted while on. */
	if (hz)
		start(hz);
	else if (st.on)
		arm(0);
}

pvmmon_log_samples *sampler__samples(void)
{
	if (!st.on)
		return NULL;
	pvmmon_log_samples_free(st.last);
	/* The modules as they are now (the program may have loaded some since). */
	sampletree__modules_clear();
	st.last = sampletree__export(&st.tree, st.hz, sampletree__where);
	return st.last;
}

int64_t sampler__cost_ns(void) { return st.tree.cost_ns; }

void sampler__stop(void)
{
	if (st.have_timer) {
		timer_delete(st.timer);
		st.have_timer = 0;
	}
}
