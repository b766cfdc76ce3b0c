/* The table of unit-test suites for cli/, one suite per module. */
#include "../unit.h"

extern CU_TestInfo test_cli_export_tests[];
extern CU_TestInfo test_diff_tests[];
extern CU_TestInfo test_error_tests[];
extern CU_TestInfo test_explalt_tests[];
extern CU_TestInfo test_live_tests[];
extern CU_TestInfo test_logcmds_tests[];
extern CU_TestInfo test_progroup_tests[];
extern CU_TestInfo test_replaycheck_tests[];
extern CU_TestInfo test_run_tests[];
extern CU_TestInfo test_runenv_tests[];
extern CU_TestInfo test_runopts_tests[];
extern CU_TestInfo test_sibling_tests[];
extern CU_TestInfo test_tophist_tests[];

CU_SuiteInfo unit_cli_suites[] = {
    {"cli_export", NULL, NULL, NULL, NULL, test_cli_export_tests},
    {"diff", NULL, NULL, NULL, NULL, test_diff_tests},
    {"error", NULL, NULL, NULL, NULL, test_error_tests},
    {"explalt", NULL, NULL, NULL, NULL, test_explalt_tests},
    {"live", NULL, NULL, NULL, NULL, test_live_tests},
    {"logcmds", NULL, NULL, NULL, NULL, test_logcmds_tests},
    {"progroup", NULL, NULL, NULL, NULL, test_progroup_tests},
    {"replaycheck", NULL, NULL, NULL, NULL, test_replaycheck_tests},
    {"run", NULL, NULL, NULL, NULL, test_run_tests},
    {"runenv", NULL, NULL, NULL, NULL, test_runenv_tests},
    {"runopts", NULL, NULL, NULL, NULL, test_runopts_tests},
    {"sibling", NULL, NULL, NULL, NULL, test_sibling_tests},
    {"tophist", NULL, NULL, NULL, NULL, test_tophist_tests},
    CU_SUITE_INFO_NULL,
};
