/* The log reader's errors: one line naming the input, the line and what is wrong, the
 * kinds of error in the order a whole-file check would find them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../unit.h"
#include "pvmmon/errors.h"
#include "pvmmon/log.h"

#define FIXTURE "tests/fixtures/report-matmul.xml"

static char *fixture(void)
{
	FILE *f = fopen(FIXTURE, "r");
	char *text = calloc(1, 1 << 20);
	size_t n;

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	n = fread(text, 1, (1 << 20) - 1, f);
	text[n] = '\0';
	fclose(f);
	return text;
}

/* The fixture with its first `from` replaced by `to` (and cut after `cut`, when
 * given, at the first occurrence after the replacement); *line gets from's line. */
static char *changed(const char *from, const char *to, const char *cut, int *line)
{
	char *text = fixture(), *hit = strstr(text, from), *out = NULL;

	CU_ASSERT_PTR_NOT_NULL_FATAL(hit);
	*line = 1;
	for (const char *p = text; p < hit; p++)
		*line += *p == '\n';
	*hit = '\0';
	CU_ASSERT_FATAL(asprintf(&out, "%s%s%s", text, to, hit + strlen(from)) > 0);
	if (cut) {
		char *at = strstr(out + (hit - text), cut);

		CU_ASSERT_PTR_NOT_NULL_FATAL(at);
		at[strlen(cut)] = '\0';
	}
	free(text);
	return out;
}

/* Parses text as "mem.xml" and expects code and every one of the needles in the one
 * line it says. */
static void expect(const char *text, size_t len, int code, const char *const *needles)
{
	pvmmon_log *log = NULL;

	CU_ASSERT_EQUAL(pvmmon_log_parse(&log, text, len, "mem.xml"), code);
	CU_ASSERT_PTR_NULL(log);
	CU_ASSERT_PTR_NULL(strchr(pvmmon_error_last(), '\n'));
	CU_ASSERT_PTR_NOT_NULL(strstr(pvmmon_error_last(), "mem.xml: "));
	for (; *needles; needles++) {
		CU_ASSERT_PTR_NOT_NULL(strstr(pvmmon_error_last(), *needles));
		if (!strstr(pvmmon_error_last(), *needles))
			fprintf(stderr, "\n'%s' not in: %s\n", *needles, pvmmon_error_last());
	}
	CU_ASSERT_PTR_NULL(strstr(pvmmon_error_last(), "TODO"));
}

/* A bad attribute: the line of its element, the attribute, and why. */
static void test_attribute_named(void)
{
	char *t, where[64];
	int line;

	t = changed("status=\"exited\"", "status=\"gone\"", NULL, &line);
	snprintf(where, sizeof(where), "(line %d: ", line);
	expect(t, strlen(t), PVMMON_ESCHEMA,
	       (const char *const[]){"does not match the log schema", where,
	                             "Invalid attribute status for element task", NULL});
	free(t);
	t = changed("count=\"1\"", "count=\"x\"", NULL, &line);
	snprintf(where, sizeof(where), "(line %d: ", line);
	expect(t, strlen(t), PVMMON_ESCHEMA,
	       (const char *const[]){where, "Invalid attribute count for element stmt",
	                             "doesn't allow value 'x'", NULL});
	free(t);
}

/* Text where the schema has none names the element. */
static void test_stray_text(void)
{
	int line;
	char *t = changed("<stmt ", "stray <stmt ", NULL, &line);

	expect(t, strlen(t), PVMMON_ESCHEMA,
	       (const char *const[]){"Did not expect text in element task content", NULL});
	free(t);
}

/* Not XML first: a file cut short, or empty, or text, is said to be so even when it
 * also breaks the schema before the cut; and a wrong version before a schema error. */
static void test_not_xml_first(void)
{
	int line;
	char *t = changed("status=\"exited\"", "status=\"gone\"", "</stmt>\n", &line);

	expect(t, strlen(t), PVMMON_EPARSE,
	       (const char *const[]){"not a well-formed XML file", "Premature end of data in tag",
	                             NULL});
	free(t);
	expect("", 0, PVMMON_EPARSE,
	       (const char *const[]){"not a well-formed XML file", "Document is empty", NULL});
	expect("hello\n", 6, PVMMON_EPARSE,
	       (const char *const[]){"(line 1: Start tag expected", NULL});
	t = changed("<pvmmon-log version=\"", "<pvmmon-log bogus=\"1\" version=\"9", NULL, &line);
	expect(t, strlen(t), PVMMON_EVERSION, (const char *const[]){"is not supported", NULL});
	free(t);
}

/* The schema is compiled once and reused: reading again gives the same model. */
static void test_read_twice(void)
{
	char *text = fixture();
	pvmmon_log *a = NULL, *b = NULL;

	CU_ASSERT_EQUAL_FATAL(pvmmon_log_parse(&a, text, strlen(text), "a.xml"), 0);
	CU_ASSERT_EQUAL_FATAL(pvmmon_log_parse(&b, text, strlen(text), "b.xml"), 0);
	CU_ASSERT_EQUAL(a->ntasks, b->ntasks);
	CU_ASSERT(a->ntasks > 0);
	CU_ASSERT_EQUAL(a->tasks[0].nstmts, b->tasks[0].nstmts);
	pvmmon_log_free(a);
	pvmmon_log_free(b);
	free(text);
}

CU_TestInfo test_log_errors_tests[] = {
    {"a bad attribute: its line, its name and why", test_attribute_named},
    {"stray text names its element", test_stray_text},
    {"not XML is said first, then the version, then the schema", test_not_xml_first},
    {"the schema compiled once reads again alike", test_read_twice},
    CU_TEST_INFO_NULL,
};
