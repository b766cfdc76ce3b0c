/* Private to libpvmhooks: an open-addressing map from a code address to an index. */
#ifndef PVMMON_HOOKS_PTRMAP_H
#define PVMMON_HOOKS_PTRMAP_H

#include <stddef.h>

typedef struct ptrmap_slot {
	const void *key; /* NULL marks an empty slot */
	size_t value;
} ptrmap_slot;

typedef struct ptrmap {
	ptrmap_slot *slots;
	size_t cap, used;
} ptrmap;

void ptrmap__free(ptrmap *m);
size_t *ptrmap__find(ptrmap *m, const void *key);
/* Inserts key with value (key must be absent and non-NULL); NULL when out of memory. */
size_t *ptrmap__put(ptrmap *m, const void *key, size_t value);

#endif
