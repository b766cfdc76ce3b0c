/* Private to the integration tests: what the time-histogram suites share. */
#ifndef PVMMON_TESTS_INTEGRATION_TEST_HISTO_H
#define PVMMON_TESTS_INTEGRATION_TEST_HISTO_H

/* Builds apps/phases with pvmmon-cc (probes in every procedure) into dir/phases; 1 when
 * it did. */
int histo_build_phases(const char *dir);

#endif
