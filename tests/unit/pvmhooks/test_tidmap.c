/* Unit tests for pvmhooks/tidmap.c and ptrmap.c: the runtime's small hash maps. */
#include <CUnit/CUnit.h>

#include "../../../pvmhooks/ptrmap.h"
#include "../../../pvmhooks/tidmap.h"

static void test_tidmap_insert_find_grow(void)
{
	tidmap m = {0};
	int32_t t;

	CU_ASSERT_PTR_NULL(tidmap__find(&m, 0x40001));
	for (t = 1; t <= 1000; t++) {
		int64_t *v = tidmap__get(&m, 0x40000 + t, 0);

		CU_ASSERT_PTR_NOT_NULL_FATAL(v);
		*v += t;
	}
	CU_ASSERT_EQUAL(m.used, 1000);
	for (t = 1; t <= 1000; t++)
		CU_ASSERT_EQUAL(*tidmap__find(&m, 0x40000 + t), t);
	/* get on an existing key keeps the value. */
	CU_ASSERT_EQUAL(*tidmap__get(&m, 0x40005, 99), 5);
	CU_ASSERT_PTR_NULL(tidmap__find(&m, 0x50000));
	/* 0 is the empty marker and never a key. */
	CU_ASSERT_PTR_NULL(tidmap__get(&m, 0, 1));
	tidmap__free(&m);
	CU_ASSERT_EQUAL(m.cap, 0);
}

static void test_ptrmap_insert_find_grow(void)
{
	ptrmap m = {0};
	static char sites[500];
	size_t i;

	for (i = 0; i < 500; i++)
		CU_ASSERT_PTR_NOT_NULL(ptrmap__put(&m, &sites[i], i));
	for (i = 0; i < 500; i++)
		CU_ASSERT_EQUAL(*ptrmap__find(&m, &sites[i]), i);
	CU_ASSERT_PTR_NULL(ptrmap__find(&m, &m));
	CU_ASSERT_PTR_NULL(ptrmap__put(&m, NULL, 1));
	ptrmap__free(&m);
}

CU_TestInfo test_tidmap_tests[] = {
    {"tidmap insert, find, grow", test_tidmap_insert_find_grow},
    {"ptrmap insert, find, grow", test_ptrmap_insert_find_grow},
    CU_TEST_INFO_NULL,
};
