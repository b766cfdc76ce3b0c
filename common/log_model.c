/* Creating and freeing the in-memory log model, and the small lookups around it. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pvmmon/errors.h"
#include "pvmmon/log.h"

extern const char pvmmon__schema_text[];

int pvmmon_log_new(pvmmon_log **out)
{
	pvmmon_log *log = calloc(1, sizeof(*log));

	if (!log)
		return pvmmon_error_set(PVMMON_ENOMEM, "out of memory creating a log");
	log->version_major = PVMMON_LOG_VERSION_MAJOR;
	log->version_minor = PVMMON_LOG_VERSION_MINOR;
	log->exit_code = -1;
	*out = log;
	return 0;
}

/* Frees what a preserve decision's record owns. */
static void decision_clear(pvmmon_log_decision *d)
{
	free(d->task);
	free(d->by);
	free(d->kind);
	free(d->taken);
	for (size_t k = 0; k < d->ncands; k++)
		free(d->cands[k].from);
	free(d->cands);
}

void pvmmon_log_free(pvmmon_log *log)
{
	size_t i;

	if (!log)
		return;
	free(log->tool_version);
	free(log->program);
	for (i = 0; i < log->nargs; i++)
		free(log->args[i]);
	free(log->args);
	free(log->mode);
	free(log->started);
	for (i = 0; i < log->nsettings; i++) {
		free(log->settings[i].key);
		free(log->settings[i].value);
	}
	free(log->settings);
	for (i = 0; i < log->nhosts; i++) {
		free(log->hosts[i].name);
		free(log->hosts[i].arch);
	}
	free(log->hosts);
	for (i = 0; i < log->ntasks; i++)
		pvmmon_log_task_clear(&log->tasks[i]);
	free(log->tasks);
	for (i = 0; i < log->cp.nprocs; i++)
		free(log->cp.procs[i].name);
	free(log->cp.procs);
	free(log->cp.found);
	for (i = 0; i < log->nswitches; i++) {
		free(log->switches[i].resource);
		free(log->switches[i].by);
		free(log->switches[i].reason);
	}
	free(log->switches);
	for (i = 0; i < log->nhangs; i++) {
		free(log->hangs[i].kind);
		free(log->hangs[i].text);
	}
	free(log->hangs);
	for (i = 0; i < log->nfindings; i++) {
		free(log->findings[i].kind);
		free(log->findings[i].task);
		free(log->findings[i].text);
	}
	free(log->findings);
	for (i = 0; i < log->trace.ndecisions; i++)
		decision_clear(&log->trace.decisions[i]);
	free(log->trace.decisions);
	for (i = 0; i < log->nhists; i++)
		pvmmon_log_hist_clear(&log->hists[i]);
	free(log->hists);
	free(log);
}

const char *pvmmon_log_schema(void) { return pvmmon__schema_text; }

const char *pvmmon_task_status_name(pvmmon_task_status s)
{
	switch (s) {
	case PVMMON_TASK_RUNNING:
		return "running";
	case PVMMON_TASK_EXITED:
		return "exited";
	case PVMMON_TASK_CRASHED:
		return "crashed";
	case PVMMON_TASK_KILLED:
		return "killed";
	case PVMMON_TASK_STOPPED:
		return "stopped";
	case PVMMON_TASK_NOEXIT:
		return "exited-without-pvm-exit";
	}
	return "unknown";
}

/* The signals a task may end of, by name; others are written as numbers. */
static const struct {
	int sig;
	const char *name;
} signals[] = {{SIGHUP, "SIGHUP"},   {SIGINT, "SIGINT"},   {SIGQUIT, "SIGQUIT"},
               {SIGILL, "SIGILL"},   {SIGTRAP, "SIGTRAP"}, {SIGABRT, "SIGABRT"},
               {SIGBUS, "SIGBUS"},   {SIGFPE, "SIGFPE"},   {SIGKILL, "SIGKILL"},
               {SIGUSR1, "SIGUSR1"}, {SIGSEGV, "SIGSEGV"}, {SIGUSR2, "SIGUSR2"},
               {SIGPIPE, "SIGPIPE"}, {SIGALRM, "SIGALRM"}, {SIGTERM, "SIGTERM"},
               {SIGXCPU, "SIGXCPU"}, {SIGXFSZ, "SIGXFSZ"}, {SIGSYS, "SIGSYS"}};

const char *pvmmon_signal_name(int sig)
{
	static char num[16];

	for (size_t i = 0; i < sizeof(signals) / sizeof(signals[0]); i++)
		if (signals[i].sig == sig)
			return signals[i].name;
	snprintf(num, sizeof(num), "%d", sig);
	return num;
}

int pvmmon_signal_number(const char *name)
{
	if (!name)
		return 0;
	for (size_t i = 0; i < sizeof(signals) / sizeof(signals[0]); i++)
		if (strcmp(signals[i].name, name) == 0)
			return signals[i].sig;
	return atoi(name);
}

const char *pvmmon_static_kind_name(pvmmon_static_kind k)
{
	switch (k) {
	case PVMMON_STATIC_PROC:
		return "proc";
	case PVMMON_STATIC_LOOP:
		return "loop";
	case PVMMON_STATIC_COM:
		return "com";
	case PVMMON_STATIC_CALL:
		return "call";
	}
	return NULL;
}

pvmmon_static_kind pvmmon_static_kind_parse(const char *name)
{
	for (int k = PVMMON_STATIC_PROC; k <= PVMMON_STATIC_CALL; k++)
		if (name && !strcmp(name, pvmmon_static_kind_name((pvmmon_static_kind)k)))
			return (pvmmon_static_kind)k;
	return (pvmmon_static_kind)0;
}

static const char *const event_op_names[] = {
    [PVMMON_EV_SEND] = "pvm_send",
    [PVMMON_EV_PSEND] = "pvm_psend",
    [PVMMON_EV_MCAST] = "pvm_mcast",
    [PVMMON_EV_RECV] = "pvm_recv",
    [PVMMON_EV_NRECV] = "pvm_nrecv",
    [PVMMON_EV_TRECV] = "pvm_trecv",
    [PVMMON_EV_PRECV] = "pvm_precv",
    [PVMMON_EV_PROBE] = "pvm_probe",
    [PVMMON_EV_SPAWN] = "pvm_spawn",
    [PVMMON_EV_OTHER] = "other",
    [PVMMON_EV_ENTER] = "enter",
    [PVMMON_EV_EXIT] = "exit",
    [PVMMON_EV_CPSTART] = "cp-start",
    [PVMMON_EV_CPSTOP] = "cp-stop",
    [PVMMON_EV_JOINGROUP] = "pvm_joingroup",
};

const char *pvmmon_event_op_name(pvmmon_event_op op)
{
	if (op < PVMMON_EV_SEND || op > PVMMON_EV_LAST)
		return NULL;
	return event_op_names[op];
}

pvmmon_event_op pvmmon_event_op_parse(const char *name)
{
	for (int k = PVMMON_EV_SEND; k <= PVMMON_EV_LAST; k++)
		if (name && !strcmp(name, event_op_names[k]))
			return (pvmmon_event_op)k;
	return (pvmmon_event_op)0;
}

int pvmmon_event_op_receives(pvmmon_event_op op)
{
	return op == PVMMON_EV_RECV || op == PVMMON_EV_NRECV || op == PVMMON_EV_TRECV ||
	       op == PVMMON_EV_PRECV;
}

int pvmmon_event_op_sends(pvmmon_event_op op)
{
	return op == PVMMON_EV_SEND || op == PVMMON_EV_PSEND || op == PVMMON_EV_MCAST;
}

static const char *const hist_metric_names[] = {
    [PVMMON_HIST_COMPUTE] = "compute",
    [PVMMON_HIST_WAIT] = "wait",
    [PVMMON_HIST_PVM] = "pvm",
    [PVMMON_HIST_OVERHEAD] = "overhead",
    [PVMMON_HIST_MSGS_SENT] = "msgs-sent",
    [PVMMON_HIST_BYTES_SENT] = "bytes-sent",
    [PVMMON_HIST_MSGS_RECV] = "msgs-recv",
    [PVMMON_HIST_BYTES_RECV] = "bytes-recv",
    [PVMMON_HIST_CALLS] = "calls",
    [PVMMON_HIST_TIME] = "time",
    [PVMMON_HIST_CP] = "cp",
};

const char *pvmmon_hist_metric_name(pvmmon_hist_metric m)
{
	if (m < PVMMON_HIST_COMPUTE || m > PVMMON_HIST_LAST)
		return NULL;
	return hist_metric_names[m];
}

pvmmon_hist_metric pvmmon_hist_metric_parse(const char *name)
{
	for (int k = PVMMON_HIST_COMPUTE; k <= PVMMON_HIST_LAST; k++)
		if (name && !strcmp(name, hist_metric_names[k]))
			return (pvmmon_hist_metric)k;
	return (pvmmon_hist_metric)0;
}

int pvmmon_hist_metric_is_time(pvmmon_hist_metric m)
{
	return m == PVMMON_HIST_COMPUTE || m == PVMMON_HIST_WAIT || m == PVMMON_HIST_PVM ||
	       m == PVMMON_HIST_OVERHEAD || m == PVMMON_HIST_TIME || m == PVMMON_HIST_CP;
}

static const char *const hist_focus_names[] = {
    [PVMMON_FOCUS_PROGRAM] = "program", [PVMMON_FOCUS_HOST] = "host", [PVMMON_FOCUS_TASK] = "task",
    [PVMMON_FOCUS_PROC] = "proc",       [PVMMON_FOCUS_LOOP] = "loop", [PVMMON_FOCUS_STMT] = "stmt",
};

const char *pvmmon_hist_focus_name(pvmmon_hist_focus f)
{
	if (f < PVMMON_FOCUS_PROGRAM || f > PVMMON_FOCUS_LAST)
		return NULL;
	return hist_focus_names[f];
}

pvmmon_hist_focus pvmmon_hist_focus_parse(const char *name)
{
	for (int k = PVMMON_FOCUS_PROGRAM; k <= PVMMON_FOCUS_LAST; k++)
		if (name && !strcmp(name, hist_focus_names[k]))
			return (pvmmon_hist_focus)k;
	return (pvmmon_hist_focus)0;
}

void pvmmon_log_task_clear(pvmmon_log_task *t)
{
	size_t i, j;

	free(t->waiting);

	for (i = 0; i < t->nstmts; i++) {
		pvmmon_log_stmt *s = &t->stmts[i];

		free(s->op);
		free(s->module);
		free(s->file);
		free(s->function);
		for (j = 0; j < s->ncom; j++)
			free(s->com[j].partner_lid);
		free(s->com);
	}
	free(t->stmts);
	for (i = 0; i < t->nprocs; i++) {
		free(t->procs[i].name);
		free(t->procs[i].file);
		free(t->procs[i].caller);
	}
	free(t->procs);
	for (i = 0; i < t->nloops; i++) {
		free(t->loops[i].name);
		free(t->loops[i].file);
		free(t->loops[i].proc);
	}
	free(t->loops);
	for (i = 0; i < t->nstatics; i++) {
		free(t->statics[i].name);
		free(t->statics[i].file);
	}
	free(t->statics);
	free(t->events);
	free(t->record);
	for (i = 0; i < t->record_nsenders; i++)
		free(t->record_senders[i]);
	free(t->record_senders);
	free(t->lid);
	free(t->host);
	free(t->program);
	free(t->ended);
	for (i = 0; i < t->nhists; i++)
		pvmmon_log_hist_clear(&t->hists[i]);
	free(t->hists);
	free(t->clock);
	pvmmon_log_samples_free(t->samples);
	free(t->blames);
	memset(t, 0, sizeof(*t));
}

const char *pvmmon_sample_state_name(int s)
{
	static const char *const names[] = {"compute", "pvm", "monitor"};

	return s >= 0 && s < PVMMON_SAMPLE_NSTATES ? names[s] : NULL;
}

void pvmmon_log_samples_free(pvmmon_log_samples *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nmodules; i++)
		free(s->modules[i]);
	free(s->modules);
	free(s->nodes);
	free(s);
}

void pvmmon_log_hist_clear(pvmmon_log_hist *h)
{
	free(h->name);
	free(h->requested);
	free(h->values);
	memset(h, 0, sizeof(*h));
}

const char *pvmmon_comp_name(pvmmon_comp c)
{
	switch (c) {
	case PVMMON_COMP_PARALLEL:
		return "parallel";
	case PVMMON_COMP_LOCAL:
		return "local";
	case PVMMON_COMP_NONE:
		return "none";
	}
	return NULL;
}

int pvmmon_comp_parse(const char *name, pvmmon_comp *out)
{
	for (int c = PVMMON_COMP_PARALLEL; c <= PVMMON_COMP_NONE; c++)
		if (name && !strcmp(name, pvmmon_comp_name((pvmmon_comp)c))) {
			*out = (pvmmon_comp)c;
			return 0;
		}
	return pvmmon_error_set(PVMMON_EINVAL,
	                        "compensation must be none, local or parallel, not '%s'",
	                        name ? name : "");
}

int pvmmon_log_use_times(pvmmon_log *log, pvmmon_comp c)
{
	if (log->comp != PVMMON_COMP_PARALLEL)
		return pvmmon_error_set(PVMMON_ESTATE, "the log's times were already changed");
	if (c == PVMMON_COMP_PARALLEL)
		return 0;
	/* All or nothing: a report mixing compensations would mislead. */
	for (size_t i = 0; i < log->ntasks; i++) {
		const pvmmon_log_task *t = &log->tasks[i];

		if (!t->has_raw && (t->nprocs || t->nloops))
			return pvmmon_error_set(PVMMON_ENOTFOUND,
			                        "the log has no raw or local times (task %s; logs "
			                        "before version 1.2 have virtual times only)",
			                        t->lid ? t->lid : "?");
	}
	for (size_t i = 0; i < log->ntasks; i++) {
		pvmmon_log_task *t = &log->tasks[i];

		for (size_t j = 0; j < t->nprocs; j++) {
			pvmmon_log_proc *p = &t->procs[j];

			if (p->counted)
				continue;
			p->incl_ns = c == PVMMON_COMP_NONE ? p->raw_incl_ns : p->local_incl_ns;
			p->excl_ns = c == PVMMON_COMP_NONE ? p->raw_excl_ns : p->local_excl_ns;
		}
		for (size_t j = 0; j < t->nloops; j++) {
			pvmmon_log_loop *l = &t->loops[j];

			l->time_ns = c == PVMMON_COMP_NONE ? l->raw_ns : l->local_ns;
		}
	}
	log->comp = c;
	return 0;
}

int64_t pvmmon_log_task_time(const pvmmon_log *log, const pvmmon_log_task *t)
{
	if (!t->has_raw || log->comp == PVMMON_COMP_PARALLEL)
		return t->virtual_ns;
	return log->comp == PVMMON_COMP_NONE ? t->raw_ns : t->local_ns;
}

/* The procedure that encloses entry i of t's static table, or NULL (also for a parent
 * chain that loops, which a damaged table could hold). */
static const char *enclosing_proc(const pvmmon_log_task *t, size_t i)
{
	int p = t->statics[i].parent;

	for (size_t steps = 0; p >= 0 && (size_t)p < t->nstatics && steps < t->nstatics; steps++) {
		if (t->statics[p].kind == PVMMON_STATIC_PROC)
			return t->statics[p].name;
		p = t->statics[p].parent;
	}
	return NULL;
}

/* Whether function name fn (a symbol: "main", or a compiler's part of it, "main.cold")
 * is procedure proc. */
static int same_function(const char *fn, const char *proc)
{
	size_t n;

	if (!fn || !proc)
		return !fn;
	n = strcspn(fn, ".");
	return strlen(proc) == n && !strncmp(fn, proc, n);
}

/* The base of a function symbol: its length up to a compiler's part suffix (".cold"). */
static size_t base_len(const char *fn) { return strcspn(fn, "."); }

/* Whether procedure entry p of t's static table is called from the procedure of
 * function fn, directly or through other procedures (the calls the compiler may have
 * inlined into it), marked in reach[] (by entry) as the search goes. */
static void mark_callees(const pvmmon_log_task *t, const char *fn, unsigned char *reach)
{
	int changed = 1;

	/* Until nothing changes: a call entry inside fn or inside a reached procedure
	 * reaches the procedures of its callee's name. Bounded by the table's size. */
	for (size_t round = 0; changed && round <= t->nstatics; round++) {
		changed = 0;
		for (size_t c = 0; c < t->nstatics; c++) {
			const pvmmon_log_static *call = &t->statics[c];
			const char *in;
			int from = 0;

			if (call->kind != PVMMON_STATIC_CALL || !call->name)
				continue;
			in = enclosing_proc(t, c);
			if (!in)
				continue;
			from = same_function(fn, in);
			for (size_t p = 0; !from && p < t->nstatics; p++)
				from = reach[p] && t->statics[p].name &&
				       !strcmp(t->statics[p].name, in);
			for (size_t p = 0; from && p < t->nstatics; p++)
				if (!reach[p] && t->statics[p].kind == PVMMON_STATIC_PROC &&
				    t->statics[p].name && !strcmp(t->statics[p].name, call->name) &&
				    !same_function(fn, call->name)) {
					reach[p] = 1;
					changed = 1;
				}
		}
	}
}

/* Whether entry e is a call of s's routine in s's procedure (direct), or in a procedure
 * that procedure calls (reached): 1 direct, 2 reached, 0 neither. */
static int place_kind(const pvmmon_log_task *t, const pvmmon_log_stmt *s, size_t e,
                      const unsigned char *reach)
{
	const pvmmon_log_static *st = &t->statics[e];
	const char *in;

	if (st->kind != PVMMON_STATIC_COM || !st->name || !s->op || strcmp(st->name, s->op))
		return 0;
	in = enclosing_proc(t, e);
	if (same_function(s->function, in))
		return 1;
	for (size_t p = 0; reach && in && p < t->nstatics; p++)
		if (reach[p] && t->statics[p].name && !strcmp(t->statics[p].name, in))
			return 2;
	return 0;
}

/* Statements of t without a source place, with the same call in the same function as s
 * (any part of it). */
static int peers(const pvmmon_log_stmt *s, const pvmmon_log_stmt *o)
{
	return !(o->file && o->line > 0) && o->op && !strcmp(o->op, s->op) &&
	       (s->function ? o->function && base_len(o->function) == base_len(s->function) &&
	                          !strncmp(o->function, s->function, base_len(s->function))
	                    : !o->function);
}

size_t pvmmon_log_stmt_candidates(const pvmmon_log_task *t, const pvmmon_log_stmt *s, size_t *out,
                                  size_t max, long *exact)
{
	unsigned char *reach;
	size_t direct = 0, reached = 0, n = 0, npeers = 0, rank = 0, k = 0;
	int one_part = 1;

	*exact = -1;
	if ((s->file && s->line > 0) || !s->op || !t->nstatics)
		return 0;
	reach = calloc(t->nstatics, 1);
	if (!reach)
		return 0;
	if (s->function)
		mark_callees(t, s->function, reach);
	for (size_t e = 0; e < t->nstatics; e++) {
		int kind = place_kind(t, s, e, reach);

		direct += kind == 1;
		reached += kind == 2;
		if (kind && n < max)
			out[n] = e;
		n += kind != 0;
	}
	for (size_t j = 0; j < t->nstmts; j++)
		if (peers(s, &t->stmts[j])) {
			npeers++;
			rank += t->stmts[j].offset < s->offset;
			one_part &= !strcmp(t->stmts[j].function ? t->stmts[j].function : "",
			                    s->function ? s->function : "");
		}
	/* One call of the routine in the procedure and one record: it. As many calls as
	 * records: the n-th in address order is the n-th in source order (the table's).
	 * Not when a called procedure has calls of the routine too (one inlined would be
	 * counted here), nor across a function's parts (a cold part lies elsewhere). */
	if (direct && !reached && direct == npeers && (npeers == 1 || one_part))
		for (size_t e = 0; e < t->nstatics && *exact < 0; e++)
			if (place_kind(t, s, e, NULL) == 1 && k++ == rank)
				*exact = (long)e;
	free(reach);
	return n;
}

long pvmmon_log_stmt_static(const pvmmon_log_task *t, const pvmmon_log_stmt *s, size_t *ncand)
{
	size_t none[1], n;
	long exact;

	n = pvmmon_log_stmt_candidates(t, s, none, 0, &exact);
	if (ncand)
		*ncand = n;
	return exact;
}
