/* Small logs built in memory for the export unit tests (logbuild.h). */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "logbuild.h"

/* Grows the array at *p of *n elements of size sz by one zeroed element; its address. */
static void *grow(void *p, size_t *n, size_t sz)
{
	char *q = realloc(*(void **)p, (*n + 1) * sz);

	CU_ASSERT_PTR_NOT_NULL_FATAL(q);
	memset(q + *n * sz, 0, sz);
	*(void **)p = q;
	return q + (*n)++ * sz;
}

static char *dup_or_null(const char *s)
{
	char *d = s ? strdup(s) : NULL;

	CU_ASSERT_FATAL(!s || d);
	return d;
}

pvmmon_log *logbuild_new(void)
{
	pvmmon_log *log = NULL;

	CU_ASSERT_EQUAL_FATAL(pvmmon_log_new(&log), 0);
	return log;
}

void logbuild_host(pvmmon_log *log, const char *name)
{
	pvmmon_log_host *h = grow(&log->hosts, &log->nhosts, sizeof(*h));

	h->name = dup_or_null(name);
}

size_t logbuild_task(pvmmon_log *log, int32_t tid, const char *lid, const char *host)
{
	pvmmon_log_task *t = grow(&log->tasks, &log->ntasks, sizeof(*t));

	t->tid = tid;
	t->lid = dup_or_null(lid);
	t->host = dup_or_null(host);
	return log->ntasks - 1;
}

void logbuild_event(pvmmon_log *log, size_t i, pvmmon_event_op op, int32_t peer, int32_t tag,
                    uint32_t bytes, int64_t seq, int64_t vt0, int64_t vt1, int64_t rt1, int64_t rt2)
{
	pvmmon_log_task *t = &log->tasks[i];
	pvmmon_log_event *e = grow(&t->events, &t->nevents, sizeof(*e));

	e->op = op;
	e->peer = peer;
	e->tag = tag;
	e->bytes = bytes;
	e->seq = seq;
	e->vt0 = vt0;
	e->vt1 = vt1;
	e->rt[0] = rt1;
	e->rt[1] = rt1;
	e->rt[2] = rt2;
	e->rt[3] = rt2;
}

void logbuild_stmt(pvmmon_log *log, size_t i, const char *op, const char *file, int32_t line,
                   const char *module, uint64_t offset, uint64_t count, int64_t time_ns,
                   uint64_t bytes)
{
	pvmmon_log_task *t = &log->tasks[i];
	pvmmon_log_stmt *s = grow(&t->stmts, &t->nstmts, sizeof(*s));

	s->id = (uint32_t)(t->nstmts - 1);
	s->op = dup_or_null(op);
	s->file = dup_or_null(file);
	s->line = line;
	s->module = dup_or_null(module);
	s->offset = offset;
	s->count = count;
	s->time_ns = time_ns;
	s->bytes = bytes;
}

void logbuild_proc(pvmmon_log *log, size_t i, const char *name, const char *file, int32_t line,
                   uint64_t count, int64_t incl_ns, int64_t raw_incl_ns)
{
	pvmmon_log_task *t = &log->tasks[i];
	pvmmon_log_proc *p = grow(&t->procs, &t->nprocs, sizeof(*p));

	p->name = dup_or_null(name);
	p->file = dup_or_null(file);
	p->line = line;
	p->count = count;
	p->incl_ns = incl_ns;
	p->excl_ns = incl_ns;
	p->raw_incl_ns = raw_incl_ns;
	p->raw_excl_ns = raw_incl_ns;
}

void logbuild_loop(pvmmon_log *log, size_t i, const char *name, const char *file, int32_t line,
                   uint64_t count, int64_t time_ns, int64_t raw_ns)
{
	pvmmon_log_task *t = &log->tasks[i];
	pvmmon_log_loop *l = grow(&t->loops, &t->nloops, sizeof(*l));

	l->name = dup_or_null(name);
	l->file = dup_or_null(file);
	l->line = line;
	l->count = count;
	l->time_ns = time_ns;
	l->raw_ns = raw_ns;
}

void logbuild_tmpdir(char *dir) { CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir)); }

static int remove_one(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)flag;
	(void)f;
	return remove(p);
}

void logbuild_remove(const char *path) { nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS); }
