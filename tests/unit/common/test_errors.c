/* Unit tests for common/errors.c: codes, descriptions and the last-error detail. */
#include <string.h>

#include <CUnit/CUnit.h>

#include "pvmmon/errors.h"

static void test_set_returns_code_and_keeps_detail(void)
{
	CU_ASSERT_EQUAL(pvmmon_error_set(PVMMON_EIO, "cannot open %s", "x.xml"), PVMMON_EIO);
	CU_ASSERT_EQUAL(pvmmon_error_code(), PVMMON_EIO);
	CU_ASSERT_STRING_EQUAL(pvmmon_error_last(), "cannot open x.xml");
	pvmmon_error_clear();
	CU_ASSERT_EQUAL(pvmmon_error_code(), 0);
}

static void test_last_falls_back_to_strerror(void)
{
	pvmmon_error_set(PVMMON_ENOMEM, NULL);
	CU_ASSERT_STRING_EQUAL(pvmmon_error_last(), "out of memory");
	pvmmon_error_clear();
}

static void test_every_code_has_a_description(void)
{
	int c;

	for (c = PVMMON_EEXISTS; c < 0; c++)
		CU_ASSERT(strcmp(pvmmon_strerror(c), "error") != 0 || c == PVMMON_ERROR);
}

CU_TestInfo test_errors_tests[] = {
    {"set returns code and keeps detail", test_set_returns_code_and_keeps_detail},
    {"last falls back to strerror", test_last_falls_back_to_strerror},
    {"every code has a description", test_every_code_has_a_description},
    CU_TEST_INFO_NULL,
};
