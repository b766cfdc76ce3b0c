/*
 * Record and replay of group answers (libgpvm3): what pvm_joingroup, pvm_lvgroup,
 * pvm_gettid, pvm_getinst and pvm_gsize answered the program, in its record with the
 * group's name. A replay gives the recorded tid, instance or size without asking the
 * group server, and makes each join get its recorded instance: the group server gives
 * the lowest free instance, so a join waits until the members recorded before it have
 * joined (and one holding its instance has left); a join that still gets another one
 * (a leave came between) gives it back and waits again. What cannot be forced is a
 * divergence that names the group, the instance and why.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../replay/replay.h"
#include "rr.h"

/* A join waits for its turn up to this long... */
#define WAIT_LIMIT_MS 30000
/* ... asking the group server at first every millisecond, then less often, so that
 * 32 members waiting at once do not keep it from the joins they wait for. */
#define TURN_POLL_MAX_US 8000

/* The entry the group call being replayed took (rr.c's). */
static const replay_entry *cur;
/* The group names of the record's group entries (theirs point here). */
static char **gnames;
static size_t ngnames;

/* The record's own copy of group name g (the decoder's goes with it). */
const char *hooks__rr_intern_group(const char *g)
{
	char **t, *c;

	for (size_t i = 0; i < ngnames; i++)
		if (!strcmp(gnames[i], g))
			return gnames[i];
	if (!(t = realloc(gnames, (ngnames + 1) * sizeof(*t))))
		return NULL;
	gnames = t;
	if (!(c = strdup(g)))
		return NULL;
	return gnames[ngnames++] = c;
}

void hooks__rr_forget_groups(void)
{
	while (ngnames)
		free(gnames[--ngnames]);
	free(gnames);
	gnames = NULL;
}

/* Describes group entry e for a report ("pvm_gettid(\"g\", 0) gave task 0.3"). */
void hooks__rr_describe_group(char *buf, size_t len, const replay_entry *e, int by_tid)
{
	const char *call = replay__group_call(e->op), *g = e->group ? e->group : "?";
	char who[128];

	if (e->sender != -1)
		hooks__rr_name_of(who, sizeof(who), e->sender, by_tid);
	switch (e->op) {
	case REPLAY_GRP_JOIN:
		if (e->value >= 0)
			snprintf(buf, len, "%s(\"%s\") gave instance %d", call, g, (int)e->value);
		else
			snprintf(buf, len, "%s(\"%s\") failed with %d", call, g, (int)e->value);
		break;
	case REPLAY_GRP_GETTID:
		if (e->sender != -1)
			snprintf(buf, len, "%s(\"%s\", %d) gave %s", call, g, (int)e->tag, who);
		else
			snprintf(buf, len, "%s(\"%s\", %d) gave %d", call, g, (int)e->tag,
			         (int)e->value);
		break;
	case REPLAY_GRP_GETINST:
		snprintf(buf, len, "%s(\"%s\", %s) gave %d", call, g,
		         e->sender != -1 ? who : "no task", (int)e->value);
		break;
	default:
		snprintf(buf, len, "%s(\"%s\") gave %d", call, g, (int)e->value);
		break;
	}
}

typedef int (*gsize_fn)(char *);
typedef int (*gettid_fn)(char *, int);

/*
 * Whether a join of group now gets instance k: the group server gives the lowest free
 * instance (reusing those members left), so 0..k-1 must be held and k free. *size is
 * the group's size, *hole the first free instance below k, or -2 when k is held. The
 * server's answer for an instance never given is not to be trusted (pvmgs 3.4.6 read
 * 49 for one past the highest): with size >= k members, each of 0..k-1 has been given
 * (none is above a free one when it is given); with size == k, all held, k is free;
 * with more, a member above k joined while k was held, so k has been given too.
 */
static int turn_now(gsize_fn gsize, gettid_fn gettid, char *group, int k, int *size, int *hole)
{
	*hole = -1;
	*size = gsize(group);
	if (k > 0 && *size < k)
		return 0;
	for (int i = 0; i < k; i++)
		if (gettid(group, i) < 0) {
			*hole = i;
			return 0;
		}
	if (*size <= k)
		return 1;
	if (gettid(group, k) >= 0) {
		*hole = -2;
		return 0;
	}
	return 1;
}

/* Waits until instance k of group is the one a join gets, or the time is at end: 1
 * when it is (turn_now's *size and *hole say why not). */
static int wait_turn(char *group, int k, int64_t end, int *size, int *hole)
{
	gsize_fn gsize = (gsize_fn)hooks__real("pvm_gsize");
	gettid_fn gettid = (gettid_fn)hooks__real("pvm_gettid");
	unsigned us = 1000;

	while (!turn_now(gsize, gettid, group, k, size, hole)) {
		if (pvmmon_clock_now() >= end)
			return 0;
		usleep(us);
		us = us * 2 > TURN_POLL_MAX_US ? TURN_POLL_MAX_US : us * 2;
	}
	return 1;
}

/* Reports why the turn for instance k of group did not come (turn_now's size, hole). */
static void late_turn(hooks_call *call, char *group, int k, int size, int hole)
{
	gettid_fn gettid = (gettid_fn)hooks__real("pvm_gettid");
	char obs[512], who[128];

	if (hole == -2) {
		hooks__rr_name_of(who, sizeof(who), gettid(group, k), 1);
		snprintf(obs, sizeof(obs),
		         "instance %d of group %s was still held by %s after %d s "
		         "(a join or leave came in another order than recorded)",
		         k, group, who, WAIT_LIMIT_MS / 1000);
	} else if (hole >= 0) {
		snprintf(obs, sizeof(obs),
		         "instance %d of group %s was still free after %d s, so a "
		         "join would not get instance %d (a member left, or joined, in another "
		         "order than recorded)",
		         hole, group, WAIT_LIMIT_MS / 1000, k);
	} else {
		snprintf(obs, sizeof(obs),
		         "group %s had %d members, not the %d recorded before "
		         "this join, after %d s",
		         group, size < 0 ? 0 : size, k, WAIT_LIMIT_MS / 1000);
	}
	hooks__rr_diverge_obs(call, obs);
}

/*
 * In a replay, pvm_joingroup for recorded instance k: waits until k is the instance the
 * group server gives next (the members recorded before this task have joined, a member
 * holding k has left), then joins (the wrapper's own call is skipped). Leaves are not
 * ordered: one that comes between the look and the join frees an instance below k,
 * which the join then gets; the task gives it back at once and waits again (the
 * program sees neither: its answers about the group are the recorded ones). After
 * WAIT_LIMIT_MS, it reports why the turn did not come.
 */
static void forced_join(hooks_call *call, char *group, int k)
{
	int (*join)(char *) = (int (*)(char *))hooks__real("pvm_joingroup");
	int (*leave)(char *) = (int (*)(char *))hooks__real("pvm_lvgroup");
	int64_t end = pvmmon_clock_now() + (int64_t)WAIT_LIMIT_MS * 1000000;
	int size = 0, hole = -1, got;

	if (k < 0)
		return;
	for (;;) {
		if (!wait_turn(group, k, end, &size, &hole)) {
			late_turn(call, group, k, size, hole);
			return;
		}
		got = join(group);
		if (got == k || got < 0 || pvmmon_clock_now() >= end)
			break;
		leave(group);
	}
	call->skip = 1;
	call->skip_rc = got;
}

void hooks__rr_group_before(hooks_call *call, int gop, char *group, int arg)
{
	const char *name = replay__group_call((unsigned)gop);
	char obs[512], who[128];
	int32_t t;

	if (!hooks__rr_replaying() || call->inner || !group)
		return;
	snprintf(obs, sizeof(obs), "%s(\"%s\")", name, group);
	if (!(cur = hooks__rr_take(call, obs)))
		return;
	/* A record of log version 1.8 or older has a join's instance as a SPAWN outcome. */
	if (gop == REPLAY_GRP_JOIN && cur->kind == REPLAY_SPAWN && cur->op == PVMMON_EV_JOINGROUP) {
		forced_join(call, group, cur->value);
		return;
	}
	if (cur->kind != REPLAY_GROUP || cur->op != gop || strcmp(cur->group, group) != 0) {
		snprintf(obs, sizeof(obs), "a call of %s(\"%s\")", name, group);
		hooks__rr_diverge_obs(call, obs);
		return;
	}
	switch (gop) {
	case REPLAY_GRP_JOIN:
		forced_join(call, group, cur->value);
		return;
	case REPLAY_GRP_GETTID:
		if (arg != cur->tag) {
			snprintf(obs, sizeof(obs), "%s(\"%s\", %d)", name, group, arg);
			hooks__rr_diverge_obs(call, obs);
			return;
		}
		/* The recorded member, by its tid in this run. */
		t = cur->sender != -1 ? hooks__rr_tid_of(cur->sender) : cur->value;
		if (!t) {
			hooks__rr_name_of(who, sizeof(who), cur->sender, 0);
			snprintf(obs, sizeof(obs), "%s, the recorded answer, is not in this run",
			         who);
			hooks__rr_diverge_obs(call, obs);
			return;
		}
		call->skip = 1;
		call->skip_rc = t;
		return;
	case REPLAY_GRP_GETINST:
		if (cur->sender != -1 ? hooks__rr_tid_of(cur->sender) != arg : arg > 0) {
			hooks__rr_name_of(who, sizeof(who), arg, 1);
			snprintf(obs, sizeof(obs), "%s(\"%s\", %s)", name, group, who);
			hooks__rr_diverge_obs(call, obs);
			return;
		}
		__attribute__((fallthrough)); /* to the recorded answer */
	case REPLAY_GRP_GSIZE:
		call->skip = 1;
		call->skip_rc = cur->value;
		return;
	}
}

void hooks__rr_group_after(hooks_call *call, int gop, char *group, int arg, int rc)
{
	replay_entry e;

	if (!hooks__rr_recording() || call->inner || !group)
		return;
	memset(&e, 0, sizeof(e));
	e.op = (uint8_t)gop;
	e.kind = REPLAY_GROUP;
	e.group = group;
	e.sender = -1;
	e.value = rc;
	if (gop == REPLAY_GRP_GETTID) {
		e.tag = arg;
		/* A member is named by its tid here, by its logical id in the log. */
		if (rc > 0) {
			e.sender = rc;
			e.value = 0;
		}
	} else if (gop == REPLAY_GRP_GETINST && arg > 0) {
		e.sender = arg;
	}
	hooks__rr_add(&e);
	if (!hooks__rr_replaying() || !cur || (call->skip && gop != REPLAY_GRP_JOIN))
		return;
	/* A join or a leave was made for real: did it come out as recorded? */
	if (cur->kind == REPLAY_SPAWN && cur->op == PVMMON_EV_JOINGROUP && gop == REPLAY_GRP_JOIN &&
	    cur->value == rc)
		return;
	if (cur->kind == REPLAY_GROUP && cur->op == gop && cur->value == rc)
		return;
	hooks__rr_diverge_entry(call, &e);
}
