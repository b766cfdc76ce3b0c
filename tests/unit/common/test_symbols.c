/* Unit tests for common/symbols.c (being written). */
#include <CUnit/CUnit.h>

CU_TestInfo test_symbols_tests[] = {
    CU_TEST_INFO_NULL,
};
