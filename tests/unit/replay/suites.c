/* The table of unit-test suites for replay/, one suite per module. */
#include "../unit.h"

extern CU_TestInfo test_encode_tests[];
extern CU_TestInfo test_decode_tests[];
extern CU_TestInfo test_stream_tests[];
extern CU_TestInfo test_sources_tests[];
extern CU_TestInfo test_replay_groups_tests[];

CU_SuiteInfo unit_replay_suites[] = {
    {"replay-encode", NULL, NULL, NULL, NULL, test_encode_tests},
    {"replay-decode", NULL, NULL, NULL, NULL, test_decode_tests},
    {"replay-stream", NULL, NULL, NULL, NULL, test_stream_tests},
    {"replay-sources", NULL, NULL, NULL, NULL, test_sources_tests},
    {"replay-groups", NULL, NULL, NULL, NULL, test_replay_groups_tests},
    CU_SUITE_INFO_NULL,
};
