/* The table of unit-test suites for cli/, one suite per module. */
#include "../unit.h"

extern CU_TestInfo test_runopts_tests[];
extern CU_TestInfo test_tophist_tests[];

CU_SuiteInfo unit_cli_suites[] = {
    {"runopts", NULL, NULL, NULL, NULL, test_runopts_tests},
    {"tophist", NULL, NULL, NULL, NULL, test_tophist_tests},
    CU_SUITE_INFO_NULL,
};
