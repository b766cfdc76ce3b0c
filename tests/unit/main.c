/* Runs every unit-test suite (no pvmd needed) and prints CUnit's summary. */
#include <stdio.h>
#include <string.h>

#include <CUnit/Basic.h>

#include "unit.h"

int main(int argc, char **argv)
{
	CU_SuiteInfo *tables[] = {
	    unit_common_suites,     unit_replay_suites,  unit_graphs_suites, unit_pvmhooks_suites,
	    unit_instrument_suites, unit_monitor_suites, unit_cli_suites,    unit_export_suites,
	    NULL};
	unsigned failures;
	int i;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	for (i = 0; tables[i]; i++) {
		if (CU_register_suites(tables[i]) != CUE_SUCCESS) {
			fprintf(stderr, "unit: cannot register suites: %s\n", CU_get_error_msg());
			return 2;
		}
	}
	CU_basic_set_mode(CU_BRM_VERBOSE);
	if (argc > 1) {
		/* `unit SUITE` runs one suite by name. */
		CU_pSuite s = CU_get_suite(argv[1]);
		if (!s) {
			fprintf(stderr, "unit: no suite named '%s'\n", argv[1]);
			return 2;
		}
		CU_basic_run_suite(s);
	} else {
		CU_basic_run_tests();
	}
	failures = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
	/* Said again after the summary: a log kept only by its tail still names them. */
	if (failures) {
		printf("\nunit: the failures of this run:\n");
		CU_basic_show_failures(CU_get_failure_list());
	}
	printf("\n");
	CU_cleanup_registry();
	return failures ? 1 : 0;
}
