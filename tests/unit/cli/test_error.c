/* Unit tests for cli/error.c: the command's one-line errors on standard error. */
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "../../../cli/cli.h"
#include "cmd.h"

/* A subcommand that says its words through cli__error. */
static int say(int argc, char **argv)
{
	cli__error("%s: %d words", argc > 1 ? argv[1] : "(none)", argc);
	return 0;
}

/* One long word, past any buffer of a line. */
static int say_long(int argc, char **argv)
{
	char *big = malloc(10001);

	(void)argc;
	(void)argv;
	if (!big)
		return 1;
	memset(big, 'x', 10000);
	big[10000] = '\0';
	cli__error("%s", big);
	free(big);
	return 0;
}

static void test_error_line(void)
{
	cmd_result r;

	cmd_run(&r, say, "pvmmon", "report", "x", NULL);
	CU_ASSERT_STRING_EQUAL(r.err, "pvmmon: report: 3 words\n");
	CU_ASSERT_STRING_EQUAL(r.out, "");
	cmd_free(&r);
	cmd_run(&r, say_long, "pvmmon", NULL);
	CU_ASSERT_EQUAL(r.status, 0);
	CU_ASSERT_EQUAL(strlen(r.err), 8 + 10000 + 1);
	CU_ASSERT_NSTRING_EQUAL(r.err, "pvmmon: xxxx", 12);
	CU_ASSERT_EQUAL(r.err[strlen(r.err) - 1], '\n');
	cmd_free(&r);
}

CU_TestInfo test_error_tests[] = {
    {"\"pvmmon: \", the message and a new line, whole", test_error_line},
    CU_TEST_INFO_NULL,
};
