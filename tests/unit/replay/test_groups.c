/* Unit tests for the replay record's GROUP items (group answers: a join's instance, a
 * member's tid, a size): round trips, the group table and repeats, remapping of the
 * members they name, names past the table, and damage. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "../../../replay/codec.h"
#include "pvmmon/errors.h"
#include "pvmmon/log.h"
#include "streams.h"

static replay_entry grp(unsigned op, const char *g, int32_t who, int32_t inst, int32_t value)
{
	replay_entry e = unit_other((uint8_t)op, REPLAY_GROUP, value);

	e.group = g;
	e.sender = who;
	e.tag = inst;
	return e;
}

/* A node's group calls between messages: the answers come back exactly, the group's
 * name is written once, and a polled size is one repeat item. */
static void test_round_trip_and_size(void)
{
	char name[] = "workers";
	replay_entry v[40];
	size_t n = 0;
	wire_buf b;

	v[n++] = grp(REPLAY_GRP_JOIN, name, -1, 0, 5);
	for (int i = 0; i < 20; i++)
		v[n++] = grp(REPLAY_GRP_GSIZE, name, -1, 0, 12);
	v[n++] = grp(REPLAY_GRP_GETTID, name, 0x40003, 0, 0);
	v[n++] = grp(REPLAY_GRP_GETTID, name, -1, 13, -20 /* PvmNoInst */);
	v[n++] = grp(REPLAY_GRP_GETINST, name, 0x40007, 0, 5);
	v[n++] = unit_msg(PVMMON_EV_RECV, 0x40003, 61, 0);
	v[n++] = grp(REPLAY_GRP_JOIN, "leaders", -1, 0, 0);
	v[n++] = grp(REPLAY_GRP_LEAVE, name, -1, 0, 0);
	v[n++] = grp(REPLAY_GRP_JOIN, name, -1, 0, 3);
	unit_encode_chunked(v, n, &b);
	unit_expect_stream(b.data, b.len, v, n);
	/* About 76 bytes: the name once (8 with its length), a size and its 19 repeats in
	 * 7, a member's tid in 3; chunk boundaries split a repeat now and then. */
	CU_ASSERT(b.len < 100);
	CU_ASSERT_PTR_NOT_NULL(memmem(b.data, b.len, "workers", 7));
	CU_ASSERT_PTR_NULL(
	    memmem(memmem(b.data, b.len, "workers", 7) + 7,
	           b.len - (size_t)((uint8_t *)memmem(b.data, b.len, "workers", 7) - b.data) - 7,
	           "workers", 7));
	wire__buf_free(&b);
}

/* The encoder keeps its own copy of a name: the caller's buffer may change at once. */
static void test_caller_name_copied(void)
{
	char name[16] = "g1";
	replay_enc e;
	replay_entry x = grp(REPLAY_GRP_GSIZE, name, -1, 0, 2), want[3];
	wire_buf b;

	replay__enc_init(&e);
	wire__buf_init(&b);
	CU_ASSERT_EQUAL(replay__enc_add(&e, &x), 0);
	strcpy(name, "g2");
	CU_ASSERT_EQUAL(replay__enc_add(&e, &x), 0);
	CU_ASSERT_EQUAL(replay__enc_add(&e, &x), 0);
	CU_ASSERT_EQUAL(replay__enc_take(&e, &b), 0);
	want[0] = grp(REPLAY_GRP_GSIZE, "g1", -1, 0, 2);
	want[1] = want[2] = grp(REPLAY_GRP_GSIZE, "g2", -1, 0, 2);
	unit_expect_stream(b.data, b.len, want, 3);
	replay__enc_free(&e);
	wire__buf_free(&b);
}

/* A remap (the monitor's) names the members by index, and no task stays -1; the
 * check knows both. */
static void test_remap_members(void)
{
	replay_entry v[] = {
	    grp(REPLAY_GRP_GETTID, "g", 0x40002, 1, 0),
	    grp(REPLAY_GRP_GETTID, "g", -1, 9, -20 /* PvmNoInst */),
	    grp(REPLAY_GRP_GETINST, "g", 0x40001, 0, 0),
	    grp(REPLAY_GRP_JOIN, "g", -1, 0, 1),
	};
	replay_entry want[4];
	wire_buf b, out;
	uint64_t n = 0;

	memcpy(want, v, sizeof(v));
	want[0].sender = 1;
	want[2].sender = 0;
	unit_encode_chunked(v, 4, &b);
	CU_ASSERT_EQUAL_FATAL(replay__remap(b.data, b.len, unit_tid_to_index, NULL, &out, &n), 0);
	CU_ASSERT_EQUAL(n, 4);
	unit_expect_stream(out.data, out.len, want, 4);
	CU_ASSERT_EQUAL(replay__check(out.data, out.len, 2, &n), 0);
	CU_ASSERT_EQUAL(n, 4);
	/* A member index past the log's sender table is damage. */
	CU_ASSERT_EQUAL(replay__check(out.data, out.len, 1, &n), PVMMON_EPARSE);
	wire__buf_free(&b);
	wire__buf_free(&out);
}

/* More names than the table holds: the rest go by name each time, and still decode. */
static void test_names_past_the_table(void)
{
	enum { N = REPLAY_GROUP_MAX + 10 };
	replay_entry *v = calloc(N + 2, sizeof(*v));
	char(*names)[16] = calloc(N, 16);
	wire_buf b;

	for (int i = 0; i < N; i++) {
		snprintf(names[i], 16, "g%d", i);
		v[i] = grp(REPLAY_GRP_JOIN, names[i], -1, 0, i % 7);
	}
	v[N] = v[N - 1];
	v[N + 1] = v[0];
	unit_encode_chunked(v, N + 2, &b);
	unit_expect_stream(b.data, b.len, v, N + 2);
	wire__buf_free(&b);
	free(names);
	free(v);
}

/* Entries no stream can hold are refused. */
static void test_refused(void)
{
	char *long_name = malloc(REPLAY_GROUP_NAME_MAX + 2);
	replay_entry x = grp(REPLAY_GRP_JOIN, NULL, -1, 0, 0);
	replay_enc e;

	memset(long_name, 'a', REPLAY_GROUP_NAME_MAX + 1);
	long_name[REPLAY_GROUP_NAME_MAX + 1] = '\0';
	replay__enc_init(&e);
	CU_ASSERT_EQUAL(replay__enc_add(&e, &x), PVMMON_EINVAL);
	x.group = "";
	CU_ASSERT_EQUAL(replay__enc_add(&e, &x), PVMMON_EINVAL);
	x.group = long_name;
	CU_ASSERT_EQUAL(replay__enc_add(&e, &x), PVMMON_EINVAL);
	long_name[REPLAY_GROUP_NAME_MAX] = '\0';
	CU_ASSERT_EQUAL(replay__enc_add(&e, &x), 0);
	x.op = REPLAY_GRP_END;
	CU_ASSERT_EQUAL(replay__enc_add(&e, &x), PVMMON_EINVAL);
	replay__enc_free(&e);
	free(long_name);
}

static int decode_all(const uint8_t *data, size_t len)
{
	replay_dec d;
	replay_entry e;
	int rc;

	replay__dec_init(&d, data, len);
	while ((rc = replay__dec_next(&d, &e)) == 1)
		;
	replay__dec_free(&d);
	return rc;
}

/* Unknown calls, undefined groups, bad or truncated names and numbers, and a group
 * answer as a table outcome or a literal are damage. */
static void test_damage(void)
{
	static const uint8_t bad[][12] = {
	    {0xe7, 0x00, 0x00, 0x01, 'g', 0, 0, 0},    /* call 0 */
	    {0xe7, 0x06, 0x00, 0x01, 'g', 0, 0, 0},    /* call 6: none */
	    {0xe7, 0x01, 0x01, 0, 0, 0},               /* group 0 never defined */
	    {0xe7, 0x01, 0x00, 0x00, 0, 0, 0},         /* an empty name */
	    {0xe7, 0x01, 0x00, 0x05, 'g', 0, 0, 0},    /* a name past the end */
	    {0xe7, 0x01, 0x00, 0x02, 'g', 0, 0, 0, 0}, /* a NUL in the name */
	    {0xe7, 0x01, 0x00, 0x01, 'g', 0, 0},       /* no answer */
	    {0xe7, 0x01, 0x00, 0x01, 'g', 0, 0, 0x80}, /* a truncated answer */
	    {0xe7, 0x01, 0x00, 0x88, 0x08, 'g'},       /* longer than allowed (1032) */
	    {0xe2, 0x01, REPLAY_GROUP, 0x00},          /* defined */
	    {0xe4, 0x01, REPLAY_GROUP, 0x00},          /* literal */
	    {0xe7, 0x01},                              /* no group */
	};
	static const size_t len[] = {8, 8, 6, 7, 8, 9, 7, 8, 6, 4, 4, 2};

	for (size_t i = 0; i < sizeof(len) / sizeof(len[0]); i++) {
		CU_ASSERT_EQUAL(decode_all(bad[i], len[i]), PVMMON_EPARSE);
		if (decode_all(bad[i], len[i]) != PVMMON_EPARSE)
			fprintf(stderr, "\n  case %zu decoded\n", i);
	}
	/* The same item whole, then a reference to its group and a repeat. */
	static const uint8_t ok[] = {0xe7, 0x01, 0x00, 0x01, 'g',  0x01, 0x00, 0x06,
	                             0xe7, 0x05, 0x01, 0x01, 0x00, 0x18, 0xc0};
	CU_ASSERT_EQUAL(decode_all(ok, sizeof(ok)), 0);
}

static void test_names(void)
{
	CU_ASSERT_STRING_EQUAL(replay__group_call(REPLAY_GRP_JOIN), "pvm_joingroup");
	CU_ASSERT_STRING_EQUAL(replay__group_call(REPLAY_GRP_GSIZE), "pvm_gsize");
	CU_ASSERT_STRING_EQUAL(replay__group_call(0), "?");
	CU_ASSERT_STRING_EQUAL(replay__group_call(REPLAY_GRP_END), "?");
	CU_ASSERT(replay__valid(REPLAY_GRP_GETINST, REPLAY_GROUP));
	CU_ASSERT(!replay__valid(REPLAY_GRP_END, REPLAY_GROUP));
	/* Records of log version 1.8: a join's instance as a SPAWN outcome, still read. */
	CU_ASSERT(replay__valid(PVMMON_EV_JOINGROUP, REPLAY_SPAWN));
}

CU_TestInfo test_replay_groups_tests[] = {
    {"round trip and size", test_round_trip_and_size},
    {"the caller's name is copied", test_caller_name_copied},
    {"remap names members by index", test_remap_members},
    {"names past the table", test_names_past_the_table},
    {"refused entries", test_refused},
    {"damage", test_damage},
    {"names", test_names},
    CU_TEST_INFO_NULL,
};
