/* Unit tests for common/log.c (being written). */
#include <CUnit/CUnit.h>

CU_TestInfo test_log_tests[] = {
    CU_TEST_INFO_NULL,
};
