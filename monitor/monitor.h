/* Private to pvmmon-monitor: the registry of tasks and the state of one monitored run. */
#ifndef PVMMON_MONITOR_H
#define PVMMON_MONITOR_H

#include <stddef.h>
#include <stdint.h>

#include "../common/clockmodel.h"
#include "pvmmon/log.h"
#include "../common/resource.h"
#include "../common/wire.h"

/* A task's cost and probe sites as the monitor follows them (cost.c). */
struct mon_cost;

typedef struct mon_task {
	pvmmon_log_task rec; /* identity fields plus the latest flushed records */
	uint32_t index;      /* the monitor's number for the task (piggyback sender) */
	int32_t dtid;        /* its host's pvmd */
	int64_t rt_start;    /* real start, the task's own clock */
	int welcomed;        /* registration answered */
	int final;           /* the final flush arrived */
	int gone;            /* pvmd reported its exit */
	int64_t pending_since; /* waiting for the parent's spawn report (real time), or 0 */
	size_t cap_events;   /* room in rec.events */
	uint64_t trace_received; /* events the task sent, kept or not */
	wire_cp cp;          /* its latest critical-path sample */
	wire_buf record;     /* its replay record so far (tids as senders), when recording */
	int replayed;        /* a replay sent it its record */
	/* Every real or virtual time the task reports is on its own clock; the monitor puts
	 * it on its own with the host's clock model (mon_to_monitor) once the task's first
	 * CLOCK report came, which is before any message that carries times, PVM keeping
	 * order per pair. */
	int clock_done;
	struct mon_cost *cost; /* NULL until its first flush with a calibration */
} mon_task;

/* A rule of dynamic instrumentation: sites named by spec (common/resource.h) on or
 * off, from the user or from the budget; later rules override earlier ones. */
typedef struct mon_rule {
	int on;
	int budget;
	char *spec;   /* as given (the welcome carries it) */
	resource res; /* the same, parsed */
} mon_rule;

/* One host's clock model (doc/architecture.md, "The virtual clock across hosts"):
 * fitted to the estimates of its first task and then of its keeper, which re-estimates
 * periodically; every task on the host is told each new model. */
typedef struct mon_host_clock {
	int32_t dtid;
	clockmodel model;
	int64_t uncertainty;   /* of the model's offset at model.tref, ns */
	int64_t rtt;           /* the least round trip of the first estimate, ns */
	int32_t keeper;        /* the task that re-estimates, 0 when none */
	clockmodel_point *pts; /* the estimates (a ring of MON_CLOCK_POINTS) */
	size_t npts;           /* estimates made, the ring holds the latest */
} mon_host_clock;

/* The estimates a host's model is fitted to: at one a second, the last hour. */
#define MON_CLOCK_POINTS 4096

typedef struct mon_spawn {
	int32_t parent, child;
	uint32_t index;
	int64_t rt;  /* the parent's real time at the spawn's end */
	wire_cp cp;  /* the parent's critical-path tuple then, for the child to start from */
} mon_spawn;

/* A task waiting to learn the tid of a logical id that has not registered yet. */
typedef struct mon_lid_wait {
	int asker;
	char *lid;
} mon_lid_wait;

typedef struct mon_run {
	/* Settings. */
	const char *log_path;
	int auto_mode;     /* started by a task (console), not by `pvmmon run` */
	uint32_t flush_ms;
	int64_t linger_ns; /* how long to wait for tasks after the program ended */
	int64_t checkpoint_ns;
	/* Critical-path profiling: the selection (comma-separated names, or '+'-joined
	 * groups; heap, NULL when none), its generation (one more at each start), whether
	 * tasks collect now, and the real times (from the run start) the collection of
	 * this generation started and stopped (-1 while it runs). */
	char *cp_procs;
	int cp_exclusive;
	uint32_t cp_gen;
	int cp_collecting;
	int64_t cp_from_ns, cp_to_ns;
	uint64_t cp_samples;   /* critical-path samples of this generation received */
	/* Choosing the selection while the program runs (cpsearch.c): --cp=auto, or the
	 * top-m search; phase length, when the current phase began, the candidates left,
	 * phases run, and the procedures the search found (heap, comma-separated). */
	int cp_auto;
	uint32_t cp_top_m;
	int64_t cp_phase_ns, cp_phase_start;
	char **cp_cands;
	size_t cp_ncands;
	uint32_t cp_phases;
	int cp_search_done;
	char *cp_found;
	/* Record and replay: 0 neither, 1 record (the default), 2 replay of replay_log;
	 * diverged counts the divergences reported (the first stops the run). */
	int rr_mode;
	/* Preserve mode (preserve.c); its state is the monitor's own (struct mon_pr). */
	int preserve;
	int on_deadlock_abort;
	int deadlocked;    /* a deadlock was reported and --on-deadlock=abort stops the run */
	struct mon_pr *pr;
	pvmmon_log *replay_log;
	int diverged;
	int rr_continue;       /* --on-divergence=continue-recording */
	uint64_t divergences;  /* said and gone past (continue-recording) */
	char *stop_lid;        /* --stop-at LID:EVENT */
	uint64_t stop_event;
	mon_lid_wait *pending_lids;
	size_t npending_lids;
	uint64_t trace_bytes;  /* 0: no event trace; else its size limit in the log */
	uint64_t trace_events; /* the same limit in events */
	const char *program;
	size_t nargs;
	char **args;
	/* State. */
	int mytid, ctx;
	int64_t t_start;   /* monitor's real start */
	char started[32];  /* ISO 8601 */
	int ended;         /* `pvmmon run` said the program ended */
	int64_t t_ended;
	int exit_code;
	int64_t t_last_change;
	mon_task *tasks;
	size_t ntasks, cap_tasks;
	mon_spawn *spawns;
	size_t nspawns, cap_spawns;
	mon_host_clock *clocks;
	size_t nclocks;
	int32_t stopped_tid; /* a replayed task stopped for a debugger (--stop-at), or 0 */
	uint32_t nroots;
	uint64_t bad_messages; /* control messages that failed to decode */
	/* The run's token (random): registrations and pvmmon commands' requests must
	 * carry it; control messages from anyone else are refused and counted. */
	uint64_t token;
	uint64_t refused;
	/* The event trace: events kept, events dropped over the limit, and the earliest
	 * real time (from the run start) of a dropped event (INT64_MAX while none). */
	uint64_t trace_kept, trace_dropped;
	int64_t trace_cut;
	/* Dynamic instrumentation (cost.c): the cost budget in percent (0: none), the
	 * rules in order, and the switches made, for the log. */
	double budget_pct;
	mon_rule *rules;
	size_t nrules;
	pvmmon_log_switch *switches;
	size_t nswitches;
} mon_run;

/* Registry (registry.c). */
mon_task *mon_find(mon_run *run, int32_t tid);
/* Handles a REGISTER message from src; answers it unless the task must wait for its
 * parent's spawn report. Returns -1 (and does nothing) when it lacks the run's token. */
int mon_register(mon_run *run, int src, const uint8_t *data, size_t len);
void mon_spawned(mon_run *run, int src, const uint8_t *data, size_t len);
void mon_query(mon_run *run, int src, const uint8_t *data, size_t len);
/* Sends command c to every task that is registered and running, but except (0: none). */
void mon_tell_tasks(mon_run *run, const wire_ctl *c, int32_t except);
/* A task's clock offset estimate (CLOCK): the first of each task is answered with the
 * model its host uses; a keeper's later ones refit the model, sent to the whole host. */
void mon_clock(mon_run *run, int src, const uint8_t *data, size_t len);
/* The clock model of host dtid, NULL when there is none yet. */
const mon_host_clock *mon_host_clock_of(const mon_run *run, int32_t dtid);
/* A time task t reported on its own clock, on the monitor's (unchanged before the
 * task's first CLOCK report). */
int64_t mon_to_monitor(const mon_run *run, const mon_task *t, int64_t time);
/* Task t has gone: another task of its host takes over as keeper. */
void mon_clock_task_gone(mon_run *run, const mon_task *t);
void mon_clocks_free(mon_run *run);
void mon_records(mon_run *run, int src, const uint8_t *data, size_t len);
void mon_task_exit(mon_run *run, int32_t tid);
/*
 * Handles a TRACE chunk. The trace kept is always a prefix in time of the whole run:
 * events are dropped from the end (the latest start first, across all tasks) so that
 * every task's events before the cut are there, whatever order chunks arrive in.
 */
void mon_trace(mon_run *run, int src, const uint8_t *data, size_t len);
/* Handles a CPSAMPLE: keeps the task's latest critical-path tuple. */
void mon_cp_sample(mon_run *run, int src, const uint8_t *data, size_t len);
/* Starts critical-path collection with selection procs (a new generation: earlier
 * samples are dropped) or stops it, and tells every running task. */
void mon_cp_start(mon_run *run, const char *procs, int exclusive);
void mon_cp_stop(mon_run *run);
/* Drives --cp=auto and the top-m search: called as time passes (real time now). */
void mon_cp_tick(mon_run *run, int64_t now);
/* Handles a STATUS request of a pvmmon command: carries out its command and answers
 * with a snapshot of the run (log XML without the trace). Returns -1 (and does
 * nothing) when the request lacks the run's token. */
int mon_status(mon_run *run, int src, const uint8_t *data, size_t len);
/* Cuts the kept trace to at most trace_events events (the earliest ones). */
void mon_trace_limit(mon_run *run);
/* Resolves registrations that waited too long for a spawn report. */
void mon_pending_timeout(mon_run *run, int64_t now);
/* Whether every registered task has ended (exited or crashed). */
int mon_all_done(const mon_run *run);
void mon_free(mon_run *run);

/* Bytes one event takes in the XML log, on average: converts the user's trace size
 * into events (measured on traced logs; see doc/architecture.md). */
#define MON_TRACE_EVENT_XML_BYTES 150

/* Record and replay (rrmon.c). */
void mon_rr_record(mon_run *run, int src, const uint8_t *data, size_t len);
/* After t's welcome: in a replay, sends t its record and answers tasks waiting for
 * its tid. */
void mon_rr_welcomed(mon_run *run, mon_task *t);
void mon_rr_answer_lid(mon_run *run, int asker, int32_t tid);
void mon_rr_lid(mon_run *run, int src, const uint8_t *data, size_t len);
void mon_rr_diverged(mon_run *run, int src, const uint8_t *data, size_t len);
void mon_rr_stopped(mon_run *run, int src, const uint8_t *data, size_t len);
/* At the end of a replay: recorded tasks that never started are a divergence. */
void mon_rr_end(mon_run *run);
/* Fills out's record fields from t's record (senders as logical ids); the fields then
 * belong to out. */
int mon_rr_fill(mon_run *run, mon_task *t, pvmmon_log_task *out);

/* Dynamic instrumentation and cost (cost.c). */
/* Switches the sites named by spec on or off in every task it names, now and for
 * tasks that register later, and logs the switch (by the budget, with its reason, or
 * by the user). PVMMON_EINVAL when spec is no resource. */
int mon_switch(mon_run *run, int on, const char *spec, int budget, const char *reason);
/* The rules as the welcome carries them ("+spec;-spec"; heap, caller frees). */
char *mon_rules_text(const mon_run *run);
/* At the start of a run with a budget: its first rule. */
int mon_cost_start(mon_run *run);
/* After a flush of t's records: its predicted cost, and the budget's decisions. */
void mon_cost_records(mon_run *run, mon_task *t);
void mon_cost_free(mon_task *t);
void mon_rules_free(mon_run *run);

/* Switches statements' records on or off in t as the rules say (the monitor resolves
 * statements to lines; tasks know only call sites). */
void mon_cost_stmts(mon_run *run, mon_task *t);

/* Log (logbuild.c): builds the log of the run so far and writes it atomically. */
int mon_write_log(mon_run *run);
/* Resolves a statement's call site to file, line and function (once; the results stay
 * with the record). */
void mon_resolve_stmt(pvmmon_log_stmt *s);
/* The log of the run so far, without its trace, as XML text in *out (caller frees). */
int mon_snapshot(mon_run *run, char **out, size_t *len);

/* Preserve mode (preserve.c). */
int mon_pr_init(mon_run *run);
/* Handles a PWAIT: a task's request, blocked receive or state report. */
void mon_pr_message(mon_run *run, int src, const uint8_t *data, size_t len);
/* Decides what can be decided now, asks for fresher reports, and reports a deadlock of
 * the program once nothing has moved for a while. */
void mon_pr_evaluate(mon_run *run);
/* The log's settings of preserve mode, through add(ctx, key, value). */
void mon_pr_settings(mon_run *run, void (*add)(void *, const char *, const char *), void *ctx);
void mon_pr_free(mon_run *run);
/* Whether requests wait for a decision (the monitor then looks again within 1 ms). */
int mon_pr_busy(const mon_run *run);

#endif
