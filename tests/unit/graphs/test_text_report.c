/* Unit tests for graphs/text_report.c (being written). */
#include <CUnit/CUnit.h>

CU_TestInfo test_text_report_tests[] = {
    CU_TEST_INFO_NULL,
};
