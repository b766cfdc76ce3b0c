/* The table of unit-test suites for graphs/, one suite per module. */
#include "../unit.h"

extern CU_TestInfo test_between_tests[];
extern CU_TestInfo test_callgraph_tests[];
extern CU_TestInfo test_cpath_tests[];
extern CU_TestInfo test_dot_tests[];
extern CU_TestInfo test_export_tests[];
extern CU_TestInfo test_histo_tests[];
extern CU_TestInfo test_perfetto_tests[];
extern CU_TestInfo test_phases_tests[];
extern CU_TestInfo test_samples_tests[];
extern CU_TestInfo test_spacetime_tests[];
extern CU_TestInfo test_text_report_tests[];
extern CU_TestInfo test_timeline_tests[];
extern CU_TestInfo test_top_tests[];
extern CU_TestInfo test_waitfor_tests[];
extern CU_TestInfo test_graphs_waits_tests[];
extern CU_TestInfo test_waits_coll_tests[];
extern CU_TestInfo test_waits_predict_tests[];
extern CU_TestInfo test_waits_poll_tests[];
extern CU_TestInfo test_waits_balance_tests[];
extern CU_TestInfo test_waits_online_tests[];

CU_SuiteInfo unit_graphs_suites[] = {
    {"between", NULL, NULL, NULL, NULL, test_between_tests},
    {"callgraph", NULL, NULL, NULL, NULL, test_callgraph_tests},
    {"cpath", NULL, NULL, NULL, NULL, test_cpath_tests},
    {"dot", NULL, NULL, NULL, NULL, test_dot_tests},
    {"export", NULL, NULL, NULL, NULL, test_export_tests},
    {"histo", NULL, NULL, NULL, NULL, test_histo_tests},
    {"perfetto", NULL, NULL, NULL, NULL, test_perfetto_tests},
    {"phases", NULL, NULL, NULL, NULL, test_phases_tests},
    {"samples", NULL, NULL, NULL, NULL, test_samples_tests},
    {"spacetime", NULL, NULL, NULL, NULL, test_spacetime_tests},
    {"text_report", NULL, NULL, NULL, NULL, test_text_report_tests},
    {"timeline", NULL, NULL, NULL, NULL, test_timeline_tests},
    {"top", NULL, NULL, NULL, NULL, test_top_tests},
    {"waitfor", NULL, NULL, NULL, NULL, test_waitfor_tests},
    {"graphs_waits", NULL, NULL, NULL, NULL, test_graphs_waits_tests},
    {"waits_coll", NULL, NULL, NULL, NULL, test_waits_coll_tests},
    {"waits_predict", NULL, NULL, NULL, NULL, test_waits_predict_tests},
    {"waits_poll", NULL, NULL, NULL, NULL, test_waits_poll_tests},
    {"waits_balance", NULL, NULL, NULL, NULL, test_waits_balance_tests},
    {"waits_online", NULL, NULL, NULL, NULL, test_waits_online_tests},
    CU_SUITE_INFO_NULL,
};
