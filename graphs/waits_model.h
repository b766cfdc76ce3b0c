/* Private to graphs/waits*.c: a traced run's timelines as the wait analysis reads them. */
#ifndef PVMMON_GRAPHS_WAITS_MODEL_H
#define PVMMON_GRAPHS_WAITS_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "pvmmon/log.h"
#include "pvmmon/waits.h"

/* No task, no event. */
#define WM_NONE ((size_t)-1)
/* The statement after a task's last call: none (its computation to its end). */
#define WM_NO_STMT UINT32_MAX

/* Where a stretch of a task's time went: computation in a procedure or a segment (what
 * a cause names), or waiting in receive `event`. */
typedef struct wm_key {
	int wait;      /* 1: waiting in event `event` */
	int32_t proc;  /* computation: the innermost selected procedure, -1 for none */
	uint32_t stmt; /* computation outside procedures: the next statement */
	size_t event;  /* waiting: the receive */
} wm_key;

/* One task's events with what the analysis derives from them. */
typedef struct wm_task {
	const pvmmon_log_task *t;
	int64_t vstart, vend; /* its virtual start and end */
	size_t *peer_task;    /* a message event's partner task (WM_NONE: unmonitored) */
	size_t *peer_event;   /* and the partner's event of the same message */
	int32_t *proc;        /* the innermost selected procedure before each event */
	uint32_t *next_stmt;  /* the statement of the next PVM event at or after it */
	int64_t *gwait;       /* a barrier's waiting at its release's event (NULL: no
	                       * barrier; waits_coll.c): the group server's answer carries no
	                       * virtual time, so the trace's receive shows none */
	/* Its pvm_barrier calls in order: each one's first event and its release (the
	 * group server's answer, a receive). */
	size_t *bfirst, *brelease, nbar;
} wm_task;

/* Barrier instance k: the k-th pvm_barrier call of every task that calls it (the log
 * does not name the group: one group, or groups that meet equally often). */
typedef struct wm_bar {
	uint32_t members; /* tasks with a k-th call */
	size_t late;      /* the latecomer: the last to arrive (waits__bar_arrival) */
	int64_t call_ns;  /* the latecomer's time in its call: the group server's round trip */
} wm_bar;

typedef struct wm_model {
	const pvmmon_log *log;
	size_t ntasks;
	wm_task *tasks;
	size_t nbars;
	wm_bar *bars;
} wm_model;

/* Statement id's PVM call in task t, NULL when it has none. */
const char *waits__op_of(const pvmmon_log_task *t, uint32_t id);
/* Member x's measure at barrier instance k: after the first, the virtual time it took
 * since it left instance k-1 (the members left it together, at the group server's one
 * answer: the latest arrives last); at the first, its arrival in real time. */
int64_t waits__bar_arrival(const wm_model *m, size_t x, size_t k);
/* The time member x spent in its barrier call k, in its virtual time. */
int64_t waits__bar_in_call(const wm_model *m, size_t x, size_t k);

/* Builds the model of log's trace; PVMMON_EINVAL without a whole trace. */
int waits__model(wm_model *m, const pvmmon_log *log);
void waits__model_free(wm_model *m);

/* Whether event e is a PVM call (not a procedure entry or exit, not a marker). */
int waits__is_call(const pvmmon_log_event *e);

/* A profile: the time of task x within [a, b] by key. */
typedef struct wm_profile {
	wm_key *key;
	int64_t *ns;
	size_t n, cap;
} wm_profile;

int waits__profile(wm_profile *p, const wm_model *m, size_t x, int64_t a, int64_t b);
void waits__profile_free(wm_profile *p);
int waits__same_key(const wm_key *a, const wm_key *b);
/* Whether a and b (statements of two tasks) are the same call site: statement ids are
 * each task's own, numbered as its call sites first ran. */
int waits__same_site(const pvmmon_log_stmt *a, const pvmmon_log_stmt *b);
/* The computation key of task w before its event i, outside procedures stmt's. */
wm_key waits__compute_key(const wm_task *w, size_t i, uint32_t stmt);

/*
 * Replays the activity graph: every task's computation and calls as measured, each
 * receive done when both the task and its message are (a message takes its measured
 * latency, or nothing with ideal set), computation of cause c (NULL: none) made
 * pct percent faster. The replayed run's length into *out_ns, and its receives' waiting
 * summed into *out_wait_ns (NULL: not wanted).
 */
int waits__replay(int64_t *out_ns, int64_t *out_wait_ns, const wm_model *m, int ideal,
                  const pvmmon_wait_cause *c, int pct);

/* A network of one's choosing: every message costs lat_ns + its bytes / bytes_per_ns
 * (bytes_per_ns 0: unlimited bandwidth; both 0: the ideal network). */
typedef struct wm_net {
	int64_t lat_ns;
	double bytes_per_ns;
} wm_net;

/* The same replay with messages on network net (NULL: as measured). */
int waits__replay_net(int64_t *out_ns, int64_t *out_wait_ns, const wm_model *m, const wm_net *net,
                      const pvmmon_wait_cause *c, int pct);

#endif
