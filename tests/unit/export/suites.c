/* The table of unit-test suites for export/, one suite per module. */
#include "../unit.h"

extern CU_TestInfo test_otf2_tests[];
extern CU_TestInfo test_otf2_profile_tests[];

CU_SuiteInfo unit_export_suites[] = {
    {"otf2", NULL, NULL, NULL, NULL, test_otf2_tests},
    {"otf2_profile", NULL, NULL, NULL, NULL, test_otf2_profile_tests},
    CU_SUITE_INFO_NULL,
};
