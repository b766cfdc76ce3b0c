/* Private to the unit tests: the per-folder suite tables the runner registers. */
#ifndef PVMMON_TESTS_UNIT_H
#define PVMMON_TESTS_UNIT_H

#include <CUnit/CUnit.h>

/* One table per folder under tests/unit/, each ending with CU_SUITE_INFO_NULL. */
extern CU_SuiteInfo unit_common_suites[];
extern CU_SuiteInfo unit_replay_suites[];
extern CU_SuiteInfo unit_graphs_suites[];
extern CU_SuiteInfo unit_pvmhooks_suites[];
extern CU_SuiteInfo unit_instrument_suites[];
extern CU_SuiteInfo unit_monitor_suites[];
extern CU_SuiteInfo unit_cli_suites[];
extern CU_SuiteInfo unit_export_suites[];

#endif
