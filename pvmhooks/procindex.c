/* The proc records' index: a hash table from (procedure, caller, call line) to record. */
#include <stdint.h>
#include <stdlib.h>

#include "procindex.h"

/*
 * Why a table: a procedure called from several places (SQLite's moveToRoot from a dozen
 * callers, sqlite3_aggregate_context from every aggregate) misses its site's last record
 * on most calls, and a search of all records (2,190 in SQLite's workload) on each of
 * those calls took three quarters of a monitored run (issue 41, bench section 29).
 */
static size_t slot_of(const void *site, const void *caller, int32_t line, size_t cap)
{
	uint64_t h = (uint64_t)(uintptr_t)site * 0x9e3779b97f4a7c15ull;

	h ^= (uint64_t)(uintptr_t)caller * 0xc2b2ae3d27d4eb4full;
	h ^= (uint64_t)(uint32_t)line * 0x165667b19e3779f9ull;
	return (size_t)(h >> 32 ^ h) & (cap - 1);
}

static void put(proc_index *x, const proc_key *k, size_t i)
{
	size_t s = slot_of(k->site, k->caller, k->call_line, x->cap);

	while (x->slots[s])
		s = (s + 1) & (x->cap - 1);
	x->slots[s] = i + 1;
}

/* Makes the table hold records 0 .. n - 1 of keys: rebuilt when it would be over half
 * full (or fewer records than it holds are left), else the new records added. 0, or
 * PVMMON_ENOMEM (the table is then empty). */
static int sync(proc_index *x, const proc_key *keys, size_t n)
{
	if (n < x->n || 2 * n >= x->cap) {
		size_t cap = x->cap ? x->cap : 256;

		while (2 * n >= cap)
			cap *= 2;
		if (cap != x->cap) {
			size_t *s = calloc(cap, sizeof(*s));

			if (!s) {
				hooks__procindex_free(x);
				return PVMMON_ENOMEM;
			}
			free(x->slots);
			x->slots = s;
			x->cap = cap;
		} else {
			for (size_t i = 0; i < cap; i++)
				x->slots[i] = 0;
		}
		x->n = 0;
	}
	for (; x->n < n; x->n++)
		put(x, &keys[x->n], x->n);
	return 0;
}

size_t hooks__procindex_find(proc_index *x, const proc_key *keys, size_t n, const void *site,
                             const void *caller, int32_t line)
{
	if (sync(x, keys, n) < 0) {
		/* Out of memory: the search of all records, as before the table. */
		for (size_t i = 0; i < n; i++)
			if (keys[i].site == site && keys[i].caller == caller && keys[i].call_line == line)
				return i;
		return (size_t)-1;
	}
	for (size_t s = slot_of(site, caller, line, x->cap); x->slots[s]; s = (s + 1) & (x->cap - 1)) {
		const proc_key *k = &keys[x->slots[s] - 1];

		if (k->site == site && k->caller == caller && k->call_line == line)
			return x->slots[s] - 1;
	}
	return (size_t)-1;
}

void hooks__procindex_free(proc_index *x)
{
	free(x->slots);
	x->slots = NULL;
	x->cap = x->n = 0;
}
