/* Unit tests for monitor/cost.c against a fake transport: a switch is told to the
 * tasks it names and kept for later ones, and the budget switches a site off when a
 * task's flushes show it over budget. */
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "../../../monitor/cost.h"
#include "../../../monitor/run.h"
#include "../../../monitor/tasks.h"
#include "fakeio.h"
#include "pvmmon/errors.h"

#define HOST 0x40000

static void reg(mon_run *run, int32_t tid)
{
	wire_register r = {tid, 0, 100, HOST, "prog", 0, run->token, 0, NULL};
	wire_buf b;

	wire__buf_init(&b);
	wire__register_encode(&b, &r);
	run__dispatch(run, tid, WIRE_TAG_REGISTER, b.data, b.len);
	wire__buf_free(&b);
}

/* The command of the n-th CTL sent to tid (procs heap, caller frees). */
static int ctl(wire_ctl *c, int32_t tid, size_t n)
{
	const fake_msg *m = fake_find(tid, WIRE_TAG_CTL, n);

	return m ? wire__ctl_decode(c, m->data, m->len) : -1;
}

static void test_switch_told_to_named_tasks(void)
{
	mon_run run;
	wire_ctl c;
	char *rules = NULL;

	fake_run(&run, HOST);
	reg(&run, 0x40001); /* "0" */
	reg(&run, 0x40002); /* "1" */
	CU_ASSERT_EQUAL(cost__switch(&run, 0, "task=0,kind=loop", 0, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(ctl(&c, 0x40001, 0), 0);
	CU_ASSERT_EQUAL(c.cmd, WIRE_CTL_DISABLE);
	CU_ASSERT_STRING_EQUAL(c.procs, "task=0,kind=loop");
	free(c.procs);
	CU_ASSERT_EQUAL(fake_count(0x40002, WIRE_TAG_CTL), 0);
	/* Later tasks get the rules with their welcome. */
	CU_ASSERT_EQUAL(cost__rules_text(&rules, &run), 0);
	CU_ASSERT_STRING_EQUAL(rules, "-task=0,kind=loop");
	free(rules);
	CU_ASSERT_EQUAL(run.nswitches, 1);
	CU_ASSERT_STRING_EQUAL(run.switches[0].by, "user");
	CU_ASSERT_EQUAL(cost__switch(&run, 1, "nonsense=1", 0, NULL), PVMMON_EINVAL);
	fake_done(&run);
}

/* Sends a flush of task tid: procedure hot entered count times, observed monitoring
 * time observed_ns, at end_ns. */
static void flush(mon_run *run, int32_t tid, int64_t end_ns, uint64_t count, int64_t observed_ns)
{
	pvmmon_log_proc p = {0};
	pvmmon_log_task t = {0};
	wire_buf b;

	p.name = "hot";
	p.file = "hot.c";
	p.line = 10;
	p.count = count;
	t.tid = tid;
	t.end_ns = end_ns;
	t.procs = &p;
	t.nprocs = 1;
	t.cost.known = 1;
	t.cost.proc_pair_ns = 100;
	t.cost.loop_pair_ns = 100;
	t.cost.observed_ns = observed_ns;
	wire__buf_init(&b);
	wire__records_encode(&b, &t, 0);
	run__dispatch(run, tid, WIRE_TAG_RECORDS, b.data, b.len);
	wire__buf_free(&b);
}

/* A flush with no procedure and the sampler's time sample_ns so far (its samples'
 * cost), observed monitoring time 0, at end_ns. */
static void flush_sampled(mon_run *run, int32_t tid, int64_t end_ns, int64_t sample_ns)
{
	pvmmon_log_task t = {0};
	pvmmon_log_samples s = {0};
	wire_buf b;

	t.tid = tid;
	t.end_ns = end_ns;
	t.cost.known = 1;
	t.cost.proc_pair_ns = 100;
	t.cost.loop_pair_ns = 100;
	s.hz = 199;
	s.total = 10;
	s.cost_ns = sample_ns;
	t.samples = &s;
	wire__buf_init(&b);
	wire__records_encode(&b, &t, 0);
	run__dispatch(run, tid, WIRE_TAG_RECORDS, b.data, b.len);
	wire__buf_free(&b);
}

/* The sampler's time counts in the budget: a task whose samples cost 3% of its time
 * under a 1% budget, with no site to switch off, has its sampling switched off (the
 * switch listed, by the budget); at 0.1% it keeps it. */
static void test_budget_counts_sampler(void)
{
	mon_run run;
	wire_ctl c;

	fake_run(&run, HOST);
	run.budget_pct = 1;
	CU_ASSERT_EQUAL(cost__start(&run), 0);
	reg(&run, 0x40001);
	reg(&run, 0x40002);
	flush_sampled(&run, 0x40001, 0, 0);
	flush_sampled(&run, 0x40002, 0, 0);
	flush_sampled(&run, 0x40002, 1000000000, 1000000);
	CU_ASSERT_EQUAL(fake_count(0x40002, WIRE_TAG_CTL), 0);
	flush_sampled(&run, 0x40001, 1000000000, 30000000);
	CU_ASSERT_EQUAL_FATAL(fake_count(0x40001, WIRE_TAG_CTL), 1);
	CU_ASSERT_EQUAL_FATAL(ctl(&c, 0x40001, 0), 0);
	CU_ASSERT_EQUAL(c.cmd, WIRE_CTL_SAMPLE);
	CU_ASSERT_EQUAL(c.gen, 0);
	free(c.procs);
	CU_ASSERT_EQUAL_FATAL(run.nswitches, 2);
	CU_ASSERT_EQUAL(run.switches[1].on, 0);
	CU_ASSERT_STRING_EQUAL(run.switches[1].resource, "sample,task=0");
	CU_ASSERT_STRING_EQUAL(run.switches[1].by, "budget");
	CU_ASSERT_PTR_NOT_NULL(strstr(run.switches[1].reason, "call-path sampling 3.0%"));
	/* Once is enough: the next flush over budget sends nothing more. */
	flush_sampled(&run, 0x40001, 2000000000, 60000000);
	flush_sampled(&run, 0x40001, 3000000000, 90000000);
	CU_ASSERT_EQUAL(fake_count(0x40001, WIRE_TAG_CTL), 1);
	fake_done(&run);
}

/* pvmmon ctl sample: told to every running task, listed, kept for later ones. */
static void test_ctl_sample(void)
{
	mon_run run;
	wire_ctl c;

	fake_run(&run, HOST);
	reg(&run, 0x40001);
	CU_ASSERT_EQUAL(cost__sample(&run, 997), 0);
	CU_ASSERT_EQUAL_FATAL(ctl(&c, 0x40001, 0), 0);
	CU_ASSERT(c.cmd == WIRE_CTL_SAMPLE && c.gen == 997);
	free(c.procs);
	CU_ASSERT(run.sample_ctl == 1 && run.sample_hz == 997);
	CU_ASSERT_EQUAL(cost__sample(&run, 0), 0);
	CU_ASSERT_EQUAL_FATAL(ctl(&c, 0x40001, 1), 0);
	CU_ASSERT(c.cmd == WIRE_CTL_SAMPLE && c.gen == 0);
	free(c.procs);
	CU_ASSERT(run.sample_ctl == 1 && run.sample_hz == 0);
	CU_ASSERT_EQUAL_FATAL(run.nswitches, 2);
	CU_ASSERT(run.switches[0].on && !strcmp(run.switches[0].resource, "sample=997"));
	CU_ASSERT(!run.switches[1].on && !strcmp(run.switches[1].resource, "sample"));
	CU_ASSERT_EQUAL(cost__sample(&run, WIRE_SAMPLE_MAX_HZ + 1), PVMMON_EINVAL);
	CU_ASSERT_EQUAL(run.nswitches, 2);
	/* A task registered now is welcomed with the setting. */
	fake_reset();
	reg(&run, 0x40002);
	{
		const fake_msg *m = fake_find(0x40002, WIRE_TAG_WELCOME, 0);
		wire_welcome w;

		CU_ASSERT_PTR_NOT_NULL_FATAL(m);
		CU_ASSERT_EQUAL_FATAL(wire__welcome_decode(&w, m->data, m->len), 0);
		CU_ASSERT(w.sample_ctl == 1 && w.sample_hz == 0);
		wire__welcome_clear(&w);
	}
	fake_done(&run);
}

static void test_budget_switches_site_off(void)
{
	mon_run run;
	wire_ctl c;

	fake_run(&run, HOST);
	run.budget_pct = 1;
	CU_ASSERT_EQUAL(cost__start(&run), 0);
	reg(&run, 0x40001);
	/* 10^6 entries a second at 100 ns a pair: 10% of the task's time. */
	flush(&run, 0x40001, 0, 0, 0);
	CU_ASSERT_EQUAL(fake_count(0x40001, WIRE_TAG_CTL), 0);
	flush(&run, 0x40001, 1000000000, 1000000, 100000000);
	CU_ASSERT_EQUAL_FATAL(fake_count(0x40001, WIRE_TAG_CTL), 1);
	CU_ASSERT_EQUAL_FATAL(ctl(&c, 0x40001, 0), 0);
	CU_ASSERT_EQUAL(c.cmd, WIRE_CTL_DISABLE);
	CU_ASSERT_STRING_EQUAL(c.procs, "task=0,kind=proc,proc=hot,line=10");
	free(c.procs);
	CU_ASSERT_EQUAL_FATAL(run.nswitches, 2);
	CU_ASSERT_STRING_EQUAL(run.switches[1].by, "budget");
	CU_ASSERT_PTR_NOT_NULL(run.switches[1].reason);
	/* Under budget nothing is switched off. */
	fake_reset();
	run.budget_pct = 50;
	reg(&run, 0x40002);
	flush(&run, 0x40002, 0, 0, 0);
	flush(&run, 0x40002, 1000000000, 1000000, 100000000);
	CU_ASSERT_EQUAL(fake_count(0x40002, WIRE_TAG_CTL), 0);
	fake_done(&run);
}

CU_TestInfo test_cost_tests[] = {
    {"switch told to named tasks", test_switch_told_to_named_tasks},
    {"budget switches site off", test_budget_switches_site_off},
    {"budget counts the sampler", test_budget_counts_sampler},
    {"ctl sample told, listed and welcomed", test_ctl_sample},
    CU_TEST_INFO_NULL,
};
