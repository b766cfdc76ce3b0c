/*
 * The PVM wrappers, generated from the prototype list in wrappers.def: each resolves
 * libpvm3's definition, passes straight through when re-entered or unmonitored, and
 * otherwise runs the call's pre and post hooks (calls.c) around the real call and
 * returns the real call's result unchanged. In a replay the pre hook may have done the
 * call's work itself (call.skip; see rr.c). The wrappers and the probe API are the
 * library's only exports (PVMMON_EXTERN; everything else is compiled hidden).
 */
#include <pvm3.h>

#include "pvmmon/common.h"

#include "hooks.h"
#include "calls.h"
#include "mhf.h"
#include "waits.h"

#define HOOKS_EXPAND(...) __VA_ARGS__
#define HOOKS_APPLY(f, first, ...) f(first __VA_OPT__(, ) __VA_ARGS__)
#define HOOKS_APPLY_ARGS(f, first, args) HOOKS_APPLY(f, first, HOOKS_EXPAND args)
#define HOOKS_APPLY2(f, a, b, ...) f(a, b __VA_OPT__(, ) __VA_ARGS__)
#define HOOKS_APPLY2_ARGS(f, a, b, args) HOOKS_APPLY2(f, a, b, HOOKS_EXPAND args)

#define PVMMON_WRAP(RET, NAME, PARAMS, ARGS)                                                  \
	typedef RET(*NAME##_fn) PARAMS;                                                       \
	static NAME##_fn real_##NAME;                                                         \
	PVMMON_EXTERN RET NAME PARAMS                                                         \
	{                                                                                     \
		hooks_call call;                                                              \
		RET rc;                                                                       \
		/* The arguments may read call.ovr (pvm_precv): it must be 0 on the       \
		 * pass-through path too, where hooks__begin() sets nothing. */           \
		call.ovr = 0;                                                                 \
		if (__builtin_expect(real_##NAME == NULL, 0))                                 \
			real_##NAME = (NAME##_fn)hooks__real(#NAME);                          \
		if (hooks__guard) {                                                           \
			/* pvm_precv's own pvm_recv takes what the wait received (waits.c). */ \
			if (__builtin_expect(waits__pending, 0)) {                             \
				int h_ = HOOKS_APPLY_ARGS(waits__handoff, HOOKS_OP_##NAME, ARGS); \
				if (h_ != WAITS_NO_HANDOFF)                                    \
					return (RET)h_;                                        \
			}                                                                     \
			return real_##NAME ARGS;                                              \
		}                                                                             \
		if (!hooks__begin(&call, HOOKS_OP_##NAME, __builtin_return_address(0)))       \
			return real_##NAME ARGS;                                              \
		HOOKS_APPLY_ARGS(hooks__pre_##NAME, &call, ARGS);                             \
		call.t1 = pvmmon_clock_now();                                                 \
		hooks__in_pvm = 1;                                                            \
		rc = call.skip ? (RET)call.skip_rc : real_##NAME ARGS;                       \
		hooks__in_pvm = 0;                                                            \
		call.t2 = pvmmon_clock_now();                                                 \
		if (call.skip_t1) {                                                           \
			call.t1 = call.skip_t1;                                               \
			call.t2 = call.skip_t2;                                               \
		}                                                                             \
		HOOKS_APPLY2_ARGS(hooks__post_##NAME, &call, rc, ARGS);                       \
		hooks__end(&call);                                                            \
		return rc;                                                                    \
	}

#include "wrappers.def"
