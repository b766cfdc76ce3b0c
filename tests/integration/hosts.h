/*
 * Private to the integration tests: a virtual machine of several "hosts" on one
 * machine. Each extra host is a process holding its own network, mount and pid
 * namespaces, with a private tmpfs for its pvmds' PVM_TMP (mounted in the scratch folder,
 * not on /tmp: the hosts share every folder, as machines share a network file system,
 * so the build may be anywhere); all hosts meet on a bridge in a private switch
 * namespace (10.77.N.0/24, N unique to this test run); a PVM_RSH stand-in script
 * starts a remote pvmd by entering the right namespaces with nsenter.
 */
#ifndef PVMMON_TESTS_HOSTS_H
#define PVMMON_TESTS_HOSTS_H

#include <stddef.h>

typedef struct test_hosts test_hosts;

/*
 * Creates nextra extra hosts beside this one (the master, host 0). On success returns
 * the hosts; on failure returns NULL with the reason in why (for example that the
 * kernel refused a namespace without CAP_SYS_ADMIN or CAP_NET_ADMIN), having left
 * nothing behind. The hosts are torn down by test_hosts_destroy(), or, should this
 * process die first, by the kernel (every holder process dies with its parent).
 */
test_hosts *test_hosts_create(int nextra, char *why, size_t whylen);

/* Whether this machine lets a process make a host's namespaces at all: 1, or 0 with
 * the kernel's refusal in why (no CAP_SYS_ADMIN, as in an unprivileged container). */
int test_hosts_possible(char *why, size_t whylen);

/* The hostfile listing all hosts by address, the master first. */
const char *test_hosts_hostfile(const test_hosts *h);

/*
 * Shifts the clock of extra host i (1 and up) by ns for every pvmd started there from now
 * on (PVMMON_TEST_CLOCK_OFFSET_NS in its environment, seen by all its tasks): hosts of
 * one machine share one clock, and this makes them disagree as real machines do.
 * Returns 0, or -1 (no such host, or the rsh stand-in cannot be rewritten).
 */
int test_hosts_set_clock_offset(test_hosts *h, int i, long long ns);

/* Makes host i's clock drift by ppb parts per billion (PVMMON_TEST_CLOCK_DRIFT_PPB, from
 * the harness's creation on) for processes started on it from now on; 0 when done. */
int test_hosts_set_clock_drift(test_hosts *h, int i, long long ppb);

/* The rsh stand-in to put in PVM_RSH. */
const char *test_hosts_rsh(const test_hosts *h);

/* A scratch folder beside the build, on the file system all hosts share, usable as the
 * tasks' working folder on every host. */
const char *test_hosts_dir(const test_hosts *h);

/* The address of host i (0 is the master) in dotted form. */
const char *test_hosts_address(const test_hosts *h, int i);

/* How many times the rsh stand-in has started something on a host so far. */
int test_hosts_rsh_calls(const test_hosts *h);

/*
 * Stops everything it started: SIGKILL to the pid-1 process of each host's pid
 * namespace (the kernel then ends every process in it, remote pvmds and tasks
 * included), the switch namespace's holder, the root end of the veth pair, and the
 * scratch folder. Never looks for processes by name. NULL is allowed.
 */
void test_hosts_destroy(test_hosts *h);

/* How long one run on the hosts may take, in seconds. */
#define HOSTS_RUN_TIMEOUT 180

/* The hosts test_hosts_create made last and test_hosts_destroy has not ended (the
 * hosts suite's, for its tests in other files), or NULL. */
test_hosts *test_hosts_current(void);

#endif
