/* Unit tests for cli/replaycheck.c: whether a log can be replayed with a program, and
 * the note on what a program imports that a replay does not replay (read from a small
 * program compiled here). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "../../../cli/cli.h"
#include "cmd.h"
#include "pvmmon/errors.h"
#include "pvmmon/log.h"

/* cli__check_replay and cli__note_unreplayed as subcommands: LOG PROGRAM, PROGRAM. */
static int check(int argc, char **argv)
{
	return argc == 3 ? cli__check_replay(argv[1], argv[2]) : 99;
}

static int note(int argc, char **argv)
{
	if (argc != 2)
		return 99;
	cli__note_unreplayed(argv[1]);
	return 0;
}

/* A copy of fixture report-matmul.xml (program /home/user/bin/matmul) in dir, with a
 * replay record or without; its path in path. */
static void write_log(const char *dir, int replayable, char *path, size_t n)
{
	pvmmon_log *log = NULL;

	CU_ASSERT_EQUAL_FATAL(pvmmon_log_read(&log, "tests/fixtures/report-matmul.xml"), 0);
	log->replayable = replayable;
	snprintf(path, n, "%s/%s.xml", dir, replayable ? "rec" : "norec");
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_write(log, path), 0);
	pvmmon_log_free(log);
}

static void test_check(void)
{
	char dir[40], rec[80], norec[80], want[256];
	cmd_result r;

	cmd_tmpdir(dir);
	write_log(dir, 1, rec, sizeof(rec));
	write_log(dir, 0, norec, sizeof(norec));
	/* The same program by its last part: fine, and nothing to say about a program
	 * that cannot be read. */
	cmd_run(&r, check, "check", rec, "/nonexistent/bin/matmul", NULL);
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_STRING_EQUAL(r.err, "");
	cmd_free(&r);
	cmd_run(&r, check, "check", rec, "matmul", NULL);
	CU_ASSERT_EQUAL(r.status, 0);
	cmd_free(&r);
	/* Another program. */
	cmd_run(&r, check, "check", rec, "/home/user/bin/mcpi", NULL);
	CU_ASSERT_EQUAL(r.status, PVMMON_EINVAL);
	snprintf(want, sizeof(want), "pvmmon: replay: %s: the record is of matmul, not of mcpi\n",
	         rec);
	CU_ASSERT_STRING_EQUAL(r.err, want);
	cmd_free(&r);
	/* A run without a replay record. */
	cmd_run(&r, check, "check", norec, "/home/user/bin/matmul", NULL);
	CU_ASSERT_EQUAL(r.status, PVMMON_EINVAL);
	snprintf(want, sizeof(want),
	         "pvmmon: replay: %s: the run kept no replay record (it was run with "
	         "--no-record, or it is a replay itself)\n",
	         norec);
	CU_ASSERT_STRING_EQUAL(r.err, want);
	cmd_free(&r);
	/* A log that cannot be read: the reader's error, naming it. */
	cmd_run(&r, check, "check", "tests/fixtures/not-xml.txt", "matmul", NULL);
	CU_ASSERT(r.status < 0);
	CU_ASSERT_NSTRING_EQUAL(
	    r.err, "pvmmon: replay: tests/fixtures/not-xml.txt: not a well-formed", 61);
	cmd_free(&r);
	cmd_remove(dir);
}

static void test_note(void)
{
	static const char src[] = "#include <pthread.h>\n"
	                          "#include <time.h>\n"
	                          "static void *run(void *a) { return a; }\n"
	                          "int main(void)\n"
	                          "{\n"
	                          "\tpthread_t t;\n"
	                          "\tpthread_create(&t, 0, run, 0);\n"
	                          "\tpthread_join(t, 0);\n"
	                          "\treturn (int)clock() & 1;\n"
	                          "}\n";
	char dir[40], c[80], exe[80], cmd[256], want[512];
	cmd_result r;

	cmd_tmpdir(dir);
	snprintf(c, sizeof(c), "%s/prog.c", dir);
	snprintf(exe, sizeof(exe), "%s/prog", dir);
	cmd_write(c, src);
	snprintf(cmd, sizeof(cmd), "cc -o %s %s -pthread", exe, c);
	CU_ASSERT_EQUAL_FATAL(system(cmd), 0);
	/* Each unreplayed function it imports, in the table's order, none other. */
	cmd_run(&r, note, "note", exe, NULL);
	snprintf(want, sizeof(want),
	         "pvmmon: replay: note: %s calls clock (CPU time), which a replay does not "
	         "replay; what the program does with it may differ\n"
	         "pvmmon: replay: note: %s calls pthread_create (threads), which a replay does "
	         "not replay; what the program does with it may differ\n",
	         exe, exe);
	CU_ASSERT_STRING_EQUAL(r.err, want);
	cmd_free(&r);
	/* Not a program, or none: nothing said. */
	cmd_run(&r, note, "note", "tests/fixtures/not-xml.txt", NULL);
	CU_ASSERT_STRING_EQUAL(r.err, "");
	cmd_free(&r);
	cmd_run(&r, note, "note", "/nonexistent/prog", NULL);
	CU_ASSERT_STRING_EQUAL(r.err, "");
	cmd_free(&r);
	cmd_remove(dir);
}

CU_TestInfo test_replaycheck_tests[] = {
    {"a log replays with its own program only, if recorded", test_check},
    {"the note names what the program imports", test_note},
    CU_TEST_INFO_NULL,
};
