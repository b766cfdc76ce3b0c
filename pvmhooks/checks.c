/*
 * The PVM usage checks (checks.h): wrappers of the pack, unpack and buffer calls that
 * keep each buffer's pack signature, the check of unpacks against the signature that
 * came with the message, the counts taken at pvm_exit, and the findings sent to the
 * monitor. The wrappers pass libpvm3's result through unchanged; pvmmon's own calls
 * (under the guard) are never looked at.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>

#include <pvm3.h>

#include "callsite.h"
#include "channel.h"
#include "checks.h"
#include "pvmmon/common.h"
#include "pvmmon/errors.h"
#include "reach.h"

/* Buffer ids are small integers PVM reuses at once; larger ones are not followed. */
#define MAX_BUFID 65536

/* What is known of one buffer of the program's. */
typedef struct chk_buf {
	uint8_t valid;   /* its signature is known: made by a watched call, or received
	                  * with one */
	uint8_t made;    /* made by the program's own pvm_mkbuf */
	uint8_t more;    /* more runs were packed than are kept */
	uint8_t nsig;
	uint8_t rcvd;    /* a received message: unpacks are checked */
	uint8_t done;    /* its check ended (a finding, or past the runs kept) */
	uint8_t idx;     /* the run the next unpack reads */
	uint32_t used;   /* items of that run read already */
	uint32_t sender; /* the sender's index, tag and send statement */
	int32_t tag;
	int32_t src, bytes; /* the received message's source and length: a record whose
	                     * buffer PVM freed unseen (inside a group call) and made
	                     * again for another message is told apart */
	uint32_t send_site;
	void *last_site; /* the statement of the last run packed (runs merge) */
	void *last_ret;  /* and its call's return address */
	void *made_site; /* pvm_mkbuf's statement */
	/* An error result of a pack or unpack into or from it that nothing used since. */
	int err;
	void *err_site;
	const char *err_call;
	wire_pksig sig[WIRE_PB_SIG_MAX];
} chk_buf;

/* One finding of this task (see wire_finding). */
typedef struct chk_find {
	wire_finding f;
	void *site;     /* this task's statement (NULL: none) */
	uint64_t sent;  /* the count the monitor has */
} chk_find;

static struct {
	int mask; /* -1: not read yet */
	chk_buf **bufs;
	size_t nbufs;
	int ps_type, ps_len;
	void *pk_ret, *pk_site; /* the last pack's call site and its statement */
	struct {
		const void *key;
		uint32_t off;
	} sites[256]; /* code address -> offset in the main program (a cache) */
	void *main_base;
	chk_find *finds;
	size_t nfinds, capfinds;
} ck = {.mask = -1};

int checks__parse(const char *list, const char **bad)
{
	static const char *const names[] = {"unpack", "queued", "unfreed", "ignored"};
	int mask = 0;
	const char *p = list;

	if (!strcmp(list, "all"))
		return CHECKS_ALL;
	if (!strcmp(list, "none") || !*list)
		return 0;
	while (*p) {
		size_t n = strcspn(p, ","), i;

		for (i = 0; i < 4; i++)
			if (strlen(names[i]) == n && !strncmp(p, names[i], n))
				break;
		if (i == 4) {
			if (bad)
				*bad = p;
			return pvmmon_error_set(PVMMON_EINVAL, "unknown check '%.*s'", (int)n, p);
		}
		mask |= 1 << i;
		p += n + (p[n] == ',');
	}
	return mask;
}

int checks__on(void)
{
	if (__builtin_expect(ck.mask < 0, 0)) {
		const char *e = getenv("PVMMON_CHECK");

		ck.mask = e ? checks__parse(e, NULL) : CHECKS_ALL;
		if (ck.mask < 0)
			ck.mask = CHECKS_ALL;
	}
	return ck.mask;
}

/* Whether the program's own call is to be looked at (check among the mask). */
static inline int watched(int check)
{
	return (checks__on() & check) && !hooks__guard && hooks__state() != HOOKS_PASSIVE &&
	       hooks__state() != HOOKS_DONE;
}

/* The record of buffer id (made when make), NULL when not followed. */
static chk_buf *buf_of(int id, int make)
{
	if (id <= 0 || id >= MAX_BUFID)
		return NULL;
	if ((size_t)id >= ck.nbufs) {
		size_t n = ck.nbufs ? ck.nbufs : 64;
		chk_buf **b;

		if (!make)
			return NULL;
		while (n <= (size_t)id)
			n *= 2;
		if (!(b = realloc(ck.bufs, n * sizeof(*b))))
			return NULL;
		memset(b + ck.nbufs, 0, (n - ck.nbufs) * sizeof(*b));
		ck.bufs = b;
		ck.nbufs = n;
	}
	if (!ck.bufs[id] && make)
		ck.bufs[id] = calloc(1, sizeof(chk_buf));
	return ck.bufs[id];
}

/* Forgets buffer id (freed): what every use tests first is cleared (the rest is set
 * again before it is read). */
static void forget(int id)
{
	chk_buf *b = buf_of(id, 0);

	if (b) {
		b->valid = b->made = b->rcvd = b->done = b->more = b->nsig = 0;
		b->err = 0;
	}
}

/* A new buffer id of the program's, with an empty signature. */
static void fresh(int id, int made, void *site)
{
	chk_buf *b = buf_of(id, 1);

	if (!b)
		return;
	memset(b, 0, sizeof(*b));
	b->valid = 1;
	b->made = (uint8_t)made;
	b->made_site = site;
}

/* The offset of code address site in the main program, UINT32_MAX elsewhere (the
 * monitor resolves it in the task's main program, which the registration names). */
static uint32_t site_offset(const void *site)
{
	size_t h = ((uintptr_t)site >> 2) & 255;
	Dl_info info;
	uint32_t off = UINT32_MAX;

	if (!site)
		return off;
	if (ck.sites[h].key == site)
		return ck.sites[h].off;
	if (!ck.main_base) {
		Dl_info m;
		const void *phdr = (const void *)getauxval(AT_PHDR);

		if (phdr && dladdr(phdr, &m))
			ck.main_base = m.dli_fbase;
	}
	if (dladdr(site, &info) && info.dli_fbase == ck.main_base &&
	    (uintptr_t)site - (uintptr_t)info.dli_fbase < UINT32_MAX)
		off = (uint32_t)((uintptr_t)site - (uintptr_t)info.dli_fbase);
	ck.sites[h].key = site;
	ck.sites[h].off = off;
	return off;
}

/* Site's module (heap) and offset, as statement records give them. */
static char *site_module(const void *site, uint64_t *offset)
{
	Dl_info info;

	*offset = 0;
	if (!site || !dladdr(site, &info))
		return NULL;
	*offset = (uint64_t)((uintptr_t)site - (uintptr_t)info.dli_fbase);
	if (info.dli_fname && info.dli_fname[0] == '/')
		return strdup(info.dli_fname);
	return realpath("/proc/self/exe", NULL);
}

/* Sends finding k to the monitor with its count now (the guard held: the channel's
 * own PVM calls pass through). */
static void send_find(chk_find *k)
{
	wire_buf b;
	int g = hooks__guard;

	if (hooks__state() != HOOKS_ACTIVE || k->sent == k->f.count)
		return;
	free(k->f.module);
	k->f.module = site_module(k->site, &k->f.offset);
	wire__buf_init(&b);
	wire__finding_encode(&b, &k->f);
	hooks__guard = 1;
	if (!b.failed && channel__send(WIRE_TAG_FINDING, b.data, b.len) == 0)
		k->sent = k->f.count;
	hooks__guard = g;
	wire__buf_free(&b);
}

/* Counts n more of finding f (its statement at site): the first of a statement (pair)
 * goes to the monitor at once, to be said while the program runs (what exit counts,
 * when the counting is done). */
static void found(const wire_finding *f, void *site, uint64_t n)
{
	chk_find *k = NULL;

	/* One per statement (pair): a queued message's also per sender and tag, an
	 * ignored error's per code. */
	for (size_t i = 0; i < ck.nfinds && !k; i++) {
		chk_find *o = &ck.finds[i];

		if (o->f.kind != f->kind || o->site != site || o->f.other_offset != f->other_offset)
			continue;
		if (f->kind == WIRE_CHECK_QUEUED &&
		    (o->f.tag != f->tag || o->f.other_index != f->other_index))
			continue;
		if (f->kind == WIRE_CHECK_IGNORED && o->f.a_type != f->a_type)
			continue;
		k = o;
	}
	if (!k) {
		if (ck.nfinds > 4096 ||
		    hooks__ensure((void **)&ck.finds, &ck.capfinds, ck.nfinds + 1, sizeof(*k)) < 0)
			return;
		k = &ck.finds[ck.nfinds++];
		memset(k, 0, sizeof(*k));
		k->f = *f;
		k->f.module = NULL;
		k->f.call = f->call ? strdup(f->call) : NULL;
		k->site = site;
		k->f.count = n;
		/* What exit counts goes when the counting is done (checks__exit). */
		if (f->kind == WIRE_CHECK_UNPACK || f->kind == WIRE_CHECK_IGNORED)
			send_find(k);
		return;
	}
	k->f.count += n;
}

/* An error result of an earlier call on b that the program went on past (call, at
 * site, uses b again). */
static void went_on(chk_buf *b)
{
	wire_finding f;

	if (!b->err || !(checks__on() & CHECKS_IGNORED)) {
		b->err = 0;
		return;
	}
	memset(&f, 0, sizeof(f));
	f.kind = WIRE_CHECK_IGNORED;
	f.a_type = b->err;
	f.other_index = UINT32_MAX;
	f.other_offset = UINT64_MAX;
	f.tag = -1;
	f.call = (char *)b->err_call;
	b->err = 0;
	found(&f, b->err_site, 1);
}

/* A pack of n items of type into the current send buffer, which returned rc. */
static void packed(int type, int n, int rc, void *ret, const char *call)
{
	chk_buf *b;
	void *site;

	if (!watched(CHECKS_UNPACK | CHECKS_IGNORED) || !(b = buf_of(pvm_getsbuf(), 0)) ||
	    !b->valid)
		return;
	/* A loop's next pack: the run grows (the statement is its call site's). */
	if (rc >= 0 && !b->err && b->nsig && b->last_ret == ret && !b->rcvd && !b->more &&
	    b->sig[b->nsig - 1].type == type) {
		b->sig[b->nsig - 1].count += (uint32_t)n;
		return;
	}
	/* The statement of the last pack's call site, kept: a program packs at few. */
	if (ret != ck.pk_ret) {
		ck.pk_ret = ret;
		ck.pk_site = callsite__user(ret);
	}
	site = ck.pk_site;
	if (b->err)
		went_on(b);
	if (rc < 0) {
		b->err = rc;
		b->err_site = site;
		b->err_call = call;
		return;
	}
	/* An empty pack packs nothing to check against. */
	if (b->rcvd || b->more || n <= 0)
		return;
	if (b->nsig && b->last_site == site && b->sig[b->nsig - 1].type == type) {
		b->sig[b->nsig - 1].count += (uint32_t)n;
		return;
	}
	if (b->nsig == WIRE_PB_SIG_MAX) {
		b->more = 1;
		return;
	}
	b->sig[b->nsig].type = (uint8_t)type;
	b->sig[b->nsig].count = (uint32_t)n;
	b->sig[b->nsig++].site = site_offset(site);
	b->last_site = site;
	b->last_ret = ret;
}

/* Whether data packed as type p reads back as type u (the signedness of one width
 * aside: the encoding is the same). */
static int same_type(int p, int u)
{
	static const int plain[] = {[PVM_STR] = PVM_STR,       [PVM_BYTE] = PVM_BYTE,
	                            [PVM_SHORT] = PVM_SHORT,   [PVM_INT] = PVM_INT,
	                            [PVM_FLOAT] = PVM_FLOAT,   [PVM_CPLX] = PVM_CPLX,
	                            [PVM_DOUBLE] = PVM_DOUBLE, [PVM_DCPLX] = PVM_DCPLX,
	                            [PVM_LONG] = PVM_LONG,     [PVM_USHORT] = PVM_SHORT,
	                            [PVM_UINT] = PVM_INT,      [PVM_ULONG] = PVM_LONG};
	int n = (int)(sizeof(plain) / sizeof(plain[0]));

	return p == u || (p >= 0 && u >= 0 && p < n && u < n && plain[p] == plain[u]);
}

/* The unpack at site of n items of type went wrong against b's run r (past_end: b had
 * nothing more). */
static void unpack_finding(chk_buf *b, const wire_pksig *r, int past_end, int type, int n,
                           void *site, const char *call)
{
	wire_finding f;

	b->done = 1;
	memset(&f, 0, sizeof(f));
	f.kind = WIRE_CHECK_UNPACK;
	f.tag = b->tag;
	f.other_index = b->sender;
	f.other_offset = r && r->site != UINT32_MAX ? r->site : UINT64_MAX;
	f.a_type = type;
	f.a_count = (uint32_t)n;
	f.b_type = r ? r->type : -1;
	f.b_count = r ? r->count : 0;
	f.past_end = (uint8_t)past_end;
	f.call = (char *)call;
	found(&f, site, 1);
}

/* An unpack of n items of type from the current receive buffer, which returned rc. */
static void unpacked(int type, int n, int rc, void *ret, const char *call)
{
	chk_buf *b;
	void *site = NULL;
	uint32_t need = n > 0 ? (uint32_t)n : 0;
	int id;

	if (!watched(CHECKS_UNPACK | CHECKS_IGNORED) || !(b = buf_of(id = pvm_getrbuf(), 0)))
		return;
	if (b->rcvd) {
		int bytes = 0, tag = 0, src = 0;

		if (pvm_bufinfo(id, &bytes, &tag, &src) < 0 || bytes != b->bytes || tag != b->tag ||
		    src != b->src) {
			forget(id);
			return;
		}
	}
	if (b->err) {
		site = callsite__user(ret);
		went_on(b);
	}
	if (rc < 0 && b->valid) {
		b->err = rc;
		b->err_site = site ? site : (site = callsite__user(ret));
		b->err_call = call;
	}
	if (!b->rcvd || b->done || !(checks__on() & CHECKS_UNPACK))
		return;
	while (need > 0) {
		wire_pksig *r;
		uint32_t take;

		if (b->idx >= b->nsig) {
			if (b->more)
				b->done = 1;
			else
				unpack_finding(b, b->nsig ? &b->sig[b->nsig - 1] : NULL, 1, type, n,
				               site ? site : callsite__user(ret), call);
			return;
		}
		r = &b->sig[b->idx];
		if (b->used >= r->count) {
			/* An empty run (psend of no items) holds nothing to read. */
			b->idx++;
			b->used = 0;
			continue;
		}
		if (!same_type(r->type, type)) {
			unpack_finding(b, r, 0, type, n, site ? site : callsite__user(ret), call);
			return;
		}
		take = r->count - b->used < need ? r->count - b->used : need;
		b->used += take;
		need -= take;
		if (b->used == r->count) {
			b->idx++;
			b->used = 0;
		}
	}
}

void checks__sign(wire_piggyback *pb, const hooks_call *call)
{
	chk_buf *b;

	pb->sig_on = 0;
	if (!checks__on() || call->inner)
		return;
	/* Without the unpack check (or a signature known) the piggyback still names the
	 * send's statement, with no runs and "more": its receiver checks nothing. */
	pb->sig_on = 1;
	pb->nsig = 0;
	pb->sig_more = 1;
	pb->send_site = site_offset(call->site);
	if (call->op == HOOKS_OP_pvm_psend) {
		pb->nsig = 1;
		pb->sig_more = 0;
		pb->sig[0].type = (uint8_t)ck.ps_type;
		pb->sig[0].count = (uint32_t)ck.ps_len;
		pb->sig[0].site = pb->send_site;
	} else if ((b = buf_of(pvm_getsbuf(), 0)) && b->valid) {
		if (b->err)
			went_on(b);
		pb->nsig = b->nsig;
		pb->sig_more = b->more;
		memcpy(pb->sig, b->sig, sizeof(pb->sig[0]) * b->nsig);
	}
	if (!(checks__on() & CHECKS_UNPACK)) {
		pb->nsig = 0;
		pb->sig_more = 1;
	}
}

void checks__psend(int type, int len)
{
	ck.ps_type = type;
	ck.ps_len = len;
}

void checks__rbuf_freed(int old) { forget(old); }

void checks__received(int bufid, const wire_piggyback *pb, int src, int tag, int bytes,
                      int inner)
{
	chk_buf *b;

	forget(bufid);
	if (!pb || !pb->sig_on || inner || !checks__on() || !(b = buf_of(bufid, 1)))
		return;
	/* A received buffer sent on (pvm_setsbuf) carries what it holds. */
	b->valid = 1;
	b->rcvd = 1;
	b->idx = 0;
	b->used = 0;
	b->nsig = pb->nsig;
	b->more = pb->sig_more;
	memcpy(b->sig, pb->sig, sizeof(b->sig[0]) * pb->nsig);
	b->sender = pb->sender_index;
	b->send_site = pb->send_site;
	b->tag = tag;
	b->src = src;
	b->bytes = bytes;
}

void checks__precv(const hooks_call *call, int type, int len, const wire_piggyback *pb, int tag)
{
	chk_buf tmp;

	if (!pb || !pb->sig_on || call->inner || !(checks__on() & CHECKS_UNPACK))
		return;
	/* pvm_precv unpacks the whole message as len items of type: each run must be of
	 * that type, and all of them fit (len is the room the program gives). */
	memset(&tmp, 0, sizeof(tmp));
	tmp.tag = tag;
	tmp.sender = pb->sender_index;
	for (uint8_t i = 0; i < pb->nsig; i++)
		if (!same_type(pb->sig[i].type, type)) {
			unpack_finding(&tmp, &pb->sig[i], 0, type, len, call->site, "pvm_precv");
			return;
		}
}

/* Wrappers of the pack and unpack calls: the real call, then the check. */
#define CHECKS_PK(NAME, T, TYPE, UN)                                                               \
	typedef int (*NAME##_fn)(T *, int, int);                                                   \
	static NAME##_fn real_##NAME;                                                              \
	PVMMON_EXTERN int NAME(T *p, int n, int s)                                                 \
	{                                                                                          \
		int rc;                                                                            \
		if (__builtin_expect(real_##NAME == NULL, 0))                                      \
			real_##NAME = (NAME##_fn)hooks__real(#NAME);                               \
		rc = real_##NAME(p, n, s);                                                         \
		if (!hooks__guard && ck.mask)                                                      \
			(UN ? unpacked : packed)(TYPE, n, rc, __builtin_return_address(0), #NAME); \
		if (!hooks__guard && rc >= 0 && hooks__reach_on())                                 \
			hooks__reach_data(TYPE, p, n, s, UN, __builtin_return_address(0));         \
		return rc;                                                                         \
	}
#define CHECKS_BOTH(SUFFIX, T, TYPE)                                                               \
	CHECKS_PK(pvm_pk##SUFFIX, T, TYPE, 0)                                                      \
	CHECKS_PK(pvm_upk##SUFFIX, T, TYPE, 1)

CHECKS_BOTH(byte, char, PVM_BYTE)
CHECKS_BOTH(cplx, float, PVM_CPLX)
CHECKS_BOTH(dcplx, double, PVM_DCPLX)
CHECKS_BOTH(double, double, PVM_DOUBLE)
CHECKS_BOTH(float, float, PVM_FLOAT)
CHECKS_BOTH(int, int, PVM_INT)
CHECKS_BOTH(uint, unsigned int, PVM_UINT)
CHECKS_BOTH(long, long, PVM_LONG)
CHECKS_BOTH(ulong, unsigned long, PVM_ULONG)
CHECKS_BOTH(short, short, PVM_SHORT)
CHECKS_BOTH(ushort, unsigned short, PVM_USHORT)

typedef int (*str_fn)(char *);
typedef int (*int_fn)(int);
typedef int (*vformat_fn)(const char *, va_list);
static struct {
	void *pkstr, *upkstr, *initsend, *mkbuf, *freebuf, *pkmesg, *pkmesgbody, *vpackf,
	    *vunpackf;
} real;

/* libpvm3's definition of name, resolved into *slot on first use. */
static void *real_of(void **slot, const char *name)
{
	if (__builtin_expect(*slot == NULL, 0))
		*slot = hooks__real(name);
	return *slot;
}
#define REAL(slot, name) real_of(&real.slot, name)

PVMMON_EXTERN int pvm_pkstr(char *s)
{
	int rc = ((str_fn)REAL(pkstr, "pvm_pkstr"))(s);

	if (!hooks__guard && ck.mask)
		packed(PVM_STR, 1, rc, __builtin_return_address(0), "pvm_pkstr");
	if (!hooks__guard && rc >= 0 && hooks__reach_on())
		hooks__reach_str(s, 0, __builtin_return_address(0));
	return rc;
}

PVMMON_EXTERN int pvm_upkstr(char *s)
{
	int rc = ((str_fn)REAL(upkstr, "pvm_upkstr"))(s);

	if (!hooks__guard && ck.mask)
		unpacked(PVM_STR, 1, rc, __builtin_return_address(0), "pvm_upkstr");
	if (!hooks__guard && rc >= 0 && hooks__reach_on())
		hooks__reach_str(s, 1, NULL);
	return rc;
}

/* pvm_initsend frees the current send buffer and makes a new one current. */
PVMMON_EXTERN int pvm_initsend(int enc)
{
	int old = pvm_getsbuf(), g = hooks__guard, rc;

	/* Its own pvm_freebuf and pvm_mkbuf (through the PLT) are accounted here. */
	hooks__guard = 1;
	rc = ((int_fn)REAL(initsend, "pvm_initsend"))(enc);
	hooks__guard = g;
	if (!hooks__guard && ck.mask) {
		forget(old);
		if (rc > 0)
			fresh(rc, 0, NULL);
	}
	return rc;
}

PVMMON_EXTERN int pvm_mkbuf(int enc)
{
	int rc = ((int_fn)REAL(mkbuf, "pvm_mkbuf"))(enc);

	if (!hooks__guard && ck.mask && rc > 0)
		fresh(rc, 1, callsite__user(__builtin_return_address(0)));
	return rc;
}

PVMMON_EXTERN int pvm_freebuf(int id)
{
	int rc = ((int_fn)REAL(freebuf, "pvm_freebuf"))(id);

	if (!hooks__guard && ck.mask && rc >= 0)
		forget(id);
	return rc;
}

/* What these pack is not followed: the buffer's signature becomes unknown. */
static void unknown_sbuf(void)
{
	chk_buf *b = buf_of(pvm_getsbuf(), 0);

	if (!hooks__guard && b)
		b->valid = 0;
}

PVMMON_EXTERN int pvm_pkmesg(int id)
{
	unknown_sbuf();
	/* A message packed whole may hold tids its sender packed for this task. */
	hooks__reach_opaque();
	return ((int_fn)REAL(pkmesg, "pvm_pkmesg"))(id);
}

PVMMON_EXTERN int pvm_pkmesgbody(int id)
{
	unknown_sbuf();
	hooks__reach_opaque();
	return ((int_fn)REAL(pkmesgbody, "pvm_pkmesgbody"))(id);
}

/* pvm_packf and pvm_unpackf run through libpvm3's pvm_vpackf and pvm_vunpackf: what
 * they pack is not followed, and a message read with them is checked no further. */
PVMMON_EXTERN int pvm_packf(const char *fmt, ...)
{
	va_list ap;
	int rc, g = hooks__guard;

	unknown_sbuf();
	hooks__reach_opaque();
	va_start(ap, fmt);
	hooks__guard = 1;
	rc = ((vformat_fn)REAL(vpackf, "pvm_vpackf"))(fmt, ap);
	hooks__guard = g;
	va_end(ap);
	return rc;
}

PVMMON_EXTERN int pvm_unpackf(const char *fmt, ...)
{
	va_list ap;
	int rc, g = hooks__guard;
	chk_buf *b = hooks__guard ? NULL : buf_of(pvm_getrbuf(), 0);

	if (b)
		b->done = 1;
	/* What it unpacks is not followed: it may learn any tid. */
	if (hooks__reach_on())
		hooks__reach_all();
	va_start(ap, fmt);
	hooks__guard = 1;
	rc = ((vformat_fn)REAL(vunpackf, "pvm_vunpackf"))(fmt, ap);
	hooks__guard = g;
	va_end(ap);
	return rc;
}

/* The messages still queued in the program's context at its pvm_exit (which would
 * throw them away): taken here, counted per sender, send statement and tag; pvmd's own
 * (notify messages) aside. */
static void queued_at_exit(int (*take_pb)(int src, int tag, wire_piggyback *pb))
{
	wire_piggyback pb;
	int id, n = 0;

	while (n++ < 100000 && (id = hooks__pvm.nrecv(-1, -1)) > 0) {
		int bytes = 0, tag = 0, src = 0;
		wire_finding f;

		if (pvm_bufinfo(id, &bytes, &tag, &src) < 0)
			break;
		/* pvmd's notify messages (TaskExit and the like) come as the program asked
		 * and are commonly left unread: they are no message of the program's. */
		if ((unsigned)src & 0x80000000u)
			continue;
		memset(&f, 0, sizeof(f));
		f.kind = WIRE_CHECK_QUEUED;
		f.tag = tag;
		f.other_index = UINT32_MAX;
		f.other_offset = UINT64_MAX;
		f.a_type = src;
		if (take_pb(src, tag, &pb)) {
			f.other_index = pb.sender_index;
			if (pb.sig_on && pb.send_site != UINT32_MAX)
				f.other_offset = pb.send_site;
		}
		found(&f, NULL, 1);
	}
}

/* The buffers the program made with pvm_mkbuf, neither freed nor current: counted per
 * pvm_mkbuf statement. */
static void unfreed_at_exit(void)
{
	int sb = pvm_getsbuf(), rb = pvm_getrbuf(), bytes, tag, src;

	for (size_t i = 1; i < ck.nbufs; i++) {
		chk_buf *b = ck.bufs[i];
		wire_finding f;

		/* A buffer PVM freed unseen (inside a group call) is gone. */
		if (!b || !b->made || (int)i == sb || (int)i == rb ||
		    pvm_bufinfo((int)i, &bytes, &tag, &src) < 0)
			continue;
		memset(&f, 0, sizeof(f));
		f.kind = WIRE_CHECK_UNFREED;
		f.tag = -1;
		f.other_index = UINT32_MAX;
		f.other_offset = UINT64_MAX;
		f.call = "pvm_mkbuf";
		found(&f, b->made_site, 1);
	}
}

void checks__exit(int (*take_pb)(int src, int tag, wire_piggyback *pb))
{
	int m = checks__on();

	if (m & CHECKS_QUEUED)
		queued_at_exit(take_pb);
	if (m & CHECKS_UNFREED)
		unfreed_at_exit();
	for (size_t i = 0; i < ck.nfinds; i++)
		send_find(&ck.finds[i]);
}

void checks__reset(void)
{
	for (size_t i = 0; i < ck.nbufs; i++)
		free(ck.bufs[i]);
	free(ck.bufs);
	for (size_t i = 0; i < ck.nfinds; i++) {
		free(ck.finds[i].f.module);
		free(ck.finds[i].f.call);
	}
	free(ck.finds);
	memset(&ck, 0, sizeof(ck));
	ck.mask = -1;
}
