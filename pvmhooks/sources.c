/*
 * Record and replay of the per-run values a program reads through the C library:
 * gettimeofday, time, clock_gettime, getpid / getppid and getrandom are interposed here (the
 * preloaded library and pvmmon-cc builds both come before libc), so that a program
 * that seeds rand() from the clock or its pid takes the recorded course in a replay.
 *
 * In a plain run (not recording, not replaying) each call costs one test of a global
 * and the call through the pointer to libc's function. pvmmon's own reads never come
 * here: common/clock.h reads the clock through pvmmon__clock_real (libc's, fetched
 * below), and pvmmon's other calls run under hooks__guard, which passes through, as
 * do calls from PVM's libraries' code and from other threads.
 */
#include <dlfcn.h>
#include <inttypes.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "../common/clock.h"
#include "hooks.h"
#include "pvmmon/errors.h"
#include "rr.h"
#include "sources.h"

typedef int (*gtod_fn)(struct timeval *, void *);
typedef time_t (*time_fn)(time_t *);
typedef int (*cgt_fn)(clockid_t, struct timespec *);
typedef pid_t (*pid_fn)(void);
typedef ssize_t (*rnd_fn)(void *, size_t, unsigned);

static gtod_fn real_gtod;
static time_fn real_time;
static cgt_fn real_cgt;
static pid_fn real_getpid, real_getppid;
static rnd_fn real_getrandom;

/* Set when the interposed calls must look further: pvmmon run or replay said the task
 * records (PVMMON_RR, before it registers), or the welcome did. */
static int armed;
/* Set in the thread that loaded the library (the program's main thread): reads from
 * other threads pass through, since their order is not the program's to replay. */
static __thread int main_thread;

/* The reads a replay returns, in order, with their event numbers. */
static replay_entry *want;
static uint64_t *want_no;
static size_t nwant, cap_want, cap_no, next;

/* The code of PVM's own libraries (libpvm3, libgpvm3, libfpvm3) and of this one:
 * libpvm3 reads the clock in calls the program makes unwrapped (and in as many as
 * timing decides), so its reads are PVM's, never the program's; pvmmon's own are
 * under the guard, and by their address too should one run outside it. */
#define MAX_PVM_LIBS 12
static struct {
	uintptr_t lo, hi;
} pvm_libs[MAX_PVM_LIBS];
static int npvm_libs, pvm_libs_found;
/* Whether the executable links libpvm3 (or libpvmhooks, pvmmon-cc builds) itself:
 * only a PVM program registers at a read before its first PVM call; a shell that
 * pvmmon runs to start the program has libpvm3 loaded (libpvmhooks needs it) but must
 * not enrol in PVM. */
static int pvm_loaded;

/* Whether the object's dynamic section names libpvm3 or libpvmhooks as needed. */
static int needs_pvm(const struct dl_phdr_info *info)
{
	const ElfW(Dyn) *dyn = NULL;
	const char *strtab = NULL;

	for (int i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
			dyn = (const ElfW(Dyn) *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
	for (const ElfW(Dyn) *d = dyn; d && d->d_tag != DT_NULL; d++)
		if (d->d_tag == DT_STRTAB)
			/* ld.so relocated it in place (x86-64), unless it could not. */
			strtab = (const char *)(d->d_un.d_ptr < info->dlpi_addr
			                            ? info->dlpi_addr + d->d_un.d_ptr
			                            : d->d_un.d_ptr);
	for (const ElfW(Dyn) *d = dyn; strtab && d && d->d_tag != DT_NULL; d++)
		if (d->d_tag == DT_NEEDED && (!strncmp(strtab + d->d_un.d_val, "libpvm3.", 8) ||
		                              !strncmp(strtab + d->d_un.d_val, "libpvmhooks", 11)))
			return 1;
	return 0;
}

/*
 * A sanitizer's runtime (make check-asan) reads the clock inside its allocator, with its
 * lock held: such a read must pass straight through, since recording it (or enrolling
 * the task at it) allocates and would wait for that lock forever. The program's own
 * reads reach us through the sanitizer's interceptors from the same library, so under
 * a sanitizer no clock read is recorded or replayed (doc/user-guide.md).
 */
static int sanitizer_runtime(const char *base)
{
	return !strncmp(base, "libasan.", 8) || !strncmp(base, "libubsan.", 9) ||
	       !strncmp(base, "liblsan.", 8) || !strncmp(base, "libtsan.", 8) ||
	       !strncmp(base, "libclang_rt.", 12);
}

static int find_pvm_lib(struct dl_phdr_info *info, size_t size, void *ctx)
{
	const char *name = info->dlpi_name, *base = name ? strrchr(name, '/') : NULL;
	uintptr_t lo = UINTPTR_MAX, hi = 0;

	(void)size;
	(void)ctx;
	/* The executable comes first, with no name. */
	if (name && !*name && !pvm_libs_found++)
		pvm_loaded = needs_pvm(info);
	base = base ? base + 1 : name;
	if (!base || npvm_libs == MAX_PVM_LIBS ||
	    (strncmp(base, "libpvm3.", 8) && strncmp(base, "libgpvm3.", 9) &&
	     strncmp(base, "libfpvm3.", 9) && strncmp(base, "libpvmhooks", 11) &&
	     !sanitizer_runtime(base)))
		return 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
			continue;
		if (info->dlpi_addr + ph->p_vaddr < lo)
			lo = info->dlpi_addr + ph->p_vaddr;
		if (info->dlpi_addr + ph->p_vaddr + ph->p_memsz > hi)
			hi = info->dlpi_addr + ph->p_vaddr + ph->p_memsz;
	}
	if (lo < hi) {
		pvm_libs[npvm_libs].lo = lo;
		pvm_libs[npvm_libs++].hi = hi;
	}
	return 0;
}

static int from_pvm(void *site)
{
	if (!pvm_libs_found) {
		dl_iterate_phdr(find_pvm_lib, NULL);
		pvm_libs_found = 1;
	}
	for (int i = 0; i < npvm_libs; i++)
		if ((uintptr_t)site >= pvm_libs[i].lo && (uintptr_t)site < pvm_libs[i].hi)
			return 1;
	return 0;
}

static void resolve(void)
{
	real_gtod = (gtod_fn)dlsym(RTLD_NEXT, "gettimeofday");
	real_time = (time_fn)dlsym(RTLD_NEXT, "time");
	real_cgt = (cgt_fn)dlsym(RTLD_NEXT, "clock_gettime");
	real_getpid = (pid_fn)dlsym(RTLD_NEXT, "getpid");
	real_getppid = (pid_fn)dlsym(RTLD_NEXT, "getppid");
	real_getrandom = (rnd_fn)dlsym(RTLD_NEXT, "getrandom");
	/* pvmmon's own clock reads go straight to libc from now on. */
	pvmmon__clock_real = real_cgt;
}

__attribute__((constructor)) static void sources_init(void)
{
	const char *rr = getenv("PVMMON_RR");

	main_thread = 1;
	resolve();
	/* The libraries are known now, not at the first read: that read may come from
	 * inside an allocator (a sanitizer's), where walking them is not safe. */
	from_pvm(NULL);
	armed = rr && *rr && strcmp(rr, "0") != 0;
}

void hooks__src_arm(void) { armed = 1; }

void hooks__src_disarm(void)
{
	armed = 0;
	nwant = next = 0;
}

int hooks__src_load(const replay_entry *e, uint64_t no)
{
	if (hooks__ensure((void **)&want, &cap_want, nwant + 1, sizeof(*want)) < 0 ||
	    hooks__ensure((void **)&want_no, &cap_no, nwant + 1, sizeof(*want_no)) < 0)
		return PVMMON_ENOMEM;
	want[nwant] = *e;
	want_no[nwant++] = no;
	return 0;
}

size_t hooks__src_count(void) { return nwant; }

void hooks__src_final(void)
{
	char obs[160];

	if (next >= nwant)
		return;
	snprintf(obs, sizeof(obs), "the task ended with %zu recorded %s left", nwant - next,
	         nwant - next == 1 ? "read" : "reads");
	hooks__rr_diverge_source(NULL, replay__source_name(want[next].op), want_no[next],
	                         &want[next], obs);
	next++;
}

/*
 * Whether this read is the program's to record or replay: armed, in the main thread,
 * outside pvmmon's own code, and the task registered (a task told to record by
 * PVMMON_RR registers at its first read, so that a replay has its record before the
 * program sees a value; a recording does the same, so that both runs enrol alike).
 */
static int mine(void *site)
{
	if (hooks__guard || !main_thread || from_pvm(site))
		return 0;
	if (hooks__rr_mode() == HOOKS_RR_OFF && (!pvm_loaded || !hooks__activate()))
		return 0;
	/* After pvm_exit (or its final flush at exit) nothing more reaches the record, so
	 * neither run takes a read then. */
	return hooks__rr_mode() != HOOKS_RR_OFF && hooks__state() == HOOKS_ACTIVE;
}

/*
 * The program read `got` from source src (the real value, or in a replay a value
 * nobody may see): returns what the program gets, the recorded reading in a replay,
 * and appends it to this run's record.
 */
static int64_t take(unsigned src, int64_t got, void *site)
{
	replay_entry e;
	char obs[160];

	memset(&e, 0, sizeof(e));
	e.op = (uint8_t)src;
	e.kind = REPLAY_SOURCE;
	e.reading = got;
	hooks__guard = 1;
	if (hooks__rr_mode() == HOOKS_RR_REPLAY) {
		if (next >= nwant || want[next].op != src) {
			snprintf(obs, sizeof(obs), "a call of %s", replay__source_name(src));
			hooks__rr_diverge_source(site, replay__source_name(src),
			                         next < nwant ? want_no[next] : 0,
			                         next < nwant ? &want[next] : NULL, obs);
			/* Going on (--on-divergence=continue-recording): the real value. */
			if (next < nwant)
				next++;
		} else {
			hooks__rr_stop_source(site, want_no[next]);
			e.reading = want[next++].reading;
		}
	}
	hooks__rr_add(&e);
	hooks__guard = 0;
	return e.reading;
}

/* A replay needs no real value, but the call still fills what the caller gave (the
 * time zone) and costs what it did. */
__attribute__((noinline)) static int gtod_slow(struct timeval *tv, void *tz, void *site)
{
	int rc = real_gtod(tv, tz);
	int64_t us;

	if (rc != 0 || !tv || !mine(site))
		return rc;
	us = take(REPLAY_SRC_GETTIMEOFDAY, (int64_t)tv->tv_sec * 1000000 + tv->tv_usec, site);
	tv->tv_sec = (time_t)(us / 1000000);
	tv->tv_usec = (suseconds_t)(us % 1000000);
	return 0;
}

__attribute__((visibility("default"))) int gettimeofday(struct timeval *tv, void *tz)
{
	if (__builtin_expect(!real_gtod, 0))
		resolve();
	/* pvmmon's own code (a wrapper and the PVM call inside it) is never the
	 * program's: no look further. */
	if (__builtin_expect(!armed || hooks__guard, 1))
		return real_gtod(tv, tz);
	return gtod_slow(tv, tz, __builtin_return_address(0));
}

__attribute__((noinline)) static time_t time_slow(time_t *t, void *site)
{
	time_t now = real_time(NULL);

	if (now != (time_t)-1 && mine(site))
		now = (time_t)take(REPLAY_SRC_TIME, (int64_t)now, site);
	if (t)
		*t = now;
	return now;
}

__attribute__((visibility("default"))) time_t time(time_t *t)
{
	if (__builtin_expect(!real_time, 0))
		resolve();
	if (__builtin_expect(!armed || hooks__guard, 1))
		return real_time(t);
	return time_slow(t, __builtin_return_address(0));
}

__attribute__((noinline)) static int cgt_slow(clockid_t id, struct timespec *ts, void *site)
{
	int rc = real_cgt(id, ts);
	int64_t ns;

	/* The CPU-time clocks (process and thread, ids 2 and 3, and negative ids naming
	 * other processes' or threads') measure the program's own work: not replayed. */
	if (rc != 0 || !ts || id < 0 || id >= REPLAY_SRC_END - REPLAY_SRC_CLOCK || id == 2 ||
	    id == 3 || !mine(site))
		return rc;
	ns = take(REPLAY_SRC_CLOCK + (unsigned)id, (int64_t)ts->tv_sec * 1000000000 + ts->tv_nsec,
	          site);
	ts->tv_sec = (time_t)(ns / 1000000000);
	ts->tv_nsec = (long)(ns % 1000000000);
	return 0;
}

__attribute__((visibility("default"))) int clock_gettime(clockid_t id, struct timespec *ts)
{
	if (__builtin_expect(!real_cgt, 0))
		resolve();
	if (__builtin_expect(!armed || hooks__guard, 1))
		return real_cgt(id, ts);
	return cgt_slow(id, ts, __builtin_return_address(0));
}

__attribute__((noinline)) static pid_t pid_slow(unsigned src, pid_t got, void *site)
{
	return mine(site) ? (pid_t)take(src, got, site) : got;
}

__attribute__((visibility("default"))) pid_t getpid(void)
{
	if (__builtin_expect(!real_getpid, 0))
		resolve();
	if (__builtin_expect(!armed, 1))
		return real_getpid();
	return pid_slow(REPLAY_SRC_GETPID, real_getpid(), __builtin_return_address(0));
}

__attribute__((visibility("default"))) pid_t getppid(void)
{
	if (__builtin_expect(!real_getppid, 0))
		resolve();
	if (__builtin_expect(!armed, 1))
		return real_getppid();
	return pid_slow(REPLAY_SRC_GETPPID, real_getppid(), __builtin_return_address(0));
}

/*
 * getrandom: the count of bytes, then the bytes 8 at a time, each a read of its own. A
 * replay gives the recorded bytes (a recorded count above what the caller asked for
 * is a divergence, and the real bytes then).
 */
__attribute__((noinline)) static ssize_t rnd_slow(void *buf, size_t len, unsigned flags, void *site)
{
	ssize_t rc = real_getrandom(buf, len, flags);
	int64_t n, chunk;

	if (rc <= 0 || !mine(site))
		return rc;
	n = take(REPLAY_SRC_GETRANDOM, rc, site);
	if (n < 0 || (size_t)n > len) {
		char obs[160];

		snprintf(obs, sizeof(obs), "getrandom asked for %zu bytes, fewer than recorded",
		         len);
		hooks__guard = 1;
		hooks__rr_diverge_source(site, "getrandom", 0, NULL, obs);
		hooks__guard = 0;
		return rc;
	}
	for (int64_t i = 0; i < n; i += 8) {
		size_t k = n - i < 8 ? (size_t)(n - i) : 8;

		chunk = 0;
		if (i < rc)
			memcpy(&chunk, (char *)buf + i,
			       i + (int64_t)k <= rc ? k : (size_t)(rc - i));
		chunk = take(REPLAY_SRC_RANDOM_BYTES, chunk, site);
		memcpy((char *)buf + i, &chunk, k);
	}
	return (ssize_t)n;
}

__attribute__((visibility("default"))) ssize_t getrandom(void *buf, size_t len, unsigned flags)
{
	if (__builtin_expect(!real_getrandom, 0))
		resolve();
	if (__builtin_expect(!armed, 1))
		return real_getrandom(buf, len, flags);
	return rnd_slow(buf, len, flags, __builtin_return_address(0));
}
