/*
 * The task's statement records (one per call site of a PVM call) and their com records
 * (one per partner), kept in the log model beside the proc and loop records of
 * records.c.
 */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "hooks.h"
#include "records.h"

const char *const hooks__op_names[HOOKS_OP_COUNT] = {
#define HOOKS_OP_NAME(name) #name,
    HOOKS_OPS(HOOKS_OP_NAME)
#undef HOOKS_OP_NAME
};

static size_t stmt_cap;
static ptrmap stmt_index; /* call site -> statement index + 1 */
static char *self_exe;

/* The main program's dladdr name may be relative or empty; the monitor needs a path
 * it can open, so it gets /proc/self/exe's target instead. */
static char *module_name(const char *fname)
{
	if (fname && fname[0] == '/')
		return strdup(fname);
	if (!self_exe)
		self_exe = realpath("/proc/self/exe", NULL);
	return self_exe ? strdup(self_exe) : NULL;
}

/* What the wrappers update in place of a switched-off statement's record: its values
 * are thrown away at each use (its com array is kept for reuse). */
static pvmmon_log_stmt scratch;

static pvmmon_log_stmt *use_scratch(const pvmmon_log_stmt *s)
{
	pvmmon_log_com *com = scratch.com;

	memset(&scratch, 0, sizeof(scratch));
	scratch.id = s->id;
	scratch.op = s->op;
	/* With ncom 0 the next com record reallocates the array to one entry. */
	scratch.com = com;
	return &scratch;
}

void hooks__records_stmt_switch(uint32_t id, int on)
{
	pvmmon_log_task *rec = hooks__records_task();

	if (id < rec->nstmts)
		rec->stmts[id].disabled = !on;
}

pvmmon_log_stmt *hooks__stmt(void *site, hooks_op op)
{
	pvmmon_log_task *rec = hooks__records_task();
	size_t *idx = ptrmap__find(&stmt_index, site);
	pvmmon_log_stmt *s;
	Dl_info info;

	if (idx)
		return __builtin_expect(rec->stmts[*idx].disabled, 0)
		           ? use_scratch(&rec->stmts[*idx])
		           : &rec->stmts[*idx];
	if (hooks__ensure((void **)&rec->stmts, &stmt_cap, rec->nstmts + 1, sizeof(*rec->stmts)) <
	    0)
		return NULL;
	idx = ptrmap__put(&stmt_index, site, rec->nstmts);
	if (!idx)
		return NULL;
	s = &rec->stmts[rec->nstmts];
	memset(s, 0, sizeof(*s));
	s->id = (uint32_t)rec->nstmts;
	s->op = strdup(hooks__op_names[op]);
	if (dladdr(site, &info) && info.dli_fbase) {
		s->module = module_name(info.dli_fname);
		s->offset = (uint64_t)((char *)site - (char *)info.dli_fbase);
	} else {
		s->offset = (uint64_t)(uintptr_t)site;
	}
	rec->nstmts++;
	return s;
}

int64_t hooks__records_stmt_id(const void *site)
{
	size_t *idx = ptrmap__find(&stmt_index, site);

	return idx ? (int64_t)*idx : -1;
}

pvmmon_log_com *hooks__com(pvmmon_log_stmt *stmt, int tid)
{
	size_t i;
	pvmmon_log_com *c;

	/* Statements talk to few partners; a linear scan beats a map here. */
	for (i = 0; i < stmt->ncom; i++)
		if (stmt->com[i].partner_tid == tid)
			return &stmt->com[i];
	/* Capacity doubles at powers of two, so it is derived from ncom. */
	if ((stmt->ncom & (stmt->ncom - 1)) == 0) {
		size_t cap = stmt->ncom ? stmt->ncom * 2 : 1;

		c = realloc(stmt->com, cap * sizeof(*c));
		if (!c)
			return NULL;
		stmt->com = c;
	}
	c = &stmt->com[stmt->ncom++];
	memset(c, 0, sizeof(*c));
	c->partner_tid = tid;
	return c;
}

/*
 * The accounting of a statement's record, here so that its rule is in one place (the
 * call hooks say what happened; st may be NULL: nothing is kept). A call counts once,
 * with its time; a message made inside a group call (inner) counts under the group
 * call's statement, which counts the call itself (groups.c), so its own count and time
 * are not added; each message counts with its partner's com record.
 */
void recstmt__add_call(pvmmon_log_stmt *st, int64_t time_ns)
{
	if (!st)
		return;
	st->count++;
	st->time_ns += time_ns;
}

void recstmt__add_send(pvmmon_log_stmt *st, int inner, int64_t time_ns, const int *tids, int n,
                       int bytes)
{
	if (!st)
		return;
	if (!inner) {
		st->count++;
		st->time_ns += time_ns;
	}
	st->bytes += (uint64_t)bytes * (uint64_t)n;
	for (int i = 0; i < n; i++) {
		pvmmon_log_com *c = hooks__com(st, tids[i]);

		if (c) {
			c->count++;
			c->bytes += (uint64_t)bytes;
		}
	}
}

void recstmt__add_recv(pvmmon_log_stmt *st, int inner, int bytes)
{
	if (!st)
		return;
	st->count += !inner;
	st->bytes += (uint64_t)bytes;
}

void recstmt__add_unmonitored(pvmmon_log_stmt *st, int64_t time_ns)
{
	if (!st)
		return;
	st->unmonitored++;
	st->time_ns += time_ns;
}

void recstmt__add_delivery(pvmmon_log_stmt *st, int inner, int64_t time_ns, int src, int bytes,
                           int64_t sync, int64_t trans)
{
	pvmmon_log_com *c;

	if (!st)
		return;
	if (!inner)
		st->time_ns += time_ns;
	st->sync_ns += sync;
	st->trans_ns += trans;
	c = hooks__com(st, src);
	if (c) {
		c->count++;
		c->bytes += (uint64_t)bytes;
		c->trans_ns += trans;
		c->sync_ns += sync;
	}
}

int recstmt__add_server(pvmmon_log_stmt *st, int src, int bytes, int64_t wait)
{
	pvmmon_log_com *c = st ? hooks__com(st, src) : NULL;

	if (!c)
		return 0;
	c->count++;
	c->bytes += (uint64_t)bytes;
	c->sync_ns += wait;
	st->sync_ns += wait;
	return 1;
}

void recstmt__add_held(pvmmon_log_stmt *st, int reordered, int64_t held_ns)
{
	if (!st)
		return;
	st->reordered += (uint64_t)reordered;
	st->held_ns += held_ns;
}

void hooks__records_stmt_restart(void)
{
	pvmmon_log_task *rec = hooks__records_task();

	for (size_t i = 0; i < rec->nstmts; i++) {
		pvmmon_log_stmt *s = &rec->stmts[i];

		free(s->com);
		s->com = NULL;
		s->ncom = 0;
		s->count = s->bytes = s->unmonitored = s->reordered = 0;
		s->time_ns = s->sync_ns = s->trans_ns = s->held_ns = 0;
	}
}

void hooks__records_stmt_reset(void)
{
	free(scratch.com);
	memset(&scratch, 0, sizeof(scratch));
	ptrmap__free(&stmt_index);
	stmt_cap = 0;
}
