/* Unit tests for hide.c: pvm_tasks()'s answer without the monitor, libpvm3's array kept whole. */
#include <string.h>

#include "../../../pvmhooks/hide.h"
#include "../unit.h"

static void set(struct pvmtaskinfo *t, int tid, char *name)
{
	memset(t, 0, sizeof(*t));
	t->ti_tid = tid;
	t->ti_a_out = name;
}

static void test_monitor_moved_behind_order_kept(void)
{
	static char a[] = "a", b[] = "b", c[] = "", mon[] = "";
	struct pvmtaskinfo t[4];

	set(&t[0], 0x40001, mon);
	set(&t[1], 0x40002, a);
	set(&t[2], 0x40003, b);
	set(&t[3], 0x40004, c);
	CU_ASSERT_EQUAL(hide__tasks(t, 4, 0x40001), 3);
	CU_ASSERT_EQUAL(t[0].ti_tid, 0x40002);
	CU_ASSERT_EQUAL(t[1].ti_tid, 0x40003);
	CU_ASSERT_EQUAL(t[2].ti_tid, 0x40004);
	/* Still in the array, name and all, for libpvm3 to free. */
	CU_ASSERT_EQUAL(t[3].ti_tid, 0x40001);
	CU_ASSERT_PTR_EQUAL(t[3].ti_a_out, mon);
}

static void test_monitor_by_name_and_none(void)
{
	static char a[] = "a", m1[] = "/usr/lib/pvmmon/pvmmon-monitor", m2[] = "pvmmon-monitor";
	static char near[] = "pvmmon-monitorx";
	struct pvmtaskinfo t[4];

	set(&t[0], 0x40002, a);
	set(&t[1], 0x40003, m1);
	set(&t[2], 0x40004, near);
	set(&t[3], 0x40005, m2);
	/* An auto-started monitor the task does not know yet (mon 0): by its name. */
	CU_ASSERT_EQUAL(hide__tasks(t, 4, 0), 2);
	CU_ASSERT_EQUAL(t[0].ti_tid, 0x40002);
	CU_ASSERT_EQUAL(t[1].ti_tid, 0x40004);
	set(&t[0], 0x40002, NULL);
	CU_ASSERT_EQUAL(hide__tasks(t, 1, 0x40001), 1);
	CU_ASSERT_EQUAL(hide__tasks(t, 0, 0x40001), 0);
	/* Asked about the monitor alone: nothing left. */
	set(&t[0], 0x40001, a);
	CU_ASSERT_EQUAL(hide__tasks(t, 1, 0x40001), 0);
}

CU_TestInfo test_hide_tests[] = {
    {"the monitor moves behind the program's tasks, their order kept",
     test_monitor_moved_behind_order_kept},
    {"the monitor by its executable's name; nothing else hidden", test_monitor_by_name_and_none},
    CU_TEST_INFO_NULL,
};
