/*
 * Integration test of the benchmark script's hygiene: bench/run.sh interrupted as
 * Ctrl-C would (SIGINT to its process group) halts the VM it started itself and
 * removes its work folder (tests/integration/bench_interrupt.sh does it and says why
 * when it fails).
 */
#include <stdio.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "harness.h"

static void test_interrupt_halts_vm(void)
{
	const char *dir = harness_tmpdir();
	cmd_result r;

	/* One section (3, the one that starts its own pvmd): about 3 s to reach its VM
	 * and 1 s to halt it here; the script bounds its own waits (120 s and 30 s). */
	harness_sh(&r, 200, "%s/../tests/integration/bench_interrupt.sh %s/.. %s %s",
	           harness_build(), harness_build(), harness_build(), dir);
	if (r.status != 0)
		fprintf(stderr, "%s%s", r.out, r.err);
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "bench_interrupt: ok"));
	cmd_result_free(&r);
}

CU_TestInfo test_bench_tests[] = {
    {"an interrupted bench halts its VM and removes its folder", test_interrupt_halts_vm},
    CU_TEST_INFO_NULL,
};
