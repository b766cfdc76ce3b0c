/* Private to the hosts suite: what test_hosts.c and test_hosts_fail.c share. */
#ifndef PVMMON_TESTS_TEST_HOSTS_H
#define PVMMON_TESTS_TEST_HOSTS_H

#include "hosts.h"

/* How long one run on the hosts may take, in seconds. */
#define HOSTS_RUN_TIMEOUT 180

/* The suite's hosts, made by its init (NULL outside the suite). */
test_hosts *test_hosts_current(void);

/* The tests of test_hosts_fail.c, listed in test_hosts.c's table. */
void test_fatal_on_other_host(void);
void test_cycle_across_hosts(void);
void test_wait_for_crash_on_other_host(void);

#endif
