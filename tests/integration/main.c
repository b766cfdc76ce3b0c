/* Runs the integration suites (each test starts and halts its own private VM), or only
 * those named on the command line, and prints CUnit's summary. */
#include <stdio.h>
#include <stdlib.h>

#include <CUnit/Basic.h>

#include "harness.h"

extern CU_TestInfo test_vm_tests[];
extern CU_TestInfo test_run_tests[];
extern CU_TestInfo test_cli_tests[];
extern CU_TestInfo test_console_tests[];
extern CU_TestInfo test_examples_tests[];
extern CU_TestInfo test_report_tests[];
extern CU_TestInfo test_report_hist_tests[];
extern CU_TestInfo test_cc_tests[];
extern CU_TestInfo test_trace_tests[];
extern CU_TestInfo test_cp_tests[];
extern CU_TestInfo test_replay_tests[];
extern CU_TestInfo test_sources_tests[];
extern CU_TestInfo test_faults_tests[];
extern CU_TestInfo test_fatal_tests[];
extern CU_TestInfo test_preserve_tests[];
extern CU_TestInfo test_explore_tests[];
extern CU_TestInfo test_waits_tests[];
extern CU_TestInfo test_waits_online_tests[];
extern CU_TestInfo test_load_tests[];
extern CU_TestInfo test_hosts_tests[];
extern CU_TestInfo test_dyninst_tests[];
extern CU_TestInfo test_fidelity_tests[];
extern CU_TestInfo test_comp_tests[];
extern CU_TestInfo test_hangs_tests[];
extern CU_TestInfo test_life_tests[];
extern CU_TestInfo test_quiet_tests[];
extern CU_TestInfo test_export_tests[];
extern CU_TestInfo test_diff_tests[];
extern CU_TestInfo test_transparency_tests[];
extern CU_TestInfo test_real_tests[];
extern CU_TestInfo test_bench_tests[];
extern CU_TestInfo test_histo_tests[];
extern CU_TestInfo test_histo_phases_tests[];
extern CU_TestInfo test_checks_tests[];
extern CU_TestInfo test_sampling_tests[];
int test_hosts_init(void);
int test_hosts_cleanup(void);

static CU_SuiteInfo suites[] = {
    {"vm", NULL, NULL, NULL, NULL, test_vm_tests},
    {"cli", NULL, NULL, NULL, NULL, test_cli_tests},
    {"run", NULL, NULL, NULL, NULL, test_run_tests},
    {"console", NULL, NULL, NULL, NULL, test_console_tests},
    {"cc", NULL, NULL, NULL, NULL, test_cc_tests},
    {"examples", NULL, NULL, NULL, NULL, test_examples_tests},
    {"report", NULL, NULL, NULL, NULL, test_report_tests},
    {"report_hist", NULL, NULL, NULL, NULL, test_report_hist_tests},
    {"trace", NULL, NULL, NULL, NULL, test_trace_tests},
    {"cp", NULL, NULL, NULL, NULL, test_cp_tests},
    {"replay", NULL, NULL, NULL, NULL, test_replay_tests},
    {"sources", NULL, NULL, NULL, NULL, test_sources_tests},
    {"faults", NULL, NULL, NULL, NULL, test_faults_tests},
    {"fatal", NULL, NULL, NULL, NULL, test_fatal_tests},
    {"preserve", NULL, NULL, NULL, NULL, test_preserve_tests},
    {"explore", NULL, NULL, NULL, NULL, test_explore_tests},
    {"waits", NULL, NULL, NULL, NULL, test_waits_tests},
    {"waits_online", NULL, NULL, NULL, NULL, test_waits_online_tests},
    {"load", NULL, NULL, NULL, NULL, test_load_tests},
    {"dyninst", NULL, NULL, NULL, NULL, test_dyninst_tests},
    {"fidelity", NULL, NULL, NULL, NULL, test_fidelity_tests},
    {"comp", NULL, NULL, NULL, NULL, test_comp_tests},
    {"hangs", NULL, NULL, NULL, NULL, test_hangs_tests},
    {"life", NULL, NULL, NULL, NULL, test_life_tests},
    {"quiet", NULL, NULL, NULL, NULL, test_quiet_tests},
    {"export", NULL, NULL, NULL, NULL, test_export_tests},
    {"diff", NULL, NULL, NULL, NULL, test_diff_tests},
    {"transparency", NULL, NULL, NULL, NULL, test_transparency_tests},
    {"real", NULL, NULL, NULL, NULL, test_real_tests},
    {"bench", NULL, NULL, NULL, NULL, test_bench_tests},
    {"histo", NULL, NULL, NULL, NULL, test_histo_tests},
    {"histo_phases", NULL, NULL, NULL, NULL, test_histo_phases_tests},
    {"checks", NULL, NULL, NULL, NULL, test_checks_tests},
    {"sampling", NULL, NULL, NULL, NULL, test_sampling_tests},
    {"hosts", test_hosts_init, test_hosts_cleanup, NULL, NULL, test_hosts_tests},
    CU_SUITE_INFO_NULL,
};

/* The failures of the last run, said again after its summary: a CI log kept only by
 * its tail (the suites print a lot) still names the test and the assertion. */
static void show_failures(void)
{
	if (CU_get_number_of_failures() == 0 && CU_get_number_of_suites_failed() == 0)
		return;
	printf("\nintegration: the failures of this run:\n");
	CU_basic_show_failures(CU_get_failure_list());
	printf("\n");
}

int main(int argc, char **argv)
{
	unsigned failures;

	/* Root (as in CI) may run PVM only when it says so. */
	setenv("PVM_ALLOW_ROOT", "1", 0);
	if (CU_initialize_registry() != CUE_SUCCESS || CU_register_suites(suites) != CUE_SUCCESS)
		return 2;
	CU_basic_set_mode(CU_BRM_VERBOSE);
	/* A suite that cannot run here (hosts on a machine without namespaces) makes its
	 * tests inactive and says why: the summary counts them as inactive, not as failed.
	 * A suite whose set-up fails otherwise counts as a failure (suites failed). */
	CU_set_fail_on_inactive(CU_FALSE);
	if (argc == 3 && CU_get_suite(argv[1]) && !CU_get_suite(argv[2])) {
		/* SUITE TEST: one test of a suite, by its name. */
		CU_pSuite s = CU_get_suite(argv[1]);
		CU_pTest t = CU_get_test(s, argv[2]);

		if (!t) {
			fprintf(stderr, "integration: no test named '%s' in '%s'\n", argv[2],
			        argv[1]);
			CU_cleanup_registry();
			harness_cleanup();
			return 2;
		}
		CU_basic_run_test(s, t);
		show_failures();
		failures = CU_get_number_of_failures() + CU_get_number_of_tests_failed() +
		           CU_get_number_of_suites_failed();
	} else if (argc > 1) {
		/* Only the suites named, in the order given (make check-valgrind). */
		failures = 0;
		for (int i = 1; i < argc; i++) {
			CU_pSuite s = CU_get_suite(argv[i]);

			if (!s) {
				fprintf(stderr, "integration: no suite named '%s'\n", argv[i]);
				CU_cleanup_registry();
				harness_cleanup();
				return 2;
			}
			CU_basic_run_suite(s);
			show_failures();
			/* CUnit counts each run on its own. */
			failures += CU_get_number_of_failures() + CU_get_number_of_tests_failed() +
			            CU_get_number_of_suites_failed();
		}
	} else {
		CU_basic_run_tests();
		show_failures();
		failures = CU_get_number_of_failures() + CU_get_number_of_tests_failed() +
		           CU_get_number_of_suites_failed();
	}

	printf("\n");
	CU_cleanup_registry();
	harness_cleanup();
	return failures ? 1 : 0;
}
