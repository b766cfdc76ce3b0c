/*
 * The channel (pvmhooks/channel.h): libpvm3's entry points and matcher, control
 * messages to and from the monitor, piggybacks in the private context, the
 * monitored-task cache and the monitor's loss. It uses no feature of libpvmhooks.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/select.h>

#include <pvm3.h>

#include "../common/pvmio.h"
#include "../common/wire.h"
#include "channel.h"
#include "pvmmon/errors.h"
#include "tidmap.h"

hooks_real hooks__pvm;

/* Control answers normally take well under a millisecond; this bounds a dead monitor. */
#define ANSWER_TIMEOUT_MS 5000

/* The channel's state: whom it talks to, for which task, and what it learned. */
static struct {
	pvmio_fns io;
	int mytid, monitor_tid, ctx;
	int lost;                  /* the monitor has gone: nothing more is sent to it */
	tidmap monitored;          /* tid -> 1 monitored, 0 not (answers from the monitor) */
	hooks_matcher std_matcher; /* libpvm3's matcher, captured at resolution */
} ch;

static const hooks_channel real_channel;
static const hooks_channel *ops = &real_channel;

/* Whether name is one of libgpvm3's calls that libpvmhooks wraps (wrappers.def). */
static int group_call(const char *name)
{
	static const char *const groups[] = {"pvm_joingroup", "pvm_lvgroup",     "pvm_barrier",
	                                     "pvm_bcast",     "pvm_reduce",      "pvm_gather",
	                                     "pvm_scatter",   "pvm_gettid",      "pvm_getinst",
	                                     "pvm_gsize",     "pvm_freezegroup", NULL};

	for (const char *const *g = groups; *g; g++)
		if (!strcmp(name, *g))
			return 1;
	return 0;
}

/*
 * libpvm3 is one of libpvmhooks' own dependencies; libgpvm3 is not (a program without
 * groups, or a preloaded one, gets no library it did not ask for), so a program that
 * calls groups must have it among its own. A linker run with --as-needed (Debian's
 * gcc) leaves it out when libpvmhooks defines every group call the program makes;
 * pvmmon-cc links PVM's libraries with --no-as-needed for that reason.
 */
void *hooks__real(const char *name)
{
	void *f = dlsym(RTLD_NEXT, name);

	if (!f && group_call(name)) {
		fprintf(stderr,
		        "pvmmon: %s calls %s, but libgpvm3, which defines it, is not among "
		        "its libraries: link it with -lgpvm3 after libpvmhooks (a linker that "
		        "drops unused libraries, --as-needed, drops it when libpvmhooks defines "
		        "every group call the program makes: give -Wl,--no-as-needed before "
		        "-lgpvm3, or build with pvmmon-cc, which does)\n",
		        channel__program(), name);
		abort();
	}
	if (!f) {
		fprintf(stderr,
		        "pvmmon: %s: %s is not defined by any library loaded after libpvmhooks: "
		        "link the program with -lpvm3 after libpvmhooks\n",
		        channel__program(), name);
		abort();
	}
	return f;
}

const char *channel__program(void)
{
	return program_invocation_short_name ? program_invocation_short_name : "task";
}

/* Matches nothing: only ever installed for the instant it takes to read back the
 * matcher it replaced. */
static int match_none(int mid, int tid, int tag)
{
	(void)mid;
	(void)tid;
	(void)tag;
	return 0;
}

/* pvm3.h declares pvm_recvf's result as a pointer to a function taking a matcher; it
 * is the previous matcher itself (PVM's source), hence the casts through void *. */
static hooks_matcher set_matcher(hooks_matcher m) { return (hooks_matcher)(void *)pvm_recvf(m); }

hooks_matcher hooks__matcher_default(void)
{
	return ch.std_matcher ? set_matcher(ch.std_matcher) : NULL;
}

void hooks__matcher_restore(hooks_matcher m)
{
	if (m)
		set_matcher(m);
}

int hooks__user_matcher(void)
{
	hooks_matcher m = hooks__matcher_default();

	hooks__matcher_restore(m);
	return m && m != ch.std_matcher;
}

void channel__resolve(void)
{
	hooks__pvm.send = hooks__real("pvm_send");
	hooks__pvm.mcast = hooks__real("pvm_mcast");
	hooks__pvm.recv = hooks__real("pvm_recv");
	hooks__pvm.nrecv = hooks__real("pvm_nrecv");
	hooks__pvm.trecv = hooks__real("pvm_trecv");
	hooks__pvm.spawn = hooks__real("pvm_spawn");
	hooks__pvm.exit = hooks__real("pvm_exit");
	hooks__pvm.mytid = hooks__real("pvm_mytid");
	hooks__pvm.probe = hooks__real("pvm_probe");
	hooks__pvm.getcontext = hooks__real("pvm_getcontext");
	hooks__pvm.setrbuf = hooks__real("pvm_setrbuf");
	hooks__pvm.freebuf = hooks__real("pvm_freebuf");
	hooks__pvm.pstat = hooks__real("pvm_pstat");
	hooks__pvm.mkbuf = hooks__real("pvm_mkbuf");
	hooks__pvm.pkbyte = hooks__real("pvm_pkbyte");
	hooks__pvm.upkbyte = hooks__real("pvm_upkbyte");
	hooks__pvm.pkmesg = hooks__real("pvm_pkmesg");
	hooks__pvm.upkint = hooks__real("pvm_upkint");
	ch.io.send = hooks__pvm.send;
	ch.io.recv = hooks__pvm.recv;
	ch.io.trecv = hooks__pvm.trecv;
	/* pvm_recvf() returns the matcher it replaces: read libpvm3's own that way (a
	 * program that installed its own before its first PVM call keeps pvmmon on it). */
	ch.std_matcher = set_matcher(match_none);
	set_matcher(ch.std_matcher);
}

void channel__open(int mytid, int monitor_tid, int ctx)
{
	ch.mytid = mytid;
	ch.monitor_tid = monitor_tid;
	ch.ctx = ctx;
	ch.lost = 0;
	tidmap__free(&ch.monitored);
}

void channel__watch(void)
{
	int oc;

	/* pvmd tells this task when the monitor ends, so that a monitor that dies leaves
	 * the program running, unmonitored (channel__check_lost). */
	oc = pvm_setcontext(ch.ctx);
	pvm_notify(PvmTaskExit, WIRE_TAG_MONLOST, 1, &ch.monitor_tid);
	pvm_setcontext(oc);
}

void channel__use(const hooks_channel *fake) { ops = fake ? fake : &real_channel; }

int channel__monitor_tid(void) { return ch.monitor_tid; }

int channel__ctx(void) { return ch.ctx; }

int channel__lost(void) { return ch.lost; }

void channel__gone(void)
{
	if (ch.lost)
		return;
	ch.lost = 1;
	fprintf(stderr, "pvmmon: the monitor has gone; %s goes on unmonitored\n",
		channel__program());
}

int channel__check_lost(void)
{
	if (ch.lost)
		return 1;
	if (ops->monitor_ended())
		channel__gone();
	return ch.lost;
}

int channel__check_lost_quietly(void)
{
	if (!ch.lost && ops->monitor_ended())
		ch.lost = 1;
	return ch.lost;
}

int channel__send(int tag, const void *data, size_t len)
{
	if (ch.lost)
		return PVMMON_ENOTFOUND;
	return ops->send(tag, data, len);
}

int channel__recv(uint8_t **out, size_t *len, int tag, int timeout_ms)
{
	if (ch.lost)
		return PVMMON_ENOTFOUND;
	return ops->recv(out, len, tag, timeout_ms);
}

int channel__is_monitored(int tid) { return ops->is_monitored(tid); }

int channel__pb_send(const int *tids, int n, int tag, const void *data, size_t len)
{
	return ops->pb_send(tids, n, tag, data, len);
}

int channel__pb_take(uint8_t **heap, size_t *len, int src, int tag, uint8_t *buf, size_t cap)
{
	return ops->pb_take(heap, len, src, tag, buf, cap);
}

int channel__take_any(uint8_t **out, size_t *len, int *src, int *tag, long wait_us)
{
	return ops->take_any(out, len, src, tag, wait_us);
}

int channel__send_size(void) { return ops->send_size(); }

int channel__buf_info(int bufid, int *bytes, int *tag, int *src)
{
	return ops->buf_info(bufid, bytes, tag, src);
}

/* The real channel's entries. */

static int real_send(int tag, const void *data, size_t len)
{
	return pvmio__send(&ch.io, ch.ctx, ch.monitor_tid, tag, data, len);
}

static int real_recv(uint8_t **out, size_t *len, int tag, int timeout_ms)
{
	/* A matcher the program installed must not pick the answer (it could take a
	 * piggyback for it). */
	hooks_matcher m = hooks__matcher_default();
	int rc = pvmio__recv(&ch.io, ch.ctx, ch.monitor_tid, tag, timeout_ms, out, len, NULL, NULL);

	hooks__matcher_restore(m);
	return rc;
}

static int real_is_monitored(int tid)
{
	int64_t *known;
	wire_buf b;
	uint8_t *ans = NULL;
	size_t len;
	int monitored = 0;

	if (tid == ch.mytid)
		return 1;
	/* pvmd and multicast addresses have the high bits set; they send no piggyback. */
	if (tid <= 0 || tid == ch.monitor_tid)
		return 0;
	known = tidmap__find(&ch.monitored, tid);
	if (known)
		return (int)*known;
	/* Without a monitor to ask, a task not met before counts as unmonitored: a task
	 * started after the monitor's end sends no piggybacks, and waiting for one from
	 * it would never end. */
	if (ch.lost)
		return 0;
	wire__buf_init(&b);
	wire__query_encode(&b, &(wire_query){tid});
	if (!b.failed && real_send(WIRE_TAG_QUERY, b.data, b.len) == 0 &&
	    real_recv(&ans, &len, WIRE_TAG_ANSWER, ANSWER_TIMEOUT_MS) == 0) {
		wire_answer a;

		if (wire__answer_decode(&a, ans, len) == 0 && a.tid == tid)
			monitored = a.monitored ? 1 : 0;
		free(ans);
	}
	wire__buf_free(&b);
	tidmap__get(&ch.monitored, tid, monitored);
	return monitored;
}

static int real_pb_send(const int *tids, int n, int tag, const void *data, size_t len)
{
	int sbuf = hooks__pvm.mkbuf(PvmDataRaw), oldbuf = pvm_setsbuf(sbuf);
	int oldctx = pvm_setcontext(ch.ctx), rc;

	hooks__pvm.pkbyte((char *)data, (int)len, 1);
	if (n == 1)
		rc = hooks__pvm.send(tids[0], tag);
	else
		rc = hooks__pvm.mcast((int *)tids, n, tag);
	pvm_setcontext(oldctx);
	pvm_setsbuf(oldbuf);
	hooks__pvm.freebuf(sbuf);
	return rc < 0 ? PVMMON_EPVM : 0;
}

/*
 * Waits for the piggyback of a monitored sender. A sender killed right after its user
 * message may never send it (and pvmd may drop what a dying task had not yet handed
 * over), so the wait gives up once the sender is gone and nothing more is queued.
 */
static int await_piggyback(int src, int tag)
{
	struct timeval tv = {0, 200000};
	int b;

	for (;;) {
		b = hooks__pvm.trecv(src, tag, &tv);
		if (b != 0)
			return b;
		if (hooks__pvm.pstat(src) != PvmOk)
			return hooks__pvm.nrecv(src, tag);
	}
}

/* 1 when tid is this task or a task the monitor said is monitored (no question asked). */
static int known_monitored(int tid)
{
	int64_t *known = tid > 0 ? tidmap__find(&ch.monitored, tid) : NULL;

	return tid == ch.mytid || (known && *known);
}

static int real_pb_take(uint8_t **heap, size_t *len, int src, int tag, uint8_t *buf, size_t cap)
{
	int rb, oldctx, pbuf, n = 0, ptag, psrc, rc = 0;
	hooks_matcher matcher;

	*heap = NULL;
	*len = 0;
	rb = pvm_setrbuf(0);
	oldctx = pvm_setcontext(ch.ctx);
	matcher = hooks__matcher_default();
	/* A sender already known to be monitored sends one: the wait looks at the queue
	 * first, and only then blocks, without the empty poll (a select) that pvm_nrecv
	 * makes when the piggyback is still on its way, as it often is. Otherwise the
	 * piggyback is usually queued already; only when it is not do we need to know
	 * whether the sender sends one at all (a question to the monitor). */
	if (known_monitored(src))
		pbuf = await_piggyback(src, tag);
	else if ((pbuf = hooks__pvm.nrecv(src, tag)) == 0 && ops->is_monitored(src))
		pbuf = await_piggyback(src, tag);
	hooks__matcher_restore(matcher);
	if (pbuf > 0 && pvm_bufinfo(pbuf, &n, &ptag, &psrc) >= 0 && n > 0) {
		uint8_t *p = buf;

		if ((size_t)n > cap)
			p = *heap = malloc((size_t)n);
		rc = p && hooks__pvm.upkbyte((char *)p, n, 1) >= 0 ? 1 : PVMMON_EPARSE;
		*len = (size_t)n;
	}
	if (pbuf > 0)
		hooks__pvm.freebuf(pbuf);
	pvm_setcontext(oldctx);
	pvm_setrbuf(rb);
	return rc;
}

/*
 * Waits up to wait_us for input on PVM's sockets (pvm_getfds: the pvmd's, and the
 * direct routes'), whatever context it is for: a message from a sender that is no
 * monitored task brings no piggyback, and a wait for the private context alone would
 * sleep through it. Messages already read are in the queue: the caller took them
 * first. Falls back to a timed receive on the private context without the sockets.
 */
static int wait_input(long wait_us)
{
	struct timeval tv = {wait_us / 1000000, wait_us % 1000000};
	int *fds = NULL, n = pvm_getfds(&fds), maxfd = -1;
	fd_set r;

	if (n <= 0 || !fds)
		return hooks__pvm.trecv(-1, -1, &tv);
	FD_ZERO(&r);
	for (int i = 0; i < n; i++) {
		if (fds[i] < 0 || fds[i] >= FD_SETSIZE)
			return hooks__pvm.trecv(-1, -1, &tv);
		FD_SET(fds[i], &r);
		maxfd = fds[i] > maxfd ? fds[i] : maxfd;
	}
	select(maxfd + 1, &r, NULL, NULL, &tv);
	return hooks__pvm.nrecv(-1, -1);
}

static int real_take_any(uint8_t **out, size_t *len, int *src, int *tag, long wait_us)
{
	int rb = pvm_setrbuf(0), oc = pvm_setcontext(ch.ctx), b, n, rc = 0;
	hooks_matcher m = hooks__matcher_default();

	/* Waiting, it returns with nothing when a message for another context came. */
	b = hooks__pvm.nrecv(-1, -1);
	if (b == 0 && wait_us > 0)
		b = wait_input(wait_us);
	if (b > 0 && pvm_bufinfo(b, &n, tag, src) >= 0)
		rc = pvmio__unpack(b, out, len, NULL, NULL) == 0 ? 1 : PVMMON_EPVM;
	if (b > 0)
		hooks__pvm.freebuf(b);
	hooks__matcher_restore(m);
	pvm_setcontext(oc);
	pvm_setrbuf(rb);
	return rc;
}

/* PVM's signature of a PvmDataInPlace buffer (pvm_getminfo's enc). */
#define ENC_INPLACE 0x20000000
/* Where libpvm3 3.4 keeps a message's id and body length in its message descriptor
 * (struct pmsg: five pointers, m_ref, m_mid, m_len). */
#define PMSG_MID_AT (5 * sizeof(void *) + sizeof(int))
#define PMSG_LEN_AT (PMSG_MID_AT + sizeof(int))

/*
 * The body length of a PvmDataInPlace send buffer. libpvm3 keeps no length for one
 * (pvm_bufinfo says 0: its data stays in the program's memory until sent), yet the
 * receiver gets every byte. libpvm3's own pmsg_setlen() sums the fragments but also
 * stores the sum in the descriptor, where the program's later pvm_bufinfo() would see
 * it; so the stored length is put back as it was, and only when the descriptor is laid
 * out as expected (its message id where PVM 3.4 has it). Without libpvm3's internals
 * (a static libpvm3, another PVM) the length is 0, as before.
 */
static int inplace_size(int sb)
{
	static void *(*midtobuf)(int);
	static int (*setlen)(void *);
	static int resolved;
	struct pvmminfo mi;
	char *mp;
	int len, *mid_at, *len_at;

	if (!resolved) {
		midtobuf = (void *(*)(int))dlsym(RTLD_NEXT, "midtobuf");
		setlen = (int (*)(void *))dlsym(RTLD_NEXT, "pmsg_setlen");
		resolved = 1;
	}
	if (!midtobuf || !setlen || pvm_getminfo(sb, &mi) < 0 || mi.enc != ENC_INPLACE)
		return 0;
	mp = midtobuf(sb);
	if (!mp)
		return 0;
	mid_at = (int *)(mp + PMSG_MID_AT);
	len_at = (int *)(mp + PMSG_LEN_AT);
	if (*mid_at != sb || *len_at != mi.len)
		return 0;
	len = setlen(mp);
	*len_at = mi.len;
	return len > 0 ? len : 0;
}

static int real_send_size(void)
{
	int bytes = 0, tag, src, sb = pvm_getsbuf();

	if (sb > 0 && pvm_bufinfo(sb, &bytes, &tag, &src) < 0)
		bytes = 0;
	if (sb > 0 && bytes == 0)
		bytes = inplace_size(sb);
	return bytes;
}

static int real_buf_info(int bufid, int *bytes, int *tag, int *src)
{
	return pvm_bufinfo(bufid, bytes, tag, src) < 0 ? PVMMON_EPVM : 0;
}

static int real_monitor_ended(void)
{
	uint8_t *d = NULL;
	size_t len;
	/* libpvm3's matcher: one the program installed could take a piggyback here. */
	hooks_matcher m = hooks__matcher_default();
	int ended = pvmio__recv(&ch.io, ch.ctx, -1, WIRE_TAG_MONLOST, 0, &d, &len, NULL, NULL) == 0;

	hooks__matcher_restore(m);
	free(d);
	return ended;
}

/* The queue walk of real_queued: libpvm3 offers each queued message, in every context,
 * to the matcher; this one notes those it is after and accepts none. */
static struct {
	wire_wqueued *out;
	int max, n, src;
} walk;

static int note_queued(int mid, int tid, int tag)
{
	struct pvmminfo mi;

	(void)tid;
	(void)tag;
	if (pvm_getminfo(mid, &mi) < 0 || mi.ctx == ch.ctx ||
	    (walk.src != -1 && mi.src != walk.src))
		return 0;
	/* Every one is counted; the first max are listed. */
	if (walk.n < walk.max)
		walk.out[walk.n] = (wire_wqueued){mi.src, mi.tag, mi.ctx, (uint32_t)mi.len};
	walk.n++;
	return 0;
}

static int real_queued(wire_wqueued *out, int max, int src)
{
	int rb = pvm_setrbuf(0);
	hooks_matcher m = set_matcher(note_queued);

	walk.out = out;
	walk.max = max;
	walk.n = 0;
	walk.src = src;
	/* Nothing matches, so this takes nothing: it only walks the queue. */
	hooks__pvm.nrecv(-1, -1);
	set_matcher(m);
	pvm_setrbuf(rb);
	return walk.n;
}

int channel__queued(wire_wqueued *out, int max, int src)
{
	return ops->queued ? ops->queued(out, max, src) : 0;
}

static const hooks_channel real_channel = {
    .send = real_send,
    .recv = real_recv,
    .is_monitored = real_is_monitored,
    .pb_send = real_pb_send,
    .pb_take = real_pb_take,
    .take_any = real_take_any,
    .send_size = real_send_size,
    .buf_info = real_buf_info,
    .monitor_ended = real_monitor_ended,
    .queued = real_queued,
};
