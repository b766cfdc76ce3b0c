/* Private to libpvmhooks: a small open-addressing map from PVM tid to a 64-bit value. */
#ifndef PVMMON_HOOKS_TIDMAP_H
#define PVMMON_HOOKS_TIDMAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct tidmap_slot {
	int32_t tid; /* 0 marks an empty slot: 0 is never a task's tid */
	int64_t value;
} tidmap_slot;

typedef struct tidmap {
	tidmap_slot *slots;
	size_t cap, used;
} tidmap;

void tidmap__free(tidmap *m);
/* The value stored for tid, or NULL. */
int64_t *tidmap__find(tidmap *m, int32_t tid);
/* The value of tid, inserted with `initial` when absent; NULL only when out of memory. */
int64_t *tidmap__get(tidmap *m, int32_t tid, int64_t initial);

#endif
