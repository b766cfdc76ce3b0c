/* The monitor's index from a task's tid to its place in a table (tasks.c, hang.c). */
#ifndef PVMMON_MONITOR_TIDINDEX_H
#define PVMMON_MONITOR_TIDINDEX_H

#include <stddef.h>
#include <stdint.h>

/* Open addressing; a slot with tid 0 is empty (0 is never a task's tid). */
typedef struct tidindex {
	struct tidindex_slot *slots;
	size_t cap, used;
} tidindex;

/* No place is stored for the tid. */
#define TIDINDEX_NONE (-1L)

/* The place stored for tid, or TIDINDEX_NONE when it has none. */
long tidindex__find(const tidindex *x, int32_t tid);
/* Stores place for tid (a new tid, or a new place for one known); 0 or PVMMON_ENOMEM. */
int tidindex__put(tidindex *x, int32_t tid, size_t place);
void tidindex__free(tidindex *x);

#endif
