/*
 * Unit tests for graphs/top.c (`pvmmon top`'s view): each task's sparkline of its last
 * buckets' computing share, in block characters in a UTF-8 locale and in ASCII
 * otherwise, and no sparkline column for a snapshot without histograms.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "histmodel.h"
#include "pvmmon/report.h"

static char *top_of(const pvmmon_log *log)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);

	CU_ASSERT_PTR_NOT_NULL_FATAL(mem);
	CU_ASSERT_EQUAL(pvmmon_report_top(log, mem), 0);
	fclose(mem);
	return text;
}

/* The locale variables as top reads them; the old ones are put back by the caller. */
static void locale(const char *lang)
{
	unsetenv("LC_ALL");
	unsetenv("LC_CTYPE");
	setenv("LANG", lang, 1);
}

/* Whether the line of text that starts with start ends with end. */
static int ends(const char *text, const char *start, const char *end)
{
	const char *p = strstr(text, start), *nl = p ? strchr(p + 1, '\n') : NULL;
	size_t n = strlen(end);

	return nl && (size_t)(nl - p) >= n && !strncmp(nl - n, end, n);
}

static void test_sparklines(void)
{
	pvmmon_log *log = hm_three_phase(2);
	char *old = getenv("LANG") ? strdup(getenv("LANG")) : NULL, *text,
	     *all = getenv("LC_ALL") ? strdup(getenv("LC_ALL")) : NULL;

	/* The last 16 buckets are phase 3's: task 0 computes 45% (level 3 of 8), the slow
	 * task 0.1 96% (level 7). */
	locale("C");
	text = top_of(log);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "computing, last buckets"));
	CU_ASSERT(ends(text, "\n0 ", " ----------------"));
	CU_ASSERT(ends(text, "\n0.1 ", " ################"));
	free(text);
	locale("en_GB.UTF-8");
	text = top_of(log);
	CU_ASSERT(ends(text, "\n0 ",
	               " \u2583\u2583\u2583\u2583\u2583\u2583\u2583\u2583\u2583\u2583"
	               "\u2583\u2583\u2583\u2583\u2583\u2583"));
	CU_ASSERT(ends(text, "\n0.1 ", "\u2587\u2587"));
	free(text);
	if (old)
		setenv("LANG", old, 1);
	else
		unsetenv("LANG");
	if (all)
		setenv("LC_ALL", all, 1);
	free(old);
	free(all);
	pvmmon_log_free(log);
}

static void test_without_histograms(void)
{
	pvmmon_log *log = hm_log(2);
	char *text = top_of(log);

	CU_ASSERT_PTR_NULL(strstr(text, "last buckets"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\n0.1 "));
	free(text);
	pvmmon_log_free(log);
}

CU_TestInfo test_top_tests[] = {
    {"a sparkline per task of its last buckets, UTF-8 or ASCII", test_sparklines},
    {"no histograms: no sparkline column", test_without_histograms},
    CU_TEST_INFO_NULL,
};
