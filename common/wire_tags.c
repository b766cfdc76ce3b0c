/* The tables generated from common/wire_tags.def: tag to kind, name, sender, decoder. */
#include <stdlib.h>

#include "pvmmon/errors.h"
#include "wire.h"

/* One entry per kind, in the list's order. */
static const struct {
	int tag;
	const char *name;
	wire_party from;
} kinds[WIRE_NKINDS] = {
#define WIRE_TAG(name, value, from, to, codec, family) {value, #name, WIRE_PARTY_##from},
#include "wire_tags.def"
#undef WIRE_TAG
};

int wire__tag_kind(int tag)
{
	switch (tag) {
#define WIRE_TAG(name, value, from, to, codec, family)                                             \
	case value:                                                                                \
		return WIRE_KIND_##name;
#include "wire_tags.def"
#undef WIRE_TAG
	default:
		return WIRE_KIND_NONE;
	}
}

int wire__kind_tag(int kind) { return kind >= 0 && kind < WIRE_NKINDS ? kinds[kind].tag : 0; }

const char *wire__tag_name(int tag)
{
	int k = wire__tag_kind(tag);

	return k < 0 ? "an unknown tag" : kinds[k].name;
}

int wire__tag_from(int tag)
{
	int k = wire__tag_kind(tag);

	return k < 0 ? WIRE_PARTY_NONE : (int)kinds[k].from;
}

/*
 * Each codec's decoder behind one signature: it decodes and frees what the decoding
 * made. A new codec name in the list needs its function here, or the build fails.
 */
#define CHECK(codec, type, clear)                                                                  \
	static int check_##codec(const uint8_t *d, size_t n)                                       \
	{                                                                                          \
		type m;                                                                            \
		int rc = wire__##codec##_decode(&m, d, n);                                         \
                                                                                                   \
		if (rc == 0)                                                                       \
			clear(&m);                                                                 \
		return rc;                                                                         \
	}

static void nothing(const void *m) { (void)m; }

CHECK(register, wire_register, wire__register_clear)
CHECK(welcome, wire_welcome, wire__welcome_clear)
CHECK(spawned, wire_spawned, wire__spawned_clear)
CHECK(query, wire_query, nothing)
CHECK(answer, wire_answer, nothing)
CHECK(cpsample, wire_cpsample, nothing)
CHECK(ctl, wire_ctl, wire__ctl_clear)
CHECK(snapshot, wire_snapshot, nothing)
CHECK(rchunk, wire_rchunk, nothing)
CHECK(replaydata, wire_replaydata, wire__replaydata_clear)
CHECK(lid, wire_lid, wire__lid_clear)
CHECK(lidtid, wire_lidtid, nothing)
CHECK(diverged, wire_diverged, wire__diverged_clear)
CHECK(stopped, wire_stopped, wire__stopped_clear)
CHECK(pwait, wire_pwait, wire__pwait_clear)
CHECK(pgrant, wire_pgrant, wire__pgrant_clear)
CHECK(pblock, wire_pblock, nothing)
CHECK(clock, wire_clock, nothing)
CHECK(clockset, wire_clockset, nothing)
CHECK(calib, wire_calib, nothing)
CHECK(fatal, wire_fatal, nothing)
CHECK(wait, wire_wait, wire__wait_clear)
CHECK(waitend, wire_waitend, nothing)
CHECK(finding, wire_finding, wire__finding_clear)

static int check_records(const uint8_t *d, size_t n)
{
	pvmmon_log_task t;
	int final, rc = wire__records_decode(&t, &final, d, n);

	if (rc == 0)
		wire__task_clear(&t);
	return rc;
}

static int check_trace(const uint8_t *d, size_t n)
{
	pvmmon_log_event *ev = NULL;
	size_t count = 0;
	int32_t tid;
	int rc = wire__trace_decode(&tid, &ev, &count, d, n);

	free(ev);
	return rc;
}

static int check_pask(const uint8_t *d, size_t n) { return wire__pask_decode(d, n); }

/* pvmd packs its notify messages itself (pvm_upkint reads them). */
static int check_pvmd(const uint8_t *d, size_t n)
{
	(void)d;
	(void)n;
	return 0;
}

static int (*const checks[WIRE_NKINDS])(const uint8_t *, size_t) = {
#define WIRE_TAG(name, value, from, to, codec, family) check_##codec,
#include "wire_tags.def"
#undef WIRE_TAG
};

int wire__tag_check(int tag, const uint8_t *data, size_t len)
{
	int k = wire__tag_kind(tag);

	if (k < 0)
		return pvmmon_error_set(PVMMON_EINVAL, "no message kind has tag %#x",
		                        (unsigned)tag);
	return checks[k](data, len);
}
