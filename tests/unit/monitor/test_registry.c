/* Unit tests for monitor/tasks.c and monitor/registry.c against a fake transport:
 * registration answers a WELCOME with the task's index and logical id, children wait
 * for their parent's spawn report, tokens are checked, exits set the status. */
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "../../../monitor/registry.h"
#include "../../../monitor/run.h"
#include "../../../monitor/tasks.h"
#include "fakeio.h"
#include "pvmmon/errors.h"

#define HOST 0x40000

/* Registers tid (parent 0: a root) with token, through the run's dispatch table. */
static void reg(mon_run *run, int32_t tid, int32_t parent, uint64_t token)
{
	wire_register r = {tid, parent, 100, HOST, "prog", 1000, token, 0, NULL};
	wire_buf b;

	wire__buf_init(&b);
	wire__register_encode(&b, &r);
	run__dispatch(run, tid, WIRE_TAG_REGISTER, b.data, b.len);
	wire__buf_free(&b);
}

/* The index and logical id a WELCOME carries (lid heap, caller frees). */
static int welcome_of(const fake_msg *m, uint32_t *index, char **lid)
{
	wire_welcome w;

	if (wire__welcome_decode(&w, m->data, m->len) < 0)
		return -1;
	*index = w.index;
	*lid = w.lid;
	w.lid = NULL;
	wire__welcome_clear(&w);
	return 0;
}

static void test_register_welcomes_with_index(void)
{
	mon_run run;
	uint32_t index = 99;
	char *lid = NULL;

	fake_run(&run, HOST);
	reg(&run, 0x40001, 0, run.token);
	reg(&run, 0x40002, 0, run.token);
	CU_ASSERT_EQUAL(tasks__count(&run), 2);
	CU_ASSERT_PTR_NOT_NULL_FATAL(fake_find(0x40002, WIRE_TAG_WELCOME, 0));
	CU_ASSERT_EQUAL(welcome_of(fake_find(0x40002, WIRE_TAG_WELCOME, 0), &index, &lid), 0);
	CU_ASSERT_EQUAL(index, 1);
	CU_ASSERT_STRING_EQUAL(lid, "1");
	free(lid);
	CU_ASSERT_EQUAL(fake_nnotified, 2);
	CU_ASSERT_EQUAL(fake_notified[1], 0x40002);
	CU_ASSERT_PTR_EQUAL(tasks__find_lid(&run, "1"), tasks__find(&run, 0x40002));
	CU_ASSERT_EQUAL(tasks__at(&run, 1)->index, 1);
	CU_ASSERT_TRUE(tasks__running(tasks__at(&run, 0)));
	fake_done(&run);
}

static void test_wrong_token_refused(void)
{
	mon_run run;
	wire_register r = {0x40001, 0, 100, HOST, "prog", 1000, 0x999, 0, NULL};
	wire_buf b;

	fake_run(&run, HOST);
	wire__buf_init(&b);
	wire__register_encode(&b, &r);
	CU_ASSERT_EQUAL(registry__register(&run, 0x40001, b.data, b.len), PVMMON_EINVAL);
	wire__buf_free(&b);
	reg(&run, 0x40001, 0, 0x999);
	CU_ASSERT_EQUAL(run.refused, 1);
	CU_ASSERT_EQUAL(tasks__count(&run), 0);
	CU_ASSERT_EQUAL(fake_nsent, 0);
	/* Only registered tasks may send anything else. */
	CU_ASSERT_FALSE(run__admitted(&run, 0x40001, WIRE_TAG_RECORDS));
	fake_done(&run);
}

/* A child that registers before its parent's spawn report waits for it: its logical
 * id is its place among the parent's spawns. */
static void test_child_waits_for_spawn_report(void)
{
	mon_run run;
	int32_t child = 0x40003;
	wire_spawned s = {2, 1, &child, 0, {0}}; /* base 2 */
	uint32_t index = 99;
	char *lid = NULL;
	wire_buf b;

	fake_run(&run, HOST);
	reg(&run, 0x40001, 0, run.token);
	reg(&run, 0x40003, 0x40001, run.token);
	CU_ASSERT_PTR_NULL(fake_find(0x40003, WIRE_TAG_WELCOME, 0));
	CU_ASSERT_FALSE(tasks__find(&run, 0x40003)->welcomed);
	wire__buf_init(&b);
	wire__spawned_encode(&b, &s);
	run__dispatch(&run, 0x40001, WIRE_TAG_SPAWNED, b.data, b.len);
	wire__buf_free(&b);
	CU_ASSERT_EQUAL(tasks__spawn_count(&run), 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(fake_find(0x40003, WIRE_TAG_WELCOME, 0));
	CU_ASSERT_EQUAL(welcome_of(fake_find(0x40003, WIRE_TAG_WELCOME, 0), &index, &lid), 0);
	CU_ASSERT_EQUAL(index, 1);
	CU_ASSERT_STRING_EQUAL(lid, "0.2");
	free(lid);
	fake_done(&run);
}

static void test_exit_without_final_flush_is_a_crash(void)
{
	mon_run run;

	fake_run(&run, HOST);
	reg(&run, 0x40001, 0, run.token);
	CU_ASSERT_FALSE(tasks__all_done(&run));
	run__task_exit(&run, 0x40001);
	CU_ASSERT_EQUAL(tasks__find(&run, 0x40001)->rec.status, PVMMON_TASK_CRASHED);
	CU_ASSERT_TRUE(tasks__all_done(&run));
	fake_done(&run);
}

/* Children reported spawned keep the run from ending until each has registered and
 * ended or ended without registering, and the pvmd is asked once for each exit. */
static void test_spawned_child_not_registered_keeps_run(void)
{
	mon_run run;
	int32_t kids[2] = {0x40002, 0x40003};
	wire_spawned s = {0, 2, kids, 0, {0}};
	wire_buf b;
	size_t asked = 0;

	fake_run(&run, HOST);
	reg(&run, 0x40001, 0, run.token);
	wire__buf_init(&b);
	wire__spawned_encode(&b, &s);
	run__dispatch(&run, 0x40001, WIRE_TAG_SPAWNED, b.data, b.len);
	wire__buf_free(&b);
	run__task_exit(&run, 0x40001);
	/* Neither child has registered: the run is not over. */
	CU_ASSERT_FALSE(tasks__all_done(&run));
	reg(&run, 0x40002, 0x40001, run.token);
	run__task_exit(&run, 0x40002);
	CU_ASSERT_FALSE(tasks__all_done(&run));
	/* The second ends without ever registering. */
	run__task_exit(&run, 0x40003);
	CU_ASSERT_TRUE(tasks__all_done(&run));
	CU_ASSERT_EQUAL(tasks__count(&run), 2);
	for (size_t i = 0; i < fake_nnotified; i++)
		asked += fake_notified[i] == 0x40002;
	CU_ASSERT_EQUAL(asked, 1);
	fake_done(&run);
}

static void test_query_answers_whether_a_task(void)
{
	mon_run run;
	const fake_msg *m;
	wire_answer a;
	wire_buf b;

	fake_run(&run, HOST);
	reg(&run, 0x40001, 0, run.token);
	wire__buf_init(&b);
	wire__query_encode(&b, &(wire_query){0x40001});
	run__dispatch(&run, 0x40001, WIRE_TAG_QUERY, b.data, b.len);
	wire__buf_free(&b);
	m = fake_find(0x40001, WIRE_TAG_ANSWER, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL_FATAL(wire__answer_decode(&a, m->data, m->len), 0);
	CU_ASSERT_EQUAL(a.tid, 0x40001);
	CU_ASSERT_EQUAL(a.monitored, 1);
	fake_done(&run);
}

/* Sends tid's records flush with n blames (the online wait analysis's table). */
static void flush_blames(mon_run *run, int32_t tid, const pvmmon_log_blame *bl, size_t n)
{
	pvmmon_log_task t = {.tid = tid, .nblames = n, .blames = (pvmmon_log_blame *)bl};
	wire_buf b;

	wire__buf_init(&b);
	wire__records_encode(&b, &t, 0);
	run__dispatch(run, tid, WIRE_TAG_RECORDS, b.data, b.len);
	wire__buf_free(&b);
}

/* The table is cumulative in the task, as its records are: a flush with one replaces
 * the last, a flush without keeps it. */
static void test_records_keep_the_last_blames(void)
{
	pvmmon_log_blame first[2] = {{0x40002, 3, 1000, 0, 1}, {0x40001, 1, 50, 20, 2}};
	pvmmon_log_blame second[1] = {{0x40002, 3, 9000, 400, 7}};
	mon_run run;
	mon_task *t;

	fake_run(&run, HOST);
	reg(&run, 0x40001, 0, run.token);
	t = tasks__find(&run, 0x40001);
	flush_blames(&run, 0x40001, first, 2);
	CU_ASSERT_EQUAL_FATAL(t->rec.nblames, 2);
	CU_ASSERT_EQUAL(t->rec.blames[1].long_ns, 20);
	flush_blames(&run, 0x40001, NULL, 0);
	CU_ASSERT_EQUAL_FATAL(t->rec.nblames, 2);
	CU_ASSERT_EQUAL(t->rec.blames[0].short_ns, 1000);
	flush_blames(&run, 0x40001, second, 1);
	CU_ASSERT_EQUAL_FATAL(t->rec.nblames, 1);
	CU_ASSERT_EQUAL(t->rec.blames[0].short_ns, 9000);
	CU_ASSERT_EQUAL(t->rec.blames[0].waits, 7);
	CU_ASSERT_EQUAL(t->rec.flushes, 3);
	fake_done(&run);
}

/* The static tables come once (records_send.c): a flush without them keeps the
 * last ones, while its procedures replace the last flush's. */
static void test_records_keep_the_statics(void)
{
	pvmmon_log_static st[2] = {{PVMMON_STATIC_PROC, "main", "a.c", 3, -1},
	                           {PVMMON_STATIC_LOOP, "for@5:2", "a.c", 5, 0}};
	pvmmon_log_proc pr[1] = {{.name = "main", .file = "a.c", .line = 3, .count = 1}};
	pvmmon_log_task t = {
	    .tid = 0x40001, .nstatics = 2, .statics = st, .nprocs = 1, .procs = pr};
	mon_run run;
	mon_task *m;
	wire_buf b;

	fake_run(&run, HOST);
	reg(&run, 0x40001, 0, run.token);
	m = tasks__find(&run, 0x40001);
	for (int i = 0; i < 2; i++) {
		wire__buf_init(&b);
		wire__records_encode(&b, &t, 0);
		run__dispatch(&run, 0x40001, WIRE_TAG_RECORDS, b.data, b.len);
		wire__buf_free(&b);
		CU_ASSERT_EQUAL_FATAL(m->rec.nstatics, 2);
		CU_ASSERT_STRING_EQUAL(m->rec.statics[1].name, "for@5:2");
		CU_ASSERT_EQUAL(m->rec.statics[1].parent, 0);
		CU_ASSERT_EQUAL_FATAL(m->rec.nprocs, 1);
		CU_ASSERT_EQUAL(m->rec.procs[0].count, (uint64_t)(i + 1));
		t.nstatics = 0;
		t.statics = NULL;
		pr[0].count = 2;
	}
	CU_ASSERT_EQUAL(m->rec.flushes, 2);
	fake_done(&run);
}

/* Sends tid's flush of t, a delta of d (NULL: whole). */
static void flush_delta(mon_run *run, const pvmmon_log_task *t, const wire_records_delta *d)
{
	wire_buf b;

	wire__buf_init(&b);
	wire__records_encode_delta(&b, t, 0, d);
	run__dispatch(run, t->tid, WIRE_TAG_RECORDS, b.data, b.len);
	wire__buf_free(&b);
}

/* A delta's records take their places among the task's, the others stay; a new record
 * must come, else the flush is refused and the records stay as they were. */
static void test_records_delta_merged(void)
{
	pvmmon_log_proc pr[3] = {
	    {.name = "a", .count = 1}, {.name = "b", .count = 1}, {.name = "c", .count = 1}};
	pvmmon_log_loop lo[1] = {{.name = "for@3:1", .count = 1}};
	pvmmon_log_task t = {.tid = 0x40001, .nprocs = 2, .procs = pr, .nloops = 1, .loops = lo};
	uint32_t pi[2] = {1, 2};
	wire_records_delta d = {.npidx = 2, .pidx = pi};
	mon_run run;
	mon_task *m;

	fake_run(&run, HOST);
	reg(&run, 0x40001, 0, run.token);
	m = tasks__find(&run, 0x40001);
	flush_delta(&run, &t, NULL);
	CU_ASSERT_EQUAL_FATAL(m->rec.nprocs, 2);
	/* b changed and c is new; a and the loop are as sent. */
	pr[1].count = 7;
	pr[2].count = 9;
	t.nprocs = 3;
	flush_delta(&run, &t, &d);
	CU_ASSERT_EQUAL(run.bad_messages, 0);
	CU_ASSERT_EQUAL_FATAL(m->rec.nprocs, 3);
	CU_ASSERT_STRING_EQUAL(m->rec.procs[0].name, "a");
	CU_ASSERT_EQUAL(m->rec.procs[1].count, 7);
	CU_ASSERT_STRING_EQUAL(m->rec.procs[2].name, "c");
	CU_ASSERT_EQUAL(m->rec.procs[2].count, 9);
	CU_ASSERT_EQUAL_FATAL(m->rec.nloops, 1);
	CU_ASSERT_STRING_EQUAL(m->rec.loops[0].name, "for@3:1");
	/* A fourth record that does not come: refused whole. */
	pr[1].count = 8;
	d.npidx = 1;
	t.nprocs = 3;
	t.nloops = 2;
	flush_delta(&run, &t, &d);
	CU_ASSERT_EQUAL(run.bad_messages, 1);
	CU_ASSERT_EQUAL(m->rec.procs[1].count, 7);
	CU_ASSERT_EQUAL(m->rec.nloops, 1);
	CU_ASSERT_EQUAL(m->rec.flushes, 2);
	fake_done(&run);
}

CU_TestInfo test_registry_tests[] = {
    {"a delta's records take their places; one that leaves out a new record is refused",
     test_records_delta_merged},
    {"a flush without the static tables keeps them; its procedures replace the last",
     test_records_keep_the_statics},
    {"a flush's blames replace the last; a flush without keeps them",
     test_records_keep_the_last_blames},
    {"a spawned child keeps the run until it registers and ends, or ends unregistered",
     test_spawned_child_not_registered_keeps_run},
    {"register welcomes with index", test_register_welcomes_with_index},
    {"wrong token refused", test_wrong_token_refused},
    {"child waits for spawn report", test_child_waits_for_spawn_report},
    {"exit without final flush is a crash", test_exit_without_final_flush_is_a_crash},
    {"query answers whether a task", test_query_answers_whether_a_task},
    CU_TEST_INFO_NULL,
};
