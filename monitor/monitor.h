/* Private to pvmmon-monitor: the types of one monitored run (its tasks, hosts, rules and
 * settings) and the transport it talks to tasks through; each module's functions are in
 * its own header. */
#ifndef PVMMON_MONITOR_H
#define PVMMON_MONITOR_H

#include <stddef.h>
#include <stdint.h>

#include "../common/clockmodel.h"
#include "../common/resource.h"
#include "../common/wire.h"
#include "pvmmon/log.h"

/* A task's cost and probe sites as the monitor follows them (cost.c). */
struct mon_cost;

typedef struct mon_task {
	pvmmon_log_task rec;     /* identity fields plus the latest flushed records */
	uint32_t index;          /* the monitor's number for the task (piggyback sender) */
	int32_t dtid;            /* its host's pvmd */
	int64_t rt_start;        /* real start, the task's own clock */
	int welcomed;            /* registration answered */
	int final;               /* the final flush arrived */
	int gone;                /* pvmd reported its exit */
	int64_t gone_at;         /* when (the monitor's real time) */
	int fatal_records;       /* a fatal signal's report came after its records */
	int noexit;              /* it said it exits without pvm_exit (FATAL, signal 0) */
	int64_t pending_since;   /* waiting for the parent's spawn report (real time), or 0 */
	size_t cap_events;       /* room in rec.events */
	uint64_t trace_received; /* events the task sent, kept or not */
	wire_cp cp;              /* its latest critical-path sample */
	wire_buf record;         /* its replay record so far (tids as senders), when recording */
	int replayed;            /* a replay sent it its record */
	/* Every real or virtual time the task reports is on its own clock; the monitor puts
	 * it on its own with the host's clock model (clocks__to_monitor) once the task's first
	 * CLOCK report came, which is before any message that carries times, PVM keeping
	 * order per pair. */
	int clock_done;
	struct mon_cost *cost; /* NULL until its first flush with a calibration */
	char *exe;             /* its main program's path (registration), or NULL */
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
	int64_t rt;      /* the parent's real time at the spawn's end */
	wire_cp cp;      /* the parent's critical-path tuple then, for the child to start from */
	int64_t seen_at; /* when the report came (the monitor's real time) */
	/* The pvmd was asked to tell the child's exit before it registered, and told it:
	 * a child that has not registered yet keeps the run from ending until either. */
	int exit_asked, exited;
} mon_spawn;

/* A task waiting to learn the tid of a logical id that has not registered yet. */
typedef struct mon_lid_wait {
	int asker;
	char *lid;
} mon_lid_wait;

/*
 * How the monitor reaches tasks: main sets the real one (PVM, run.c's run__pvm_io);
 * unit tests set a fake that captures what is sent. Every module sends through
 * run->io, passed with the run.
 */
typedef struct mon_io {
	/* Sends len bytes to tid with tag in PVM context ctx: 0 or a negative PVMMON_E*. */
	int (*send)(int ctx, int tid, int tag, const void *data, size_t len);
	/* Has the pvmd report tid's exit to the monitor (a TASKEXIT message). */
	int (*notify_exit)(int32_t tid);
	/* Sends signal sig to task tid (NULL: the transport cannot). */
	int (*kill)(int32_t tid, int sig);
	/* Writes the name of the host of pvmd dtid into buf: 0, or a negative PVMMON_E*
	 * (NULL: the transport cannot). */
	int (*host_name)(int32_t dtid, char *buf, size_t size);
} mon_io;

/* Bytes one event takes in the XML log, on average: converts the user's trace size
 * into events (measured on traced logs; see doc/architecture.md). */
#define MON_TRACE_EVENT_XML_BYTES 150

typedef struct mon_run {
	/* Settings. */
	const char *log_path;
	int auto_mode; /* started by a task (console), not by `pvmmon run` */
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
	uint64_t cp_samples; /* critical-path samples of this generation received */
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
	int deadlocked; /* a deadlock was reported and --on-deadlock=abort stops the run */
	struct mon_pr *pr;
	struct mon_hang *hang; /* wait states and diagnoses (hang.c) */
	pvmmon_log *replay_log;
	int diverged;
	int rr_continue;      /* --on-divergence=continue-recording */
	uint64_t divergences; /* said and gone past (continue-recording) */
	char *stop_lid;       /* --stop-at LID:EVENT */
	uint64_t stop_event;
	mon_lid_wait *pending_lids;
	size_t npending_lids;
	uint64_t trace_bytes;  /* 0: no event trace; else its size limit in the log */
	uint64_t trace_events; /* the same limit in events */
	const char *program;
	size_t nargs;
	char **args;
	/* State. */
	mon_io io; /* the transport, set once at the start */
	int mytid, ctx;
	int32_t myhost;   /* the monitor's own host (its pvmd's tid) */
	int64_t t_start;  /* monitor's real start */
	char started[32]; /* ISO 8601 */
	int ended;        /* `pvmmon run` said the program ended */
	int64_t t_ended;
	/* The program's process group, as `pvmmon run` told it (0: not told: auto mode, or
	 * an older pvmmon), where pgroup.c lists processes (NULL: /proc; tests set their
	 * own), and how long nothing must change before hang.c judges a wait for anyone
	 * (0: its default). */
	int32_t group;
	const char *proc_dir;
	int64_t hang_settle_ns;
	int exit_code;
	int64_t t_last_change;
	int64_t t_stopped; /* real time the run's stop began (ending.c), 0 while it runs */
	/* The task table and the spawn reports (tasks.c; reached only through its
	 * functions). */
	struct mon_tasks *tab;
	/* The hosts' shared calibrations (calib.c; reached only through its functions). */
	struct mon_calibs *calibs;
	/* The PVM usage errors tasks found (findings.c). */
	struct mon_findings *findings;
	/* The host clock models (clocks.c). */
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
	/* Time histograms (histmerge.c): buckets (0: none), initial width, the hottest
	 * count, whether the defaults are off (--no-histograms), the extra ones asked for
	 * at the start (--histogram) and those `pvmmon ctl histogram` switched on
	 * (METRIC:FOCUS lists, heap, NULL when none). */
	uint32_t hist_buckets;
	int64_t hist_width_ns;
	uint32_t hist_hottest;
	int hist_off;
	char *hist_run, *hist_ctl;
	/* Call-path sampling as `pvmmon ctl sample` last set it (cost.c): sample_ctl 1 and
	 * its rate (0: off); tasks that register later take it with their welcome. */
	int sample_ctl;
	uint32_t sample_hz;
	mon_rule *rules;
	size_t nrules;
	pvmmon_log_switch *switches;
	size_t nswitches;
	/* Tasks against the pvmds' descriptor limit (capacity.c): the most on one host at
	 * once so far and that host's pvmd, whether the warning was given, whether the
	 * monitor's own pvmd was lost. */
	size_t host_tasks_peak;
	int32_t host_tasks_peak_dtid;
	int host_tasks_warned;
	int pvmd_lost;
} mon_run;

#endif
