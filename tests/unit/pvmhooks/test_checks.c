/* Unit tests of pvmhooks/checks.c: the --check list the tasks read from PVMMON_CHECK. */
#include <CUnit/CUnit.h>

#include "../../../pvmhooks/checks.h"
#include "pvmmon/errors.h"

static void test_parse(void)
{
	const char *bad = NULL;

	CU_ASSERT_EQUAL(checks__parse("all", NULL), CHECKS_ALL);
	CU_ASSERT_EQUAL(checks__parse("none", NULL), 0);
	CU_ASSERT_EQUAL(checks__parse("unpack", NULL), CHECKS_UNPACK);
	CU_ASSERT_EQUAL(checks__parse("unpack,ignored", NULL), CHECKS_UNPACK | CHECKS_IGNORED);
	CU_ASSERT_EQUAL(checks__parse("queued,unfreed", NULL), CHECKS_QUEUED | CHECKS_UNFREED);
	CU_ASSERT_EQUAL(checks__parse("unpack,bogus", &bad), PVMMON_EINVAL);
	CU_ASSERT_STRING_EQUAL(bad, "bogus");
	CU_ASSERT_EQUAL(checks__parse("unpacked", NULL), PVMMON_EINVAL);
}

CU_TestInfo test_checks_tests[] = {
    {"--check lists", test_parse},
    CU_TEST_INFO_NULL,
};
