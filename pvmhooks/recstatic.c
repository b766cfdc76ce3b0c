/*
 * The records that count calls without timing them: the static tables that
 * instrumented translation units register (pvmmon/probe.h), copied into the task's
 * records, with the counted (leaf) procedures their entries point to, and the sites
 * throttling switched off (the proc and loop records themselves are records.c's).
 */
#include <stdlib.h>
#include <string.h>

#include "records.h"

/* The static tables registered by instrumented translation units, in load order. */
typedef struct static_table {
	const char *file;
	const pvmmon_static_entry *entries;
	int n;
} static_table;
static static_table *tables;
static size_t ntables;

void pvmmon_static_register(const char *file, const pvmmon_static_entry *entries, int n)
{
	static_table *t;

	if (!entries || n <= 0)
		return;
	t = realloc(tables, (ntables + 1) * sizeof(*t));
	if (!t)
		return;
	tables = t;
	tables[ntables].file = file;
	tables[ntables].entries = entries;
	tables[ntables].n = n;
	ntables++;
}

size_t hooks__records_static_tables(void) { return ntables; }

void hooks__records_add_statics(void)
{
	pvmmon_log_task *rec = hooks__records_task();
	size_t i, total = 0, k = 0;
	pvmmon_log_static *all;

	if (rec->nstatics || !ntables)
		return;
	for (i = 0; i < ntables; i++)
		total += (size_t)tables[i].n;
	all = calloc(total, sizeof(*all));
	if (!all)
		return;
	/* One table per task: each translation unit's parent indices are shifted by the
	 * entries before it. */
	for (i = 0; i < ntables; i++) {
		size_t base = k;

		for (int j = 0; j < tables[i].n; j++, k++) {
			const pvmmon_static_entry *e = &tables[i].entries[j];

			all[k].kind = (pvmmon_static_kind)e->kind;
			all[k].name = strdup(e->name ? e->name : "?");
			all[k].file = tables[i].file ? strdup(tables[i].file) : NULL;
			all[k].line = e->line;
			all[k].parent = e->parent >= 0 && e->parent < j
			                    ? (int32_t)(base + (size_t)e->parent)
			                    : -1;
		}
	}
	rec->statics = all;
	rec->nstatics = total;
}

/* Counted (leaf) procedures: their table entries and the proc records they update. */
static const pvmmon_static_entry **counted_entry;
static size_t *counted_proc, ncounted;

/* Throttled sites: their off count at the demotion, the record that counts them (a
 * procedure's counted record, a loop's own) and a loop's count then. */
typedef struct throttled_site {
	pvmmon_probe_site *site;
	unsigned long base;
	size_t record;
	uint64_t timed;
} throttled_site;
static throttled_site *throttled;
static size_t nthrottled;

/* Copies the throttled sites' counts since their demotion into their records. */
static void update_throttled(pvmmon_log_task *rec)
{
	for (size_t i = 0; i < nthrottled; i++) {
		const throttled_site *t = &throttled[i];
		uint64_t since = t->site->off - t->base;

		if (t->site->kind == PVMMON_PROBE_LOOP && t->record < rec->nloops)
			rec->loops[t->record].count = t->timed + since;
		else if (t->site->kind == PVMMON_PROBE_PROC && t->record < rec->nprocs)
			rec->procs[t->record].count = since;
	}
}

void hooks__records_throttled(pvmmon_probe_site *site, int64_t at, int64_t call_ns, int64_t pair_ns)
{
	pvmmon_log_task *rec = hooks__records_task();
	throttled_site *n = realloc(throttled, (nthrottled + 1) * sizeof(*n));
	size_t r = (size_t)-1;

	if (n) {
		throttled = n;
		if (site->kind == PVMMON_PROBE_LOOP)
			r = site->slot >= 0 ? (size_t)site->slot : (size_t)-1;
		else
			r = hooks__records_count_only(site);
		if (r != (size_t)-1)
			throttled[nthrottled++] = (throttled_site){
			    site, site->off, r,
			    site->kind == PVMMON_PROBE_LOOP && r < rec->nloops ? rec->loops[r].count
			                                                       : 0};
	}
	if (site->kind == PVMMON_PROBE_LOOP) {
		if (site->slot >= 0 && (size_t)site->slot < rec->nloops) {
			pvmmon_log_loop *l = &rec->loops[site->slot];

			l->throttled_at_ns = at;
			l->throttle_call_ns = call_ns;
			l->throttle_pair_ns = pair_ns;
		}
		return;
	}
	hooks__records_throttle_mark(site, at, call_ns, pair_ns);
}

void hooks__records_statics_count(void)
{
	pvmmon_log_task *rec = hooks__records_task();

	update_throttled(rec);

	for (size_t i = 0; i < ntables; i++)
		for (int j = 0; j < tables[i].n; j++) {
			const pvmmon_static_entry *e = &tables[i].entries[j];
			size_t k;

			if (!e->count || !*e->count)
				continue;
			for (k = 0; k < ncounted && counted_entry[k] != e; k++)
				;
			if (k == ncounted) {
				const pvmmon_static_entry **ce;
				size_t *cp, idx;
				pvmmon_log_proc *p;

				ce = realloc(counted_entry, (ncounted + 1) * sizeof(*ce));
				if (ce)
					counted_entry = ce;
				cp =
				    ce ? realloc(counted_proc, (ncounted + 1) * sizeof(*cp)) : NULL;
				if (!cp)
					return;
				counted_proc = cp;
				p = hooks__records_counted_new(e, &idx);
				if (!p)
					return;
				p->name = strdup(e->name ? e->name : "?");
				p->file = tables[i].file ? strdup(tables[i].file) : NULL;
				p->line = e->line;
				counted_entry[ncounted] = e;
				counted_proc[ncounted++] = idx;
			}
			rec->procs[counted_proc[k]].count = *e->count;
		}
}

void hooks__records_statics_reset(void)
{
	free(counted_entry);
	free(counted_proc);
	counted_entry = NULL;
	counted_proc = NULL;
	ncounted = 0;
	free(throttled);
	throttled = NULL;
	nthrottled = 0;
}
