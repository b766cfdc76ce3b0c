/* Unit tests for common/wire_tags.c and the framing every message shares: the tables
 * generated from common/wire_tags.def, and for every kind a valid message accepted,
 * every cut of it refused and another build's version refused. */
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "pvmmon/errors.h"
#include "wire_samples.h"

static void test_tables(void)
{
	CU_ASSERT_EQUAL(WIRE_NKINDS, 31);
	for (int k = 0; k < WIRE_NKINDS; k++) {
		int tag = wire__kind_tag(k);

		CU_ASSERT_EQUAL(wire__tag_kind(tag), k);
		CU_ASSERT_NOT_EQUAL(wire__tag_from(tag), WIRE_PARTY_NONE);
		for (int j = 0; j < k; j++)
			CU_ASSERT_STRING_NOT_EQUAL(wire__tag_name(tag),
			                           wire__tag_name(wire__kind_tag(j)));
	}
	/* The values are the protocol's: they never move. */
	CU_ASSERT_EQUAL(WIRE_TAG_REGISTER, 0x7e5a0001);
	CU_ASSERT_EQUAL(WIRE_TAG_CLOCKSET, 0x7e5a0018);
	CU_ASSERT_EQUAL(WIRE_TAG_FATAL, 0x7e5a0030);
	CU_ASSERT_EQUAL(WIRE_TAG_PWATCH, 0x7e5a0034);
	CU_ASSERT_EQUAL(wire__tag_from(WIRE_TAG_PWATCH), WIRE_PARTY_TASK);
	CU_ASSERT_STRING_EQUAL(wire__tag_name(WIRE_TAG_LIDTID), "LIDTID");
	CU_ASSERT_STRING_EQUAL(wire__tag_name(WIRE_TAG_PASK), "PASK");
	CU_ASSERT_EQUAL(wire__tag_from(WIRE_TAG_TASKEXIT), WIRE_PARTY_PVMD);
	CU_ASSERT_EQUAL(wire__tag_from(WIRE_TAG_STATUS), WIRE_PARTY_CLI);
	CU_ASSERT_EQUAL(wire__tag_from(WIRE_TAG_WELCOME), WIRE_PARTY_MONITOR);
	/* A tag that is none of pvmmon's. */
	CU_ASSERT_EQUAL(wire__tag_kind(42), WIRE_KIND_NONE);
	CU_ASSERT_EQUAL(wire__kind_tag(WIRE_NKINDS), 0);
	CU_ASSERT_STRING_EQUAL(wire__tag_name(42), "an unknown tag");
	CU_ASSERT_EQUAL(wire__tag_check(42, NULL, 0), PVMMON_EINVAL);
}

/* Every kind: the sample decodes; each shorter prefix is refused; a byte more is refused
 * unless the last field runs to the end; a damaged version is another build's. */
static void test_every_kind_framed(void)
{
	wire_buf b;

	wire__buf_init(&b);
	for (int k = 0; k < WIRE_NKINDS; k++) {
		int tag = wire__kind_tag(k), open = wire_sample_encode(&b, k);

		if (open < 0)
			continue;
		CU_ASSERT_FATAL(!b.failed);
		CU_ASSERT_EQUAL(wire__tag_check(tag, b.data, b.len), 0);
		for (size_t n = 0; n < b.len; n++) {
			/* An exact-size copy, so that a read past the end is a sanitizer's
			 * finding. */
			uint8_t *cut = malloc(n ? n : 1);

			memcpy(cut, b.data, n);
			if (wire__tag_check(tag, cut, n) == 0)
				CU_FAIL("a cut message decoded");
			free(cut);
		}
		wire__put_u8(&b, 0);
		CU_ASSERT_EQUAL(wire__tag_check(tag, b.data, b.len) == 0, open);
		b.data[0] ^= 0x40;
		CU_ASSERT_EQUAL(wire__tag_check(tag, b.data, b.len), PVMMON_EVERSION);
	}
	wire__buf_free(&b);
}

/* pvmd packs its notify messages: they have no codec to check. */
static void test_pvmd_kinds(void)
{
	wire_buf b;

	wire__buf_init(&b);
	CU_ASSERT_EQUAL(wire_sample_encode(&b, WIRE_KIND_TASKEXIT), -1);
	CU_ASSERT_EQUAL(wire__tag_check(WIRE_TAG_MONLOST, NULL, 0), 0);
	wire__buf_free(&b);
}

CU_TestInfo test_wire_tags_tests[] = {
    {"tag, kind, name and sender tables", test_tables},
    {"every kind: accepted, cuts refused, version checked", test_every_kind_framed},
    {"pvmd's kinds have no codec", test_pvmd_kinds},
    CU_TEST_INFO_NULL,
};
