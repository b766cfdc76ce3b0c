/* Unit tests for monitor/tidindex.c: the index from tid to table place. */
#include <CUnit/CUnit.h>

#include "../../../monitor/tidindex.h"

static void test_tidindex_put_find_grow(void)
{
	tidindex x = {0};
	int32_t t;

	CU_ASSERT_EQUAL(tidindex__find(&x, 0x40001), TIDINDEX_NONE);
	/* More than the first capacity's worth, tids as PVM numbers them on two hosts. */
	for (t = 1; t <= 1000; t++) {
		CU_ASSERT_EQUAL(tidindex__put(&x, 0x40000 + t, (size_t)t - 1), 0);
		CU_ASSERT_EQUAL(tidindex__put(&x, 0x80000 + t, (size_t)t + 999), 0);
	}
	CU_ASSERT_EQUAL(x.used, 2000);
	for (t = 1; t <= 1000; t++) {
		CU_ASSERT_EQUAL(tidindex__find(&x, 0x40000 + t), t - 1);
		CU_ASSERT_EQUAL(tidindex__find(&x, 0x80000 + t), t + 999);
	}
	CU_ASSERT_EQUAL(tidindex__find(&x, 0xc0001), TIDINDEX_NONE);
	/* A tid put again gets its new place and is not counted twice. */
	CU_ASSERT_EQUAL(tidindex__put(&x, 0x40005, 7), 0);
	CU_ASSERT_EQUAL(tidindex__find(&x, 0x40005), 7);
	CU_ASSERT_EQUAL(x.used, 2000);
	/* 0 is the empty marker and never a key. */
	CU_ASSERT_EQUAL(tidindex__put(&x, 0, 1), 0);
	CU_ASSERT_EQUAL(tidindex__find(&x, 0), TIDINDEX_NONE);
	tidindex__free(&x);
	CU_ASSERT_EQUAL(x.cap, 0);
	CU_ASSERT_EQUAL(tidindex__find(&x, 0x40001), TIDINDEX_NONE);
}

CU_TestInfo test_tidindex_tests[] = {
    {"tidindex put, find, grow", test_tidindex_put_find_grow},
    CU_TEST_INFO_NULL,
};
