/* Unit tests for graphs/text_report.c: the text summary of `pvmmon report --text`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "pvmmon/errors.h"
#include "pvmmon/report.h"

/* A two-task run: a master whose receive waited, a worker that crashed. */
static pvmmon_log *sample_log(void)
{
	pvmmon_log *log = NULL;
	pvmmon_log_task *t;
	pvmmon_log_stmt *s;

	CU_ASSERT_EQUAL_FATAL(pvmmon_log_new(&log), 0);
	log->program = strdup("matmul");
	log->nargs = 2;
	log->args = calloc(2, sizeof(char *));
	log->args[0] = strdup("-n");
	log->args[1] = strdup("60");
	log->started = strdup("2026-11-22T10:00:00Z");
	log->wall_ns = 2500000000;
	log->exit_code = 0;
	log->ntasks = 2;
	log->tasks = calloc(2, sizeof(*log->tasks));

	t = &log->tasks[0];
	t->tid = 0x40001;
	t->lid = strdup("0");
	t->program = strdup("/somewhere/matmul");
	t->status = PVMMON_TASK_EXITED;
	t->virtual_ns = 2000000000;
	t->intrusion_ns = 1000000;
	t->msgs_recv = 10;
	t->nstmts = 2;
	t->stmts = calloc(2, sizeof(*t->stmts));
	s = &t->stmts[0];
	s->id = 1;
	s->op = strdup("pvm_send");
	s->module = strdup("/somewhere/matmul");
	s->offset = 0x1234;
	s->count = 4;
	s->time_ns = 1000;
	s = &t->stmts[1];
	s->id = 2;
	s->op = strdup("pvm_recv");
	s->file = strdup("/src/apps/matmul.c");
	s->line = 88;
	s->function = strdup("collect");
	s->count = 10;
	s->time_ns = 1500000000;
	s->sync_ns = 1400000000;
	s->trans_ns = 50000;
	s->bytes = 4096;
	s->ncom = 1;
	s->com = calloc(1, sizeof(*s->com));
	s->com[0].partner_tid = 0x40002;
	s->com[0].partner_lid = strdup("0.0");
	s->com[0].count = 10;
	s->com[0].sync_ns = 1400000000;

	t = &log->tasks[1];
	t->tid = 0x40002;
	t->lid = strdup("0.0");
	t->parent_tid = 0x40001;
	t->program = strdup("matmul-worker");
	t->status = PVMMON_TASK_CRASHED;
	t->flushes = 3;
	t->unmonitored_recv = 2;
	return log;
}

static char *render(const pvmmon_log *log, int *rc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	*rc = pvmmon_report_text(log, f);
	fclose(f);
	return buf;
}

static void test_run_and_tasks(void)
{
	pvmmon_log *log = sample_log();
	int rc;
	char *text = render(log, &rc);

	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "Run: matmul -n 60"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "wall time 2.500 s"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "2 tasks on 0 hosts, 1 crashed"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "crashed: records as of its last flush (3 flushes)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "2 messages from unmonitored senders"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "t40002"));
	free(text);
	pvmmon_log_free(log);
}

/* The usage checks' findings: a section only when there are any, each with its count. */
static void test_findings_section(void)
{
	pvmmon_log *log = sample_log();
	int rc;
	char *text = render(log, &rc);

	CU_ASSERT_PTR_NULL(strstr(text, "PVM usage errors"));
	free(text);
	log->nfindings = 1;
	log->findings = calloc(1, sizeof(*log->findings));
	log->findings[0].kind = strdup("queued");
	log->findings[0].task = strdup("0");
	log->findings[0].text = strdup("task 0 exited with 2 messages never received");
	log->findings[0].count = 2;
	text = render(log, &rc);
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "PVM usage errors: 1\n"
	                                    "  queued: task 0 exited with 2 messages never "
	                                    "received (2 times)\n"));
	free(text);
	pvmmon_log_free(log);
}

static void test_statements_sorted_and_named(void)
{
	pvmmon_log *log = sample_log();
	int rc;
	char *text = render(log, &rc);
	char *recv, *send;

	CU_ASSERT_EQUAL(rc, 0);
	/* Resolved statements are named by file:line, unresolved ones by module+offset. */
	recv = strstr(text, "matmul.c:88 in collect");
	send = strstr(text, "matmul+0x1234");
	CU_ASSERT_PTR_NOT_NULL_FATAL(recv);
	CU_ASSERT_PTR_NOT_NULL_FATAL(send);
	/* The statement with more virtual time comes first. */
	CU_ASSERT(recv < send);
	/* Sync delay is split out, and the partner is named by its logical id. */
	CU_ASSERT_PTR_NOT_NULL(strstr(recv, "1.400 s"));
	CU_ASSERT_PTR_NOT_NULL(strstr(recv, "with task 0.0"));
	CU_ASSERT_PTR_NOT_NULL(strstr(recv, "75.0%"));
	CU_ASSERT_PTR_NOT_NULL(strstr(recv, "4.0 KiB"));
	free(text);
	pvmmon_log_free(log);
}

static void test_procs_and_loops_only_when_present(void)
{
	pvmmon_log *log = sample_log();
	pvmmon_log_task *t = &log->tasks[0];
	int rc;
	char *text = render(log, &rc);

	CU_ASSERT_PTR_NULL(strstr(text, "Procedures"));
	CU_ASSERT_PTR_NULL(strstr(text, "Loops"));
	free(text);

	t->nprocs = 1;
	t->procs = calloc(1, sizeof(*t->procs));
	t->procs[0].name = strdup("multiply");
	t->procs[0].caller = strdup("main");
	t->procs[0].count = 7;
	t->nloops = 1;
	t->loops = calloc(1, sizeof(*t->loops));
	t->loops[0].name = strdup("rows");
	t->loops[0].count = 3;
	text = render(log, &rc);
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "Procedures"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "multiply"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "Loops"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "rows"));
	free(text);
	pvmmon_log_free(log);
}

/* 24 mutually recursive procedures (tests/fixtures/report-mutual24.xml): one line named
 * by the entry and count, every member listed under it, wrapped, the entry first. */
static void test_mutual_recursion_named_by_entry(void)
{
	pvmmon_log *log = NULL;
	char *text, *row, *members;
	int rc;

	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&log, "tests/fixtures/report-mutual24.xml"), 0);
	text = render(log, &rc);
	CU_ASSERT_EQUAL(rc, 0);
	row = strstr(text, "  0      eval and 23 more, mutually recursive lisp.c:20 ");
	CU_ASSERT_PTR_NOT_NULL_FATAL(row);
	CU_ASSERT_PTR_NOT_NULL(strstr(row, " 4 +98 rec "));
	members = strstr(row, "\n           members: eval, apply, ev_quote, ");
	CU_ASSERT_PTR_NOT_NULL_FATAL(members);
	/* The last member, on a wrapped line no wider than the report, before the callers. */
	CU_ASSERT_PTR_NOT_NULL(strstr(members, ",\n                    ev_"));
	CU_ASSERT_PTR_NOT_NULL(strstr(members, ", ev_prim\n           from main at line 206 "));
	for (const char *p = members + 1; strncmp(p, "           from", 15); p = strchr(p, '\n') + 1)
		CU_ASSERT_FATAL(strchr(p, '\n') && strchr(p, '\n') - p <= 100);
	CU_ASSERT_PTR_NULL(strstr(text, "eval+apply"));
	free(text);
	pvmmon_log_free(log);
}

static void test_structure_top_down(void)
{
	pvmmon_log *log = sample_log();
	pvmmon_log_task *t = &log->tasks[0];
	int rc;
	char *text, *proc, *com, *loop;

	t->nprocs = 1;
	t->procs = calloc(1, sizeof(*t->procs));
	t->procs[0].name = strdup("main");
	t->procs[0].count = 1;
	t->procs[0].incl_ns = 2000000000;
	t->nstatics = 3;
	t->statics = calloc(3, sizeof(*t->statics));
	t->statics[0] = (pvmmon_log_static){PVMMON_STATIC_PROC, strdup("main"),
					    strdup("apps/matmul.c"), 60, -1};
	t->statics[1] = (pvmmon_log_static){PVMMON_STATIC_LOOP, strdup("for@70:2"),
					    strdup("apps/matmul.c"), 70, 0};
	t->statics[2] = (pvmmon_log_static){PVMMON_STATIC_COM, strdup("pvm_recv"),
					    strdup("apps/matmul.c"), 88, 1};
	text = render(log, &rc);
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(strstr(text, "Program structure of matmul (task 0)"));
	proc = strstr(text, "proc main");
	loop = strstr(text, "  loop ");
	com = strstr(text, "    com pvm_recv");
	CU_ASSERT_PTR_NOT_NULL_FATAL(proc);
	CU_ASSERT_PTR_NOT_NULL_FATAL(loop);
	CU_ASSERT_PTR_NOT_NULL_FATAL(com);
	/* Nested as in the source, each with its time from the records. */
	CU_ASSERT(proc < loop && loop < com);
	CU_ASSERT_PTR_NOT_NULL(strstr(proc, "2.000 s"));
	CU_ASSERT_PTR_NOT_NULL(strstr(loop, "not run"));
	CU_ASSERT_PTR_NOT_NULL(strstr(com, "1.500 s"));
	free(text);
	pvmmon_log_free(log);
}

static void test_empty_log_and_write_error(void)
{
	pvmmon_log *log = NULL;
	int rc;
	char *text;
	FILE *full;

	CU_ASSERT_EQUAL_FATAL(pvmmon_log_new(&log), 0);
	text = render(log, &rc);
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "(none recorded)"));
	free(text);
	/* A full device must be reported, not mistaken for a complete report. */
	full = fopen("/dev/full", "w");
	if (full) {
		CU_ASSERT_EQUAL(pvmmon_report_text(log, full), PVMMON_EIO);
		fclose(full);
	}
	CU_ASSERT_EQUAL(pvmmon_report_text(NULL, stdout), PVMMON_EINVAL);
	pvmmon_log_free(log);
}

/* A profiled run: the critical-path section, largest share first, and the offline
 * check; a run without a profile has no such section. */
static void test_critical_path_section(void)
{
	pvmmon_log *log = NULL;
	char *text = NULL;
	size_t len = 0;
	FILE *mem;

	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&log, "tests/fixtures/cp-issort.xml"), 0);
	mem = open_memstream(&text, &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(mem);
	CU_ASSERT_EQUAL(pvmmon_report_text(log, mem), 0);
	fclose(mem);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\nCritical path (inclusive shares): 258.93 ms, ends "
					    "in task 0 (t40002)\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "  create_seq                      152.13 ms   58.8%  "
					    "  152.13 ms   58.8%     21.9%\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "  do_rank                          61.29 ms   23.7%  "
					    "   59.82 ms   23.1%     17.4%\n"));
	{
		char *sec = strstr(text, "\nCritical path"), *rank = sec ? strstr(sec, "  do_rank ") : NULL;

		CU_ASSERT(rank && strstr(rank, "  verify "));
	}
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "recomputed from the trace: 258.93 ms"));
	free(text);
	log->cp.enabled = 0;
	text = NULL;
	mem = open_memstream(&text, &len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(mem);
	CU_ASSERT_EQUAL(pvmmon_report_text(log, mem), 0);
	fclose(mem);
	CU_ASSERT_PTR_NULL(strstr(text, "Critical path"));
	free(text);
	pvmmon_log_free(log);
}

/* Adds a timed procedure and a loop with times on all three clocks to task 0. */
static void add_three_clock_records(pvmmon_log *log, int has_raw)
{
	pvmmon_log_task *t = &log->tasks[0];

	t->has_raw = has_raw;
	t->raw_ns = 3000000000;
	t->local_ns = 2900000000;
	t->nprocs = 1;
	t->procs = calloc(1, sizeof(*t->procs));
	t->procs[0].name = strdup("compute");
	t->procs[0].count = 1;
	t->procs[0].incl_ns = t->procs[0].excl_ns = 1111000000;
	t->procs[0].local_incl_ns = t->procs[0].local_excl_ns = 2222000000;
	t->procs[0].raw_incl_ns = t->procs[0].raw_excl_ns = 2999000000;
	t->nloops = 1;
	t->loops = calloc(1, sizeof(*t->loops));
	t->loops[0].name = strdup("rows");
	t->loops[0].count = 1;
	t->loops[0].time_ns = 444000000;
	t->loops[0].local_ns = 555000000;
	t->loops[0].raw_ns = 666000000;
}

/* The report says which compensation it shows; --compensation picks raw, local or
 * virtual times, and a log without raw times stays virtual. */
static void test_compensation_choice(void)
{
	static const struct {
		pvmmon_comp c;
		const char *incl, *loop, *says;
	} cases[] = {
	    {PVMMON_COMP_PARALLEL, "1.111 s", "444.00 ms", "parallel compensation (virtual time)"},
	    {PVMMON_COMP_LOCAL, "2.222 s", "555.00 ms", "local compensation"},
	    {PVMMON_COMP_NONE, "2.999 s", "666.00 ms", "not compensated"},
	};
	pvmmon_comp c;

	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		pvmmon_log *log = sample_log();
		int rc;
		char *text;

		add_three_clock_records(log, 1);
		CU_ASSERT_EQUAL(pvmmon_log_use_times(log, cases[k].c), 0);
		text = render(log, &rc);
		CU_ASSERT_EQUAL(rc, 0);
		CU_ASSERT_PTR_NOT_NULL(strstr(text, cases[k].incl));
		CU_ASSERT_PTR_NOT_NULL(strstr(text, cases[k].loop));
		CU_ASSERT_PTR_NOT_NULL(strstr(text, cases[k].says));
		CU_ASSERT_PTR_NOT_NULL(strstr(text, "--compensation=none|local|parallel"));
		free(text);
		/* Once changed, the times cannot be changed again. */
		if (cases[k].c != PVMMON_COMP_PARALLEL)
			CU_ASSERT_EQUAL(pvmmon_log_use_times(log, PVMMON_COMP_PARALLEL), PVMMON_ESTATE);
		pvmmon_log_free(log);
	}
	{
		pvmmon_log *log = sample_log();
		int rc;
		char *text;

		add_three_clock_records(log, 0);
		CU_ASSERT_EQUAL(pvmmon_log_use_times(log, PVMMON_COMP_LOCAL), PVMMON_ENOTFOUND);
		CU_ASSERT_EQUAL(log->comp, PVMMON_COMP_PARALLEL);
		text = render(log, &rc);
		CU_ASSERT_PTR_NOT_NULL(strstr(text, "1.111 s"));
		CU_ASSERT_PTR_NOT_NULL(strstr(text, "parallel compensation (virtual time)"));
		free(text);
		pvmmon_log_free(log);
	}
	CU_ASSERT_EQUAL(pvmmon_comp_parse("local", &c), 0);
	CU_ASSERT_EQUAL(c, PVMMON_COMP_LOCAL);
	CU_ASSERT_EQUAL(pvmmon_comp_parse("virtual", &c), PVMMON_EINVAL);
	CU_ASSERT_STRING_EQUAL(pvmmon_comp_name(PVMMON_COMP_NONE), "none");
}

/* The cost section and the switches, only when the log has them. */
static void test_cost_and_switches(void)
{
	pvmmon_log *log = sample_log();
	int rc;
	char *text = render(log, &rc);

	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_PTR_NULL(strstr(text, "Monitoring cost"));
	CU_ASSERT_PTR_NULL(strstr(text, "Instrumentation switched"));
	free(text);
	log->tasks[0].start_ns = 500000000;
	log->tasks[0].end_ns = 2500000000;
	log->tasks[0].cost = (pvmmon_log_cost){
	    1, 60, 56, 100, 10000, 27000, 12, 40000000, 80000000, 150000, 1500, 60000000, 4, 50, 58, 0};
	/* Real and local times, for the compensation's quality line. */
	log->tasks[0].has_raw = 1;
	log->tasks[0].raw_ns = 2000000000;
	log->tasks[0].local_ns = 1960000000;
	log->budget_pct = 5;
	log->nswitches = 2;
	log->switches = calloc(2, sizeof(*log->switches));
	CU_ASSERT_PTR_NOT_NULL_FATAL(log->switches);
	log->switches[0] = (pvmmon_log_switch){40000, 0, strdup("kind=loop"), strdup("budget"),
					       strdup("coarse first")};
	log->switches[1] = (pvmmon_log_switch){34000000, 0, strdup("task=0,proc=mix"),
					       strdup("user"), NULL};
	text = render(log, &rc);
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "; calibration re-checked 4 times, loop pair 50 to 58 ns "
					    "(56 ns at the start)\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\nMonitoring cost (observed"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "(2.0%)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "(4.0%)"));
	/* The switched-off sites' estimated cost has its own column. */
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "(3.0%)"));
	CU_ASSERT_PTR_NULL(strstr(text, "over the budget"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "     60 ns      56 ns\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "(budget 5%): 2 switches\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "disable kind=loop  (budget: coarse first)\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "disable task=0,proc=mix  (user)\n"));
	/* Only the task with a cost record has a row. */
	CU_ASSERT_EQUAL(log->tasks[1].cost.known, 0);
	free(text);
	/* pvmmon top's cost line has the switched-off sites' cost beside the others. */
	{
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);

		CU_ASSERT_PTR_NOT_NULL_FATAL(f);
		CU_ASSERT_EQUAL(pvmmon_report_top(log, f), 0);
		fclose(f);
		CU_ASSERT_PTR_NOT_NULL(strstr(buf, "observed cost 2.00%, predicted 4.00%, switched off 3.00%"));
		free(buf);
	}
	/* Under a budget below what the switched-off sites cost, the report says so. */
	log->budget_pct = 2;
	text = render(log, &rc);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "task 0: its switched-off sites alone cost 3.0%, over the budget"));
	free(text);
	pvmmon_log_free(log);
}

/* A run on three hosts lists them with their clocks: the reference, one with a fitted
 * drift and one where no task ran; a run on one host has no such section. */
static void test_hosts_and_clocks(void)
{
	pvmmon_log *log = sample_log();
	int rc;
	char *text = render(log, &rc);

	CU_ASSERT_PTR_NULL(strstr(text, "Hosts ("));
	free(text);
	log->hosts = calloc(3, sizeof(*log->hosts));
	CU_ASSERT_PTR_NOT_NULL_FATAL(log->hosts);
	log->nhosts = 3;
	log->hosts[0].name = strdup("10.77.3.1");
	log->hosts[0].arch = strdup("LINUX64");
	log->hosts[0].clock_known = 1;
	log->hosts[1].name = strdup("10.77.3.2");
	log->hosts[1].arch = strdup("LINUX64");
	log->hosts[1].clock_known = 1;
	log->hosts[1].clock_offset_ns = -5012000;
	log->hosts[1].clock_uncertainty_ns = 48200;
	log->hosts[1].clock_at_ns = 8086000000LL;
	log->hosts[1].clock_drift_ppb = -99900;
	log->hosts[1].clock_estimates = 9;
	log->hosts[2].name = strdup("10.77.3.3");
	log->tasks[0].host = strdup("10.77.3.1");
	log->tasks[1].host = strdup("10.77.3.2");
	text = render(log, &rc);
	CU_ASSERT_EQUAL(rc, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "Hosts (times are on the monitor's clock)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "the reference (the monitor's clock)"));
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(text, "offset -5.01 ms +- 48.2 us at 8.086 s, drift -99.9 ppm, 9 estimates"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "no estimate (no task ran there)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "10.77.3.2            LINUX64      1"));
	free(text);
	pvmmon_log_free(log);
}

CU_TestInfo test_text_report_tests[] = {
    {"24 mutually recursive procedures: entry and count, members listed",
     test_mutual_recursion_named_by_entry},
    {"hosts and their clocks, for runs on several", test_hosts_and_clocks},
    {"cost section and switches, only when recorded", test_cost_and_switches},
    {"run summary and task table", test_run_and_tasks},
    {"usage findings, only when found", test_findings_section},
    {"statements sorted by time, named by file:line", test_statements_sorted_and_named},
    {"procedures and loops only when recorded", test_procs_and_loops_only_when_present},
    {"program structure, top-down", test_structure_top_down},
    {"empty log, write errors", test_empty_log_and_write_error},
    {"critical-path section", test_critical_path_section},
    {"compensation: which times, and said so", test_compensation_choice},
    CU_TEST_INFO_NULL,
};
