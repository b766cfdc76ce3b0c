/* Private to the hosts suite: the tests of test_hosts_fail.c (the runs that fail across
 * hosts), listed in test_hosts.c's table. */
#ifndef PVMMON_TESTS_TEST_HOSTS_FAIL_H
#define PVMMON_TESTS_TEST_HOSTS_FAIL_H

void test_fatal_on_other_host(void);
void test_cycle_across_hosts(void);
void test_wait_for_crash_on_other_host(void);

#endif
