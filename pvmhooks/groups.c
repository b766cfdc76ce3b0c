/*
 * The hooks of libgpvm3's group calls (but pvm_joingroup's, in calls.c, which a
 * replay orders): each call is a statement at the program's line (the answers of
 * pvm_lvgroup, pvm_gettid, pvm_getinst and pvm_gsize recorded, and in a replay the last
 * three given as recorded: rr.c), and the PVM calls
 * libgpvm3 makes inside it reach the wrappers, whose messages count under it
 * (hooks_call.inner). Traffic with the group server, an unmonitored PVM task, counts
 * there as the group server's, not as an unmonitored sender's.
 */
#include "calls.h"
#include "callsite.h"
#include "records.h"
#include "rr.h"
#include "../replay/replay.h"

/* The hooks share one body; which group call it was is call->op. */
#pragma GCC diagnostic ignored "-Wunused-parameter"

static void group_pre(hooks_call *call)
{
	/* The statement is made before the calls inside it, so it bears the group call's
	 * name (statements are named by the first call recorded at their site). */
	if (!call->inner)
		hooks__stmt(call->site, call->op);
	callsite__group_enter(call->site);
	/* libgpvm3's own calls (send, recv, mcast) must reach the wrappers: the guard
	 * is off during the real group call, as it is while the program runs. */
	hooks__guard = 0;
}

static void group_post(hooks_call *call)
{
	pvmmon_log_stmt *st;
	int64_t dt;

	hooks__guard = 1;
	callsite__group_leave();
	/* A group call made inside another (through libgpvm3's PLT) is part of it. */
	if (call->inner || !(st = hooks__stmt(call->site, call->op)))
		return;
	/* Virtual time from the real call's start to its end: the calls inside have
	 * charged their own monitoring as intrusion, and a receive inside has set the
	 * clock to the message's virtual arrival. */
	dt = vclock__virtual(hooks__clock(), call->t2) - call->v0 - (call->t1 - call->t0);
	recstmt__add_call(st, dt > 0 ? dt : 0);
}

#define GROUP_DEFINE(NAME, ...)                                                                    \
	void hooks__pre_##NAME(hooks_call *call, __VA_ARGS__) { group_pre(call); }                 \
	void hooks__post_##NAME(hooks_call *call, int rc, __VA_ARGS__) { group_post(call); }
HOOKS_GROUP_OPS(GROUP_DEFINE)
#undef GROUP_DEFINE

/* The answers a replay forces: the record is consulted before the statement's own
 * bookkeeping, with pvmmon's guard still on (a join's turn asks the group server). */
#define GROUP_ANSWER(NAME, GOP, ARG, ...)                                                          \
	void hooks__pre_##NAME(hooks_call *call, __VA_ARGS__)                                      \
	{                                                                                          \
		hooks__rr_group_before(call, GOP, group, ARG);                                     \
		group_pre(call);                                                                   \
	}                                                                                          \
	void hooks__post_##NAME(hooks_call *call, int rc, __VA_ARGS__)                             \
	{                                                                                          \
		group_post(call);                                                                  \
		hooks__rr_group_after(call, GOP, group, ARG, rc);                                  \
	}
GROUP_ANSWER(pvm_lvgroup, REPLAY_GRP_LEAVE, 0, char *group)
GROUP_ANSWER(pvm_gettid, REPLAY_GRP_GETTID, inst, char *group, int inst)
GROUP_ANSWER(pvm_getinst, REPLAY_GRP_GETINST, tid, char *group, int tid)
GROUP_ANSWER(pvm_gsize, REPLAY_GRP_GSIZE, 0, char *group)
#undef GROUP_ANSWER
