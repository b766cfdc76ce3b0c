/*
 * Private to libpvmhooks: the per-call hooks the generated wrappers (wrappers.c) run
 * before and after the real PVM call; one pair per entry of wrappers.def. Post hooks
 * get the real call's result and must not change it.
 */
#ifndef PVMMON_HOOKS_CALLS_H
#define PVMMON_HOOKS_CALLS_H

#include <sys/time.h>

#include "hooks.h"

void hooks__pre_pvm_mytid(hooks_call *call);
void hooks__post_pvm_mytid(hooks_call *call, int rc);
void hooks__pre_pvm_send(hooks_call *call, int tid, int tag);
void hooks__post_pvm_send(hooks_call *call, int rc, int tid, int tag);
void hooks__pre_pvm_psend(hooks_call *call, int tid, int tag, void *buf, int len, int type);
void hooks__post_pvm_psend(hooks_call *call, int rc, int tid, int tag, void *buf, int len,
			   int type);
void hooks__pre_pvm_mcast(hooks_call *call, int *tids, int ntask, int tag);
void hooks__post_pvm_mcast(hooks_call *call, int rc, int *tids, int ntask, int tag);
void hooks__pre_pvm_recv(hooks_call *call, int tid, int tag);
void hooks__post_pvm_recv(hooks_call *call, int rc, int tid, int tag);
void hooks__pre_pvm_nrecv(hooks_call *call, int tid, int tag);
void hooks__post_pvm_nrecv(hooks_call *call, int rc, int tid, int tag);
void hooks__pre_pvm_trecv(hooks_call *call, int tid, int tag, struct timeval *tmout);
void hooks__post_pvm_trecv(hooks_call *call, int rc, int tid, int tag, struct timeval *tmout);
void hooks__pre_pvm_precv(hooks_call *call, int tid, int tag, void *buf, int len, int type,
			  int *rtid, int *rtag, int *rlen);
void hooks__post_pvm_precv(hooks_call *call, int rc, int tid, int tag, void *buf, int len,
			   int type, int *rtid, int *rtag, int *rlen);
void hooks__pre_pvm_probe(hooks_call *call, int tid, int tag);
void hooks__post_pvm_probe(hooks_call *call, int rc, int tid, int tag);
void hooks__pre_pvm_spawn(hooks_call *call, char *file, char **argv, int flag, char *where,
			  int ntask, int *tids);
void hooks__post_pvm_spawn(hooks_call *call, int rc, char *file, char **argv, int flag,
			   char *where, int ntask, int *tids);
void hooks__pre_pvm_joingroup(hooks_call *call, char *group);
void hooks__post_pvm_joingroup(hooks_call *call, int rc, char *group);
void hooks__pre_pvm_addmhf(hooks_call *call, int src, int tag, int ctx, int (*f)(int));
void hooks__post_pvm_addmhf(hooks_call *call, int rc, int src, int tag, int ctx, int (*f)(int));
void hooks__pre_pvm_delmhf(hooks_call *call, int mhid);
void hooks__post_pvm_delmhf(hooks_call *call, int rc, int mhid);
void hooks__pre_pvm_exit(hooks_call *call);
void hooks__post_pvm_exit(hooks_call *call, int rc);

/* libgpvm3's group calls but pvm_joingroup and those whose answers a replay forces
 * (below), with wrappers.def's parameters: their hooks are alike (groups.c). */
#define HOOKS_GROUP_OPS(X)                                                                         \
	X(pvm_barrier, char *group, int count)                                                     \
	X(pvm_bcast, char *group, int tag)                                                         \
	X(pvm_reduce, void (*func)(int *, void *, void *, int *, int *), void *data, int count,    \
	  int datatype, int tag, char *group, int root)                                            \
	X(pvm_gather, void *result, void *data, int count, int datatype, int tag, char *group,     \
	  int root)                                                                                \
	X(pvm_scatter, void *result, void *data, int count, int datatype, int tag, char *group,    \
	  int root)                                                                                \
	X(pvm_freezegroup, char *group, int size)

#define HOOKS_GROUP_DECL(NAME, ...)                                                                \
	void hooks__pre_##NAME(hooks_call *call, __VA_ARGS__);                                     \
	void hooks__post_##NAME(hooks_call *call, int rc, __VA_ARGS__);
HOOKS_GROUP_OPS(HOOKS_GROUP_DECL)
/* The group calls whose answers are recorded and replayed (groups.c, rr.c). */
HOOKS_GROUP_DECL(pvm_lvgroup, char *group)
HOOKS_GROUP_DECL(pvm_gettid, char *group, int inst)
HOOKS_GROUP_DECL(pvm_getinst, char *group, int tid)
HOOKS_GROUP_DECL(pvm_gsize, char *group)
#undef HOOKS_GROUP_DECL

#endif
