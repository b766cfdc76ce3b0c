/*
 * The task's core state (pvmhooks/hooks.h): its lifecycle state, identity, time origin,
 * virtual clock and counters, owned here and read and changed through these functions; and the
 * growth of the record arrays (hooks__ensure).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "hooks.h"
#include "pvmmon/errors.h"

/* The task's core state; each feature's own is static in the feature's file. */
static struct {
	hooks_state_kind state;
	int mytid;
	uint64_t token; /* the run's token (mailbox): piggybacks carry it */
	uint32_t index; /* the monitor's number for this task */
	char *lid;      /* its logical id, from the welcome (heap) */
	int64_t start;  /* real time of initialisation: the task's time origin */
	hooks_counts counts;
	/* Wrapped calls begun so far (nested ones, made by message handlers, included)
	 * and the op of the last one: where a message handler's delivery happened. */
	uint64_t ncalls;
	hooks_op cur_op;
	void *cur_site; /* the last wrapped call's site: where a fatal signal found it */
	void *send_site; /* the last send's site: a task that exits without pvm_exit may
	                  * lose that message */
	pid_t pid;       /* the process that registered (a child after fork is not it) */
	int earlier_tid; /* its tid before it called pvm_exit and enrolled again (0: none) */
	hooks_runtime_ops runtime;  /* the runtime's functions (hooks__set_runtime) */
	void (*refresh_probes)(void); /* the probes' refresh (hooks__watch_probes) */
} st;

const hooks_state_kind *const hooks__state_at = &st.state;
/* The task's virtual clock, outside st: the probes address it directly. */
vclock hooks__vclock;

/* The process's pid from the kernel, not through sources.c's getpid (the program's,
 * recorded and replayed; pvmmon's own reads pass through it to libc's, which asks the
 * kernel the same). */
int hooks__pid(void) { return (int)syscall(SYS_getpid); }

void hooks__set_state(hooks_state_kind state)
{
	st.state = state;
	/* The probes' common case is an active task's. */
	hooks__refresh_probes();
}

void hooks__watch_probes(void (*refresh)(void)) { st.refresh_probes = refresh; }

void hooks__refresh_probes(void)
{
	if (st.refresh_probes)
		st.refresh_probes();
}

void hooks__set_runtime(const hooks_runtime_ops *ops) { st.runtime = *ops; }

int hooks__activate(void) { return st.runtime.activate ? st.runtime.activate() : 0; }

void hooks__probe_enrol(void)
{
	if (st.runtime.probe_enrol)
		st.runtime.probe_enrol();
}

int hooks__probe_unwatched(void)
{
	return st.runtime.probe_unwatched ? st.runtime.probe_unwatched() : 0;
}

int hooks__mytid(void) { return st.mytid; }

uint32_t hooks__index(void) { return st.index; }

uint64_t hooks__token(void) { return st.token; }

const char *hooks__lid(void) { return st.lid; }

int64_t hooks__start(void) { return st.start; }

void hooks__set_task(int mytid, uint64_t token)
{
	st.mytid = mytid;
	st.token = token;
	st.pid = hooks__pid();
}

int hooks__registered_here(void) { return st.pid == hooks__pid(); }

void hooks__note_send(void *site) { st.send_site = site; }

void hooks__set_earlier_tid(int tid) { st.earlier_tid = tid; }

int hooks__earlier_tid(void) { return st.earlier_tid; }

void *hooks__send_site(void) { return st.send_site; }

void hooks__set_identity(uint32_t index, char *lid)
{
	st.index = index;
	free(st.lid);
	st.lid = lid;
}

void hooks__count_bad(void) { st.counts.pb_bad++; }

void hooks__count_sent(int n, int bytes)
{
	st.counts.msgs_sent += (uint64_t)n;
	st.counts.bytes_sent += (uint64_t)bytes * (uint64_t)n;
}

void hooks__count_recv(int bytes)
{
	st.counts.msgs_recv++;
	st.counts.bytes_recv += (uint64_t)bytes;
}

void hooks__count_unmonitored(void) { st.counts.unmonitored_recv++; }

void hooks__count_flush(void) { st.counts.flushes++; }

const hooks_counts *hooks__counts(void) { return &st.counts; }

void hooks__counts_restart(void)
{
	memset(&st.counts, 0, sizeof(st.counts));
	st.send_site = NULL;
}

uint64_t hooks__ncalls(void) { return st.ncalls; }

hooks_op hooks__cur_op(void) { return st.cur_op; }

void hooks__count_call(hooks_op op, void *site)
{
	st.ncalls++;
	st.cur_op = op;
	st.cur_site = site;
}

void *hooks__cur_site(void) { return st.cur_site; }

void hooks__set_start(int64_t t) { st.start = t; }

void hooks__set_cur_op(hooks_op op) { st.cur_op = op; }

HOOKS_TLS int hooks__guard;
HOOKS_TLS int hooks__in_pvm;

int hooks__ensure(void **arr, size_t *cap, size_t n, size_t size)
{
	size_t c;
	void *a;

	if (n <= *cap)
		return 0;
	c = *cap ? *cap * 2 : 16;
	while (c < n)
		c *= 2;
	a = realloc(*arr, c * size);
	if (!a)
		return PVMMON_ENOMEM;
	memset((char *)a + *cap * size, 0, (c - *cap) * size);
	*arr = a;
	*cap = c;
	return 0;
}
