/* The monitor's task table: the registered tasks in registration order, the parents'
 * spawn reports, lookups by tid, index and logical id, and sending to tasks through the
 * run's transport. It calls no other module of the monitor. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/clock.h"
#include "../common/symbols.h"
#include "pvmmon/errors.h"
#include "tasks.h"
#include "tidindex.h"

struct mon_tasks {
	mon_task *tasks;
	size_t ntasks, cap_tasks;
	mon_spawn *spawns;
	size_t nspawns, cap_spawns;
	tidindex by_tid; /* tid -> place in tasks */
};

/* Statement call sites resolve through one symbol cache for the whole run. */
static pvmmon_symbols *syms;

/* Grows *a (of *cap elements of size) to hold n + 1; 0 or PVMMON_ENOMEM. */
static int reserve(void **a, size_t *cap, size_t n, size_t size)
{
	size_t ncap;
	void *g;

	if (n < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 16;
	g = realloc(*a, ncap * size);
	if (!g)
		return PVMMON_ENOMEM;
	*a = g;
	*cap = ncap;
	return 0;
}

int tasks__add(mon_task **out, mon_run *run, int32_t tid)
{
	struct mon_tasks *tab = run->tab;
	mon_task *t;

	*out = tasks__find(run, tid);
	if (*out)
		return 0;
	if (!tab && !(tab = run->tab = calloc(1, sizeof(*tab))))
		return PVMMON_ENOMEM;
	if (reserve((void **)&tab->tasks, &tab->cap_tasks, tab->ntasks, sizeof(*tab->tasks)) < 0 ||
	    tidindex__put(&tab->by_tid, tid, tab->ntasks) < 0)
		return PVMMON_ENOMEM;
	t = &tab->tasks[tab->ntasks];
	memset(t, 0, sizeof(*t));
	t->index = (uint32_t)tab->ntasks++;
	t->rec.tid = tid;
	*out = t;
	return 0;
}

mon_task *tasks__find(const mon_run *run, int32_t tid)
{
	long i = run->tab ? tidindex__find(&run->tab->by_tid, tid) : TIDINDEX_NONE;

	return i >= 0 ? &run->tab->tasks[i] : NULL;
}

mon_task *tasks__find_lid(const mon_run *run, const char *lid)
{
	for (size_t i = 0; run->tab && lid && i < run->tab->ntasks; i++) {
		mon_task *t = &run->tab->tasks[i];

		if (t->welcomed && t->rec.lid && !strcmp(t->rec.lid, lid))
			return t;
	}
	return NULL;
}

size_t tasks__count(const mon_run *run) { return run->tab ? run->tab->ntasks : 0; }

mon_task *tasks__at(const mon_run *run, size_t index)
{
	return run->tab && index < run->tab->ntasks ? &run->tab->tasks[index] : NULL;
}

int tasks__running(const mon_task *t) { return t->welcomed && !t->gone; }

void tasks__gone(mon_task *t)
{
	t->gone = 1;
	t->gone_at = pvmmon_clock_now();
	/* A task a signal ended said so (FATAL, before its exit). Without a final flush the
	 * task died without saying goodbye. The final flush is sent before pvm_exit, so it
	 * is already here when the exit is. */
	if (t->rec.signal)
		t->rec.status = PVMMON_TASK_KILLED;
	else if (t->noexit)
		t->rec.status = PVMMON_TASK_NOEXIT;
	else
		t->rec.status = t->final ? PVMMON_TASK_EXITED : PVMMON_TASK_CRASHED;
}

int tasks__all_done(const mon_run *run)
{
	for (size_t i = 0; i < tasks__count(run); i++)
		if (!run->tab->tasks[i].gone)
			return 0;
	/* A child its parent reported spawning that has neither registered nor ended is
	 * still to come: a short task on a busy machine registers after its parent (and
	 * everyone else) has ended, and its records would be lost. */
	for (size_t i = 0; i < tasks__spawn_count(run); i++) {
		const mon_spawn *sp = &run->tab->spawns[i];

		if (sp->exit_asked && !sp->exited && !tasks__find(run, sp->child))
			return 0;
	}
	return 1;
}

int tasks__spawn_exited(mon_run *run, int32_t child)
{
	int found = 0;

	for (size_t i = 0; i < tasks__spawn_count(run); i++)
		if (run->tab->spawns[i].child == child) {
			run->tab->spawns[i].exited = 1;
			found = 1;
		}
	return found;
}

int tasks__spawn_exit_asked(const mon_run *run, int32_t child)
{
	for (size_t i = 0; i < tasks__spawn_count(run); i++)
		if (run->tab->spawns[i].child == child && run->tab->spawns[i].exit_asked)
			return 1;
	return 0;
}

int tasks__spawn_add(mon_run *run, const mon_spawn *sp)
{
	struct mon_tasks *tab = run->tab;

	if (!tab && !(tab = run->tab = calloc(1, sizeof(*tab))))
		return PVMMON_ENOMEM;
	if (reserve((void **)&tab->spawns, &tab->cap_spawns, tab->nspawns, sizeof(*sp)) < 0)
		return PVMMON_ENOMEM;
	tab->spawns[tab->nspawns++] = *sp;
	return 0;
}

const mon_spawn *tasks__spawn_of(const mon_run *run, const mon_task *t)
{
	for (size_t i = 0; i < tasks__spawn_count(run); i++) {
		const mon_spawn *sp = &run->tab->spawns[i];

		if (sp->child == t->rec.tid && sp->parent == t->rec.parent_tid)
			return sp;
	}
	return NULL;
}

size_t tasks__spawn_count(const mon_run *run) { return run->tab ? run->tab->nspawns : 0; }

const mon_spawn *tasks__spawn_at(const mon_run *run, size_t i)
{
	return run->tab && i < run->tab->nspawns ? &run->tab->spawns[i] : NULL;
}

int tasks__send(const mon_run *run, int32_t tid, int tag, const wire_buf *b)
{
	if (b->failed)
		return PVMMON_ENOMEM;
	return run->io.send(run->ctx, tid, tag, b->data, b->len);
}

void tasks__tell(const mon_run *run, const wire_ctl *c, int32_t except)
{
	wire_buf b;

	wire__buf_init(&b);
	wire__ctl_encode(&b, c);
	for (size_t i = 0; i < tasks__count(run) && !b.failed; i++) {
		const mon_task *t = &run->tab->tasks[i];

		if (tasks__running(t) && t->rec.tid != except)
			tasks__send(run, t->rec.tid, WIRE_TAG_CTL, &b);
	}
	wire__buf_free(&b);
}

void tasks__resolve_stmt(pvmmon_log_stmt *s)
{
	if (s->file || s->function || !s->module)
		return;
	if (!syms && pvmmon_symbols_new(&syms) != 0)
		return;
	pvmmon_symbols_resolve(&s->file, &s->line, &s->function, syms, s->module, s->offset);
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* The lines of t's static table that s can be (see tasks__stmt_place()) into buf;
 * 0 when none. */
static int static_place(const mon_task *t, const pvmmon_log_stmt *s, char *buf, size_t len)
{
	const pvmmon_log_stmt *own = NULL;
	pvmmon_log_task view = t->rec;
	pvmmon_log_stmt *all = NULL;
	size_t cands[32], n, used = 0;
	long e;

	for (size_t k = 0; k < t->rec.nstmts; k++)
		if (t->rec.stmts[k].offset == s->offset && t->rec.stmts[k].module &&
		    !strcmp(t->rec.stmts[k].module, s->module))
			own = &t->rec.stmts[k];
	if (!own) {
		/* Not flushed yet (the task's first time there): s joins the others. */
		all = malloc((t->rec.nstmts + 1) * sizeof(*all));
		if (!all)
			return 0;
		if (t->rec.nstmts)
			memcpy(all, t->rec.stmts, t->rec.nstmts * sizeof(*all));
		all[t->rec.nstmts] = *s;
		view.stmts = all;
		view.nstmts = t->rec.nstmts + 1;
	}
	n = pvmmon_log_stmt_candidates(&view, s, cands, 32, &e);
	if (e >= 0) {
		cands[0] = (size_t)e;
		n = 1;
	}
	for (size_t k = 0; k < n && k < 32 && used < len; k++) {
		const pvmmon_log_static *c = &t->rec.statics[cands[k]];
		int w = k ? snprintf(buf + used, len - used, ",%d", (int)c->line)
		          : snprintf(buf, len, "%s:%d", base_name(c->file ? c->file : "?"),
		                     (int)c->line);

		used += w > 0 ? (size_t)w : 0;
	}
	if (n > 32 && used < len)
		snprintf(buf + used, len - used, ",...");
	free(all);
	return n > 0;
}

int tasks__stmt_place(const mon_run *run, int32_t tid, pvmmon_log_stmt *s, char *buf, size_t len)
{
	mon_task *t = tasks__find(run, tid);

	tasks__resolve_stmt(s);
	if (s->file && s->line > 0) {
		snprintf(buf, len, "%s:%d", s->file, (int)s->line);
		return 1;
	}
	if (t && t->rec.nstatics && s->module) {
		/* The table is matched against the task's other statements of the same call
		 * in the same function: they need their functions too (writing the log would
		 * resolve them anyway), and s its call, from its record if it has none. */
		for (size_t k = 0; k < t->rec.nstmts; k++) {
			pvmmon_log_stmt *o = &t->rec.stmts[k];

			tasks__resolve_stmt(o);
			if (!s->op && o->op && o->offset == s->offset && o->module &&
			    !strcmp(o->module, s->module))
				s->op = strdup(o->op);
		}
		if (s->op && static_place(t, s, buf, len))
			return 1;
	}
	if (s->module)
		snprintf(buf, len, "%s+0x%" PRIx64, s->module, s->offset);
	else
		snprintf(buf, len, "an unknown statement");
	return 0;
}

void tasks__free(mon_run *run)
{
	struct mon_tasks *tab = run->tab;

	if (!tab)
		return;
	for (size_t i = 0; i < tab->ntasks; i++) {
		wire__task_clear(&tab->tasks[i].rec);
		free(tab->tasks[i].exe);
	}
	free(tab->tasks);
	free(tab->spawns);
	tidindex__free(&tab->by_tid);
	free(tab);
	run->tab = NULL;
}
