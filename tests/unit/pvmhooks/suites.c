/* The table of unit-test suites for pvmhooks/, one suite per module. */
#include "../unit.h"

extern CU_TestInfo test_vclock_tests[];
extern CU_TestInfo test_tidmap_tests[];
extern CU_TestInfo test_records_tests[];
extern CU_TestInfo test_cp_tests[];
extern CU_TestInfo test_dyninst_tests[];

CU_SuiteInfo unit_pvmhooks_suites[] = {
    {"vclock", NULL, NULL, NULL, NULL, test_vclock_tests},
    {"tidmap", NULL, NULL, NULL, NULL, test_tidmap_tests},
    {"records", NULL, NULL, NULL, NULL, test_records_tests},
    {"cp", NULL, NULL, NULL, NULL, test_cp_tests},
    {"dyninst", NULL, NULL, NULL, NULL, test_dyninst_tests},
    CU_SUITE_INFO_NULL,
};
