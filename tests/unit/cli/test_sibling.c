/* Unit tests for cli/sibling.c: files found relative to the running executable (here
 * the unit-test program, build/tests/unit-tests). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "../../../cli/cli.h"
#include "pvmmon/errors.h"

static void test_found_and_not(void)
{
	char self[PATH_MAX], folder[PATH_MAX], rel[2 * PATH_MAX + 8], *name, *want;
	char *path = (char *)"unset";
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	const char *none[] = {"no-such-file", "../no/such/file", NULL};
	const char *cand[3] = {"no-such-file", NULL, NULL};

	CU_ASSERT_FATAL(n > 0);
	self[n] = '\0';
	name = strrchr(self, '/') + 1;
	want = realpath(self, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(want);
	/* None of them: not found, and *out NULL. */
	CU_ASSERT_EQUAL(cli__sibling(&path, none), PVMMON_ENOTFOUND);
	CU_ASSERT_PTR_NULL(path);
	/* The first that exists, as a real path: here the executable itself, named through
	 * its folder's parent ("../tests/unit-tests"). */
	memcpy(folder, self, (size_t)(name - 1 - self));
	folder[name - 1 - self] = '\0';
	snprintf(rel, sizeof(rel), "../%s/%s", strrchr(folder, '/') + 1, name);
	cand[1] = rel;
	CU_ASSERT_EQUAL(cli__sibling(&path, cand), 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(path);
	CU_ASSERT_STRING_EQUAL(path, want);
	free(path);
	free(want);
}

CU_TestInfo test_sibling_tests[] = {
    {"the first candidate that exists, as a real path", test_found_and_not},
    CU_TEST_INFO_NULL,
};
