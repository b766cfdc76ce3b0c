/* Whole replay streams: sender ids mapped to logical ids (and back), a log's record
 * checked against its sender table, and the log's text form (base64, hash). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "pvmmon/errors.h"
#include "replay.h"

int replay__remap(const uint8_t *data, size_t len, int32_t (*map)(void *ctx, int32_t id), void *ctx,
                  wire_buf *out, uint64_t *nentries)
{
	replay_dec d;
	replay_enc e;
	replay_entry ent;
	uint64_t n = 0;
	int rc;

	wire__buf_init(out);
	*nentries = 0;
	replay__dec_init(&d, data, len);
	replay__enc_init(&e);
	for (;;) {
		rc = replay__dec_next(&d, &ent);
		if (rc <= 0)
			break;
		if (ent.kind == REPLAY_MSG || ent.kind == REPLAY_HANDLED ||
		    ent.kind == REPLAY_NOTIFY)
			ent.sender = map(ctx, ent.sender);
		/* A notify names a task by tid: in a log, by its logical id like a sender. */
		if (ent.kind == REPLAY_NOTIFY)
			ent.value = map(ctx, ent.value);
		/* So does a group entry's task (pvm_gettid's answer, pvm_getinst's question). */
		if (ent.kind == REPLAY_GROUP && ent.sender != -1)
			ent.sender = map(ctx, ent.sender);
		/* The repeats still pending are this entry again: they move to the encoder's
		 * repeat count at once, since a few bytes can repeat an entry 2^32 times
		 * each, and walking them one by one would stall the monitor for minutes. */
		rc = replay__enc_add(&e, &ent);
		if (rc == 0)
			rc = replay__enc_repeat(&e, d.pending);
		if (rc < 0)
			goto out;
		n += 1 + d.pending;
		d.pending = 0;
	}
	if (rc < 0)
		goto out;
	rc = replay__enc_take(&e, out);
	if (rc == 0)
		*nentries = n;
out:
	replay__dec_free(&d);
	replay__enc_free(&e);
	return rc;
}

int replay__check(const uint8_t *data, size_t len, size_t nsenders, uint64_t *nentries)
{
	replay_dec d;
	replay_entry ent;
	uint64_t n = 0;
	int rc;

	*nentries = 0;
	replay__dec_init(&d, data, len);
	while ((rc = replay__dec_next(&d, &ent)) == 1) {
		if (((ent.kind == REPLAY_MSG || ent.kind == REPLAY_HANDLED ||
		      ent.kind == REPLAY_NOTIFY) ||
		     (ent.kind == REPLAY_GROUP && ent.sender != -1)) &&
		    (ent.sender < 0 || (size_t)ent.sender >= nsenders ||
		     (ent.kind == REPLAY_NOTIFY &&
		      (ent.value < 0 || (size_t)ent.value >= nsenders)))) {
			rc = pvmmon_error_set(PVMMON_EPARSE,
			                      "replay record damaged: entry %" PRIu64
			                      " has sender %d "
			                      "of %zu",
			                      n, (int)ent.sender, nsenders);
			goto out;
		}
		/* The repeats still pending are this entry again, already checked, so they
		 * are counted at once: a few bytes can repeat an entry 2^32 times each. */
		n += 1 + d.pending;
		d.pending = 0;
	}
	if (rc == 0)
		*nentries = n;
out:
	replay__dec_free(&d);
	return rc;
}

/* ---- Base64 and the hash. ---- */

/* ---- Base64 and the hash. ---- */

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

char *replay__b64_encode(const uint8_t *data, size_t len)
{
	char *s = malloc((len + 2) / 3 * 4 + 1), *p = s;
	size_t i;

	if (!s)
		return NULL;
	for (i = 0; i + 2 < len; i += 3) {
		uint32_t v = (uint32_t)data[i] << 16 | (uint32_t)data[i + 1] << 8 | data[i + 2];

		*p++ = b64[v >> 18];
		*p++ = b64[(v >> 12) & 63];
		*p++ = b64[(v >> 6) & 63];
		*p++ = b64[v & 63];
	}
	if (i < len) {
		uint32_t v =
		    (uint32_t)data[i] << 16 | (i + 1 < len ? (uint32_t)data[i + 1] << 8 : 0);

		*p++ = b64[v >> 18];
		*p++ = b64[(v >> 12) & 63];
		*p++ = i + 1 < len ? b64[(v >> 6) & 63] : '=';
		*p++ = '=';
	}
	*p = '\0';
	return s;
}

static int b64_value(char c)
{
	const char *p = c ? strchr(b64, c) : NULL;

	return p ? (int)(p - b64) : -1;
}

int replay__b64_decode(const char *text, uint8_t **out, size_t *len)
{
	size_t n = strlen(text), i, o = 0;
	uint8_t *buf;

	*out = NULL;
	*len = 0;
	if (n % 4)
		return pvmmon_error_set(PVMMON_EPARSE, "base64: length %zu is not a multiple of 4",
		                        n);
	buf = malloc(n / 4 * 3 + 1);
	if (!buf)
		return pvmmon_error_set(PVMMON_ENOMEM, "base64: out of memory");
	for (i = 0; i < n; i += 4) {
		int v[4], pad = 0;

		for (int k = 0; k < 4; k++) {
			v[k] = b64_value(text[i + k]);
			/* Padding only ends the text: "xx==" or "xxx=". */
			if (v[k] < 0 && text[i + k] == '=' && i + 4 == n && k >= 2 &&
			    (k == 3 || text[i + 3] == '=')) {
				v[k] = 0;
				pad++;
			} else if (v[k] < 0) {
				free(buf);
				return pvmmon_error_set(PVMMON_EPARSE,
				                        "base64: bad character at %zu", i + k);
			}
		}
		buf[o++] = (uint8_t)(v[0] << 2 | v[1] >> 4);
		if (pad < 2)
			buf[o++] = (uint8_t)((v[1] & 15) << 4 | v[2] >> 2);
		if (pad < 1)
			buf[o++] = (uint8_t)((v[2] & 3) << 6 | v[3]);
	}
	*out = buf;
	*len = o;
	return 0;
}

uint64_t replay__hash(const uint8_t *data, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < len; i++) {
		h ^= data[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}
