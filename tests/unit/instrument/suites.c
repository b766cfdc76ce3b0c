/* The table of unit-test suites for instrument/, one suite per module. */
#include "../unit.h"

extern CU_TestInfo test_counted_tests[];
extern CU_TestInfo test_plain_tests[];
extern CU_TestInfo test_rewrite_tests[];
extern CU_TestInfo test_split_tests[];

CU_SuiteInfo unit_instrument_suites[] = {
    {"counted", NULL, NULL, NULL, NULL, test_counted_tests},
    {"plain", NULL, NULL, NULL, NULL, test_plain_tests},
    {"rewrite", NULL, NULL, NULL, NULL, test_rewrite_tests},
    {"split", NULL, NULL, NULL, NULL, test_split_tests},
    CU_SUITE_INFO_NULL,
};
