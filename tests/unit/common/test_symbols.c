/* Unit tests for common/symbols.c: call sites resolved to file:line with libdw. */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "../../../common/symbols.h"
#include "pvmmon/errors.h"

static void *captured;

/* Stands in for a PVM wrapper: remembers its return address, as the hooks do. */
static __attribute__((noinline)) void capture(void)
{
	captured = __builtin_return_address(0);
	__asm__ volatile("" ::: "memory");
}

static void test_resolves_own_call_site(void)
{
	pvmmon_symbols *syms = NULL;
	Dl_info info;
	char *file = NULL, *func = NULL;
	int line = 0, call_line;

	capture(); call_line = __LINE__;
	CU_ASSERT_FATAL(dladdr(captured, &info) != 0);
	CU_ASSERT_EQUAL_FATAL(pvmmon_symbols_new(&syms), 0);
	CU_ASSERT_EQUAL(
	    pvmmon_symbols_resolve(&file, &line, &func, syms, info.dli_fname,
	                           (uint64_t)((char *)captured - (char *)info.dli_fbase)),
	    0);
	CU_ASSERT_PTR_NOT_NULL(file);
	if (file) {
		size_t l = strlen(file), m = strlen("test_symbols.c");

		CU_ASSERT(l >= m && !strcmp(file + l - m, "test_symbols.c"));
	}
	CU_ASSERT_EQUAL(line, call_line);
	CU_ASSERT_PTR_NOT_NULL(func);
	if (func)
		CU_ASSERT_STRING_EQUAL(func, "test_resolves_own_call_site");
	free(file);
	free(func);
	/* The second lookup in the same module comes from the cache and agrees. */
	CU_ASSERT_EQUAL(
	    pvmmon_symbols_resolve(&file, &line, &func, syms, info.dli_fname,
	                           (uint64_t)((char *)captured - (char *)info.dli_fbase)),
	    0);
	CU_ASSERT_EQUAL(line, call_line);
	free(file);
	free(func);
	pvmmon_symbols_free(syms);
}

static void test_library_without_debug_info(void)
{
	pvmmon_symbols *syms = NULL;
	Dl_info info;
	char *file = NULL, *func = NULL;
	int line = 0, rc;
	void *fn = dlsym(RTLD_DEFAULT, "strtol");

	CU_ASSERT_FATAL(fn != NULL && dladdr(fn, &info) != 0);
	CU_ASSERT_EQUAL_FATAL(pvmmon_symbols_new(&syms), 0);
	/* An address inside an exported function of libc: at least its name is known,
	 * whether or not line information is installed. */
	rc = pvmmon_symbols_resolve(&file, &line, &func, syms, info.dli_fname,
	                            (uint64_t)((char *)fn - (char *)info.dli_fbase) + 2);
	CU_ASSERT(rc == 0 || rc == PVMMON_ENOTFOUND);
	if (rc == 0)
		CU_ASSERT(func != NULL || file != NULL);
	free(file);
	free(func);
	pvmmon_symbols_free(syms);
}

static void test_missing_module(void)
{
	pvmmon_symbols *syms = NULL;
	char *file = (char *)1, *func = (char *)1;
	int line = 7;

	CU_ASSERT_EQUAL_FATAL(pvmmon_symbols_new(&syms), 0);
	CU_ASSERT_EQUAL(
	    pvmmon_symbols_resolve(&file, &line, &func, syms, "/nonexistent/module.so", 0x1234),
	    PVMMON_EIO);
	CU_ASSERT_PTR_NULL(file);
	CU_ASSERT_PTR_NULL(func);
	CU_ASSERT_EQUAL(line, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(pvmmon_error_last(), "/nonexistent/module.so"));
	/* Asked again, the failure is remembered rather than retried. */
	CU_ASSERT_EQUAL(
	    pvmmon_symbols_resolve(&file, &line, &func, syms, "/nonexistent/module.so", 0x1234),
	    PVMMON_EIO);
	pvmmon_symbols_free(syms);
	pvmmon_symbols_free(NULL);
}

CU_TestInfo test_symbols_tests[] = {
    {"a call site in this binary resolves to its line", test_resolves_own_call_site},
    {"a library without debug information", test_library_without_debug_info},
    {"a missing module", test_missing_module},
    CU_TEST_INFO_NULL,
};
