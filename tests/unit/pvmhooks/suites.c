/* The table of unit-test suites for pvmhooks/, one suite per module. */
#include "../unit.h"

extern CU_TestInfo test_vclock_tests[];
extern CU_TestInfo test_tidmap_tests[];
extern CU_TestInfo test_records_tests[];
extern CU_TestInfo test_cp_tests[];
extern CU_TestInfo test_dyninst_tests[];
extern CU_TestInfo test_calls_tests[];
extern CU_TestInfo test_sched_tests[];
extern CU_TestInfo test_rr_tests[];
extern CU_TestInfo test_src_reads_tests[];
extern CU_TestInfo test_preserve_tests[];
extern CU_TestInfo test_prlocal_tests[];
extern CU_TestInfo test_reach_tests[];
extern CU_TestInfo test_board_tests[];
extern CU_TestInfo test_waits_tests[];
extern CU_TestInfo test_groups_tests[];
extern CU_TestInfo test_hide_tests[];
extern CU_TestInfo test_histos_tests[];
extern CU_TestInfo test_checks_tests[];
extern CU_TestInfo test_sampler_tests[];
extern CU_TestInfo test_blame_tests[];

CU_SuiteInfo unit_pvmhooks_suites[] = {
    {"vclock", NULL, NULL, NULL, NULL, test_vclock_tests},
    {"tidmap", NULL, NULL, NULL, NULL, test_tidmap_tests},
    {"records", NULL, NULL, NULL, NULL, test_records_tests},
    {"cp", NULL, NULL, NULL, NULL, test_cp_tests},
    {"dyninst", NULL, NULL, NULL, NULL, test_dyninst_tests},
    {"calls", NULL, NULL, NULL, NULL, test_calls_tests},
    {"sched", NULL, NULL, NULL, NULL, test_sched_tests},
    {"rr", NULL, NULL, NULL, NULL, test_rr_tests},
    {"sources", NULL, NULL, NULL, NULL, test_src_reads_tests},
    {"preserve", NULL, NULL, NULL, NULL, test_preserve_tests},
    {"prlocal", NULL, NULL, NULL, NULL, test_prlocal_tests},
    {"reach", NULL, NULL, NULL, NULL, test_reach_tests},
    {"board", NULL, NULL, NULL, NULL, test_board_tests},
    {"waits", NULL, NULL, NULL, NULL, test_waits_tests},
    {"groups", NULL, NULL, NULL, NULL, test_groups_tests},
    {"hide", NULL, NULL, NULL, NULL, test_hide_tests},
    {"histos", NULL, NULL, NULL, NULL, test_histos_tests},
    {"checks", NULL, NULL, NULL, NULL, test_checks_tests},
    {"sampler", NULL, NULL, NULL, NULL, test_sampler_tests},
    {"blame", NULL, NULL, NULL, NULL, test_blame_tests},
    CU_SUITE_INFO_NULL,
};
