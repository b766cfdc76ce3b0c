/* libFuzzer target for every message kind of the protocol (common/wire_tags.def): the
 * first byte picks the kind, the rest goes to its decoder through wire__tag_check. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *copy;
	int tag;

	if (size < 1)
		return 0;
	tag = wire__kind_tag(data[0] % WIRE_NKINDS);
	/* An exact-size heap copy, so that ASan sees a read past its end. */
	copy = malloc(size - 1 ? size - 1 : 1);
	if (!copy)
		return 0;
	memcpy(copy, data + 1, size - 1);
	/* A decoder returns 0 or a negative code; what it made, it frees (LeakSanitizer
	 * checks). */
	if (wire__tag_check(tag, copy, size - 1) > 0)
		abort();
	free(copy);
	return 0;
}
