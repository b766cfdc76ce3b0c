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
	int64_t vstart, vend;   /* its virtual start and end */
	size_t *peer_task;      /* a message event's partner task (WM_NONE: unmonitored) */
	size_t *peer_event;     /* and the partner's event of the same message */
	int32_t *proc;          /* the innermost selected procedure before each event */
	uint32_t *next_stmt;    /* the statement of the next PVM event at or after it */
	int64_t *gwait;         /* a barrier's waiting at its release's event (NULL: no
	                         * barrier; waits_coll.c): the group server's answer carries no
	                         * virtual time, so the trace's receive shows none */
} wm_task;

typedef struct wm_model {
	const pvmmon_log *log;
	size_t ntasks;
	wm_task *tasks;
} wm_model;

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
int waits__replay_net(int64_t *out_ns, int64_t *out_wait_ns, const wm_model *m,
                      const wm_net *net, const pvmmon_wait_cause *c, int pct);

#endif
