/* Golden-file comparison shared by the graphs unit tests. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/CUnit.h>

#include "golden.h"
#include "pvmmon/export.h"

char *unit_slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
		buf = calloc(1, (size_t)n + 1);
		if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
			free(buf);
			buf = NULL;
		}
	}
	fclose(f);
	return buf;
}

void unit_check_golden(const char *text, const char *golden)
{
	char *want;

	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	/* The fatal assertion leaves by longjmp, which the compiler cannot see. */
	if (!text)
		return;
	if (getenv("PVMMON_UPDATE_GOLDEN")) {
		FILE *f = fopen(golden, "w");

		CU_ASSERT_PTR_NOT_NULL_FATAL(f);
		fputs(text, f);
		fclose(f);
	}
	want = unit_slurp(golden);
	CU_ASSERT_PTR_NOT_NULL(want);
	if (want && strcmp(want, text) != 0)
		fprintf(stderr, "\n  %s differs from what the code makes now:\n%s", golden, text);
	CU_ASSERT(want && strcmp(want, text) == 0);
	free(want);
}

char *unit_export_json(const struct pvmmon_log *log)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int rc;

	CU_ASSERT_PTR_NOT_NULL(f);
	if (!f)
		return NULL;
	rc = pvmmon_export_json(log, f);
	fclose(f);
	CU_ASSERT_EQUAL(rc, 0);
	if (rc != 0) {
		free(text);
		return NULL;
	}
	return text;
}
