/*
 * Whom this task may address, for preserve mode's knowledge rule (monitor/prknow.c):
 * the tids it has learned (its own, its parent's, its children's, the sources of the
 * messages it took; and whether it unpacked data that may hold tids), whether it may
 * know every tid (its
 * program imports a call that lists tids: pvm_tasks, pvm_siblings, libgpvm3's calls,
 * the mailbox; or it took a message from an unmonitored sender), whether it packed a
 * tid it knows into a message or a spawn's arguments (it teaches: the rule is off for
 * the run), and whether it sent to a tid it had not learned (a surprise: the rule is
 * off, with a warning). The monitor sees the rest: spawns and every pair's messages.
 *
 * Why the imports and not the calls: a call that lists tids lets the task address a
 * task at once, before any report could tell the monitor; the program's imports are
 * known before it sends anything.
 */
#include <dlfcn.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>

#include <pvm3.h>

#include "reach.h"
#include "tidmap.h"
#include "../common/wire_preserve.h"

static struct {
	int on;
	uint8_t bits;
	int32_t self;
	tidmap known;
	int32_t lo, hi; /* the least and largest tid learned: a quick test for data */
	/* It unpacked a value that may be a tid: it may address tids from data (taught by
	 * a task whose TEACH bit says so), and its sends surprise no more. Unpacks are not
	 * looked at after that: a bulk message's random words would fill the map. */
	int data;
} rs;

/* Calls that list tids, in C and in Fortran (libfpvm3 is linked into the program). */
static const char *const lists_tids[] = {
    "pvm_tasks",     "pvm_siblings",  "pvm_recvinfo",    "pvm_getmboxinfo", "pvm_lookup",
    "pvm_gettid",    "pvm_bcast",     "pvm_joingroup",   "pvm_addmhf",      "pvmftasks_",
    "pvmfsiblings_", "pvmfrecvinfo_", "pvmfgetmboxinfo_", "pvmflookup_",    "pvmfgettid_",
    "pvmfbcast_",    "pvmfjoingroup_", "pvmfaddmhf_",
};

/* Whether a task tid may be v: a host part and a task part, no pvmd or group bit. */
static int tid_like(int64_t v)
{
	return v > 0 && v <= 0x3fffffff && (v >> 18) != 0 && (v & 0x3ffff) != 0;
}

void hooks__reach_learn(int32_t tid)
{
	if (!rs.on || !tid_like(tid) || tidmap__find(&rs.known, tid))
		return;
	if (!tidmap__get(&rs.known, tid, 1)) {
		rs.bits |= WIRE_PW_REACH_ALL; /* out of memory: the safe side */
		return;
	}
	rs.lo = !rs.lo || tid < rs.lo ? tid : rs.lo;
	rs.hi = tid > rs.hi ? tid : rs.hi;
}

void hooks__reach_all(void) { rs.bits |= WIRE_PW_REACH_ALL; }

void hooks__reach_opaque(void)
{
	if (rs.on)
		rs.bits |= WIRE_PW_REACH_TEACH;
}

/* Whether a pack call from caller is PVM's own: libpvm3 packs tids into its requests
 * to the pvmd (pvm_notify, pvm_kill, ...) and libgpvm3 into the group server's, through
 * the same pvm_pk* calls; neither teaches a task. Looked up only for a packed tid. */
static int pvm_internal(const void *caller)
{
	Dl_info info;

	return caller && dladdr(caller, &info) && info.dli_fname &&
	       (strstr(info.dli_fname, "libpvm3") || strstr(info.dli_fname, "libgpvm3"));
}

/* Value v was packed by caller (teach) or unpacked (learn). */
static void value(int64_t v, int unpack, const void *caller)
{
	if (!tid_like(v))
		return;
	if (unpack) {
		rs.data = 1;
		return;
	}
	/* Its own tid teaches nothing its messages' source does not. */
	if (v == rs.self)
		return;
	if ((rs.bits & WIRE_PW_REACH_ALL) ||
	    (v >= rs.lo && v <= rs.hi && tidmap__find(&rs.known, (int32_t)v))) {
		if (!pvm_internal(caller))
			rs.bits |= WIRE_PW_REACH_TEACH;
	}
}

void hooks__reach_data(int type, const void *p, int n, int stride, int unpack,
                       const void *caller)
{
	const char *c = p;
	int size;

	if (!rs.on || !p || n <= 0 || stride <= 0 || (unpack && rs.data) ||
	    (!unpack && (rs.bits & WIRE_PW_REACH_TEACH)))
		return;
	switch (type) {
	case PVM_INT:
	case PVM_UINT:
	case PVM_BYTE:
		size = 4;
		break;
	case PVM_LONG:
	case PVM_ULONG:
		size = 8;
		break;
	default:
		return; /* a tid fits no float, and no short */
	}
	if (type == PVM_BYTE) {
		/* Bytes: a struct's int fields, at every 4-byte step from the start. */
		n = stride == 1 ? n / 4 : 0;
		stride = 1;
	}
	for (int i = 0; i < n; i++) {
		int64_t v;

		if (size == 4) {
			int32_t w;

			memcpy(&w, c + (size_t)i * (size_t)stride * 4, 4);
			v = w;
		} else {
			memcpy(&v, c + (size_t)i * (size_t)stride * 8, 8);
		}
		value(v, unpack, caller);
		if (unpack && rs.data)
			return;
	}
}

void hooks__reach_str(const char *s, int unpack, const void *caller)
{
	if (!rs.on || !s || (unpack && rs.data))
		return;
	/* Each run of letters and digits, read in decimal and in hexadecimal (tids are
	 * printed both ways, "t40003" too). */
	while (*s) {
		char tok[24];
		size_t k = 0;

		while (*s && !((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f') ||
		               (*s >= 'A' && *s <= 'F')))
			s++;
		while (*s && ((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f') ||
		              (*s >= 'A' && *s <= 'F'))) {
			if (k < sizeof(tok) - 1)
				tok[k++] = *s;
			s++;
		}
		tok[k] = 0;
		if (k && k < sizeof(tok) - 1) {
			value(strtoll(tok, NULL, 16), unpack, caller);
			value(strtoll(tok, NULL, 10), unpack, caller);
		}
	}
}

void hooks__reach_sending(int32_t tid)
{
	if (!rs.on || (rs.bits & WIRE_PW_REACH_ALL) || rs.data || !tid_like(tid) || tid == rs.self)
		return;
	if (!tidmap__find(&rs.known, tid))
		rs.bits |= WIRE_PW_REACH_SURPRISE;
}

void hooks__reach_misorder(void) { rs.bits |= WIRE_PW_REACH_MISORDER; }

uint8_t hooks__reach_bits(void) { return rs.bits; }

int hooks__reach_on(void) { return rs.on; }

/* Whether the NUL-separated string table strtab (size bytes) names a call that lists
 * tids. */
static int names_lister(const char *strtab, size_t size)
{
	for (size_t i = 0; i < size;) {
		const char *s = strtab + i;
		size_t len = strnlen(s, size - i);

		if (len && s[0] == 'p')
			for (size_t k = 0; k < sizeof(lists_tids) / sizeof(lists_tids[0]); k++)
				if (!strcmp(s, lists_tids[k]))
					return 1;
		i += len + 1;
	}
	return 0;
}

/* dl_iterate_phdr's callback: sets *data when an object imports a lister or is
 * libgpvm3. PVM's own libraries and this one define them, and are skipped. */
static int scan_object(struct dl_phdr_info *info, size_t size, void *data)
{
	int *all = data;
	const char *name = info->dlpi_name ? info->dlpi_name : "";
	const ElfW(Dyn) *dyn = NULL;
	const char *strtab = NULL;
	size_t strsz = 0;

	(void)size;
	if (strstr(name, "libgpvm3")) {
		*all = 1;
		return 1;
	}
	if (strstr(name, "libpvm3") || strstr(name, "libfpvm3") || strstr(name, "libpvmhooks") ||
	    strstr(name, "linux-vdso"))
		return 0;
	for (int i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
			dyn = (const ElfW(Dyn) *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
	for (; dyn && dyn->d_tag != DT_NULL; dyn++) {
		if (dyn->d_tag == DT_STRTAB)
			/* Relocated in memory by the dynamic linker on most targets; not on a few. */
			strtab = (const char *)(dyn->d_un.d_ptr < info->dlpi_addr
			                            ? info->dlpi_addr + dyn->d_un.d_ptr
			                            : dyn->d_un.d_ptr);
		else if (dyn->d_tag == DT_STRSZ)
			strsz = dyn->d_un.d_val;
	}
	if (strtab && strsz && names_lister(strtab, strsz)) {
		*all = 1;
		return 1;
	}
	return 0;
}

void hooks__reach_start(int32_t self, int32_t parent, int imports)
{
	int all = 0;

	tidmap__free(&rs.known);
	memset(&rs, 0, sizeof(rs));
	rs.on = 1;
	rs.self = self;
	hooks__reach_learn(self);
	hooks__reach_learn(parent);
	if (imports)
		dl_iterate_phdr(scan_object, &all);
	if (all)
		rs.bits |= WIRE_PW_REACH_ALL;
}
