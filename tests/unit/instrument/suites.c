/* The table of unit-test suites for instrument/, one suite per module. */
#include "../unit.h"

extern CU_TestInfo test_rewrite_tests[];

CU_SuiteInfo unit_instrument_suites[] = {
    {"rewrite", NULL, NULL, NULL, NULL, test_rewrite_tests},
    CU_SUITE_INFO_NULL,
};
