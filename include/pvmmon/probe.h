/*
 * The probe API that instrumented code calls: procedure entry/exit and loop entry/exit.
 * pvmmon-cc inserts these calls; programs may also call them by hand. Calls are cheap
 * no-ops when the program runs without a monitor.
 *
 * A site is a static object of the calling code (never freed); the library keeps only
 * a pointer to it. The PVMMON_PROC_* / PVMMON_LOOP_* macros declare one per use.
 *
 * This header includes no system header: pvmmon-cc puts it before the user's first
 * line, where a system header would fix feature macros (_GNU_SOURCE, ...) too early.
 */
#ifndef PVMMON_PROBE_H
#define PVMMON_PROBE_H

#include "pvmmon/common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum pvmmon_probe_kind {
	PVMMON_PROBE_PROC = 1,
	PVMMON_PROBE_LOOP = 2,
} pvmmon_probe_kind;

typedef struct pvmmon_probe_site {
	const char *name; /* procedure name, or a loop's label */
	const char *file;
	int line;
	pvmmon_probe_kind kind;
	volatile int enabled; /* 1 unless the monitor switched the site off */
	int slot;             /* the library's record index, -1 until first use */
	int seen;             /* the library knows the site (0 until its first probe) */
	/* A procedure's site whose loops' sites follow it in one array (pvmmon-cc's split
	 * procedures): how many. The library then learns them with the procedure, so that
	 * a loop never entered is switched with the rest. 0 otherwise. */
	int group;
	/* Calls made while the site was off: the inline scope tests and a split
	 * procedure's dispatcher count them (an increment), so that a throttled site keeps
	 * an exact count without its probes. */
	unsigned long off;
} pvmmon_probe_site;

#define PVMMON_PROBE_SITE_INIT(name, kind) {(name), __FILE__, __LINE__, (kind), 1, -1, 0, 0, 0}

/* The probes are called through the GOT, not a PLT stub: one jump less a probe (GCC's
 * noplt; a program links them from libpvmhooks.so at start either way). */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define PVMMON__NOPLT __attribute__((noplt))
#else
#define PVMMON__NOPLT
#endif

PVMMON_EXTERN PVMMON__NOPLT void pvmmon_probe_proc_enter(pvmmon_probe_site *site);

/*
 * 1 when nobody will ever monitor this process (run directly, or under `pvmmon run
 * --raw`): its probes would only switch themselves off. pvmmon-cc's files ask from
 * their constructors and then run their procedures' plain copies, which call one
 * another directly, as the program was written. Decides it if no probe did yet.
 */
PVMMON_EXTERN int pvmmon_probe_unwatched(void);

/*
 * 1 unless the run keeps every probe timed (`pvmmon run --no-throttle`, PVMMON_THROTTLE
 * 0): pvmmon-cc's files ask from their constructors and then count their small
 * straight-line procedures instead of timing them, from the start (the run's
 * throttling would demote them after 1024 calls).
 */
PVMMON_EXTERN int pvmmon_probe_counting(void);

/*
 * The source line of the call statement being made, which the next procedure entry
 * takes (and clears) to key its proc record by call site. pvmmon-cc writes a call
 * `f(x)` on line 12 as `(pvmmon_call_at_(12), f(x))`: a call of pvmmon_call_at_, not
 * an assignment, because two calls in one expression (`f(g(x))`, `f() + g()`) would
 * make two unsequenced stores to one object, which C leaves undefined (gcc warns with
 * -Wsequence-point); two function calls are sequenced one after the other. Inlined,
 * it is the one store.
 */
PVMMON_EXTERN extern int pvmmon_call_line;
static __inline__ __attribute__((always_inline, unused)) void pvmmon_call_at_(int line)
{
	pvmmon_call_line = line;
}
PVMMON_EXTERN PVMMON__NOPLT void pvmmon_probe_proc_exit(pvmmon_probe_site *site);
PVMMON_EXTERN PVMMON__NOPLT void pvmmon_probe_loop_enter(pvmmon_probe_site *site);
PVMMON_EXTERN PVMMON__NOPLT void pvmmon_probe_loop_exit(pvmmon_probe_site *site);

/* Hand instrumentation: PVMMON_PROC_ENTER("solve"); ... PVMMON_PROC_EXIT(); in the
 * same scope, and likewise for loops. */
#define PVMMON_PROC_ENTER(name)                                                           \
	static pvmmon_probe_site pvmmon_proc_site_ =                                      \
	    PVMMON_PROBE_SITE_INIT(name, PVMMON_PROBE_PROC);                              \
	pvmmon_probe_proc_enter(&pvmmon_proc_site_)
#define PVMMON_PROC_EXIT() pvmmon_probe_proc_exit(&pvmmon_proc_site_)
#define PVMMON_LOOP_ENTER(name)                                                           \
	static pvmmon_probe_site pvmmon_loop_site_ =                                      \
	    PVMMON_PROBE_SITE_INIT(name, PVMMON_PROBE_LOOP);                              \
	pvmmon_probe_loop_enter(&pvmmon_loop_site_)
#define PVMMON_LOOP_EXIT() pvmmon_probe_loop_exit(&pvmmon_loop_site_)

/*
 * Static tables (seed 000 Figure 9): pvmmon-cc emits one table per translation unit and
 * registers it from a constructor. kind is a pvmmon_static_kind of pvmmon/log.h (1 proc,
 * 2 loop, 3 com, 4 call); parent is the index of the enclosing procedure or loop in the
 * same table (always smaller than the entry's own index), or -1. The library keeps a
 * pointer to entries and file, which must be static.
 */
typedef struct pvmmon_static_entry {
	int kind;
	const char *name;
	int line;
	int parent;
	/* For a procedure that is counted instead of timed: its call counter. */
	unsigned long *count;
} pvmmon_static_entry;

PVMMON_EXTERN void pvmmon_static_register(const char *file, const pvmmon_static_entry *entries,
                                          int n);

/*
 * Scoped probes, as pvmmon-cc inserts them: the exit probe runs when the enclosing
 * block is left by any path (end of block, return, break, goto), through GCC's cleanup
 * attribute, so no return statement has to be rewritten. `line` is the source line of
 * the procedure or loop. The scope's variable holds the site only when the entry
 * probe ran, so that a site switched on or off in between never gets an exit without
 * its entry.
 */
static inline void pvmmon__proc_leave(pvmmon_probe_site **site)
{
	if (*site)
		pvmmon_probe_proc_exit(*site);
}

static inline void pvmmon__loop_leave(pvmmon_probe_site **site)
{
	if (*site)
		pvmmon_probe_loop_exit(*site);
}

/* The enable flag is tested here, inline, so a disabled site costs a load and a branch.
 * Each scope's names are made unique (__COUNTER__): a loop inside a loop would
 * otherwise declare names that shadow the outer's, which -Wshadow reports. */
#define PVMMON__CAT2(a, b) a##b
#define PVMMON__CAT(a, b) PVMMON__CAT2(a, b)
#define PVMMON_PROC_SCOPE(name, line) PVMMON__PROC_SCOPE_N(name, line, __COUNTER__)
#define PVMMON__PROC_SCOPE_N(name, line, n)                                                        \
	static pvmmon_probe_site PVMMON__CAT(pvmmon_proc_scope_site_, n) = {                       \
	    (name), __FILE__, (line), PVMMON_PROBE_PROC, 1, -1, 0, 0, 0};                          \
	PVMMON__PROC_SCOPE_AT(PVMMON__CAT(pvmmon_proc_scope_site_, n))
#define PVMMON_LOOP_SCOPE(name, line) PVMMON__LOOP_SCOPE_N(name, line, __COUNTER__)
#define PVMMON__LOOP_SCOPE_N(name, line, n)                                                        \
	static pvmmon_probe_site PVMMON__CAT(pvmmon_loop_scope_site_, n) = {                       \
	    (name), __FILE__, (line), PVMMON_PROBE_LOOP, 1, -1, 0, 0, 0};                          \
	PVMMON__LOOP_SCOPE_AT(PVMMON__CAT(pvmmon_loop_scope_site_, n))
/* The scopes on a site declared elsewhere (the library's calibration times these, so
 * that it measures the very code pvmmon-cc inserts). */
#define PVMMON__PROC_SCOPE_AT(site) PVMMON__PROC_SCOPE_AT_N(site, __COUNTER__)
#define PVMMON__PROC_SCOPE_AT_N(site, n)                                                           \
	pvmmon_probe_site *PVMMON__CAT(pvmmon_proc_scope_, n)                                      \
	    __attribute__((cleanup(pvmmon__proc_leave))) =                                         \
	        ((site).enabled ? (pvmmon_probe_proc_enter(&(site)), &(site))                      \
	                        : (++(site).off, (pvmmon_probe_site *)0))
#define PVMMON__LOOP_SCOPE_AT(site) PVMMON__LOOP_SCOPE_AT_N(site, __COUNTER__)
#define PVMMON__LOOP_SCOPE_AT_N(site, n)                                                           \
	pvmmon_probe_site *PVMMON__CAT(pvmmon_loop_scope_, n)                                      \
	    __attribute__((cleanup(pvmmon__loop_leave))) =                                         \
	        ((site).enabled ? (pvmmon_probe_loop_enter(&(site)), &(site))                      \
	                        : (++(site).off, (pvmmon_probe_site *)0))

/*
 * A leaf procedure (no calls, no loops: straight-line code that takes a few
 * nanoseconds) is counted rather than timed, since a timing probe pair would cost more
 * than the procedure. pvmmon-cc gives each one a slot in a per-file counter array that
 * its static table entry points to; its time stays in its caller's exclusive time.
 */
#define PVMMON_PROC_COUNT(counter) ((void)++(counter))

#ifdef __cplusplus
}
#endif
#endif
