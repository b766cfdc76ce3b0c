/* An open-addressing map from call-site address to statement index. */
#include <stdint.h>
#include <stdlib.h>

#include "ptrmap.h"
#include "pvmmon/errors.h"

static size_t slot_of(const void *key, size_t cap)
{
	uint64_t k = (uint64_t)(uintptr_t)key;

	return (size_t)((k * 0x9e3779b97f4a7c15ull) >> 32) & (cap - 1);
}

void ptrmap__free(ptrmap *m)
{
	free(m->slots);
	m->slots = NULL;
	m->cap = m->used = 0;
}

size_t *ptrmap__find(ptrmap *m, const void *key)
{
	size_t i;

	if (!m->cap)
		return NULL;
	for (i = slot_of(key, m->cap); m->slots[i].key; i = (i + 1) & (m->cap - 1))
		if (m->slots[i].key == key)
			return &m->slots[i].value;
	return NULL;
}

static int grow(ptrmap *m)
{
	size_t cap = m->cap ? m->cap * 2 : 32, i, j;
	ptrmap_slot *s = calloc(cap, sizeof(*s));

	if (!s)
		return PVMMON_ENOMEM;
	for (i = 0; i < m->cap; i++) {
		if (!m->slots[i].key)
			continue;
		for (j = slot_of(m->slots[i].key, cap); s[j].key; j = (j + 1) & (cap - 1))
			;
		s[j] = m->slots[i];
	}
	free(m->slots);
	m->slots = s;
	m->cap = cap;
	return 0;
}

size_t *ptrmap__put(ptrmap *m, const void *key, size_t value)
{
	size_t i;

	if (!key)
		return NULL;
	if ((m->used + 1) * 4 > m->cap * 3 && grow(m) < 0)
		return NULL;
	for (i = slot_of(key, m->cap); m->slots[i].key; i = (i + 1) & (m->cap - 1))
		;
	m->slots[i].key = key;
	m->slots[i].value = value;
	m->used++;
	return &m->slots[i].value;
}
