/* The monitor's index from tid to table place: with hundreds of tasks, the lookups that
 * every message, wait report and hang evaluation makes must not scan the table. */
#include <stdlib.h>

#include "pvmmon/errors.h"
#include "tidindex.h"

struct tidindex_slot {
	int32_t tid;
	size_t place;
};

static size_t slot_of(int32_t tid, size_t cap)
{
	/* Tids differ mostly in their low bits (task number) and host bits; a
	 * multiplicative hash spreads both. */
	return (size_t)(((uint32_t)tid * 2654435761u) >> 7) & (cap - 1);
}

long tidindex__find(const tidindex *x, int32_t tid)
{
	if (!x->cap || tid == 0)
		return TIDINDEX_NONE;
	for (size_t i = slot_of(tid, x->cap);; i = (i + 1) & (x->cap - 1)) {
		if (x->slots[i].tid == tid)
			return (long)x->slots[i].place;
		if (x->slots[i].tid == 0)
			return TIDINDEX_NONE;
	}
}

static int grow(tidindex *x)
{
	size_t cap = x->cap ? x->cap * 2 : 64;
	struct tidindex_slot *s = calloc(cap, sizeof(*s));

	if (!s)
		return PVMMON_ENOMEM;
	for (size_t i = 0; i < x->cap; i++) {
		size_t j;

		if (!x->slots[i].tid)
			continue;
		for (j = slot_of(x->slots[i].tid, cap); s[j].tid; j = (j + 1) & (cap - 1))
			;
		s[j] = x->slots[i];
	}
	free(x->slots);
	x->slots = s;
	x->cap = cap;
	return 0;
}

int tidindex__put(tidindex *x, int32_t tid, size_t place)
{
	size_t i;

	if (tid == 0)
		return 0;
	if ((x->used + 1) * 4 > x->cap * 3 && grow(x) < 0)
		return PVMMON_ENOMEM;
	for (i = slot_of(tid, x->cap); x->slots[i].tid && x->slots[i].tid != tid;
	     i = (i + 1) & (x->cap - 1))
		;
	if (!x->slots[i].tid)
		x->used++;
	x->slots[i].tid = tid;
	x->slots[i].place = place;
	return 0;
}

void tidindex__free(tidindex *x)
{
	free(x->slots);
	x->slots = NULL;
	x->cap = x->used = 0;
}
