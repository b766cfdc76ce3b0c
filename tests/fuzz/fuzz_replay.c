/* libFuzzer target for the replay record stream decoder, its whole-stream check and base64. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../replay/replay.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A stream of a few bytes may repeat an entry 2^32 times, so a consumer that walks
 * entries one by one is bounded here; replay__check and replay__remap must bound
 * themselves. */
#define MAX_ENTRIES 100000

/* Sender maps for replay__remap: a spread that changes every id, and the identity. */
static int32_t spread(void *ctx, int32_t id)
{
	(void)ctx;
	return (int32_t)((uint32_t)id * 3u + 1u);
}

static int32_t same(void *ctx, int32_t id)
{
	(void)ctx;
	return id;
}

/* The monitor rewrites each task's stream with replay__remap; what it writes must
 * decode again to as many entries. */
static void remap(const uint8_t *data, size_t size)
{
	wire_buf out, again;
	uint64_t n = 0, m = 0;

	if (replay__remap(data, size, spread, NULL, &out, &n) == 0) {
		if (replay__remap(out.data, out.len, same, NULL, &again, &m) != 0 || m != n)
			abort();
		wire__buf_free(&again);
	}
	wire__buf_free(&out);
}

static void walk(const uint8_t *data, size_t size)
{
	static const size_t nsenders[] = {0, 1, 16, REPLAY_TABLE_MAX};
	replay_dec d;
	replay_entry e;
	uint64_t n;
	long k = 0;

	replay__dec_init(&d, data, size);
	while (k < MAX_ENTRIES && replay__dec_next(&d, &e) == 1) {
		if (e.kind < REPLAY_MSG || e.kind > REPLAY_GROUP)
			abort();
		/* A group answer names a known call and a group of 1..REPLAY_GROUP_NAME_MAX
		 * bytes. */
		if (e.kind == REPLAY_GROUP &&
		    (!strcmp(replay__group_call(e.op), "?") || !e.group || !*e.group ||
		     strlen(e.group) > REPLAY_GROUP_NAME_MAX))
			abort();
		if (e.kind != REPLAY_GROUP && e.group)
			abort();
		/* A read names a source no other kind uses, and nothing else of it. */
		if (e.kind == REPLAY_SOURCE &&
		    (!strcmp(replay__source_name(e.op), "?") || e.sender || e.tag || e.value))
			abort();
		k++;
	}
	replay__dec_free(&d);
	for (size_t i = 0; i < sizeof(nsenders) / sizeof(nsenders[0]); i++)
		replay__check(data, size, nsenders[i], &n);
	remap(data, size);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *copy, *bin = NULL;
	char *text;
	size_t len = 0;

	/* An exact-size heap copy, so that ASan sees any read past the stream's end. */
	copy = malloc(size ? size : 1);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	walk(copy, size);
	free(copy);

	/* The same bytes as the base64 text of a log's record element, and what that
	 * text decodes to as a stream in turn. */
	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (replay__b64_decode(text, &bin, &len) == 0) {
		if (!bin || len > size / 4 * 3)
			abort();
		walk(bin, len);
	}
	free(bin);
	free(text);
	return 0;
}
