/* Dynamic instrumentation in the task: the probe sites it has seen and the monitor's
 * rules that switch them (pvmhooks/dyninst.h); calibration is in calibrate.c. */
#include <stdlib.h>
#include <string.h>

#include "../common/resource.h"
#include "dyninst.h"
#include "hooks.h"
#include "pvmmon/errors.h"
#include "probes.h"
#include "records.h"

/* A site the task has seen, with the procedure a loop is in (from the probe stack at
 * its first entry; static: a site's name is static too). */
typedef struct dyn_site {
	pvmmon_probe_site *site;
	const char *encl;
	int throttled; /* demoted to counting only: off whatever the rules say */
} dyn_site;

typedef struct dyn_rule {
	int on;
	resource r;
} dyn_rule;

static dyn_site *sites;
static size_t nsites, cap_sites;
static dyn_rule *rules;
static size_t nrules, cap_rules;

/* Whether the rules switch site (of entry si) on: the last rule naming it decides. */
static int decide(const dyn_site *si)
{
	const pvmmon_probe_site *s = si->site;
	resource_kind k = s->kind == PVMMON_PROBE_LOOP ? RESOURCE_LOOP : RESOURCE_PROC;
	size_t i = nrules;

	while (i-- > 0)
		if (resource__match(&rules[i].r, hooks__lid(), k, s->name, s->file, s->line,
				    si->encl))
			return rules[i].on;
	return 1;
}

/* Adds site (in procedure encl, for a loop) to the sites the rules apply to; NULL
 * without memory, and the site then stays on and unswitchable. */
static dyn_site *add_site(pvmmon_probe_site *site, const char *encl)
{
	dyn_site *si;

	site->seen = 1;
	if (nsites == cap_sites) {
		size_t c = cap_sites ? cap_sites * 2 : 64;
		dyn_site *n = realloc(sites, c * sizeof(*n));

		if (!n)
			return NULL;
		sites = n;
		cap_sites = c;
	}
	si = &sites[nsites++];
	si->site = site;
	si->encl = encl;
	si->throttled = 0;
	if (nrules)
		site->enabled = decide(si);
	return si;
}

int hooks__dyn_first(pvmmon_probe_site *site)
{
	int i;

	if (!add_site(site, site->kind == PVMMON_PROBE_LOOP ? hooks__records_top_proc() : NULL))
		return site->enabled;
	/* A split procedure's loops are learned with it: one never entered would keep the
	 * instrumented copy in use however the rules switch the rest. They get a record
	 * at their first entry, inside the procedure, as other loops do. */
	for (i = 0; site->kind == PVMMON_PROBE_PROC && i < site->group; i++)
		if (!site[1 + i].seen)
			add_site(&site[1 + i], site->name);
	if (!site->enabled)
		hooks__records_touch(site);
	return site->enabled;
}

/* The probes call up here through the extension they are given (probes.h), when the
 * library is loaded: probes run before the task registers. */
__attribute__((constructor)) static void extend_probes(void)
{
	static const hooks_probe_ext e = {hooks__dyn_first, hooks__dyn_throttle};

	hooks__probe_extend(&e);
}

/* Applies every rule to every site again (after the rules changed). */
static void apply(void)
{
	size_t i;

	for (i = 0; i < nsites; i++)
		sites[i].site->enabled = !sites[i].throttled && decide(&sites[i]);
}

void hooks__dyn_throttle(pvmmon_probe_site *site)
{
	size_t i;

	for (i = 0; i < nsites && sites[i].site != site; i++)
		;
	if (i < nsites)
		sites[i].throttled = 1;
	/* Off for good: its calls are counted where its probes would have run. */
	site->enabled = 0;
}

/* Adds a rule (resource text spec): 0, PVMMON_ENOMEM, or PVMMON_EPARSE when it does not
 * parse. */
static int add_rule(int on, const char *spec)
{
	dyn_rule *r;

	if (nrules == cap_rules) {
		size_t c = cap_rules ? cap_rules * 2 : 8;
		dyn_rule *n = realloc(rules, c * sizeof(*n));

		if (!n)
			return PVMMON_ENOMEM;
		rules = n;
		cap_rules = c;
	}
	r = &rules[nrules];
	if (resource__parse(&r->r, spec) < 0)
		return PVMMON_EPARSE;
	/* A rule that names another task changes nothing here. */
	if (!resource__names_task(&r->r, hooks__lid())) {
		resource__clear(&r->r);
		return 0;
	}
	r->on = on;
	nrules++;
	return 0;
}

void hooks__dyn_rules(const char *list)
{
	const char *p = list;

	while (p && *p) {
		size_t n = strcspn(p, ";");
		char *spec = n > 1 ? strndup(p + 1, n - 1) : NULL;

		if (spec && (*p == '+' || *p == '-') && add_rule(*p == '+', spec) < 0)
			hooks__count_bad();
		free(spec);
		p += n + (p[n] == ';');
	}
	apply();
}

/*
 * A command's rule, the newest: it decides the sites it names, and no other site's
 * decision changes (the last rule naming a site decides), so only its own matches are
 * taken. Applying every rule to every site again made a budget's run quadratic in its
 * switches: 666 rules on SQLite's 4,000 sites took two thirds of the task's time
 * (issue 41, bench section 29).
 */
/* The procedure sites by name: an open-addressed table of site indices plus one (0:
 * empty), made again when sites were added since. A rule that names one procedure then
 * looks at its sites only: the budget switches sites one rule each, and matching each
 * rule against every site cost SQLite's run 550 rules x 2,200 sites. */
static struct {
	size_t *slot;
	size_t cap, built; /* built: nsites when it was made */
} names;

static size_t name_slot(const char *name) { return hooks__str_hash(name) & (names.cap - 1); }

/* 0, or -1 without memory (the caller then looks at every site). */
static int names_index(void)
{
	size_t cap = 64;

	if (names.slot && names.built == nsites)
		return 0;
	while (cap < 2 * nsites)
		cap *= 2;
	free(names.slot);
	names.built = 0;
	if (!(names.slot = calloc(cap, sizeof(*names.slot))))
		return -1;
	names.cap = cap;
	for (size_t i = 0; i < nsites; i++) {
		size_t k;

		if (sites[i].site->kind == PVMMON_PROBE_LOOP || !sites[i].site->name)
			continue;
		for (k = name_slot(sites[i].site->name); names.slot[k]; k = (k + 1) & (cap - 1))
			;
		names.slot[k] = i + 1;
	}
	names.built = nsites;
	return 0;
}

static void switch_site(const dyn_rule *r, size_t i)
{
	pvmmon_probe_site *s = sites[i].site;

	if (resource__match(&r->r, hooks__lid(),
	                    s->kind == PVMMON_PROBE_LOOP ? RESOURCE_LOOP : RESOURCE_PROC, s->name,
	                    s->file, s->line, sites[i].encl))
		s->enabled = !sites[i].throttled && r->on;
}

void hooks__dyn_switch(int on, const char *resource)
{
	size_t before = nrules, i;
	const dyn_rule *r;

	if (!resource || add_rule(on, resource) < 0 || nrules == before)
		return;
	r = &rules[nrules - 1];
	/* Only procedure sites of that name can match a rule of kind=proc naming one. */
	if (r->r.kind == RESOURCE_PROC && r->r.proc && names_index() == 0) {
		for (size_t k = name_slot(r->r.proc); names.slot[k]; k = (k + 1) & (names.cap - 1))
			if (!strcmp(sites[names.slot[k] - 1].site->name, r->r.proc))
				switch_site(r, names.slot[k] - 1);
		return;
	}
	for (i = 0; i < nsites; i++)
		switch_site(r, i);
}
