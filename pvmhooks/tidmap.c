/* A small open-addressing tid map: sequence counters and the monitored-task cache. */
#include <stdlib.h>

#include "tidmap.h"
#include "pvmmon/errors.h"

static size_t slot_of(int32_t tid, size_t cap)
{
	/* Tids differ mostly in their low bits (task number) and host bits; a
	 * multiplicative hash spreads both. */
	return (size_t)(((uint32_t)tid * 2654435761u) >> 7) & (cap - 1);
}

void tidmap__free(tidmap *m)
{
	free(m->slots);
	m->slots = NULL;
	m->cap = m->used = 0;
}

int64_t *tidmap__find(tidmap *m, int32_t tid)
{
	size_t i;

	if (!m->cap || tid == 0)
		return NULL;
	for (i = slot_of(tid, m->cap);; i = (i + 1) & (m->cap - 1)) {
		if (m->slots[i].tid == tid)
			return &m->slots[i].value;
		if (m->slots[i].tid == 0)
			return NULL;
	}
}

static int grow(tidmap *m)
{
	size_t cap = m->cap ? m->cap * 2 : 16, i;
	tidmap_slot *s = calloc(cap, sizeof(*s));

	if (!s)
		return PVMMON_ENOMEM;
	for (i = 0; i < m->cap; i++) {
		size_t j;

		if (!m->slots[i].tid)
			continue;
		for (j = slot_of(m->slots[i].tid, cap); s[j].tid; j = (j + 1) & (cap - 1))
			;
		s[j] = m->slots[i];
	}
	free(m->slots);
	m->slots = s;
	m->cap = cap;
	return 0;
}

int64_t *tidmap__get(tidmap *m, int32_t tid, int64_t initial)
{
	int64_t *v = tidmap__find(m, tid);
	size_t i;

	if (v || tid == 0)
		return v;
	if ((m->used + 1) * 4 > m->cap * 3 && grow(m) < 0)
		return NULL;
	for (i = slot_of(tid, m->cap); m->slots[i].tid; i = (i + 1) & (m->cap - 1))
		;
	m->slots[i].tid = tid;
	m->slots[i].value = initial;
	m->used++;
	return &m->slots[i].value;
}
