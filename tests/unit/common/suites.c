/* The table of unit-test suites for common/, one suite per module. */
#include "../unit.h"

extern CU_TestInfo test_clock_tests[];
extern CU_TestInfo test_clockmodel_tests[];
extern CU_TestInfo test_errors_tests[];
extern CU_TestInfo test_common_histo_tests[];
extern CU_TestInfo test_hostfile_tests[];
extern CU_TestInfo test_log_tests[];
int test_log_cleanup(void);
extern CU_TestInfo test_log_errors_tests[];
extern CU_TestInfo test_log_fields_tests[];
extern CU_TestInfo test_log_inputs_tests[];
extern CU_TestInfo test_resource_tests[];
extern CU_TestInfo test_symbols_tests[];
extern CU_TestInfo test_wire_tests[];
extern CU_TestInfo test_wire_preserve_tests[];
extern CU_TestInfo test_wire_replay_tests[];
extern CU_TestInfo test_wire_tags_tests[];
extern CU_TestInfo test_wire_task_tests[];

CU_SuiteInfo unit_common_suites[] = {
    {"clock", NULL, NULL, NULL, NULL, test_clock_tests},
    {"clockmodel", NULL, NULL, NULL, NULL, test_clockmodel_tests},
    {"errors", NULL, NULL, NULL, NULL, test_errors_tests},
    {"common_histo", NULL, NULL, NULL, NULL, test_common_histo_tests},
    {"hostfile", NULL, NULL, NULL, NULL, test_hostfile_tests},
    {"log", NULL, test_log_cleanup, NULL, NULL, test_log_tests},
    {"log_errors", NULL, NULL, NULL, NULL, test_log_errors_tests},
    {"log_fields", NULL, NULL, NULL, NULL, test_log_fields_tests},
    {"log_inputs", NULL, NULL, NULL, NULL, test_log_inputs_tests},
    {"resource", NULL, NULL, NULL, NULL, test_resource_tests},
    {"symbols", NULL, NULL, NULL, NULL, test_symbols_tests},
    {"wire", NULL, NULL, NULL, NULL, test_wire_tests},
    {"wire_preserve", NULL, NULL, NULL, NULL, test_wire_preserve_tests},
    {"wire_replay", NULL, NULL, NULL, NULL, test_wire_replay_tests},
    {"wire_tags", NULL, NULL, NULL, NULL, test_wire_tags_tests},
    {"wire_task", NULL, NULL, NULL, NULL, test_wire_task_tests},
    CU_SUITE_INFO_NULL,
};
