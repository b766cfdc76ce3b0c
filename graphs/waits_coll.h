/* Private to graphs/waits*.c: waits at barriers and group collectives (waits_coll.c). */
#ifndef PVMMON_GRAPHS_WAITS_COLL_H
#define PVMMON_GRAPHS_WAITS_COLL_H

#include <stddef.h>
#include <stdint.h>

#include "waits_model.h"

/* One member's wait at one barrier instance, and the intervals its cause is found in:
 * each side's time since it left the group's previous barrier (or since its start). */
typedef struct wm_barrier_wait {
	size_t task, event;      /* the member and its barrier's receive (the release) */
	size_t late, late_event; /* the latecomer and its barrier call's first event */
	int64_t wait_ns;
	int64_t a, b;            /* the member's interval: since, its arrival */
	int64_t late_a, late_b;  /* the latecomer's */
} wm_barrier_wait;

/* Every barrier wait of m's trace into *out (sorted by task and event, freed by the
 * caller), and each member's waiting into m->tasks[x].gwait at its release's event. */
int waits__barriers(wm_model *m, wm_barrier_wait **out, size_t *n);

/* The barrier wait of task x's event i in v (n of them, as waits__barriers sorts), or
 * NULL. */
const wm_barrier_wait *waits__barrier_of(const wm_barrier_wait *v, size_t n, size_t x, size_t i);

/* Whether statement id of task t is a group collective's (pvm_bcast, pvm_reduce,
 * pvm_gather, pvm_scatter): libgpvm3's messages inside it are its parts. */
int waits__collective(const pvmmon_log_task *t, uint32_t id);

#endif
