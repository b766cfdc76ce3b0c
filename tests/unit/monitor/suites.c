/* The table of unit-test suites for monitor/, one suite per module. */
#include "../unit.h"

extern CU_TestInfo test_order_tests[];
extern CU_TestInfo test_registry_tests[];
extern CU_TestInfo test_clocks_tests[];
extern CU_TestInfo test_rrmon_tests[];
extern CU_TestInfo test_cost_tests[];
extern CU_TestInfo test_ending_tests[];
extern CU_TestInfo test_hang_tests[];
extern CU_TestInfo test_tidindex_tests[];
extern CU_TestInfo test_capacity_tests[];
extern CU_TestInfo test_histmerge_tests[];

CU_SuiteInfo unit_monitor_suites[] = {
    {"order", NULL, NULL, NULL, NULL, test_order_tests},
    {"registry", NULL, NULL, NULL, NULL, test_registry_tests},
    {"clocks", NULL, NULL, NULL, NULL, test_clocks_tests},
    {"rrmon", NULL, NULL, NULL, NULL, test_rrmon_tests},
    {"cost", NULL, NULL, NULL, NULL, test_cost_tests},
    {"ending", NULL, NULL, NULL, NULL, test_ending_tests},
    {"hang", NULL, NULL, NULL, NULL, test_hang_tests},
    {"tidindex", NULL, NULL, NULL, NULL, test_tidindex_tests},
    {"capacity", NULL, NULL, NULL, NULL, test_capacity_tests},
    {"histmerge", NULL, NULL, NULL, NULL, test_histmerge_tests},
    CU_SUITE_INFO_NULL,
};
