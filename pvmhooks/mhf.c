/*
 * The program's pvm_addmhf message handlers behind trampolines: libpvm3 runs a handler
 * as it reads a matching message in, in the middle of whatever PVM call is reading,
 * and the message never reaches a receive, so no wrapper would see it. The trampoline
 * sees it instead and runs the program's handler at once, as libpvm3 would; when the
 * PVM call ends, outside libpvm3's input path, the piggyback that trails the message is
 * received and the delivery recorded with the call's position (the count of wrapped
 * calls begun). In a replay every message is kept (detached from libpvm3, which then
 * does not free it), and each recorded delivery is made with the recorded message,
 * waiting for it when it has not come yet: at the start of the receive it was recorded
 * in (the receive may wait for what the handler's sends bring about), or when any
 * other call it was recorded in ends.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pvm3.h>

#include "mhf.h"
#include "piggyback.h"
#include "rr.h"
#include "slicetimer.h"
#include "waits.h"

#define SLOTS 32
/* A replay waits for a recorded handler message as long as it may come (as the
 * recorded run did), asking every PSTAT_EVERY 1 ms steps whether its sender still runs
 * and looking for the monitor's verdict that it cannot come, and says once, after
 * NOTE_STEPS, what it waits for. */
#define NOTE_STEPS 30000
#define PSTAT_EVERY 200

typedef int (*handler_fn)(int);

static int in_handler; /* a program's handler runs (calls it makes must not receive) */
static size_t held;    /* messages handlers took that are not settled yet */

/* The program's handlers by slot, with the id PVM gave each. */
static struct {
	handler_fn user;
	int mhid;
	int used;
} slot[SLOTS];

/* A message a handler took, kept until it is given to the program's handler. */
typedef struct kept_msg {
	int buf, src, tag, bytes;
	handler_fn user;
} kept_msg;

/* A delivery made at once (in an unwrapped call), whose piggyback is still queued. */
typedef struct unsettled {
	int src, tag, bytes, op;
	uint64_t pos;
} unsettled;

static kept_msg *kept;
static size_t nkept, capkept;
static unsettled *pending;
static size_t npending, cappending;
static int settling; /* hooks__mhf_settle is running (it calls handlers, which call
                      * wrappers, which call it) */

/* The op a delivery is recorded with: the wrapped call the task is in or came last
 * from (OTHER for calls without an event op). */
static int current_op(void)
{
	pvmmon_event_op op = hooks__event_op(hooks__cur_op());

	return op ? (int)op : (int)PVMMON_EV_OTHER;
}

/*
 * Runs the program's handler on message buf as libpvm3 does: with buf as the active
 * receive buffer, freed afterwards when own (a kept message). The wrappers the handler
 * calls (it may send) are monitored like any others.
 */
static void run_handler(handler_fn user, int buf, int own, uint64_t *pos, int *op)
{
	int guard = hooks__guard, rb = 0, cur, slice;
	hooks_op saved = hooks__cur_op();

	*pos = hooks__ncalls();
	*op = current_op();
	if (own)
		rb = pvm_setrbuf(buf);
	hooks__guard = 0;
	in_handler++;
	slice = slicetimer__pause();
	if (user)
		user(buf);
	slicetimer__resume(slice);
	in_handler--;
	hooks__guard = guard;
	hooks__set_cur_op(saved);
	if (own) {
		cur = pvm_setrbuf(rb);
		if (cur > 0)
			hooks__pvm.freebuf(cur);
	}
}

static int trampoline(int k, int mid)
{
	int bytes = 0, tag = 0, src = 0;
	handler_fn user = slot[k].user;
	uint64_t pos;
	int op;

	if (hooks__state() != HOOKS_ACTIVE || pvm_bufinfo(mid, &bytes, &tag, &src) < 0)
		return user ? user(mid) : 0;
	/* In a replay the message waits for its recorded position. Otherwise the handler
	 * runs now, as without pvmmon, even in the middle of a wrapped receive: the
	 * receive may wait for a message that only the handler's own send brings about
	 * (a request answered by the handler), so holding it to the call's end could
	 * hang the program. Its piggyback is taken when the call ends. */
	if (hooks__rr_mode() == HOOKS_RR_REPLAY) {
		/* Detached, the message outlives the handler's return (libpvm3 frees the
		 * active receive buffer then, and there is none). */
		if (hooks__ensure((void **)&kept, &capkept, nkept + 1, sizeof(*kept)) < 0)
			return user ? user(mid) : 0;
		kept[nkept++] = (kept_msg){pvm_setrbuf(0), src, tag, bytes, user};
		held++;
		return 0;
	}
	run_handler(user, mid, 0, &pos, &op);
	if (hooks__ensure((void **)&pending, &cappending, npending + 1, sizeof(*pending)) == 0) {
		pending[npending++] = (unsettled){src, tag, bytes, op, pos};
		held++;
	}
	return 0;
}

#define TRAMPOLINE(k)                                                                              \
	static int trampoline_##k(int mid) { return trampoline(k, mid); }
TRAMPOLINE(0)
TRAMPOLINE(1) TRAMPOLINE(2) TRAMPOLINE(3) TRAMPOLINE(4) TRAMPOLINE(5) TRAMPOLINE(6) TRAMPOLINE(7)
    TRAMPOLINE(8) TRAMPOLINE(9) TRAMPOLINE(10) TRAMPOLINE(11) TRAMPOLINE(12) TRAMPOLINE(13)
        TRAMPOLINE(14) TRAMPOLINE(15) TRAMPOLINE(16) TRAMPOLINE(17) TRAMPOLINE(18) TRAMPOLINE(19)
            TRAMPOLINE(20) TRAMPOLINE(21) TRAMPOLINE(22) TRAMPOLINE(23) TRAMPOLINE(24)
                TRAMPOLINE(25) TRAMPOLINE(26) TRAMPOLINE(27) TRAMPOLINE(28) TRAMPOLINE(29)
                    TRAMPOLINE(30) TRAMPOLINE(31)

                        static handler_fn const trampolines[SLOTS] = {
                            trampoline_0,  trampoline_1,  trampoline_2,  trampoline_3,
                            trampoline_4,  trampoline_5,  trampoline_6,  trampoline_7,
                            trampoline_8,  trampoline_9,  trampoline_10, trampoline_11,
                            trampoline_12, trampoline_13, trampoline_14, trampoline_15,
                            trampoline_16, trampoline_17, trampoline_18, trampoline_19,
                            trampoline_20, trampoline_21, trampoline_22, trampoline_23,
                            trampoline_24, trampoline_25, trampoline_26, trampoline_27,
                            trampoline_28, trampoline_29, trampoline_30, trampoline_31,
};

int (*hooks__mhf_trampoline(int k))(int) { return k >= 0 && k < SLOTS ? trampolines[k] : NULL; }

void hooks__mhf_add_begin(hooks_call *call, int (*f)(int))
{
	static int warned;

	if (!f)
		return;
	for (int k = 0; k < SLOTS; k++)
		if (!slot[k].used && !slot[k].user) {
			slot[k].user = f;
			call->ovr = 1;
			call->ovr_tid = k;
			return;
		}
	if (!warned++)
		fprintf(stderr,
		        "pvmmon: more than %d message handlers: the messages of the "
		        "others are not recorded or replayed\n",
		        SLOTS);
}

void hooks__mhf_add_end(hooks_call *call, int rc)
{
	int k = call->ovr_tid;

	if (!call->ovr || k < 0 || k >= SLOTS)
		return;
	if (rc < 0) {
		slot[k].user = NULL;
		return;
	}
	slot[k].used = 1;
	slot[k].mhid = rc;
}

void hooks__mhf_deleted(int mhid)
{
	for (int k = 0; k < SLOTS; k++)
		if (slot[k].used && slot[k].mhid == mhid) {
			slot[k].used = 0;
			slot[k].user = NULL;
		}
}

#define KEPT_NONE (-1) /* find_kept: no such message kept */

/* The first kept message from src with tag, or KEPT_NONE. */
static long find_kept(int src, int tag)
{
	for (size_t i = 0; i < nkept; i++)
		if (kept[i].src == src && kept[i].tag == tag)
			return (long)i;
	return KEPT_NONE;
}

/* Gives kept message i to its handler, takes its piggyback and records the delivery. */
static void deliver(hooks_call *call, size_t i)
{
	kept_msg m = kept[i];
	uint64_t pos;
	int op;
	int64_t seq;

	memmove(&kept[i], &kept[i + 1], (nkept - i - 1) * sizeof(*kept));
	nkept--;
	held--;
	run_handler(m.user, m.buf, 1, &pos, &op);
	seq = hooks__absorb_piggyback(m.src, m.tag, m.bytes);
	hooks__rr_handled(call, op, m.src, m.tag, seq, pos);
}

/* Lets libpvm3 read in what has arrived (handlers run, and keep it). */
static void read_in(void)
{
	hooks_matcher m = hooks__matcher_default();

	hooks__pvm.probe(-1, -1);
	hooks__matcher_restore(m);
}

/* In a replay: delivers the recorded message from src with tag, waiting for it. It is
 * reported as a forced wait (waits.c), so that the monitor can say when it cannot come
 * (its sender waits for something that never comes itself, or has ended). */
static void deliver_recorded(hooks_call *call, int src, int tag)
{
	char obs[1024];
	const char *why = NULL;
	long i;
	int b, gone = 0;

	waits__forced_tick(call, src, tag);
	for (int step = 0;; step++) {
		i = find_kept(src, tag);
		if (i >= 0) {
			waits__forced_end();
			deliver(call, (size_t)i);
			return;
		}
		if (gone || why)
			break;
		if (step == NOTE_STEPS)
			fprintf(
			    stderr,
			    "pvmmon: replay: task %s has waited %d s for the recorded message from "
			    "t%x (tag %d) for its message handler; t%x has not ended and nothing "
			    "shows yet that the message cannot come, so the replay waits for it\n",
			    hooks__lid() ? hooks__lid() : "?", NOTE_STEPS / 1000, (unsigned)src,
			    tag, (unsigned)src);
		read_in();
		if (find_kept(src, tag) >= 0)
			continue;
		/* Queued where a handler would have taken it: no handler matches it now. */
		b = hooks__pvm.probe(src, tag);
		if (b > 0) {
			waits__forced_end();
			snprintf(obs, sizeof(obs),
			         "no handler took it: a message from t%x with tag %d "
			         "is queued for a receive",
			         (unsigned)src, tag);
			hooks__rr_handler_missing(call, obs);
			return;
		}
		waits__forced_tick(call, src, tag);
		/* One more look after either: the message may have come meanwhile. */
		if (waits__forced_verdict()) {
			snprintf(obs, sizeof(obs),
			         "no message from t%x with tag %d can come for a "
			         "handler: %s",
			         (unsigned)src, tag, waits__forced_verdict());
			why = obs;
		}
		if (step % PSTAT_EVERY == 0 && hooks__pvm.pstat(src) != PvmOk)
			gone = 1;
		usleep(1000);
	}
	waits__forced_end();
	if (!why)
		snprintf(obs, sizeof(obs),
		         "no message with tag %d came from t%x for a handler (it "
		         "has ended)",
		         tag, (unsigned)src);
	hooks__rr_handler_missing(call, obs);
}

void hooks__mhf_settle(hooks_call *call)
{
	int src, tag;

	if (in_handler || settling)
		return;
	if (hooks__state() == HOOKS_DONE) {
		/* After pvm_exit: nothing is recorded any more, but what a handler took
		 * still reaches it. */
		while (nkept) {
			kept_msg m = kept[0];
			uint64_t pos;
			int op, bytes, t, s;

			memmove(&kept[0], &kept[1], (nkept - 1) * sizeof(*kept));
			nkept--;
			held--;
			if (pvm_bufinfo(m.buf, &bytes, &t, &s) >= 0)
				run_handler(m.user, m.buf, 1, &pos, &op);
		}
		return;
	}
	if (hooks__state() != HOOKS_ACTIVE)
		return;
	settling = 1;
	for (;;) {
		if (npending) {
			unsettled u = pending[0];
			int64_t seq;

			memmove(&pending[0], &pending[1], (npending - 1) * sizeof(*pending));
			npending--;
			held--;
			seq = hooks__absorb_piggyback(u.src, u.tag, u.bytes);
			hooks__rr_handled(call, u.op, u.src, u.tag, seq, u.pos);
			continue;
		}
		if (hooks__rr_mode() == HOOKS_RR_REPLAY) {
			/* Messages no recorded delivery asks for stay kept: the end says so. */
			if (!hooks__rr_handler_due(&src, &tag, hooks__ncalls()))
				break;
			deliver_recorded(call, src, tag);
			continue;
		}
		if (!nkept)
			break;
		deliver(call, 0);
	}
	settling = 0;
}

int hooks__mhf_unsettled_from(int src)
{
	int n = 0;

	for (size_t i = 0; i < nkept; i++)
		n += kept[i].src == src;
	for (size_t i = 0; i < npending; i++)
		n += pending[i].src == src;
	return n;
}

int hooks__mhf_unexpected(int *src, int *tag)
{
	if (!nkept)
		return 0;
	*src = kept[0].src;
	*tag = kept[0].tag;
	return 1;
}

int hooks__mhf_in_handler(void) { return in_handler; }

void hooks__mhf_settle_due(hooks_call *call)
{
	if (__builtin_expect(held != 0 || hooks__rr_mode() == HOOKS_RR_REPLAY, 0))
		hooks__mhf_settle(call);
}
