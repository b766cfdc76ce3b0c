/*
 * Unit tests for graphs/waits_predict.c: what a fix would gain on hand-built traced
 * logs (waitslog.c): a message's cost on a network of one's choosing, --network values
 * good and bad, the curve (never longer when faster, p = 0 the replayed run), all of a
 * task's computation faster, and the report's curve table.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "pvmmon/errors.h"
#include "pvmmon/log.h"
#include "pvmmon/waits.h"
#include "waitslog.h"

/*
 * A message on a network of one's choosing. The slow-network run of
 * test_efficiency_transfer with 1000 bytes in B's message: L = 1000 us and B = 1 MB/s
 * make it cost 1 ms + 1000 bytes / (1 byte/us) = 2 ms, so A receives at 4 ms and ends at
 * 6 ms; L alone (unlimited bandwidth is no option, so 10^6 MB/s: 1 ns) ends at 5 ms; the
 * ideal network at 4 ms, what ideal_ns says; lat_ns < 0 replays the measured 8 ms. The
 * bytes are the send's, or the receive's where the send has none.
 */
static pvmmon_log *net_log(uint32_t send_bytes, uint32_t recv_bytes)
{
	pvmmon_log *log = wlog__new_log(NULL, 0);
	size_t a = wlog__task(log, 1, "0", 0, 12 * MS), b = wlog__task(log, 2, "0.1", 0, 3 * MS);

	wlog__stmt(log, a, 0, "pvm_recv", "a.c", 10);
	wlog__stmt(log, b, 0, "pvm_send", "b.c", 20);
	wlog__recv(log, a, 0, 2, 0, 2 * MS, 8 * MS, 8 * MS);
	log->tasks[a].events[0].bytes = recv_bytes;
	wlog__send(log, b, 0, 1, 0, 2 * MS);
	log->tasks[b].events[0].bytes = send_bytes;
	return log;
}

static void test_predict_network(void)
{
	pvmmon_log *log = net_log(1000, 0);
	pvmmon_waits *w = wlog__compute(log);
	int64_t ns = -1, lat = -1;
	double bpns = -1;

	CU_ASSERT_EQUAL(pvmmon_waits_parse_network("--network", "1000,1", &lat, &bpns), 0);
	CU_ASSERT_EQUAL(lat, 1000000);
	CU_ASSERT_DOUBLE_EQUAL(bpns, 0.001, 1e-15);
	CU_ASSERT_EQUAL(pvmmon_waits_predict_net(&ns, log, NULL, 0, lat, bpns), 0);
	CU_ASSERT_EQUAL(ns, 6 * MS);
	CU_ASSERT_EQUAL(pvmmon_waits_predict_net(&ns, log, NULL, 0, 1000000, 1e3), 0);
	CU_ASSERT_EQUAL(ns, 5 * MS + 1);
	CU_ASSERT_EQUAL(pvmmon_waits_parse_network("--network", "ideal", &lat, &bpns), 0);
	CU_ASSERT_EQUAL(pvmmon_waits_predict_net(&ns, log, NULL, 0, lat, bpns), 0);
	CU_ASSERT_EQUAL(ns, 4 * MS);
	CU_ASSERT_EQUAL(ns, w->ideal_ns);
	CU_ASSERT_EQUAL(pvmmon_waits_predict_net(&ns, log, NULL, 0, -1, 0), 0);
	CU_ASSERT_EQUAL(ns, 12 * MS);
	CU_ASSERT_EQUAL(ns, w->runtime_ns);
	CU_ASSERT_EQUAL(pvmmon_waits_predict_net(&ns, log, NULL, 101, 0, 0), PVMMON_EINVAL);
	pvmmon_waits_free(w);
	pvmmon_log_free(log);
	/* The receive's bytes where the send has none. */
	log = net_log(0, 1000);
	CU_ASSERT_EQUAL(pvmmon_waits_predict_net(&ns, log, NULL, 0, 1000000, 0.001), 0);
	CU_ASSERT_EQUAL(ns, 6 * MS);
	pvmmon_log_free(log);
}

/* --network values: the forms taken, and every bad one refused naming the option. */
static void test_parse_network(void)
{
	static const char *const bad[] = {"",     "5",    "a,1",   "1,",    ",1",
	                                  "-1,1", "1,0",  "1,-1",  "1,inf", "nan,1",
	                                  "1,2x", "1 ,2", "1,2,3", "ideals"};
	int64_t lat = -1;
	double bpns = -1;

	CU_ASSERT_EQUAL(pvmmon_waits_parse_network("--network", "ideal", &lat, &bpns), 0);
	CU_ASSERT_EQUAL(lat, 0);
	CU_ASSERT_DOUBLE_EQUAL(bpns, 0, 0);
	CU_ASSERT_EQUAL(pvmmon_waits_parse_network("--network", "2.5,100", &lat, &bpns), 0);
	CU_ASSERT_EQUAL(lat, 2500);
	CU_ASSERT_DOUBLE_EQUAL(bpns, 0.1, 1e-12);
	CU_ASSERT_EQUAL(pvmmon_waits_parse_network("--network", "0,1e4", &lat, &bpns), 0);
	CU_ASSERT_EQUAL(lat, 0);
	CU_ASSERT_DOUBLE_EQUAL(bpns, 10, 1e-12);
	CU_ASSERT_EQUAL(pvmmon_waits_parse_network("--network", NULL, &lat, &bpns), PVMMON_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(pvmmon_error_last(), "--network"));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CU_ASSERT_EQUAL(pvmmon_waits_parse_network("--network", bad[i], &lat, &bpns),
		                PVMMON_EINVAL);
		CU_ASSERT_PTR_NOT_NULL(strstr(pvmmon_error_last(), "--network"));
	}
}

/*
 * The curve of the pipeline's slow_part (8 ms; see test_predict_pipeline): p = 0 is the
 * replayed run (12 ms), each 10% takes 0.8 ms off C's send and so off the run, to 4 ms
 * at 100%; never longer when faster, on the measured network and on a slow one (each
 * message 1 ms more: two in the chain, 2 ms more at every point).
 */
static void test_curve(void)
{
	static const char *const procs[] = {"slow_part", "stage_work"};
	pvmmon_log *log = wlog__new_log(procs, 2);
	size_t a = wlog__task(log, 1, "0", 0, 12 * MS), b = wlog__task(log, 2, "0.1", 0, 12 * MS),
	       c = wlog__task(log, 3, "0.2", 0, 10 * MS);
	pvmmon_wait_cause slow = {c, 0, 0, 0, 0};
	int64_t ns[PVMMON_WAITS_CURVE], slow_net[PVMMON_WAITS_CURVE], one = -1;

	wlog__pipeline_events(log, a, b, c);
	CU_ASSERT_EQUAL(pvmmon_waits_curve(ns, log, &slow, -1, 0), 0);
	CU_ASSERT_EQUAL(pvmmon_waits_predict(&one, log, &slow, 0), 0);
	CU_ASSERT_EQUAL(ns[0], one);
	CU_ASSERT_EQUAL(ns[0], 12 * MS);
	for (int k = 0; k < PVMMON_WAITS_CURVE; k++) {
		CU_ASSERT_EQUAL(ns[k], 12 * MS - k * 8 * MS / 10);
		CU_ASSERT_EQUAL(pvmmon_waits_predict(&one, log, &slow, 10 * k), 0);
		CU_ASSERT_EQUAL(ns[k], one);
		if (k)
			CU_ASSERT(ns[k] <= ns[k - 1]);
	}
	CU_ASSERT_EQUAL(pvmmon_waits_curve(slow_net, log, &slow, MS, 0), 0);
	for (int k = 0; k < PVMMON_WAITS_CURVE; k++) {
		CU_ASSERT_EQUAL(slow_net[k], ns[k] + 2 * MS);
		if (k)
			CU_ASSERT(slow_net[k] <= slow_net[k - 1]);
	}
	pvmmon_log_free(log);
}

/*
 * All of a task's computation faster (PVMMON_WAIT_ALL_COMPUTATION): in the late-sender
 * run B computes 10 ms before its send and 1 ms after. 50%: B sends at 5 ms, A ends at
 * 7 ms; 100%: B sends at 0, A receives at 2 ms and ends at 4 ms. A's all: its 2 ms
 * before the receive and 2 ms after gone, A ends at 10 ms, B at 11 ms.
 */
static void test_predict_task(void)
{
	pvmmon_log *log = wlog__late_sender_log();
	pvmmon_wait_cause b_all = {1, PVMMON_WAIT_ALL_COMPUTATION, 0, 0, 0},
	                  a_all = {0, PVMMON_WAIT_ALL_COMPUTATION, 0, 0, 0};
	int64_t ns = -1;
	char name[64];

	CU_ASSERT_EQUAL(pvmmon_waits_predict(&ns, log, &b_all, 50), 0);
	CU_ASSERT_EQUAL(ns, 7 * MS);
	CU_ASSERT_EQUAL(pvmmon_waits_predict(&ns, log, &b_all, 100), 0);
	CU_ASSERT_EQUAL(ns, 4 * MS);
	CU_ASSERT_EQUAL(pvmmon_waits_predict(&ns, log, &a_all, 100), 0);
	CU_ASSERT_EQUAL(ns, 11 * MS);
	pvmmon_waits_cause_name(name, sizeof(name), log, &b_all);
	CU_ASSERT_STRING_EQUAL(name, "0.1 all its computation");
	pvmmon_log_free(log);
}

/* The report's curve table: a line for the cause, its points in ms, 0% first. */
static void test_report_curve(void)
{
	pvmmon_log *log = wlog__late_sender_log();
	char *text;
	int rc = -1;
	const char *row;

	text = wlog__report(log, &rc);
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "run (ms) if faster by"));
	row = strstr(text, "\n  0.1 before b.c:20               ");
	CU_ASSERT_PTR_NOT_NULL(row);
	/* 12 ms at 0%, 7 ms at 50%, 4 ms at 100% (test_predict). */
	CU_ASSERT(row && strstr(row, "    12.0    11.0    10.0     9.0     8.0     7.0     6.0 "
	                             "    5.0     4.0     4.0     4.0\n") != NULL);
	free(text);
	pvmmon_log_free(log);
}

CU_TestInfo test_waits_predict_tests[] = {
    {"predict_network", test_predict_network},
    {"parse_network", test_parse_network},
    {"curve", test_curve},
    {"predict_task", test_predict_task},
    {"report_curve", test_report_curve},
    CU_TEST_INFO_NULL,
};
