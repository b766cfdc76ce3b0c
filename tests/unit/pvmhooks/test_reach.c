/* Unit tests for pvmhooks/reach.c: whom a task may address, what it teaches and what
 * surprises, from the tids it learns, packs, unpacks and sends to. */
#include <CUnit/CUnit.h>

#include <pvm3.h>

#include "../../../common/wire_preserve.h"
#include "../../../pvmhooks/reach.h"

#define SELF 0x40002
#define PARENT 0x40001
#define CHILD 0x40007
#define OTHER 0x40009

/* Tids learned: its own, its parent's, a child's, a source's; others surprise. */
static void test_learn_and_surprise(void)
{
	hooks__reach_start(SELF, PARENT, 0);
	CU_ASSERT_TRUE(hooks__reach_on());
	CU_ASSERT_EQUAL(hooks__reach_bits(), 0);
	hooks__reach_sending(PARENT);
	hooks__reach_learn(CHILD);
	hooks__reach_sending(CHILD);
	CU_ASSERT_EQUAL(hooks__reach_bits(), 0);
	/* A group's tid or a pvmd's is no task's. */
	hooks__reach_sending((int32_t)0x40000001);
	CU_ASSERT_EQUAL(hooks__reach_bits(), 0);
	hooks__reach_sending(OTHER);
	CU_ASSERT_EQUAL(hooks__reach_bits(), WIRE_PW_REACH_SURPRISE);
	/* Learned from unpacked data, a string or ints: no surprise. */
	hooks__reach_start(SELF, PARENT, 0);
	hooks__reach_str("next is t40009.", 1, NULL);
	hooks__reach_sending(OTHER);
	CU_ASSERT_EQUAL(hooks__reach_bits(), 0);
	{
		int v[2] = {5, 0x4000a};

		hooks__reach_data(PVM_INT, v, 2, 1, 1, NULL);
		hooks__reach_sending(0x4000a);
		CU_ASSERT_EQUAL(hooks__reach_bits(), 0);
	}
	/* A task that may learn every tid surprises no one. */
	hooks__reach_all();
	hooks__reach_sending(0x4000b);
	CU_ASSERT_EQUAL(hooks__reach_bits(), WIRE_PW_REACH_ALL);
}

/* Packing a tid it learned teaches; small numbers, its own tid and data of other
 * types do not. */
static void test_teach(void)
{
	int small[3] = {1, 9999, 65535}, own = SELF, tids[2] = {7, CHILD};
	long l = CHILD;
	double d = CHILD;
	char bytes[12] = {0};

	hooks__reach_start(SELF, PARENT, 0);
	hooks__reach_learn(CHILD);
	hooks__reach_data(PVM_INT, small, 3, 1, 0, NULL);
	hooks__reach_data(PVM_INT, &own, 1, 1, 0, NULL);
	hooks__reach_data(PVM_DOUBLE, &d, 1, 1, 0, NULL);
	hooks__reach_str("work 4000 of 9000", 0, NULL);
	CU_ASSERT_EQUAL(hooks__reach_bits(), 0);
	/* A stride that skips the tid. */
	hooks__reach_data(PVM_INT, tids, 1, 2, 0, NULL);
	CU_ASSERT_EQUAL(hooks__reach_bits(), 0);
	hooks__reach_data(PVM_INT, tids, 2, 1, 0, NULL);
	CU_ASSERT_EQUAL(hooks__reach_bits(), WIRE_PW_REACH_TEACH);
	/* In a long, in bytes (a struct's field), in a string in hexadecimal. */
	hooks__reach_start(SELF, PARENT, 0);
	hooks__reach_learn(CHILD);
	hooks__reach_data(PVM_LONG, &l, 1, 1, 0, NULL);
	CU_ASSERT_EQUAL(hooks__reach_bits(), WIRE_PW_REACH_TEACH);
	hooks__reach_start(SELF, PARENT, 0);
	hooks__reach_learn(CHILD);
	memcpy(bytes + 8, &(int){CHILD}, 4);
	hooks__reach_data(PVM_BYTE, bytes, 12, 1, 0, NULL);
	CU_ASSERT_EQUAL(hooks__reach_bits(), WIRE_PW_REACH_TEACH);
	hooks__reach_start(SELF, PARENT, 0);
	hooks__reach_learn(CHILD);
	hooks__reach_str("--peer=40007", 0, NULL);
	CU_ASSERT_EQUAL(hooks__reach_bits(), WIRE_PW_REACH_TEACH);
	/* What it cannot follow teaches. */
	hooks__reach_start(SELF, PARENT, 0);
	hooks__reach_opaque();
	CU_ASSERT_EQUAL(hooks__reach_bits(), WIRE_PW_REACH_TEACH);
}

CU_TestInfo test_reach_tests[] = {
    {"tids learned, and sends to others surprise", test_learn_and_surprise},
    {"packing a learned tid teaches", test_teach},
    CU_TEST_INFO_NULL,
};
