/* libFuzzer target for the XML log reader: parsing, version, schema and record checks. */
#include <stddef.h>
#include <stdint.h>

#include <libxml/parser.h>

#include "pvmmon/log.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* libxml2 allocates its global state on first use; doing that once here keeps those
 * allocations out of the leak check of the first input. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	xmlInitParser();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	pvmmon_log *log = NULL;

	/* The reader takes the bytes as they come from a file or a monitor snapshot, so
	 * the input is passed unchanged, without a terminating NUL. */
	if (pvmmon_log_parse(&log, (const char *)data, size, "fuzz") == 0)
		pvmmon_log_free(log);
	return 0;
}
