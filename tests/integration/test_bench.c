/*
 * Integration test of the benchmark script's hygiene: bench/run.sh interrupted as
 * Ctrl-C would (SIGINT to its process group) halts the VM it started itself and
 * removes its work folder; Ctrl-C typed on its terminal, or SIGTERM to its pid, in the
 * middle of a section of several runs stops it at once: no run starts after it, it
 * exits 130 or 143 and leaves no process, VM or folder
 * (tests/integration/bench_interrupt.sh does it and says why when it fails).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "harness.h"

/* Runs bench_interrupt.sh in mode; it bounds its own waits (120 s for the condition,
 * 60 s for the exit). */
static void check_interrupt(const char *mode)
{
	const char *dir = harness_tmpdir();
	char want[64];
	cmd_result r;

	harness_sh(&r, 240, "%s/../tests/integration/bench_interrupt.sh %s/.. %s %s %s",
	           harness_build(), harness_build(), harness_build(), dir, mode);
	if (r.status != 0)
		fprintf(stderr, "%s%s", r.out, r.err);
	CU_ASSERT_EQUAL(r.status, 0);
	snprintf(want, sizeof(want), "bench_interrupt (%s): ok", mode);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.out, want));
	cmd_result_free(&r);
}

/* One section (3, the one that starts its own pvmd): about 3 s to reach its VM and 1 s
 * to halt it here. */
static void test_interrupt_halts_vm(void) { check_interrupt("vm"); }

/* Section 2 (its runs in a helper function, through a pipeline), interrupted at its
 * second run: about 3 s to reach it, 2 to 4 s to stop that run (the old script failed
 * both: it went on with the next run, or waited for the current one to end). */
static void test_ctrl_c_stops_section(void) { check_interrupt("ctrl-c"); }

static void test_sigterm_stops_section(void) { check_interrupt("term"); }

/* bench/summary.sh on a copy of the files it reads and writes: a recorded value
 * replaces its measure's in the table, the old one goes to the history, and an
 * unknown key is refused naming the file. */
static void test_summary_records_and_keeps_history(void)
{
	const char *dir = harness_tmpdir();
	char path[4096];
	char *doc, *hist, *prev, want[256];
	cmd_result r;

	harness_sh(
	    &r, 30,
	    "cd '%s' && mkdir -p bench doc && cp %s/../bench/summary.sh %s/../bench/results.tsv "
	    "bench/ && cp %s/../doc/benchmarks.md doc/ && "
	    "awk -F '\\t' '$1 == \"probe.off\" {printf \"%%s\", $4}' bench/results.tsv >old.txt && "
	    "printf 'probe.off\\t0.5\\t"
	    "2030-01-01 00:00Z\\tbench/run.sh 3\\n' >new.tsv && bench/summary.sh --record "
	    "new.tsv && printf 'nokey\\t1\\tx\\ty\\n' >bad.tsv && ! bench/summary.sh "
	    "--record bad.tsv",
	    dir, harness_build(), harness_build(), harness_build());
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "bad.tsv: unknown key nokey"));
	cmd_result_free(&r);
	snprintf(path, sizeof(path), "%s/doc/benchmarks.md", dir);
	doc = harness_slurp(path, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	CU_ASSERT_PTR_NOT_NULL(strstr(doc,
	                              "| Procedure probe pair, disabled (ns) | \u2264 1 | 0.5 | "
	                              "2030-01-01 00:00Z | `bench/run.sh 3` |"));
	/* The replaced value (the repository's latest, read before), in the history
	 * section after its marker. */
	snprintf(path, sizeof(path), "%s/old.txt", dir);
	prev = harness_slurp(path, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(prev);
	CU_ASSERT(prev[0] != '\0');
	snprintf(want, sizeof(want), "| Procedure probe pair, disabled (ns) | %s |", prev);
	CU_ASSERT_PTR_NOT_NULL(strstr(strstr(doc, "<!-- history begin"), want));
	free(prev);
	free(doc);
	snprintf(path, sizeof(path), "%s/bench/history.tsv", dir);
	hist = harness_slurp(path, NULL);
	CU_ASSERT_PTR_NOT_NULL(hist);
	CU_ASSERT_PTR_NOT_NULL(hist && strstr(hist, "probe.off\t"));
	free(hist);
}

CU_TestInfo test_bench_tests[] = {
    {"an interrupted bench halts its VM and removes its folder", test_interrupt_halts_vm},
    {"Ctrl-C on the terminal mid-section: no further run, nothing left",
     test_ctrl_c_stops_section},
    {"SIGTERM to the bench mid-section: no further run, nothing left", test_sigterm_stops_section},
    {"summary records a value and keeps the replaced one", test_summary_records_and_keeps_history},
    CU_TEST_INFO_NULL,
};
