/* Unit tests for common/resource.c: the resources dynamic instrumentation switches. */
#include <string.h>

#include <CUnit/CUnit.h>

#include "pvmmon/errors.h"
#include "../../../common/resource.h"

static void test_all_matches_everything(void)
{
	resource r;

	CU_ASSERT_EQUAL_FATAL(resource__parse(&r, "all"), 0);
	CU_ASSERT(resource__match(&r, "0.1", RESOURCE_PROC, "solve", "/src/a.c", 12, NULL));
	CU_ASSERT(resource__match(&r, "0", RESOURCE_LOOP, "for@3", "b.c", 3, "main"));
	CU_ASSERT(resource__names_task(&r, "0.7"));
	resource__clear(&r);
}

static void test_terms_must_all_match(void)
{
	resource r;

	CU_ASSERT_EQUAL_FATAL(resource__parse(&r, "task=0.1,proc=solve"), 0);
	CU_ASSERT_STRING_EQUAL(r.task, "0.1");
	CU_ASSERT_STRING_EQUAL(r.proc, "solve");
	CU_ASSERT(resource__match(&r, "0.1", RESOURCE_PROC, "solve", "a.c", 5, NULL));
	/* Another task, another procedure. */
	CU_ASSERT_FALSE(resource__match(&r, "0.2", RESOURCE_PROC, "solve", "a.c", 5, NULL));
	CU_ASSERT_FALSE(resource__match(&r, "0.1", RESOURCE_PROC, "main", "a.c", 5, NULL));
	/* proc= takes the loops inside the procedure too. */
	CU_ASSERT(resource__match(&r, "0.1", RESOURCE_LOOP, "for@9", "a.c", 9, "solve"));
	CU_ASSERT_FALSE(resource__match(&r, "0.1", RESOURCE_LOOP, "for@9", "a.c", 9, "main"));
	CU_ASSERT_FALSE(resource__match(&r, "0.1", RESOURCE_LOOP, "for@9", "a.c", 9, NULL));
	CU_ASSERT_FALSE(resource__names_task(&r, "0"));
	resource__clear(&r);
}

static void test_file_matches_whole_path_or_last_part(void)
{
	resource r;

	CU_ASSERT_EQUAL_FATAL(resource__parse(&r, "file=a.c"), 0);
	CU_ASSERT(resource__match(&r, "0", RESOURCE_PROC, "f", "/home/u/src/a.c", 1, NULL));
	CU_ASSERT(resource__match(&r, "0", RESOURCE_PROC, "f", "a.c", 1, NULL));
	/* Only whole components: "ba.c" is another file. */
	CU_ASSERT_FALSE(resource__match(&r, "0", RESOURCE_PROC, "f", "/src/ba.c", 1, NULL));
	CU_ASSERT_FALSE(resource__match(&r, "0", RESOURCE_PROC, "f", NULL, 1, NULL));
	resource__clear(&r);
	CU_ASSERT_EQUAL_FATAL(resource__parse(&r, "file=src/a.c"), 0);
	CU_ASSERT(resource__match(&r, "0", RESOURCE_PROC, "f", "/home/u/src/a.c", 1, NULL));
	resource__clear(&r);
}

static void test_loop_and_kind_terms(void)
{
	resource r;

	CU_ASSERT_EQUAL_FATAL(resource__parse(&r, "loop=mc.c:42"), 0);
	CU_ASSERT_EQUAL(r.kind, RESOURCE_LOOP);
	CU_ASSERT_EQUAL(r.line, 42);
	CU_ASSERT_STRING_EQUAL(r.file, "mc.c");
	CU_ASSERT(resource__match(&r, "0", RESOURCE_LOOP, "for@42", "/x/mc.c", 42, "main"));
	CU_ASSERT_FALSE(resource__match(&r, "0", RESOURCE_PROC, "main", "/x/mc.c", 42, NULL));
	CU_ASSERT_FALSE(resource__match(&r, "0", RESOURCE_LOOP, "for@43", "/x/mc.c", 43, NULL));
	resource__clear(&r);
	CU_ASSERT_EQUAL_FATAL(resource__parse(&r, "loop=7"), 0);
	CU_ASSERT_PTR_NULL(r.file);
	CU_ASSERT_EQUAL(r.line, 7);
	resource__clear(&r);
	/* A statement: its function stands for the enclosing procedure. */
	CU_ASSERT_EQUAL_FATAL(resource__parse(&r, "stmt=mc.c:50"), 0);
	CU_ASSERT_EQUAL(r.kind, RESOURCE_STMT);
	CU_ASSERT(resource__match(&r, "0", RESOURCE_STMT, NULL, "/x/mc.c", 50, "master"));
	CU_ASSERT_FALSE(resource__match(&r, "0", RESOURCE_LOOP, "for@50", "/x/mc.c", 50, NULL));
	resource__clear(&r);
	CU_ASSERT_EQUAL_FATAL(resource__parse(&r, "proc=master"), 0);
	CU_ASSERT(resource__match(&r, "0", RESOURCE_STMT, NULL, "/x/mc.c", 50, "master"));
	CU_ASSERT_FALSE(resource__match(&r, "0", RESOURCE_STMT, NULL, "/x/mc.c", 50, "worker"));
	resource__clear(&r);
	CU_ASSERT_EQUAL_FATAL(resource__parse(&r, "kind=proc,line=3"), 0);
	CU_ASSERT(resource__match(&r, "0", RESOURCE_PROC, "g", "b.c", 3, NULL));
	CU_ASSERT_FALSE(resource__match(&r, "0", RESOURCE_LOOP, "for@3", "b.c", 3, "g"));
	resource__clear(&r);
}

/* Each bad resource is refused with a message naming what is wrong, and leaves the
 * resource empty. */
static void test_bad_resources_are_refused(void)
{
	static const struct {
		const char *spec, *says;
	} bad[] = {
	    {"", "empty"},
	    {"proc", "not a term"},
	    {"colour=red", "unknown term 'colour'"},
	    {"proc=", "procedure name"},
	    {"proc=9lives", "procedure name"},
	    {"proc=a b", "procedure name"},
	    {"task=0;1", "logical id"},
	    {"line=0", "line number"},
	    {"line=-3", "line number"},
	    {"line=1234567890", "line number"},
	    {"loop=a.c:", "line number"},
	    {"loop=:5", "[FILE:]LINE"},
	    {"kind=call", "proc, loop or stmt"},
	    {"stmt=x.c", "line number"},
	    {"kind=proc,loop=4", "two kinds"},
	    {"proc=a,proc=b", "twice"},
	    {"line=3,loop=4", "twice"},
	    {"file=a.c,", "not a term"},
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		resource r;

		CU_ASSERT_EQUAL(resource__parse(&r, bad[i].spec), PVMMON_EINVAL);
		if (!strstr(pvmmon_error_last(), bad[i].says))
			CU_FAIL_FATAL(bad[i].spec);
		CU_ASSERT_PTR_NULL(r.task);
		CU_ASSERT_PTR_NULL(r.file);
		CU_ASSERT_PTR_NULL(r.proc);
		CU_ASSERT_EQUAL(r.line, 0);
	}
}

static void test_overlong_resource_is_refused(void)
{
	char spec[RESOURCE_MAX_LEN + 16];
	resource r;

	memset(spec, 'a', sizeof(spec) - 1);
	memcpy(spec, "proc=", 5);
	spec[sizeof(spec) - 1] = '\0';
	CU_ASSERT_EQUAL(resource__parse(&r, spec), PVMMON_EINVAL);
	CU_ASSERT_PTR_NOT_NULL(strstr(pvmmon_error_last(), "longer than"));
}

CU_TestInfo test_resource_tests[] = {
    {"all matches everything", test_all_matches_everything},
    {"terms must all match", test_terms_must_all_match},
    {"file matches whole path or last part", test_file_matches_whole_path_or_last_part},
    {"loop and kind terms", test_loop_and_kind_terms},
    {"bad resources are refused", test_bad_resources_are_refused},
    {"overlong resource is refused", test_overlong_resource_is_refused},
    CU_TEST_INFO_NULL,
};
